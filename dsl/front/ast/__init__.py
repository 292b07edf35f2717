"""Stage 2: the AST. Immutable nodes, each with a source :class:`Span`.

Nothing after :mod:`cardscript.dsl.front.build` sees a Lark tree. Shapes:

* a script (:class:`Script`) is a tuple of top-level items (:data:`Item`);
* a :class:`Body` is a tuple of statements (:data:`Stmt`);
* selectors pick players (:class:`PlayerSel`), cards (:class:`CardSel`) or a zone
  (:class:`ZoneRef`); conditions (:data:`Cond`) and expressions (:data:`Expr`) are small trees.

The nodes are defined by area, one module each, and all re-exported here (the rest of
the compiler says ``A.CardSel``): :mod:`.node` (the base class), :mod:`.selectors`,
:mod:`.expressions`, :mod:`.conditions`, :mod:`.statements` (calls and statements),
:mod:`.scenario` (scenario steps) and :mod:`.declarations` (top-level items, :class:`Script`).
"""

from __future__ import annotations

from cardscript.dsl.front.ast.conditions import (
    Affected,
    AnyMarked,
    BoolOp,
    CameFrom,
    Compare,
    Cond,
    Did,
    Emitted,
    GameOverCond,
    Has,
    HasHome,
    Is,
    OutcomeIs,
    WinnerIs,
    ZoneEmpty,
)
from cardscript.dsl.front.ast.declarations import (
    Abilities,
    Ability,
    Action,
    Attribute,
    CardDef,
    ComputedAttr,
    CounterDecl,
    EffectDef,
    EndWhen,
    Event,
    Header,
    Item,
    Outcome,
    Passive,
    Players,
    PrintedForm,
    PrintedLabel,
    Printing,
    Remove,
    Rule,
    Score,
    Script,
    Setup,
    TieBreak,
    Trigger,
    Turn,
    Types,
    Uses,
    Warn,
    ZoneDecl,
)
from cardscript.dsl.front.ast.expressions import (
    AttrOf,
    BinOp,
    Count,
    CounterOf,
    CountPlayers,
    CountTypes,
    Expr,
    Highest,
    MinMax,
    Num,
    Param,
    SumAttr,
    Text,
)
from cardscript.dsl.front.ast.node import (
    Node,
)
from cardscript.dsl.front.ast.scenario import (
    ActiveSeat,
    AnswerChecked,
    Answers,
    AnswerTo,
    DoStep,
    Expect,
    ExpectError,
    ExpectOffered,
    Finish,
    NextTurn,
    Quiet,
    Rig,
    Seed,
    SetupStep,
    Step,
)
from cardscript.dsl.front.ast.selectors import (
    ANY_NUMBER,
    CardFilter,
    CardSel,
    MarkFilter,
    PlayerSel,
    ZoneRef,
)
from cardscript.dsl.front.ast.statements import (
    AttrModifier,
    BetweenTurns,
    Body,
    Call,
    CallItem,
    CardsArg,
    Choose,
    ChooseOne,
    CounterAdd,
    CounterSet,
    Emit,
    EndGame,
    ForCards,
    ForPlayers,
    If,
    Let,
    Mark,
    Nothing,
    NumArg,
    Otherwise,
    ParamArg,
    PlayersArg,
    Repeat,
    Resolve,
    RunBlock,
    Slot,
    StaticWhen,
    Stmt,
    StrArg,
    Word,
    ZoneArg,
)
from cardscript.dsl.front.ast.timing import Delayed, Grant, TriggerOrder, TriggerWait
from cardscript.dsl.front.ast.zones import (
    Replacement,
)

__all__ = [
    "Abilities", "Ability", "Action", "ActiveSeat", "Affected", "Answers", "AnyMarked", "AttrModifier",
    "AttrOf", "Attribute", "BetweenTurns", "BinOp", "Body", "BoolOp", "Call", "CallItem", "CardDef",
    "CardFilter", "CardSel", "CardsArg", "Choose", "ChooseOne", "Compare", "ComputedAttr", "Cond",
    "Count", "CountPlayers", "CountTypes", "CounterAdd", "CounterDecl", "CounterOf", "CounterSet", "Did", "DoStep",
    "EffectDef", "Emit", "Emitted", "EndGame", "EndWhen", "Event", "Expect", "Expr", "Finish", "ForCards",
    "ForPlayers", "GameOverCond", "Has", "HasHome", "Header", "Highest", "If", "Is", "Item", "Let", "Mark",
    "MarkFilter", "MinMax", "NextTurn", "Node", "Nothing", "Num", "NumArg", "Otherwise", "Outcome", "OutcomeIs",
    "Param", "ParamArg", "Passive", "PlayerSel", "Players", "PlayersArg", "PrintedForm", "PrintedLabel", "Printing",
    "Quiet", "Remove", "Repeat", "Resolve", "Rig", "Rule", "RunBlock", "Score", "Script", "Seed", "Setup", "Slot",
    "StaticWhen", "Stmt", "StrArg", "SumAttr", "Text", "TieBreak", "Trigger", "Turn", "Types", "Uses", "Warn",
    "WinnerIs", "Word", "ZoneArg", "ZoneDecl", "ZoneEmpty", "ZoneRef",
]
__all__ += ["Delayed", "Grant", "TriggerOrder", "TriggerWait"]  # the timing area (issue 12)

__all__ += ["AnswerChecked", "AnswerTo", "ExpectError", "ExpectOffered", "SetupStep", "Step"]
__all__ += ["CameFrom", "Replacement"]  # zones (issue 12)
__all__ += ["ANY_NUMBER"]

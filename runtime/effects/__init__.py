"""Effect objects: the compiled form of every statement, selector, condition and
expression. They run against a :class:`~cardscript.runtime.game.Game` and a
:class:`~cardscript.runtime.context.Ctx`; none of them knows any particular game.

Protocols:
    effects:     ``run(g, ctx) -> int`` — how much changed (0: nothing; drives "if you do");
    players:     ``players(g, ctx) -> list[int]`` — seats, in rule order;
    cards:       ``cards(g, ctx) -> list[int]`` — card ids, top of a zone first;
    zones:       ``slots(g, ctx) -> list[int]`` — zone slots;
    expressions: ``evaluate(g, ctx) -> int``;
    conditions:  ``test(g, ctx) -> bool``.

Modules:
    :mod:`.base`        :class:`Node` (the IR of every effect object) and shared helpers;
    :mod:`.expressions` numbers (and texts) computed from the state;
    :mod:`.conditions`  tests of the state;
    :mod:`.selectors`   zone references and selectors of players and cards;
    :mod:`.flow`        blocks, conditionals, loops, 'let', ending the game;
    :mod:`.calls`       script effects and their block arguments, abilities, events;
    :mod:`.changes`     changes to counters and marks;
    :mod:`.cards`       the built-in primitives on cards (move, take, shuffle, play, roll, ...);
    :mod:`.choices`     decisions: 'you may', 'choose', the free-action window;
    :mod:`.cardrules`   printed card text: 'choose one', attribute modifiers, the first player (issue 12),
                        'it is this card'.
    :mod:`.timing`      delayed effects ('at the next "EVENT"'), abilities for the rest of the turn.

Every class is re-exported here (``from cardscript.runtime import effects as E; E.Const``):
the lowering builds them by these names and the IR schema and the reference are
generated from the :class:`Node` subclasses found in this namespace.
"""

from __future__ import annotations

from cardscript.runtime.effects.base import (
    Node,
    card_has,
    to_ir,
    whose,
)
from cardscript.runtime.effects.calls import (
    Call,
    Closure,
    Emit,
    Resolve,
    RunBlock,
    UserEffect,
)
from cardscript.runtime.effects.cardrules import AddModifier, AttrFor, ChooseOne, GoFirst, IsThis, UseUpModifiers
from cardscript.runtime.effects.cards import (
    Flip,
    Move,
    Play,
    Reveal,
    Roll,
    Shuffle,
    Take,
    TakeControl,
)
from cardscript.runtime.effects.changes import (
    CounterAdd,
    CounterSet,
    MarkCards,
    MarkPlayers,
)
from cardscript.runtime.effects.choices import (
    Choose,
    May,
    TakeActions,
)
from cardscript.runtime.effects.conditions import (
    Affected,
    And,
    AnyFoeMarked,
    CameFrom,
    CardMarked,
    Compare,
    Did,
    Emitted,
    FaceDown,
    HasHome,
    HasWord,
    IsOver,
    Not,
    Or,
    OutcomeIs,
    Owned,
    PlayerMarked,
    Showing,
    WinnerIs,
    ZoneEmpty,
    _EveryCard,
)
from cardscript.runtime.effects.expressions import (
    Arith,
    AttrOf,
    CardCounter,
    Const,
    CountCards,
    CounterValue,
    CountSeats,
    CountTypes,
    Highest,
    HighestAttr,
    MinMax,
    SumAttr,
    Text,
    Var,
)
from cardscript.runtime.effects.flow import (
    AsPlayers,
    BetweenTurns,
    EndGame,
    ForCards,
    ForPlayers,
    If,
    Let,
    Nothing,
    Repeat,
    Seq,
)
from cardscript.runtime.effects.selectors import (
    Cards,
    Players,
    ZoneParam,
    ZoneRef,
    choose_cards,
)
from cardscript.runtime.effects.timing import Delay, Grant

# _EveryCard is listed so that the IR schema, generated from this namespace, keeps its entry.
__all__ = [
    "AddModifier",
    "Affected",
    "And",
    "AnyFoeMarked",
    "Arith",
    "AsPlayers",
    "AttrFor",
    "AttrOf",
    "BetweenTurns",
    "Call",
    "CameFrom",
    "CardCounter",
    "CardMarked",
    "Cards",
    "Choose",
    "ChooseOne",
    "Closure",
    "Compare",
    "Const",
    "CountCards",
    "CountSeats",
    "CountTypes",
    "CounterAdd",
    "CounterSet",
    "CounterValue",
    "Delay",
    "Did",
    "Emit",
    "Emitted",
    "EndGame",
    "FaceDown",
    "Flip",
    "ForCards",
    "ForPlayers",
    "GoFirst",
    "Grant",
    "HasHome",
    "HasWord",
    "Highest",
    "HighestAttr",
    "If",
    "IsOver",
    "IsThis",
    "Let",
    "MarkCards",
    "MarkPlayers",
    "May",
    "MinMax",
    "Move",
    "Node",
    "Not",
    "Nothing",
    "Or",
    "OutcomeIs",
    "Owned",
    "Play",
    "PlayerMarked",
    "Players",
    "Repeat",
    "Resolve",
    "Reveal",
    "Roll",
    "RunBlock",
    "Seq",
    "Showing",
    "Shuffle",
    "SumAttr",
    "Take",
    "TakeActions",
    "TakeControl",
    "Text",
    "UseUpModifiers",
    "UserEffect",
    "Var",
    "WinnerIs",
    "ZoneEmpty",
    "ZoneParam",
    "ZoneRef",
    "_EveryCard",
    "card_has",
    "choose_cards",
    "to_ir",
    "whose",
]

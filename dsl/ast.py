"""Stage 2: the AST. Frozen dataclasses, each with a source :class:`Span`.

Nothing after :mod:`dsl.builder` sees a Lark tree. Shapes:

* a script (:class:`Script`) is a tuple of top-level items;
* a :class:`Body` is a tuple of statements;
* selectors pick players (:class:`PlayerSel`), cards (:class:`CardSel`) or a zone
  (:class:`ZoneRef`); conditions and expressions are small trees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .diagnostics import Span


@dataclass(frozen=True)
class Node:
    span: Span = field(compare=False, repr=False)


# ---------------------------------------------------------------- selectors
@dataclass(frozen=True)
class PlayerSel(Node):
    """kind: you | them | target foe | each foe | each player | left | right | param | foe in."""

    kind: str
    param: str = ""
    filters: tuple["MarkFilter", ...] = ()


@dataclass(frozen=True)
class MarkFilter(Node):
    mark: str
    this_turn: bool
    negate: bool


@dataclass(frozen=True)
class ZoneRef(Node):
    """owner: you | them | shared | of | owner | home. ``player`` is set for owner 'of'."""

    owner: str
    name: str
    player: PlayerSel | None = None


@dataclass(frozen=True)
class CardFilter(Node):
    """kind: has | has_not | has_param | where. ``words`` lists alternatives ('or')."""

    kind: str
    words: tuple[str, ...] = ()
    cond: "Cond | None" = None


@dataclass(frozen=True)
class CardSel(Node):
    """Selects cards.

    kind: this | it | top | bottom | pick | param.
    quantity: one | up to | random | all | each | n | random n (for 'pick').
    count: the number for 'n', 'up to', 'random n', 'top'/'bottom' (an expression).
    types: the type words after the quantity ('a hero from ...'); empty for 'card'.
    name: a card name for '5 "Light Punch" from ...'.
    zones: where to look; empty for a placeless selector ('a weakness').
    played: 'cards you played this turn'.
    """

    kind: str
    quantity: str = ""
    count: "Expr | None" = None
    types: tuple[str, ...] = ()
    name: str = ""
    zones: tuple[ZoneRef, ...] = ()
    in_param: str = ""
    played: bool = False
    filters: tuple[CardFilter, ...] = ()
    card_word: str = ""


# ---------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Param(Node):
    name: str


@dataclass(frozen=True)
class Count(Node):
    cards: CardSel


@dataclass(frozen=True)
class CountPlayers(Node):
    pass


@dataclass(frozen=True)
class CountTypes(Node):
    cards: CardSel


@dataclass(frozen=True)
class SumAttr(Node):
    attr: str
    cards: CardSel


@dataclass(frozen=True)
class Highest(Node):
    expr: "Expr"
    players: PlayerSel


@dataclass(frozen=True)
class AttrOf(Node):
    attr: str
    card: CardSel


@dataclass(frozen=True)
class CounterOf(Node):
    """owner: you | them | shared."""

    owner: str
    name: str


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: "Expr"
    right: "Expr"


Expr = Union[Num, Param, Count, CountPlayers, CountTypes, SumAttr, Highest, AttrOf, CounterOf, BinOp]


# ---------------------------------------------------------------- conditions
@dataclass(frozen=True)
class Compare(Node):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Is(Node):
    """subject is a PlayerSel or CardSel; pred: marked | not marked | face down | face up."""

    subject: Union[PlayerSel, CardSel]
    pred: str
    mark: str = ""
    this_turn: bool = False


@dataclass(frozen=True)
class AnyMarked(Node):
    mark: str
    this_turn: bool


@dataclass(frozen=True)
class Did(Node):
    negate: bool


@dataclass(frozen=True)
class ZoneEmpty(Node):
    zone: ZoneRef


@dataclass(frozen=True)
class Has(Node):
    card: CardSel
    words: str


@dataclass(frozen=True)
class HasHome(Node):
    card: CardSel


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # and | or | not
    args: tuple["Cond", ...]


@dataclass(frozen=True)
class Emitted(Node):
    event: str
    player: PlayerSel | None = None


@dataclass(frozen=True)
class WinnerIs(Node):
    players: PlayerSel


Cond = Union[Compare, Is, AnyMarked, Did, ZoneEmpty, Has, HasHome, BoolOp, Emitted, WinnerIs]


# ---------------------------------------------------------------- calls and statements
@dataclass(frozen=True)
class Word(Node):
    text: str


@dataclass(frozen=True)
class StrArg(Node):
    text: str


@dataclass(frozen=True)
class NumArg(Node):
    expr: Expr


@dataclass(frozen=True)
class ParamArg(Node):
    name: str


@dataclass(frozen=True)
class Slot(Node):
    """A parameter slot in an effect pattern: {N: number}."""

    name: str
    type: str


@dataclass(frozen=True)
class PlayersArg(Node):
    sel: PlayerSel


@dataclass(frozen=True)
class CardsArg(Node):
    sel: CardSel


@dataclass(frozen=True)
class ZoneArg(Node):
    zone: ZoneRef


CallItem = Union[Word, StrArg, NumArg, ParamArg, Slot, PlayersArg, CardsArg, ZoneArg]


@dataclass(frozen=True)
class Call(Node):
    """A phrase: a verb and items, plus the block after ':' when there is one."""

    items: tuple[CallItem, ...]
    block: "Body | None" = None
    subject: PlayerSel | None = None
    may: bool = False


@dataclass(frozen=True)
class Choose(Node):
    cards: CardSel
    body: "Body | None" = None
    subject: PlayerSel | None = None
    may: bool = False


@dataclass(frozen=True)
class If(Node):
    cond: Cond
    then: "Body"
    otherwise: "Body | None" = None


@dataclass(frozen=True)
class Otherwise(Node):
    body: "Body"


@dataclass(frozen=True)
class ForPlayers(Node):
    players: PlayerSel
    body: "Body"


@dataclass(frozen=True)
class ForCards(Node):
    cards: CardSel
    body: "Body"


@dataclass(frozen=True)
class Repeat(Node):
    times: Expr
    body: "Body"


@dataclass(frozen=True)
class CounterAdd(Node):
    sign: int
    amount: Expr
    counter: str
    player: PlayerSel | None = None


@dataclass(frozen=True)
class CounterSet(Node):
    owner: str
    counter: str
    value: Expr


@dataclass(frozen=True)
class Mark(Node):
    target: Union[PlayerSel, CardSel]
    mark: str
    this_turn: bool
    unmark: bool = False


@dataclass(frozen=True)
class Resolve(Node):
    label: str
    card: Union[CardSel, str]
    player: PlayerSel | None = None


@dataclass(frozen=True)
class Emit(Node):
    event: str
    player: PlayerSel | None = None


@dataclass(frozen=True)
class EndGame(Node):
    reason: str


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class Nothing(Node):
    pass


@dataclass(frozen=True)
class RunBlock(Node):
    name: str


Stmt = Union[Call, Choose, If, Otherwise, ForPlayers, ForCards, Repeat, CounterAdd, CounterSet, Mark,
             Resolve, Emit, EndGame, Let, Nothing, RunBlock]


@dataclass(frozen=True)
class Body(Node):
    stmts: tuple[Stmt, ...]


# ---------------------------------------------------------------- top level
@dataclass(frozen=True)
class Header(Node):
    kind: str  # game | ruleset | variant | scenario | expansion
    name: str


@dataclass(frozen=True)
class Uses(Node):
    paths: tuple[str, ...]


@dataclass(frozen=True)
class Players(Node):
    low: int
    high: int


@dataclass(frozen=True)
class Types(Node):
    names: tuple[str, ...]


@dataclass(frozen=True)
class Attribute(Node):
    name: str
    default: Union[int, str]


@dataclass(frozen=True)
class Abilities(Node):
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Passive(Node):
    label: str
    zone: str


@dataclass(frozen=True)
class ZoneDecl(Node):
    name: str
    per_player: bool
    visibility: str
    face_down: bool
    stack: bool
    active: bool
    play_zone: bool
    refill_from: str


@dataclass(frozen=True)
class CounterDecl(Node):
    name: str
    per_player: bool
    initial: int
    low: int | None
    high: int | None


@dataclass(frozen=True)
class EffectDef(Node):
    pattern: tuple[CallItem, ...]
    body: Body


@dataclass(frozen=True)
class Printing(Node):
    """``copies N [as attr value ...]``: N copies with some attributes overridden."""

    copies: int
    overrides: tuple[tuple[str, Union[int, str]], ...]


@dataclass(frozen=True)
class Event(Node):
    name: str
    first_time: bool = False
    your_turn: bool = False


@dataclass(frozen=True)
class Ability(Node):
    label: str
    body: Body


@dataclass(frozen=True)
class Trigger(Node):
    event: Event
    body: Body


@dataclass(frozen=True)
class CardDef(Node):
    name: str
    words: tuple[tuple[str, Span], ...]
    attrs: tuple[tuple[str, Union[int, str], Span], ...]
    printings: tuple[Printing, ...]
    home: str
    abilities: tuple[Ability, ...]
    triggers: tuple[Trigger, ...]


@dataclass(frozen=True)
class Rule(Node):
    event: Event
    body: Body


@dataclass(frozen=True)
class Setup(Node):
    body: Body


@dataclass(frozen=True)
class Turn(Node):
    body: Body


@dataclass(frozen=True)
class Action(Node):
    name: str
    choose: CardSel | None
    cond: Cond | None
    body: Body


@dataclass(frozen=True)
class EndWhen(Node):
    timing: str  # immediately | after the turn
    cond: Cond
    reason: str


@dataclass(frozen=True)
class Score(Node):
    body: Body


@dataclass(frozen=True)
class TieBreak(Node):
    exprs: tuple[Expr, ...]


@dataclass(frozen=True)
class Expect(Node):
    """``expect [PLAYERS:] COND``: with players, COND holds for each of them as 'they'."""

    cond: Cond
    players: PlayerSel | None = None


@dataclass(frozen=True)
class Answers(Node):
    answers: tuple[Union[str, int, bool], ...]


@dataclass(frozen=True)
class DoStep(Node):
    body: Body


@dataclass(frozen=True)
class Seed(Node):
    value: int


@dataclass(frozen=True)
class NextTurn(Node):
    pass


@dataclass(frozen=True)
class Finish(Node):
    pass


@dataclass(frozen=True)
class ActiveSeat(Node):
    """Scenario step: make seat N (1-based) the active player ('you' in later steps)."""

    seat: int


@dataclass(frozen=True)
class Quiet(Node):
    """Log presentation: events (quoted) and counters (words) left out of the readable log."""

    events: tuple[str, ...]
    counters: tuple[str, ...]


Item = Union[Header, Uses, Players, Types, Attribute, Abilities, Passive, ZoneDecl, CounterDecl, EffectDef,
             CardDef, Rule, Setup, Turn, Action, EndWhen, Score, TieBreak, Expect, Answers, DoStep, Seed,
             NextTurn, Finish, ActiveSeat, Quiet]


@dataclass(frozen=True)
class Script(Node):
    file: str
    items: tuple[Item, ...]

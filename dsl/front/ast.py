"""Stage 2: the AST. Immutable nodes, each with a source :class:`Span`.

Nothing after :mod:`cardscript.dsl.front.build` sees a Lark tree. Shapes:

* a script (:class:`Script`) is a tuple of top-level items;
* a :class:`Body` is a tuple of statements;
* selectors pick players (:class:`PlayerSel`), cards (:class:`CardSel`) or a zone
  (:class:`ZoneRef`); conditions and expressions are small trees.
"""

from __future__ import annotations

from typing import Any, Union

from cardscript.dsl.diagnostics import Span


class Node:
    """Base of AST nodes: immutable, compared and hashed by their fields (not the span).

    Fields come from each class's annotations, in order, after the inherited ``span``;
    a class attribute gives a field's default. (Plain ``dataclasses`` generate code at
    import time, which cost more start-up than the whole check of a small game.)
    """

    _fields: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}
    span: Span

    def __init_subclass__(cls) -> None:
        own = [n for n in cls.__dict__.get("__annotations__", {}) if not n.startswith("_")]
        cls._fields = tuple(f for f in cls.__mro__[1]._fields if f not in own) + tuple(own)
        cls._defaults = {**cls.__mro__[1]._defaults, **{n: cls.__dict__[n] for n in own if n in cls.__dict__}}

    def __init__(self, span: Span, *args: Any, **kw: Any) -> None:
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__} takes {len(fields)} fields, got {len(args)}")
        d = self.__dict__
        d["span"] = span
        for name, value in zip(fields, args):
            d[name] = value
        for name in fields[len(args):]:
            if name in kw:
                d[name] = kw.pop(name)
            elif name in self._defaults:
                d[name] = self._defaults[name]
            else:
                raise TypeError(f"{type(self).__name__} is missing field {name!r}")
        if kw:
            raise TypeError(f"{type(self).__name__} has no field(s) {sorted(kw)}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _key(self) -> tuple[Any, ...]:
        return tuple(self.__dict__[f] for f in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key() == self._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={self.__dict__[f]!r}' for f in self._fields)})"


# ---------------------------------------------------------------- selectors
class PlayerSel(Node):
    """kind: you | them | target foe | each foe | each player | left | right | param | foe in."""

    kind: str
    param: str = ""
    filters: tuple[MarkFilter, ...] = ()


class MarkFilter(Node):
    mark: str
    this_turn: bool
    negate: bool


class ZoneRef(Node):
    """owner: you | them | shared | of | owner | home | card. ``player`` is set for owner
    'of' ('the hand of each foe'), ``card`` for a per-card zone ('the markers of it')."""

    owner: str
    name: str
    player: PlayerSel | None = None
    card: CardSel | None = None


class CardFilter(Node):
    """kind: has | has_not | has_param | where | prefer. ``words`` lists alternatives ('or');
    for 'prefer', words is ('highest',) or ('lowest',) and ``cond`` holds the expression —
    a hint for bots, not a rule."""

    kind: str
    words: tuple[str, ...] = ()
    cond: Cond | Expr | None = None


class CardSel(Node):
    """Selects cards.

    kind: this | it | top | bottom | pick | param.
    quantity: one | up to | random | all | each | n | random n (for 'pick').
    count: the number for 'n', 'up to', 'random n', 'top'/'bottom' (an expression).
    types: the type words after the quantity ('a hero from ...'); empty for 'card'.
    name: a card name for '5 "Scout" from ...'.
    zones: where to look; empty for a placeless selector ('a wound').
    played: 'cards you played this turn'.
    """

    kind: str
    quantity: str = ""
    count: Expr | None = None
    types: tuple[str, ...] = ()
    name: str = ""
    zones: tuple[ZoneRef, ...] = ()
    in_param: str = ""
    played: bool = False
    filters: tuple[CardFilter, ...] = ()
    card_word: str = ""
    control: bool = False


# ---------------------------------------------------------------- expressions
class Num(Node):
    value: int


class Text(Node):
    """A quoted text in an expression."""

    text: str


class Param(Node):
    name: str


class Count(Node):
    cards: CardSel


class CountPlayers(Node):
    pass


class CountTypes(Node):
    cards: CardSel


class SumAttr(Node):
    attr: str
    cards: CardSel


class Highest(Node):
    """'highest|lowest EXPR among PLAYERS', or 'highest|lowest ATTR of CARDS' (players None)."""

    expr: Expr
    players: PlayerSel | None
    lowest: bool = False


class MinMax(Node):
    op: str  # max | min
    left: Expr
    right: Expr


class AttrOf(Node):
    attr: str
    card: CardSel


class CounterOf(Node):
    """owner: you | them | shared | card (then ``cards`` is set)."""

    owner: str
    name: str
    cards: CardSel | None = None


class BinOp(Node):
    op: str
    left: Expr
    right: Expr


Expr = Union[Num, Text, Param, Count, CountPlayers, CountTypes, SumAttr, Highest, MinMax, AttrOf, CounterOf, BinOp]


# ---------------------------------------------------------------- conditions
class Compare(Node):
    op: str
    left: Expr
    right: Expr


class Is(Node):
    """subject is a PlayerSel or CardSel; pred: marked | not marked | face down | face up."""

    subject: PlayerSel | CardSel
    pred: str
    mark: str = ""
    this_turn: bool = False


class AnyMarked(Node):
    mark: str
    this_turn: bool


class Did(Node):
    negate: bool


class ZoneEmpty(Node):
    zone: ZoneRef


class Has(Node):
    card: CardSel
    words: str


class HasHome(Node):
    card: CardSel


class BoolOp(Node):
    op: str  # and | or | not
    args: tuple[Cond, ...]


class Emitted(Node):
    event: str
    player: PlayerSel | None = None


class WinnerIs(Node):
    players: PlayerSel


class OutcomeIs(Node):
    """'outcome is "TEXT"': the scored game's co-operative outcome."""

    text: str


class GameOverCond(Node):
    """'game over': the game has ended (by an end condition or 'end game')."""


Cond = Union[Compare, Is, AnyMarked, Did, ZoneEmpty, Has, HasHome, BoolOp, Emitted, WinnerIs, GameOverCond, OutcomeIs]


# ---------------------------------------------------------------- calls and statements
class Word(Node):
    text: str


class StrArg(Node):
    text: str


class NumArg(Node):
    expr: Expr


class ParamArg(Node):
    name: str


class Slot(Node):
    """A parameter slot in an effect pattern: {N: number}."""

    name: str
    type: str


class PlayersArg(Node):
    sel: PlayerSel


class CardsArg(Node):
    sel: CardSel


class ZoneArg(Node):
    zone: ZoneRef


CallItem = Union[Word, StrArg, NumArg, ParamArg, Slot, PlayersArg, CardsArg, ZoneArg]


class Call(Node):
    """A phrase: a verb and items, plus the block after ':' when there is one."""

    items: tuple[CallItem, ...]
    block: Body | None = None
    subject: PlayerSel | None = None
    may: bool = False


class Choose(Node):
    cards: CardSel
    body: Body | None = None
    subject: PlayerSel | None = None
    may: bool = False


class If(Node):
    cond: Cond
    then: Body
    otherwise: Body | None = None


class Otherwise(Node):
    body: Body


class ForPlayers(Node):
    players: PlayerSel
    body: Body


class ForCards(Node):
    cards: CardSel
    body: Body


class Repeat(Node):
    times: Expr
    body: Body


class CounterAdd(Node):
    """``+N counter [for PLAYERS]`` or, for a per-card counter, ``+N counter on CARDS``."""

    sign: int
    amount: Expr
    counter: str
    player: PlayerSel | None = None
    cards: CardSel | None = None


class CounterSet(Node):
    owner: str  # you | them | shared | card
    counter: str
    value: Expr
    cards: CardSel | None = None


class Mark(Node):
    target: PlayerSel | CardSel
    mark: str
    this_turn: bool
    unmark: bool = False


class Resolve(Node):
    label: str
    card: CardSel | str
    player: PlayerSel | None = None


class Emit(Node):
    event: str
    player: PlayerSel | None = None


class EndGame(Node):
    reason: str


class Let(Node):
    name: str
    value: Expr


class Nothing(Node):
    pass


class RunBlock(Node):
    name: str


Stmt = Union[Call, Choose, If, Otherwise, ForPlayers, ForCards, Repeat, CounterAdd, CounterSet, Mark,
             Resolve, Emit, EndGame, Let, Nothing, RunBlock]


class Body(Node):
    stmts: tuple[Stmt, ...]


# ---------------------------------------------------------------- top level
class Header(Node):
    kind: str  # game | ruleset | variant | scenario | expansion
    name: str


class Uses(Node):
    paths: tuple[str, ...]


class Players(Node):
    low: int
    high: int


class Types(Node):
    names: tuple[str, ...]


class Attribute(Node):
    name: str
    default: int | str


class Abilities(Node):
    labels: tuple[str, ...]


class Passive(Node):
    label: str
    zone: str


class ZoneDecl(Node):
    name: str
    per_player: bool
    visibility: str
    face_down: bool
    stack: bool
    active: bool
    play_zone: bool
    refill_from: str
    per_card: bool = False


class CounterDecl(Node):
    name: str
    per_player: bool
    initial: int
    low: int | None
    high: int | None
    per_card: bool = False


class EffectDef(Node):
    """``effect PATTERN [printed "TEMPLATE"]: body``."""

    pattern: tuple[CallItem, ...]
    body: Body
    printed: str = ""


class PrintedLabel(Node):
    """``printed LABEL as "TEMPLATE"``: how an ability label reads on a card; ``{text}`` is
    the ability's own text."""

    label: str
    template: str


class Printing(Node):
    """``copies N [as attr value ...]``: N copies with some attributes overridden."""

    copies: int
    overrides: tuple[tuple[str, int | str], ...]


class Event(Node):
    """``"name" [first time each turn] [during your turn] [of this card]``; 'of this card'
    fires for the card the event is about, wherever that card is."""

    name: str
    first_time: bool = False
    your_turn: bool = False
    of_this_card: bool = False


class Ability(Node):
    label: str
    body: Body


class Trigger(Node):
    event: Event
    body: Body


class CardDef(Node):
    name: str
    words: tuple[tuple[str, Span], ...]
    attrs: tuple[tuple[str, int | str, Span], ...]
    printings: tuple[Printing, ...]
    home: str
    abilities: tuple[Ability, ...]
    triggers: tuple[Trigger, ...]
    faces: tuple[str, ...] = ()


class Rule(Node):
    event: Event
    body: Body


class Setup(Node):
    """``setup ["name"]:`` — a named step can be replaced or removed by a variant."""

    body: Body
    name: str = ""


class Remove(Node):
    """``remove card|setup|action "name"`` — a variant takes a part of its game away."""

    kind: str
    name: str


class Turn(Node):
    body: Body


class Action(Node):
    """An action of the action window; ``prefer`` (plain actions) is a value for bots."""

    name: str
    choose: CardSel | None
    cond: Cond | None
    body: Body
    prefer: Expr | None = None


class EndWhen(Node):
    timing: str  # immediately | after the turn
    cond: Cond
    reason: str


class Score(Node):
    body: Body


class Outcome(Node):
    """``outcome "TEXT" when COND``: read after scoring; the first that holds is the result."""

    text: str
    cond: Cond


class Warn(Node):
    """``warn "TEXT" when COND``: told to the players when COND holds after setup."""

    text: str
    cond: Cond


class TieBreak(Node):
    exprs: tuple[Expr, ...]


class Expect(Node):
    """``expect [PLAYERS:] COND``: with players, COND holds for each of them as 'they'."""

    cond: Cond
    players: PlayerSel | None = None


class Answers(Node):
    answers: tuple[str | int | bool, ...]


class DoStep(Node):
    body: Body


class Seed(Node):
    value: int


class NextTurn(Node):
    pass


class Finish(Node):
    pass


class Rig(Node):
    """Scenario step: force the next shuffle (cards named, from the top) or the next
    random picks (one answer per card picked)."""

    kind: str  # shuffle | random
    values: tuple[str | int, ...]


class ActiveSeat(Node):
    """Scenario step: make seat N (1-based) the active player ('you' in later steps)."""

    seat: int


class Quiet(Node):
    """Log presentation: events (quoted) and counters (words) left out of the readable log."""

    events: tuple[str, ...]
    counters: tuple[str, ...]


Item = Union[Header, Uses, Players, Types, Attribute, Abilities, Passive, ZoneDecl, CounterDecl, EffectDef,
             CardDef, Rule, Setup, Turn, Action, EndWhen, Score, Outcome, Warn, TieBreak, Expect, Answers, DoStep, Seed,
             NextTurn, Finish, ActiveSeat, Rig, Quiet, Remove, PrintedLabel]


class Script(Node):
    """A parsed file. ``kind`` is the header kind it inherits when it has no header of its
    own (a game's card files rank with the game)."""

    file: str
    items: tuple[Item, ...]
    kind: str = ""

"""AST calls and statements: effect phrases (:class:`Call` and its items), control flow,
counters, marks and the other statements of a :class:`Body`."""

from __future__ import annotations

from typing import TypeAlias

from cardscript.dsl.front.ast.conditions import Cond
from cardscript.dsl.front.ast.expressions import Expr
from cardscript.dsl.front.ast.node import Node
from cardscript.dsl.front.ast.selectors import CardSel, PlayerSel, ZoneRef
from cardscript.dsl.front.ast.timing import Delayed, Grant


# ---------------------------------------------------------------- calls
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


CallItem: TypeAlias = Word | StrArg | NumArg | ParamArg | Slot | PlayersArg | CardsArg | ZoneArg


class Call(Node):
    """A phrase: a verb and items, plus the block after ':' when there is one."""

    items: tuple[CallItem, ...]
    block: Body | None = None
    subject: PlayerSel | None = None
    may: bool = False


# ---------------------------------------------------------------- statements
class Choose(Node):
    cards: CardSel
    body: Body | None = None
    subject: PlayerSel | None = None
    may: bool = False


class ChooseOne(Node):
    """``choose one: A; or B``: the acting player (or each subject) picks one mode and it runs.
    ``labels`` are the modes as written (white space collapsed), the options' labels."""

    modes: tuple[Body, ...]
    labels: tuple[str, ...]
    subject: PlayerSel | None = None


class AttrModifier(Node):
    """A number attribute changed as some players see it: ``cards with hero cost 1 more
    for each foe this turn`` (``verb`` empty: every card of the types, for the turn) or
    ``the next super power you buy this turn costs 2 less`` (``verb`` 'buy': the next such
    card that the action named 'buy' uses). ``amount`` is signed: 'less' is negative;
    ``word`` is the attribute as written ('cost', 'costs')."""

    word: str
    types: tuple[str, ...]
    amount: int
    players: PlayerSel | None = None
    verb: str = ""
    this_turn: bool = True  # cards2 area: False is a static rule of a passive ability


class StaticWhen(Node):
    """A static trigger of a passive ability (cards2 area, issue 12): ``when you play a
    hero: +1 power`` runs ``body`` each time the event ``verb`` is emitted for the
    player in whose passive zone the card lies, when the event's card has one of
    ``types`` (any card when empty)."""

    verb: str
    types: tuple[str, ...]
    body: Body
    # "The first time you play a Hero each turn" ('each turn'), "... during each of your
    # turns" ('your turns': only on the player's own turn): at most once per turn per card.
    once: str = ""
    where: Cond | None = None  # '... a card where cost of it <= 3': the event's card as 'it'


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


class BetweenTurns(Node):
    """'between turns: BODY': no player is active while the body runs."""

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


Stmt: TypeAlias = (
    Call | Choose | If | Otherwise | ForPlayers | ForCards | Repeat | CounterAdd | CounterSet | Mark
    | Resolve | Emit | EndGame | Let | Nothing | RunBlock | BetweenTurns
    | ChooseOne | AttrModifier  # cards area (issue 12)
    | Delayed | Grant  # the timing area (issue 12)
    | StaticWhen  # cards2 area (issue 12)
)


class Body(Node):
    stmts: tuple[Stmt, ...]

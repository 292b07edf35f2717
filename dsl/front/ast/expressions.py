"""AST expressions: numbers, texts, parameters, counts, attributes, counters and
arithmetic; :data:`Expr` is their union."""

from __future__ import annotations

from typing import TypeAlias

from cardscript.dsl.front.ast.node import Node
from cardscript.dsl.front.ast.selectors import CardSel, PlayerSel


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
    """``ATTR of CARD``: as printed; ``ATTR of CARD for PLAYER``: as that player sees it,
    with the modifiers of the turn (``cards cost 1 less for you this turn``)."""

    attr: str
    card: CardSel
    player: PlayerSel | None = None


class CounterOf(Node):
    """owner: you | them | shared | card (then ``cards`` is set)."""

    owner: str
    name: str
    cards: CardSel | None = None


class BinOp(Node):
    op: str
    left: Expr
    right: Expr


Expr: TypeAlias = (
    Num | Text | Param | Count | CountPlayers | CountTypes | SumAttr | Highest | MinMax | AttrOf
    | CounterOf | BinOp
)

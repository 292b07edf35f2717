"""AST conditions: comparisons, 'is' tests of players and cards, marks, zones, events
and the boolean operators; :data:`Cond` is their union."""

from __future__ import annotations

from typing import TypeAlias

from cardscript.dsl.front.ast.expressions import Expr
from cardscript.dsl.front.ast.node import Node
from cardscript.dsl.front.ast.selectors import CardSel, PlayerSel, ZoneRef


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


class Affected(Node):
    """'you were affected' / 'they were not affected': the previous statement changed
    (did not change) something of the player."""

    players: PlayerSel
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


class CameFrom(Node):
    """``CARDS came from ZONE`` (issue 12): every selected card's last move took it out of
    that zone (and there is one)."""

    cards: CardSel
    zone: ZoneRef


Cond: TypeAlias = (
    Compare | Is | AnyMarked | Did | ZoneEmpty | Has | HasHome | BoolOp | Emitted | WinnerIs
    | GameOverCond | OutcomeIs | CameFrom | Affected
)

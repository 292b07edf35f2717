"""AST of the timing area (issue 12): the order of simultaneous triggers, delayed
effects and abilities for the rest of the turn. Annotations name the other AST classes as text; they resolve in
:mod:`cardscript.dsl.front.ast` (this module is imported by the statements module)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardscript.dsl.front.ast.node import Node

if TYPE_CHECKING:
    from cardscript.dsl.front.ast.conditions import Cond
    from cardscript.dsl.front.ast.expressions import Expr
    from cardscript.dsl.front.ast.statements import Body


class TriggerOrder(Node):
    """``triggers resolve in the order you choose``: when an event runs two or more
    different triggers, the event's player picks which resolves next (JLD-15)."""


class TriggerWait(Node):
    """``your triggers wait until the card you are playing resolves``: the card triggers
    that a player's events fire while a card they play resolves wait until it has fully
    resolved (DC rulebooks, "Resolving Card Abilities")."""


class Delayed(Node):
    """``at the next "EVENT": body`` / ``at your next "EVENT": body``: a one-shot effect
    run the next time the event is emitted (for anyone / for the player who set it up)."""

    event: str
    yours: bool
    body: Body


class Grant(Node):
    """``once this turn, you may "LABEL" [where COND] [prefer EXPR]: body`` (or ``N times``,
    ``any number of times``): an action the acting player is offered in the action window
    until the turn ends. ``uses``: how many times, 0 for any number (-1: written
    ``0 times``, a mistake the lowering reports)."""

    label: str
    uses: int
    body: Body
    cond: Cond | None = None
    prefer: Expr | None = None

"""AST of the timing area (issue 12): the order of simultaneous triggers and delayed
effects. Annotations name the other AST classes as text; they resolve in
:mod:`cardscript.dsl.front.ast` (this module is imported by the statements module)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardscript.dsl.front.ast.node import Node

if TYPE_CHECKING:
    from cardscript.dsl.front.ast.statements import Body


class TriggerOrder(Node):
    """``triggers resolve in the order you choose``: when an event runs two or more
    different triggers, the event's player picks which resolves next (JLD-15)."""


class Delayed(Node):
    """``at the next "EVENT": body`` / ``at your next "EVENT": body``: a one-shot effect
    run the next time the event is emitted (for anyone / for the player who set it up)."""

    event: str
    yours: bool
    body: Body

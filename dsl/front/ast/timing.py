"""AST of the timing area (issue 12): the order of simultaneous triggers."""

from __future__ import annotations

from cardscript.dsl.front.ast.node import Node


class TriggerOrder(Node):
    """``triggers resolve in the order you choose``: when an event runs two or more
    different triggers, the event's player picks which resolves next (JLD-15)."""

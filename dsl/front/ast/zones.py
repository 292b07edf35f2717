"""AST nodes of the "zones" area (issue 12): a card's replacement of an effect call
(:class:`Replacement`); the condition 'came from' is a condition (:mod:`.conditions`)."""

from __future__ import annotations

from cardscript.dsl.front.ast.node import Node
from cardscript.dsl.front.ast.statements import Body, CallItem


class Replacement(Node):
    """``instead of [a foe's] PATTERN [, first time each turn]: body`` on a card.

    ``pattern`` names an effect of the program (its words and parameter slots); while the
    card lies in an active zone, the body runs instead of each call of that effect made by
    the player of the zone (``foes``: by a foe of that player), with the call's arguments
    bound to the slots' names."""

    pattern: tuple[CallItem, ...]
    body: Body
    foes: bool = False
    first_time: bool = False


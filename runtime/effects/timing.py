"""Statements of the timing area (issue 12): delayed effects (:class:`Delay`) and
abilities for the rest of the turn (:class:`Grant`)."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects.base import Node
from cardscript.runtime.game import Game
from cardscript.runtime.game.timing import DelayedEffect, GrantedAction


class Delay(Node):
    """``at the next "EVENT": body`` (``yours``: ``at your next``): sets up a one-shot
    effect that runs the next time EVENT is emitted — for any player, or only for the
    player who set it up — with 'you' still the player who set it up, 'this' the card
    that set it up and 'it' what it was here. The runtime knows no turn steps: a game emits the events its
    turn has ("end of turn", "start of turn") and cards wait for them. Result: 1.

    Raises:
        RunawayError: too many delayed effects pending (``MAX_DELAYED``, CS401)."""

    __slots__ = ("body", "event", "yours")

    def __init__(self, event: str, yours: bool, body: Any):
        self.event, self.yours, self.body = event, yours, body

    def run(self, g: Game, ctx: Ctx) -> int:
        g.add_delayed(DelayedEffect(self, ctx.you if self.yours else -1, ctx.copy(frames=[{}])))
        return 1


class Grant(Node):
    """``once this turn, you may "LABEL" [where COND] [prefer EXPR]: body`` (``uses`` 1; N;
    0 for "any number of times"): the acting player's action window offers the action
    LABEL, while COND holds, until the turn ends, at most ``uses`` times; its body runs
    with 'this' the card that granted it. Bots see it like a game's action (``prefer``
    guides the greedy bot). Result: 1.

    Raises:
        RunawayError: too many actions granted this turn (``MAX_GRANTED``, CS401)."""

    __slots__ = ("body", "cond", "label", "prefer", "uses")

    def __init__(self, label: str, uses: int, body: Any, cond: Any = None, prefer: Any = None):
        self.label, self.uses, self.body, self.cond, self.prefer = label, uses, body, cond, prefer

    def run(self, g: Game, ctx: Ctx) -> int:
        g.add_granted(GrantedAction(self.label, self.cond, self.body, self.prefer, ctx.you,
                                       self.uses if self.uses > 0 else -1, ctx.copy(frames=[{}])))
        return 1

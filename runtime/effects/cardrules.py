"""Statements that printed card text needs beyond the basic verbs (issue 12): a modal
choice (:class:`ChooseOne`)."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.decision import Decision
from cardscript.runtime.effects.base import Node
from cardscript.runtime.game import Game


class ChooseOne(Node):
    """``choose one: A; or B``: the acting player picks one mode, which runs.

    The decision's kind is ``"mode"`` and its options are labelled with each mode's text
    as written, so a scenario may answer ``"draw a card"`` or an index. The result is
    the chosen mode's result (what "if you do" reads after it).
    """

    __slots__ = ("labels", "modes")

    def __init__(self, modes: list[Any], labels: list[str]):
        self.modes, self.labels = modes, labels

    def run(self, g: Game, ctx: Ctx) -> int:
        options = list(range(len(self.modes)))
        pick = g.decide(Decision(ctx.you, "mode", options, list(self.labels), 1, 1, "choose one"))[0]
        return int(self.modes[pick].run(g, ctx))

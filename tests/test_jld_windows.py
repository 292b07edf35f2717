"""The action window's ``gated`` plans (runtime/effects/actionplan.py): a choose whose
filter starts with conjuncts that read no card, or holds hoisted parts, gives the options
(and the steps) the selector gives, and Justice League Dark's three such actions take the
plan, its remembered prefixes and its rule-outs rather than falling back to the selector."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import make_agents
from cardscript.runtime.effects import actionplan as AP
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.engine import Engine
from cardscript.runtime.game import Game

GATED = ("Ragman seals", "Wonder Woman seals", "Swamp Thing discards")


@pytest.fixture(scope="module")
def defs() -> dict[str, Any]:
    return {name: compile_game(name)[0] for name in ("justice-league-dark", "injustice")}


def _checked(m: pytest.MonkeyPatch, seen: Counter[str], gated: set[int]) -> None:
    """Every window's options (and steps) are compared with the options found afresh;
    ``seen`` counts decisions, rule-outs, gated passes and the passes of the selectors
    ``gated`` (ids) that fell back to the selector."""
    planned, ruled, keyed = AP.WindowPlan.options, AP.WindowPlan._ruled_out, AP.WindowPlan._keyed
    candidates = S.Cards.candidates
    inside = [False]

    def options(self: AP.WindowPlan, g: Game, ctx: Any, outer: str) -> list[Any]:
        start = g.steps
        brute = AP.WindowPlan.all_options(g, ctx, outer)
        brute_steps, g.steps = g.steps - start, start
        fast = planned(self, g, ctx, outer)
        assert fast == brute, (g.turn, [(a and a.name, c) for a, c in brute], [(a and a.name, c) for a, c in fast])
        assert g.steps - start == brute_steps
        seen["decisions"] += 1
        return fast

    def ruled_out(self: AP.WindowPlan, g: Game, ctx: Any, i: int, gate: Any) -> bool:
        out = ruled(self, g, ctx, i, gate)
        seen["ruled out"] += out
        return out

    def keyed_(self: AP.WindowPlan, g: Game, ctx: Any, i: int, act: Any, data: Any) -> list[int]:
        seen["gated"] += data[2] is not None
        inside[0] = True
        try:
            return keyed(self, g, ctx, i, act, data)
        finally:
            inside[0] = False

    def candidates_(sel: Any, g: Game, ctx: Any) -> list[int]:
        seen["fallback"] += inside[0] and id(sel) in gated
        return candidates(sel, g, ctx)

    m.setattr(AP.WindowPlan, "options", options)
    m.setattr(AP.WindowPlan, "_ruled_out", ruled_out)
    m.setattr(AP.WindowPlan, "_keyed", keyed_)
    m.setattr(S.Cards, "candidates", candidates_)


@pytest.mark.parametrize(("game", "seats"), [("justice-league-dark", 2), ("justice-league-dark", 3), ("injustice", 2),
                                             ("injustice", 4)])
def test_gated_options_equal_the_options_found_afresh(defs: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                                                      game: str, seats: int) -> None:
    seen: Counter[str] = Counter()
    with monkeypatch.context() as m:
        _checked(m, seen, set())
        for seed in range(4):
            Engine(defs[game], seats, make_agents(["random"], seats), seed, log=False).run()
    assert seen["decisions"] > 100


def test_the_test_kind_actions_of_justice_league_dark_are_gated(defs: dict[str, Any],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    d = defs["justice-league-dark"]
    g = Game(d, 2, make_agents(["random"], 2), 0)
    plans = {a.name: AP.option_plan(a, g) for a in d.actions}
    for name in GATED:
        kind, data = plans[name]
        assert kind == "gated", name
        gate = data[2]
        assert gate[1], name  # a prefix: the count of a named character
        assert gate[4] is not None and gate[4].slots and gate[5], name  # keyed, ruled out by the pool's size
    assert plans["Ragman seals"][1][2][3]  # 'highest cost of all cards you played this turn ...': hoisted
    seen: Counter[str] = Counter()
    with monkeypatch.context() as m:
        _checked(m, seen, {id(a.choose) for a in d.actions if a.name in GATED})
        for seed in range(4):
            Engine(d, 2, make_agents(["random"], 2), seed, log=False).run()
    # the selector only where the budget would run out (never in these games)
    assert seen["gated"] > 100 and seen["ruled out"] > 1000 and seen["fallback"] == 0, seen

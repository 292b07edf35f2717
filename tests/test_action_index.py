"""Issue 11, part B: game creation from a per-definition layout, and the legal actions of
the action window (runtime/effects/choices.py) against the options found the old way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import make_agents
from cardscript.runtime.decision import Agent, Decision
from cardscript.runtime.effects import actionplan as AP
from cardscript.runtime.effects import choices as CH
from cardscript.runtime.effects import hoist as H
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import InvalidDecision
from cardscript.runtime.game import Game
from cardscript.runtime.game import layout as L
from cardscript.runtime.game.snapshot import FIXED
from cardscript.runtime.observation import bind

MINIDECK = str(Path(__file__).resolve().parent.parent / "bench" / "minideck")
GAMES = {"injustice": (2, 4), "hero-dice-batman": (1, 2), "justice-league-dark": (2, 3), MINIDECK: (2, 3)}


@pytest.fixture(scope="module")
def defs() -> dict[str, Any]:
    return {name: compile_game(name)[0] for name in GAMES}


def _state(g: Game) -> dict[str, Any]:
    out = {k: v for k, v in vars(g).items() if k not in ("_rng", "agents")}  # the RNG by its state
    out["rng"] = g.rng.getstate()
    return out


# ---------------------------------------------------------------- game creation
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_from_the_layout_equals_one_laid_out_from_scratch(defs: dict[str, Any], name: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    d = defs[name]
    for seats in GAMES[name]:
        agents = make_agents(["random"], seats)
        Game(d, seats, agents, 5, False)  # the layout is made and kept
        cached = _state(Game(d, seats, agents, 5, False))
        with monkeypatch.context() as m:
            m.setattr("cardscript.runtime.game.state.layout_for", lambda d, n: L.Layout(d, n))
            scratch = _state(Game(d, seats, agents, 5, False))
        assert cached.keys() == scratch.keys()
        for key in cached:
            assert cached[key] == scratch[key], key


@pytest.mark.parametrize("name", sorted(GAMES))
def test_two_games_of_one_definition_share_no_state(defs: dict[str, Any], name: str) -> None:
    d = defs[name]
    seats = GAMES[name][0]
    a = Game(d, seats, make_agents(["random"], seats), 1, False)
    b = Game(d, seats, make_agents(["random"], seats), 2, False)
    for key, value in vars(a).items():
        if key in FIXED or isinstance(value, (int, str, bool, float, type(None), frozenset)):
            continue
        assert value is not getattr(b, key), f"{key} is shared by two games"
    assert not {id(s) for s in a.slots} & {id(s) for s in b.slots}
    # what a game shares with its layout is what a snapshot calls FIXED
    assert set(L.FIXED_LAYOUT) <= FIXED


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playing_leaves_the_layout_as_it_was_made(defs: dict[str, Any], name: str) -> None:
    d = defs[name]
    seats = GAMES[name][-1]
    kept = L.layout_for(d, seats)
    for seed in range(3):  # greedy in one game: its forecasts play on copies made from the layout
        bots = ["random", "greedy" if seed == 0 else "heuristic"]
        Engine(d, seats, make_agents(bots, seats), seed, log=False).run()
    fresh = L.Layout(d, seats)
    assert L.layout_for(d, seats) is kept
    for slot in type(kept).__slots__:
        assert getattr(kept, slot) == getattr(fresh, slot), slot
    # and a game made after them starts exactly as the first one did
    g = Game(d, seats, make_agents(["random"], seats), 0, False)
    assert g.slots[kept.box] == list(range(kept.ncards))
    assert all(not s for i, s in enumerate(g.slots) if i != kept.box)


def test_a_layout_is_forgotten_with_its_definition(defs: dict[str, Any]) -> None:
    import copy
    import gc

    d = copy.copy(defs["injustice"])  # a definition nothing else holds
    L.layout_for(d, 2)
    key = id(d)
    assert L._LAYOUTS[key][0]() is d
    del d
    gc.collect()
    assert key not in L._LAYOUTS


def test_every_window_of_a_definition_shares_one_plan_forgotten_with_it(defs: dict[str, Any]) -> None:
    """Hero Dice's two 'take actions' use one WindowPlan; a copy of the definition gets its
    own, which goes with it."""
    import copy
    import gc

    d = defs["hero-dice-batman"]
    Engine(d, 1, make_agents(["random"], 1), 3, log=False).run()
    windows = [n for n in _nodes(d) if isinstance(n, CH.TakeActions) and n._plan is not None]
    assert len(windows) >= 2 and all(n._plan is CH.plan_for(Game(d, 1, make_agents(["random"], 1), 0))
                                     for n in windows)
    other = copy.copy(d)
    g = Game(other, 1, make_agents(["random"], 1), 0)
    plan, key = CH.plan_for(g), id(other)
    assert plan is not windows[0]._plan and CH.plan_for(g) is plan
    del other, g, plan
    gc.collect()
    assert key not in CH._PLANS


def _nodes(x: Any, seen: set[int] | None = None) -> list[Any]:
    """Every effect object reachable from ``x`` (a definition's triggers, blocks, ...)."""
    seen = set() if seen is None else seen
    if id(x) in seen or x is None or isinstance(x, (bool, int, float, str, type)):
        return []
    seen.add(id(x))
    out = [x] if isinstance(x, AP.Node) else []
    if isinstance(x, AP.Node):
        parts: Any = [getattr(x, f, None) for f in type(x).__slots__ if f != "_plan"]
    elif isinstance(x, dict):
        parts = list(x.values())
    elif isinstance(x, (list, tuple, set, frozenset)):
        parts = list(x)
    elif hasattr(x, "__dict__"):
        parts = list(vars(x).values())
    else:
        parts = []
    for p in parts:
        out += _nodes(p, seen)
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_per_card_names_are_the_card_types_names(defs: dict[str, Any], name: str) -> None:
    """'move 5 "Light Punch" from the box' filters by the layout's per-card names."""
    d = defs[name]
    g = Game(d, GAMES[name][0], make_agents(["random"], GAMES[name][0]), 3, False)
    assert g.card_names == [d.cards[t].name for t in g.card_type]
    assert [g.card_name(c) for c in range(len(g.card_type))] == g.card_names


# ---------------------------------------------------------------- the action window
class _Compared:
    """Counts of what the comparing wrappers saw."""

    def __init__(self) -> None:
        self.decisions = self.hits = self.misses = self.values = self.shared = 0


def _tested(known: dict[Any, dict[int, Any]]) -> int:
    """How many (state, card) answers a keyed action remembers."""
    return sum(len(cards) for cards in known.values())


def _compare_options(monkeypatch: pytest.MonkeyPatch) -> _Compared:
    """At every action window decision, the planned options (and the steps they cost)
    must equal the options found the old way."""
    seen = _Compared()
    planned = AP.WindowPlan.options
    fresh: set[int] = set()

    def options(self: AP.WindowPlan, g: Game, ctx: Any, outer: str) -> list[Any]:
        if id(self) not in fresh:  # what earlier tests' games left remembered would hide the misses
            fresh.add(id(self))
            for known in self.known:
                known.clear()
        start = g.steps
        brute = AP.WindowPlan.all_options(g, ctx, outer)
        brute_steps, g.steps = g.steps - start, start
        before = [_tested(k) for k in self.known]
        fast = planned(self, g, ctx, outer)
        assert fast == brute, (g.turn, [(a and a.name, c) for a, c in brute], [(a and a.name, c) for a, c in fast])
        assert g.steps - start == brute_steps
        assert g.action_name == outer
        seen.decisions += 1
        for (kind, _), a, b in zip(self.plans, before, self.known, strict=True):
            if kind == "keyed":
                if a == _tested(b) and a:  # no card tested afresh
                    seen.hits += 1
                else:
                    seen.misses += 1
        return fast

    monkeypatch.setattr(AP.WindowPlan, "options", options)
    return seen


def _compare_values(monkeypatch: pytest.MonkeyPatch) -> _Compared:
    """Whenever a bot reads an action decision's values, the values with the shared parts
    (and their steps) must equal the hints evaluated one by one."""
    seen = _Compared()
    planned = CH._ActionValues.__call__

    def values(self: Any) -> list[int]:
        g = self.g
        start = g.steps
        raw = CH.option_values(g, self.options, self.ctx, {}, {})
        raw_steps, g.steps = g.steps - start, start
        fast = planned(self)
        assert fast == raw
        assert g.steps - start == raw_steps
        assert all(not m.have for m in self.plan.memos)  # nothing remembered past the pass
        seen.values += 1
        seen.shared += bool(self.plan.memos)
        return fast

    monkeypatch.setattr(CH._ActionValues, "__call__", values)
    return seen


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), game=st.sampled_from(sorted(GAMES)))
def test_planned_options_equal_the_options_found_afresh(defs: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                                                       seed: int, game: str) -> None:
    with monkeypatch.context() as m:
        seen = _compare_options(m)
        seats = GAMES[game][-1]
        Engine(defs[game], seats, make_agents(["random"], seats), seed, log=False).run()
    assert seen.decisions > 0


def test_remembered_candidates_are_used_and_stay_right(defs: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The 'buy' of Injustice and Justice League Dark is keyed: over a few games some
    windows reuse it (and Hero Dice's 'play'), and every one equals the options found afresh."""
    for game in ("injustice", "justice-league-dark"):
        plans = [k for k, _ in (AP.option_plan(a, Game(defs[game], 2, make_agents(["random"], 2), 0))
                                for a in defs[game].actions)]
        assert "keyed" in plans and "direct" in plans, plans
    # Minideck's 'play: choose a card from your hand with play' is static
    plans = [AP.option_plan(a, Game(defs[MINIDECK], 2, make_agents(["random"], 2), 0))[0]
             for a in defs[MINIDECK].actions]
    assert plans == ["static", "keyed"]
    # Hero Dice's 'play: choose a hero card from your hand where you are not marked ...' too
    plans = [AP.option_plan(a, Game(defs["hero-dice-batman"], 1, make_agents(["random"], 1), 0))[0]
             for a in defs["hero-dice-batman"].actions]
    assert plans[-1] == "keyed"
    for game, seats in (("injustice", 2), ("justice-league-dark", 2), ("hero-dice-batman", 1)):
        with monkeypatch.context() as m:
            seen = _compare_options(m)
            for seed in range(3):
                Engine(defs[game], seats, make_agents(["random"], seats), seed, log=False).run()
        assert seen.hits > 0 and seen.misses > 0, game


def test_what_a_key_cannot_hold_is_tested_as_before(defs: dict[str, Any]) -> None:
    """A mark some static rule gives, a computed or statically modified attribute, a
    passive counter: reading them may scan zones and count steps, so no key reads them."""
    d = defs["hero-dice-batman"]
    g = Game(d, 1, make_agents(["random"], 1), 0)
    play = d.actions[-1]
    assert AP.option_plan(play, g)[0] == "keyed"
    g.static_marks = frozenset({("No Cards", True)})
    assert AP.option_plan(play, g)[0] == "test"
    d = defs["injustice"]
    buy = next(a for a in d.actions if a.name == "buy")
    for name, value in (("computed_attrs", frozenset({"cost"})), ("static_attrs", frozenset({"cost"}))):
        g = Game(d, 2, make_agents(["random"], 2), 0)
        assert AP.option_plan(buy, g)[0] == "keyed"
        setattr(g, name, value)
        assert AP.option_plan(buy, g)[0] == "test", name


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6))
def test_shared_hint_parts_give_the_values_of_each_hint(defs: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                                                        seed: int) -> None:
    with monkeypatch.context() as m:
        seen = _compare_values(m)
        # the heuristic bot reads the same hint values at every action decision as greedy,
        # without greedy's lookahead (issue 13), which made these six games take 11 s
        Engine(defs["hero-dice-batman"], 1, make_agents(["heuristic"], 1), seed, log=False).run()
        Engine(defs["injustice"], 2, make_agents(["heuristic"], 2), seed, log=False).run()
    assert seen.values > 0 and seen.shared > 0


def test_hints_keep_their_trees(defs: dict[str, Any]) -> None:
    """The rewritten hints are copies: the definition's own prefer trees are unchanged."""
    d = defs["hero-dice-batman"]
    before = [AP.shape(a.prefer) for a in d.actions]
    plan = AP.WindowPlan(d.actions, Game(d, 1, make_agents(["random"], 1), 0))
    assert plan.memos
    assert [AP.shape(a.prefer) for a in d.actions] == before
    assert not any(isinstance(a.prefer, H.Hoisted) for a in d.actions)
    # the shape tells apart what is written differently, and only that
    one, two = (a.prefer for a in d.actions[:2])
    assert AP.shape(one) == AP.shape(one) and AP.shape(one) != AP.shape(two)


def _parts(x: Any, out: list[Any]) -> None:
    """Every object inside ``x`` that :func:`~AP.shape` walks (``x`` included)."""
    out.append(x)
    if isinstance(x, AP.Node):
        for f in type(x).__slots__:
            if not f.startswith("_"):
                _parts(getattr(x, f), out)
    elif isinstance(x, (list, tuple, frozenset)):
        for i in x:
            _parts(i, out)


def test_numbered_shapes_are_equal_exactly_when_the_shapes_are(defs: dict[str, Any]) -> None:
    """A plan keys the parts of its hints by :class:`AP._Shapes`, a numbered
    :func:`AP.shape`: over every part of every hint and action condition of the built-in
    games, two parts get the same number exactly when their shapes are equal."""
    for d in defs.values():
        parts: list[Any] = []
        for a in d.actions:
            for tree in (a.prefer, a.cond, a.choose):
                _parts(tree, parts)
        shapes = AP._Shapes()
        by_key: dict[Any, Any] = {}
        by_shape: dict[Any, Any] = {}
        for p in parts:
            key, full = shapes.key(p), AP.shape(p)
            assert by_key.setdefault(key, full) == full
            assert by_shape.setdefault(full, key) == key
        assert len(by_key) == len(by_shape) > 10


# ---------------------------------------------------------------- checking an answer
class _Says(Agent):
    name = "says"

    def __init__(self, answer: list[int]):
        self.answer = answer

    def choose(self, view: Any, decision: Any) -> list[int]:
        return list(self.answer)


@pytest.mark.parametrize(("answer", "low", "high", "ok"), [
    ([0], 1, 1, True), ([2], 1, 1, True), ([3], 1, 1, False), ([-1], 1, 1, False),
    ([1], 2, 2, False), ([1], 0, 0, False), ([1], 0, 3, True), ([0, 0], 0, 2, False), ([0, 2], 2, 2, True),
    ([], 0, 1, True), ([], 1, 1, False),
])
def test_an_answer_is_checked_whatever_its_length(defs: dict[str, Any], answer: list[int], low: int, high: int,
                                                  ok: bool) -> None:
    g = Game(defs["injustice"], 2, [_Says(answer), _Says(answer)], 0, False)
    for seat, agent in enumerate(g.agents):
        bind(g, seat, agent)
    d = Decision(0, "card", [10, 11, 12], ["a", "b", "c"], low, high, "gain")
    if ok:
        assert g.decide(d) == answer
    else:
        with pytest.raises(InvalidDecision):
            g.decide(d)

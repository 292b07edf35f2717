"""Issue 13, bots that play well and fair: the forecast (a seat's fair model of the game),
the greedy lookahead, the search bot and the ladder."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardscript
from cardscript.runtime.agents import GreedyAgent, RandomAgent
from cardscript.runtime.decision import Agent
from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.engine import Engine
from cardscript.runtime.forecast import Forecast, deal, hidden_groups
from cardscript.runtime.game import Game, GameState
from cardscript.runtime.observation import DecisionView, Observation, card_seen
from test_observations import _reachable

ROOT = Path(__file__).resolve().parent.parent
PAID = str(ROOT / "tests" / "fixtures" / "paid-action.cards")
GAMES = [("injustice", 2), ("justice-league-dark", 2), ("hero-dice-batman", 2)]


class _ForecastProber(Agent):
    """Greedy, but at its first action decisions walks everything reachable from the forecast
    it was handed (and from what the forecast's methods return)."""

    name = "forecast-prober"
    forecasts = True

    def __init__(self) -> None:
        self.inner = GreedyAgent()
        self.found: list[str] = []
        self.walked = 0

    def bind(self, seat: int, seed: int) -> None:
        self.inner.bind(seat, seed)

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        if decision.kind == "action" and self.walked < 6:
            self.walked += 1
            fc = decision.forecast
            out = [fc, fc.after, fc.picks, fc.value, fc.after(0, 1), fc.value()]
            for x in _reachable((view, decision, fc, out)):
                if isinstance(x, (Game, GameState, GameDefinition, Engine)):
                    self.found.append(type(x).__name__)
                if isinstance(x, __import__("weakref").ref):
                    self.found.append("a weak reference")
        return self.inner.choose(view, decision)


@pytest.mark.parametrize("game,players", GAMES)
def test_nothing_reachable_from_a_forecast_leads_to_the_game(game: str, players: int) -> None:
    d = cardscript.compile_game(game)
    probe = _ForecastProber()
    Engine(d, players, [probe] + [RandomAgent() for _ in range(players - 1)], seed=4).run()
    assert probe.walked >= 3
    assert probe.found == []
    # a Forecast is two numbers: nothing to hold a game in
    assert Forecast.__slots__ == ("_key", "_serial")


class _Keeper(Agent):
    """Keeps the forecast of its first action decision, to try it once answered."""

    name = "keeper"
    forecasts = True

    def __init__(self) -> None:
        self.inner = GreedyAgent()
        self.kept: list[Forecast] = []

    def bind(self, seat: int, seed: int) -> None:
        self.inner.bind(seat, seed)

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        if decision.kind == "action" and not self.kept:
            self.kept.append(decision.forecast)
        return self.inner.choose(view, decision)


def test_a_forecast_of_an_answered_decision_refuses() -> None:
    d = cardscript.compile_game("injustice")
    keeper = _Keeper()
    Engine(d, 2, [keeper, RandomAgent()], seed=2).run()
    with pytest.raises(RuntimeError, match=r"answered|gone"):
        keeper.kept[0].after(0, 1)


class _Unrecorded(Agent):
    name = "unrecorded"  # says nothing of forecasts: the engine does not record its game

    def bind(self, seat: int, seed: int) -> None:
        self.errors: list[str] = []

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        if decision.kind == "action" and not self.errors:
            try:
                decision.forecast.after(0, 1)
            except RuntimeError as e:
                self.errors.append(str(e))
        return [0] if decision.low else []


def test_a_forecast_in_an_unrecorded_game_says_why() -> None:
    d = cardscript.compile_game("injustice")
    a = _Unrecorded()
    Engine(d, 2, [a, RandomAgent()], seed=2).run()
    assert a.errors and "forecasts = True" in a.errors[0]


class _Watcher(Agent):
    """Greedy; checks at each of its action decisions that forecasting left the game as it was."""

    name = "watcher"
    forecasts = True
    game: Game | None = None  # set by the test, engine side

    def __init__(self) -> None:
        self.inner = GreedyAgent()
        self.checked = 0

    def bind(self, seat: int, seed: int) -> None:
        self.inner.bind(seat, seed)

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        if decision.kind != "action" or self.checked >= 10:
            return self.inner.choose(view, decision)
        assert self.game is not None
        before = self.game.snapshot()
        picks = self.inner.choose(view, decision)
        assert self.game.snapshot() == before
        self.checked += 1
        return picks


def test_forecasting_leaves_the_game_alone() -> None:
    d = cardscript.compile_game("justice-league-dark")
    w = _Watcher()
    e = Engine(d, 2, [w, RandomAgent()], seed=6)
    w.game = e.game
    e.run()
    assert w.checked == 10


def test_a_deal_keeps_sizes_owners_and_every_card_the_seat_sees() -> None:
    d = cardscript.compile_game("injustice")
    e = Engine(d, 3, [RandomAgent() for _ in range(3)], seed=9, log=False)
    e.setup()
    for p in range(3):
        e.play_one_turn(p)
    g = e.game
    seat = 0
    seen = {c for c in range(len(g.loc)) if card_seen(g, c, seat)}
    where = {c: g.loc[c] for c in seen}
    sizes = [len(s) for s in g.slots]
    owned = sorted((g.owner[c], g.card_type[c]) for c in range(len(g.loc)))
    groups = hidden_groups(g, seat)
    assert sum(map(len, groups)) > 40  # the decks, the foes' hands
    before = [list(s) for s in g.slots]
    deal(g, groups, random.Random(1))
    assert [len(s) for s in g.slots] == sizes
    assert all(g.loc[c] == slot for c, slot in where.items())
    assert all(g.loc[c] == slot for slot, cards in enumerate(g.slots) for c in cards)
    assert sorted((g.owner[c], g.card_type[c]) for c in range(len(g.loc))) == owned
    assert [list(s) for s in g.slots] != before  # something was dealt again
    # a foe's hand: the same size, other cards (of that foe's)
    hand = g.zone_base[next(z.index for z in g.d.zones if z.name == "hand")] + 1
    assert all(g.owner[c] == 1 for c in g.slots[hand])


def _taken(bots: list[str], seeds: range) -> tuple[int, int, bool]:
    d = cardscript.compile_game("injustice", expansions=[PAID])
    offered = taken = 0
    logged = False
    for s in seeds:
        r = cardscript.play_game(d, players=2, agents=bots, seed=s)
        for e in r.log:
            if e["t"] == "decision" and e["kind"] == "action" and e["player"] == 0:
                offered += any(label.startswith("pay 3 power") for label in e["options"])
                taken += e["options"][e["chose"][0]].startswith("pay 3 power")
            logged = logged or (e["t"] == "action" and "pay 3 power" in json.dumps(e))
    return offered, taken, logged


def test_greedy_takes_a_paid_action_an_expansion_adds() -> None:
    offered, taken, _ = _taken(["heuristic", "random"], range(1, 3))
    assert offered > 50 and taken == 0  # the declaration-order heuristic never takes it
    offered, taken, _ = _taken(["greedy", "random"], range(1, 3))
    assert offered > 20 and taken >= 5


def _play_in_a_process(bots: str, seed: int, hashseed: str) -> Any:
    code = ("import cardscript, json, sys; d = cardscript.compile_game('injustice');"
            f"r = cardscript.play_game(d, players=2, agents={bots.split(',')!r}, seed={seed});"
            "print(json.dumps([r.scores, r.decisions, r.turns]))")
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("bots", ["greedy,random"])
def test_the_bots_play_the_same_game_in_every_process(bots: str) -> None:
    assert _play_in_a_process(bots, 3, "1") == _play_in_a_process(bots, 3, "2")


def test_greedy_beats_random_from_either_seat() -> None:
    d = cardscript.compile_game("justice-league-dark")
    wins = 0
    for s in range(1, 5):
        greedy_seat = s % 2
        agents: list[Agent] = [RandomAgent(), RandomAgent()]
        agents[greedy_seat] = GreedyAgent()
        r = Engine(d, 2, agents, seed=s, log=False).run()
        wins += r.winners == [greedy_seat]
    assert wins == 4


def test_search_takes_the_paid_action_too() -> None:
    offered, taken, _ = _taken(["search:2", "random"], range(1, 2))
    assert offered > 10 and taken >= 2


@pytest.mark.parametrize("bots", ["search:2,greedy"])
def test_search_plays_the_same_game_in_every_process(bots: str) -> None:
    assert _play_in_a_process(bots, 5, "3") == _play_in_a_process(bots, 5, "4")


def test_search_names_and_bad_budgets() -> None:
    from cardscript.runtime.agents import make_agents

    assert [a.name for a in make_agents(["search", "search:8", "search:1000"], 3)] == ["search", "search:8", "search:1000"]
    # a huge N would fill the memory with its rollouts' seeds before the first decision
    for bad in ("search:0", "search:x", "greedy:3", "search:1001", "search:999999999"):
        with pytest.raises(ValueError):
            make_agents([bad], 1)


def test_the_ladder_alternates_seats_and_gives_intervals() -> None:
    from cardscript.dsl.sim.ladder import ladder, seating

    assert seating("a", "b", 2, 0) == ["a", "b"] and seating("a", "b", 2, 1) == ["b", "a"]
    d = cardscript.compile_game("injustice")
    out = ladder("injustice", d, ["random", "heuristic"], 4, 2, 1, cost_games=1)
    (pair,) = out["pairs"]
    assert pair["games"] == 4
    assert pair["a_wins"]["count"] + pair["b_wins"]["count"] == pytest.approx(4)
    assert 0 <= pair["b_wins"]["low"] <= pair["b_wins"]["rate"] <= pair["b_wins"]["high"] <= 1
    assert set(out["cost"]) == {"random", "heuristic"} and all(v > 0 for v in out["cost"].values())


def test_the_ladder_counts_outcome_tiers_in_a_cooperative_game() -> None:
    from cardscript.dsl.sim.ladder import ladder

    d = cardscript.compile_game("hero-dice-batman")
    out = ladder("hero-dice-batman", d, ["random"], 3, 1, 1, cost_games=0)
    tiers = out["outcomes"]["random"]["tiers"]
    assert sum(t["count"] for t in tiers.values()) == 3
    assert list(tiers) == [text for text, _ in d.outcomes]


def test_a_lookahead_spends_a_bounded_budget_not_the_games(tmp_path: Path) -> None:
    """An action costing 100,000 steps: each of the greedy bot's lookaheads got what was left
    of the game's budget, and one game ran for more than 7 minutes (found by a hostile trial).
    One option's lookahead now has LOOKAHEAD_STEPS past its decision: the trap is valued as a
    runaway (never worth taking), and a turn takes seconds."""
    import time

    from cardscript.runtime import forecast
    from cardscript.runtime.agents import make_agents

    (tmp_path / "cardscript.toml").write_text('name = "gt"\nversion = "0.1.0"\ngame = "injustice"\n',
                                              encoding="utf-8")
    (tmp_path / "cards.cards").write_text('expansion "GT"\nuses "injustice"\n'
                                          'action "trap": repeat 1000: repeat 100: set your power to 0\n',
                                          encoding="utf-8")
    from cardscript.runtime.game import forks

    d = cardscript.compile_game("injustice", expansions=[tmp_path])
    limits: list[tuple[int, int]] = []  # (the decision's steps, its lookahead's budget)
    real = forks.fork

    def fork(game: Any, *args: Any, **kw: Any) -> Any:
        limits.append((game.steps, kw.get("step_limit") or game.step_limit))
        return real(game, *args, **kw)

    start = time.process_time()
    e = Engine(d, 2, make_agents(["greedy"], 2), 1, log=False)
    e.setup()
    forks.fork = fork
    try:
        e.play_turns(4)
    finally:
        forks.fork = real
    assert e.game.turn == 4 and time.process_time() - start < 20  # before: about 30 s
    assert len(limits) > 20 and all(limit - at <= forecast.LOOKAHEAD_STEPS for at, limit in limits)
    assert e.game.steps < 500_000  # the game itself never took the trap (100,000 steps each)
    assert forecast.LOOKAHEAD_STEPS <= 50_000

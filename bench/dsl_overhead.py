"""Minideck two ways: the cardscript scripts in ``bench/minideck/`` and the plain
Python of ``bench/handwritten.py``. Runs both with the same seeds and policy,
checks the games are identical, and times them.

Used by ``bench/run.py`` and ``tests/test_bench_equivalence.py``.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import handwritten

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine

MINIDECK = Path(__file__).resolve().parent / "minideck"


@lru_cache(maxsize=1)
def definition():
    """The compiled Minideck (compiled once)."""
    d, _warnings, _program = compile_game(str(MINIDECK))
    return d


def run_cardscript(seed: int, players: int, policy: str, trace: bool = False):
    """One Minideck game on the cardscript engine; with ``trace``, the Result gets a
    ``trace`` attribute in the hand-written format (seat, kind, labels, picks)."""
    # the hand-written greedy mirrors the declaration-order heuristic (issue 13: "greedy" looks ahead)
    bot = "heuristic" if policy == "greedy" else policy
    result = Engine(definition(), players, make_agents([bot], players), seed, log=trace).run()
    if trace:
        result.trace = [(e["player"], e["kind"], tuple(e["options"]), tuple(e["chose"]))
                        for e in result.log if e["t"] == "decision"]
    return result


def run_handwritten(seed: int, players: int, policy: str, trace: bool = False):
    return handwritten.play(seed, players, policy, trace)


def summary(r: Any) -> tuple:
    """What must agree between the two versions for one game."""
    return (r.winners, r.scores, r.turns, r.reason, r.decisions, r.ranking, r.tie_values)


class Mismatch(AssertionError):
    pass


def assert_identical(seeds: list[int], players: int, policy: str, trace: bool = True) -> int:
    """Play every seed both ways and raise :class:`Mismatch` at the first difference:
    winners, scores, turns, end reason, decision count, ranking, tie-break values, and
    (with ``trace``) the whole sequence of decisions with their options and picks.
    Returns the number of decisions compared."""
    compared = 0
    for seed in seeds:
        a = run_cardscript(seed, players, policy, trace)
        b = run_handwritten(seed, players, policy, trace)
        if trace:
            for i, (x, y) in enumerate(zip(a.trace, b.trace)):
                if x != y:
                    raise Mismatch(f"{policy} seed {seed} ({players}p): decision {i} differs:\n"
                                   f"  cardscript:  {x}\n  handwritten: {y}")
            if len(a.trace) != len(b.trace):
                raise Mismatch(f"{policy} seed {seed} ({players}p): {len(a.trace)} vs {len(b.trace)} decisions")
            compared += len(a.trace)
        if summary(a) != summary(b):
            raise Mismatch(f"{policy} seed {seed} ({players}p): results differ:\n"
                           f"  cardscript:  {summary(a)}\n  handwritten: {summary(b)}")
    return compared


@dataclass
class Timing:
    policy: str
    players: int
    games: int
    cardscript_s: float  # median over the rounds, all games
    handwritten_s: float
    identical: bool  # every timed game gave the same summary both ways
    traced_seeds: int  # games whose whole decision sequence was compared
    decisions: float  # mean per game
    turns: float  # mean per game
    cardscript_runs: list[float] = field(default_factory=list)  # each round's time, all games
    handwritten_runs: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.cardscript_s / self.handwritten_s


def time_both(seeds: list[int], players: int, policy: str, rounds: int = 3, traced: int = 5) -> Timing:
    """Time both versions over ``seeds`` (``rounds`` interleaved rounds, the median round
    per side), compare every game's summary, and the full trace of the first ``traced``."""
    definition()  # compile outside the clock
    assert_identical(seeds[:traced], players, policy, trace=True)
    cs_runs: list[float] = []
    hw_runs: list[float] = []
    res_cs: list = []
    res_hw: list = []
    run_cardscript(seeds[0], players, policy)  # warm-up (first-call costs)
    for _ in range(rounds):
        t0 = time.perf_counter()
        res_cs = [run_cardscript(s, players, policy) for s in seeds]
        t1 = time.perf_counter()
        res_hw = [run_handwritten(s, players, policy) for s in seeds]
        t2 = time.perf_counter()
        cs_runs.append(t1 - t0)
        hw_runs.append(t2 - t1)
    same = all(summary(a) == summary(b) for a, b in zip(res_cs, res_hw))
    n = len(seeds)
    return Timing(policy, players, n, statistics.median(cs_runs), statistics.median(hw_runs), same,
                  min(traced, n), sum(r.decisions for r in res_cs) / n, sum(r.turns for r in res_cs) / n,
                  cs_runs, hw_runs)

"""What snapshots cost (issue 11, "snapshots"): µs per ``snapshot()`` + ``restore()`` of a
4-player Injustice game mid-game (the target: at most 50 µs), and the parts around it.

    python bench/snapshot.py            # the table
    python bench/snapshot.py --json     # the same figures as one JSON object

Each figure is the median of ``--rounds`` rounds of ``--batch`` calls (per call). The game
is played by random bots to the start of turn ``--turn``; the fork figure is the cost of one
lookahead (``fork(game, then=[[k]])`` from an action decision of that turn, the engine
replaying the turn so far) and the recording figure is what ``record()`` adds to a game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import cardscript
from cardscript.runtime.agents import RandomAgent
from cardscript.runtime.decision import Decision, EngineAgent
from cardscript.runtime.engine import Engine
from cardscript.runtime.game import Game
from cardscript.runtime.game.forks import fork
from cardscript.runtime.observation import ask, bind


def per_call(fn: Callable[[], Any], batch: int, rounds: int) -> float:
    """Median over ``rounds`` of the µs per call of ``batch`` calls of ``fn``."""
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(batch):
            fn()
        out.append((time.perf_counter() - t) / batch * 1e6)
    return statistics.median(out)


def mid_game(definition: Any, seats: int, turn: int, seed: int, log: bool) -> Engine:
    """An engine whose game is at the start of turn ``turn`` (recorded, random bots)."""
    eng = Engine(definition, seats, [RandomAgent() for _ in range(seats)], seed, log=log)
    eng.game.record(eng.first_player)
    eng.setup()
    for t in range(turn - 1):
        eng.play_one_turn(t % seats)
    return eng


class _Lookahead(EngineAgent):
    """A random bot that, at its third action decision of the turn with several options (some
    decisions of the turn to replay), times forks."""

    def __init__(self, batch: int, rounds: int):
        self.inner, self.batch, self.rounds = RandomAgent(), batch, rounds
        self.figures: dict[str, float] = {}
        self.seen = 0

    def attach(self, game: Game, seat: int) -> None:
        bind(game, seat, self.inner)

    def answer(self, game: Game, d: Decision) -> list[int]:
        self.seen += d.kind == "action" and len(d.options) > 2
        if not self.figures and self.seen == 3:
            replayed = fork(game, then=[[0]]).replayed
            self.figures["fork µs"] = per_call(lambda: fork(game, then=[[0]]), self.batch, self.rounds)
            self.figures["fork: decisions replayed"] = replayed
        return ask(game, self.inner, d)


def measure(seats: int, turn: int, seed: int, batch: int, rounds: int) -> dict[str, float]:
    """The figures of the module docstring."""
    d = cardscript.compile_game("injustice")
    fig: dict[str, float] = {}
    for log in (False, True):
        g = mid_game(d, seats, turn, seed, log).game
        s = g.snapshot()
        tag = " (log on)" if log else ""
        fig["snapshot + restore µs" + tag] = per_call(lambda: g.restore(g.snapshot()), batch, rounds)
        if not log:
            fig["snapshot µs"] = per_call(g.snapshot, batch, rounds)
            fig["restore µs"] = per_call(lambda: g.restore(s), batch, rounds)
            fig["copy µs"] = per_call(g.copy, batch, rounds)
            fig["of which the RNG state µs"] = per_call(lambda: g.rng.setstate(g.rng.getstate()), batch, rounds)
    eng = mid_game(d, seats, turn, seed, False)
    probe = _Lookahead(max(1, batch // 20), rounds)
    seat = (turn - 1) % seats  # whose turn ``turn`` is
    eng.game.agents[seat] = probe
    probe.attach(eng.game, seat)
    eng.play_one_turn(seat)
    fig.update(probe.figures)
    games = 6
    for recorded in (False, True):
        t = time.perf_counter()
        for i in range(games):
            e = Engine(d, 2, [RandomAgent(), RandomAgent()], seed + i, log=False)
            if recorded:
                e.game.record(e.first_player)
            e.run()
        fig["2p games/s" + (" recorded" if recorded else "")] = games / (time.perf_counter() - t)
    return fig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--turn", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    fig = measure(a.players, a.turn, a.seed, a.batch, a.rounds)
    if a.json:
        print(json.dumps({k: round(v, 2) for k, v in fig.items()}))
        return
    print(f"Injustice, {a.players} players, random bots, start of turn {a.turn} (median of {a.rounds} rounds)")
    for k, v in fig.items():
        print(f"  {k:<32} {v:10.1f}")


if __name__ == "__main__":
    main()

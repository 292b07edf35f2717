"""Two bots on the same seeds of a co-operative game (issue 13: "search improves the outcome
tiers over greedy"): every seat played by bot A, then by bot B, seed by seed.

Prints each bot's outcome tiers (95 % Wilson intervals), its mean final score, and the paired
difference of the final score (B - A, a normal 95 % interval over the seeds)::

    python bench/bots_paired.py hero-dice-batman --players 4 --games 150 --seed 1001
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
from collections import Counter

import cardscript
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine

_game: dict[str, object] = {}


def _play(job: tuple[str, str, int, int]) -> tuple[str, int, int, str]:
    game, bot, players, seed = job
    if game not in _game:
        _game[game] = cardscript.compile_game(game)
    r = Engine(_game[game], players, make_agents([bot], players), seed=seed, log=False).run()  # type: ignore[arg-type]
    return bot, seed, r.scores[0], r.outcome


def wilson(k: int, n: int, z: float = 1.96) -> str:
    """``k`` of ``n`` as a percentage with its Wilson interval: "40.7% [33.1, 48.7]"."""
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.1f}% [{100 * (c - h):.1f}, {100 * (c + h):.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--bots", default="greedy,search", help="A,B")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    bots = a.bots.split(",")
    seeds = range(a.seed, a.seed + a.games)
    jobs = [(a.game, b, a.players, s) for s in seeds for b in bots]
    with mp.get_context("fork").Pool(a.jobs) as pool:
        res = pool.map(_play, jobs, chunksize=2)
    score = {(b, s): sc for b, s, sc, _ in res}
    worst: dict[str, int] = {}
    for b, s, sc, o in res:
        worst[o] = min(worst.get(o, sc), sc)
    tiers = sorted(worst, key=lambda o: -worst[o])  # the best tier first
    print(f"{a.game}, {a.players} players, seeds {seeds[0]}..{seeds[-1]}, every seat the same bot")
    for b in bots:
        got = Counter(o for bb, _, _, o in res if bb == b)
        print(f"  {b}: " + "; ".join(f"{o.split(':')[0]}: {wilson(got[o], a.games)}" for o in tiers))
        print(f"    mean final score {sum(score[(b, s)] for s in seeds) / a.games:.2f}")
    d = [score[(bots[1], s)] - score[(bots[0], s)] for s in seeds]
    m = sum(d) / len(d)
    se = (sum((x - m) ** 2 for x in d) / (len(d) - 1)) ** 0.5 / len(d) ** 0.5
    print(f"  paired difference of the final score, {bots[1]} - {bots[0]}: {m:+.2f} "
          f"[{m - 1.96 * se:+.2f}, {m + 1.96 * se:+.2f}]")
    print(f"  seeds where {bots[1]} scored higher: {sum(x > 0 for x in d)}, lower: {sum(x < 0 for x in d)}")


if __name__ == "__main__":
    main()

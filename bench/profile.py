"""Profile Injustice (or any game) under cProfile, for whoever optimises the runtime.

    python bench/profile.py                       # 20 games, 2 players, random bots
    python bench/profile.py --games 50 --players 4 --bots greedy
    python bench/profile.py --game bench/minideck --top 40 -o /tmp/cs.prof

Compiles the game outside the profile, then runs N games exactly as bench/run.py
does (``Engine(definition, seats, make_agents(...), seed, log=False).run()``) and
prints the top functions by cumulative time and by total (own) time.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named profile.py: keep its folder off sys.path, or ``import cProfile``
# (which imports the standard ``profile`` module) would import this file instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse
import cProfile
import pstats
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Profile N games under cProfile.")
    ap.add_argument("--games", "-n", type=int, default=20, help="games to play (default 20)")
    ap.add_argument("--players", type=int, default=2, help="seats (default 2)")
    ap.add_argument("--bots", default="random", help="comma-separated bots, cycled over the seats (default random)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--game", default="injustice", help="built-in game or folder of scripts (default injustice)")
    ap.add_argument("--top", type=int, default=25, help="rows per listing (default 25)")
    ap.add_argument("-o", "--output", help="also save the raw profile here (for snakeviz, pstats, ...)")
    args = ap.parse_args(argv)

    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine

    definition, _warnings, _program = compile_game(args.game)
    bots = args.bots.split(",")
    seeds = range(args.seed, args.seed + args.games)

    def play() -> tuple[int, int]:
        decisions = turns = 0
        for s in seeds:
            r = Engine(definition, args.players, make_agents(bots, args.players), s, log=False).run()
            decisions += r.decisions
            turns += r.turns
        return decisions, turns

    t0 = time.perf_counter()
    play()  # unprofiled, for the wall time without the profiler's overhead
    plain = time.perf_counter() - t0
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    decisions, turns = prof.runcall(play)
    profiled = time.perf_counter() - t0

    print(f"{definition.name}: {args.games} games, {args.players} players, bots {args.bots}, seeds "
          f"{seeds.start}..{seeds.stop - 1}: {decisions / args.games:.1f} decisions and {turns / args.games:.1f} "
          f"turns per game")
    print(f"without profiler {plain:.2f} s ({args.games / plain:.1f} games/s); under cProfile {profiled:.2f} s")
    if args.output:
        prof.dump_stats(args.output)
        print(f"raw profile saved to {args.output}")
    stats = pstats.Stats(prof, stream=sys.stdout)
    _readable_names(stats, prof)
    for key, title in (("cumulative", "cumulative time"), ("tottime", "total (own) time")):
        print(f"\n==== top {args.top} by {title} " + "=" * 60)
        stats.sort_stats(key).print_stats(args.top)
    return 0


def _readable_names(stats: pstats.Stats, prof: cProfile.Profile) -> None:
    """Name functions by qualified name ('Cards.candidates', not 'candidates': the
    effect classes all have a 'run') and by path relative to the repository."""
    root = str(_HERE.parent) + "/"
    qual: dict[tuple, str] = {}
    for entry in prof.getstats():
        code = entry.code
        if not isinstance(code, str):
            qual[(code.co_filename, code.co_firstlineno, code.co_name)] = code.co_qualname

    def rename(func: tuple) -> tuple:
        filename, line, name = func
        return (filename.removeprefix(root), line, qual.get(func, name))

    stats.stats = {rename(f): (cc, nc, tt, ct, {rename(c): v for c, v in callers.items()})
                   for f, (cc, nc, tt, ct, callers) in stats.stats.items()}
    stats.fcn_list = None


if __name__ == "__main__":
    sys.exit(main())

"""Before/after timing of the engine's hot path (issue 11), in one run on a noisy machine.

    python bench/hot_compare.py                         # this checkout only
    python bench/hot_compare.py --base /tmp/base/pkg    # also a baseline tree, interleaved

``--base`` is a folder holding a ``cardscript`` package (an older checkout laid out as
the installed package: ``api/`` copied to ``cardscript/``, with ``dsl``, ``runtime``,
``grammar`` and ``cardscripts`` inside it). Each workload runs in a fresh subprocess per
tree, the trees alternate, and the best of ``--rounds`` is kept, so that both sides see
the same load. Prints games/s per workload, µs per decision, the Minideck overhead
(cardscript time / hand-written time) and the ratio after / before. With ``--check``,
every workload also asserts that both trees played the same games (decisions, turns,
scores of every game).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: name -> (game, players, bot, games)
WORKLOADS = {
    "injustice 2p random": ("injustice", 2, "random", 30),
    "injustice 2p greedy": ("injustice", 2, "greedy", 20),
    "injustice 4p random": ("injustice", 4, "random", 15),
    "injustice 4p greedy": ("injustice", 4, "greedy", 10),
    "jld 2p random": ("justice-league-dark", 2, "random", 20),
    "hero dice 1 random": ("hero-dice-batman", 1, "random", 200),
    "hero dice 1 greedy": ("hero-dice-batman", 1, "greedy", 40),
    "minideck random": ("minideck", 2, "random", 100),
    "minideck greedy": ("minideck", 2, "greedy", 100),
}


def child(name: str) -> None:
    """Run one workload in this process and print its figures as JSON."""
    sys.path.insert(0, str(HERE))
    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine

    game, players, bot, games = WORKLOADS[name]
    seeds = range(1, games + 1)
    out: dict = {}
    if game == "minideck":
        import dsl_overhead

        dsl_overhead.definition()
        for s in seeds[:3]:
            dsl_overhead.run_cardscript(s, players, bot)
        t0 = time.perf_counter()
        res = [dsl_overhead.run_cardscript(s, players, bot) for s in seeds]
        t1 = time.perf_counter()
        for s in seeds:
            dsl_overhead.run_handwritten(s, players, bot)
        t2 = time.perf_counter()
        out["hand_s"] = t2 - t1
    else:
        definition, _w, _p = compile_game(game)
        Engine(definition, players, make_agents([bot], players), 999, log=False).run()  # warm-up
        t0 = time.perf_counter()
        res = [Engine(definition, players, make_agents([bot], players), s, log=False).run() for s in seeds]
        t1 = time.perf_counter()
    out["s"] = t1 - t0
    out["games"] = games
    out["decisions"] = sum(r.decisions for r in res)
    out["digest"] = [(r.decisions, r.turns, list(r.scores)) for r in res]
    print(json.dumps(out))


def run_one(name: str, pythonpath: str | None) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
        env["CARDSCRIPT_CACHE"] = str(Path(pythonpath).parent / "cache")
    p = subprocess.run([sys.executable, __file__, "--child", name], env=env, capture_output=True, text=True,
                       check=False)
    if p.returncode:
        raise SystemExit(f"{name} ({pythonpath or 'this tree'}) failed:\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", help="a folder holding an older 'cardscript' package")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", help="comma-separated workload names (substring match)")
    ap.add_argument("--check", action="store_true", help="assert both trees played the same games")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    names = [n for n in WORKLOADS if not args.only or any(o in n for o in args.only.split(","))]
    trees = [("after", None)] + ([("before", args.base)] if args.base else [])
    print(f"{'workload':22} " + " ".join(f"{t + ' g/s':>12} {'µs/dec':>7}" for t, _ in trees)
          + ("   ratio" if args.base else ""))
    for name in names:
        best: dict[str, dict] = {}
        for _ in range(args.rounds):
            for label, path in trees:
                r = run_one(name, path)
                key = "ratio" if "hand_s" in r else "s"
                r["ratio"] = r["s"] / r["hand_s"] if "hand_s" in r else 0.0
                if label not in best or r[key] < best[label][key]:
                    best[label] = r
        if args.check and args.base and best["after"]["digest"] != best["before"]["digest"]:
            raise SystemExit(f"{name}: the two trees played different games")
        cells = []
        for label, _ in trees:
            r = best[label]
            gps = r["games"] / r["s"]
            us = r["s"] / r["decisions"] * 1e6
            cells.append(f"{gps:12.1f} {us:7.1f}" + (f" ({r['ratio']:.2f}x hand)" if r["ratio"] else ""))
        line = f"{name:22} " + " ".join(cells)
        if args.base:
            a, b = best["after"], best["before"]
            line += f"   {b['s'] / a['s']:.2f}x faster"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

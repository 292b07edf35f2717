"""cardscript benchmarks: one command, one table (issue 11's figures).

    python bench/run.py                  # full run (a few minutes on a busy machine)
    python bench/run.py --quick          # the CI smoke (well under 30 s): fails on an exception
                                         # or a parity mismatch, never on a timing
    python bench/run.py --json out.json  # also write every figure, for tracking
    python bench/run.py --games 50 --repeats 5

Rows (bench/README.md says what each means): Injustice 2p random and greedy, 4p random;
Justice League Dark 2p random; Hero Dice 1 hero random and greedy; Minideck in
cardscript and hand-written, random and greedy (the DSL overhead); ``cardscript check
cardscripts`` warm and cold, as whole processes; snapshot plus restore of a 4-player
Injustice game. Each figure is a median over repeats, also given as a ratio to the
hand-written Minideck measured in the same run, with µs and Python calls per decision.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/ holds a profile.py: keep it from shadowing the standard library's ``profile``
# (which cProfile imports), then let bench's own modules be imported after the stdlib's.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
import cProfile  # noqa: E402,F401  (imported now, while bench/profile.py cannot shadow it)

sys.path.append(str(HERE))

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from dataclasses import asdict  # noqa: E402
from typing import Any  # noqa: E402

import workloads as W  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

ROOT = HERE.parent
JSON_FORMAT = 1

#: key -> (workload, game, players, bots, games in a full run, games with --quick)
GAME_ROWS = {
    "injustice-2p-random": ("Injustice 2p random", "injustice", 2, "random", 40, 4),
    # the engine's speed with the cheap sensible bot (greedy looks ahead since issue 13: BOT_ROWS)
    "injustice-2p-greedy": ("Injustice 2p heuristic", "injustice", 2, "heuristic", 40, 3),
    "injustice-4p-random": ("Injustice 4p random", "injustice", 4, "random", 20, 2),
    "jld-2p-random": ("JLD 2p random", "justice-league-dark", 2, "random", 8, 1),
    "herodice-1-random": ("Hero Dice 1 hero random", "hero-dice-batman", 1, "random", 200, 10),
    "herodice-1-greedy": ("Hero Dice 1 hero heuristic", "hero-dice-batman", 1, "heuristic", 40, 3),
}

#: issue 13: each bot's µs per decision in each game (every seat that bot): key -> (workload,
#: game, players, bot, games in a full run); --quick plays one game of random and heuristic
#: and leaves the looking-ahead bots' rows n/a (seconds per game: they would triple its time)
BOT_ROWS = {
    f"bot-{short}-{bot}": (f"{label} {players}p {bot}: per decision", game, players, bot, 2)
    for short, label, game, players in (("injustice", "Injustice", "injustice", 2),
                                        ("jld", "JLD", "justice-league-dark", 2),
                                        ("herodice", "Hero Dice", "hero-dice-batman", 1))
    for bot in ("random", "heuristic", "greedy", "search")
}

#: key -> (kind, bound, text): "min" games/s, "max" × hand-written, "max_s" seconds, "max_us" µs
TARGETS = {
    "injustice-2p-random": ("min", 100, ">= 100 games/s"),
    "injustice-2p-greedy": ("min", 60, ">= 60 games/s"),
    "injustice-4p-random": ("min", 60, ">= 60 games/s"),
    "jld-2p-random": ("min", 100, ">= 100 games/s"),
    "herodice-1-random": ("min", 800, ">= 800 games/s"),
    "herodice-1-greedy": ("min", 300, ">= 300 games/s"),
    "minideck-cardscript-random": ("max", 2.0, "<= 2.0× (goal 1.5×)"),
    "minideck-cardscript-greedy": ("max", 2.5, "<= 2.5× (goal 1.5×)"),
    "check-warm": ("max_s", 0.5, "<= 0.5 s"),
    "check-cold": ("max_s", 1.5, "<= 1.5 s"),
    "snapshot-4p": ("max_us", 50, "<= 50 µs"),
    "lsp-recheck": ("max_s", 0.2, "<= 0.2 s"),  # language server area (issue 15)
}

console = Console()
if not console.is_terminal:  # piped or captured: don't squeeze the table into 80 columns
    console = Console(width=200)


def git_revision() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             timeout=10, check=False).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10, check=False).stdout.strip()
        return rev + (" (uncommitted changes)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "?"


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpu": cpu, "cpus": os.cpu_count(), "python": platform.python_version(),
            "system": f"{platform.system()} {platform.machine()}", "load_1min": load}


def apply_ratios_and_targets(rows: list[W.Row]) -> None:
    """Fill the × hand-written columns and the PASS/MISS of the issue's targets."""
    hand = {r.bots: r for r in rows if r.key.startswith("minideck-handwritten-") and r.seconds}
    for r in rows:
        ref = hand.get(r.bots) or hand.get("random")
        if r.seconds is not None and ref is not None and ref.seconds:
            r.hand_ratio = r.seconds / ref.seconds
            if r.unit == "game" and r.bots in hand and r.us_per_decision and ref.us_per_decision:
                r.hand_decision_ratio = r.us_per_decision / ref.us_per_decision
        if r.key in TARGETS:
            kind, bound, text = TARGETS[r.key]
            r.target = text
            if r.seconds is None:
                continue
            if kind == "min":
                r.passed = (r.per_s or 0) >= bound
            elif kind == "max":
                r.passed = r.hand_ratio is not None and r.hand_ratio <= bound
            elif kind == "max_s":
                r.passed = r.seconds <= bound
            else:
                r.passed = r.seconds * 1e6 <= bound


def figure(r: W.Row) -> str:
    if r.seconds is None:
        return "n/a"
    if r.unit == "game":
        return f"{r.per_s:.1f} games/s"
    if r.unit == "run":
        return f"{r.seconds:.3f} s"
    return f"{r.seconds * 1e6:.1f} µs"


def opt(value: float | None, spec: str) -> str:
    return "" if value is None else format(value, spec)


def print_table(rows: list[W.Row], title: str) -> None:
    table = Table(title=title, title_justify="left")
    for col in ("workload", "n", "median", "figure", "target", "", "× hand", "× hand/dec.", "µs/dec.", "calls/dec.",
                "dec./game", "notes"):
        table.add_column(col, justify="left" if col in ("workload", "target", "notes") else "right")
    for r in rows:
        status = "" if r.passed is None else "[bold green]PASS[/]" if r.passed else "[bold red]MISS[/]"
        median = "" if r.seconds is None else (f"{r.seconds * 1e3:.2f} ms" if r.seconds >= 1e-3
                                               else f"{r.seconds * 1e6:.1f} µs")
        table.add_row(r.workload, str(r.games or len(r.runs) or ""), median, figure(r), r.target, status,
                      opt(r.hand_ratio, ".2f"), opt(r.hand_decision_ratio, ".2f"), opt(r.us_per_decision, ".1f"),
                      opt(r.calls_per_decision, ".0f"), opt(r.decisions or None, ".1f"), r.note)
    console.print(table)


def write_json(path: str, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON, whole or not at all (a temporary file renamed into place)."""
    target = Path(path).resolve()
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
            fh.write("\n")
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="the CI smoke: few games, one repeat; fails only on an exception or a parity mismatch")
    ap.add_argument("--games", type=int, default=None, help="games per game row (default: per row, see GAME_ROWS)")
    ap.add_argument("--minideck-games", type=int, default=None, help="Minideck games each way (default 200, quick 10)")
    ap.add_argument("--repeats", type=int, default=None, help="timed repeats per row (default 3, quick 1)")
    ap.add_argument("--check-runs", type=int, default=None, help="runs of each process row (default 5, quick 1)")
    ap.add_argument("--seed", type=int, default=1, help="first seed; games use seeds SEED, SEED+1, ...")
    ap.add_argument("--json", metavar="FILE", help="also write every figure to FILE (JSON, written atomically)")
    ap.add_argument("--fail-on-miss", action="store_true", help="exit 1 when a target is missed (never with --quick)")
    args = ap.parse_args(argv)
    quick = args.quick
    repeats = args.repeats or (1 if quick else 3)
    check_runs = args.check_runs or (1 if quick else 5)
    mini_n = args.minideck_games or (10 if quick else 200)
    profiled = 1 if quick else 3
    started = time.perf_counter()
    failures: list[str] = []
    rows: list[W.Row] = []
    parity: dict[str, str] = {}
    meta = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "git": git_revision(),
            "mode": "quick" if quick else "full", "repeats": repeats, "seed": args.seed, **machine()}
    console.print(f"[bold]cardscript bench[/] — {meta['mode']} run, git {meta['git']}, Python {meta['python']}, "
                  f"{meta['cpu']} ({meta['cpus']} CPU(s), load {opt(meta['load_1min'], '.2f')}); one core, "
                  f"one process; medians of {repeats} repeat(s)", highlight=False)

    def attempt(what: str, fn: Any) -> Any:
        try:
            with console.status(what):
                return fn()
        except Exception:  # noqa: BLE001 - keep the other figures when one part breaks
            failures.append(f"{what}:\n{traceback.format_exc()}")
            return None

    # Minideck first: the hand-written version is the reference of every ratio.
    mini_seeds = list(range(args.seed, args.seed + mini_n))
    for policy in ("random", "greedy"):
        got = attempt(f"Minideck {policy}: parity + {mini_n} games each way",
                      lambda p=policy: W.minideck_rows(mini_seeds, p, repeats, 5 if quick else 20, profiled))
        if got:
            rows.extend(got)
            parity[f"minideck-{policy}"] = "identical"

    def more_players() -> bool:
        import dsl_overhead

        for policy in ("random", "greedy"):
            for players in (3, 4):
                dsl_overhead.assert_identical(mini_seeds[:3 if quick else 10], players, policy)
        return True

    if attempt("Minideck parity at 3 and 4 players", more_players):
        parity["minideck-3-4p"] = "identical"

    from cardscript.dsl.front.pipeline import compile_game

    definitions: dict[str, Any] = {}
    for key, (workload, game, players, bots, full_n, quick_n) in GAME_ROWS.items():
        n = args.games or (quick_n if quick else full_n)
        if game not in definitions:
            got = attempt(f"compiling {game}", lambda g=game: compile_game(g)[0])
            if got is None:
                continue
            definitions[game] = got
        seeds = list(range(args.seed, args.seed + n))
        row = attempt(f"{workload}: {n} games × {repeats}",
                      lambda k=key, w=workload, g=game, p=players, b=bots, s=seeds:
                      W.game_row(k, w, definitions[g], p, b, s, repeats, 1 if g == "justice-league-dark" else profiled))
        if row:
            rows.append(row)

    for key, (workload, game, players, bot, full_n) in BOT_ROWS.items():
        if game not in definitions:
            continue
        looks_ahead = bot in ("greedy", "search")
        if quick and looks_ahead:
            rows.append(W.Row(key, workload, "decision", bots=bot, note="full run only"))
            continue
        n = 1 if quick else full_n
        row = attempt(f"{workload}: {n} games", lambda w=workload, k=key, g=game, p=players, b=bot, n=n:
                      W.decision_row(k, w, definitions[g], p, b, list(range(args.seed, args.seed + n))))
        if row:
            rows.append(row)

    if "injustice" in definitions:
        row = attempt("snapshot + restore", lambda: W.snapshot_row(definitions["injustice"], args.seed, 6,
                                                                  200 if quick else 2000, repeats))
        if row:
            rows.append(row)
            if row.seconds is not None:
                parity["snapshot-restore"] = "identical"

    got = attempt(f"processes: cardscript check cardscripts × {check_runs}", lambda: W.process_rows(check_runs))
    if got:
        rows.extend(got)

    def lsp_row() -> W.Row:  # language server area (issue 15): bench/lsp_recheck.py
        import lsp_recheck

        m = lsp_recheck.measure(5 if quick else 20)
        return W.Row("lsp-recheck", f"LSP re-check of {m['file']} after an edit", "run", seconds=float(m["median_s"]),
                     games=int(m["edits"]), note=f"slowest {float(m['max_s']) * 1e3:.0f} ms")

    row = attempt("language server: re-check after an edit", lsp_row)
    if row:
        rows.append(row)

    mismatches = attempt("golden log hashes (a sample)", lambda: W.golden_mismatches(W.GOLDEN_SAMPLE))
    if mismatches is not None:
        parity["golden-sample"] = "identical" if not mismatches else "DIFFERENT"
        failures.extend(f"golden log hash differs: {m}" for m in mismatches)

    apply_ratios_and_targets(rows)
    print_table(rows, f"cardscript bench, seeds from {args.seed} ({meta['date']})")
    console.print("n: games (or process runs); median: per game (or run, or snapshot+restore). × hand: median / "
                  "one hand-written Minideck game's (same bots; random for\nthe other rows); × hand/dec.: µs per "
                  "decision / the hand-written Minideck's. calls/dec.: Python function calls per decision (cProfile, "
                  "untimed).",
                  highlight=False)
    for r in rows:
        if r.key.startswith("check-") and r.said:
            console.print(f"{r.workload}: {r.said}", highlight=False)
    console.print("parity: " + ", ".join(f"{k} {v}" for k, v in parity.items()), highlight=False)
    meta["seconds"] = round(time.perf_counter() - started, 1)
    console.print(f"bench took {meta['seconds']} s")
    if args.json:
        write_json(args.json, {"format": JSON_FORMAT, "meta": meta, "parity": parity, "failures": failures,
                               "rows": [{**asdict(r), "per_s": r.per_s, "us_per_decision": r.us_per_decision}
                                        for r in rows]})
    for f in failures:
        console.print(f"[bold red]FAILED[/] {f}", highlight=False)
    if failures:
        return 1
    missed = any(r.passed is False for r in rows)
    return 1 if (missed and args.fail_on_miss and not quick) else 0


if __name__ == "__main__":
    sys.exit(main())

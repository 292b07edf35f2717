"""The measurements of bench/run.py, one function per kind of row (see bench/README.md).

Every timing is a median over repeats; every count (decisions, Python calls) is taken
outside the timed runs. Nothing here prints: bench/run.py makes the table.
"""

from __future__ import annotations

import cProfile
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Row:
    """One line of the table (and one object of ``--json``'s ``rows``).

    ``seconds`` is the median time of one unit (one game, one ``check`` process, one
    snapshot plus restore); ``runs`` the per-repeat times it is the median of.
    """

    key: str
    workload: str
    unit: str  # "game", "run" or "snapshot+restore"
    seconds: float | None = None  # median per unit; None: not measured (n/a)
    runs: list[float] = field(default_factory=list)
    games: int = 0
    decisions: float = 0.0  # mean per game
    turns: float = 0.0  # mean per game
    calls_per_decision: float | None = None
    bots: str = ""
    target: str = ""  # e.g. ">= 100 games/s"
    passed: bool | None = None
    note: str = ""
    said: str = ""  # a process row: the last line the command printed
    hand_ratio: float | None = None  # seconds / one hand-written Minideck game (same bots)
    hand_decision_ratio: float | None = None  # µs/decision / the hand-written Minideck's

    @property
    def per_s(self) -> float | None:
        return 1.0 / self.seconds if self.seconds else None

    @property
    def us_per_decision(self) -> float | None:
        if self.seconds is None or not self.decisions:
            return None
        return self.seconds / self.decisions * 1e6


def median_time(fn: Callable[[], Any], repeats: int) -> tuple[float, list[float]]:
    """Run ``fn`` ``repeats`` times; (median seconds, every time)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times


def python_calls(fn: Callable[[], Any]) -> int:
    """How many Python function calls ``fn()`` makes (cProfile without builtins: C
    functions are not counted)."""
    prof = cProfile.Profile(builtins=False)
    prof.enable()
    try:
        fn()
    finally:
        prof.disable()
    return sum(entry.callcount for entry in prof.getstats())


# ---------------------------------------------------------------- games of a built-in game
def play(definition: Any, players: int, bots: str, seed: int) -> Any:
    """One game exactly as the bench times it: no log, fresh bots."""
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine

    return Engine(definition, players, make_agents(bots.split(","), players), seed, log=False).run()


def game_row(key: str, workload: str, definition: Any, players: int, bots: str, seeds: Sequence[int],
             repeats: int, profiled: int) -> Row:
    """Time ``seeds`` games (median over ``repeats``), then count Python calls on the
    first ``profiled`` of them."""
    play(definition, players, bots, 10**6 + players)  # warm-up (first-call costs)
    results: list[Any] = []

    def run_all() -> None:
        results[:] = [play(definition, players, bots, s) for s in seeds]

    from cardscript.dsl.sim.pool import settled

    with settled():  # as simulate plays its batches
        total, runs = median_time(run_all, repeats)
    n = len(seeds)
    decisions = sum(r.decisions for r in results) / n
    row = Row(key, workload, "game", total / n, [t / n for t in runs], n, decisions,
              sum(r.turns for r in results) / n, bots=bots)
    sample = list(seeds[:max(1, profiled)])
    calls = python_calls(lambda: [play(definition, players, bots, s) for s in sample])
    asked = sum(r.decisions for r in results[:len(sample)])
    row.calls_per_decision = calls / asked if asked else None
    return row


def decision_row(key: str, workload: str, definition: Any, players: int, bot: str, seeds: Sequence[int]) -> Row:
    """One bot's cost per decision (issue 13): ``seeds`` games with ``bot`` in every seat,
    the time over the decisions asked (``seconds`` is per decision)."""
    t0 = time.perf_counter()
    results = [play(definition, players, bot, s) for s in seeds]
    total = time.perf_counter() - t0
    decisions = sum(r.decisions for r in results)
    n = len(seeds)
    return Row(key, workload, "decision", total / max(1, decisions), [], n, decisions / n,
               sum(r.turns for r in results) / n, bots=bot)


# ---------------------------------------------------------------- Minideck both ways
def minideck_rows(seeds: Sequence[int], policy: str, repeats: int, traced: int, profiled: int) -> tuple[Row, Row]:
    """(cardscript row, hand-written row) for Minideck, 2 players: interleaved repeats,
    medians; raises ``dsl_overhead.Mismatch`` when the two versions disagree."""
    import dsl_overhead

    from cardscript.dsl.sim.pool import settled

    with settled():  # both versions, as simulate plays its batches
        t = dsl_overhead.time_both(list(seeds), 2, policy, rounds=repeats, traced=traced)
    if not t.identical:
        raise dsl_overhead.Mismatch(f"Minideck {policy}: cardscript and hand-written results differ")
    n = t.games
    cs = Row(f"minideck-cardscript-{policy}", f"Minideck cardscript 2p {policy}", "game", t.cardscript_s / n,
             [x / n for x in t.cardscript_runs], n, t.decisions, t.turns, bots=policy,
             note=f"identical ({t.traced_seeds} traced)")
    hw = Row(f"minideck-handwritten-{policy}", f"Minideck hand-written 2p {policy}", "game",
             t.handwritten_s / n, [x / n for x in t.handwritten_runs], n, t.decisions, t.turns, bots=policy,
             note="reference of ×")
    sample = list(seeds[:max(1, profiled)])
    asked = sum(dsl_overhead.run_handwritten(s, 2, policy).decisions for s in sample)
    cs.calls_per_decision = python_calls(lambda: [dsl_overhead.run_cardscript(s, 2, policy) for s in sample]) / asked
    hw.calls_per_decision = python_calls(lambda: [dsl_overhead.run_handwritten(s, 2, policy) for s in sample]) / asked
    return cs, hw


# ---------------------------------------------------------------- cardscript check, a process
def cardscript_command() -> list[str]:
    """The installed ``cardscript`` entry point (next to this Python if possible)."""
    beside = Path(sys.executable).parent / "cardscript"
    exe = str(beside) if beside.exists() else shutil.which("cardscript")
    if exe:
        return [exe]
    return [sys.executable, "-c", "import sys; from cardscript.dsl.cli.main import main; sys.exit(main())"]


def _wall(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False, env=env)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}{proc.stderr}")
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    return seconds, lines[-1] if lines else ""


def process_rows(runs: int) -> list[Row]:
    """Wall time of whole processes, interpreter start included: a bare ``python -c
    pass``, ``cardscript --version`` (start-up and the command line's imports), and
    ``cardscript check cardscripts`` warm (a cache folder filled by a first run) and
    cold (a new, empty cache folder each run). The cache folders are temporary, so the
    user's cache is neither used nor touched.

    Python's bytecode is cached as an installed package's is (pip compiles it when it
    installs): in a temporary ``PYTHONPYCACHEPREFIX``, filled by a first run, with
    ``PYTHONDONTWRITEBYTECODE`` dropped (set, every process would compile every module it
    imports from source)."""
    cs = cardscript_command()
    with tempfile.TemporaryDirectory(prefix="cardscript-bench-") as tmp:
        warm_dir = Path(tmp) / "warm"
        warm_dir.mkdir(mode=0o700)
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        env = {**base, "CARDSCRIPT_CACHE": str(warm_dir)}
        _wall([*cs, "--version"], env)  # fills the bytecode cache
        bare = [_wall([sys.executable, "-c", "pass"], env)[0] for _ in range(runs)]
        version = [_wall([*cs, "--version"], env)[0] for _ in range(runs)]
        _wall([*cs, "check", "cardscripts"], env)  # fills the warm cache
        warm = [_wall([*cs, "check", "cardscripts"], env) for _ in range(runs)]
        cold = []
        for i in range(runs):
            fresh = Path(tmp) / f"cold-{i}"
            fresh.mkdir(mode=0o700)
            cold.append(_wall([*cs, "check", "cardscripts"], {**base, "CARDSCRIPT_CACHE": str(fresh)}))
    rows = [
        Row("python-start", "python -c pass", "run", statistics.median(bare), bare),
        Row("cli-start", "cardscript --version", "run",
            statistics.median(version), version),
        Row("check-warm", "check cardscripts, warm", "run",
            statistics.median(t for t, _ in warm), [t for t, _ in warm], said=warm[-1][1]),
        Row("check-cold", "check cardscripts, cold", "run",
            statistics.median(t for t, _ in cold), [t for t, _ in cold], said=cold[-1][1]),
    ]
    return rows


# ---------------------------------------------------------------- snapshot + restore
def _summary(r: Any) -> tuple:
    return (r.winners, r.scores, r.turns, r.reason, r.decisions, r.ranking, r.tie_values)


def _play_on(engine: Any, player: int) -> Any:
    """Play ``engine``'s game on from ``player``'s turn to its end, as Engine.play_turns does."""
    from cardscript.runtime.errors import MAX_TURNS, GameOver

    g = engine.game
    reason = "turn limit reached"
    try:
        for _ in range(MAX_TURNS - g.turn):
            engine.play_one_turn(player)
            player = (player + 1) % g.n
    except GameOver as over:
        reason = over.reason
    return engine.finish(reason)


def snapshot_row(definition: Any, seed: int, turns: int, iterations: int, repeats: int) -> Row:
    """Snapshot plus restore of a 4-player Injustice game after ``turns`` turns, in
    µs (median of ``repeats`` batches of ``iterations``); "n/a" while the runtime's Game
    has no ``snapshot()`` and ``restore()``. Also a parity check: the game played on
    after a restore must end exactly as the same seed played straight through
    (raises AssertionError otherwise)."""
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine
    from cardscript.runtime.game import Game

    row = Row("snapshot-4p", f"snapshot+restore Inj. 4p, turn {turns}", "snapshot+restore",
              target="<= 50 µs")
    if not (hasattr(Game, "snapshot") and hasattr(Game, "restore")):
        row.note = "no Game.snapshot() yet"
        return row
    straight = play(definition, 4, "random", seed)
    engine = Engine(definition, 4, make_agents(["random"], 4), seed, log=False)
    engine.setup()
    player = engine.first_player
    for _ in range(turns):
        engine.play_one_turn(player)
        player = (player + 1) % 4
    game = engine.game
    snap = game.snapshot()

    def batch() -> None:
        for _ in range(iterations):
            game.restore(game.snapshot())

    _med, runs = median_time(batch, repeats)
    row.runs = [t / iterations for t in runs]
    row.seconds = statistics.median(row.runs)
    # The bots' own random streams are theirs, not the game's: put them back too.
    bots = [(a, a.rng.getstate()) for a in game.agents if hasattr(a, "rng")]

    def back() -> None:
        game.restore(snap)
        for a, state in bots:
            a.rng.setstate(state)

    back()
    first = _play_on(engine, player)
    back()
    again = _play_on(engine, player)
    if not _summary(first) == _summary(again) == _summary(straight):
        raise AssertionError(f"snapshot parity: a restored game ended differently:\n  straight: {_summary(straight)}"
                             f"\n  restored: {_summary(first)}\n  restored again: {_summary(again)}")
    row.note = "restored game identical"
    return row


# ---------------------------------------------------------------- golden parity sample
#: a few configurations of tests/golden/log_hashes.json, replayed by --quick
GOLDEN_SAMPLE = ("injustice/2p/random/1", "injustice/4p/heuristic/2", "justice-league-dark/2p/heuristic,random/1",
                 "hero-dice-batman/1p/random/1", "hero-dice-batman/2p/heuristic/2")


def golden_mismatches(keys: Sequence[str] = GOLDEN_SAMPLE) -> list[str]:
    """The keys of ``keys`` whose game no longer has its recorded log hash (see
    bench/golden.py); each a line ``key: recorded -> now``."""
    import json

    import golden

    recorded = json.loads(golden.GOLDEN.read_text(encoding="utf-8"))
    out = []
    for key in keys:
        game, players, bots, seed = key.split("/")
        n = int(players.rstrip("p"))
        definition = golden.compile_quietly(game, [], [])
        import cardscript

        result = cardscript.play_game(definition, players=n, agents=bots.split(",")[:n], seed=int(seed))
        now = golden.log_hash(result.log)
        if recorded.get(key) != now:
            out.append(f"{key}: {recorded.get(key)} -> {now}")
    return out

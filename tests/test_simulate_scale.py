"""Issue 14 ("Balance at scale"): batches of games that name a failing game's seed and
replay command (--keep-going), run on every core (--jobs) with the same results, and
stream their rows to a results file that survives a kill -9 (--out, --resume)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main

# process pools (--jobs 2) or a dask LocalCluster: one xdist worker runs all such tests, one at a time
# (pyproject's --dist loadgroup), so that two pools never share the machine's cores
pytestmark = pytest.mark.xdist_group("pools")

ROOT = Path(__file__).resolve().parent.parent
UNSTABLE = str(ROOT / "tests" / "sim" / "unstable.cards")  # runs away in about half the games


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _fails(seeds: range) -> list[int]:
    """The seeds among ``seeds`` whose game with the unstable card runs away (2 players,
    heuristic bots, simulate's defaults), found by playing them directly: the batch tests
    below compare simulate with these, not with numbers that move when the bots do."""
    import cardscript

    d = cardscript.compile_game("injustice", expansions=[UNSTABLE])
    out = []
    for seed in seeds:
        try:
            cardscript.play_game(d, players=2, agents=["heuristic"], seed=seed)
        except cardscript.RunawayError:
            out.append(seed)
    return out


def _timeless(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_second")}


# ---------------------------------------------------------------- 1. failing games
def test_a_failing_game_stops_the_batch_naming_its_seed_and_the_command_that_replays_it() -> None:
    first = _fails(range(2, 22))[0]  # the games before it play out
    r = _run("simulate", "injustice", "-n", "20", "--seed", "2", "--with", UNSTABLE)
    assert r.exit_code == 1, r.output
    assert "error[CS401]" in r.output and f"(seed {first})" in r.output
    command = re.search(r"replay it with:\n  (.+)", r.output)
    assert command is not None, r.output
    argv = shlex.split(command.group(1))
    assert argv[:2] == ["cardscript", "play"] and argv[argv.index("--seed") + 1] == str(first)
    again = _run(*argv[1:], "-q")  # the command, run: the same game runs away the same way
    assert again.exit_code == 1 and "error[CS401]" in again.output and f"(seed {first})" in again.output


def test_keep_going_records_every_failure_and_summarises_the_other_games() -> None:
    r = _run("simulate", "injustice", "-n", "12", "--with", UNSTABLE, "--keep-going", "--json")
    assert r.exit_code == 1, r.output
    s = json.loads(r.output)
    failed = [f["seed"] for f in s["failed"]]
    assert failed == _fails(range(1, 13)) and 0 < len(failed) < 12
    assert s["games"] == 12 - len(failed) and sum(s["end_reasons"].values()) == s["games"]
    for f in s["failed"]:
        assert f["error"] == "CS401" and f"--seed {f['seed']} " in f["replay"] and "--with" in f["replay"]


def test_keep_going_prints_each_failure_on_lines_that_are_never_wrapped() -> None:
    r = _run("simulate", "injustice", "-n", "5", "--with", UNSTABLE, "--keep-going")
    assert r.exit_code == 1 and f"{len(_fails(range(1, 6)))} game(s) failed:" in r.output, r.output
    replays = [ln.split("replay: ", 1)[1] for ln in r.output.splitlines() if "replay: " in ln]
    assert [shlex.split(c)[shlex.split(c).index("--seed") + 1] for c in replays] == [str(s) for s in _fails(range(1, 6))]


def test_an_internal_error_in_a_game_names_its_seed_and_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardscript.runtime.engine import Engine

    def boom(self: Any) -> Any:
        raise KeyError("deck")

    monkeypatch.setattr(Engine, "run", boom)
    r = _run("simulate", "injustice", "-n", "3", "--seed", "7")
    assert r.exit_code == 3, r.output
    assert "the game of seed 7 failed" in r.output and "cardscript play injustice --players 2 --seed 7" in r.output
    assert next(ln for ln in r.output.splitlines() if "internal error" in ln).startswith("internal error: KeyError")


# ---------------------------------------------------------------- 2. --jobs
def test_jobs_2_prints_the_same_summary_as_jobs_1() -> None:
    from cardscript.dsl.sim.pool import workers_for

    assert workers_for(40, 2) == 2, "40 games are enough for a pool of 2: the test must use one"
    one = _run("simulate", "injustice", "-n", "40", "--seed", "5", "--bots", "heuristic,random", "--json", "--jobs", "1")
    two = _run("simulate", "injustice", "-n", "40", "--seed", "5", "--bots", "heuristic,random", "--json", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, (one.output, two.output)
    a, b = json.loads(one.output), json.loads(two.output)
    assert _timeless(a) == _timeless(b) and a["games"] == 40


def test_jobs_2_reports_the_same_failures_and_stops_at_the_same_seed() -> None:
    args = ["simulate", "injustice", "-n", "30", "--with", UNSTABLE, "--keep-going", "--json"]
    one, two = _run(*args, "--jobs", "1"), _run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 1
    assert _timeless(json.loads(one.output)) == _timeless(json.loads(two.output))
    stop = _run("simulate", "injustice", "-n", "30", "--seed", "2", "--with", UNSTABLE, "--jobs", "2")
    first = _fails(range(2, 32))[0]
    assert stop.exit_code == 1 and f"the game of seed {first} failed" in stop.output, stop.output


def test_a_small_batch_plays_in_this_process_and_jobs_defaults_to_every_core() -> None:
    import os

    from cardscript.dsl.sim.pool import MIN_GAMES_PER_WORKER, default_jobs, workers_for

    assert default_jobs() == (os.cpu_count() or 1)
    assert workers_for(MIN_GAMES_PER_WORKER * 2 - 1, 8) == 1 and workers_for(MIN_GAMES_PER_WORKER * 3, 2) == 2
    assert workers_for(5, 1) == 1 and workers_for(10_000, 4) == 4


# ---------------------------------------------------------------- 3. --out, --resume
def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_out_streams_a_header_then_one_row_per_game_in_seed_order(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    r = _run("simulate", "injustice", "-n", "4", "--seed", "3", "--bots", "heuristic,random", "--out", str(out))
    assert r.exit_code == 0, r.output
    header, *rows = _lines(out)
    assert header["t"] == "run" and header["game"] == "injustice" and header["bots"] == ["heuristic", "random"]
    assert [row["seed"] for row in rows] == [3, 4, 5, 6]
    row = rows[0]
    assert row["seats"] == ["P1", "P2"] and row["bots"] == ["heuristic", "random"] and len(row["scores"]) == 2
    assert row["winners"] and row["turns"] > 0 and row["reason"]
    import cardscript

    d = cardscript.compile_game("injustice")
    res = cardscript.play_game(d, players=2, agents=["heuristic", "random"], seed=3, log=True)
    assert row["scores"] == res.scores and row["turns"] == res.turns, "the row is the game of its seed"
    p1 = row["per_seat"][0]
    bought = sum(p1["chosen"]["buy"].values())
    played = sum(1 for e in res.log if e["t"] == "play" and e["player"] == 0)
    assert bought > 0 and sum(p1["played"].values()) == played
    assert set(p1["chosen"]["buy"]) <= set(p1["gained"]), "a card bought is gained"
    assert sum(p1["final"].values()) >= 10, "the final deck holds the starting cards too"
    assert not [c for c in p1["gained"] if c in ("Light Punch", "Heavy Punch")], "a starting card is not a gain"


def test_keep_going_writes_the_failed_games_rows_with_their_replay_command(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    r = _run("simulate", "injustice", "-n", "6", "--with", UNSTABLE, "--keep-going", "--out", str(out))
    assert r.exit_code == 1
    rows = _lines(out)[1:]
    fails = _fails(range(1, 7))
    assert [(row["seed"], row["t"]) for row in rows] == [(seed, "failed" if seed in fails else "game")
                                                         for seed in range(1, 7)]
    assert fails and 0 < len(fails) < 6, "the fixture runs away in some games, not all"
    bad = next(row for row in rows if row["t"] == "failed")
    assert f"--seed {bad['seed']} " in bad["replay"] and "traceback" not in bad


def test_resume_after_kill_9_loses_and_repeats_no_game(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    games = 60
    out, whole = tmp_path / "killed.jsonl", tmp_path / "whole.jsonl"
    argv = ["simulate", "injustice", "-n", str(games), "--seed", "11", "--players", "3", "--jobs", "1"]
    proc = subprocess.Popen([sys.executable, "-m", "cardscript", *argv, "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 10):
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the run's own process group: it and nothing else
        proc.wait()
    killed_at = out.read_bytes().count(b"\n") - 1
    assert 9 <= killed_at < games, "killed mid-way"
    r = _run(*argv[:-2], "--jobs", "2", "--out", str(out), "--resume")  # the rest on a pool
    assert r.exit_code == 0, r.output
    assert _run(*argv, "--out", str(whole)).exit_code == 0
    seeds = [row["seed"] for row in _lines(out)[1:]]
    assert sorted(seeds) == list(range(11, 11 + games)) and len(set(seeds)) == games
    assert out.read_bytes() == whole.read_bytes(), "the same rows, in the same order, as an uninterrupted run"


def test_resume_drops_a_torn_last_line_and_plays_that_game_again(tmp_path: Path) -> None:
    out, whole = tmp_path / "torn.jsonl", tmp_path / "whole.jsonl"
    argv = ["simulate", "injustice", "-n", "5", "--out"]
    assert _run(*argv, str(whole)).exit_code == 0
    data = whole.read_bytes()
    out.write_bytes(data[:data.rfind(b"\n", 0, len(data) - 1) + 40])  # 3 whole rows and a torn fourth
    r = _run(*argv, str(out), "--resume", "--json")
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == data and json.loads(r.output)["games"] == 5


def test_resume_refuses_another_batchs_file_and_needs_out(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    assert _run("simulate", "injustice", "-n", "2", "--out", str(out)).exit_code == 0
    before = out.read_bytes()
    r = _run("simulate", "injustice", "-n", "2", "--players", "3", "--out", str(out), "--resume")
    assert r.exit_code == 2 and "another batch's games" in r.output and "players" in r.output, r.output
    r = _run("simulate", "injustice", "-n", "2", "--with", UNSTABLE, "--out", str(out), "--resume")
    assert r.exit_code == 2 and "another batch's games" in r.output
    assert out.read_bytes() == before
    assert _run("simulate", "injustice", "-n", "2", "--resume").exit_code == 2
    (tmp_path / "junk.jsonl").write_text("hello\n")
    r = _run("simulate", "injustice", "-n", "2", "--out", str(tmp_path / "junk.jsonl"), "--resume")
    assert r.exit_code == 2 and "junk.jsonl:1" in r.output


def test_logging_the_games_for_their_rows_changes_no_game() -> None:
    from cardscript.dsl.sim.games import play_seed
    from cardscript.dsl.sim.spec import BatchSpec

    plain = BatchSpec("justice-league-dark", 3, "heuristic,random")
    detailed = BatchSpec("justice-league-dark", 3, "heuristic,random", detail=True)
    d = plain.compile()
    actions: set[str] = set()
    for seed in (1, 2, 3):
        row = play_seed(d, detailed, seed)
        for seat in row.pop("per_seat"):
            actions |= set(seat["chosen"])
        assert row == play_seed(d, plain, seed)
    assert {"play", "buy"} <= actions, "each action that chooses a card has its own counts"


def test_a_failing_batch_keeps_an_existing_out_file(tmp_path: Path) -> None:
    """Never a clobbered output file: a batch that stops on a failing game leaves the file
    already at --out as it was, its rows in FILE.partial (which --resume continues); a
    batch that runs to its end replaces the file."""
    bad = tmp_path / "rec.cards"  # runs away at run time (CS401): under an 'if', check allows it (CS214)
    bad.write_text('expansion "X"\nuses "injustice"\neffect foo:\n  if count players > 0: foo\n'
                   'card "R": hero, cost 0, copies 30\n'
                   "  play: foo\n")
    out = tmp_path / "k.jsonl"
    out.write_text("KEEP\n")
    r = _run("simulate", "injustice", "-n", "4", "--jobs", "1", "--with", str(bad), "--out", str(out))
    assert r.exit_code == 1 and out.read_text() == "KEEP\n"
    partial = tmp_path / "k.jsonl.partial"
    assert f"{partial}" in r.output and _lines(partial)[0]["t"] == "run"
    r = _run("simulate", "injustice", "-n", "2", "--jobs", "1", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert [row["seed"] for row in _lines(out)[1:]] == [1, 2]
    assert not (tmp_path / "k.jsonl.partial.partial").exists()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text(encoding="utf-8").rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_end_when_simulate_is_killed(tmp_path: Path) -> None:
    """A hostile trial: `simulate -j 3` killed with SIGTERM left its workers playing on as
    orphans. Each worker now watches its parent and ends within about a second."""
    import os
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "cardscript", "simulate", "injustice", "-n", "3000", "-j", "3",
                             "--out", str(tmp_path / "r.jsonl")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.5)
            workers = [c for c in _children(proc.pid)
                       if b"resource_tracker" not in Path(f"/proc/{c}/cmdline").read_bytes()]
        assert len(workers) >= 2, "the pool's workers never started"
        time.sleep(1.0)  # past their initializer
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # no handler, no clean-up: the harshest end
        proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.2)
    alive = [w for w in workers if Path(f"/proc/{w}").exists()
             and Path(f"/proc/{w}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0] != "Z"]
    for w in alive:
        os.kill(w, signal.SIGKILL)
    assert not alive

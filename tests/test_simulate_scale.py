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

ROOT = Path(__file__).resolve().parent.parent
UNSTABLE = str(ROOT / "tests" / "sim" / "unstable.cards")  # runs away in about half the games


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _timeless(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_second")}


# ---------------------------------------------------------------- 1. failing games
def test_a_failing_game_stops_the_batch_naming_its_seed_and_the_command_that_replays_it() -> None:
    r = _run("simulate", "injustice", "-n", "20", "--seed", "2", "--with", UNSTABLE)
    assert r.exit_code == 1, r.output
    assert "error[CS401]" in r.output and "(seed 4)" in r.output  # seeds 2 and 3 play out; 4 runs away
    command = re.search(r"replay it with:\n  (.+)", r.output)
    assert command is not None, r.output
    argv = shlex.split(command.group(1))
    assert argv[:2] == ["cardscript", "play"] and argv[argv.index("--seed") + 1] == "4"
    again = _run(*argv[1:], "-q")  # the command, run: the same game runs away the same way
    assert again.exit_code == 1 and "error[CS401]" in again.output and "(seed 4)" in again.output


def test_keep_going_records_every_failure_and_summarises_the_other_games() -> None:
    r = _run("simulate", "injustice", "-n", "12", "--with", UNSTABLE, "--keep-going", "--json")
    assert r.exit_code == 1, r.output
    s = json.loads(r.output)
    failed = [f["seed"] for f in s["failed"]]
    assert failed == [1, 4, 5, 6, 9, 10, 11, 12]
    assert s["games"] == 12 - len(failed) and sum(s["end_reasons"].values()) == s["games"]
    for f in s["failed"]:
        assert f["error"] == "CS401" and f"--seed {f['seed']} " in f["replay"] and "--with" in f["replay"]


def test_keep_going_prints_each_failure_on_lines_that_are_never_wrapped() -> None:
    r = _run("simulate", "injustice", "-n", "5", "--with", UNSTABLE, "--keep-going")
    assert r.exit_code == 1 and "3 game(s) failed:" in r.output, r.output
    replays = [ln.split("replay: ", 1)[1] for ln in r.output.splitlines() if "replay: " in ln]
    assert [shlex.split(c)[shlex.split(c).index("--seed") + 1] for c in replays] == ["1", "4", "5"]


def test_an_internal_error_in_a_game_names_its_seed_and_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardscript.runtime.engine import Engine

    def boom(self: Any) -> Any:
        raise KeyError("deck")

    monkeypatch.setattr(Engine, "run", boom)
    r = _run("simulate", "injustice", "-n", "3", "--seed", "7")
    assert r.exit_code == 3, r.output
    assert "the game of seed 7 failed" in r.output and "cardscript play injustice --players 2 --seed 7" in r.output
    assert [ln for ln in r.output.splitlines() if "internal error" in ln][0].startswith("internal error: KeyError")


# ---------------------------------------------------------------- 2. --jobs
def test_jobs_2_prints_the_same_summary_as_jobs_1() -> None:
    from cardscript.dsl.sim.pool import workers_for

    assert workers_for(40, 2) == 2, "40 games are enough for a pool of 2: the test must use one"
    one = _run("simulate", "injustice", "-n", "40", "--seed", "5", "--bots", "greedy,random", "--json", "--jobs", "1")
    two = _run("simulate", "injustice", "-n", "40", "--seed", "5", "--bots", "greedy,random", "--json", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, (one.output, two.output)
    a, b = json.loads(one.output), json.loads(two.output)
    assert _timeless(a) == _timeless(b) and a["games"] == 40


def test_jobs_2_reports_the_same_failures_and_stops_at_the_same_seed() -> None:
    args = ["simulate", "injustice", "-n", "30", "--with", UNSTABLE, "--keep-going", "--json"]
    one, two = _run(*args, "--jobs", "1"), _run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 1
    assert _timeless(json.loads(one.output)) == _timeless(json.loads(two.output))
    stop = _run("simulate", "injustice", "-n", "30", "--seed", "2", "--with", UNSTABLE, "--jobs", "2")
    assert stop.exit_code == 1 and "the game of seed 4 failed" in stop.output, stop.output


def test_a_small_batch_plays_in_this_process_and_jobs_defaults_to_every_core() -> None:
    import os

    from cardscript.dsl.sim.pool import MIN_GAMES_PER_WORKER, default_jobs, workers_for

    assert default_jobs() == (os.cpu_count() or 1)
    assert workers_for(MIN_GAMES_PER_WORKER * 2 - 1, 8) == 1 and workers_for(MIN_GAMES_PER_WORKER * 3, 2) == 2
    assert workers_for(5, 1) == 1 and workers_for(10_000, 4) == 4

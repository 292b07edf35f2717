"""Review of the batch tools (``analyze``, ``analyze --html``, ``compare``, ``simulate``)
as a careless user: a mistake gets a clear message and exit 1 or 2, and leaves no output
behind, not even an empty folder."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cardscript.dsl.cli import main

HEADER = ('{"bots": ["greedy", "greedy"], "cardscript": 1, "game": "injustice", "mix": [], "players": 2, '
          '"scripts": "0", "t": "run", "variants": [], "with": []}\n')


def test_analyze_of_a_run_with_no_games_says_so(tmp_path: Path) -> None:
    # a run stopped before its first game ended printed empty tables and a page of empty plots (exit 0)
    runs = tmp_path / "runs.jsonl"
    runs.write_text(HEADER, encoding="utf-8")
    res = CliRunner().invoke(main, ["analyze", str(runs), "--html", str(tmp_path / "report")])
    assert res.exit_code == 1, res.output
    assert f"no games in {runs}" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "report").exists()


def test_analyze_html_of_a_bad_results_file_makes_no_folder(tmp_path: Path) -> None:
    # --html DIR was made before the results were read: a failed run left an empty DIR
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["analyze", str(bad), "--html", str(tmp_path / "report")])
    assert res.exit_code == 2 and "not a row of a results file" in res.output
    assert not (tmp_path / "report").exists()
    res = CliRunner().invoke(main, ["analyze", str(bad), "--html", str(tmp_path / "no" / "report")])
    assert res.exit_code == 2 and "cannot make the folder" in res.output and "does not exist" in res.output


def test_simulate_scheduler_with_an_impossible_port_fails_at_once() -> None:
    # tcp://HOST:99999 waited the whole 10 s connect timeout, then asked whether a scheduler runs there
    import time

    import pytest

    pytest.importorskip("distributed")
    start = time.monotonic()
    res = CliRunner().invoke(main, ["simulate", "injustice", "-n", "2", "--scheduler", "tcp://127.0.0.1:99999"])
    assert res.exit_code == 1 and "port 99999 is not 1 to 65535" in res.output
    assert time.monotonic() - start < 8


def test_analyze_says_when_it_leaves_out_a_torn_last_line(tmp_path: Path) -> None:
    # the half-written row of an interrupted run was dropped without a word
    runs = tmp_path / "runs.jsonl"
    runs.write_text(HEADER + '{"seed": 1, "t": "game", "tur', encoding="utf-8")
    res = CliRunner().invoke(main, ["analyze", str(runs)])
    assert f"note: the last line of {runs} is torn" in res.output
    assert res.exit_code == 1 and "no games in" in res.output  # the torn row was its only game

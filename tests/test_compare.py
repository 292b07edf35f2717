"""cardscript compare: the paired interval against published values, and the command on
a fixture expansion (tests/fixtures/compare/: weak/ and weak-copy/ are the same, strong/
gives its one card +2 Power more) — docs/analyze.md#compare."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.sim.compare import compare, paired_table
from cardscript.dsl.sim.stats import newcombe_paired

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "compare"
#: enough for the +2 Power card to show, few enough for a loaded 2-core machine (about 5 s a side)
GAMES = "60"


def test_newcombe_paired_known_values() -> None:
    # Newcombe (1998), Statistics in Medicine 17, 2635-2650, table II, method 10: (36, 12, 2, 0)
    assert newcombe_paired(36, 12, 2, 0) == pytest.approx((0.2, 0.0569, 0.3404), abs=1e-4)
    # Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables, chapter 8:
    # Bentur et al. (2009), (1, 1, 7, 12): -0.2857 [-0.5069, -0.0256]
    assert newcombe_paired(1, 1, 7, 12) == pytest.approx((-0.2857, -0.5069, -0.0256), abs=1e-4)
    d, lo, hi = newcombe_paired(30, 0, 0, 30)  # identical pairs: no difference, a finite interval
    assert d == 0 and lo < 0 < hi
    with pytest.raises(ValueError):
        newcombe_paired(0, 0, 0, 0)


def test_a_shared_win_splits_over_the_pair_table() -> None:
    # (B, A) per game: a shared win (0.5) against a win, a loss against a shared win, equal results
    a, b, c, d = paired_table([(0.5, 1.0), (0.0, 0.5), (1.0, 1.0), (0.0, 0.0)])
    assert (a, b, c, d) == (1.5, 0.0, 1.0, 1.5)  # margins: B 1.5, A 2.5 of 4
    assert a + b + c + d == 4


def _row(seed: int, winner: int, turns: int) -> dict:
    return {"t": "game", "seed": seed, "seats": ["P1", "P2"], "bots": ["b", "b"], "scores": [1, 0],
            "winners": [f"P{winner}"], "turns": turns, "decisions": 1, "reason": "r", "outcome": "", "per_seat": []}


def test_paired_rows_must_be_the_same_seeds_and_failures_drop_the_pair() -> None:
    with pytest.raises(ValueError):
        compare([_row(1, 1, 10)], [_row(2, 1, 10)], {}, {})
    failed = {"t": "failed", "seed": 2, "error": "CS401", "message": "m", "replay": "x"}
    report = compare([_row(1, 1, 10), _row(2, 1, 10)], [_row(1, 2, 12), failed], {}, {})
    assert report["games"] == 1 and report["failed"] == [2]
    assert report["seats"][0]["diff"] == -1.0 and report["measures"][0]["diff"] == 2


def _compare(tmp_path: Path, a: str, b: str) -> tuple[dict, str]:
    out, table = tmp_path / "c.json", tmp_path / "c.csv"
    res = CliRunner().invoke(main, ["compare", "injustice", "--a-with", str(FIXTURES / a), "--b-with",
                                    str(FIXTURES / b), "-n", GAMES, "-p", "2", "--jobs", "1", "--json", str(out),
                                    "--csv", str(table)])
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text())
    rows = list(csv.DictReader(table.open()))
    assert [r["card"] for r in rows] == [c["card"] for c in report["cards"]]
    return report, res.output


def test_compare_finds_the_card_with_two_more_power(tmp_path: Path) -> None:
    report, output = _compare(tmp_path, "weak", "strong")
    assert report["games"] == int(GAMES) and report["significant"]
    assert report["verdicts"][0] == f"A and B differ at 95 % over {GAMES} games"
    assert "A and B differ at 95 % over 60 games" in output and "changed: Fixture Surge" in output
    assert [c["card"] for c in report["changed"]] == ["Fixture Surge"]
    changed = report["changed"][0]
    assert changed["a"]["text"] == "+1 Power." and changed["b"]["text"] == "+3 Power."
    # the card is the first row; its impact moved up, beyond its interval
    surge = report["cards"][0]
    assert surge["card"] == "Fixture Surge" and surge["changed"] and surge["significant"] and surge["low"] > 0
    assert any(line.startswith("'Fixture Surge' differs between A and B") for line in report["verdicts"])
    # every seat has more to spend: the games are shorter, significantly
    turns = report["measures"][0]
    assert turns["what"] == "game length (turns)" and turns["significant"] and turns["high"] < 0
    assert report["only_a"] == report["only_b"] == [] and not report["same_scripts"]
    assert {s["seat"] for s in report["seats"]} == {"P1", "P2"}


def test_compare_finds_nothing_between_two_identical_copies(tmp_path: Path) -> None:
    report, output = _compare(tmp_path, "weak", "weak-copy")
    assert not report["significant"] and report["changed"] == []
    assert report["verdicts"][0] == f"no significant difference at 95 % over {GAMES} games"
    assert "no significant difference at 95 % over 60 games" in output
    assert report["same_scripts"]  # the same text: the fingerprint is by content only
    for x in [*report["seats"], *report["measures"]]:
        assert x["diff"] == 0 and x["low"] <= 0 <= x["high"] and not x["significant"]
    assert all(not c["significant"] for c in report["cards"])


def test_compare_a_variant_and_usage_errors(tmp_path: Path) -> None:
    out = tmp_path / "v.json"
    res = CliRunner().invoke(main, ["compare", "injustice", "--b-variant", "short", "-n", "3", "-p", "2",
                                    "--jobs", "1", "--json", str(out)])
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text())
    assert report["b"]["variants"] == ["short"] and report["a"]["variants"] == [] and report["games"] == 3
    assert report["verdicts"][0].endswith("over 3 games")
    res = CliRunner().invoke(main, ["compare", "injustice", "--b-variant", "nope", "-n", "2"])
    assert res.exit_code != 0 and "Traceback" not in res.output
    res = CliRunner().invoke(main, ["compare", "injustice", "-n", "2", "-p", "9"])
    assert res.exit_code == 2 and "players" in res.output
    res = CliRunner().invoke(main, ["compare", "injustice", "-n", "2", "--json", str(tmp_path / "no" / "x.json")])
    assert res.exit_code == 2 and "does not exist" in res.output

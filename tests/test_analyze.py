"""cardscript analyze: the interval math against published values, a planted card, and a
real Injustice batch through the command (docs/scale.md#analyze)."""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.sim.analyze import analyze
from cardscript.dsl.sim.stats import mh_difference, newcombe, wilson


def test_wilson_known_values() -> None:
    # Newcombe (1998), Statistics in Medicine 17, table I
    assert wilson(7, 10) == pytest.approx((0.3968, 0.8922), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_newcombe_known_value() -> None:
    # Newcombe (1998), Statistics in Medicine 17, 873-890, table II, method 10: 56/70 - 48/80
    d, lo, hi = newcombe(56, 70, 48, 80)
    assert (d, lo, hi) == pytest.approx((0.2, 0.0524, 0.3339), abs=1e-4)
    d, lo, hi = newcombe(9, 10, 3, 10)  # table II example (c): 0.6 [0.1705, 0.8090]
    assert (lo, hi) == pytest.approx((0.1705, 0.8090), abs=1e-4)
    with pytest.raises(ValueError):
        newcombe(1, 0, 1, 2)


def test_mantel_haenszel_one_stratum_is_the_wald_difference() -> None:
    d, lo, hi = mh_difference([(56, 70, 48, 80)])  # type: ignore[misc]
    p1, p0 = 56 / 70, 48 / 80
    half = 1.959964 * math.sqrt(p1 * (1 - p1) / 70 + p0 * (1 - p0) / 80)
    assert (d, lo, hi) == pytest.approx((0.2, 0.2 - half, 0.2 + half), abs=1e-5)


def test_mantel_haenszel_removes_a_seat_confounder() -> None:
    # buying is common at seat 1, which wins more; within each seat the card changes nothing
    strata = [(48, 80, 12, 20), (4, 20, 16, 80)]  # seat 1: 60 % either way; seat 2: 20 % either way
    raw = newcombe(52, 100, 28, 100)
    assert raw[1] > 0  # unadjusted, the card looks strong
    d, lo, hi = mh_difference(strata)  # type: ignore[misc]
    assert d == pytest.approx(0.0, abs=1e-9) and lo < 0 < hi
    assert mh_difference([(1, 1, 0, 0)]) is None


def _row(seed: int, rng: random.Random) -> dict:
    """Two seats; whoever buys 'Planted' wins; everybody buys 'Filler' or not at random."""
    planted = rng.randrange(2)
    per_seat = []
    for i in range(2):
        buy = {"Filler": 1} if rng.random() < 0.5 else {}
        if i == planted:
            buy["Planted"] = 1
        per_seat.append({"seat": f"P{i + 1}", "chosen": {"buy": buy, "defeat": {"Villain": 1}},
                         "played": {"Punch": 3}, "gained": buy, "final": buy})
    return {"t": "game", "seed": seed, "seats": ["P1", "P2"], "bots": ["random", "random"],
            "scores": [10, 5] if planted == 0 else [5, 10], "winners": [f"P{planted + 1}"], "turns": 20 + seed % 5,
            "decisions": 100, "reason": "done", "outcome": "", "per_seat": per_seat}


def test_a_planted_card_is_positive_and_significant() -> None:
    rng = random.Random(7)
    report = analyze([_row(s, rng) for s in range(200)])
    cards = {c["card"]: c for c in report["cards"]}
    assert report["cards"][0]["card"] == "Planted"
    planted = cards["Planted"]
    assert planted["win_bought"] == 1.0 and planted["win_not_bought"] == 0.0
    assert planted["adjusted"] == pytest.approx(1.0) and planted["low"] > 0.9 and planted["significant"]
    assert not cards["Filler"]["significant"] and cards["Filler"]["low"] < 0 < cards["Filler"]["high"]
    assert cards["Punch"]["bought"] == 0 and cards["Punch"]["played"] == 1200 and cards["Punch"]["adjusted"] is None
    assert "Villain" not in cards  # another action's choices are not buys
    villain = {c["card"]: c for c in analyze([_row(s, random.Random(s)) for s in range(20)], "defeat")["cards"]}
    assert villain["Villain"]["seat_games_bought"] == 40


def test_a_shared_win_counts_a_share() -> None:
    row = _row(1, random.Random(1))
    row["winners"] = ["P1", "P2"]
    report = analyze([row])
    assert [s["wins"] for s in report["seats"]] == [0.5, 0.5]


def test_cooperative_outcomes_per_hero_count() -> None:
    rows = [{"t": "game", "seed": s, "seats": ["P1", "P2"] if s % 2 else ["P1", "P2", "P3"], "bots": [],
             "scores": [0, 0] if s % 2 else [0, 0, 0], "winners": [], "turns": 10, "decisions": 1,
             "reason": "r", "outcome": "win" if s % 3 else "loss"} for s in range(30)]
    rows.append({"t": "failed", "seed": 99, "error": "CS401", "message": "m", "replay": "x"})
    report = analyze(rows)
    assert report["failed"] == 1 and report["games"] == 30 and report["seats"] == []
    two = {o["outcome"]: o for o in report["outcomes"] if o["heroes"] == 2}
    assert two["win"]["wins"] + two["loss"]["wins"] == 15
    assert two["win"]["low"] < two["win"]["rate"] < two["win"]["high"]


@pytest.fixture(scope="module")
def injustice_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("analyze") / "runs.jsonl"
    res = CliRunner().invoke(main, ["simulate", "injustice", "-n", "200", "--players", "2", "--jobs", "1",
                                    "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    return out


def test_analyze_a_real_injustice_batch(injustice_results: Path, tmp_path: Path) -> None:
    csv_file, json_file = tmp_path / "cards.csv", tmp_path / "report.json"
    res = CliRunner().invoke(main, ["analyze", str(injustice_results), "--csv", str(csv_file),
                                    "--json", str(json_file)])
    assert res.exit_code == 0, res.output
    assert "200 games" in res.output and "seat advantage" in res.output and "Newcombe" in res.output
    assert "end reasons" in res.output and "turns" in res.output
    report = json.loads(json_file.read_text())
    first = report["seats"][0]
    assert first["seat"] == "P1" and first["n"] == 200 and first["expected"] == 0.5
    assert first["low"] <= first["rate"] <= first["high"]
    assert sum(s["wins"] for s in report["seats"]) == pytest.approx(200)
    rows = list(csv.DictReader(csv_file.open()))
    assert len(rows) == len(report["cards"]) > 10 and {r["card"] for r in rows} == {c["card"] for c in report["cards"]}
    assert any(c["adjusted"] is not None for c in report["cards"])
    assert [p.name for p in tmp_path.iterdir()] and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_analyze_writes_atomically_and_refuses_bad_input(injustice_results: Path, tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old")
    missing_dir = tmp_path / "nope" / "x.csv"
    res = CliRunner().invoke(main, ["analyze", str(injustice_results), "--json", str(target),
                                    "--csv", str(missing_dir)])
    assert res.exit_code == 2 and target.read_text() == "old"  # refused before anything is written
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": "game"}\n')
    res = CliRunner().invoke(main, ["analyze", str(bad)])
    assert res.exit_code == 2 and "not a results file" in res.output and "Traceback" not in res.output


@pytest.fixture(scope="module")
def results_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("res") / "r.jsonl"
    r = CliRunner().invoke(main, ["simulate", "injustice", "-n", "3", "-j", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out.read_text(encoding="utf-8").splitlines()


def _tampered(change: str, row: dict) -> None:
    if change == "scores as texts":
        row["scores"] = ["a", "b"]
    elif change == "turns as text":
        row["turns"] = "x"
    elif change == "a 400-digit score":
        row["scores"] = [10**400, 1]
    elif change == "per_seat 1000 times":
        row["per_seat"] = row["per_seat"] * 500
    elif change == "chosen a list":
        row["per_seat"][0]["chosen"] = [1, 2]


@pytest.mark.parametrize("change", ["scores as texts", "turns as text", "a 400-digit score", "per_seat 1000 times",
                                    "chosen a list", "nested 100,000 deep"])
@pytest.mark.parametrize("command", ["analyze", "resume"])
def test_a_tampered_row_is_a_usage_error_never_exit_3(results_lines: list[str], tmp_path: Path, change: str,
                                                      command: str) -> None:
    """'analyze' and 'simulate --resume' read a results file's rows as they were: a row
    edited by hand (texts for numbers, a huge number, more seats than the run's, a list
    nested 100,000 deep) gave a TypeError, OverflowError, IndexError or RecursionError, exit 3
    (found by a hostile trial). It is 'not a game's row' at its line, exit 2."""
    lines = list(results_lines)
    if change == "nested 100,000 deep":
        lines[1] = "[" * 100_000 + "]" * 100_000
    else:
        row = json.loads(lines[1])
        _tampered(change, row)
        lines[1] = json.dumps(row)
    f = tmp_path / "r.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["analyze", str(f)] if command == "analyze" else \
        ["simulate", "injustice", "-n", "4", "-j", "1", "--out", str(f), "--resume"]
    r = CliRunner().invoke(main, argv)
    assert r.exit_code == 2 and f"{f.name}:2: not a" in r.output and "internal error" not in r.output, r.output[-400:]


def test_an_action_the_results_never_chose_is_a_usage_error(injustice_results: Path) -> None:
    """A hostile trial: `--action nope` printed a table of zeros, as if nobody bought a card."""
    res = CliRunner().invoke(main, ["analyze", str(injustice_results), "--action", "nope"])
    assert res.exit_code == 2
    assert "no choices of the action 'nope'; they hold 'buy', 'play'" in res.output, res.output
    res = CliRunner().invoke(main, ["analyze", str(injustice_results), "--action", "play", "--top", "1"])
    assert res.exit_code == 0, res.output

"""The command line, through click's CliRunner: outputs, exit codes, no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.front.pipeline import validate_ir

RUN = CliRunner()


def run(*args: str):
    return RUN.invoke(main, list(args), catch_exceptions=False)


def test_play_prints_a_log_and_scores():
    r = run("play", "injustice", "--players", "2", "--seed", "3")
    assert r.exit_code == 0
    assert "── Turn 1 · P1 ──" in r.output and "plays" in r.output
    assert "Final scores" in r.output and "★" in r.output


def test_play_log_and_replay(tmp_path):
    log = tmp_path / "g.jsonl"
    r = run("play", "injustice", "-p", "3", "-s", "11", "--bots", "greedy,random", "-q", "--log", str(log))
    assert r.exit_code == 0
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["t"] == "header" and json.loads(lines[-1])["t"] == "score"
    r = run("replay", str(log))
    assert r.exit_code == 0 and "replay identical" in r.output


def test_replay_detects_a_tampered_log(tmp_path):
    log = tmp_path / "g.jsonl"
    run("play", "injustice", "-s", "2", "-q", "--log", str(log))
    lines = log.read_text().splitlines()
    i = next(i for i, l in enumerate(lines) if '"t": "counter"' in l)
    lines[i] = lines[i].replace('"value": ', '"value": 1')
    log.write_text("\n".join(lines) + "\n")
    r = run("replay", str(log))
    assert r.exit_code == 1 and "differs at log line" in r.output


def test_cards_json_fields():
    r = run("cards", "injustice", "--format", "json")
    assert r.exit_code == 0
    cards = json.loads(r.output)
    by = {c["name"]: c for c in cards}
    assert {"name", "type", "cost", "vp", "copies", "text"} <= set(cards[0])
    assert by["Heavy Punch"]["copies"] == 8 and by["Heavy Punch"]["type"] == "starter"
    assert "attack target foe" in by["Heavy Punch"]["text"]
    main_deck = sum(c["copies"] for c in cards if set(c["type"].split(", ")) & {"hero", "villain", "equipment", "super power"}
                    and "super-villain" not in c["type"] and "super hero" not in c["type"])
    assert main_deck == 92  # rulebook Contents: 92 main-deck cards


def test_compile_writes_schema_valid_ir(tmp_path):
    out = tmp_path / "ir.json"
    r = run("compile", "injustice", "-o", str(out))
    assert r.exit_code == 0
    ir = json.loads(out.read_text())
    assert ir["game"] == "Injustice" and validate_ir(ir) == []


def test_compile_to_missing_folder_is_a_usage_error(tmp_path):
    r = run("compile", "injustice", "-o", str(tmp_path / "nope" / "ir.json"))
    assert r.exit_code == 2 and not (tmp_path / "nope").exists()


def test_simulate_json_summary():
    r = run("simulate", "injustice", "--games", "4", "--players", "2", "--seed", "1", "--json")
    assert r.exit_code == 0
    s = json.loads(r.output)
    assert s["games"] == 4 and sum(s["end_reasons"].values()) == 4
    assert abs(sum(s["wins_per_seat"].values()) - 4) < 1e-6


def test_simulate_gives_each_rate_its_95_percent_wilson_interval():
    """A win rate without its interval misleads: 40 random-bot games of Injustice give P2
    66 % [50.8, 78.9], 400 give 50.9 % [46.0, 55.7]. The summary's interval is Wilson's of
    the shares won, the table's the same in percent."""
    from cardscript.dsl.sim.stats import wilson

    r = run("simulate", "injustice", "--games", "5", "--seed", "1", "--json", "-j", "1")
    s = json.loads(r.output)
    for seat, wins in s["wins_per_seat"].items():
        low, high = s["win_rate_95_per_seat"][seat]
        assert low <= wins / 5 <= high and (low, high) == tuple(round(x, 4) for x in wilson(wins, 5))
    coop = json.loads(run("simulate", "hero-dice-batman", "--games", "4", "--players", "1", "--json", "-j", "1").output)
    assert set(coop["outcome_rate_95"]) == set(coop["outcomes"]) != set()
    assert all(0 <= lo <= n / 4 <= hi <= 1 for k, n in coop["outcomes"].items() for lo, hi in [coop["outcome_rate_95"][k]])
    table = run("simulate", "injustice", "--games", "5", "--seed", "1", "-j", "1").output
    low, high = s["win_rate_95_per_seat"]["P1"]
    assert "95 % (Wilson)" in table and f"[{100 * low:.1f}, {100 * high:.1f}]" in table


def test_simulate_table():
    r = run("simulate", "injustice", "--games", "2", "--bots", "heuristic,random")  # the table, not the bot
    assert r.exit_code == 0 and "end reasons" in r.output and "wins per bot" in r.output


def test_test_command_runs_scenarios():
    r = run("test", "tests/scenarios/language")
    assert r.exit_code == 0 and "passed, 0 failed" in r.output


def test_failing_scenario_prints_diagnostic_at_its_line(tmp_path):
    f = tmp_path / "bad.scenario"
    f.write_text('scenario "bad"\nuses "injustice"\nplayers 2\n\nexpect count all cards in your hand == 9\n')
    r = run("test", str(f))
    assert r.exit_code == 1
    assert "bad.scenario:5:1: error[CS301]: expectation failed" in r.output
    assert "left side is 5, right side is 9" in r.output


@pytest.mark.parametrize("args,code,needle", [
    (("play", "injustise"), 2, "did you mean 'injustice'?"),
    (("play", "injustice", "--players", "9"), 2, "2 to 4 players"),
    (("play", "injustice", "--bots", "clever"), 2, "unknown bot"),
    (("check", "no/such/path"), 2, "no such file or folder"),
    (("replay", "README.md"), 1, "not a cardscript log"),
    (("test", "no/such.scenario"), 2, "no such file or folder"),
])
def test_user_mistakes_have_no_traceback(args, code, needle):
    r = RUN.invoke(main, list(args))
    assert r.exit_code == code, r.output
    assert needle in r.output
    assert "Traceback" not in r.output


def test_check_broken_script_reports_location(tmp_path):
    game = tmp_path / "g"
    game.mkdir()
    src = Path("cardscripts/injustice")
    for f in src.iterdir():
        if f.suffix in (".rules", ".cards"):
            (game / f.name).write_text(f.read_text())
    cards = (game / "cards.cards").read_text().replace('play: +1 power; attack target foe: deal 2 damage to them',
                                                      'play: +1 power; attack target fo: deal 2 damage to them', 1)
    (game / "cards.cards").write_text(cards)
    r = RUN.invoke(main, ["check", str(game)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "cards.cards:17:" in r.output and "error[CS" in r.output


def test_check_json_format(tmp_path):
    f = tmp_path / "x.cards"
    f.write_text('card "A" hero\n')
    r = RUN.invoke(main, ["check", "--format", "json", str(f)])
    assert r.exit_code == 1
    (d,) = json.loads(r.output)
    assert d["code"] == "CS101" and d["span"]["line"] == 1


def test_failed_expectation_says_when_an_attribute_has_no_card(tmp_path):
    """'name of the top card of your deck' on an empty deck is no card's name: the message
    says so, instead of a bare 0 that reads like the card's value (a fan author's report)."""
    f = tmp_path / "empty.scenario"
    f.write_text('scenario "empty"\nuses "injustice"\nplayers 2\ndo: move all cards from your deck to the box\n'
                 'expect name of the top card of your deck == "Punch"\n')
    r = run("test", str(f))
    assert r.exit_code == 1
    assert "empty.scenario:5:1: error[CS301]" in r.output
    assert "left side is 0 (no card: the name of nothing), right side is 'Punch'" in r.output


def test_check_takes_a_built_in_game_by_name(tmp_path, monkeypatch):
    """'cardscript check injustice' checks the built-in game, as 'play injustice' plays it
    (a new user's report: it said 'no such file or folder'); a folder of that name in the
    current folder still wins, and a misspelt name lists the built-in games."""
    monkeypatch.chdir(tmp_path)
    r = run("check", "injustice")
    assert r.exit_code == 0 and "0 error(s), 0 warning(s)" in r.output
    bad = run("check", "injustic")
    assert bad.exit_code == 2 and "built-in games: hero-dice-batman, injustice, justice-league-dark" in bad.output
    (tmp_path / "injustice").mkdir()
    (tmp_path / "injustice" / "x.cards").write_text('card "X" hero\n', encoding="utf-8")  # CS101
    assert run("check", "injustice").exit_code == 1  # the folder here, not the built-in game

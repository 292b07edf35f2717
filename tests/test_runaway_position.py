"""A game stopped by a runaway (CS401) names the script line to fix: file:line:col of the
statement that was running, with its excerpt and caret, in a scenario, in `play` and in
`simulate` (issue 11's new-user review: CS401 gave no file:line)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import runaway_at, span_at
from cardscript.dsl.harness.scenario import run_scenario

RECURSION = '''expansion "loops"
uses "injustice"

effect ping:
  if count all cards in your hand >= 0: ping

card "Looper": hero, cost 1, copies 30
  play: ping
'''


def _pack(tmp_path: Path) -> Path:
    pack = tmp_path / "loops"
    pack.mkdir()
    (pack / "cards.cards").write_text(RECURSION, encoding="utf-8")
    (pack / "cardscript.toml").write_text('name = "loops"\nversion = "1.0.0"\ngame = "injustice"\n', encoding="utf-8")
    return pack


def test_a_recursion_in_a_scenario_is_placed_at_the_effect_that_recurses(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    scenario = pack / "t.scenario"
    scenario.write_text('scenario "loop"\nuses "./cards.cards"\nuses "injustice"\nplayers 2\ndo:\n  ping\n',
                        encoding="utf-8")
    res = run_scenario(str(scenario))
    (d,) = [d for d in res.diagnostics if d.severity == "error"]
    assert d.code == "CS401" and d.span is not None
    assert (Path(d.span.file).name, d.span.line, d.span.column) == ("cards.cards", 5, 3)  # not the scenario's 'do:'
    assert d.hint is not None and d.hint.startswith("it was running effect 'ping' -> effect 'ping'")
    # the fix of a recursion, not of a trigger chain (a new user's report: "make the trigger
    # conditional" where there was no trigger and the call was conditional already)
    assert "needs a condition that turns false as it goes" in d.hint and "trigger conditional" not in d.hint


def test_play_and_simulate_print_the_line_with_a_caret(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    play = CliRunner().invoke(main, ["play", "injustice", "--with", str(pack), "--seed", "1", "-q"])
    assert play.exit_code == 1, play.output
    assert "cards.cards:5:3: error[CS401]: effects run inside each other more than 300 levels deep" in play.output
    assert " 5 |   if count all cards in your hand >= 0: ping\n   |   ^^^^" in play.output
    assert "Traceback" not in play.output
    sim = CliRunner().invoke(main, ["simulate", "injustice", "--with", str(pack), "--games", "2", "--keep-going",
                                    "--json"])
    assert sim.exit_code == 1, sim.output
    summary = json.loads(sim.output[sim.output.index("{"):sim.output.rindex("}") + 1])
    assert [f["at"].rsplit("/", 1)[-1] for f in summary["failed"]] == ["cards.cards:5:3"] * 2


def test_the_position_is_the_innermost_outside_the_built_in_games(tmp_path: Path) -> None:
    builtin = tmp_path / "builtin"
    (builtin / "game").mkdir(parents=True)
    inner, mine, outer = f"{builtin}/game/game.rules:200:3", f"{tmp_path}/my.cards:5:16", f"{tmp_path}/my.cards:9:1"
    assert runaway_at([inner, mine, outer], str(builtin)) == mine
    assert runaway_at([inner], str(builtin)) == inner  # only built-in lines: the innermost of them
    assert runaway_at([], str(builtin)) is None
    # a folder whose name starts like the built-in one's is not inside it
    assert runaway_at([f"{builtin}-mine/x.cards:1:1"], str(builtin)) == f"{builtin}-mine/x.cards:1:1"


def test_a_position_is_read_as_file_line_column() -> None:
    sp = span_at("C:/games/my pack/x.cards:12:7")
    assert sp is not None and (sp.file, sp.line, sp.column) == ("C:/games/my pack/x.cards", 12, 7)
    assert span_at("x.cards:12") is None and span_at(None) is None and span_at("") is None

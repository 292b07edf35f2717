"""Fresh-user review, polish round: diagnostics that were missing, hidden or misleading,
and CLI details. Each test names what the review found."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from snippets import compile_errors, compile_snippet

from cardscript.dsl.cli import main


def _codes(diags: list) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.column) for d in diags]


# ---------------------------------------------------------------- 1. CS214
def test_an_effect_that_always_calls_itself_is_an_error(tmp_path: Path) -> None:
    # 'effect foo: foo' passed check; only the runtime's call-depth bound (CS401) stopped it
    errs = compile_errors(tmp_path, '\neffect foo:\n  draw a card\n  foo\ncard "Jab": hero\n  play: foo\n')
    assert _codes(errs) == [("CS214", 4, 3)]
    assert errs[0].message == "effect 'foo' calls itself on every path: it can never finish"
    assert "under a condition ('if ...:'), a choice or 'you may'" in errs[0].hint


def test_effects_that_always_call_each_other_are_one_error(tmp_path: Path) -> None:
    errs = compile_errors(tmp_path, '\neffect a:\n  repeat 2: b\neffect b:\n  between turns: a\n')
    assert _codes(errs) == [("CS214", 3, 13)]
    assert errs[0].message == "effect 'a' calls itself on every path (a -> b -> a): it can never finish"


def test_recursion_that_may_stop_is_allowed(tmp_path: Path) -> None:
    text = ('\neffect dig:\n  if count all cards in your hand < 3:\n    draw a card\n    dig\n'
            'effect maybe:\n  you may maybe\n'
            'effect pick:\n  choose a card from your hand:\n    pick\n'
            'effect sweep:\n  for each card in your hand:\n    sweep\n'
            'effect none:\n  repeat 0: none\n'
            'effect over:\n  end game "done"\n  over\n'
            'card "Jab": hero\n  play: dig; maybe; pick; sweep; none; over\n')
    assert compile_snippet(tmp_path, text) is not None


def test_check_reports_cs214_with_place_and_caret(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "x.cards").write_text('expansion "Loops"\nuses "injustice"\n\neffect foo:\n  foo\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(pack)])
    assert res.exit_code == 1, res.output
    assert f"{pack / 'x.cards'}:5:3: error[CS214]: effect 'foo' calls itself on every path" in res.output
    assert " 5 |   foo\n   |   ^^^\n" in res.output


# ---------------------------------------------------------------- 2. a card defined twice
def test_a_card_defined_twice_keeps_the_errors_of_both_definitions(tmp_path: Path) -> None:
    # only CS203 and the second definition's errors were reported: the first's were hidden
    errs = compile_errors(tmp_path, '\ncard "Jab": hero, cost 1\n  play: +1 powr\ncard "Jab": hero, price 2\n'
                                    '  play: +1 pwer\n')
    assert _codes(errs) == [("CS201", 3, 9), ("CS203", 4, 1), ("CS205", 4, 19), ("CS201", 5, 9)]
    assert [d.message for d in errs][::3] == ["unknown counter 'powr'", "unknown counter 'pwer'"]
    assert errs[1].hint.endswith("snippet.cards:2")


# ---------------------------------------------------------------- 3. a negative count
def test_a_negative_count_says_counts_cannot_be_negative(tmp_path: Path) -> None:
    # 'draw -3 cards' was "unexpected '-'" with the hint "did you forget ':' before the statements?"
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "x.cards").write_text('expansion "N"\nuses "injustice"\n\ncard "Jab": hero, cost 1\n  play:\n'
                                  '    draw -3 cards\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(pack)])
    assert res.exit_code == 1, res.output
    assert f"{pack / 'x.cards'}:6:10: error[CS209]: a count cannot be negative: '-3'\n" in res.output
    assert " 6 |     draw -3 cards\n   |          ^^\n" in res.output
    assert ("hint: write a number from 0 up ('draw 3'); to take something away, use an effect that does "
            "(discard, or '-3 COUNTER' for a counter)") in res.output
    assert "forget ':'" not in res.output


def test_negative_copies_say_so_with_the_word_before(tmp_path: Path) -> None:
    errs = compile_errors(tmp_path, '\ncard "Jab": hero, cost 1, copies -2\n  play: draw 1\n')
    assert _codes(errs) == [("CS209", 2, 34)]
    assert "('copies 2')" in errs[0].hint


# ---------------------------------------------------------------- 4. an inline otherwise
def test_an_otherwise_on_the_line_of_its_if_is_cs208(tmp_path: Path) -> None:
    # it was CS202 "no effect matches 'draw a card otherwise'"; docs/language.md says CS208
    errs = compile_errors(tmp_path, '\ncard "Jab": hero, cost 1\n  play:\n'
                                    '    if count all cards in your hand > 2: draw a card otherwise: +1 power\n')
    assert _codes(errs) == [("CS208", 4, 54)]
    assert errs[0].message == "'otherwise' must start a line of its own, right after its 'if'"
    assert "write 'otherwise: ...' on the next line, at the indent of the 'if'" in errs[0].hint
    errs = compile_errors(tmp_path, '\ncard "Jab": hero, cost 1\n'
                                    '  play: if count all cards in your hand > 2: draw a card; otherwise: +1 power\n')
    assert _codes(errs) == [("CS208", 3, 59)]


# ---------------------------------------------------------------- 5. two games in one folder
def _two_games(tmp_path: Path) -> Path:
    folder = tmp_path / "two"
    folder.mkdir()
    game = ('game "{}"\nplayers 2\nzone hand: per player, private\ncounter power: per player, 0\n'
            'types hero\nabilities play\ncard "Jab": hero\n  play: +1 power\nsetup:\n  nothing\n'
            'turn:\n  +1 power\n  end game "over"\n')
    (folder / "a.rules").write_text("# the first game\n" + game.format("First"), encoding="utf-8")
    (folder / "b.rules").write_text("\n" + game.format("Second"), encoding="utf-8")
    return folder


def test_two_game_headers_in_one_folder_are_one_diagnostic(tmp_path: Path) -> None:
    # the second game was checked as a script added to the first: a CS203 for each of its definitions
    folder = _two_games(tmp_path)
    for args in (["check", str(folder)], ["check", str(folder / "b.rules")],
                 ["play", str(folder), "--bots", "random,random"]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 1, (args, res.output)
        assert res.output.count("error[CS203]") == 1, (args, res.output)
        assert (f"{folder / 'b.rules'}:2:1: error[CS203]: a second game in folder {folder}: its game is already "
                f"'game \"First\"' at {folder / 'a.rules'}:2\n 2 | game \"Second\"\n   | ^^^^\n") in res.output
        assert "a folder holds one game: move this one to a folder of its own" in res.output


# ---------------------------------------------------------------- 7. polish
def test_a_decision_kind_with_a_vowel_reads_an(tmp_path: Path) -> None:
    # "P1 must answer a action decision", "answer yes given to a action decision"
    from snippets import HEAD, scenario

    res = scenario(tmp_path, HEAD + "next turn\n")
    assert "the step needs an answer: P1 must answer an action decision (action): [" in res.diagnostics[0].message
    res = scenario(tmp_path, HEAD + "answer yes\nnext turn\n")
    assert "an answer does not fit: answer yes given to an action decision: [" in res.diagnostics[0].message
    res = scenario(tmp_path, HEAD + "do:\n  you may draw a card\n")
    assert "P1 must answer a yes/no decision" in res.diagnostics[0].message
    # the runtime's own messages say so at the source
    from cardscript.runtime.decision import a_kind

    assert (a_kind("action"), a_kind("yes/no"), a_kind("trigger")) == \
        ("an action decision", "a yes/no decision", "a trigger decision")


def test_empty_bot_names_are_a_usage_error() -> None:
    # '--bots ,' played with the default bot on every seat (exit 0)
    for args in (["play", "injustice", "-q"], ["simulate", "injustice", "-n", "1"], ["ladder", "injustice", "-n", "1"]):
        for bots in (",", "greedy,,random", ""):
            res = CliRunner().invoke(main, [*args, "--bots", bots])
            assert res.exit_code == 2, (args, bots, res.output)
            assert "holds an empty bot name: give names separated by ','" in res.output


def test_simulate_json_wins_are_all_floats() -> None:
    # the winner's seat was 3.0 and a seat with no win 0
    import json

    res = CliRunner().invoke(main, ["simulate", "injustice", "-n", "2", "--bots", "greedy", "--json", "-j", "1"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    wins = [*out["wins_per_seat"].values(), *out["wins_per_bot"].values()]
    assert all(type(w) is float for w in wins), wins
    assert 0.0 in out["wins_per_seat"].values()

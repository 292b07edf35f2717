"""Diagnostics audit, polish round: a count and its noun as printed cards write them
("Draw a card.", "draw 1 card", "Draw 2 cards."), and the counts of 'repeat' (negative,
zero, huge). Each test names what the audit found."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from snippets import HEAD, compile_errors, compile_snippet, errors, run

from cardscript.dsl.cli import main


def _check(tmp_path: Path, body: str) -> tuple[int, str, Path]:
    """``cardscript check`` of an expansion on Injustice with one card playing ``body``."""
    pack = tmp_path / "pack"
    pack.mkdir(exist_ok=True)
    path = pack / "x.cards"
    path.write_text(f'expansion "N"\nuses "injustice"\n\ncard "Jab": hero, cost 1\n  play:\n    {body}\n',
                    encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(pack)])
    return res.exit_code, res.output, path


def _json(tmp_path: Path, body: str) -> list[tuple[str, str, int, int, str, str]]:
    pack = tmp_path / "pack"
    pack.mkdir(exist_ok=True)
    (pack / "x.cards").write_text(f'expansion "N"\nuses "injustice"\n\ncard "Jab": hero, cost 1\n  play:\n    {body}\n',
                                  encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(pack), "--format", "json"])
    return [(d["severity"], d["code"], d["span"]["line"], d["span"]["column"], d["message"], d["hint"])
            for d in json.loads(res.output)]


# ---------------------------------------------------------------- 1. '1 card' and 'a card'
def test_draw_1_card_is_accepted_as_printed(tmp_path: Path) -> None:
    # 'draw 1 card' was CS202 "no effect matches 'draw 1 card'" (hint: 'draw {N: number} cards')
    for body in ("draw 1 card", "draw a card", "draw 2 cards", "draw 1", "you may draw 1 card",
                 "discard 1 card", "deal 1 damage to target foe", "target foe gains 1 weakness"):
        code, out, _ = _check(tmp_path, body)
        assert code == 0, (body, out)
        assert "0 error(s), 0 warning(s)" in out, (body, out)


def test_draw_1_card_draws_one_card(tmp_path: Path) -> None:
    for call in ("draw 1 card", "draw a card", "they draw 1 card"):
        res = run(tmp_path, f"do:\n  {call}\nexpect count all cards in your hand == 6\n")
        assert errors(res) == [], (call, errors(res))
    res = run(tmp_path, 'answer "Defend"\ndo:\n  discard 1 card\nexpect count all cards in your hand == 4\n')
    assert errors(res) == []


def test_singular_matches_a_plural_pattern_with_n_1_in_any_effect(tmp_path: Path) -> None:
    # general, not a one-off for draw: 'a X' / '1 X' call a pattern '{N: number} Xs' (and 'Xes', 'Xies')
    text = ('\neffect scout {N: number} cards:\n  draw N\n'
            'effect hold {N: number} other cards:\n  draw N\n'
            'effect bury {N: number} enemies:\n  draw N\n'
            'card "Jab": hero, cost 1\n  play: scout 1 card; scout a card; hold 1 other card; bury an enemy\n'
            '  defense: bury 1 enemy; hold a other card\n')
    assert compile_snippet(tmp_path, text) is not None
    errs = compile_errors(tmp_path, text.replace("bury 1 enemy", "bury 1 enemies; scout 3 card"))
    assert [(e.code, e.hint.split("?")[0]) for e in errs] == [("CS202", "did you mean 'scout 3 cards'")]


def test_a_count_with_the_wrong_noun_names_the_right_form(tmp_path: Path) -> None:
    code, out, path = _check(tmp_path, "draw 2 card")
    assert code == 1, out
    assert f"{path}:6:5: error[CS202]: no effect matches 'draw 2 card'\n" in out
    assert " 6 |     draw 2 card\n   |     ^^^^^^^^^^^\n" in out
    assert ("hint: did you mean 'draw 2 cards'? 1 takes the singular ('a card', '1 card'), any other count the "
            "plural ('2 cards')") in out
    hints = {body: _json(tmp_path, body)[0][5] for body in ("draw a cards", "discard 1 cards", "they draw 2 card")}
    assert hints["draw a cards"].startswith("did you mean 'draw a card'?")
    assert hints["discard 1 cards"].startswith("did you mean 'discard 1 card'?")
    assert hints["they draw 2 card"].startswith("did you mean 'draw 2 cards'?")


def test_a_number_in_words_says_to_write_digits(tmp_path: Path) -> None:
    # 'draw two cards' was CS204 "argument N ... must be number" with the hint "pass a number, ..."
    got = _json(tmp_path, "draw two cards")
    assert got == [("error", "CS202", 6, 5, "no effect matches 'draw two cards'",
                    "write numbers in digits: 'draw 2 cards'")]
    assert _json(tmp_path, "draw one card")[0][5] == "write numbers in digits: 'draw 1 card'"


def test_a_for_a_number_says_to_write_the_number(tmp_path: Path) -> None:
    got = _json(tmp_path, "deal a damage to target foe")
    assert [g[:4] for g in got] == [("error", "CS204", 6, 5)]
    assert got[0][5] == "write the number: 'deal 1 damage to target foe'"


def test_calls_that_matched_before_still_match_the_same_effect(tmp_path: Path) -> None:
    # 'draw 1 cards' was accepted before; agreement is only tried when nothing matches as written
    code, out, _ = _check(tmp_path, "draw 1 cards")
    assert code == 0, out


# ---------------------------------------------------------------- 2. repeat counts
def test_a_negative_repeat_is_cs209(tmp_path: Path) -> None:
    # 'repeat -2:' passed check silently (and ran its block no times)
    code, out, path = _check(tmp_path, "repeat -2: draw a card")
    assert code == 1, out
    assert f"{path}:6:12: error[CS209]: a count cannot be negative: 'repeat -2'\n" in out
    assert " 6 |     repeat -2: draw a card\n   |            ^^\n" in out
    assert ("hint: write how many times, from 0 up ('repeat 2'); to take something away, use an effect that does "
            "(discard, or '-2 COUNTER' for a counter)") in out
    assert [g[:5] for g in _json(tmp_path, "repeat (0 - 2): draw a card")] == \
        [("error", "CS209", 6, 13, "a count cannot be negative: 'repeat -2'")]


def test_a_computed_repeat_below_zero_is_fine(tmp_path: Path) -> None:
    # 'repeat (5 - count ...)' may fall below 0 as the game goes: it then runs no times
    code, out, _ = _check(tmp_path, "repeat (5 - count all cards in your hand): +1 power")
    assert code == 0, out


def test_repeat_0_is_a_warning(tmp_path: Path) -> None:
    got = _json(tmp_path, "repeat 0: draw a card")
    assert got == [("warning", "CS508", 6, 12, "'repeat 0' never runs its block",
                    "write how many times it repeats (1 or more), or remove the loop")]
    code, out, _ = _check(tmp_path, "repeat 0: draw a card")
    assert code == 0, out  # a warning only


def test_a_huge_repeat_is_bounded_before_the_game_runs(tmp_path: Path) -> None:
    code, out, path = _check(tmp_path, "repeat 1000000000: draw a card")
    assert code == 1, out
    assert f"{path}:6:12: error[CS209]: repeat 1,000,000,000: a loop repeats at most 1,000 times\n" in out
    assert [g[1] for g in _json(tmp_path, "repeat 1000: repeat 1000: +1 power")] == ["CS211"]


def test_a_call_that_would_loop_too_often_is_cs209(tmp_path: Path) -> None:
    # 'draw 5000' passed check, then stopped the game with CS401 ('repeat 5000 times is more than the bound')
    code, out, path = _check(tmp_path, "draw 5000")
    assert code == 1, out
    assert (f"{path}:6:5: error[CS209]: 'draw 5000' runs a loop 5,000 times: a loop repeats at most 1,000 "
            "times\n") in out
    assert "hint: pass a smaller number: the game would stop at this call (CS401)" in out
    assert [g[1:4] for g in _json(tmp_path, "repeat 2: draw 5000")] == [("CS209", 6, 15)]
    code, out, _ = _check(tmp_path, "draw 1000")
    assert code == 0, out


def test_a_computed_huge_repeat_stops_at_run_time_with_a_diagnostic(tmp_path: Path) -> None:
    res = run(tmp_path, "do:\n  repeat (count all cards in the main-deck * 100): +1 power\n")
    assert [(c, line) for c, line, _ in errors(res)] == [("CS401", 6)]  # the repeat's line, not the 'do:'
    assert "is more than the bound 1000" in errors(res)[0][2]
    assert HEAD  # the scenario is on Injustice for 2 players

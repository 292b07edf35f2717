"""Issue 12, area "zones": replacement effects of cards in play, zone-entry events and
where a card came from, the 'you gained this turn' place and 'with a different name
from' filter, and integer division, remainder and computed 'up to' counts.

Scenarios carry the game behaviour (tests/scenarios/language/, examples/language-tour/);
these tests pin the parts a scenario cannot see: the parse, the diagnostics, the render
and the lint's reading of the new syntax."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import render
from cardscript.dsl.front.pipeline import check_paths
from cardscript.dsl.tools.fmt import format_text
from cardscript.runtime.effects.expressions import Arith, Const

HEADER = 'expansion "Zones"\nuses "injustice"\n'


def _check(tmp_path: Path, text: str) -> list:
    path = tmp_path / "zones.cards"
    path.write_text(HEADER + text, encoding="utf-8")
    return check_paths([str(path)]).diagnostics


def _errors(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    return [(d.code, d.span.line) for d in _check(tmp_path, text) if d.severity == "error"]


def _render(tmp_path: Path, text: str) -> str:
    path = tmp_path / "zones.cards"
    path.write_text(HEADER + text, encoding="utf-8")
    res = CliRunner().invoke(main, ["render", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    return " ".join(res.output.split()).lower()  # the JSON text keeps the script's case


# ---------------------------------------------------------------- arithmetic
@pytest.mark.parametrize(("op", "a", "b", "value"), [
    ("/", 7, 2, 3), ("/", -7, 2, -4), ("/", 7, -2, -4), ("/", 7, 0, 0), ("/", 0, 0, 0),
    ("mod", 7, 2, 1), ("mod", -7, 2, 1), ("mod", 7, -2, -1), ("mod", 7, 0, 7), ("mod", -3, 0, -3),
])
def test_division_rounds_down_and_by_zero_is_defined(op: str, a: int, b: int, value: int) -> None:
    """/ rounds toward minus infinity; E / 0 is 0 and E mod 0 is E (never an error)."""
    arith = Arith(op, Const(a), Const(b))
    assert arith.evaluate(None, None) == value  # type: ignore[arg-type]
    quotient = Arith("/", Const(a), Const(b)).evaluate(None, None)  # type: ignore[arg-type]
    remainder = Arith("mod", Const(a), Const(b)).evaluate(None, None)  # type: ignore[arg-type]
    assert quotient * b + remainder == a


def test_division_binds_like_a_product_and_checks_clean(tmp_path: Path) -> None:
    text = ('card "Halver": hero, cost 2\n'
            '  play:\n'
            '    +(2 + count all cards in your hand / 2 * 2) power\n'
            '    if count all cards in your hand mod 2 == 1: draw a card\n'
            '    put up to (your meter / 2) cards from your discard into your hand\n')
    assert _errors(tmp_path, text) == []
    assert format_text(HEADER + text) == HEADER + text


def test_a_text_divided_is_cs204_on_its_line(tmp_path: Path) -> None:
    text = 'card "Bad": hero\n  play: +(name of this card / 2) power\n'
    assert ("CS204", 4) in _errors(tmp_path, text)


def test_mod_and_up_to_render_as_printed(tmp_path: Path) -> None:
    text = ('card "Halver": hero, cost 2\n'
            '  play:\n'
            '    +(count all cards in your hand / 2) power\n'
            '    if count all cards in your hand mod 2 == 0: draw a card\n'
            '    if count all cards in your hand mod 2 != 0: draw a card\n'
            '    put up to (your meter / 3) cards from your discard into your hand\n')
    out = _render(tmp_path, text)
    assert "where x is half the number of cards in your hand, rounded down" in out
    assert "if the number of cards in your hand is even, draw a card" in out
    assert "if the number of cards in your hand is odd, draw a card" in out
    assert "put up to x cards from your discard pile into your hand, where x is your meter divided by 3, rounded down." in out


def test_the_lint_knows_a_remainder_is_below_its_divisor(tmp_path: Path) -> None:
    """CS502: 'E mod 2 == 2' can never hold (the lint reads mod by a constant as 0..d-1),
    and the Meter (0..8) halved never reaches 5; 'mod 2 == 1' and '/ 2 == 4' can."""
    never = ('card "Never": hero, cost 2\n  play:\n    if your meter mod 2 == 2: draw a card\n'
             '    if your meter / 2 >= 5: draw a card\n')
    codes = [(d.code, d.span.line) for d in _check(tmp_path, never)]
    assert ("CS502", 5) in codes and ("CS502", 6) in codes, [render(d, {}) for d in _check(tmp_path, never)]
    can = ('card "Can": hero, cost 2\n  play:\n    if your meter mod 2 == 1: draw a card\n'
           '    if your meter / 2 == 4: draw a card\n')
    assert [d.code for d in _check(tmp_path, can)] == []


# ---------------------------------------------------------------- replacements
def test_a_replacement_of_an_unknown_effect_is_cs230_with_the_closest(tmp_path: Path) -> None:
    diags = _check(tmp_path, 'card "Hoarder": hero\n  instead of gian {C: cards}: move C to your deck\n')
    bad = [d for d in diags if d.code == "CS230"]
    assert [(d.span.line, d.span.column) for d in bad] == [(4, 3)]
    assert "gain {C: cards}" in bad[0].hint


def test_a_replacement_of_a_builtin_is_cs230(tmp_path: Path) -> None:
    diags = _check(tmp_path, 'card "Hoarder": hero\n  instead of move {C: cards} to {Z: zone}: nothing\n')
    assert [(d.code, d.span.line) for d in diags if d.severity == "error"] == [("CS230", 4)]
    assert "built-in" in diags[0].message


def test_a_replacement_body_sees_only_its_own_parameter_names(tmp_path: Path) -> None:
    """The pattern's names bind the arguments: the effect's own name (C in dc-core) is not
    bound when the replacement calls it X (the call gets no cards: CS204, as in an effect)."""
    assert _errors(tmp_path, 'card "Hoarder": hero\n  instead of gain {X: cards}: move C to your deck\n') \
        == [("CS204", 4)]
    assert _errors(tmp_path, 'card "Hoarder": hero\n  instead of gain {X: cards}: move X to your deck\n') == []


def test_a_replacement_renders_and_formats(tmp_path: Path) -> None:
    text = ('card "Jammer": hero, cost 2\n'
            "  instead of a foe's draw {N: number}, first time each turn: move the top card of their deck to their "
            'discard\n'
            'card "Stash": hero, cost 2\n'
            '  instead of gain {C: cards}: move C to your deck\n')
    assert format_text(HEADER + text) == HEADER + text
    out = _render(tmp_path, text)
    assert "the first time each turn a foe would draw a card, instead move the top card of their deck" in out
    assert "if you would gain a card, instead move it to your deck" in out


def test_a_replacement_is_in_the_ir(tmp_path: Path) -> None:
    path = tmp_path / "zones.cards"
    path.write_text(HEADER + 'card "Stash": hero, cost 2\n  instead of gain {C: cards}: move C to your deck\n',
                    encoding="utf-8")
    res = CliRunner().invoke(main, ["compile", str(path)])
    assert res.exit_code == 0, res.output
    assert '"replacements"' in res.output and '"effect": "gain {C: cards}"' in res.output


# ---------------------------------------------------------------- where cards came from
def test_came_from_gained_and_other_name_render_and_format(tmp_path: Path) -> None:
    text = ('card "Scout": hero, cost 3\n'
            '  when "gain": if it came from the main-deck: +1 power\n'
            '  play: draw (count all cards you gained this turn with a different name from this card)\n')
    assert _errors(tmp_path, text) == []
    assert format_text(HEADER + text) == HEADER + text
    out = _render(tmp_path, text)
    assert "if it came from the main deck, +1 power" in out
    assert "card you gained this turn with a different name from this card" in out


def test_you_gained_this_turn_is_a_place_not_words(tmp_path: Path) -> None:
    """A call's card argument with the place 'you gained this turn' is a selector (passed
    to {C: cards}), never flattened into the words of a pattern."""
    assert _errors(tmp_path, 'card "Scout": hero, cost 3\n  play: destroy all cards you gained this turn\n') == []

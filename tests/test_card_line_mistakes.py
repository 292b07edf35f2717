"""Mistakes on a card's line that used to pass without a word (from a fresh-user review):
an attribute given twice (the last value won) and an empty card name."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardscript.dsl.diagnostics import CompileError
from cardscript.dsl.front.pipeline import compile_game


def _diags(tmp_path: Path, cards: str) -> list[tuple[str, int, int, str]]:
    (tmp_path / "x.cards").write_text(f'expansion "X"\nuses "injustice"\n{cards}', encoding="utf-8")
    with pytest.raises(CompileError) as info:
        compile_game("injustice", [tmp_path / "x.cards"])
    return [(d.code, d.span.line, d.span.column, d.message) for d in info.value.diagnostics if d.span]


def test_an_attribute_given_twice_is_an_error_at_its_second_place(tmp_path: Path) -> None:
    assert _diags(tmp_path, 'card "A": hero, cost 1, vp 1, cost 2\n') == [
        ("CS203", 3, 31, "card 'A' gives 'cost' twice")]


def test_an_empty_card_name_is_an_error(tmp_path: Path) -> None:
    (code, line, col, message), = _diags(tmp_path, 'card "  ": hero, cost 1\n')
    assert (code, line, col) == ("CS209", 3, 1) and "name is empty" in message


def test_one_of_each_attribute_still_compiles(tmp_path: Path) -> None:
    (tmp_path / "x.cards").write_text('expansion "X"\nuses "injustice"\ncard "A": hero, cost 1, vp 1\n',
                                      encoding="utf-8")
    d, _w, _p = compile_game("injustice", [tmp_path / "x.cards"])
    assert any(ct.name == "A" for ct in d.cards)


@pytest.mark.parametrize("text", ["", 'card "A": thing\n'])
def test_a_script_without_a_game_header_played_as_a_game_names_its_file(tmp_path: Path, text: str) -> None:
    from click.testing import CliRunner

    from cardscript.dsl.cli.main import main

    path = tmp_path / "empty.cards"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(main, ["play", str(path), "-q"])
    assert run.exit_code == 1
    assert f"{path}:1:1: error[CS207]: {path} has no 'game' header" in run.output and "Traceback" not in run.output
    run = CliRunner().invoke(main, ["render", str(tmp_path / "empty.cards")])
    assert run.exit_code == (1 if not text else 0), run.output  # nothing to render is an error


@pytest.mark.parametrize("play,says", [
    ("+1 power for each villain in your discard", "is '+(count all TYPE in your ZONE) power'"),
    ("+2 power for each hero in your hand", "'+N COUNTER for each foe' changes each foe's counter"),
    ("destroy a card from your hand or your discard", "several zones are joined with 'and'"),
    ("destroy a card in your hand or discard", "several zones are joined with 'and'"),
])
def test_a_printed_wording_written_as_printed_gets_the_languages_form(tmp_path: Path, play: str, says: str) -> None:
    """What a new user writes first for "+1 Power for each Villain in your discard pile" and
    "in your hand or discard pile" was a CS101 with no hint or a misleading one ("did you
    forget ':'?"; found by a fan expansion's trial). The hint names the form to write."""
    path = tmp_path / "fan.cards"
    path.write_text(f'expansion "Fan"\nuses "injustice"\ncard "A": hero, cost 2\n  play: {play}\n', encoding="utf-8")
    with pytest.raises(CompileError) as err:
        compile_game("injustice", [path])
    (d,) = err.value.diagnostics
    assert d.code == "CS101" and says in d.hint, d.hint

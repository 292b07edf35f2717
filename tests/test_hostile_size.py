"""A downloaded package cannot keep the parser busy (docs/cli.md, "Limits"): parentheses
nested past the limit are refused by a scan of the text before the parser builds a tree,
and the scripts one game reads together are bounded in bytes and in files, so that many
large files are refused at the first one past the budget, before it is parsed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import CompileError
from cardscript.dsl.front import build as B
from cardscript.dsl.front import loader as L
from cardscript.dsl.front.build import build

CARD = 'card "{name}": hero, cost 1, vp 1\n  play: +1 power\n'


def test_parentheses_past_the_limit_are_refused_before_the_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parse(*_: object) -> None:
        raise AssertionError("the parser ran on a file the text scan refuses")

    monkeypatch.setattr(B, "parse", no_parse)
    text = 'expansion "X"\nuses "injustice"\ncard "A": hero\n  play: +' + "(" * 50_000 + "1" + ")" * 50_000 + " power\n"
    with pytest.raises(CompileError) as info:
        build(text, "deep.cards")
    (d,) = info.value.diagnostics
    assert d.code == "CS104" and "parentheses nested more than" in d.message
    assert d.span is not None and (d.span.line, d.span.column) == (4, 42)  # the 33rd '('


def _package(tmp: Path, files: int, cards: int = 1) -> Path:
    (tmp / "sub").mkdir()
    for i in range(files):
        (tmp / "sub" / f"f{i:03}.cards").write_text("".join(CARD.format(name=f"F{i} {j}") for j in range(cards)))
    main_script = tmp / "main.cards"
    main_script.write_text('expansion "Many"\nuses "injustice"\nuses "sub/"\n')
    return main_script


def test_the_files_of_one_game_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(L, "MAX_PROGRAM_FILES", 12)  # the built-in Injustice reads 4
    built: list[str] = []
    real = L.build_cached
    monkeypatch.setattr(L, "build_cached", lambda text, name: built.append(name) or real(text, name))
    res = CliRunner().invoke(main, ["check", str(_package(tmp_path, 20))])
    assert res.exit_code == 1, res.output
    assert "error[CS001]" in res.output and "over 2 MiB or 12 files together" in res.output
    assert res.output.count("error[CS001]") == 1  # said once, not for every file past the budget
    assert ":3:1:" in res.output  # at the 'uses' that reads past it
    assert len(built) == 12  # nothing past the budget was parsed


def test_the_bytes_of_one_game_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(L, "MAX_PROGRAM_BYTES", 60_000)  # the built-in Injustice reads about 30 000
    main_script = _package(tmp_path, 8, cards=100)  # about 5 000 characters a file
    with pytest.raises(CompileError) as info:
        L.load_program(main_script)
    assert [d.code for d in info.value.diagnostics] == ["CS001"]
    monkeypatch.setattr(L, "MAX_PROGRAM_BYTES", 80_000)
    assert len(L.load_program(main_script).sources) == 1 + 8 + 4  # with the 4 scripts of Injustice


@pytest.mark.parametrize("game", ["injustice", "justice-league-dark", "hero-dice-batman"])
def test_the_built_in_games_are_far_inside_the_budget(game: str) -> None:
    program = L.load_program(L.resolve_game(game))
    assert sum(map(len, program.sources.values())) * 10 < L.MAX_PROGRAM_BYTES
    assert len(program.sources) * 10 < L.MAX_PROGRAM_FILES

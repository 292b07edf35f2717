"""Diagnostics that said too little or too much (from a fresh-user review): a bad indent
names its line and column and the indents that would do; a byte that is not UTF-8 its
line and column; a very long line shows a window around the caret, not the whole line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import EXCERPT_WIDTH, CompileError, Diagnostic, Span, render
from cardscript.dsl.files import FileProblem, read_text
from cardscript.dsl.front.parse import parse


def test_a_bad_dedent_points_at_its_line_and_indent() -> None:
    with pytest.raises(CompileError) as info:
        parse('card "A": hero\n  play:\n    draw 1\n   draw 2\n', "x.cards")
    (d,) = info.value.diagnostics
    assert d.code == "CS103" and d.span is not None and (d.span.line, d.span.column) == (4, 4)
    assert "indented by 3" in d.message and "0, 2, 4" in d.message
    assert d.hint is not None and "2 or 4" in d.hint


def test_a_byte_that_is_not_utf8_is_given_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "n.cards"
    path.write_bytes(b'expansion "X"\nuses "injustice"\ncard "\xc3\xa9\xff": hero\n')
    with pytest.raises(FileProblem) as info:
        read_text(path)
    assert "byte 40 (line 3, column 8)" in info.value.message  # 'é' is one character, two bytes


@pytest.mark.parametrize("command", [["check"], ["fmt"], ["fmt", "--check"]])
def test_check_and_fmt_point_at_the_byte_that_is_not_utf8(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "n.cards"
    data = b'expansion "X"\nuses "injustice"\ncard "\xc3\xa9\xff": hero\n'
    path.write_bytes(data)
    res = CliRunner().invoke(main, [*command, str(path)])
    assert res.exit_code == 1, res.output
    lines = res.output.splitlines()
    head = next(i for i, ln in enumerate(lines) if "error[CS001]" in ln)
    assert lines[head].startswith(f"{path}:3:8: error[CS001]")
    assert lines[head + 1].endswith('card "\u00e9\ufffd": hero')  # the line, the bad byte replaced
    assert lines[head + 2].index("^") == lines[head + 1].index("\ufffd")  # the caret under it
    assert path.read_bytes() == data  # fmt left the file alone


@pytest.mark.parametrize("column", [1, 40, 5000, 9990])
def test_a_long_line_shows_a_window_around_the_caret(column: int) -> None:
    line = "".join(chr(ord("a") + i % 26) for i in range(10_000))
    out = render(Diagnostic("error", "CS104", "too deep", Span("x.cards", 1, column, 1, column + 1)),
                 {"x.cards": line})
    shown, carets = out.splitlines()[1:3]
    assert len(shown) <= EXCERPT_WIDTH + 10
    caret_at = carets.index("^") - carets.index("|") - 2  # the column under the caret, in the shown text
    text = shown[shown.index("|") + 2:]
    assert text[caret_at] == line[column - 1]  # the caret stands under the character it marks
    assert text.startswith("…") == (column > EXCERPT_WIDTH // 3 + 1)


def _uses(tmp_path: Path, target: str) -> Path:
    (tmp_path / "cardscript.toml").write_text('name = "pk"\ngame = "injustice"\nversion = "1.0.0"\n')
    main_script = tmp_path / "main.cards"
    main_script.write_text(f'expansion "P"\nuses "injustice"\nuses "{target}"\n')
    return main_script


def test_a_link_leading_outside_is_shown_at_the_string_of_its_uses(tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-outside.cards"
    outside.write_text('card "Z": hero, cost 1, vp 1\n  play: +1 power\n')
    (tmp_path / "link.cards").symlink_to(outside)
    res = CliRunner().invoke(main, ["compile", str(_uses(tmp_path, "link.cards")), "-o", str(tmp_path / "x.json")])
    assert res.exit_code == 1, res.output
    lines = res.output.splitlines()
    assert ":3:6: error[CS003]" in lines[0]
    assert lines[2].strip() == "|" + " " * 6 + "^" * len('"link.cards"')  # under the string, not the whole line
    assert "card \"Z\"" not in res.output  # nothing of the file outside is shown
    assert not (tmp_path / "x.json").exists()


def test_uses_of_an_empty_folder_is_an_error_at_its_string(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "notes.txt").write_text("not a script")
    res = CliRunner().invoke(main, ["check", str(_uses(tmp_path, "sub/"))])
    assert res.exit_code == 1, res.output
    assert ":3:6: error[CS001]: no scripts in 'sub/'" in res.output


def test_expected_words_are_what_a_user_types_never_lark_names() -> None:
    from cardscript.dsl.front.parse import _expected, get_parser, grammar_text

    grammar = grammar_text()
    for t in get_parser().terminals:
        for shown in _expected({t.name}):
            assert "__" not in shown and "ANON" not in shown and shown != f"'{t.name.lower()}'" or \
                f'"{t.name.lower()}"' in grammar, (t.name, shown)
            if shown.startswith("'") and " or " not in shown:
                assert f'"{shown[1:-1]}"' in grammar, (t.name, shown)  # a literal of the grammar
    with pytest.raises(CompileError) as info:
        parse('card "A": hero\n  play: +(1 *) power\n', "x.cards")
    assert "'-'" in info.value.diagnostics[0].expected  # was 'minus', Lark's name for it

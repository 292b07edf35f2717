"""Indentation with tabs (a user's bug reports, tests/fixtures/indent/): a tab counts as 8
columns wherever it stands (docs/language.md, "Tokens"), in the parser and in every
CS103 message alike; each bad indent gives one diagnostic at its own line, with the
open blocks' indents in columns and a fix, never Lark's words or a span before line 1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import CompileError, Diagnostic, render
from cardscript.dsl.front.build import build
from cardscript.dsl.front.indent import indent_width
from cardscript.dsl.front.parse import parse

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "indent"
SPACES_ONLY = "indent with spaces only"


def _diagnostic(name: str) -> Diagnostic:
    path = FIXTURES / name
    with pytest.raises(CompileError) as info:
        build(path.read_text(encoding="utf-8"), name)
    (d,) = info.value.diagnostics
    return d


# name, line, column, words of the message, words of the hint (the whole rendered message
# is asserted for the two first reports below)
PROBES = [
    ("e06-indent.cards", 5, 1, ["missing indentation", "not part of the card of line 4"], ["indent the abilities"]),
    ("e07-indent2.cards", 7, 4, ["indented by 3 columns", "indented by 0, 2, 4 columns"], ["2 or 4 columns"]),
    ("e18-tab.cards", 6, 3, ["indented by 2 columns", "indented by 0, 8 columns"],
     [SPACES_ONLY, "line 5 has one", "0 or 8 columns"]),
    ("f01-dedent.cards", 6, 3, ["indented by 2 columns", "indented by 0, 4 columns"], ["0 or 4 columns"]),
    ("f04-mixed.cards", 7, 4, ["indented by 10 columns (2 spaces and 1 tab of 8 columns)", "line above by 4 columns"],
     [SPACES_ONLY, "this line has one", "indent it by 4 columns"]),
    ("f05-dedent2.cards", 9, 5, ["indented by 4 columns", "indented by 0, 6 columns"], ["0 or 6 columns"]),
    ("f06.cards", 6, 5, ["indented by 4 columns", "indented by 0, 8 columns"], [SPACES_ONLY, "line 5 has one"]),
    ("f07.cards", 6, 5, ["indented by 4 columns", "indented by 0, 8 columns"], ["0 or 8 columns"]),
    ("f08.cards", 7, 5, ["indented by 4 columns", "indented by 0, 2, 8 columns"],
     [SPACES_ONLY, "line 6 has one", "2 or 8 columns"]),
]


@pytest.mark.parametrize(("name", "line", "column", "words", "hint_words"), PROBES)
def test_each_bad_indent_is_one_diagnostic_at_its_line(name, line, column, words, hint_words) -> None:
    d = _diagnostic(name)
    assert d.code == "CS103" and d.span is not None
    assert (d.span.line, d.span.column, d.span.end_line) == (line, column, line)
    assert d.span.end_column > d.span.column
    for word in words:
        assert word in d.message
    for word in hint_words:
        assert word in d.hint
    if SPACES_ONLY not in hint_words:
        assert "tab" not in d.hint  # no tab in the file: no word about tabs
    assert "Expected dedent" not in d.message and "Unexpected" not in d.message


def test_a_tab_then_a_shallower_space_indent_is_reported_whole() -> None:
    """The first report: it was 'e18-tab.cards:1:1: ... Unexpected dedent to column 2.
    Expected dedent to 0', with a span ending at line 0."""
    d = _diagnostic("e18-tab.cards")
    text = (FIXTURES / "e18-tab.cards").read_text(encoding="utf-8")
    assert render(d, {"e18-tab.cards": text}).splitlines()[:4] == [
        "e18-tab.cards:6:3: error[CS103]: bad indentation: this line is indented by 2 columns, which ends no "
        "open block (the open blocks are indented by 0, 8 columns)",
        " 6 |   defense: draw a card",
        "   |   ^",
        "  hint: indent with spaces only: a tab counts as 8 columns wherever it stands, and the indent of line 5 "
        "has one; or indent it by 0 or 8 columns, as the lines of the block it belongs to",
    ]


def test_the_tab_line_is_not_blamed_and_counts_8() -> None:
    """The second report: f08 blamed the tab line (6:2) and counted the tab as 1."""
    d = _diagnostic("f08.cards")
    assert d.span is not None and d.span.line == 7
    assert "1 space" not in d.message


@pytest.mark.parametrize("name", ["f02-tabsonly.cards", "f03-tabspace.cards"])
def test_a_tab_and_8_spaces_are_the_same_block(name: str) -> None:
    build((FIXTURES / name).read_text(encoding="utf-8"), name)  # no CompileError


@pytest.mark.parametrize("name", [p[0] for p in PROBES])
def test_the_json_span_is_valid(name: str) -> None:
    res = CliRunner().invoke(main, ["check", "--format", "json", str(FIXTURES / name)])
    assert res.exit_code == 1, res.output
    (d,) = json.loads(res.output)
    span = d["span"]
    assert span["file"].endswith(name) and span["line"] >= 1 and span["column"] >= 1
    assert (span["end_line"], span["end_column"]) > (span["line"], span["column"])


@pytest.mark.parametrize(("indent", "width"), [("", 0), ("  ", 2), ("\t", 8), ("  \t", 10), ("\t  ", 10),
                                               ("\t\t", 16), (" \t \t", 18)])
def test_indent_width_counts_a_tab_as_8_wherever_it_stands(indent: str, width: int) -> None:
    assert indent_width(indent) == width


# ---------------------------------------------------------------- property
_STATEMENTS = ["play:", "defense: draw a card", "+1 power", "draw a card", "# a note", "", "if you have no cards:",
               "nothing"]
_INDENTS = st.text(alphabet=" \t", max_size=10)
_LINES = st.lists(st.tuples(_INDENTS, st.sampled_from(_STATEMENTS)), min_size=1, max_size=8)


def _script(lines: list[tuple[str, str]]) -> str:
    body = "".join(f"{indent}{stmt}\n" for indent, stmt in lines)
    return f'expansion "X"\n\ncard "A": hero, cost 3\n{body}'


def _outcome(text: str) -> tuple[str, int] | None:
    try:
        parse(text, "x.cards")
    except CompileError as exc:
        (d,) = exc.diagnostics
        assert d.span is not None
        return d.code, d.span.line
    return None


def _check_span(d: Diagnostic, text: str) -> None:
    lines = text.splitlines()
    span = d.span
    assert span is not None and span.file == "x.cards"
    assert 1 <= span.line <= len(lines) and 1 <= span.column <= len(lines[span.line - 1]) + 1
    assert (span.end_line, span.end_column) > (span.line, span.column)
    assert "Expected dedent" not in d.message and "Unexpected" not in d.message
    render(d, {"x.cards": text})  # renders, excerpt and all


@settings(max_examples=300, deadline=None)
@given(_LINES)
@example([("\t", "play: +1 power"), ("  ", "defense: draw a card")])  # e18
@example([("  ", "play:"), ("\t", "+1 power"), ("    ", "draw a card")])  # f08
@example([("  ", "play:"), ("    ", "+1 power"), ("  \t", "draw a card")])  # f04
def test_any_mix_of_tabs_and_spaces_gives_a_sane_diagnostic_or_none(lines: list[tuple[str, str]]) -> None:
    text = _script(lines)
    try:
        parse(text, "x.cards")
    except CompileError as exc:
        (d,) = exc.diagnostics
        _check_span(d, text)
        if d.code == "CS103" and d.message.startswith("bad indentation"):
            assert d.span is not None
            src = text.splitlines()[d.span.line - 1]
            width = indent_width(src[:len(src) - len(src.lstrip(" \t"))])
            assert re.search(rf"indented by {width} columns?\b", d.message), d.message


@settings(max_examples=200, deadline=None)
@given(_LINES)
def test_a_tab_parses_as_8_spaces(lines: list[tuple[str, str]]) -> None:
    """The documented rule, checked on the parser: writing each tab as 8 spaces changes
    neither whether a script parses nor the line and code of its error."""
    spaced = [(indent.replace("\t", " " * 8), stmt) for indent, stmt in lines]
    assert _outcome(_script(lines)) == _outcome(_script(spaced))

"""A demanding new user's review: the mistakes a stranger's downloaded expansion makes,
each answered with its line, column, caret and a hint that says what to type instead."""

from __future__ import annotations

import pytest

from cardscript.dsl.diagnostics import CompileError, Diagnostic, render
from cardscript.dsl.front.parse import parse


def _one_error(text: str) -> Diagnostic:
    with pytest.raises(CompileError) as info:
        parse(text, "x.cards")
    (d,) = info.value.diagnostics
    return d


@pytest.mark.parametrize(("text", "line", "column", "above"), [
    # the over-indented line is the third, after a line that opens no block
    ('card "A": hero\n  play: +1 power\n   draw a card\n', 3, 4, 2),
    ('card "A": hero\n  play:\n    +1 power\n      draw a card\n', 4, 7, 4),
    ('card "A": hero\n  play: +1 power\n\n  # a comment\n     draw a card\n', 5, 6, 2),
])
def test_an_unexpected_indent_points_at_the_indented_line(text: str, line: int, column: int, above: int) -> None:
    d = _one_error(text)
    assert d.code == "CS103" and d.span is not None
    assert (d.span.line, d.span.column) == (line, column)  # it was the line before, at column 1
    assert f"the line above by {above}" in d.message
    assert d.hint is not None and f"indent it by {above}" in d.hint and "':'" in d.hint


@pytest.mark.parametrize(("char", "name", "plain"), [
    ("\u043e", "CYRILLIC SMALL LETTER O", "'o'"),
    ("\u201c", "LEFT DOUBLE QUOTATION MARK", "'\"'"),
    ("\u037e", "GREEK QUESTION MARK", "';'"),
    ("\u2212", "MINUS SIGN", "'-'"),
    ("\uff12", "FULLWIDTH DIGIT TWO", "'2'"),
    ("\u00a0", "NO-BREAK SPACE", "a plain space"),
    ("\u200b", "ZERO WIDTH SPACE", "delete it"),
])
def test_a_look_alike_character_is_named_with_what_to_type(char: str, name: str, plain: str) -> None:
    d = _one_error(f'card "A": hero\n  play: +1 p{char}wer\n')
    assert d.code == "CS101" and d.span is not None and (d.span.line, d.span.column) == (2, 13)
    assert name in d.message and f"U+{ord(char):04X}" in d.message
    assert d.hint is not None and plain in d.hint
    assert "^" in render(d, {"x.cards": f'card "A": hero\n  play: +1 p{char}wer\n'})

"""Indentation: the post-lexer that turns indents into blocks, and its CS103 diagnostics.

One rule measures an indent, :func:`indent_width`, and both the parser's post-lexer and
the diagnostics use it, so a message can never count a tab differently from the parser
(docs/language.md, "Tokens": a tab counts as 8 columns wherever it stands).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from lark import Token
from lark.indenter import DedentError, Indenter

from cardscript.dsl.diagnostics import Diagnostic, Span, error

#: The columns one tab counts for, wherever it stands in an indent.
TAB_WIDTH = 8


def indent_width(indent: str) -> int:
    """The width of an indent, as the parser counts it.

    Args:
        indent: the spaces and tabs before the first character of a line.

    Returns:
        Columns: 1 per space, :data:`TAB_WIDTH` per tab, wherever the tab stands
        (two spaces and a tab are 10, not 8).
    """
    return indent.count(" ") + indent.count("\t") * TAB_WIDTH


@dataclass(frozen=True)
class Level:
    """One open block, by the first line indented to it.

    Attributes:
        width: the indent of its lines, in columns (:func:`indent_width`).
        line: 1-based line that opened it (0 for the top level, which no line opens).
        tabs: whether that line's indent has a tab.
    """

    width: int
    line: int
    tabs: bool


class IndentMismatch(DedentError):
    """A line whose indent goes back to no open block's indent.

    Attributes:
        line: 1-based line of the offending line.
        indent: its indent, the spaces and tabs as written.
        levels: the blocks open just before it, outermost first.
    """

    def __init__(self, line: int, indent: str, levels: tuple[Level, ...]):
        self.line, self.indent, self.levels = line, indent, levels
        super().__init__(f"line {line}: dedent to {indent_width(indent)}, open blocks at "
                         f"{', '.join(str(level.width) for level in levels)}")


class BlockIndenter(Indenter):
    """Lark's indenter, measuring with :func:`indent_width` and remembering which line
    opened each block, so that a bad dedent is reported at its own line with the indents
    that would do (Lark's own DedentError carries neither)."""

    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR", "LBRACE"]
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = TAB_WIDTH

    def __init__(self) -> None:
        super().__init__()
        self.levels: list[Level] = [Level(0, 0, False)]

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        """Lark's entry point: reset for a new text, then inject the block tokens."""
        self.levels = [Level(0, 0, False)]
        return super().process(stream)

    def handle_NL(self, token: Token) -> Iterator[Token]:
        """The newline token, then an indent, dedents or nothing for the next line.

        Raises:
            IndentMismatch: the next line ends no open block.
        """
        if self.paren_level > 0:  # inside ( ) or { } a line break is only a space
            return
        yield token
        indent = token.rsplit("\n", 1)[1]
        width = indent_width(indent)
        line = token.end_line or token.line or 1
        if width > self.levels[-1].width:
            self.levels.append(Level(width, line, "\t" in indent))
            self.indent_level.append(width)
            yield Token.new_borrow_pos(self.INDENT_type, indent, token)
            return
        if all(level.width != width for level in self.levels):
            # before any dedent, so the parser never reports a block it closes as the mistake
            raise IndentMismatch(line, indent, tuple(self.levels))
        while width < self.levels[-1].width:
            self.levels.pop()
            self.indent_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent, token)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _describe(indent: str) -> str:
    """'10 columns (2 spaces and 1 tab of 8 columns)': the width, and how a tab counted."""
    width = _plural(indent_width(indent), "column")
    tabs = indent.count("\t")
    if not tabs:
        return width
    spaces = f"{_plural(indent.count(' '), 'space')} and " if " " in indent else ""
    return f"{width} ({spaces}{_plural(tabs, 'tab')} of {TAB_WIDTH} columns)"


def _tab_note(here: bool, lines: list[int]) -> str:
    """'indent with spaces only (...)' when a tab takes part, else ''."""
    where = (["this line"] if here else []) + [f"line {n}" for n in sorted(set(lines))]
    if not where:
        return ""
    return (f"indent with spaces only: a tab counts as {TAB_WIDTH} columns wherever it stands, and the "
            f"indent of {' and '.join(where)} has one; or ")


def dedent_diagnostic(exc: IndentMismatch, filename: str) -> Diagnostic:
    """CS103 at a line that goes back to no open block's indent.

    Args:
        exc: what the post-lexer found.
        filename: used in the span.

    Returns:
        The diagnostic, at the first character of the offending line, with the open
        blocks' indents and the two nearest it as the fix.
    """
    width = indent_width(exc.indent)
    widths = [level.width for level in exc.levels]
    near = [max(w for w in widths if w < width), min(w for w in widths if w > width)]
    column = len(exc.indent) + 1
    note = _tab_note("\t" in exc.indent, [level.line for level in exc.levels if level.tabs])
    return error(
        "CS103", f"bad indentation: this line is indented by {_describe(exc.indent)}, which ends no open "
                 f"block (the open blocks are indented by {', '.join(map(str, widths))} columns)",
        Span(filename, exc.line, column, exc.line, column + 1),
        f"{note}indent it by {near[0]} or {near[1]} columns, as the lines of the block it belongs to")


def indent_diagnostic(tok: Token, text: str, filename: str) -> Diagnostic:
    """CS103 at a line indented deeper than the one before it, which opens no block.

    Args:
        tok: the unexpected indent token; Lark gives it the position of the line end
            before it, so its own line is the token's end, and its text is the indent.
        text: the script source.
        filename: used in the span.

    Returns:
        The diagnostic, at the first character of the indented line.
    """
    lines = text.splitlines()
    line = min(max(tok.end_line or tok.line or 1, 1), max(len(lines), 1))
    src = lines[line - 1] if lines else ""
    indent = src[:len(src) - len(src.lstrip(" \t"))]
    above_no = next((n for n in range(line - 2, -1, -1)
                     if lines[n].strip() and not lines[n].lstrip().startswith("#")), None)
    above = lines[above_no] if above_no is not None else ""
    above_indent = above[:len(above) - len(above.lstrip(" \t"))]
    above_width = indent_width(above_indent)
    note = _tab_note("\t" in indent, [above_no + 1] if above_no is not None and "\t" in above_indent else [])
    column = len(indent) + 1
    return error("CS103", f"unexpected indentation: this line is indented by {_describe(indent)}, the line "
                          f"above by {_describe(above_indent)}, and that line opens no block",
                 Span(filename, line, column, line, column + 1),
                 f"{note}indent it by {above_width} columns, as the line above; or end the line above with ':' to "
                 "open a block (only the abilities of a card and the statements of a block are indented)")


#: A card's header line: its abilities are the indented lines under it.
_CARD_HEADER = re.compile(r'card\s+"')
#: A comment at the end of a line (a '#' after the last quote, so not one inside a name).
_TRAILING_COMMENT = re.compile(r'\s*#[^"]*$')


def _code_line_above(lines: list[str], line: int) -> int | None:
    """The 1-based number of the last line before ``line`` that is not blank or a comment."""
    return next((n + 1 for n in range(line - 2, -1, -1)
                 if lines[n].strip() and not lines[n].lstrip().startswith("#")), None)


def missing_indent_diagnostic(tok: Token, text: str, filename: str) -> Diagnostic | None:
    """CS103 for an unexpected first word of a line that should have been indented: it
    follows a line ending in ':' without going deeper, or a card's header without being
    indented at all (e.g. an ability written at column 1). None for any other token.

    Args:
        tok: the unexpected token.
        text: the script source.
        filename: used in the span.
    """
    lines = text.splitlines()
    line = tok.line or 0
    if not 0 < line <= len(lines) or tok.start_pos is None or tok.column is None:
        return None
    src = lines[line - 1]
    indent = src[:tok.column - 1]
    above_no = _code_line_above(lines, line)
    if indent.strip(" \t") or above_no is None:
        return None  # not the first word of its line, or nothing above it
    above = lines[above_no - 1]
    above_indent = above[:len(above) - len(above.lstrip(" \t"))]
    width, above_width = indent_width(indent), indent_width(above_indent)
    note = _tab_note("\t" in indent, [above_no] if "\t" in above_indent else [])
    span = Span(filename, line, len(indent) + 1, line, len(indent) + 1 + max(1, len(str(tok.value))))
    if _TRAILING_COMMENT.sub("", above).endswith(":") and width <= above_width:
        return error("CS103", f"missing indentation: this line is indented by {_describe(indent)}, but line "
                              f"{above_no} above, indented by {_describe(above_indent)}, ends with ':' and so "
                              "opens a block, whose lines are indented deeper",
                     span, f"{note}indent the lines of the block by more than {above_width} columns (cardscript "
                           f"fmt uses 2 more spaces), or write its statements on line {above_no} after ':'")
    if _CARD_HEADER.match(above) and width == above_width == 0:
        return error("CS103", f"missing indentation: this line is not indented, so it is not part of the card "
                              f"of line {above_no}, and it starts nothing else",
                     span, "indent the abilities of a card under its header, by the same amount each "
                           "(cardscript fmt uses 2 spaces)")
    return None

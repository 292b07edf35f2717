"""``cardscript fmt``: one canonical layout for every script (.rules, .cards, .variant, .scenario).

The formatter keeps every token of the script and only decides the white space
between them, so what a script says never changes (the AST of the output equals the
AST of the input; :func:`format_text` checks this before returning). The rules, in
``docs/fmt.md``:

* indentation is 2 spaces per block level; one space between tokens, none before
  ``, ; : ) } ]`` or after ``( { [``, none after a sign (``+2 power``, ``-1``), none
  around ``..`` (``0..20``) and between ``max``/``min`` and ``(``;
* the author's choice between a one-line body (``play: +1 power; draw a card``) and an
  indented block is kept, except that a one-line body which would run past
  :data:`WIDTH` columns is broken into a block, one statement per line;
* a line continued inside parentheses is joined;
* comments are kept: a comment on a line of its own stays above the code line that
  follows it, indented like that line (or, at the end of a block, like the block); a
  trailing comment stays on its line, and the trailing comments of a paragraph (lines
  with no blank or comment line between them) are aligned two columns after the
  longest of those lines;
* at most one blank line in a row; none at the start or end of the file, none right
  after a line that opens a block; the file ends with one newline.

The tokens come from the project's grammar (``grammar/cardscript.lark``), parsed with
Lark's ``keep_all_tokens``; comments, which the grammar skips, are read back from the
text between tokens using the tokens' positions.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree

from cardscript.dsl.diagnostics import CompileError, InternalError, Span, error
from cardscript.dsl.files import FileProblem, line_column, normalise, read_bytes, walk, where_byte, write_text
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.indent import BlockIndenter
from cardscript.dsl.front.parse import grammar_text

#: The column a one-line body may reach before it is broken into a block.
WIDTH = 120
INDENT = "  "

_NO_SPACE_BEFORE = {",", ";", ":", ")", "}", "]", ".."}
_NO_SPACE_AFTER = {"(", "{", "[", ".."}
_UNARY_SIGN_PARENTS = {"signed_int", "counter_add", "card_counter_add"}


@functools.lru_cache(maxsize=1)
def _token_parser() -> Lark:
    """The project grammar, parsed keeping every token (keywords and punctuation too)."""
    return Lark(grammar_text(), parser="lalr", lexer="contextual", postlex=BlockIndenter(),
                propagate_positions=True, maybe_placeholders=False, keep_all_tokens=True)


# ---------------------------------------------------------------- layout
@dataclass
class _Line:
    """One output line: its block level, its tokens (with their grammar rule), comments."""

    level: int
    toks: list[tuple[Token, str]] = field(default_factory=list)
    before: list[tuple[str, str]] = field(default_factory=list)  # ("blank", "") | ("comment", text)
    comment_levels: list[int] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)

    def code(self) -> str:
        return _join(self.toks)


def _join(toks: list[tuple[Token, str]]) -> str:
    out: list[str] = []
    prev: tuple[Token, str] | None = None
    for tok, rule in toks:
        if prev is not None and _space(prev, (tok, rule)):
            out.append(" ")
        out.append(str(tok))
        prev = (tok, rule)
    return "".join(out)


def _space(a: tuple[Token, str], b: tuple[Token, str]) -> bool:
    """Whether one space separates two tokens on a line."""
    (ta, ra), (tb, rb) = a, b
    if str(tb) in _NO_SPACE_BEFORE or str(ta) in _NO_SPACE_AFTER:
        return False
    if ta.type == "SIGN" and ra in _UNARY_SIGN_PARENTS:
        return False
    if str(ta) == "-" and ra == "neg":  # unary minus: -1, -(cost of it)
        return False
    return not (str(tb) == "(" and str(ta) in ("max", "min") and rb in ("max_", "min_"))


class _Layout:
    """Walks the parse tree and lays its tokens out in lines."""

    def __init__(self) -> None:
        self.lines: list[_Line] = [_Line(0)]
        self.level = 0

    # ------------------------------------------------------------ primitives
    @property
    def cur(self) -> _Line:
        return self.lines[-1]

    def tok(self, tok: Token, rule: str) -> None:
        self.cur.toks.append((tok, rule))

    def newline(self) -> None:
        if self.cur.toks:
            self.lines.append(_Line(self.level))

    def indent(self, by: int) -> None:
        self.level += by
        if not self.cur.toks:
            self.cur.level = self.level

    # ------------------------------------------------------------ the walk
    def walk(self, tree: Tree) -> None:
        kids = tree.children
        if len(kids) == 2 and isinstance(kids[0], Tree) and kids[0].data == "line" and _is_nl(kids[1]):
            self.line(kids[0])  # 'body: line _NL' or a statement line in a block
            return
        for kid in kids:
            if isinstance(kid, Tree):
                self.walk(kid)
            elif kid.type == "_NL":
                self.newline()
            elif kid.type == "_INDENT":
                self.indent(1)
            elif kid.type == "_DEDENT":
                self.indent(-1)
            else:
                self.tok(kid, str(tree.data))

    def line(self, line: Tree) -> None:
        """A line of statements; broken into a block when it would run past WIDTH."""
        width = len(INDENT * self.level) + len(_join(self.cur.toks + list(_tokens(line))))
        if width <= WIDTH or not _splittable(line):
            for tok, rule in _tokens(line):
                self.tok(tok, rule)
            self.newline()
        elif self.cur.toks:  # after 'LABEL:' the statements go in a block of their own
            self.indent(1)
            self.newline()
            self.broken(line)
            self.indent(-1)
        else:
            self.broken(line)

    def broken(self, line: Tree) -> None:
        """One statement per line; a statement with a block ('if ...:') takes the rest."""
        for kid in line.children:
            if isinstance(kid, Token):
                continue  # ';'
            if not _is_tail(kid):
                self.walk(kid)
                self.newline()
                continue
            for part in kid.children[:-1]:
                if isinstance(part, Tree):
                    self.walk(part)
                else:
                    self.tok(part, str(kid.data))
            self.line(kid.children[-1])


def _is_nl(x: Any) -> bool:
    return isinstance(x, Token) and x.type == "_NL"


def _is_tail(x: Any) -> bool:
    return isinstance(x, Tree) and bool(x.children) and isinstance(x.children[-1], Tree) \
        and x.children[-1].data == "line"


def _splittable(line: Tree) -> bool:
    stmts = [k for k in line.children if isinstance(k, Tree)]
    return len(stmts) > 1 or (bool(stmts) and _is_tail(stmts[-1]))


def _tokens(tree: Tree) -> Iterator[tuple[Token, str]]:
    for kid in tree.children:
        if isinstance(kid, Tree):
            yield from _tokens(kid)
        elif kid.type not in ("_NL", "_INDENT", "_DEDENT"):
            yield kid, str(tree.data)


# ---------------------------------------------------------------- comments and blank lines
@dataclass
class _Gap:
    """What lies between two tokens: a trailing comment, then whole lines (blank or comment)."""

    trailing: str = ""
    lines: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, text, column)
    newline: bool = False


def _width(ws: str) -> int:
    return len(ws.expandtabs(8))


def _gap(text: str, start: int, end: int, at_start: bool = False) -> _Gap:
    """The gap text[start:end] between two tokens (at_start: before the first token)."""
    parts = text[start:end].replace("\r", "").split("\n")
    gap = _Gap(newline=len(parts) > 1)
    if at_start:
        middle = parts[:-1]
    else:
        middle = parts[1:-1]
        if "#" in parts[0]:
            gap.trailing = parts[0][parts[0].index("#"):].rstrip()
    for raw in middle:
        body = raw.strip()
        if body.startswith("#"):
            gap.lines.append(("comment", body, _width(raw[:len(raw) - len(raw.lstrip())])))
        elif not body:
            gap.lines.append(("blank", "", 0))
    return gap


def _start(tok: Token) -> int:
    return tok.start_pos or 0


def _end(tok: Token | None) -> int:
    return 0 if tok is None or tok.end_pos is None else tok.end_pos


class _Attacher:
    """Puts the comments and blank lines of the source on the laid-out lines."""

    def __init__(self, text: str, lines: list[_Line]):
        self.text = text
        self.lines = [ln for ln in lines if ln.toks]
        self.where = {id(tok): ln for ln in self.lines for tok, _ in ln.toks}
        self.widths: dict[int, int] = {}  # block level -> source indentation of its latest line
        self.prev_level = 0

    def run(self, code_toks: list[Token]) -> tuple[list[_Line], list[tuple[str, str, int]]]:
        prev: Token | None = None
        for tok in code_toks:
            if id(tok) not in self.where and prev is not None:  # a ';' dropped by breaking a line
                self.where[id(tok)] = self.where[id(prev)]
            line = self.where[id(tok)]
            gap = _gap(self.text, _end(prev), _start(tok), prev is None)
            if gap.trailing and prev is not None:
                self.where[id(prev)].trailing.append(gap.trailing)
            if line.toks[0][0] is tok:
                self.line_start(line, tok, gap, prev is None)
            else:  # inside a line (a line continued in parentheses): its comments go above it
                line.before += [("comment", body) for kind, body, _ in gap.lines if kind == "comment"]
                line.comment_levels += [line.level for kind, _, _ in gap.lines if kind == "comment"]
            prev = tok
        return self.lines, self.end(prev)

    def line_start(self, line: _Line, tok: Token, gap: _Gap, first: bool) -> None:
        width = _width(_line_prefix(self.text, _start(tok))) if gap.newline or first else len(INDENT) * line.level
        for kind, body, col in gap.lines:
            if kind == "comment":
                line.before.append(("comment", body))
                line.comment_levels.append(_comment_level(col, line.level, width, self.prev_level, self.widths))
            elif line.level <= self.prev_level:  # no blank line right after a line that opens a block
                line.before.append(("blank", ""))
        self.widths[line.level] = width
        self.prev_level = line.level

    def end(self, last: Token | None) -> list[tuple[str, str, int]]:
        """The comments and blank lines after the last token."""
        gap = _gap(self.text, _end(last), len(self.text), last is None)
        if gap.trailing and last is not None:
            self.where[id(last)].trailing.append(gap.trailing)
        return [(kind, body, _comment_level(col, 0, 0, self.prev_level, self.widths) if kind == "comment" else 0)
                for kind, body, col in gap.lines]


def _line_prefix(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    return text[start:pos]


def _comment_level(col: int, level: int, width: int, prev_level: int, widths: dict[int, int]) -> int:
    """A comment line is indented like the next code line (at `level`, source indentation
    `width`), or, when it was written deeper at the end of a block, like the deepest block
    still open whose source indentation it reaches."""
    if col <= width:
        return level
    best = level
    for k in range(level + 1, max(level, prev_level) + 1):
        if widths.get(k, col + 1) <= col:
            best = k
    return best


# ---------------------------------------------------------------- output
def _render(lines: list[_Line], tail: list[tuple[str, str, int]]) -> str:
    out: list[str] = []
    codes = [INDENT * ln.level + ln.code() for ln in lines]
    columns = _comment_columns(lines, codes)

    def blank() -> None:
        if out and out[-1] != "":
            out.append("")

    for i, ln in enumerate(lines):
        levels = iter(ln.comment_levels)
        for kind, body in ln.before:
            if kind == "blank":
                blank()
            else:
                out.append(INDENT * next(levels) + body)
        for extra in ln.trailing[:-1]:  # several comments ended up on one line: keep them above it
            out.append(INDENT * ln.level + extra)
        if ln.trailing:
            out.append(codes[i].ljust(columns[i]) + ln.trailing[-1])
        else:
            out.append(codes[i])
    for kind, body, level in tail:
        if kind == "blank":
            blank()
        else:
            out.append(INDENT * level + body)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def _comment_columns(lines: list[_Line], codes: list[str]) -> list[int]:
    """The column of each line's trailing comment: aligned within a paragraph."""
    cols = [0] * len(lines)
    start = 0
    for i in range(len(lines) + 1):
        if i == len(lines) or (i > start and lines[i].before):
            commented = [j for j in range(start, i) if lines[j].trailing]
            col = max((len(codes[j]) for j in commented), default=0) + 2
            for j in commented:
                cols[j] = col
            start = i
    return cols


# ---------------------------------------------------------------- entry points
def format_text(text: str, filename: str = "<string>") -> str:
    """Format one script.

    Args:
        text: the script source.
        filename: used in diagnostics.

    Returns:
        The script in canonical layout (ends with one newline; "" for an empty script).

    Raises:
        CompileError: a syntax error in the script (CS101-CS103).
        InternalError: the formatted script would not parse, or would say something else
            (a bug in the formatter, reported as one: exit 3).
    """
    from cardscript.dsl.front.build import build

    text = normalise(text)  # as every command reads a script: no byte-order mark, LF line ends
    before = build(text, filename)
    src = text if text.endswith("\n") else text + "\n"
    tree = _token_parser().parse(src)
    lay = _Layout()
    lay.walk(tree)
    code_toks = [t for t, _ in _tokens(tree)]
    lines, tail = _Attacher(src, lay.lines).run(code_toks)
    out = _render(lines, tail)
    try:
        after = build(out, filename)
    except CompileError as exc:
        raise InternalError(f"formatting {filename} gives a script that does not parse: {exc}") from None
    if structure(after) != structure(before):
        raise InternalError(f"formatting {filename} would change what the script says")
    return out


def structure(node: Any) -> Any:
    """A node's content without source positions: equal for scripts that say the same."""
    if isinstance(node, A.ChooseOne):  # a mode's label is its text: fmt may only move its white space
        labels = tuple("".join(label.split()) for label in node.labels)
        return ("ChooseOne", structure(node.modes), labels, structure(node.subject))
    if isinstance(node, A.Node):
        return (type(node).__name__, *(structure(getattr(node, f)) for f in node._fields if f != "file"))
    if isinstance(node, (tuple, list)):
        return tuple(structure(x) for x in node if not isinstance(x, Span))
    return node


@dataclass
class FileResult:
    """What fmt did to one file: ``changed`` (or would change, with --check), its diff."""

    path: str
    changed: bool
    diff: str = ""


def format_file(path: Path, check: bool) -> FileResult:
    """Format a file in place (atomically), or with ``check`` only report the diff.

    The file is read as every command reads a script (:func:`cardscript.dsl.files.read_bytes`:
    a regular file, at most :data:`cardscript.dsl.files.MAX_SCRIPT_BYTES`); a leading
    byte-order mark and CRLF or CR line ends are accepted, and written back as LF without
    a mark (a file that differs only so is reported as changed).

    Raises:
        CompileError: the file cannot be read (CS001), leads outside its package (CS003)
            or does not parse.
        FileProblem: the file cannot be written (a link, a full disk).
    """
    from cardscript.dsl.front.loader import package_root  # the loader imports this module's neighbours

    try:
        # read as 'check' reads it: a link that leads outside its package is not even read
        raw = read_bytes(path, [package_root(path)])
        text = raw.decode("utf-8")
    except FileProblem as exc:
        raise CompileError([error(exc.code, exc.message, None, exc.hint)]) from None
    except UnicodeDecodeError as exc:
        line, column = line_column(raw, exc.start)
        raise CompileError([error("CS001", f"{path} is not UTF-8 text: {where_byte(raw, exc.start)} cannot be read",
                                  Span(str(path), line, column, line, column + 1),
                                  "save the script as UTF-8")]) from None
    out = format_text(text, str(path))
    if out == text:
        return FileResult(str(path), False)
    plain = normalise(text)
    diff = "".join(difflib.unified_diff(plain.splitlines(keepends=True), out.splitlines(keepends=True),
                                        f"a/{path}", f"b/{path}"))
    if plain != text:
        what = " and ".join(w for w, bad in (("a byte-order mark", text.startswith("\ufeff")),
                                             ("CR line ends", "\r" in text)) if bad)
        diff = diff or f"--- a/{path}\n+++ b/{path}\n"
        diff += f"# {path}: has {what}; fmt writes LF line ends and no byte-order mark\n"
    if not check:
        write_atomic(path, out)
    return FileResult(str(path), True, diff)


def write_atomic(path: Path, text: str) -> None:
    """Replace a file whole or not at all (temp file in the same folder + rename), keeping
    its mode; a device or FIFO is written through, a link refused
    (:func:`cardscript.dsl.files.write_text`).

    Raises:
        FileProblem: the file cannot be written (nothing is left behind).
    """
    write_text(path, text)


def script_files(paths: list[str]) -> list[Path]:
    """The scripts under PATHS: files as given, folders searched recursively (sorted)."""
    from cardscript.dsl.front.loader import SCRIPT_SUFFIXES

    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(walk(p, SCRIPT_SUFFIXES))
        else:
            out.append(p)
    return list(dict.fromkeys(out))

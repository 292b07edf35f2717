"""Stage 1: text -> Lark parse tree, with syntax errors turned into Diagnostics.

The grammar is ``grammar/cardscript.lark`` (LALR, positions propagated). The parser
is loaded once per process from the prebuilt tables shipped beside the grammar, as data
(:mod:`.parser_tables`); when they do not match the grammar it is built in memory.
Nothing is cached on disk. ``python -m cardscript.dsl.front.parse --write-tables``
rewrites the tables after a change to the grammar (a test checks they are current).
"""

from __future__ import annotations

import functools
import re
import sys
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from cardscript.dsl.diagnostics import CompileError, Span, error, foreign_word_hint
from cardscript.dsl.front import parser_tables
from cardscript.dsl.front.indent import (
    BlockIndenter,
    IndentMismatch,
    dedent_diagnostic,
    indent_diagnostic,
    missing_indent_diagnostic,
)

# Friendly names for terminals in "expected one of" lists.
_TERMINAL_NAMES = {
    "_NL": "end of line", "COLON": "':'", "SEMICOLON": "';'", "COMMA": "','", "LPAR": "'('",
    "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'", "NAME": "a word", "STRING": 'a "quoted name"',
    "INT": "a number", "PARAM": "a PARAMETER", "SIGN": "'+' or '-'", "COMPARE": "a comparison",
    "MOD_DIR": "'less' or 'more'", "COMMENT": "a comment",
    "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of file", "EQUAL": "'='",
}


#: The post-lexer of the parser (kept under this name for the tools and tests that build
#: a parser of their own).
_Indenter = BlockIndenter


def grammar_text() -> str:
    """The grammar source shipped in the package ``grammar``."""
    return resources.files("cardscript.grammar").joinpath("cardscript.lark").read_text(encoding="utf-8")


#: The options of the parser (the post-lexer, :class:`BlockIndenter`, comes on top).
OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True, "maybe_placeholders": False}


@functools.lru_cache(maxsize=1)
def get_parser() -> Lark:
    """The LALR parser, loaded once per process from the shipped tables, or built from the
    grammar in memory when they are missing or were made from another grammar."""
    grammar = grammar_text()
    tables = parser_tables.read()
    parser = parser_tables.load(tables, grammar, OPTIONS, BlockIndenter()) if tables is not None else None
    return parser if parser is not None else build_parser()


def build_parser() -> Lark:
    """The LALR parser built from the grammar in memory (what the shipped tables must equal)."""
    return parser_tables.build(grammar_text(), OPTIONS, BlockIndenter())


def write_tables() -> str:
    """Rebuild the tables from the grammar and write them beside it; returns the path."""
    path = parser_tables.shipped_path()
    tables = parser_tables.tables_of(build_parser(), grammar_text(), OPTIONS)
    path.write_text(parser_tables.dumps(tables), encoding="utf-8")
    return str(path)


@functools.lru_cache(maxsize=1)
def _literals() -> dict[str, str]:
    """The text of each terminal that is a fixed string, by its name ('LSQB': '[',
    '__ANON_1': "foe's"): what the user would type, not Lark's name for it."""
    return {t.name: t.pattern.value for t in get_parser().terminals if isinstance(t.pattern, PatternStr)}


def _expected(names: set[str] | frozenset[str]) -> tuple[str, ...]:
    out = []
    for n in sorted(names):
        pretty = _TERMINAL_NAMES.get(n)
        if pretty is None:
            text = _literals().get(n)
            if text is None:
                continue  # whitespace, or a pattern with no name worth showing
            pretty = f"'{text}'"
        out.append(pretty)
    return tuple(dict.fromkeys(out))[:12]


# Words that suggest someone wrote Python in a script (for the hint of a syntax error).
_PYTHON_NAMES = ("import", "def", "lambda", "print", "exec", "eval", "open", "os", "sys")
_PYTHON_WORDS = re.compile(r"\b(" + "|".join(_PYTHON_NAMES) + r")\b|__\w+__")


def _python_like(text: str, line: int) -> bool:
    lines = text.splitlines()
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    return bool(_PYTHON_WORDS.search(src))


def parse(text: str, filename: str = "<string>") -> Tree:
    """Parse one script.

    Args:
        text: the script source.
        filename: used in diagnostics.

    Returns:
        The Lark parse tree (rule ``start``).

    Raises:
        CompileError: with one CS101/CS102/CS103 diagnostic at the failing position.
    """
    if not text.endswith("\n"):
        text += "\n"
    try:
        return get_parser().parse(text)
    except UnexpectedInput as exc:
        raise CompileError([_syntax_diagnostic(exc, text, filename)]) from None
    except IndentMismatch as exc:
        raise CompileError([dedent_diagnostic(exc, filename)]) from None


def _syntax_diagnostic(exc: UnexpectedInput, text: str, filename: str):
    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    if line < 1:
        line, col = max(1, text.count("\n")), 1
    hint = ""
    if isinstance(exc, UnexpectedToken):
        tok: Token = exc.token
        expected = _expected(exc.expected)
        if tok.type == "_NL" or tok.type == "$END":
            # Lark reports an unexpected newline at the start of the next line; point
            # at the end of the line that is unfinished instead.
            lines = text.splitlines()
            prev = tok.line if tok.type == "_NL" and tok.line else line
            prev = min(max(prev, 1), len(lines))
            line, col = prev, len(lines[prev - 1].rstrip()) + 1
            msg = "this line ends too early"
            if "':'" in expected:
                hint = "a block label or header needs ':' followed by its statements"
            return error("CS102", msg, Span(filename, line, col, line, col + 1), hint, expected)
        if tok.type == "_INDENT":
            return indent_diagnostic(tok, text, filename)
        if tok.type == "_DEDENT":
            return error("CS103", "block ends too early", Span(filename, line, col, line, col + 1),
                         "give the block at least one statement, or 'nothing'", expected)
        missing = missing_indent_diagnostic(tok, text, filename)
        if missing is not None:
            return missing
        width = max(1, len(str(tok.value)))
        negative = _negative_number(text, tok, expected)
        if negative:  # 'draw -3 cards': the hint for any other token ("forgot ':'?") misleads
            return error("CS209", f"a count cannot be negative: '{negative}'",
                         Span(filename, line, col, line, col + len(negative)),
                         _negative_hint(text[:tok.start_pos], negative[1:]), expected)
        msg = f"unexpected {_describe(tok)}"
        if _python_like(text, line):
            hint = "scripts are data: Python code is not part of the language"
        elif _static_first_time(text, line):
            hint = "once a turn, a static rule reads 'the first time you VERB a TYPE each turn: ...' " \
                   "(or '... during each of your turns: ...')"
        elif _dashed_label(text, line, col):
            hint = _dashed_label(text, line, col)
        elif _foreign_word(text, line, tok):
            hint = _foreign_word(text, line, tok)
        elif _printed_wording(text, tok):
            hint = _printed_wording(text, tok)
        elif "':'" in expected:
            hint = "did you forget ':' before the statements?"
        return error("CS101", msg, Span(filename, line, col, line, col + width), hint, expected)
    if isinstance(exc, UnexpectedCharacters):
        ch = text.splitlines()[line - 1][col - 1:col] if line <= len(text.splitlines()) else "?"
        expected = _expected(exc.allowed or set())
        if ch and not ch.isascii():  # a look-alike pasted from a word processor or a web page
            return error("CS101", f"unexpected character {ch!r} ({_unicode_name(ch)})",
                         Span(filename, line, col, line, col + 1),
                         _dashed_label(text, line, col) or _lookalike_hint(ch), expected)
        if ch == '"':
            hint = "a quoted name must end on the same line"
        elif _python_like(text, line):
            hint = "scripts are data: Python code is not part of the language"
        elif ch.isupper():
            hint = "names of zones, counters and types are lower case; UPPER CASE is for parameters"
        return error("CS101", f"unexpected character {ch!r}", Span(filename, line, col, line, col + 1), hint, expected)
    if isinstance(exc, UnexpectedEOF):
        return error("CS102", "the file ends too early", Span(filename, line, col, line, col + 1), "",
                     _expected(set(exc.expected)))
    return error("CS101", str(exc).splitlines()[0], Span(filename, line, col, line, col + 1))


def _static_first_time(text: str, line: int) -> bool:
    """'when you play a hero first time each turn:': the static rule with the words of a
    card trigger ('when "play" first time each turn'), which the grammar does not take."""
    lines = text.splitlines()
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    return re.search(r"\bwhen you [a-z]+\b.*\bfirst time each turn\b", here) is not None


#: 'first appearance - attack:' (printed with an en dash, "First Appearance - Attack:"): a label of
#: words around a dash (or a look-alike of one), then ':'
_DASHED_LABEL = re.compile(r"\s*(?P<a>[a-z][\w' ]*?)\s*(?P<dash>[-\u2010-\u2015\u2212])\s*(?P<b>[a-z][\w' ]*?)\s*:")


def _dashed_label(text: str, line: int, col: int) -> str:
    """The hint for an ability label written with a dash at column ``col`` (1-based), as
    printed cards set a keyword apart ("First Appearance - Attack:", often an en dash); else ''."""
    lines = text.splitlines()
    m = _DASHED_LABEL.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if m is None or m.start("dash") != col - 1:
        return ""
    return f"an ability label is words with no dash: write '{m['a']} {m['b']}:'"


def _foreign_word(text: str, line: int, tok: Token) -> str:
    """The hint for a control word of another language (``elif``, ``if ... then``): the
    unexpected word itself, or the word the line starts with; else ''."""
    lines = text.splitlines()
    words = lines[line - 1].split() if 0 < line <= len(lines) else []
    return foreign_word_hint(str(tok.value)) or (foreign_word_hint(words[0]) if words else "")


#: ASCII look-alikes of characters that editors and web pages put in place of the ASCII ones
_LOOKALIKES = {
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
    "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u3000": " ", "\u037e": ";", "\u2024": ".",
    "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0445": "x",
    "\u0443": "y", "\u0456": "i", "\u03bf": "o", "\u03b1": "a",
}


def _unicode_name(ch: str) -> str:
    import unicodedata

    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')}"


#: '+1 power for each gadget ...': a counter change 'for each' of what is not a player
_FOR_EACH_CARD = re.compile(r"[+-]\s*(\d+|\w+)\s+[\w-]+\s+for\s+each\s*$")
#: 'from your hand or your discard': zones joined with 'or'
_ZONES_OR = re.compile(r"\b(from|in)\s+(your|their|the)\s+[\w-]+\s*$")


def _printed_wording(text: str, tok: Token) -> str:
    """The hint for a card's printed wording the language writes another way, at ``tok``:
    "+1 Power for each Gadget in your hand" (a count in the amount), "in your hand or
    discard pile" (zones joined with 'and'); '' for any other place."""
    before = text[:tok.start_pos].rsplit("\n", 1)[-1]
    if _FOR_EACH_CARD.search(before):
        return ("'+N COUNTER for each foe' changes each foe's counter; \"+1 Power for each TYPE in your ZONE\" "
                "(yours, once per card) is '+(count all TYPE in your ZONE) power'")
    if str(tok.value) == "or" and _ZONES_OR.search(before):
        return "several zones are joined with 'and': 'from your hand and your discard' (it reads \"or\" on the card)"
    return ""


def _lookalike_hint(ch: str) -> str:
    import unicodedata

    plain = _LOOKALIKES.get(ch) or unicodedata.normalize("NFKC", ch)
    if plain.isascii() and plain.strip():
        return f"it looks like {plain!r} but is not: type {plain!r} instead (scripts are written in ASCII, " \
               "apart from quoted names and comments)"
    if plain == " ":
        return "it looks like a space but is not: type a plain space instead"
    if unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp"):
        return "an invisible character: delete it (scripts are written in ASCII, apart from quoted names and comments)"
    return "scripts are written in ASCII, apart from quoted names and comments: retype this word"


def _negative_number(text: str, tok: Token, expected: tuple[str, ...]) -> str:
    """'-3' when ``tok`` is the minus of a negative number written where a number (and
    no minus) was expected, else ''."""
    if tok.value != "-" or "a number" not in expected or "'-'" in expected or tok.end_pos is None:
        return ""
    digits = len(text[tok.end_pos:]) - len(text[tok.end_pos:].lstrip("0123456789"))
    return "-" + text[tok.end_pos:tok.end_pos + digits] if digits else ""


def _negative_hint(before: str, digits: str) -> str:
    words = before.split()
    word = words[-1] if words else ""
    shown = f"'{word} {digits}'" if word.isalpha() else digits
    return (f"write a number from 0 up ({shown}); to take something away, use an "
            f"effect that does (discard, or '-{digits} COUNTER' for a counter)")


def _describe(tok: Token) -> str:
    if tok.type == "STRING":
        return f"name {tok.value}"
    if tok.type == "INT":
        return f"number {tok.value}"
    return f"'{tok.value}'"


if __name__ == "__main__":  # maintenance: python -m cardscript.dsl.front.parse --write-tables
    if sys.argv[1:] != ["--write-tables"]:
        sys.exit("usage: python -m cardscript.dsl.front.parse --write-tables")
    print(f"wrote {write_tables()}")

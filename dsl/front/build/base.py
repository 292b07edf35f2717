"""The builder's base: positions (spans) from Lark's ``meta``, the fallback for a grammar
rule without a builder method, and the small rules every area shares (words, numbers, keywords)."""

from __future__ import annotations

import unicodedata
from typing import Any

from lark import Token, Transformer, v_args

from cardscript.dsl.diagnostics import Span


def _s(x: Any) -> str:
    """The text of a STRING token without its quotes, in Unicode's composed form (NFC);
    any other item as text. Composed, a name typed as "Á" (one character) and one typed as
    "A" + a combining accent (two: what some editors and file systems write) are the same
    card, mark or event, as they look the same. A path (``uses``) is not a name: see
    :func:`_path`."""
    if isinstance(x, Token) and x.type == "STRING":
        text = x[1:-1]
        return text if text.isascii() else unicodedata.normalize("NFC", text)
    return str(x)


def _path(x: Any) -> str:
    """The text of a STRING token that names a file or folder, as written: a file system
    may hold a name in either Unicode form, so it is looked up byte for byte."""
    return x[1:-1] if isinstance(x, Token) and x.type == "STRING" else str(x)


@v_args(meta=True)
class BuilderBase(Transformer):
    """What every builder area shares; the areas are mixins of this class (Lark's
    ``v_args`` must be applied to each class that defines builder methods)."""

    def __init__(self, filename: str, source: str = ""):
        super().__init__()
        self.file = filename
        self.source = source  # the script's text, for what quotes it (a modal choice's labels)

    def _sp(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 1, 1)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def __default__(self, data, children, meta):  # pragma: no cover - a grammar/builder mismatch
        raise AssertionError(f"no builder for grammar rule {data!r}")

    # ------------------------------------------------------------ helpers
    def words(self, meta, c):
        return " ".join(str(t) for t in c)

    def word_list(self, meta, c):
        return tuple(c)

    def signed_int(self, meta, c):
        sign = -1 if len(c) == 2 and c[0] == "-" else 1
        return sign * int(c[-1])

    def duration(self, meta, c):
        return True

    def header_kind(self, meta, c):
        return str(c[0])

    def timing(self, meta, c):
        return " ".join(str(t) for t in c)

    def kw_word(self, meta, c):
        return str(c[0])

    def pos(self, meta, c):
        return str(c[0])

    def side(self, meta, c):
        return str(c[0])

    def card_word(self, meta, c):
        return str(c[0])

    def is_verb(self, meta, c):
        return str(c[0])

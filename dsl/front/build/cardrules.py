"""Builder for the card-text statements of issue 12 (grammar block 'cards area'):
modal choices (``choose one: A; or B``) and attribute modifiers (``cards cost 1 less for
you this turn``)."""

from __future__ import annotations

import re
from typing import Any

from lark import Token, v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase


@v_args(meta=True)
class CardRulesBuilder(BuilderBase):
    """``choose one``: each mode becomes a body, labelled by its own text."""

    def choose_mode(self, meta, c):
        stmts = c[0] if isinstance(c[0], list) else [c[0]]
        return self._source(meta), A.Body(self._sp(meta), tuple(stmts))

    def choose_line(self, meta, c):
        return self.choose_mode(meta, c)

    def choose_one(self, meta, c):
        subject = c[0] if c and isinstance(c[0], A.PlayerSel) else None
        modes: list[tuple[str, A.Body]] = [m for m in c if isinstance(m, tuple)]
        return A.ChooseOne(self._sp(meta), tuple(b for _, b in modes), tuple(t for t, _ in modes), subject)

    # ------------------------------------------------------------ attribute modifiers
    def attr_modifier(self, meta, c):
        names = [str(t) for t in c if isinstance(t, Token) and t.type == "NAME"]
        amount = _signed(c)
        types = (" ".join(names[:-1]),) if len(names) > 1 else ()
        return A.AttrModifier(self._sp(meta), names[-1], types, amount, c[-2])

    def next_kind(self, meta, c):
        names = [str(t) for t in c if isinstance(t, Token) and t.type == "NAME"]
        return (" ".join(names),) if names else ()

    def next_modifier(self, meta, c):
        names = [str(t) for t in c if isinstance(t, Token) and t.type == "NAME"]
        return A.AttrModifier(self._sp(meta), names[1], c[0], _signed(c), None, names[0])

    def _source(self, meta: Any) -> str:
        """The text a rule spans, white space collapsed: how the mode reads as an option."""
        start, end = getattr(meta, "start_pos", None), getattr(meta, "end_pos", None)
        if start is None or end is None or not self.source:
            return ""
        return canonical_label(self.source[start:end])


# a word (with inner '-' or an apostrophe, or digits), a quoted name, or one other character
_LABEL_TOKEN = re.compile(r"[\w'-]*\w[\w']*|\"[^\"]*\"|\S")


def canonical_label(text: str) -> str:
    """The mode's text spaced one way whatever the source's spacing (so formatting a script
    never changes the label an answer names): one space between tokens, none after ``(``,
    before ``) : ; ,``, or after a sign that opens an amount (``+2 power``, ``(-1)``)."""
    toks = _LABEL_TOKEN.findall(text)
    out = ""
    for i, tok in enumerate(toks):
        prev = toks[i - 1] if i else ""
        opens = i < 2 or toks[i - 2] in ("(", ";", ":", ",", "+", "-", "*", "/")  # before the sign
        unary = prev in ("+", "-") and opens
        if i and tok not in (")", ":", ";", ",") and prev != "(" and not unary:
            out += " "
        out += tok
    return out


def _signed(c: list[Any]) -> int:
    """The modifier's amount: the INT, negative after 'less'."""
    n = next(int(t) for t in c if isinstance(t, Token) and t.type == "INT")
    word = next(str(t) for t in c if isinstance(t, Token) and t.type == "MOD_DIR")
    return -n if word == "less" else n

"""Builder for the card-text statements of issue 12 (grammar block 'cards area'):
modal choices (``choose one: A; or B``)."""

from __future__ import annotations

from typing import Any

from lark import v_args

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

    def _source(self, meta: Any) -> str:
        """The text a rule spans, white space collapsed: how the mode reads as an option."""
        start, end = getattr(meta, "start_pos", None), getattr(meta, "end_pos", None)
        if start is None or end is None or not self.source:
            return ""
        return " ".join(self.source[start:end].split())

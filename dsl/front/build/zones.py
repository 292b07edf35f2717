"""Builder of the "zones" area (issue 12): replacements on cards and 'came from'."""

from __future__ import annotations

from lark import v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase


@v_args(meta=True)
class ZoneBuilder(BuilderBase):
    """``instead of [a foe's] PATTERN [, first time each turn]: body``; ``CARDS came from ZONE``."""

    def ability(self, meta, c):  # 'ability: ... | replacement', the one alternative without an alias
        return c[0]

    def replacement(self, meta, c):
        call: A.Call = next(x for x in c if isinstance(x, A.Call))
        return A.Replacement(self._sp(meta), call.items, c[-1], "foe" in c, "first" in c)

    def repl_foe(self, meta, c):
        return "foe"

    def repl_first(self, meta, c):
        return "first"

    def came_from(self, meta, c):
        return A.CameFrom(self._sp(meta), c[0], c[1])

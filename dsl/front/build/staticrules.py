"""Builder for the static rules of passive abilities (grammar block 'cards2 area', issue
12): static triggers (``when you play a hero: +1 power``) and static attribute
modifiers (``cards cost 1 less for you``, with no 'this turn')."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase
from cardscript.dsl.front.build.cardrules import _signed


@v_args(meta=True)
class StaticRulesBuilder(BuilderBase):
    """One method per 'cards2 area' grammar alias."""

    def static_kind(self, meta, c):
        kind, value = c[-1]
        return () if kind == "any" else (str(value),)

    def static_when(self, meta, c):
        body = c[-1] if isinstance(c[-1], A.Body) else A.Body(self._sp(meta), tuple(c[-1]))
        if isinstance(c[0], A.StaticWhen):  # 'the first time you VERB a TYPE each turn: ...'
            head = c[0]
            return A.StaticWhen(self._sp(meta), head.verb, head.types, body, head.once, head.where)
        types, where = _types_and_where(c[1:-1])
        return A.StaticWhen(self._sp(meta), str(c[0]), types, body, where=where)

    def static_first(self, meta, c):
        """The head of 'the first time you VERB [a TYPE] [where COND] each turn' (or 'during
        each of your turns'): a StaticWhen with no body yet, its ``once`` the last child."""
        types, where = _types_and_where(c[1:-1])
        return A.StaticWhen(self._sp(meta), str(c[0]), types, A.Body(self._sp(meta), ()), c[-1], where)

    def static_where(self, meta, c):
        return ["where", c[0]]

    def once_each_turn(self, meta, c):
        return "each turn"

    def once_your_turns(self, meta, c):
        return "your turns"

    def enter_event(self, meta, c):
        zone: A.ZoneRef = c[-1]
        return A.Event(self._sp(meta), f'enters "{zone.name}"', enters=zone, types=c[0])

    def computed_attr(self, meta, c):
        return A.ComputedAttr(self._sp(meta), c[0], c[1])

    def static_modifier(self, meta, c):
        names = [str(t) for t in c if isinstance(t, Token) and t.type == "NAME"]
        types = (" ".join(names[:-1]),) if len(names) > 1 else ()
        return A.AttrModifier(self._sp(meta), names[-1], types, _signed(c), c[-1], this_turn=False)


def _types_and_where(parts: list[Any]) -> tuple[tuple[str, ...], Any]:
    """The card types (a tuple) and the ``where`` condition (a ``["where", COND]`` item)
    among the parts of a static rule's head; ``()`` and None when it has none."""
    types = next((x for x in parts if isinstance(x, tuple)), ())
    where = next((x[1] for x in parts if isinstance(x, list) and x and x[0] == "where"), None)
    return types, where

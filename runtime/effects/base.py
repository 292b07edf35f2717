"""The shared base of every effect object (:class:`Node`, whose IR comes from its
``__slots__``; :func:`to_ir`) and helpers that several protocols use."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.game import Game


class Node:
    """Base: generic JSON IR from ``__slots__`` (see :func:`to_ir`)."""

    __slots__ = ()

    def ir(self) -> dict[str, Any]:
        """``{"ClassName": {field: value, ...}}`` — one key, so a schema can dispatch on it."""
        slots: tuple[str, ...] = self.__slots__
        fields = {slot: to_ir(getattr(self, slot)) for slot in slots if not slot.startswith("_")}
        return {type(self).__name__: fields}


def to_ir(x: Any) -> Any:
    """Any effect object, list or scalar -> JSON-compatible data."""
    if isinstance(x, Node):
        return x.ir()
    if isinstance(x, (list, tuple)):
        return [to_ir(i) for i in x]
    if isinstance(x, dict):
        return {str(k): to_ir(v) for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))}
    if isinstance(x, (frozenset, set)):
        return sorted(to_ir(i) for i in x)
    return x


def whose(owner: str, ctx: Ctx) -> int:
    """The seat a counter reference means: 'your' -> you, 'their' -> them (or you when
    nobody is bound), 'the' (shared) -> slot 0."""
    if owner == "you":
        return ctx.you
    if owner == "them":
        return ctx.them if ctx.them is not None else ctx.you
    return 0


def card_has(g: Game, card: int, words: tuple[str, ...]) -> bool:
    """The card has one of the words as a type, a keyword or an ability label."""
    have = g.card_words[card]
    for w in words:  # noqa: SIM110 - called per card by every filter: a plain loop, no generator
        if w in have:
            return True
    return False

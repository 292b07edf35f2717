"""The shared base of every effect object (:class:`Node`, whose IR comes from its
``__slots__``; :func:`to_ir`) and helpers that several protocols use."""

from __future__ import annotations

from typing import Any, ClassVar

from cardscript.runtime.context import Ctx
from cardscript.runtime.game import Game


class Node:
    """Base: generic JSON IR from ``__slots__`` (see :func:`to_ir`)."""

    __slots__ = ()
    #: True for an object whose fields run elsewhere (a script effect runs its body when called)
    _opaque: ClassVar[bool] = False
    #: the generic class a specialised variant stands for (:func:`specialised`); None for a generic class
    _generic: ClassVar[type | None] = None
    #: a block (:class:`~cardscript.runtime.effects.flow.Seq`), whose depth, once found, is kept
    #: in its ``_depth`` (:func:`nest_depth`)
    _block: ClassVar[bool] = False

    def ir(self) -> dict[str, Any]:
        """``{"ClassName": {field: value, ...}}`` — one key, so a schema can dispatch on it.
        A specialised variant (:func:`specialised`) writes its generic class's name."""
        slots: tuple[str, ...] = self.__slots__
        fields = {slot: to_ir(getattr(self, slot)) for slot in slots if not slot.startswith("_")}
        return {(self._generic or type(self)).__name__: fields}


def specialised(cls: type[Node]) -> type[Node]:
    """Mark ``cls`` as a specialised variant of its base class (issue 11): it runs faster
    for a shape known when it is built (a constant operand, two conditions), but it has
    the same fields, the same IR and the same behaviour. Its own ``__slots__`` must be
    empty; afterwards ``cls.__slots__`` names its base's fields, so that every walk over
    the fields (IR, :func:`nest_depth`, hoisting) sees the object as the generic one."""
    base = cls.__mro__[1]
    assert issubclass(base, Node) and not cls.__dict__.get("__slots__"), cls
    cls._generic = base._generic or base
    type.__setattr__(cls, "__slots__", base.__slots__)
    return cls


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


def as_number(value: Any) -> int:
    """An attribute's value as a number: a text (an attribute the game declares as text) is 0."""
    return value if isinstance(value, int) else 0


def card_has(g: Game, card: int, words: tuple[str, ...]) -> bool:
    """The card has one of the words as a type, a keyword or an ability label."""
    have = g.card_words[card]
    for w in words:  # noqa: SIM110 - called per card by every filter: a plain loop, no generator
        if w in have:
            return True
    return False


#: a slot of more cards than this is searched through the layout's index of names
#: (:func:`named_in`); a smaller one is scanned
NAMED_SCAN = 16


def named_in(g: Game, slot: int, cards: list[int], name: str) -> list[int]:
    """The cards named ``name`` of ``slot`` (which holds ``cards``), top first, as a test of
    every card of ``cards[::-1]`` finds them, but through the layout's index of names
    (``named_cards``): a setup takes a few named cards out of a box of hundreds."""
    loc = g.loc
    pool = [c for c in g.named_cards.get(name, ()) if loc[c] == slot]
    if len(pool) > 1:
        # Into the order of cards[::-1]. Cards of one name mostly lie in number order (a box
        # starts so): one forward scan of the slot confirms it, where a sort by place would
        # search the slot once per card.
        index, at = cards.index, -1
        try:
            for c in pool:
                at = index(c, at + 1)
        except ValueError:
            pool.sort(key=index)
        pool.reverse()
    return pool


def nest_depth(x: Any) -> int:
    """How many levels of effect objects ``x`` (an object, or a list of them) holds, found
    iteratively: about how deep the Python stack grows while it runs. A block
    (:class:`~cardscript.runtime.effects.flow.Seq`) keeps its depth once found; the body of a
    script effect is not counted where it is called, but when it runs
    (:meth:`~cardscript.runtime.game.events.EventOps.run_nested`)."""
    best = 0
    todo: list[tuple[Any, int]] = [(x, 0)]
    while todo:
        obj, d = todo.pop()
        if isinstance(obj, Node):
            # A block whose depth is known already. Only a block: a call keeps its body's depth
            # in a field of that name too, set at its first run, and is one level here whatever
            # it holds, or a block's depth would depend on whether a call in it has run yet.
            known = getattr(obj, "_depth", -1) if obj._block else -1
            if known >= 0 and obj is not x:
                best = max(best, d + known)
                continue
            d += 1
            best = max(best, d)
            if not obj._opaque:
                slots: tuple[str, ...] = obj.__slots__
                todo.extend((getattr(obj, name), d) for name in slots if not name.startswith("_"))
        elif isinstance(obj, (list, tuple)):
            todo.extend((i, d) for i in obj)
        elif isinstance(obj, dict):
            todo.extend((v, d) for v in obj.values())
    return best


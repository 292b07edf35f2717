"""The shared parts of an action window's value hints (see
:mod:`~cardscript.runtime.effects.actionplan`, whose :class:`~.actionplan.WindowPlan`
rewrites its hints with :func:`_uses` and :func:`_share`).

A game's ``prefer`` hints can be long expressions that repeat the same parts: several
actions count the same cards and sum the same attributes, and each card of a card action
does so again. :class:`WindowPlan`, made once per window and
definition, rewrites each hint so that every part that

* reads no card being valued (``it``), is pure and selects cards (the rules of
  :mod:`~cardscript.runtime.effects.hoist`, whose :class:`~.hoist.Hoisted` it reuses), and
* is written the same way (the same classes and public fields, recursively), and
* would be computed more than once in a pass (it is written in two places, or in a card's
  hint, valued once per card): a part computed once anyway stays as written, as a memo
  would only add its lookups (one built-in game: 65 memos, 16 of them used more than once),

is one shared :class:`~.hoist.Hoisted`: computed at its first use while the options of
one decision are valued, remembered until the last. Shared parts nest: a sum of counts is
shared, and so is each of its counts. The state does not change while the
values are worked out (they are pure), and every hint of the game's own actions is read in
the window's context, so a remembered part has the value it would have had. The step
budget counts exactly as before: a remembered use adds the steps of its first computation.
The rewritten hints are private copies; the definition's trees (their IR) are unchanged.
"""

from __future__ import annotations

from typing import Any

from cardscript.runtime.effects import hoist as H
from cardscript.runtime.effects.base import Node


def _generic(node: Any) -> type:
    """The class ``node`` is planned as: a specialised variant (issue 11, part A) as its
    generic class, which has the same fields and behaviour."""
    t = type(node)
    return getattr(t, "_generic", None) or t


def shape(x: Any) -> Any:
    """A hashable key of ``x`` that two effect objects share when they are written the same
    way: the class and the public fields (``__slots__`` not starting with ``_``, as in the
    IR), recursively. An object of any other kind is only equal to itself."""
    if x is None or isinstance(x, (bool, int, str, float)):
        return x
    if isinstance(x, Node):
        fields: tuple[str, ...] = type(x).__slots__
        return (type(x), *(shape(getattr(x, f)) for f in fields if not f.startswith("_")))
    if isinstance(x, (list, tuple)):
        return (type(x), *(shape(i) for i in x))
    if isinstance(x, frozenset):
        return (frozenset, frozenset(shape(i) for i in x))
    return ("id", id(x))


class _Shapes:
    """:func:`shape` as small keys, for one plan's making: each distinct shape is numbered
    once (a key holds its class and its parts' keys, so it is hashed in one step), and each
    object's key is found once. A plan asks the shape of every part of every hint, and
    :func:`shape` of a part walks all of it again: one built-in game's long hints took most of the
    time of its first window. Two objects get the same key exactly when :func:`shape`
    gives them equal shapes (tests/test_action_index.py checks it for every part of every
    built-in game's hints). Objects are keyed by identity while the making lasts, so the
    objects keyed are kept alive until then."""

    __slots__ = ("known", "numbers", "scans")

    def __init__(self) -> None:
        self.known: dict[int, tuple[Any, Any]] = {}  # id(x) -> (x, its key)
        self.scans: dict[int, tuple[Any, bool]] = {}  # id(x) -> (x, x is shareable): see _shareable
        self.numbers: dict[tuple[Any, ...], tuple[Any, int]] = {}

    def key(self, x: Any) -> Any:
        if x is None or isinstance(x, (bool, int, str, float)):
            return x  # as shape(): the value itself
        seen = self.known.get(id(x))
        if seen is not None:
            return seen[1]
        flat: tuple[Any, ...]
        if isinstance(x, Node):
            fields: tuple[str, ...] = type(x).__slots__
            flat = (type(x), *(self.key(getattr(x, f)) for f in fields if not f.startswith("_")))
        elif isinstance(x, (list, tuple)):
            flat = (type(x), *(self.key(i) for i in x))
        elif isinstance(x, frozenset):
            flat = (frozenset, frozenset(self.key(i) for i in x))
        else:
            flat = ("id", id(x))
        key = self.numbers.get(flat)
        if key is None:
            key = self.numbers[flat] = (_Shapes, len(self.numbers))  # no shape() value is such a pair
        self.known[id(x)] = (x, key)
        return key


def _shareable(node: Any, shapes: _Shapes) -> bool:
    """``node`` may be one shared part: it reads no card being valued, is pure and selects
    cards (:func:`~.hoist._scan`; found once per object while a plan is made)."""
    seen = shapes.scans.get(id(node))
    if seen is None:
        scan = H._scan(node)
        seen = shapes.scans[id(node)] = (node, scan is not None and not scan[0] and scan[1])
    return seen[1]


def _uses(node: Any, uses: dict[Any, int], shapes: _Shapes) -> None:
    """Count in ``uses`` how often a pass computes each shareable part of ``node`` (by its
    :func:`shape`) when nothing is shared: a part met again is one computation more, and
    its own parts are counted once, at its first place (shared, it is computed once)."""
    if _shareable(node, shapes):
        key = shapes.key(node)
        uses[key] = uses.get(key, 0) + 1
        if uses[key] > 1:
            return
    fields = H._COMPOSITE.get(_generic(node))
    for slot in fields or ():
        value = getattr(node, slot)
        for v in value if isinstance(value, list) else (value,):
            _uses(v, uses, shapes)


def _share(node: Any, memos: dict[Any, H.Hoisted], uses: dict[Any, int], shapes: _Shapes) -> Any:
    """``node`` with its shareable parts that a pass would compute more than once
    (``uses``, from :func:`_uses`) replaced by the shared memo of their shape; a composite
    ('a + b', 'min(a, b)') is copied with its parts shared, and is a memo itself when it
    is used more than once, so its own parts are shared with the other places that use
    them too. A part used once stays as it is: a memo would only add its lookups."""
    fields = H._COMPOSITE.get(_generic(node))
    new = node
    if fields:
        copy = object.__new__(type(node))
        changed = False
        for slot in type(node).__slots__:
            value = getattr(node, slot)
            if slot in fields:
                if isinstance(value, list):
                    parts: Any = [_share(v, memos, uses, shapes) for v in value]
                    changed = changed or any(a is not b for a, b in zip(parts, value, strict=True))
                else:
                    parts = _share(value, memos, uses, shapes)
                    changed = changed or parts is not value
                value = parts
            object.__setattr__(copy, slot, value)
        if changed:
            new = copy
    if _shareable(node, shapes):
        key = shapes.key(node)
        if uses.get(key, 0) > 1:
            memo = memos.get(key)
            if memo is None:
                memo = memos[key] = H.Hoisted(new)
            return memo
    return new

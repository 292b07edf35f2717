"""A selector's ``where`` filter tested for the whole pool at once (issue 11), for its
most frequent shapes: ``ATTR of it OP E`` or ``ATTR of it for you OP E`` ("cost of it
for you <= your power"), where ``E`` reads no card, ``it is face up``, ``it is showing
"FACE"`` and ``it is yours`` (or ``not`` either) — alone, or as the first condition of
an ``and`` whose other conditions are tested per card on the cards it keeps.

Only a **pure** filter is planned so (:func:`~cardscript.runtime.effects.hoist._scan`:
no decision, no random pick, no refill), so the order in which its parts run for the
cards of one pass changes nothing but the order of the steps they count. ``E`` runs once
per pass and is charged the steps of running it for every card, as the per-card test
would have (:func:`pool_prefix` does the same). The
attribute is read straight from the card when no modifier, computed or static attribute
exists, else the pass takes the per-card test.
"""

from __future__ import annotations

import operator
from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import cardrules as R
from cardscript.runtime.effects import conditions as C
from cardscript.runtime.effects import expressions as X
from cardscript.runtime.game import Game

#: specialised Compare class -> its operator, with the attribute on the left
_OPS: dict[type, Any] = {
    C._Le: operator.le, C._Lt: operator.lt, C._Ge: operator.ge, C._Gt: operator.gt, C._Eq: operator.eq,
    C._Ne: operator.ne, C._LeK: operator.le, C._LtK: operator.lt, C._GeK: operator.ge, C._GtK: operator.gt,
    C._EqK: operator.eq, C._NeK: operator.ne,
}
_FOLDED = frozenset({C._LeK, C._LtK, C._GeK, C._GtK, C._EqK, C._NeK})
#: the pool tests that read no attribute (a part ``(None, test, arg, negate)``)
_FACE, _SHOWING, _OWNED = 0, 1, 2


class PoolFilter:
    """``rest`` of a planned filter (see the module doc). Not a
    :class:`~cardscript.runtime.effects.base.Node`: no part of any IR.

    ``cond``: the condition as the per-card test runs it; ``parts``: the leading
    conditions tested for the pool, each ``(attr, for_you, fn, other, k)`` for
    ``ATTR of it [for you] OP E`` (``other`` None when ``E`` is the constant ``k``) or
    ``(None, test, arg, negate)`` for ``it is face down|up`` (``_FACE``, arg: down),
    ``[not] it is showing "FACE"`` (``_SHOWING``, arg: the face) and ``[not] it is
    yours`` (``_OWNED``); ``tails[i]``: the conditions from part ``i`` on, as a per-card
    test (None: nothing left)."""

    __slots__ = ("cond", "parts", "tails")

    def __init__(self, cond: Any, parts: tuple[tuple[Any, ...], ...], tails: tuple[Any, ...]):
        self.cond, self.parts, self.tails = cond, parts, tails

    def keep(self, g: Game, ctx: Ctx, pool: list[int]) -> tuple[list[int], Any]:
        """The cards of ``pool`` (not empty) that pass the parts it can test for the
        pool, and the condition left to test per card on them (None: none). A part stops
        the pool test when an attribute modifier, a computed or a static attribute exists."""
        for i, part in enumerate(self.parts):
            if not pool:
                return pool, None
            if part[0] is None:
                test, arg, negate = part[1], part[2], part[3]
                if test == _FACE:
                    face_up = g.face_up
                    pool = [c for c in pool if face_up[c] != arg]
                elif test == _SHOWING:
                    fv = g.face_value
                    pool = [c for c in pool if (fv[c] == arg) != negate]
                else:  # _OWNED
                    owner, you = g.owner, ctx.you
                    pool = [c for c in pool if (owner[c] == you) != negate]
                continue
            attr, for_you, fn, other, k = part
            if g.computed_attrs or (for_you and (g.attr_mods or g.static_attrs)):
                return pool, self.tails[i]
            if other is not None:
                saved, ctx.it = ctx.it, pool[0]  # bound as for the per-card test's first card
                start = g.steps
                try:
                    k = other.evaluate(g, ctx)
                finally:
                    ctx.it = saved
                g.steps += (g.steps - start) * (len(pool) - 1)
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
            attrs = g.card_attrs
            if for_you:  # modified() with nothing to add: the printed number, a text as 0, never below 0
                out = []
                for c in pool:
                    v = attrs[c].get(attr, 0)
                    if fn(v if isinstance(v, int) and v > 0 else 0, k):
                        out.append(c)
                pool = out
            else:
                pool = [c for c in pool if fn(attrs[c].get(attr, 0), k)]
        return pool, self.tails[len(self.parts)]


def _part(cond: Any, tops: frozenset[int]) -> tuple[Any, ...] | None:
    """A condition as a pool test (see :class:`PoolFilter`), or None."""
    from cardscript.runtime.effects.hoist import Hoisted, _scan  # hoist imports selectors: imported when planning

    if type(cond) is C.FaceDown and cond._it:
        return None, _FACE, cond.down, False
    negate = type(cond) is C.Not
    test = cond.arg if negate else cond
    if type(test) in (C.Showing, C.Owned) and test.cards.kind == "it":
        return (None, _SHOWING, test.face, negate) if type(test) is C.Showing else (None, _OWNED, None, negate)
    fn = _OPS.get(type(cond))
    if fn is None:
        return None
    folded = type(cond) in _FOLDED
    side = cond._x if folded else cond.left
    other = None if folded else cond.right
    if type(side) is X.AttrOf and side._it:
        for_you = False
    elif type(side) is R.AttrFor and side._it_you:
        for_you = True
    else:
        return None
    if other is not None:
        scan = (False, True) if type(other) is Hoisted else _scan(other, tops)  # a hoisted part reads no card
        if scan is None or scan[0]:
            return None
    return side.attr, for_you, fn, other, cond._k


def pool_filter(original: Any, rest: Any, tops: frozenset[int] = frozenset()) -> Any:
    """``rest`` (the per-card part of a planned filter, hoisted parts in it) as a
    :class:`PoolFilter` when the filter is pure and begins with conditions of the shapes
    of the module doc, else ``rest`` itself. ``original`` is the filter as written,
    scanned for purity; ``tops``: the zones that never refill (see
    :func:`~cardscript.runtime.effects.hoist.plan_filter`)."""
    from cardscript.runtime.effects.hoist import _scan

    if rest is None or _scan(original, tops) is None:
        return rest
    args = list(rest.args) if isinstance(rest, C.And) else [rest]
    parts = []
    for a in args:
        part = _part(a, tops)
        if part is None:
            break
        parts.append(part)
    if not parts:
        return rest
    tails = tuple(None if i == len(args) else args[i] if i == len(args) - 1 else C.And(args[i:])
                  for i in range(len(parts) + 1))
    return PoolFilter(rest, tuple(parts), tails)


def pool_prefix(g: Game, ctx: Ctx, prefix: tuple, pool: list[int]) -> list[int]:
    """The pool, or no card, after the leading conjuncts of a filter that read no card
    (:func:`~cardscript.runtime.effects.hoist.plan_filter`): tested once, and charged the
    steps of testing them for every card, as the per-card test would have."""
    start = g.steps
    saved, ctx.it = ctx.it, pool[0]
    ok = True
    try:
        for cond in prefix:
            if not cond.test(g, ctx):
                ok = False
                break
    finally:
        ctx.it = saved
    g.steps += (g.steps - start) * (len(pool) - 1)
    if g.steps > g.step_limit:
        g.out_of_steps(ctx.this)
    return pool if ok else []


def where_pass(g: Game, ctx: Ctx, pool: list[int], prefix: tuple, rest: Any, hoisted: tuple) -> list[int]:
    """The cards of ``pool`` that pass a 'where' filter planned as ``(prefix, rest,
    hoisted)`` (:func:`~cardscript.runtime.effects.hoist.plan_filter`, then
    :func:`pool_filter`): a new list, or ``pool`` itself when nothing was tested per card."""
    # Conditions do not keep the context: bind 'it' in place and restore.
    if not pool:
        return pool
    saved = ctx.it
    if prefix:  # the leading conjuncts that read no card: tested once for the pool
        pool = pool_prefix(g, ctx, prefix, pool)
        if rest is None or not pool:
            return pool
    cond = rest
    keep = []
    for h in hoisted:
        h.have = False
    if type(cond) is PoolFilter:  # leading conditions for the whole pool
        pool, cond = cond.keep(g, ctx, pool)
        if cond is None or not pool:
            for h in hoisted:
                h.have = False
            return pool
    try:
        for c in pool:
            ctx.it = c
            if cond.test(g, ctx):
                keep.append(c)
    finally:
        ctx.it = saved
        for h in hoisted:
            h.have = False
    return keep

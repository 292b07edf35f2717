"""Compiled selectors and counts of a shape (see :mod:`cardscript.runtime.compiled` and
:mod:`cardscript.runtime.effects.counting`): each returns ``fn(g, ctx)`` giving the cards (or
how many) :func:`~cardscript.runtime.effects.counting.select_cards` (``count_cards``) gives."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled.compiler import CARDS, EXPRESSIONS, Compiler, rule
from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import counting
from cardscript.runtime.effects.base import NAMED_SCAN


def _fields(fused: tuple[tuple[str, Any, bool], ...]) -> tuple[Any, ...]:
    """A shape's fused field tests (``counting.Shape.fused``, at most two) as
    (getter, value, equal, value is the acting seat) per test, for :func:`_shaped`."""
    return tuple((attrgetter(field), None if x is counting._YOU else x, eq, x is counting._YOU)
                 for field, x, eq in fused)


def slot_cards(g: Any, ctx: Ctx, kind: int, zone: int) -> list[int]:
    """The cards of one source slot of a selector of a shape: 'your ZONE' (``_YOURS``), a
    shared zone (``_SHARED``), or the zone of the card bound to 'it' (``_ITS``; none while
    no card is bound)."""
    if kind == counting._YOURS:
        return g.slots[g.zone_base[zone] + ctx.you]
    if kind == counting._SHARED:
        return g.slots[g.zone_base[zone]]
    it = ctx.it
    return g.slots[g.zone_base[zone] + it] if it is not None else []


def _shaped(cx: Compiler, shape: Any, count: bool) -> Fn | None:
    """``fn(g, ctx)``: the candidates (``count``: how many) of a selector of a shape whose
    sources are a parameter or slots found by index and whose tests are at most two fused
    field tests, as :func:`~cardscript.runtime.effects.counting.select_cards`
    (:func:`~.counting.count_cards`) finds them: the sources read, their cards charged, the
    tests in one pass. None for another shape (its functions run)."""
    one, fused = shape.one, shape.fused
    by_index = (counting._YOURS, counting._SHARED, counting._ITS)
    if fused is None or (one is None and any(kind not in by_index for kind, _z, _a in shape.sources)):
        return None
    tests = _fields(fused)
    n = len(tests)
    (get1, x1, eq1, you1), (get2, x2, eq2, you2) = (tests + ((None, None, True, False),) * 2)[:2]
    named = bool(shape.name) and not count  # a few named cards of a large slot: by the index of names
    select = counting.select_cards
    holder = counting._Holder()  # the selector select_cards reads (its shape) for those
    holder._shape = shape
    kind, zone, arg = one if one is not None else (-1, -1, "")
    sources = shape.sources
    yours, shared, param = counting._YOURS, counting._SHARED, counting._PARAM

    def run(g: Any, ctx: Ctx) -> Any:
        if kind == param:
            pool = list(ctx.vars[arg]) if not count else ctx.vars[arg]
        elif kind >= 0:
            cards = slot_cards(g, ctx, kind, zone)
            if arg:
                pool = cards[-1:]
            elif count:
                pool = cards
            elif named and len(cards) > NAMED_SCAN:
                return select(holder, g, ctx)
            else:
                pool = cards[::-1]
        else:  # several sources, each slot from its top (a count: in any order)
            pool = []
            for k, z, top in sources:
                cards = slot_cards(g, ctx, k, z)
                if top:
                    pool += cards[-1:]
                else:
                    pool += cards if count else cards[::-1]
        g.steps += len(pool)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if not n:
            return len(pool) if count else pool
        a = get1(g)
        x = ctx.you if you1 else x1
        if n == 1:
            kept = [c for c in pool if a[c] == x] if eq1 else [c for c in pool if a[c] != x]
        else:
            b = get2(g)
            y = ctx.you if you2 else x2
            if eq1:
                kept = [c for c in pool if a[c] == x and b[c] == y] if eq2 else \
                    [c for c in pool if a[c] == x and b[c] != y]
            else:
                kept = [c for c in pool if a[c] != x and b[c] == y] if eq2 else \
                    [c for c in pool if a[c] != x and b[c] != y]
        return len(kept) if count else kept

    # The commonest shapes, written out (issue 11): the same pool, steps and tests as run's.
    if kind == param and not n and not count:
        def each_of_param(g: Any, ctx: Ctx) -> Any:
            pool = list(ctx.vars[arg])
            g.steps += len(pool)
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            return pool
        return each_of_param
    if count and not arg and kind in (yours, shared):
        of_you = kind == yours

        def count_slot(g: Any, ctx: Ctx) -> Any:
            cards = g.slots[g.zone_base[zone] + ctx.you] if of_you else g.slots[g.zone_base[zone]]
            g.steps += len(cards)
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            if not n:
                return len(cards)
            a = get1(g)
            x = ctx.you if you1 else x1
            if n == 1:
                return len([c for c in cards if a[c] == x]) if eq1 else len([c for c in cards if a[c] != x])
            b = get2(g)
            y = ctx.you if you2 else x2
            if eq1:
                return len([c for c in cards if a[c] == x and b[c] == y]) if eq2 else \
                    len([c for c in cards if a[c] == x and b[c] != y])
            return len([c for c in cards if a[c] != x and b[c] == y]) if eq2 else \
                len([c for c in cards if a[c] != x and b[c] != y])
        return count_slot
    return run


def any_in_slot(cx: Compiler, node: Any, none: bool) -> Fn | None:
    """``fn(g, ctx) -> bool``: whether 'count CARDS' (``node``, a count of a shape) is above 0
    (``none``: is 0), for a count of one slot ('your ZONE', a shared zone, the zone of the
    card bound to 'it') with at most two fused field tests: the same slot charged as the
    count's, its cards tested until the first that passes, not all of them counted. None for
    any other count."""
    if type(cx._planned(node)) is not counting._CountShape:
        return None
    shape = node._zone
    one, fused = shape.one, shape.fused
    if fused is None or one is None or one[2] or one[0] not in (counting._YOURS, counting._SHARED, counting._ITS):
        return None
    kind, zone, _arg = one
    of_you, shared = kind == counting._YOURS, kind == counting._SHARED
    tests = _fields(fused)
    n = len(tests)
    (get1, x1, eq1, you1), (get2, x2, eq2, you2) = (tests + ((None, None, True, False),) * 2)[:2]
    found, missing = not none, none

    def any_in(g: Any, ctx: Ctx) -> bool:
        if of_you:
            cards = g.slots[g.zone_base[zone] + ctx.you]
        elif shared:
            cards = g.slots[g.zone_base[zone]]
        else:
            cards = slot_cards(g, ctx, kind, zone)
        g.steps += len(cards)  # as the count charges its pool
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if not n:
            return found if cards else missing
        a = get1(g)
        x = ctx.you if you1 else x1
        if n == 1:
            if eq1:
                for c in cards:
                    if a[c] == x:
                        return found
            else:
                for c in cards:
                    if a[c] != x:
                        return found
            return missing
        b = get2(g)
        y = ctx.you if you2 else x2
        for c in cards:
            if (a[c] == x) is eq1 and (b[c] == y) is eq2:
                return found
        return missing
    return any_in


def shaped_candidates(cx: Compiler, sel: Any) -> Fn | None:
    """The candidates of a selector of a shape (``select_cards``) as :func:`_shaped` finds
    them, or None."""
    if type(sel) not in (counting._CardsShape, counting._CardsAllShape):
        return None
    return _shaped(cx, sel._shape, False) or _tested(cx, sel._shape, False)


@rule(CARDS, counting._CardsShape, counting._CardsAllShape)
def _cards_shape(cx: Compiler, sel: Any) -> Fn:
    """The candidates of a selector of a shape (``select_cards``); a choice among them, or
    N of them, as the selector's ``cards`` takes them."""
    if type(sel) is not counting._CardsAllShape:
        return sel.cards
    return _shaped(cx, sel._shape, False) or _tested(cx, sel._shape, False) or sel.cards


@rule(EXPRESSIONS, counting._CountShape)
def _count_shape(cx: Compiler, node: Any) -> Fn:
    """'count CARDS' of a selector of a shape (``count_cards``)."""
    return _shaped(cx, node._zone, True) or _tested(cx, node._zone, True) or node.evaluate


# ====================================================================== selectors of a shape, with tests
def where_pass(cx: Compiler, prefix: tuple[Any, ...], rest: Any, hoisted: tuple[Any, ...]) -> Any:
    """``keep(g, ctx, pool) -> list``: :func:`~cardscript.runtime.effects.pools.where_pass`
    of a 'where' filter planned as ``(prefix, rest, hoisted)``, its conditions compiled: the
    leading conjuncts that read no card tested once (and charged for every card), the parts
    the pool filter tests for the whole pool, then the rest per card with 'it' bound."""
    from cardscript.runtime.effects.pools import PoolFilter

    pre = tuple(cx.cond(c) for c in prefix)
    pool_filter = rest if type(rest) is PoolFilter else None
    tails = {id(t): cx.cond(t) for t in pool_filter.tails if t is not None} if pool_filter is not None else {}
    per_card = cx.cond(rest) if rest is not None and pool_filter is None else None

    def keep(g: Any, ctx: Ctx, pool: list[int]) -> list[int]:
        if not pool:
            return pool
        saved = ctx.it
        if pre:  # pools.pool_prefix
            start = g.steps
            ctx.it = pool[0]
            ok = True
            try:
                for f in pre:
                    if not f(g, ctx):
                        ok = False
                        break
            finally:
                ctx.it = saved
            g.steps += (g.steps - start) * (len(pool) - 1)
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            if not ok:
                return []
            if rest is None:
                return pool
        for h in hoisted:
            h.have = False
        test: Any = per_card
        if pool_filter is not None:
            pool, left = pool_filter.keep(g, ctx, pool)
            if left is None or not pool:
                for h in hoisted:
                    h.have = False
                return pool
            test = tails[id(left)]
        kept = []
        try:
            for c in pool:
                ctx.it = c
                if test(g, ctx):
                    kept.append(c)
        finally:
            ctx.it = saved
            for h in hoisted:
                h.have = False
        return kept
    return keep


def _test_pass(cx: Compiler, code: int, arg: Any) -> Any:
    """``keep(g, ctx, pool) -> list``: one test of ``counting._keep``."""
    K = counting
    if code == K._WHERE:
        return where_pass(cx, *arg)
    if code == K._SHOWS:
        return lambda g, ctx, pool: [c for c in pool if g.face_value[c] == arg]
    if code == K._SHOWS_NOT:
        return lambda g, ctx, pool: [c for c in pool if g.face_value[c] != arg]
    if code == K._MINE:
        return lambda g, ctx, pool: [c for c in pool if g.owner[c] == ctx.you]
    if code == K._NOT_MINE:
        return lambda g, ctx, pool: [c for c in pool if g.owner[c] != ctx.you]
    if code == K._FACE:
        return lambda g, ctx, pool: [c for c in pool if g.face_up[c] != arg]
    if code == K._WORDS:
        return lambda g, ctx, pool: [c for c in pool if not g.card_words[c].isdisjoint(arg)]
    if code == K._NO_WORDS:
        return lambda g, ctx, pool: [c for c in pool if g.card_words[c].isdisjoint(arg)]
    return lambda g, ctx, pool: K._keep(g, ctx, pool, ((code, arg),))  # a type parameter, other names


def _tested(cx: Compiler, shape: Any, count: bool) -> Fn | None:
    """``fn(g, ctx)``: the candidates (``count``: how many) of a selector of a shape with
    one source by index (or a parameter) and tests that are not all fused field tests, as
    :func:`~cardscript.runtime.effects.counting.select_cards` (``count_cards``) finds them,
    each test compiled (:func:`_test_pass`); None for several sources."""
    one = shape.one
    if one is None or shape.fused is not None:
        return None
    kind, zone, arg = one
    name, named = shape.name, bool(shape.name)
    passes = tuple(_test_pass(cx, code, a) for code, a in shape.tests)
    pure_count = count and shape.pure  # counting._count_many: the slot as it lies, in any order
    select = counting.select_cards
    holder = counting._Holder()
    holder._shape = shape
    param = counting._PARAM

    def run(g: Any, ctx: Ctx) -> Any:
        if kind == param:
            pool = list(ctx.vars[arg]) if not pure_count else ctx.vars[arg]
        else:
            cards = slot_cards(g, ctx, kind, zone)
            if arg:
                pool = cards[-1:]
            elif pure_count:
                pool = cards
            elif named and len(cards) > NAMED_SCAN:
                got = select(holder, g, ctx)
                return len(got) if count else got
            else:
                pool = cards[::-1]
        g.steps += len(pool)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if named:
            names = g.card_names
            pool = [c for c in pool if names[c] == name]
        for keep in passes:
            pool = keep(g, ctx, pool)
        return len(pool) if count else pool
    return run

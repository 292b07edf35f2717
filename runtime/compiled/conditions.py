"""Compiled conditions (see :mod:`cardscript.runtime.compiled`): each rule returns
``fn(g, ctx) -> bool`` doing what the condition's ``test`` does."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled.compiler import CONDITIONS, Compiler, rule
from cardscript.runtime.compiled.expressions import your_counter
from cardscript.runtime.compiled.shapes import any_in_slot
from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import cardrules as R
from cardscript.runtime.effects import conditions as C
from cardscript.runtime.effects import selectors as S


# ====================================================================== comparisons
def _compare(op: str, x: Fn, k: Any) -> Fn:
    """``x(g, ctx) OP k`` for a constant ``k``."""
    if op == "<=":
        return lambda g, ctx: x(g, ctx) <= k
    if op == "<":
        return lambda g, ctx: x(g, ctx) < k
    if op == ">=":
        return lambda g, ctx: x(g, ctx) >= k
    if op == ">":
        return lambda g, ctx: x(g, ctx) > k
    if op == "==":
        return lambda g, ctx: x(g, ctx) == k
    return lambda g, ctx: x(g, ctx) != k


def _compare_counter(op: str, counter: int, k: Any) -> Fn:
    """'your C OP k' of a counter read by index (:func:`~.expressions.your_counter`)."""
    if op == "<=":
        return lambda g, ctx: g.values[g.counter_base[counter] + ctx.you] <= k
    if op == "<":
        return lambda g, ctx: g.values[g.counter_base[counter] + ctx.you] < k
    if op == ">=":
        return lambda g, ctx: g.values[g.counter_base[counter] + ctx.you] >= k
    if op == ">":
        return lambda g, ctx: g.values[g.counter_base[counter] + ctx.you] > k
    if op == "==":
        return lambda g, ctx: g.values[g.counter_base[counter] + ctx.you] == k
    return lambda g, ctx: g.values[g.counter_base[counter] + ctx.you] != k


def _compare2(op: str, a: Fn, b: Fn) -> Fn:
    """``a(g, ctx) OP b(g, ctx)``, left side first."""
    if op == "<=":
        return lambda g, ctx: a(g, ctx) <= b(g, ctx)
    if op == "<":
        return lambda g, ctx: a(g, ctx) < b(g, ctx)
    if op == ">=":
        return lambda g, ctx: a(g, ctx) >= b(g, ctx)
    if op == ">":
        return lambda g, ctx: a(g, ctx) > b(g, ctx)
    if op == "==":
        return lambda g, ctx: a(g, ctx) == b(g, ctx)
    return lambda g, ctx: a(g, ctx) != b(g, ctx)


#: (operator, constant) comparing a count with 0 -> whether it asks for no card at all
_ANY = {(">", 0): False, (">=", 1): False, ("!=", 0): False, ("==", 0): True, ("<", 1): True, ("<=", 0): True}
_MIRROR = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "==", "!=": "!="}
_PLAIN = {C._Le: "<=", C._Lt: "<", C._Ge: ">=", C._Gt: ">", C._Eq: "==", C._Ne: "!="}
_FOLDED = {C._LeK: "<=", C._LtK: "<", C._GeK: ">=", C._GtK: ">", C._EqK: "==", C._NeK: "!="}


@rule(CONDITIONS, C.Compare, *_PLAIN, *_FOLDED)
def _comparison(cx: Compiler, node: Any) -> Fn:
    """:meth:`Compare.test` and its variants: a side written as a constant folded (the
    variant's ``_x`` and ``_k``), 'your C' read by index."""
    t = type(node)
    if t in _FOLDED:
        op, k = _FOLDED[t], node._k
        counter = your_counter(cx, node._x)
        if counter is not None:
            return _compare_counter(op, counter, k)
        # a count compared with 0 (a whole number, never negative) asks whether any card passes
        if type(k) is int and (op, k) in _ANY:
            found = any_in_slot(cx, node._x, _ANY[op, k])
            if found is not None:
                return found
        return _compare(op, cx.expr(node._x), k)
    if t in _PLAIN:
        return _compare2(_PLAIN[t], cx.expr(node.left), cx.expr(node.right))
    return node.test  # the generic class (never built by the lowering)


# ====================================================================== logic
@rule(CONDITIONS, C.And, C._And1, C._And2)
def _and(cx: Compiler, node: Any) -> Fn:
    """:meth:`And.test` (left to right, the first false ends it)."""
    args = [cx.cond(a) for a in node._args]
    if len(args) == 1:
        a = args[0]
        return lambda g, ctx: True if a(g, ctx) else False  # noqa: SIM210 - a bool, no call
    if len(args) == 2:
        a, b = args
        nb = type(node._args[1]) is C.Not
        if nb:  # 'A and not B': B's own test, negated here (one call fewer)
            b = cx.cond(node._args[1].arg)
            return lambda g, ctx: True if a(g, ctx) and not b(g, ctx) else False  # noqa: SIM210
        return lambda g, ctx: True if a(g, ctx) and b(g, ctx) else False  # noqa: SIM210
    if len(args) == 3:
        a, b, c = args
        return lambda g, ctx: True if a(g, ctx) and b(g, ctx) and c(g, ctx) else False  # noqa: SIM210
    every = tuple(args)

    def test(g: Any, ctx: Ctx) -> bool:
        for f in every:  # noqa: SIM110 - no generator
            if not f(g, ctx):
                return False
        return True
    return test


@rule(CONDITIONS, C.Or, C._Or1, C._Or2)
def _or(cx: Compiler, node: Any) -> Fn:
    """:meth:`Or.test` (left to right, the first true ends it)."""
    args = [cx.cond(a) for a in node._args]
    if len(args) == 1:
        a = args[0]
        return lambda g, ctx: True if a(g, ctx) else False  # noqa: SIM210
    if len(args) == 2:
        a, b = args
        return lambda g, ctx: True if a(g, ctx) or b(g, ctx) else False  # noqa: SIM210
    some = tuple(args)

    def test(g: Any, ctx: Ctx) -> bool:
        for f in some:  # noqa: SIM110 - no generator
            if f(g, ctx):
                return True
        return False
    return test


@rule(CONDITIONS, C.Not)
def _not(cx: Compiler, node: Any) -> Fn:
    """:meth:`Not.test`."""
    a = cx.cond(node.arg)
    return lambda g, ctx: not a(g, ctx)


# ====================================================================== marks
def player_marked(mark: str, this_turn: bool) -> Fn:
    """``g.player_marked(ctx, mark, player, this_turn)`` written out: a mark of the turn, or
    of the effect's frames, or a static mark of a passive ability in play."""
    key = ("p", mark)
    static_key = (mark, this_turn)
    if this_turn:
        def marked_turn(g: Any, ctx: Ctx, player: int) -> bool:
            if player in g.turn_pmarks.get(mark, ()):
                return True
            sm = g.static_marks
            return bool(sm) and static_key in sm and g.static_marked(mark, player, this_turn)
        return marked_turn

    def marked(g: Any, ctx: Ctx, player: int) -> bool:
        for f in ctx.frames:
            if player in f.get(key, ()):
                return True
        sm = g.static_marks
        return bool(sm) and static_key in sm and g.static_marked(mark, player, this_turn)
    return marked


@rule(CONDITIONS, C.PlayerMarked)
def _player_mark(cx: Compiler, node: Any) -> Fn:
    """:meth:`PlayerMarked.test`: every selected player carries the mark (and there is one)."""
    marked = player_marked(node.mark, node.this_turn)
    mark, static_key = node.mark, (node.mark, node.this_turn)
    if node._you and node.this_turn:  # 'you are marked "M" this turn': player_marked's test inline
        def you_this_turn(g: Any, ctx: Ctx) -> bool:
            if ctx.you in g.turn_pmarks.get(mark, ()):
                return True
            sm = g.static_marks
            return bool(sm) and static_key in sm and g.static_marked(mark, ctx.you, True)
        return you_this_turn
    if node._them:
        return lambda g, ctx: marked(g, ctx, ctx.them if ctx.them is not None else ctx.you)
    if node._you:
        return lambda g, ctx: marked(g, ctx, ctx.you)
    players = cx.players(node.players)

    def test(g: Any, ctx: Ctx) -> bool:
        ps = players(g, ctx)
        if not ps:
            return False
        for p in ps:  # noqa: SIM110 - no generator
            if not marked(g, ctx, p):
                return False
        return True
    return test


@rule(CONDITIONS, C.CardMarked)
def _card_mark(cx: Compiler, node: Any) -> Fn:
    """:meth:`CardMarked.test`: every selected card carries the mark (and there is one)."""
    mark, this_turn = node.mark, node.this_turn
    key = ("c", mark)
    if this_turn:
        def marked(g: Any, ctx: Ctx, card: int) -> bool:
            return card in g.turn_cmarks.get(mark, ())
    else:
        def marked(g: Any, ctx: Ctx, card: int) -> bool:
            for f in ctx.frames:  # noqa: SIM110 - no generator
                if card in f.get(key, ()):
                    return True
            return False
    if node._it:
        if this_turn:
            def test_it_turn(g: Any, ctx: Ctx) -> bool:
                it = ctx.it
                return it is not None and it in g.turn_cmarks.get(mark, ())
            return test_it_turn
        return lambda g, ctx: ctx.it is not None and marked(g, ctx, ctx.it)
    return every(cx.cards(node.cards), marked)


@rule(CONDITIONS, C.AnyFoeMarked)
def _any_foe_marked(cx: Compiler, node: Any) -> Fn:
    """:meth:`AnyFoeMarked.test`."""
    marked = player_marked(node.mark, node.this_turn)

    def test(g: Any, ctx: Ctx) -> bool:
        for p in g.foes(ctx.you):  # noqa: SIM110 - no generator
            if marked(g, ctx, p):
                return True
        return False
    return test


# ====================================================================== cards and zones
@rule(CONDITIONS, C.FaceDown)
def _face_down(cx: Compiler, node: Any) -> Fn:
    """:meth:`FaceDown.test`."""
    down = node.down
    if node._it:
        return lambda g, ctx: ctx.it is not None and g.face_up[ctx.it] != down
    cards = cx.cards(node.cards)

    def test(g: Any, ctx: Ctx) -> bool:
        cs = cards(g, ctx)
        if not cs:
            return False
        up = g.face_up
        for c in cs:  # noqa: SIM110 - no generator
            if up[c] == down:
                return False
        return True
    return test


@rule(CONDITIONS, C.Did)
def _did(cx: Compiler, node: Any) -> Fn:
    """:meth:`Did.test`."""
    if node.negate:
        return lambda g, ctx: not ctx.did > 0
    return lambda g, ctx: ctx.did > 0


@rule(CONDITIONS, C.Affected)
def _affected(cx: Compiler, node: Any) -> Fn:
    """:meth:`Affected.test`."""
    players = cx.players(node.players)
    negate = node.negate

    def test(g: Any, ctx: Ctx) -> bool:
        since, touched = ctx.since, g.touched
        for p in players(g, ctx):
            if touched[p] > since:
                return not negate
        return negate
    return test


@rule(CONDITIONS, C.ZoneEmpty)
def _zone_empty(cx: Compiler, node: Any) -> Fn:
    """:meth:`ZoneEmpty.test`."""
    one = node._one
    if one == "you":
        z = node.zone.zone
        return lambda g, ctx: not g.slots[g.zone_base[z] + ctx.you]
    if one == "shared":
        z = node.zone.zone
        return lambda g, ctx: not g.slots[g.zone_base[z]]
    return node.test


@rule(CONDITIONS, C.HasWord)
def _has_word(cx: Compiler, node: Any) -> Fn:
    """:meth:`HasWord.test`: 'it has W' as a set test; 'CARDS have W': every selected card
    (and there is one) has one of the words."""
    words = node.words
    if node.cards.kind != "it":
        cards = cx.cards(node.cards)
        wanted_any = frozenset(words)

        def test_cards(g: Any, ctx: Ctx) -> bool:
            cs = cards(g, ctx)
            if not cs:
                return False
            cw = g.card_words
            for c in cs:  # noqa: SIM110 - no generator
                if wanted_any.isdisjoint(cw[c]):
                    return False
            return True
        return test_cards
    if type(node.cards) is not S._CardsIt:
        return node.test
    if len(words) == 1:
        w = words[0]
        return lambda g, ctx: ctx.it is not None and w in g.card_words[ctx.it]
    wanted = frozenset(words)
    return lambda g, ctx: ctx.it is not None and not wanted.isdisjoint(g.card_words[ctx.it])


@rule(CONDITIONS, C.Showing)
def _showing(cx: Compiler, node: Any) -> Fn:
    """:meth:`Showing.test`: the die 'it', or every selected die (and there is one), shows the face."""
    face = node.face
    if node.cards.kind != "it":
        cards = cx.cards(node.cards)

        def test_cards(g: Any, ctx: Ctx) -> bool:
            cs = cards(g, ctx)
            if not cs:
                return False
            fv = g.face_value
            for c in cs:  # noqa: SIM110 - no generator
                if fv[c] != face:
                    return False
            return True
        return test_cards
    if type(node.cards) is not S._CardsIt:
        return node.test
    return lambda g, ctx: ctx.it is not None and g.face_value[ctx.it] == face


@rule(CONDITIONS, C.Owned, C.HasHome, R.IsThis)
def _every_card(cx: Compiler, node: Any) -> Fn:
    """:meth:`_EveryCard.test <cardscript.runtime.effects.conditions._EveryCard.test>` of 'it is
    yours', 'it has a home', 'it is this card': every selected card (and there is one) holds."""
    t = _generic(node)
    if t is C.Owned:
        def holds(g: Any, ctx: Ctx, card: int) -> bool:
            return g.owner[card] == ctx.you
    elif t is C.HasHome:
        homes = [ct.home >= 0 for ct in cx.d.cards]

        def holds(g: Any, ctx: Ctx, card: int) -> bool:
            return homes[g.card_type[card]]
    else:
        def holds(g: Any, ctx: Ctx, card: int) -> bool:
            return card == ctx.this
    if node.cards.kind == "it":
        return lambda g, ctx: ctx.it is not None and holds(g, ctx, ctx.it)
    return every(cx.cards(node.cards), holds)


def every(cards: Fn, holds: Any) -> Fn:
    """``test(g, ctx)``: the cards ``cards(g, ctx)`` selects are at least one, and each
    ``holds(g, ctx, card)`` (a condition on CARDS of a per-card test)."""
    def test(g: Any, ctx: Ctx) -> bool:
        cs = cards(g, ctx)
        if not cs:
            return False
        for c in cs:  # noqa: SIM110 - no generator
            if not holds(g, ctx, c):
                return False
        return True
    return test


def _generic(node: Any) -> type:
    return getattr(type(node), "_generic", None) or type(node)

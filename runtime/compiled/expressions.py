"""Compiled expressions and selectors (see :mod:`cardscript.runtime.compiled`): each rule
returns ``fn(g, ctx)`` giving what the node's ``evaluate``, ``cards`` or ``players`` gives."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled.compiler import CARDS, EXPRESSIONS, NOT_CONST, PLAYERS, Compiler, rule
from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import cardrules as R
from cardscript.runtime.effects import expressions as X
from cardscript.runtime.effects import selectors as S


def your_counter(cx: Compiler, node: Any) -> int | None:
    """The counter of 'your C' when it is read as a list index (a per-player counter no
    passive ability adds to: :meth:`CounterValue.evaluate`'s first case), else None."""
    if type(node) is not X.CounterValue or not node._your:
        return None
    c = node.counter
    if cx.d.counters[c].per_player and c not in cx.d.passive_counters:
        return c
    return None


# ====================================================================== numbers
@rule(EXPRESSIONS, X.Const)
def _const(cx: Compiler, node: Any) -> Fn:
    """:meth:`Const.evaluate`."""
    value = node.value
    return lambda g, ctx: value


@rule(EXPRESSIONS, X.Text)
def _text(cx: Compiler, node: Any) -> Fn:
    """:meth:`Text.evaluate`."""
    text = node.text
    return lambda g, ctx: text


@rule(EXPRESSIONS, X.Var)
def _var(cx: Compiler, node: Any) -> Fn:
    """:meth:`Var.evaluate`."""
    name = node.name
    return lambda g, ctx: ctx.vars[name]


@rule(EXPRESSIONS, X.Arith)
def _arith(cx: Compiler, node: Any) -> Fn:
    """:meth:`Arith.evaluate`: both sides evaluated (left first), then the operator."""
    a, b = cx.expr(node.left), cx.expr(node.right)
    kb = cx.const(node.right)
    o = node.operator
    if o == "+":
        if kb is not NOT_CONST:
            return lambda g, ctx: a(g, ctx) + kb
        return lambda g, ctx: a(g, ctx) + b(g, ctx)
    if o == "-":
        if kb is not NOT_CONST:
            return lambda g, ctx: a(g, ctx) - kb
        return lambda g, ctx: a(g, ctx) - b(g, ctx)
    return node.evaluate  # '/', 'mod', '*': as written


@rule(EXPRESSIONS, X.MinMax)
def _min_max(cx: Compiler, node: Any) -> Fn:
    """:meth:`MinMax.evaluate`."""
    a, b = cx.expr(node.left), cx.expr(node.right)
    if node.op == "max":
        return lambda g, ctx: max(a(g, ctx), b(g, ctx))
    return lambda g, ctx: min(a(g, ctx), b(g, ctx))


@rule(EXPRESSIONS, X.CountSeats)
def _count_seats(cx: Compiler, node: Any) -> Fn:
    """:meth:`CountSeats.evaluate`."""
    return lambda g, ctx: g.n


@rule(EXPRESSIONS, X.CounterValue)
def _counter_value(cx: Compiler, node: Any) -> Fn:
    """:meth:`CounterValue.evaluate`: 'your C' by index when no passive ability adds to it."""
    c = your_counter(cx, node)
    if c is not None:
        return lambda g, ctx: g.values[g.counter_base[c] + ctx.you]
    counter, owner = node.counter, node.owner
    if node._your:
        return lambda g, ctx: g.get(counter, ctx.you)
    if owner == "you":
        def whose(ctx: Ctx) -> int:
            return ctx.you
    elif owner == "them":
        def whose(ctx: Ctx) -> int:
            return ctx.them if ctx.them is not None else ctx.you
    else:
        def whose(ctx: Ctx) -> int:
            return 0
    if counter == -1:  # seat
        return lambda g, ctx: whose(ctx) + 1
    if counter == -2:  # turn order
        return lambda g, ctx: (whose(ctx) - g.first_player) % g.n + 1
    if owner == "them":
        return lambda g, ctx: g.get(counter, ctx.them if ctx.them is not None else ctx.you)
    return lambda g, ctx: g.get(counter, whose(ctx))


@rule(EXPRESSIONS, X.AttrOf)
def _attr_of(cx: Compiler, node: Any) -> Fn:
    """:meth:`AttrOf.evaluate`: the printed attribute of 'it' (no computed attribute)."""
    attr = node.attr
    if node._it and attr not in cx.g.computed_attrs:
        def value(g: Any, ctx: Ctx) -> Any:
            it = ctx.it
            return g.card_attrs[it].get(attr, 0) if it is not None else 0
        return value
    return node.evaluate


@rule(EXPRESSIONS, R.AttrFor)
def _attr_for(cx: Compiler, node: Any) -> Fn:
    """:meth:`AttrFor.evaluate`: 'ATTR of it for you' is the printed number (at least 0)
    while no modifier, computed or static attribute applies."""
    if not node._it_you:
        return node.evaluate
    attr = node.attr
    modified = R.modified

    def value(g: Any, ctx: Ctx) -> int:
        it = ctx.it
        if it is None:
            return 0
        if g.attr_mods or g.computed_attrs or g.static_attrs:
            return modified(g, attr, ctx.you, it)
        v = g.card_attrs[it].get(attr, 0)
        return v if isinstance(v, int) and v > 0 else 0
    return value


# ====================================================================== selectors
@rule(CARDS, S._CardsIt)
def _cards_it(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_CardsIt.cards`."""
    return lambda g, ctx: [ctx.it] if ctx.it is not None else []


@rule(CARDS, S._CardsThis)
def _cards_this(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_CardsThis.cards`."""
    return lambda g, ctx: [ctx.this] if ctx.this is not None else []


@rule(PLAYERS, S._You)
def _you(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_You.players`."""
    return lambda g, ctx: [ctx.you]


@rule(PLAYERS, S._Them)
def _them(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_Them.players`."""
    return lambda g, ctx: [ctx.them if ctx.them is not None else ctx.you]


@rule(PLAYERS, S._EachFoe)
def _each_foe(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_EachFoe.players`."""
    return lambda g, ctx: g.foes(ctx.you)


@rule(PLAYERS, S._EachPlayer)
def _each_player(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_EachPlayer.players`."""
    return lambda g, ctx: g.everyone()


@rule(PLAYERS, S._ParamPlayers)
def _param_players(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_ParamPlayers.players`."""
    param = sel.param
    return lambda g, ctx: list(ctx.vars[param])

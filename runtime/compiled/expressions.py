"""Compiled expressions and selectors (see :mod:`cardscript.runtime.compiled`): each rule
returns ``fn(g, ctx)`` giving what the node's ``evaluate``, ``cards`` or ``players`` gives."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled.compiler import CARDS, EXPRESSIONS, NOT_CONST, PLAYERS, ZONES, Compiler, rule
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
    """:meth:`Var.evaluate`: a parameter of a call run inline bound to a constant is that constant."""
    k = cx.const(node)
    if k is not NOT_CONST:
        return lambda g, ctx: k
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
    """:meth:`AttrOf.evaluate`: a printed attribute (no computed one) of 'it', or of the
    first selected card ('cost of the top card of the ZONE'), 0 for none; its
    printed name; the face a die shows."""
    attr = node.attr
    if attr in cx.g.computed_attrs:
        return node.evaluate
    if node._it:
        def value(g: Any, ctx: Ctx) -> Any:
            it = ctx.it
            return g.card_attrs[it].get(attr, 0) if it is not None else 0
        return value
    cards = cx.cards(node.card)
    if attr == "name":
        names = [ct.printed or ct.name for ct in cx.d.cards]

        def name(g: Any, ctx: Ctx) -> Any:
            cs = cards(g, ctx)
            return names[g.card_type[cs[0]]] if cs else 0
        return name
    if attr == "face":
        def face(g: Any, ctx: Ctx) -> Any:
            cs = cards(g, ctx)
            return (g.face_value[cs[0]] or "") if cs else 0
        return face

    top = _top_card(cx, node.card)
    if top is not None:  # 'ATTR of the top card of ZONE': the slot's last card, no list
        z, mine = top

        def of_top(g: Any, ctx: Ctx) -> Any:
            s = g.zone_base[z] + ctx.you if mine else g.zone_base[z]
            if not g.slots[s]:  # what _CardsTop.cards asks of ensure() first
                g.ensure(s, 1, False)
            pile = g.slots[s]
            return g.card_attrs[pile[-1]].get(attr, 0) if pile else 0
        return of_top

    def first(g: Any, ctx: Ctx) -> Any:
        cs = cards(g, ctx)
        return g.card_attrs[cs[0]].get(attr, 0) if cs else 0
    return first


def _top_card(cx: Compiler, sel: Any) -> tuple[int, bool] | None:
    """(zone, of 'you') when ``sel`` is 'the top card of' one 'your ZONE' or shared zone
    (``_CardsTop`` of one such source, 1 written), else None."""
    if type(sel) is not S._CardsTop or cx.const(sel.count) != 1:
        return None
    src = sel._source if sel._source is not S._UNPLANNED else sel._plan_source(cx.g)
    if src is None or len(src) != 1:
        return None
    return src[0][0], src[0][1]


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
    """:meth:`_EachPlayer.players`: every seat clockwise from the active player (MarkOps.everyone)."""
    return lambda g, ctx: list(g.seats_from[g.active])


@rule(PLAYERS, S.Players)
def _players(cx: Compiler, sel: Any) -> Fn:
    """:meth:`Players.players` of 'you', 'them', 'each foe', 'each player' or a parameter
    with mark filters ('each foe in T not marked "avoided"'): the players, then each filter
    keeps those with (without) the mark. Any other kind runs the object."""
    from cardscript.runtime.compiled.conditions import player_marked

    kind = sel.kind
    if type(sel) is not S.Players or kind not in ("you", "them", "each foe", "each player", "param", "foe in"):
        return sel.players
    param = sel.param
    filters = tuple((player_marked(mark, this_turn), negate) for mark, this_turn, negate in sel.filters)

    def players(g: Any, ctx: Ctx) -> list[int]:
        if kind == "you":
            out = [ctx.you]
        elif kind == "them":
            out = [ctx.them if ctx.them is not None else ctx.you]
        elif kind == "each foe":
            out = g.foes(ctx.you)
        elif kind == "each player":
            out = g.everyone()
        else:
            out = list(ctx.vars[param])
        for marked, negate in filters:
            out = [p for p in out if marked(g, ctx, p) != negate]
        return out
    return players


@rule(PLAYERS, S._ParamPlayers)
def _param_players(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_ParamPlayers.players`."""
    param = sel.param
    return lambda g, ctx: list(ctx.vars[param])


@rule(CARDS, S._CardsTop)
def _cards_top(cx: Compiler, sel: Any) -> Fn:
    """:meth:`_CardsTop.cards`: 'the top N cards of ZONE' of one 'your ZONE' or shared zone,
    N written in the script: the slot by index, refilled when it holds fewer."""
    src = sel._source if sel._source is not S._UNPLANNED else sel._plan_source(cx.g)
    k = cx.const(sel.count)
    if src is None or len(src) != 1 or not isinstance(k, int):
        return sel.cards
    z, mine, _top = src[0]
    if k <= 0:
        return lambda g, ctx: []
    if k == 1:
        def top(g: Any, ctx: Ctx) -> list[int]:
            s = g.zone_base[z] + ctx.you if mine else g.zone_base[z]
            if not g.slots[s]:  # what ensure() tests first
                g.ensure(s, 1, False)
            return g.slots[s][-1:]
        return top

    def tops(g: Any, ctx: Ctx) -> list[int]:
        s = g.zone_base[z] + ctx.you if mine else g.zone_base[z]
        if len(g.slots[s]) < k:
            g.ensure(s, k, False)
        return g.slots[s][-1:-k - 1:-1]  # the top k, top first
    return tops


# ====================================================================== zones
@rule(ZONES, S.ZoneRef, S._YourZone, S._SharedZone, S._ItsZone)
def _zone_ref(cx: Compiler, node: Any) -> Fn:
    """:meth:`ZoneRef.slots` (and its variants): the slots a zone reference names."""
    zone, o = node.zone, node.owner
    if o == "shared":
        return lambda g, ctx: [g.zone_base[zone]]
    if o == "you":
        return lambda g, ctx: [g.zone_base[zone] + ctx.you]
    if o == "them":
        return lambda g, ctx: [g.zone_base[zone] + (ctx.them if ctx.them is not None else ctx.you)]
    per_player = cx.d.zones[zone].per_player
    if o == "of":
        players = cx.players(node.players)
        if per_player:
            return lambda g, ctx: [g.zone_base[zone] + p for p in players(g, ctx)]
        return lambda g, ctx: [g.zone_base[zone] for _p in players(g, ctx)]
    if o == "card":
        if type(node) is S._ItsZone:
            return lambda g, ctx: [g.zone_base[zone] + ctx.it] if ctx.it is not None else []
        cards = cx.cards(node.players)
        return lambda g, ctx: [g.zone_base[zone] + c for c in cards(g, ctx)]
    return node.slots  # 'its owner's', 'its home': as the object finds them


@rule(EXPRESSIONS, X.SumAttr)
def _sum_attr(cx: Compiler, node: Any) -> Fn:
    """:meth:`SumAttr.evaluate`: 'sum of ATTR of CARDS' of a printed attribute."""
    attr = node.attr
    if attr in cx.g.computed_attrs:
        return node.evaluate
    cards = cx.cards(node.cards)

    def value(g: Any, ctx: Ctx) -> int:
        attrs = g.card_attrs
        total = 0
        for c in cards(g, ctx):
            v = attrs[c].get(attr, 0)
            if isinstance(v, int):  # as_number: a text is 0
                total += v
        return total
    return value

"""Selectors: zone references (``slots(g, ctx)``), players (``players(g, ctx)``) and
cards (``cards(g, ctx)``), and :func:`choose_cards`, which asks a player to pick cards."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.decision import Decision
from cardscript.runtime.effects.base import NAMED_SCAN, Node, as_number, card_has, named_in, specialised
from cardscript.runtime.effects.expressions import Const
from cardscript.runtime.effects.pools import where_pass
from cardscript.runtime.game import Game


# ====================================================================== zones
class ZoneRef(Node):
    """owner: you | them | shared | owner (of the bound card) | home (of the bound card) | of
    (``players`` selects whose) | card (a per-card zone; ``players`` holds the card selector)."""

    __slots__ = ("owner", "players", "zone")

    def __new__(cls, owner: str, zone: int, players: Any = None) -> ZoneRef:
        if cls is not ZoneRef:
            return object.__new__(cls)
        if owner == "card" and type(players) is _CardsIt:
            return object.__new__(_ItsZone)
        return object.__new__(_YourZone if owner == "you" else _SharedZone if owner == "shared" else ZoneRef)

    def __init__(self, owner: str, zone: int, players: Any = None):
        self.owner, self.zone, self.players = owner, zone, players

    def slots(self, g: Game, ctx: Ctx) -> list[int]:
        o = self.owner
        if o == "shared":
            return [g.zone_base[self.zone]]
        if o == "you":
            return [g.zone_base[self.zone] + ctx.you]
        if o == "them":
            return [g.zone_base[self.zone] + (ctx.them if ctx.them is not None else ctx.you)]
        if o == "of":
            return [g.slot(self.zone, p) for p in self.players.players(g, ctx)]
        if o == "card":
            return [g.zone_base[self.zone] + c for c in self.players.cards(g, ctx)]
        card = ctx.it
        if card is None:
            return []
        if o == "owner":
            owner = g.owner[card]
            return [g.slot(self.zone, owner if owner >= 0 else ctx.you)]
        home = g.d.cards[g.card_type[card]].home
        return [g.slot(home, ctx.you)] if home >= 0 else []


@specialised
class _YourZone(ZoneRef):
    """'your ZONE'."""

    def slots(self, g: Game, ctx: Ctx) -> list[int]:
        return [g.zone_base[self.zone] + ctx.you]


@specialised
class _SharedZone(ZoneRef):
    """A shared zone: its one slot."""

    def slots(self, g: Game, ctx: Ctx) -> list[int]:
        return [g.zone_base[self.zone]]


@specialised
class _ItsZone(ZoneRef):
    """A per-card zone of the bound card ('the markers of it'): its slot, no selector call."""

    def slots(self, g: Game, ctx: Ctx) -> list[int]:
        it = ctx.it
        return [g.zone_base[self.zone] + it] if it is not None else []


class ZoneParam(Node):
    """A {Z: zone} parameter: the slots the caller's zone reference named."""

    __slots__ = ("name", "owner")

    def __init__(self, name: str):
        self.name, self.owner = name, "param"

    def slots(self, g: Game, ctx: Ctx) -> list[int]:
        return list(ctx.vars[self.name])


# ====================================================================== players
class Players(Node):
    """kind: you | them | target foe | each foe | each player | left | right | their left |
    their right | param | foe in.
    filters: (mark, this_turn, negate) triples."""

    __slots__ = ("filters", "kind", "param")

    def __new__(cls, kind: str, param: str = "", filters: tuple = ()) -> Players:
        if cls is not Players or filters:
            return object.__new__(cls)
        return object.__new__(_You if kind == "you" else _EachFoe if kind == "each foe" else
                              _EachPlayer if kind == "each player" else _Them if kind == "them" else
                              _ParamPlayers if kind in ("param", "foe in") else Players)

    def __init__(self, kind: str, param: str = "", filters: tuple = ()):
        self.kind, self.param, self.filters = kind, param, filters

    def players(self, g: Game, ctx: Ctx) -> list[int]:
        k = self.kind
        if k == "you":
            out = [ctx.you]
        elif k == "them":
            out = [ctx.them if ctx.them is not None else ctx.you]
        elif k == "each foe":
            out = g.foes(ctx.you)
        elif k == "each player":
            out = g.everyone()
        elif k == "target foe":
            foes = g.foes(ctx.you)
            if len(foes) <= 1:
                out = foes
            else:
                pick = g.decide(Decision(ctx.you, "player", foes, [f"P{f + 1}" for f in foes], 1, 1, "target"))
                out = [foes[pick[0]]]
        elif k == "left":
            out = [(ctx.you + 1) % g.n]
        elif k == "right":
            out = [(ctx.you - 1) % g.n]
        elif k in ("their left", "their right"):  # the bound player's neighbour (you when none is bound)
            them = ctx.them if ctx.them is not None else ctx.you
            out = [(them + (1 if k == "their left" else -1)) % g.n]
        else:  # param / foe in
            out = list(ctx.vars[self.param])
        for mark, this_turn, negate in self.filters:
            out = [p for p in out if g.player_marked(ctx, mark, p, this_turn) != negate]
        return out


@specialised
class _You(Players):
    """'you', with no filter."""

    def players(self, g: Game, ctx: Ctx) -> list[int]:
        return [ctx.you]


@specialised
class _EachFoe(Players):
    """'each foe', with no filter."""

    def players(self, g: Game, ctx: Ctx) -> list[int]:
        return g.foes(ctx.you)


@specialised
class _EachPlayer(Players):
    """'each player', with no filter."""

    def players(self, g: Game, ctx: Ctx) -> list[int]:
        return g.everyone()


@specialised
class _Them(Players):
    """'them', with no filter: the bound player (you when none is bound)."""

    def players(self, g: Game, ctx: Ctx) -> list[int]:
        return [ctx.them if ctx.them is not None else ctx.you]


@specialised
class _ParamPlayers(Players):
    """A players parameter ('P'), or 'foe in P', with no filter: a copy of its list."""

    def players(self, g: Game, ctx: Ctx) -> list[int]:
        return list(ctx.vars[self.param])


# ====================================================================== cards
class Cards(Node):
    """A card selector.

    kind: this | it | top | bottom | pick | param | played.
    quantity (pick): one | up to | random | random n | all | each | n.
    zones: ZoneRefs; types: required types (any of); name: a card name;
    filters: (kind, data) pairs — ('has', words), ('has_not', words), ('where', cond),
    ('has_param', name); chooser decides for 'one' and 'up to'.
    """

    __slots__ = (
        "_bare",
        "_choice",
        "_filters",
        "_shape",
        "_source",
        "count",
        "filters",
        "kind",
        "name",
        "param",
        "prefer",
        "purpose",
        "quantity",
        "types",
        "zones",
    )

    def __new__(cls, kind: str, quantity: str = "", *args: Any, **kw: Any) -> Cards:
        if cls is not Cards:
            return object.__new__(cls)
        if kind in ("it", "this", "top") and len(args) > 4 and args[4]:  # 'count it where ...': filtered
            return object.__new__(Cards)
        if kind == "it":
            return object.__new__(_CardsIt)
        if kind == "this":
            return object.__new__(_CardsThis)
        if kind == "top":
            return object.__new__(_CardsTop)
        if kind not in ("top", "bottom") and quantity in ("all", "each", ""):
            return object.__new__(_CardsAll)
        return object.__new__(Cards)

    def __init__(self, kind: str, quantity: str = "", count: Any = None, zones: tuple = (), types: tuple = (),
                 name: str = "", filters: tuple = (), param: str = "", purpose: str = "", prefer: Any = None):
        self.kind, self.quantity, self.count, self.zones = kind, quantity, count, zones
        self.types, self.name, self.filters, self.param, self.purpose = types, name, filters, param, purpose
        self.prefer = prefer  # (sign, expression): what a bot should pick first; not a rule
        self._choice = quantity in ("one", "up to", "random", "random n")
        self._filters: tuple | None = None  # the filters as run: see _plan()
        self._source: Any = _UNPLANNED  # where the pool comes from: see _plan_source()
        self._shape: Any = None  # a simple shape's plan, set with its variant (effects/counting.py)
        self._bare = not (name or types or filters)  # every card of the pool is a candidate

    def _plan(self, g: Game) -> tuple:
        """The filters as they run: each 'where' condition with its card-independent
        parts hoisted (:mod:`~cardscript.runtime.effects.hoist`), planned at first use (in
        a game of the one definition this selector belongs to: its zones' flags are all games')."""
        from cardscript.runtime.effects.hoist import fixed_tops, plan_filter  # hoist reads this module's classes
        from cardscript.runtime.effects.pools import pool_filter

        plan = []
        tops = fixed_tops(g)
        for fk, data in self.filters:
            if fk == "where":
                prefix, rest, hoisted = plan_filter(data, tops)
                plan.append((fk, prefix, pool_filter(data, rest, tops), hoisted))
            else:
                plan.append((fk, data, None, ()))
        self._filters = tuple(plan)
        return self._filters

    def _plan_source(self, g: Game) -> Any:
        """The zones of a selector that names only 'your ZONE' and shared zones, planned
        at first use: a tuple of (zone, per player, top card only) — the last when the zone
        is a stack and the selector chooses (see ``Game.visible``) — or None for any other
        selector, whose pool the general code finds. A selector belongs to one compiled
        game, so the zones' flags are those of every game it runs in. It may then take
        the variant of its shape (:func:`~cardscript.runtime.effects.counting.adopt`)."""
        src: Any = None
        if self.kind not in ("param", "played", "gained", "control") and all(
                isinstance(zr, ZoneRef) and zr.owner in ("you", "shared") for zr in self.zones):
            src = tuple((zr.zone, zr.owner == "you", self._choice and g.d.zones[zr.zone].stack) for zr in self.zones)
        self._source = src
        from cardscript.runtime.effects.counting import adopt  # counting subclasses this module's classes

        adopt(self, g)
        return src

    def candidates(self, g: Game, ctx: Ctx) -> list[int]:
        if self._shape is not None:  # of a shape, but called as this class (a call bound it first)
            return self._shape.select(self, g, ctx)
        src = self._source
        if src is _UNPLANNED:
            src = self._plan_source(g)
        if src is not None:  # 'your ZONE', a shared zone: slots found by index, no ZoneRef to ask
            if len(src) == 1:
                z, mine, top = src[0]
                s = g.zone_base[z] + ctx.you if mine else g.zone_base[z]
                cards = g.slots[s]
                if self.name and not top and len(cards) > NAMED_SCAN:
                    return self._filter(g, ctx, named_in(g, s, cards, self.name), len(cards))
                pool = cards[-1:] if top else cards[::-1]
            else:
                pool = []
                for z, mine, top in src:
                    cards = g.slots[g.zone_base[z] + ctx.you] if mine else g.slots[g.zone_base[z]]
                    pool.extend(cards[-1:] if top else reversed(cards))
            if self._bare:  # _filter(), with nothing to filter
                g.steps += len(pool)
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                return pool
            return self._filter(g, ctx, pool)
        k = self.kind
        if k == "param":
            pool = list(ctx.vars[self.param])
        elif k == "played":
            pool = list(reversed(g.played_turn))
        elif k == "gained":  # issue 12: the cards you took into a zone this turn, most recent first
            pool = list(dict.fromkeys(c for c, p in reversed(g.gained_turn) if p == ctx.you))
        elif k == "control":
            # Cards you control: your play zone, and cards you took control of this turn.
            pool = [c for z in g.d.zones if z.play_zone for c in reversed(g.slots[g.slot(z.index, ctx.you)])]
            pool += [c for c, p in g.controller.items() if p == ctx.you and c not in pool]
        else:
            pool = []
            for zr in self.zones:
                if isinstance(zr, Cards):  # 'from the top 3 cards of your deck': those cards, top first
                    pool.extend(zr.cards(g, ctx))
                    continue
                for s in zr.slots(g, ctx):
                    # A stack offers only its top card to a choice; 'all' and 'N cards' see it whole.
                    pool.extend(reversed(g.visible(s) if self._choice else g.slots[s]))
        return self._filter(g, ctx, pool)

    def _filter(self, g: Game, ctx: Ctx, pool: list[int], counted: int = -1) -> list[int]:
        """The candidates of ``pool`` (a new list) that pass the selector's name, types and filters;
        ``counted`` >= 0: ``pool`` is :func:`~.base.named_in`'s, worth that many steps."""
        g.steps += len(pool) if counted < 0 else counted
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if self.name and counted < 0:  # the per-card names of the layout: no call per card
            name, card_names = self.name, g.card_names
            pool = [c for c in pool if card_names[c] == name]
        cw = g.card_words  # card_has, inlined: a card's words are a set
        if self.types:
            types = self.types
            pool = [c for c in pool if not cw[c].isdisjoint(types)]
        for fk, data, rest, hoisted in self._filters if self._filters is not None else self._plan(g):
            if fk == "has":
                pool = [c for c in pool if not cw[c].isdisjoint(data)]
            elif fk == "has_not":
                pool = [c for c in pool if cw[c].isdisjoint(data)]
            elif fk == "other_name":  # issue 12: names read where the selector is (the outer 'it')
                names = {g.card_name(c) for c in data.cards(g, ctx)}
                pool = [c for c in pool if g.card_name(c) not in names]
            elif fk == "has_param":
                words = (ctx.vars[data],)
                pool = [c for c in pool if card_has(g, c, words)]
            else:
                pool = where_pass(g, ctx, pool, data, rest, hoisted)
        return pool

    def cards(self, g: Game, ctx: Ctx) -> list[int]:
        k = self.kind
        if k in ("it", "this", "top", "bottom"):
            out = self._single(g, ctx)
            # 'count it where COND', 'count the top card of your deck with hero': the cards, tested
            return self._filter(g, ctx, out) if self.filters else out
        pool = self.candidates(g, ctx)
        q = self.quantity
        if q in ("all", "each", ""):
            return pool
        # a count below 0 selects no card, one above the pool all of them
        if q == "n":
            return pool[: max(0, self.count.evaluate(g, ctx))]
        if q == "random":
            return g.pick_random(pool, 1) if pool else []
        if q == "random n":
            n = max(0, min(self.count.evaluate(g, ctx), len(pool)))
            return g.pick_random(pool, n) if n else []
        if not pool:
            return []
        high = 1 if q == "one" else max(0, min(self.count.evaluate(g, ctx), len(pool)))
        if not high:  # 'up to 0' (a computed count) leaves nothing to choose: no question
            return []
        low = 1 if q == "one" else 0
        return choose_cards(g, ctx.you, pool, low, high, self.purpose, self.prefer, ctx)

    def _single(self, g: Game, ctx: Ctx) -> list[int]:
        """The cards of 'it', 'this', 'the top/bottom N cards of ZONE', before any filter."""
        k = self.kind
        if k == "it":
            return [ctx.it] if ctx.it is not None else []
        if k == "this":
            return [ctx.this] if ctx.this is not None else []
        n = self.count.evaluate(g, ctx)
        out: list[int] = []
        if n <= 0:  # 'the top 0 cards' are none (cards[-0:] would be all of them)
            return out
        for zr in self.zones:
            for s in zr.slots(g, ctx):
                g.ensure(s, n, k == "bottom")
                cards = g.slots[s]
                out.extend(reversed(cards[-n:]) if k == "top" else cards[:n])
        return out


_UNPLANNED = object()  # Cards._source before its first use


@specialised
class _CardsIt(Cards):
    """'it': the bound card."""

    def cards(self, g: Game, ctx: Ctx) -> list[int]:
        return [ctx.it] if ctx.it is not None else []


@specialised
class _CardsThis(Cards):
    """'this': the card whose ability runs."""

    def cards(self, g: Game, ctx: Ctx) -> list[int]:
        return [ctx.this] if ctx.this is not None else []


@specialised
class _CardsTop(Cards):
    """'the top N cards of ZONE': of one 'your ZONE' or shared zone, found by slot index."""

    def cards(self, g: Game, ctx: Ctx) -> list[int]:
        src = self._source
        if src is _UNPLANNED:
            src = self._plan_source(g)
        if src is None or len(src) != 1:
            return Cards.cards(self, g, ctx)
        count = self.count
        n = count.value if type(count) is Const else count.evaluate(g, ctx)  # 'the top card': no call
        if n <= 0:  # 'the top 0 cards' are none (cards[-0:] would be all of them)
            return []
        z, mine, _top = src[0]
        s = g.zone_base[z] + ctx.you if mine else g.zone_base[z]
        if len(g.slots[s]) < n:  # what ensure() tests first
            g.ensure(s, n, False)
        return g.slots[s][-1:-n - 1:-1]  # the top n, top first: reversed(cards[-n:])


@specialised
class _CardsAll(Cards):
    """'all cards in ZONE ...', 'each ...', a parameter: every candidate, no choice."""

    cards = Cards.candidates


def choose_cards(g: Game, player: int, pool: list[int], low: int, high: int, purpose: str,
                 prefer: Any = None, ctx: Ctx | None = None) -> list[int]:
    """Ask ``player`` to pick between low and high of ``pool``.

    ``prefer`` — (sign, expression) from the script's ``prefer highest|lowest EXPR`` — gives
    each option a value for bots (higher is better; the purpose becomes "prefer").
    Without it the value is the card's "cost" attribute, read by purpose.
    """
    if low == len(pool) == high:
        return list(pool)

    def labels() -> list[str]:
        return [g.card_name(c) for c in pool]

    if prefer is not None and ctx is not None:
        sign, expr = prefer
        bound = ctx

        def values() -> list[int]:
            saved = bound.it
            try:
                out = []
                for c in pool:
                    bound.it = c
                    out.append(sign * expr.evaluate(g, bound))
                return out
            finally:
                bound.it = saved

        purpose = "prefer"
    else:
        def values() -> list[int]:
            return [as_number(g.card_attrs[c].get("cost", 0)) for c in pool]

    picks = g.decide(Decision(player, "card", pool, labels, low, high, purpose, values))
    return [pool[i] for i in picks]

"""How the action window (:class:`~cardscript.runtime.effects.choices.TakeActions`) finds
its legal options and works out their values for bots (issue 11, part B: "legal actions
from indexes", "cheap decisions"). A :class:`WindowPlan` is made once per window and
definition, at its first use.

**Options.** Each action gets one plan (:func:`option_plan`):

* ``direct`` — a ``choose`` with no filter, from zones of 'you' or shared zones (``play:
  choose a card from your hand``): the options are the cards of those slots, read as they
  lie, without running the selector;
* ``static`` — a ``choose`` filtered only by what is printed on a card (a name, ``with`` /
  ``without`` words: ``choose a card from your hand with play``): which cards pass is
  worked out once per definition, and the zones are read as they lie;
* ``keyed`` — a ``choose`` whose filter reads only the card (its face, its printed words,
  its attributes as a player sees them: 'cost of it for you'), counters and your marks
  (``buy: ... where it is face up and cost of it for you <= your power``): whether each
  card passes is remembered with everything its test reads (the seat, the counter values,
  the modifiers, your marks; the card and, when read, its face), for the last few
  thousand such states; a card is tested again only under a state it was not seen in,
  whatever pool it comes in; a count of the cards of a 'your ZONE' or shared zone by
  name or printed words reads those cards, which the key then holds;
* ``gated`` — a ``choose`` whose first ``where`` has parts that read no card
  (:func:`~.hoist.plan_filter`) and is keyed apart from them (``where (count all "NAME"
  in your ZONE) > 0 and cost of it < highest cost of all cards you played this turn``):
  its leading conjuncts are tested once per pass as the selector tests them, and what
  they gave is remembered per state when a key can hold what they read, so that a pass
  they rule out reads only the pool's size; the hoisted parts are worked out once per
  pass and their values (and steps) are part of the key of the cards' tests;
* ``test`` — anything else: the selector's candidates, or the action's condition, as before.

The options, their order and the step budget are exactly as the selector gives them:
a remembered answer adds the steps its computation took. :meth:`WindowPlan.all_options`
finds them the old way, every action tested afresh (tests/test_action_index.py compares
the two at every decision of random games).

**Values.** :class:`WindowPlan` rewrites the ``prefer`` hints so that their repeated
card-independent parts are computed once per decision (:mod:`~.hintshare`).
"""

from __future__ import annotations

from typing import Any

from cardscript.runtime import compiled as _compiled
from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import cardrules as R
from cardscript.runtime.effects import conditions as C
from cardscript.runtime.effects import expressions as X
from cardscript.runtime.effects import hoist as H
from cardscript.runtime.effects import pools as P
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.effects.base import Node as Node  # tests read it here, as shape
from cardscript.runtime.effects.base import card_has
from cardscript.runtime.effects.hintshare import _generic, _Shapes, _share, _uses
from cardscript.runtime.effects.hintshare import shape as shape
from cardscript.runtime.game import Game

#: the option 'end the turn'
END = (None, None)
#: how many states a ``keyed`` action remembers before it starts again
KNOWN = 4096
#: the step limit while one card of a ``keyed`` action is tested (:meth:`WindowPlan._test_card`)
_NO_LIMIT = 1 << 62


class _Reads:
    """What a filter reads besides the card's printed data (see :func:`_reads`)."""

    __slots__ = ("counters", "faces", "marks", "mods", "one_slot", "slots")

    def __init__(self) -> None:
        self.faces = self.mods = False
        self.slots: list[tuple[int, bool]] = []  # (zone, of 'you' (else shared)) whose cards are counted
        self.counters: list[tuple[int, bool]] = []  # (counter, of 'you' (else shared))
        self.marks: list[tuple[str, bool]] = []  # (mark, this turn) of 'you'
        #: the one slot when that is all there is (seal()): the key of most gates'
        #: prefixes ('count all "NAME" in your ZONE'), built without the general walk
        self.one_slot: tuple[int, bool] | None = None

    def seal(self) -> _Reads:
        """Fill :attr:`one_slot` once every read is in; returns itself."""
        if len(self.slots) == 1 and not (self.counters or self.mods or self.marks):
            self.one_slot = self.slots[0]
        return self


def _reads(node: Any, g: Game, out: _Reads) -> bool:
    """Whether ``node`` (a filter tested with 'it' bound to each candidate) reads only what
    a ``keyed`` plan remembers; fills ``out``. Conservative: any other node says no."""
    t = _generic(node)
    if t is C.And or t is C.Or:
        return all(_reads(a, g, out) for a in node.args)
    if t is C.Not:
        return _reads(node.arg, g, out)
    if t is C.Compare:
        return _reads(node.left, g, out) and _reads(node.right, g, out)
    if t is X.Const:
        return True
    if t is C.FaceDown:
        out.faces = True
        return bool(node._it)
    if t is C.HasWord:  # a printed word of the card
        return _generic(node.cards) is S.Cards and node.cards.kind == "it"
    if t is C.PlayerMarked:  # 'you are marked "M" [this turn]'
        ps = node.players
        if _generic(ps) is not S.Players or ps.kind != "you" or ps.filters:
            return False
        if (node.mark, node.this_turn) in g.static_marks:  # a static rule's mark: a scan that counts steps
            return False
        out.marks.append((node.mark, node.this_turn))
        return True
    if t is X.AttrOf:  # the printed attribute of the card (no computed attribute)
        return bool(node._it) and node.attr not in g.computed_attrs
    if t is R.AttrFor:  # as a player sees it: the modifiers, never a static rule
        out.mods = True
        return bool(node._it_you) and node.attr not in g.computed_attrs and node.attr not in g.static_attrs
    if t is H.Hoisted:  # a part of a ``gated`` plan's filter that reads no card: its value is in the key
        return True
    if t is X.CountCards:  # 'count all "NAME" in your ZONE': its value and steps follow from the cards there
        sel = node.cards
        if _generic(sel) is not S.Cards or sel.kind != "pick" or sel.quantity not in ("all", "each", "") or \
                sel.count is not None or any(fk not in ("has", "has_not") for fk, _ in sel.filters):
            return False
        for zr in sel.zones:
            if _generic(zr) is not S.ZoneRef or zr.owner not in ("you", "shared"):
                return False
            out.slots.append((zr.zone, zr.owner == "you"))
        return True
    if t is X.CounterValue:
        if node.counter < 0 or node.owner not in ("you", "shared") or node.counter in g.d.passive_counters:
            return False
        out.counters.append((node.counter, node.owner == "you"))
        return True
    return False


def _key(g: Game, ctx: Ctx, reads: _Reads, key: tuple[Any, ...]) -> tuple[Any, ...]:
    """``key`` followed by the values of what ``reads`` holds (see :class:`_Reads`)."""
    you = ctx.you
    one = reads.one_slot
    if one is not None:
        z, yours = one
        base = g.zone_base
        return (*key, tuple(g.slots[base[z] + you if yours else base[z]]))
    if reads.counters:
        key += tuple([g.get(c, you if yours else 0) for c, yours in reads.counters])
    if reads.mods and g.attr_mods:
        key += (tuple(map(tuple, g.attr_mods)),)
    if reads.marks:
        key += tuple([g.player_marked(ctx, mark, you, this_turn) for mark, this_turn in reads.marks])
    if reads.slots:
        base = g.zone_base
        key += tuple([tuple(g.slots[base[z] + you if yours else base[z]]) for z, yours in reads.slots])
    return key


def option_plan(act: Any, g: Game) -> tuple[str, Any]:
    """The plan of one action (see the module docstring): ``("direct", zones)``,
    ``("static", (zones, ok))``, ``("keyed", (zones, reads, None))``, ``("gated", ...)``
    (:func:`_gated`) or ``("test", None)``;
    ``zones`` are (zone, of 'you'), ``ok`` says for each card whether the filter keeps it."""
    sel = act.choose
    if sel is None or _generic(sel) is not S.Cards or sel.kind != "pick" or sel.quantity != "one":
        return "test", None
    zones = []
    for zr in sel.zones:
        if _generic(zr) is not S.ZoneRef or zr.owner not in ("you", "shared"):
            return "test", None
        zones.append((zr.zone, zr.owner == "you"))
    if not sel.filters and not sel.name and not sel.types:
        return "direct", tuple(zones)
    if all(fk in ("has", "has_not") for fk, _ in sel.filters):  # printed words and names only
        words = g.card_words
        keep = [c for c in range(len(g.card_type))
                if (not sel.name or g.card_names[c] == sel.name) and (not sel.types or card_has(g, c, sel.types))
                and all(card_has(g, c, data) != (fk == "has_not") for fk, data in sel.filters)]
        ok = [False] * len(words)
        for c in keep:
            ok[c] = True
        return "static", (tuple(zones), ok)
    gated = _gated(sel, g, tuple(zones))
    if gated[0] == "gated" and gated[1][2][1]:  # a prefix may rule out every card at once
        return gated
    reads = _Reads()
    for fk, data in sel.filters:
        if fk not in ("has", "has_not") and not (fk == "where" and _reads(data, g, reads)):
            return gated
    return "keyed", (tuple(zones), reads, None)


def _gated(sel: Any, g: Game, zones: tuple[tuple[int, bool], ...]) -> tuple[str, Any]:
    """The ``gated`` plan of a choose whose first ``where`` has parts that read no card
    (:func:`~.hoist.plan_filter`: leading conjuncts, hoisted parts) and whose per-card rest
    reads only what a key holds: ``("gated", (zones, reads, gate))``, ``gate`` being
    (the filters before that ``where``, its prefix, the filters left per card, the
    :class:`~.hoist.Hoisted` parts in them, the :class:`_Reads` of the prefix or None
    when no key holds it, and (zone, of 'you', a stack) per zone when the prefix is
    keyed and tested on the whole pool, else ()); else ``("test", None)``."""
    filters = sel.filters
    first = next((i for i, (fk, _) in enumerate(filters) if fk == "where"), -1)
    if first < 0 or any(fk not in ("has", "has_not", "where") for fk, _ in filters):
        return "test", None  # 'other_name' runs a selector even for no card
    prefix, rest, hoisted = H.plan_filter(filters[first][1], H.fixed_tops(g))
    later = ((("where", rest),) if rest is not None else ()) + tuple(filters[first + 1:])
    reads, first_reads = _Reads(), _Reads()
    if not (prefix or hoisted) or not all(fk != "where" or _reads(data, g, reads) for fk, data in later):
        return "test", None
    keyed = bool(prefix) and all(_reads(c, g, first_reads) for c in prefix)
    sized = tuple((z, yours, g.d.zones[z].stack) for z, yours in zones) \
        if keyed and not (sel.name or sel.types or first) else ()  # the pool's size is all the prefix needs
    prefix_reads = first_reads.seal() if keyed else None
    return "gated", (zones, reads, (tuple(filters[:first]), prefix, later, hoisted, prefix_reads, sized))


class WindowPlan:
    """How one action window of a definition finds its options and values (see the
    module docstring).

    Attributes:
        actions: the definition's list of actions the plan was made for.
        plans: per action, its option plan (:func:`option_plan`).
        finders: per action, the closure that finds its options by its plan
            (:mod:`~.actionfind`), made at the first pass (None before): as objects and
            compiled (``finders[compiled.ENABLED]``).
        known: per ``keyed`` or ``gated`` action, state key -> {card key -> (passes, steps)}
            of the states seen (up to :data:`KNOWN`, then forgotten); a state key and a card
            key hold all a card's test depends on, so they serve every game of the definition.
        passes: per ``gated`` action, state key -> (its prefix holds, the prefix's steps
            per card), for a prefix a key can hold.
        plain: id(action) -> its rewritten ``prefer`` (actions without a choose).
        card: id(action) -> (sign, rewritten expression) of its choose's ``prefer``.
        memos: every shared part of the hints, forgotten at the start and the end of each pass.
        running: a pass is under way (a pass inside it values without the memos).
    """

    __slots__ = ("actions", "card", "finders", "known", "memos", "passes", "plain", "plans", "running")

    def __init__(self, actions: list[Any], g: Game):
        memos: dict[Any, H.Hoisted] = {}
        self.actions = actions
        self.plans = [option_plan(a, g) for a in actions]
        self.known: list[dict[tuple[Any, ...], dict[int, tuple[bool, int]]]] = [{} for _ in actions]
        self.passes: list[dict[tuple[Any, ...], tuple[bool, int]]] = [{} for _ in actions]
        uses: dict[Any, int] = {}
        shapes = _Shapes()
        for a in actions:
            if a.choose is None and a.prefer is not None:
                _uses(a.prefer, uses, shapes)
            elif a.choose is not None and a.choose.prefer is not None:
                for _ in range(2):  # valued once per card: any part of it, more than once a pass
                    _uses(a.choose.prefer[1], uses, shapes)
        self.plain = {id(a): _share(a.prefer, memos, uses, shapes)
                      for a in actions if a.choose is None and a.prefer is not None}
        self.card = {id(a): (a.choose.prefer[0], _share(a.choose.prefer[1], memos, uses, shapes))
                     for a in actions if a.choose is not None and a.choose.prefer is not None}
        self.memos = tuple(memos.values())
        self.running = False
        #: per action, the closure that finds its options (:mod:`~.actionfind`), made at the first
        #: pass: with the objects' conditions, and with their compiled closures
        self.finders: tuple[tuple[Any, ...] | None, tuple[Any, ...] | None] = (None, None)

    def forget(self) -> None:
        """Drop every remembered value of the hints (the start and the end of a pass)."""
        for m in self.memos:
            m.have = False
            m.value = None

    def options(self, g: Game, ctx: Ctx, outer: str) -> list[tuple[Any, int | None]]:
        """The options of the window now, in order: each action's (its cards, or itself when
        its condition holds), the actions granted this turn, then 'end the turn' (:data:`END`).
        ``outer``: the action name to leave in ``g.action_name``."""
        options: list[tuple[Any, int | None]] = []
        compiling = _compiled.ENABLED
        found = self.finders[compiling]
        if found is None:  # one closure per action, made at the first window (runtime/effects/actionfind.py)
            from cardscript.runtime.effects.actionfind import finders

            found = finders(self, g, compiling)
            self.finders = (found, self.finders[1]) if not compiling else (self.finders[0], found)
        for find in found:
            find(g, ctx, options)
        g.action_name = outer
        if g.granted:
            options.extend((ga, None) for ga in g.offered_grants(ctx.you))  # "... this turn, you may"
        options.append(END)
        return options

    @staticmethod
    def all_options(g: Game, ctx: Ctx, outer: str) -> list[tuple[Any, int | None]]:
        """The options found the old way: every action's selector or condition run afresh."""
        options: list[tuple[Any, int | None]] = []
        for act in g.d.actions:
            g.action_name = act.name
            if act.choose is not None:
                for c in act.choose.candidates(g, ctx):
                    options.append((act, c))
            elif act.cond is None or act.cond.test(g, ctx):
                options.append((act, None))
        g.action_name = outer
        options.extend((ga, None) for ga in g.offered_grants(ctx.you))
        options.append(END)
        return options

    @staticmethod
    def _pool(g: Game, ctx: Ctx, zones: tuple[tuple[int, bool], ...]) -> list[int]:
        """The cards a choose sees in its zones, as the selector lists them: each slot from
        the top, only the top card of a stack."""
        if len(zones) == 1:  # most choices: one zone, its list read once
            zone, yours = zones[0]
            cards = g.slots[g.zone_base[zone] + (ctx.you if yours else 0)]
            return cards[-1:] if g.d.zones[zone].stack else cards[::-1]
        pool: list[int] = []
        for zone, yours in zones:
            cards = g.slots[g.zone_base[zone] + (ctx.you if yours else 0)]
            if g.d.zones[zone].stack:
                pool += cards[-1:]
            else:
                pool += reversed(cards)
        return pool

    def _keyed(self, g: Game, ctx: Ctx, i: int, act: Any, data: Any) -> list[int]:
        """The candidates of a ``keyed`` action, card by card: whether a card passes the
        selector's filters (and the steps its test takes) depends only on the card, its
        face when the filter reads it, and the state the filter reads (the seat, the
        counters, the modifiers, the marks: :class:`_Reads`). So the answer is remembered
        per state and card, not per state and pool: a new pool, or a new counter value
        met with cards already seen under it, costs no test (issue 11, "cheap
        decisions"; a per-pool key missed in 63 % of one built-in game's buy windows, every pool
        being new). The steps are counted as the selector counts them: one per card of
        the pool, plus each card's own test."""
        zones, reads, gate = data
        pool = self._pool(g, ctx, zones)
        you, sel, start = ctx.you, act.choose, g.steps
        key: tuple[Any, ...] = (you,)
        filters, steps = sel.filters, len(pool)
        if gate is not None:
            pool = self._gate(g, ctx, i, sel, pool, gate)
            if not pool:
                return pool
            filters, steps = gate[2], 0
            for h in gate[3]:
                if not self._hoist(g, ctx, h, pool[0]):
                    g.steps = start
                    return sel.candidates(g, ctx)
                key += (h.value, h.steps)
        counters = reads.counters
        if counters:  # _key(), inlined: one call more per pass costs more than the key
            if len(counters) == 1:  # most filters read one counter ('your power'): no list
                c, yours = counters[0]
                key += (g.get(c, you if yours else 0),)
            else:
                key += tuple([g.get(c, you if yours else 0) for c, yours in counters])
        if reads.mods and g.attr_mods:
            key += (tuple(map(tuple, g.attr_mods)),)
        if reads.marks:
            key += tuple([g.player_marked(ctx, mark, you, this_turn) for mark, this_turn in reads.marks])
        if reads.slots:
            base = g.zone_base
            key += tuple([tuple(g.slots[base[z] + you if yours else base[z]]) for z, yours in reads.slots])
        known = self.known[i]
        cards = known.get(key)
        if cards is None:
            if len(known) >= KNOWN:
                known.clear()
            cards = known[key] = {}
        found = []
        # Two loops, not one over zip(pool, keys): the pair and the list of keys cost more (callgrind,
        # two of bench's 2p random workloads: 374 vs 388 and 117 vs 120 M instructions a game)
        if reads.faces:  # a card's answer is kept by the card and its face
            up = g.face_up
            for c in pool:
                ck = c + c + up[c]
                seen = cards.get(ck)
                if seen is None:
                    seen = cards[ck] = self._test_card(g, ctx, sel, c, filters)
                ok, more = seen
                if ok:
                    found.append(c)
                steps += more
        else:
            for c in pool:
                seen = cards.get(c)
                if seen is None:
                    seen = cards[c] = self._test_card(g, ctx, sel, c, filters)
                ok, more = seen
                if ok:
                    found.append(c)
                steps += more
        if g.steps + steps > g.step_limit:  # the selector itself stops the game where it runs out
            g.steps = start
            return sel.candidates(g, ctx)
        g.steps += steps
        return found

    def _ruled_out(self, g: Game, ctx: Ctx, i: int, gate: Any) -> bool:
        """Whether a ``gated`` action has no candidate by its pool's size alone or by what
        its prefix was found to be in this state, its steps counted as the selector
        counts them (the pool, the prefix once per card); False: not known so."""
        n, you, base, slots = 0, ctx.you, g.zone_base, g.slots
        for zone, yours, stack in gate[5]:
            size = len(slots[base[zone] + you if yours else base[zone]])
            n += min(size, 1) if stack else size
        if n:
            reads = gate[4]
            one = reads.one_slot
            if one is not None:  # _key(), inlined: the prefix reads one slot ('count all "NAME" in your ZONE')
                z, yours = one
                key: tuple[Any, ...] = (you, tuple(slots[base[z] + you if yours else base[z]]))
            else:
                key = _key(g, ctx, reads, (you,))
            seen = self.passes[i].get(key)
            if seen is None or seen[0]:
                return False
            n += seen[1] * n
        if g.steps + n > g.step_limit:
            return False
        g.steps += n
        return True

    def _gate(self, g: Game, ctx: Ctx, i: int, sel: Any, pool: list[int], gate: Any) -> list[int]:
        """The cards of ``pool`` a ``gated`` plan tests one by one: those that pass the
        selector's name, types and the filters before its first ``where``, none when that
        filter's leading conjuncts (tested once, :func:`~.pools.pool_prefix`) are false.
        The steps of the pool and of the prefix are counted as the selector counts them,
        and the budget checked where it checks it."""
        g.steps += len(pool)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if sel.name:
            names = g.card_names
            pool = [c for c in pool if names[c] == sel.name]
        words = g.card_words
        if sel.types:
            pool = [c for c in pool if not words[c].isdisjoint(sel.types)]
        for fk, data in gate[0]:
            pool = [c for c in pool if words[c].isdisjoint(data) == (fk == "has_not")]
        if not pool or not gate[1]:
            return pool
        if gate[4] is None:  # a prefix no key holds: tested afresh
            return P.pool_prefix(g, ctx, gate[1], pool)
        known, key = self.passes[i], _key(g, ctx, gate[4], (ctx.you,))
        seen = known.get(key)
        if seen is None:
            if len(known) >= KNOWN:
                known.clear()
            start = g.steps
            kept = P.pool_prefix(g, ctx, gate[1], pool)
            known[key] = (bool(kept), (g.steps - start) // len(pool))  # charged once per card
            return kept
        steps = seen[1] * len(pool)
        if g.steps + steps > g.step_limit:  # where the budget runs out: as the selector finds it
            return P.pool_prefix(g, ctx, gate[1], pool)
        g.steps += steps
        return pool if seen[0] else []

    @staticmethod
    def _hoist(g: Game, ctx: Ctx, h: H.Hoisted, first: int) -> bool:
        """Work out ``h`` (value and steps) for this pass, as the first card that reaches
        it would, with no budget and the steps given back (the cards' tests count them
        at each use); False when its value cannot be in a key."""
        start, limit, saved = g.steps, g.step_limit, ctx.it
        g.step_limit, ctx.it, h.have = _NO_LIMIT, first, False
        try:
            h._get(g, ctx, not hasattr(h.node, "evaluate"))  # a condition, or an expression
        finally:
            ctx.it = saved
            g.steps, g.step_limit = start, limit
        return h.value is None or isinstance(h.value, (bool, int, str))

    @staticmethod
    def _test_card(g: Game, ctx: Ctx, sel: Any, c: int, filters: Any) -> tuple[bool, int]:
        """Whether card ``c`` passes ``sel``'s name, types and filters (in the selector's
        order, the first that fails ends the test, as each filter drops the card from the
        pool), and the steps its tests take. The filters of a ``keyed`` plan are pure
        (:func:`_reads`): the test changes nothing but the steps, which are given back, and
        it runs with no budget (the caller checks the budget for the whole pool)."""
        if (sel.name and g.card_names[c] != sel.name) or (sel.types and not card_has(g, c, sel.types)):
            return False, 0
        start, limit, saved = g.steps, g.step_limit, ctx.it
        g.step_limit = _NO_LIMIT  # the budget is the caller's to check, for the whole pool
        ok = True
        try:
            ctx.it = c
            for fk, data in filters:
                # 'where': the condition as written; else a printed word the card has or has not
                ok = bool(data.test(g, ctx)) if fk == "where" else card_has(g, c, data) != (fk == "has_not")
                if not ok:
                    break
            return ok, g.steps - start
        finally:
            ctx.it = saved
            g.steps, g.step_limit = start, limit

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
  whatever pool it comes in;
* ``test`` — anything else: the selector's candidates, or the action's condition, as before.

The options, their order and the step budget are exactly as the selector gives them:
a remembered answer adds the steps its computation took. :meth:`WindowPlan.all_options`
finds them the old way, every action tested afresh (tests/test_action_index.py compares
the two at every decision of random games).

**Values.**
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

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import cardrules as R
from cardscript.runtime.effects import conditions as C
from cardscript.runtime.effects import expressions as X
from cardscript.runtime.effects import hoist as H
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.effects.base import Node, card_has
from cardscript.runtime.game import Game

#: the option 'end the turn'
END = (None, None)
#: how many states a ``keyed`` action remembers before it starts again
KNOWN = 4096
#: the step limit while one card of a ``keyed`` action is tested (:meth:`WindowPlan._test_card`)
_NO_LIMIT = 1 << 62


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


class _Reads:
    """What a filter reads besides the card's printed data (see :func:`_reads`)."""

    __slots__ = ("counters", "faces", "marks", "mods")

    def __init__(self) -> None:
        self.faces = self.mods = False
        self.counters: list[tuple[int, bool]] = []  # (counter, of 'you' (else shared))
        self.marks: list[tuple[str, bool]] = []  # (mark, this turn) of 'you'


def _generic(node: Any) -> type:
    """The class ``node`` is planned as: a specialised variant (issue 11, part A) as its
    generic class, which has the same fields and behaviour."""
    t = type(node)
    return getattr(t, "_generic", None) or t


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
    if t is X.CounterValue:
        if node.counter < 0 or node.owner not in ("you", "shared") or node.counter in g.d.passive_counters:
            return False
        out.counters.append((node.counter, node.owner == "you"))
        return True
    return False


def option_plan(act: Any, g: Game) -> tuple[str, Any]:
    """The plan of one action (see the module docstring): ``("direct", zones)``,
    ``("static", (zones, ok))``, ``("keyed", (zones, reads))`` or ``("test", None)``;
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
    reads = _Reads()
    for fk, data in sel.filters:
        if fk not in ("has", "has_not") and not (fk == "where" and _reads(data, g, reads)):
            return "test", None
    return "keyed", (tuple(zones), reads)


class WindowPlan:
    """How one action window of a definition finds its options and values (see the
    module docstring).

    Attributes:
        actions: the definition's list of actions the plan was made for.
        plans: per action, its option plan (:func:`option_plan`).
        known: per ``keyed`` action, state key -> {card key -> (passes, steps)} of the
            states seen (up to :data:`KNOWN`, then forgotten); a state key and a card key
            hold all a card's test depends on, so they serve every game of the definition.
        plain: id(action) -> its rewritten ``prefer`` (actions without a choose).
        card: id(action) -> (sign, rewritten expression) of its choose's ``prefer``.
        memos: every shared part of the hints, forgotten at the start and the end of each pass.
        running: a pass is under way (a pass inside it values without the memos).
    """

    __slots__ = ("actions", "card", "known", "memos", "plain", "plans", "running")

    def __init__(self, actions: list[Any], g: Game):
        memos: dict[Any, H.Hoisted] = {}
        self.actions = actions
        self.plans = [option_plan(a, g) for a in actions]
        self.known: list[dict[tuple[Any, ...], dict[int, tuple[bool, int]]]] = [{} for _ in actions]
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
        for i, act in enumerate(g.d.actions):
            kind, data = self.plans[i]
            if kind == "direct":
                pool = self._pool(g, ctx, data)
                g.steps += len(pool)  # as the selector counts its pool
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                options += [(act, c) for c in pool]
                continue
            if kind == "static":
                zones, ok = data
                pool = self._pool(g, ctx, zones)
                g.steps += len(pool)
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                options += [(act, c) for c in pool if ok[c]]
                continue
            g.action_name = act.name  # what its candidates cost: "the next ... you buy"
            if kind == "keyed":
                options += [(act, c) for c in self._keyed(g, ctx, i, act, data)]
            elif act.choose is not None:
                options += [(act, c) for c in act.choose.candidates(g, ctx)]
            elif act.cond is None or act.cond.test(g, ctx):
                options.append((act, None))
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
        zones, reads = data
        pool = self._pool(g, ctx, zones)
        you = ctx.you
        key: tuple[Any, ...] = (you,)
        if reads.counters:
            key += tuple([g.get(c, you if yours else 0) for c, yours in reads.counters])
        if reads.mods and g.attr_mods:
            key += (tuple(map(tuple, g.attr_mods)),)
        if reads.marks:
            key += tuple([g.player_marked(ctx, mark, you, this_turn) for mark, this_turn in reads.marks])
        known = self.known[i]
        cards = known.get(key)
        if cards is None:
            if len(known) >= KNOWN:
                known.clear()
            cards = known[key] = {}
        up = g.face_up if reads.faces else None
        steps = len(pool)
        found = []
        for c in pool:
            ck = c + c + up[c] if up is not None else c  # the card and, when read, its face
            seen = cards.get(ck)
            if seen is None:
                seen = cards[ck] = self._test_card(g, ctx, act.choose, c)
            if seen[0]:
                found.append(c)
            steps += seen[1]
        if g.steps + steps > g.step_limit:  # the selector itself stops the game where it runs out
            return act.choose.candidates(g, ctx)
        g.steps += steps
        return found

    @staticmethod
    def _test_card(g: Game, ctx: Ctx, sel: Any, c: int) -> tuple[bool, int]:
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
            for fk, data in sel.filters:
                # 'where': the condition as written; else a printed word the card has or has not
                ok = bool(data.test(g, ctx)) if fk == "where" else card_has(g, c, data) != (fk == "has_not")
                if not ok:
                    break
            return ok, g.steps - start
        finally:
            ctx.it = saved
            g.steps, g.step_limit = start, limit

"""Hoisting the parts of a selector's ``where`` filter that do not depend on the card.

A filter such as ``choose a card from the market where (count all "Captain" in your
crew) > 0 and cost of it < highest cost of all cards you played this turn`` is tested
once per candidate card, and most of it (the count, the highest cost) reads nothing of
that card. :func:`plan_filter` finds, once per selector, the largest
sub-expressions and sub-conditions that

* never read the card being tested (``it``): the filter rebinds only ``it``, and the
  state does not change while a pure condition is tested, so their value is the same for
  every candidate of one pass;
* are pure: no decision (``target foe``, ``a card``), no random pick, no refill of a deck
  (``the top card of`` a zone that refills; of one that cannot, it is pure), nothing
  unknown to this module (which stays conservative);
* select cards, so that remembering them saves more than it costs;

and wraps each in a :class:`Hoisted`, which computes it at its first use in a pass and
afterwards returns the remembered value. The step budget (docs/language.md "Limits")
counts exactly as before: a remembered use adds the steps its first computation took.
The rewritten filter is a private copy; the selector's own tree (its IR) is unchanged.
"""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import cardrules as R
from cardscript.runtime.effects import conditions as C
from cardscript.runtime.effects import expressions as X
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.game import Game

_UNKNOWN = None  # an impure or unknown node: never hoisted, nor anything holding it

#: node class -> the fields that hold sub-nodes read in the filter's own context
_CHILDREN: dict[type, tuple[str, ...]] = {
    X.Const: (), X.Text: (), X.Var: (), X.CountSeats: (), X.CounterValue: (),
    X.Arith: ("left", "right"), X.MinMax: ("left", "right"),
    X.CountCards: ("cards",), X.CountTypes: ("cards",), X.SumAttr: ("cards",), X.HighestAttr: ("cards",),
    X.AttrOf: ("card",), X.CardCounter: ("cards",), X.Highest: ("expr", "players"),
    R.AttrFor: ("card", "player"),
    C.Compare: ("left", "right"), C.And: ("args",), C.Or: ("args",), C.Not: ("arg",),
    C.PlayerMarked: ("players",), C.CardMarked: ("cards",), C.AnyFoeMarked: (), C.FaceDown: ("cards",),
    C.HasWord: ("cards",), C.Showing: ("cards",), C.Owned: ("cards",), R.IsThis: ("cards",), C.HasHome: ("cards",),
    C.ZoneEmpty: ("zone",), C.Did: (), C.Affected: ("players",), C.Emitted: ("players",),
    C.CameFrom: ("cards", "zone"),
    S.ZoneParam: (),
}


def _scan(node: Any, tops: frozenset[int] = frozenset()) -> tuple[bool, bool] | None:
    """(reads 'it', selects cards) of a node, or None when it is impure or unknown.
    ``tops``: the zones that never refill, whose top and bottom cards are pure to read."""
    if node is None or isinstance(node, (int, str)):
        return False, False
    if isinstance(node, (list, tuple)):
        reads = selects = False
        for n in node:
            r = _scan(n, tops)
            if r is None:
                return None
            reads, selects = reads or r[0], selects or r[1]
        return reads, selects
    t = type(node)
    t = getattr(t, "_generic", None) or t  # a specialised variant is scanned as its generic class
    if t is S.Players:
        return None if node.kind == "target foe" else (False, False)
    if t is S.ZoneRef:
        if node.owner in ("owner", "home"):
            return True, False
        return _scan(node.players, tops) if node.owner in ("of", "card") else (False, False)
    if t is S.Cards:
        return _scan_cards(node, tops)
    fields = _CHILDREN.get(t)
    if fields is None:
        return _UNKNOWN
    reads = bool(getattr(node, "_it", False))
    selects = False
    for f in fields:
        r = _scan(getattr(node, f), tops)
        if r is None:
            return None
        reads, selects = reads or r[0], selects or r[1]
    return reads, selects


def _scan_cards(sel: Any, tops: frozenset[int]) -> tuple[bool, bool] | None:
    if sel.kind in ("top", "bottom") and not all(isinstance(zr, S.ZoneRef) and zr.zone in tops
                                                   for zr in sel.zones):
        return None  # the top of a zone that refills (ZoneOps.ensure shuffles): not pure
    if sel.quantity in ("one", "up to", "random", "random n"):
        return None  # a decision or a random pick: not pure
    if sel.kind == "it":
        return True, True
    reads = False
    for part in (sel.zones, sel.count):
        r = _scan(part, tops)
        if r is None:
            return None
        reads = reads or r[0]
    for fk, data in sel.filters:
        if fk == "other_name":
            r = _scan(data, tops)
            if r is None:
                return None
            reads = reads or r[0]
        elif fk == "where" and _scan(data, tops) is None:  # tested with 'it' rebound to each of its cards
            return None
    return reads, True


class Hoisted:
    """A card-independent part of a filter, computed once per pass (see the module doc).

    Not a :class:`~cardscript.runtime.effects.base.Node`: it is no part of any IR."""

    __slots__ = ("have", "node", "steps", "value")

    def __init__(self, node: Any):
        self.node, self.have, self.value, self.steps = node, False, None, 0

    def _get(self, g: Game, ctx: Ctx, cond: bool) -> Any:
        if self.have:
            g.steps += self.steps
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            return self.value
        start = g.steps
        value = self.node.test(g, ctx) if cond else self.node.evaluate(g, ctx)
        self.value, self.steps, self.have = value, g.steps - start, True
        return value

    def test(self, g: Game, ctx: Ctx) -> bool:
        return bool(self._get(g, ctx, True))

    def evaluate(self, g: Game, ctx: Ctx) -> Any:
        return self._get(g, ctx, False)


#: composite nodes whose children may be hoisted one by one: class -> child fields
_COMPOSITE: dict[type, tuple[str, ...]] = {
    C.Compare: ("left", "right"), C.And: ("args",), C.Or: ("args",), C.Not: ("arg",),
    X.Arith: ("left", "right"), X.MinMax: ("left", "right"),
}


def _rewrite(node: Any, out: list[Hoisted], tops: frozenset[int]) -> Any:
    scan = _scan(node, tops)
    if scan is not None and not scan[0] and scan[1]:
        h = Hoisted(node)
        out.append(h)
        return h
    fields = _COMPOSITE.get(getattr(type(node), "_generic", None) or type(node))
    if not fields:
        return node
    copy = object.__new__(type(node))
    changed = False
    for slot in type(node).__slots__:
        value = getattr(node, slot)
        if slot in fields:
            new = [_rewrite(v, out, tops) for v in value] if isinstance(value, list) else _rewrite(value, out, tops)
            changed = changed or (new != value if isinstance(value, list) else new is not value)
            value = new
        object.__setattr__(copy, slot, value)
    if changed and hasattr(copy, "_prepare"):
        copy._prepare()  # a specialised variant derives private fields from the rewritten ones
    return copy if changed else node


def fixed_tops(g: Game) -> frozenset[int]:
    """The zones of ``g``'s definition that never refill (``refill_from`` < 0): reading their
    top or bottom cards is pure (the ``tops`` of :func:`plan_filter`)."""
    return frozenset(z.index for z in g.d.zones if z.refill_from < 0)


def plan_filter(cond: Any, tops: frozenset[int] = frozenset()) -> tuple[tuple[Any, ...], Any, tuple[Hoisted, ...]]:
    """How to run a filter condition: ``(prefix, rest, hoisted)``; ``tops``: the zones
    (indexes) that never refill (``refill_from`` < 0), whose top cards may be hoisted.

    ``prefix``: the leading conjuncts that read no card, to test once per pass (in order,
    stopping at the first false one, as ``and`` does for each card); ``rest``: the
    condition left to test per card (None: nothing left); ``hoisted``: the
    :class:`Hoisted` parts inside ``rest``, to forget at the start and end of each pass.
    """
    found: list[Hoisted] = []
    new = _rewrite(cond, found, tops)
    if isinstance(new, Hoisted):
        return (new.node,), None, ()
    if isinstance(new, C.And):
        args = _conjuncts(new)  # 'a and b and c' nests: (a and b) and c
        k = 0
        while k < len(args) and isinstance(args[k], Hoisted):
            k += 1
        if k:
            prefix = tuple(h.node for h in args[:k])
            left = args[k:]
            rest = None if not left else left[0] if len(left) == 1 else C.And(list(left))
            return prefix, rest, tuple(h for h in found if h not in args[:k])
    return (), new, tuple(found)


def _conjuncts(cond: Any) -> list[Any]:
    """The conjuncts of nested ``and`` in order (the same tests, the same short cut)."""
    if not isinstance(cond, C.And):
        return [cond]
    return [c for a in cond.args for c in _conjuncts(a)]

"""Selectors and counts planned at first use by the shape of their pool and tests (issue 11).

A selector of kind 'pick' or 'param' gets a :class:`Shape` when it is first planned
(``Cards._plan_source``): where its pool comes from — a slot found by index (``your
ZONE``, a shared zone, a per-card zone of the bound card: ``the targets of it``), a
parameter, or any zone reference's slots — and its tests in order. It is then switched
to a variant (:func:`~cardscript.runtime.effects.base.specialised`: the same fields, IR
and behaviour, so hoisting and the action index scan it as the generic class) whose
candidates come from :func:`select_cards`, and a ``count`` of it that takes all its
candidates (:class:`_CountShape`) counts them with :func:`count_cards`, without the
selector's list. A call's argument may have bound the generic method before the switch:
``Cards.candidates`` and ``CountCards.evaluate`` then go to the same functions.

A test is **pure** when it reads only the card's own fields and counts no step: its
name, its words (``with T``, ``has W``, a type parameter), the face it shows, face up
or down, whose it is (``where [not] it is showing "F"``, ``where it is yours``: a
:class:`~cardscript.runtime.effects.pools.PoolFilter` with nothing left per card). A
name and up to one more such test are run as one pass over the pool (``Shape.fused``);
any other test runs as ``Cards._filter`` runs it, in the selector's order.

Steps: the general path charges a selector the size of its pool once, before it tests
a card (``Cards._filter``); both functions do the same, then test, so a game stops at
the step limit where it did. Pure tests change nothing, so a count may run them on
the pool in any order (of its slots, not reversed).
"""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import expressions as X
from cardscript.runtime.effects import pools as P
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.effects.base import NAMED_SCAN, named_in, specialised
from cardscript.runtime.game import Game

#: where a pool comes from: a source is (kind, zone, argument) — (_YOURS | _SHARED | _ITS,
#: zone index, a stack offers only its top card), (_PARAM, -1, the parameter's name) or
#: (_SLOTS, whether the selector chooses, any zone reference: its slots, as Game.visible sees them)
_SHARED, _YOURS, _ITS, _PARAM, _SLOTS = range(5)
#: the tests of a card, each (code, argument); from _WHERE on they may count steps and
#: read more than the card, so they run in the selector's order, after its pool is charged
_WORDS, _NO_WORDS, _PARAM_WORD, _SHOWS, _SHOWS_NOT, _FACE, _MINE, _NOT_MINE, _WHERE, _OTHER_NAME = range(10)
#: pure test code -> (the Game list of the cards' field it compares, equal): a fused test
#: is ``(field, value, equal)``, ``g.FIELD[c] == value`` (``!=``), its value the test's argument
_FIELDS = {_SHOWS: ("face_value", True), _SHOWS_NOT: ("face_value", False), _MINE: ("owner", True),
           _NOT_MINE: ("owner", False), _FACE: ("face_up", False)}
_YOU = object()  # a fused test's value: the acting seat (ctx.you)


class Shape:
    """How a selector finds its candidates (see the module doc). Not a
    :class:`~cardscript.runtime.effects.base.Node`: no part of any IR.

    ``sources``: ((kind, zone, argument), ...) in the selector's order; ``one``: the
    source when it is the only one and not ``_SLOTS``, else None; ``name``: the card
    name it requires ("" for any); ``tests``: ((code, argument), ...), its other tests
    in its order; ``pure``: every test is pure; ``fused``: for a pure shape, its name and
    tests as at most two field tests ``(field, value, equal)`` (see :data:`_FIELDS`), else None."""

    __slots__ = ("fused", "name", "one", "pure", "sources", "tests")
    #: :func:`select_cards` and :func:`count_cards`, for the generic methods (no import)
    select: Any
    count: Any

    def __init__(self, sources: tuple[tuple[int, Any, Any], ...], name: str, tests: tuple[tuple[int, Any], ...]):
        self.sources, self.name, self.tests = sources, name, tests
        self.pure = all(code < _WHERE for code, _arg in tests)
        self.one = sources[0] if len(sources) == 1 and sources[0][0] != _SLOTS else None
        fields: list[tuple[str, Any, bool]] = [("card_names", name, True)] if name else []
        fusable = True
        for code, arg in tests:
            if code in _FIELDS:
                field, equal = _FIELDS[code]
                fields.append((field, _YOU if field == "owner" else arg, equal))
            else:
                fusable = False
        self.fused = tuple(fields) if fusable and len(fields) <= 2 else None


def _fused(g: Game, ctx: Ctx, pool: list[int], fused: tuple[tuple[str, Any, bool], ...]) -> list[int]:
    """The cards of ``pool`` that pass one or two field tests, in the pool's order."""
    f1, x, eq1 = fused[0]
    a = getattr(g, f1)
    if x is _YOU:
        x = ctx.you
    if len(fused) == 1:
        return [c for c in pool if a[c] == x] if eq1 else [c for c in pool if a[c] != x]
    f2, y, eq2 = fused[1]
    b = getattr(g, f2)
    if y is _YOU:
        y = ctx.you
    if eq1:
        return [c for c in pool if a[c] == x and b[c] == y] if eq2 else [c for c in pool if a[c] == x and b[c] != y]
    return [c for c in pool if a[c] != x and b[c] == y] if eq2 else [c for c in pool if a[c] != x and b[c] != y]


def select_cards(sel: Any, g: Game, ctx: Ctx) -> list[int]:
    """The candidates of a selector of a shape (``sel._shape``), top first, as
    ``Cards.candidates`` finds them, for the same steps."""
    shape: Shape = sel._shape
    one = shape.one
    if one is not None:
        kind, zone, arg = one
        if kind == _PARAM:
            pool = list(ctx.vars[arg])
        else:
            if kind == _YOURS:
                s = g.zone_base[zone] + ctx.you
            elif kind == _SHARED:
                s = g.zone_base[zone]
            else:  # _ITS: no bound card, no slot
                s = g.zone_base[zone] + ctx.it if ctx.it is not None else -1
            cards = g.slots[s] if s >= 0 else []
            if arg:
                pool = cards[-1:]
            elif shape.name and len(cards) > NAMED_SCAN:  # a few named cards of a large slot
                g.steps += len(cards)
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                return _keep(g, ctx, named_in(g, s, cards, shape.name), shape.tests)
            else:
                pool = cards[::-1]
    else:
        pool = []
        for kind, zone, arg in shape.sources:
            if kind == _SLOTS:
                for s in arg.slots(g, ctx):
                    pool.extend(reversed(g.visible(s) if zone else g.slots[s]))
            else:
                cards = _slot_cards(g, ctx, kind, zone)
                pool.extend(cards[-1:] if arg else reversed(cards))
    g.steps += len(pool)
    if g.steps > g.step_limit:
        g.out_of_steps(ctx.this)
    fused = shape.fused
    if fused is not None:
        return _fused(g, ctx, pool, fused) if fused else pool
    if shape.name:
        names, name = g.card_names, shape.name
        pool = [c for c in pool if names[c] == name]
    return _keep(g, ctx, pool, shape.tests)


def count_cards(node: Any, g: Game, ctx: Ctx) -> int:
    """How many cards a count's selector of a shape (``node._zone``) selects (all its
    candidates), for the steps it counts."""
    shape: Shape = node._zone
    fused, one = shape.fused, shape.one
    if fused is None or one is None:
        return _count_many(shape, g, ctx)
    kind, zone, arg = one
    if kind == _YOURS:
        cards = g.slots[g.zone_base[zone] + ctx.you]
    elif kind == _SHARED:
        cards = g.slots[g.zone_base[zone]]
    elif kind == _ITS:
        it = ctx.it
        cards = g.slots[g.zone_base[zone] + it] if it is not None else []
    else:
        cards = ctx.vars[arg]
    if arg is True:  # the top card of a stack
        cards = cards[-1:]
    g.steps += len(cards)
    if g.steps > g.step_limit:
        g.out_of_steps(ctx.this)
    if not fused:
        return len(cards)
    if len(fused) == 1:  # _fused(), inlined: the most frequent count
        field, x, eq = fused[0]
        a = getattr(g, field)
        if x is _YOU:
            x = ctx.you
        return len([c for c in cards if a[c] == x]) if eq else len([c for c in cards if a[c] != x])
    return len(_fused(g, ctx, cards, fused))


def _count_many(shape: Shape, g: Game, ctx: Ctx) -> int:
    """:func:`count_cards` for several sources or other tests."""
    if not shape.pure:
        holder = _Holder()
        holder._shape = shape
        return len(select_cards(holder, g, ctx))
    cards: list[int] = []
    for kind, zone, arg in shape.sources:
        if kind == _SLOTS:
            for s in arg.slots(g, ctx):
                cards += g.visible(s) if zone else g.slots[s]
        elif kind == _PARAM:
            cards += ctx.vars[arg]
        else:
            got = _slot_cards(g, ctx, kind, zone)
            cards += got[-1:] if arg else got
    g.steps += len(cards)
    if g.steps > g.step_limit:
        g.out_of_steps(ctx.this)
    fused = shape.fused
    if fused is not None:
        return len(_fused(g, ctx, cards, fused)) if fused else len(cards)
    if shape.name:
        names, name = g.card_names, shape.name
        cards = [c for c in cards if names[c] == name]
    return len(_keep(g, ctx, cards, shape.tests))


class _Holder:
    """A selector's stand-in for :func:`select_cards`, which reads only ``_shape``."""

    __slots__ = ("_shape",)
    _shape: Shape


Shape.select = staticmethod(select_cards)
Shape.count = staticmethod(count_cards)


def shape_of(sel: Any, g: Game) -> Shape | None:
    """The :class:`Shape` of a selector of its kind 'pick' or 'param' (a generic
    :class:`~.selectors.Cards` or a variant), or None for any other. Its 'where' filters
    are taken as planned (``Cards._plan``)."""
    if sel.kind == "param":
        sources: tuple[tuple[int, Any, Any], ...] = ((_PARAM, -1, sel.param),)
    elif sel.kind == "pick":
        if any(isinstance(zr, S.Cards) for zr in sel.zones):  # 'from the top 3 cards of ZONE': no shape
            return None
        found: list[tuple[int, Any, Any]] = []
        for zr in sel.zones:
            o = zr.owner if isinstance(zr, S.ZoneRef) else ""  # a zone parameter: its slots
            kind = _YOURS if o == "you" else _SHARED if o == "shared" else \
                _ITS if o == "card" and type(zr.players) is S._CardsIt else -1
            if kind < 0:  # any other zone reference: its slots, each seen as Game.visible() says
                found.append((_SLOTS, sel._choice, zr))
            else:  # a stack offers only its top card to a choice (Game.visible)
                found.append((kind, zr.zone, bool(sel._choice and g.d.zones[zr.zone].stack)))
        sources = tuple(found)
    else:
        return None
    tests: list[tuple[int, Any]] = [(_WORDS, sel.types)] if sel.types else []
    for fk, data, rest, hoisted in sel._filters if sel._filters is not None else sel._plan(g):
        if fk in ("has", "has_not", "has_param", "other_name"):
            tests.append(({"has": _WORDS, "has_not": _NO_WORDS, "has_param": _PARAM_WORD}.get(fk, _OTHER_NAME), data))
            continue
        parts = _fields(rest) if not data and not hoisted else None
        if parts is None:  # a condition tested per card, or once per pass: charged steps
            tests.append((_WHERE, (data, rest, hoisted)))
        else:
            tests.extend(parts)
    return Shape(sources, sel.name, tuple(tests))


def _fields(rest: Any) -> list[tuple[int, Any]] | None:
    """The tests of a planned 'where' filter that tests only a card's own fields (a
    :class:`~.pools.PoolFilter` of such parts and nothing left per card), else None."""
    if type(rest) is not P.PoolFilter or rest.tails[len(rest.parts)] is not None:
        return None
    out: list[tuple[int, Any]] = []
    for part in rest.parts:
        if part[0] is not None:
            return None  # an attribute: read through modifiers when any exist
        _none, test, arg, negate = part
        if test == P._FACE:
            out.append((_FACE, arg))
        elif test == P._SHOWING:
            out.append((_SHOWS_NOT if negate else _SHOWS, arg))
        else:
            out.append((_NOT_MINE if negate else _MINE, None))
    return out


def _keep(g: Game, ctx: Ctx, pool: list[int], tests: tuple[tuple[int, Any], ...]) -> list[int]:
    """The cards of ``pool`` that pass every test, in the pool's order (``Cards._filter``)."""
    for code, arg in tests:
        if code == _SHOWS:
            fv = g.face_value
            pool = [c for c in pool if fv[c] == arg]
        elif code == _SHOWS_NOT:
            fv = g.face_value
            pool = [c for c in pool if fv[c] != arg]
        elif code in (_MINE, _NOT_MINE):
            owner, you = g.owner, ctx.you
            pool = [c for c in pool if owner[c] == you] if code == _MINE else [c for c in pool if owner[c] != you]
        elif code == _WHERE:
            pool = P.where_pass(g, ctx, pool, *arg)
        elif code == _FACE:
            face_up = g.face_up
            pool = [c for c in pool if face_up[c] != arg]
        elif code == _OTHER_NAME:  # issue 12: names read where the selector is (the outer 'it')
            names = {g.card_name(c) for c in arg.cards(g, ctx)}
            pool = [c for c in pool if g.card_name(c) not in names]
        else:
            cw = g.card_words
            if code == _WORDS:
                pool = [c for c in pool if not cw[c].isdisjoint(arg)]
            elif code == _NO_WORDS:
                pool = [c for c in pool if cw[c].isdisjoint(arg)]
            else:  # _PARAM_WORD
                word = ctx.vars[arg]
                pool = [c for c in pool if word in cw[c]]
    return pool


def _slot_cards(g: Game, ctx: Ctx, kind: int, zone: int) -> list[int]:
    """The cards of a source of a zone by index, bottom first: the slot's own list."""
    if kind == _YOURS:
        return g.slots[g.zone_base[zone] + ctx.you]
    if kind == _SHARED:
        return g.slots[g.zone_base[zone]]
    it = ctx.it  # _ITS: no bound card, no slot
    return g.slots[g.zone_base[zone] + it] if it is not None else []


def adopt(sel: Any, g: Game) -> None:
    """Switch a selector just planned to its variant of :data:`_FAST` when it has a shape."""
    fast = _FAST.get(type(sel))
    if fast is not None:
        shape = shape_of(sel, g)
        if shape is not None:
            sel._shape = shape
            sel.__class__ = fast


@specialised
class _CardsShape(S.Cards):
    """A selector of a shape that chooses or takes N of its candidates."""

    __slots__ = ()

    candidates = select_cards


@specialised
class _CardsAllShape(S._CardsAll):
    """A selector of a shape that selects all its candidates."""

    __slots__ = ()

    cards = candidates = select_cards


#: the selector classes that have a variant for a shape
_FAST: dict[type, type] = {S.Cards: _CardsShape, S._CardsAll: _CardsAllShape}


@specialised
class _CountShape(X.CountCards):
    """'count CARDS' of a selector of a shape (``_zone`` holds the :class:`Shape`)."""

    __slots__ = ()

    evaluate = count_cards


def adopt_count(node: Any, g: Game) -> None:
    """Switch a count just planned to :class:`_CountShape` when its selector (planned
    first) selects all the candidates of a shape; else mark it planned."""
    sel = node.cards
    if isinstance(sel, S.Cards) and sel._source is S._UNPLANNED:
        sel._plan_source(g)
    shape = getattr(sel, "_shape", None) if type(sel) is _CardsAllShape else None
    node._zone = shape if shape is not None else ()
    if shape is not None:
        node.__class__ = _CountShape

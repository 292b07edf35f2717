"""Conditions: ``test(g, ctx) -> bool``. Conditions on cards built on :class:`_EveryCard`
hold when a card is selected and every selected card passes ``holds``."""

from __future__ import annotations

import operator
from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects.base import Node, card_has, specialised
from cardscript.runtime.game import Game

_OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt, "==": operator.eq,
        "!=": operator.ne}


class Compare(Node):
    """EXPR OP EXPR with == != < <= > >= (texts compare with == and !=).

    Built as a specialised variant (:func:`~.base.specialised`): the operator resolved, and
    a number or text written in the script (:class:`~.expressions.Const`,
    :class:`~.expressions.Text`) on either side folded into ``_k``, so that testing
    ``x <= 3`` evaluates ``x`` only. A constant on the left is folded by testing the
    mirrored operator (``3 < x`` is ``x > 3``); a constant evaluates to itself, with no
    effect, so the order of evaluation does not matter."""

    __slots__ = ("_fn", "_k", "_x", "comparison", "left", "right")

    def __new__(cls, comparison: str, left: Any, right: Any) -> Compare:
        if cls is not Compare:  # a variant named directly (tests)
            return object.__new__(cls)
        if _constant(right) is not _NOT:
            return object.__new__(_FOLDED[comparison])
        if _constant(left) is not _NOT:
            return object.__new__(_FOLDED[_MIRROR[comparison]])
        return object.__new__(_PLAIN[comparison])

    def __init__(self, comparison: str, left: Any, right: Any):
        self.comparison, self.left, self.right = comparison, left, right
        self._prepare()

    def _prepare(self) -> None:
        """Derive the private fields from the public ones (again after hoisting rewrote a side)."""
        self._fn = _OPS[self.comparison]
        k = _constant(self.right)
        if k is not _NOT:
            self._k, self._x = k, self.left
        else:
            self._k, self._x = _constant(self.left), self.right

    def test(self, g: Game, ctx: Ctx) -> bool:
        return self._fn(self.left.evaluate(g, ctx), self.right.evaluate(g, ctx))


_NOT = object()  # not a constant
_MIRROR = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "==", "!=": "!="}


def _constant(node: Any) -> Any:
    """The value of a number or text written in the script, else ``_NOT``."""
    from cardscript.runtime.effects.expressions import Const, Text  # expressions imports nothing of here

    t = type(node)
    if t is Const:
        return node.value
    if t is Text:
        return node.text
    return _NOT


@specialised
class _Le(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self.left.evaluate(g, ctx) <= self.right.evaluate(g, ctx)


@specialised
class _Lt(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self.left.evaluate(g, ctx) < self.right.evaluate(g, ctx)


@specialised
class _Ge(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self.left.evaluate(g, ctx) >= self.right.evaluate(g, ctx)


@specialised
class _Gt(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self.left.evaluate(g, ctx) > self.right.evaluate(g, ctx)


@specialised
class _Eq(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self.left.evaluate(g, ctx) == self.right.evaluate(g, ctx)


@specialised
class _Ne(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self.left.evaluate(g, ctx) != self.right.evaluate(g, ctx)


# Folded: ``_x`` is the side evaluated, ``_k`` the constant, the operator as if ``_x`` were on the left.
@specialised
class _LeK(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self._x.evaluate(g, ctx) <= self._k


@specialised
class _LtK(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self._x.evaluate(g, ctx) < self._k


@specialised
class _GeK(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self._x.evaluate(g, ctx) >= self._k


@specialised
class _GtK(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self._x.evaluate(g, ctx) > self._k


@specialised
class _EqK(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self._x.evaluate(g, ctx) == self._k


@specialised
class _NeK(Compare):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return self._x.evaluate(g, ctx) != self._k


_PLAIN = {"<=": _Le, "<": _Lt, ">=": _Ge, ">": _Gt, "==": _Eq, "!=": _Ne}
_FOLDED = {"<=": _LeK, "<": _LtK, ">=": _GeK, ">": _GtK, "==": _EqK, "!=": _NeK}


class And(Node):
    """C and C: every condition holds (evaluated left to right, stops at the first false).

    Built as a variant for one or two conditions (:func:`~.base.specialised`)."""

    __slots__ = ("_a", "_args", "_b", "args")
    _a: Any  # the first and second condition (None when there are fewer)
    _b: Any

    def __new__(cls, args: list[Any]) -> And:
        if cls is not And:
            return object.__new__(cls)
        return object.__new__(_And2 if len(args) == 2 else _And1 if len(args) == 1 else And)

    def __init__(self, args: list[Any]):
        self.args = args
        self._prepare()

    def _prepare(self) -> None:
        """Derive the private fields from ``args`` (again after hoisting rewrote one)."""
        self._args = tuple(self.args)
        self._a = self._args[0] if self._args else None
        self._b = self._args[1] if len(self._args) > 1 else None

    def test(self, g: Game, ctx: Ctx) -> bool:
        for a in self._args:  # noqa: SIM110 - a hot path: a plain loop, no generator per test
            if not a.test(g, ctx):
                return False
        return True


@specialised
class _And1(And):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return True if self._a.test(g, ctx) else False  # noqa: SIM210 - a bool, no call


@specialised
class _And2(And):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return True if self._a.test(g, ctx) and self._b.test(g, ctx) else False  # noqa: SIM210 - a bool, no call


class Or(Node):
    """C or C: some condition holds (stops at the first true).

    Built as a variant for one or two conditions (:func:`~.base.specialised`)."""

    __slots__ = ("_a", "_args", "_b", "args")
    _a: Any  # the first and second condition (None when there are fewer)
    _b: Any

    def __new__(cls, args: list[Any]) -> Or:
        if cls is not Or:
            return object.__new__(cls)
        return object.__new__(_Or2 if len(args) == 2 else _Or1 if len(args) == 1 else Or)

    def __init__(self, args: list[Any]):
        self.args = args
        self._prepare()

    def _prepare(self) -> None:
        """Derive the private fields from ``args`` (again after hoisting rewrote one)."""
        self._args = tuple(self.args)
        self._a = self._args[0] if self._args else None
        self._b = self._args[1] if len(self._args) > 1 else None

    def test(self, g: Game, ctx: Ctx) -> bool:
        for a in self._args:  # noqa: SIM110 - a hot path: a plain loop, no generator per test
            if a.test(g, ctx):
                return True
        return False


@specialised
class _Or1(Or):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return True if self._a.test(g, ctx) else False  # noqa: SIM210 - a bool, no call


@specialised
class _Or2(Or):
    def test(self, g: Game, ctx: Ctx) -> bool:
        return True if self._a.test(g, ctx) or self._b.test(g, ctx) else False  # noqa: SIM210 - a bool, no call


class Not(Node):
    """not C."""

    __slots__ = ("arg",)

    def __init__(self, arg: Any):
        self.arg = arg

    def test(self, g: Game, ctx: Ctx) -> bool:
        return not self.arg.test(g, ctx)


class PlayerMarked(Node):
    """True when every selected player carries the mark (false when none is selected)."""

    __slots__ = ("_them", "_you", "mark", "players", "this_turn")

    def __init__(self, players: Any, mark: str, this_turn: bool):
        self.players, self.mark, self.this_turn = players, mark, this_turn
        self._them = players.kind == "them" and not players.filters
        self._you = players.kind == "you" and not players.filters

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self._them:
            p = ctx.them if ctx.them is not None else ctx.you
            return g.player_marked(ctx, self.mark, p, self.this_turn)
        if self._you:  # a mark of the turn on you: player_marked()'s first test, without its call
            return (self.this_turn and ctx.you in g.turn_pmarks.get(self.mark, ())) or \
                g.player_marked(ctx, self.mark, ctx.you, self.this_turn)
        ps = self.players.players(g, ctx)
        return bool(ps) and all(g.player_marked(ctx, self.mark, p, self.this_turn) for p in ps)


class CardMarked(Node):
    """'CARDS is marked "M" [this turn]': every selected card carries the mark."""

    __slots__ = ("_it", "cards", "mark", "this_turn")

    def __init__(self, cards: Any, mark: str, this_turn: bool):
        self.cards, self.mark, self.this_turn = cards, mark, this_turn
        self._it = cards.kind == "it"

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self._it:
            return ctx.it is not None and g.card_marked(ctx, self.mark, ctx.it, self.this_turn)
        cs = self.cards.cards(g, ctx)
        return bool(cs) and all(g.card_marked(ctx, self.mark, c, self.this_turn) for c in cs)


class AnyFoeMarked(Node):
    """'any foe is marked "M" [this turn]'."""

    __slots__ = ("mark", "this_turn")

    def __init__(self, mark: str, this_turn: bool):
        self.mark, self.this_turn = mark, this_turn

    def test(self, g: Game, ctx: Ctx) -> bool:
        return any(g.player_marked(ctx, self.mark, p, self.this_turn) for p in g.foes(ctx.you))


class FaceDown(Node):
    """'CARDS is face down' / 'face up'."""

    __slots__ = ("_it", "cards", "down")

    def __init__(self, cards: Any, down: bool):
        self.cards, self.down = cards, down
        self._it = cards.kind == "it"

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self._it:
            return ctx.it is not None and g.face_up[ctx.it] != self.down
        cs = self.cards.cards(g, ctx)
        return bool(cs) and all(g.face_up[c] != self.down for c in cs)


class Did(Node):
    """'you do' / 'they don't': the previous statement's result is (is not) above 0."""

    __slots__ = ("negate",)

    def __init__(self, negate: bool):
        self.negate = negate

    def test(self, g: Game, ctx: Ctx) -> bool:
        return (ctx.did > 0) != self.negate


class Affected(Node):
    """'they were affected' / 'you were not affected': the previous statement changed (did not
    change) something of the player — a counter, a card moving into or out of their zones or
    becoming theirs, a mark on them or their cards (see ``Game.touched``)."""

    __slots__ = ("negate", "players")

    def __init__(self, players: Any, negate: bool):
        self.players, self.negate = players, negate

    def test(self, g: Game, ctx: Ctx) -> bool:
        since, touched = ctx.since, g.touched
        for p in self.players.players(g, ctx):  # a plain loop, no generator
            if touched[p] > since:
                return not self.negate
        return self.negate


class ZoneEmpty(Node):
    """'ZONE is empty'."""

    __slots__ = ("_one", "zone")

    def __init__(self, zone: Any):
        self.zone = zone
        owner = zone.owner  # a ZoneRef's, or a zone parameter's ("param")
        #: 'you' / 'shared': a zone of one slot ('your ZONE', a shared zone); else ""
        self._one = owner if owner in ("you", "shared") else ""

    def test(self, g: Game, ctx: Ctx) -> bool:
        one = self._one
        if one == "you":  # one slot, found by index: no list, no generator
            return not g.slots[g.zone_base[self.zone.zone] + ctx.you]
        if one == "shared":
            return not g.slots[g.zone_base[self.zone.zone]]
        return all(not g.slots[s] for s in self.zone.slots(g, ctx))


class _EveryCard(Node):
    """A condition on cards: true when there is a selected card and every one passes ``holds``."""

    __slots__ = ()

    def __init__(self, cards: Any):
        self.cards = cards  # type: ignore[misc]  # subclasses declare the slot

    def test(self, g: Game, ctx: Ctx) -> bool:
        sel = self.cards
        if sel.kind == "it":  # 'it is showing "bat"', tested per card of a filter: no list, no generator
            return ctx.it is not None and self.holds(g, ctx, ctx.it)
        cs = sel.cards(g, ctx)
        return bool(cs) and all(self.holds(g, ctx, c) for c in cs)

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:  # pragma: no cover - interface
        raise NotImplementedError


class HasWord(_EveryCard):
    """A card 'has' a type, a keyword, or an ability label."""

    __slots__ = ("cards", "words")

    def __init__(self, cards: Any, words: tuple[str, ...]):
        self.cards, self.words = cards, words

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self.cards.kind != "it":
            return _EveryCard.test(self, g, ctx)
        it = ctx.it  # 'it has Attack', the usual test: card_has() inlined
        if it is None:
            return False
        have = g.card_words[it]
        for w in self.words:  # noqa: SIM110 - per card of a filter: a plain loop, no generator
            if w in have:
                return True
        return False

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return card_has(g, card, self.words)


class Showing(_EveryCard):
    """Every selected die shows the face ('it is showing "bat"')."""

    __slots__ = ("cards", "face")

    def __init__(self, cards: Any, face: str):
        self.cards, self.face = cards, face

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self.cards.kind != "it":
            return _EveryCard.test(self, g, ctx)
        it = ctx.it  # 'it is showing "bat"', per card of a filter: holds() inlined
        return it is not None and g.face_value[it] == self.face

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return g.face_value[card] == self.face


class Owned(_EveryCard):
    """Every selected card belongs to the acting player ('it is yours')."""

    __slots__ = ("cards",)

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return g.owner[card] == ctx.you


class HasHome(_EveryCard):
    """'CARDS has a home': every selected card has a home zone to return to."""

    __slots__ = ("cards",)

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return g.d.cards[g.card_type[card]].home >= 0


class Emitted(Node):
    """The event was emitted (for the players, if given) since the counts were last reset."""

    __slots__ = ("event", "players")

    def __init__(self, event: str, players: Any = None):
        self.event, self.players = event, players

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self.players is None:
            return any(k[0] == self.event for k in g.event_counts)
        return all(g.event_counts.get((self.event, p), 0) > 0 for p in self.players.players(g, ctx))


class IsOver(Node):
    """The game has ended."""

    __slots__ = ()

    def test(self, g: Game, ctx: Ctx) -> bool:
        return g.over is not None


class OutcomeIs(Node):
    """'outcome is "TEXT"': the scored game's co-operative outcome."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def test(self, g: Game, ctx: Ctx) -> bool:
        return g.outcome == self.text


class WinnerIs(Node):
    """'winner is PLAYERS': the scored game's winners are exactly these players."""

    __slots__ = ("players",)

    def __init__(self, players: Any):
        self.players = players

    def test(self, g: Game, ctx: Ctx) -> bool:
        return sorted(self.players.players(g, ctx)) == sorted(g.winners)


class CameFrom(Node):
    """'CARDS came from ZONE' (issue 12): every selected card (and there is one) was last
    moved out of one of the zone reference's slots ("if you gained it from the main deck")."""

    __slots__ = ("cards", "zone")

    def __init__(self, cards: Any, zone: Any):
        self.cards, self.zone = cards, zone

    def test(self, g: Game, ctx: Ctx) -> bool:
        cs = self.cards.cards(g, ctx)
        slots = self.zone.slots(g, ctx)
        return bool(cs) and all(g.came_from[c] in slots for c in cs)

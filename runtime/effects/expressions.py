"""Expressions: ``evaluate(g, ctx) -> int`` (a text for :class:`Text`, a name or face for
:class:`AttrOf`)."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects.base import Node, as_number, whose
from cardscript.runtime.errors import saturated
from cardscript.runtime.game import Game


class Const(Node):
    """A number written in the script."""

    __slots__ = ("value",)

    def __init__(self, value: int):
        self.value = value

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        return self.value


class Text(Node):
    """A quoted text compared in a condition ('name of it != "Rare Card"')."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def evaluate(self, g: Game, ctx: Ctx) -> str:
        return self.text


class Var(Node):
    """A number parameter or a 'let' value."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        return ctx.vars[self.name]




class Arith(Node):
    """E + E, E - E, E * E, E / E and E mod E.

    Division rounds down (toward minus infinity, ``-7 / 2`` is -4) and ``E mod F`` is what
    is left, ``E - (E / F) * F`` (it takes the sign of F). A division by zero is 0 and
    ``E mod 0`` is E, so that ``(E / F) * F + E mod F == E`` always holds: never an error."""

    __slots__ = ("left", "operator", "right")

    def __init__(self, operator: str, left: Any, right: Any):
        self.operator, self.left, self.right = operator, left, right

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        a, b = self.left.evaluate(g, ctx), self.right.evaluate(g, ctx)
        o = self.operator
        if o == "+":
            return a + b
        if o == "-":
            return a - b
        if o == "/":
            return a // b if b else 0
        if o == "mod":
            return a % b if b else a
        # A product saturates, so that a loop squaring a value cannot grow it without end.
        return saturated(a * b)


class CountCards(Node):
    """'count CARDS': how many cards the selector selects.

    A count of a selector of a simple shape (:mod:`~cardscript.runtime.effects.counting`)
    becomes, at first use, a variant that counts the cards without the selector's list,
    for the steps the selector counts (issue 11)."""

    __slots__ = ("_zone", "cards")

    def __init__(self, cards: Any):
        self.cards = cards
        self._prepare()

    def _prepare(self) -> None:
        #: None: not planned; else the selector's shape (counting.Shape), with the variant
        self._zone: Any = None

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        shape = self._zone
        if shape is None:
            from cardscript.runtime.effects import counting  # counting subclasses this class

            counting.adopt_count(self, g)
            shape = self._zone
        if shape:  # of a shape, but called as this class (a call bound it first)
            return shape.count(self, g, ctx)
        return len(self.cards.cards(g, ctx))


class CountSeats(Node):
    """'count players': the number of seats."""

    __slots__ = ()

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        return g.n


class CountTypes(Node):
    """Distinct declared card types among the selected cards; subtypes are not card types."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        seen: set[str] = set()
        cards = g.d.cards
        for c in self.cards.cards(g, ctx):
            ct = cards[g.card_type[c]]
            seen |= ct.types - ct.subtypes if ct.subtypes else ct.types
        return len(seen)


class SumAttr(Node):
    """'sum of ATTR of CARDS'."""

    __slots__ = ("attr", "cards")

    def __init__(self, attr: str, cards: Any):
        self.attr, self.cards = attr, cards

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        if g.computed_attrs and self.attr in g.computed_attrs:  # "worth 1 VP for each ..." (cards2 area)
            return sum(as_number(g.attr_value(c, self.attr)) for c in self.cards.cards(g, ctx))
        return sum(as_number(g.card_attrs[c].get(self.attr, 0)) for c in self.cards.cards(g, ctx))


class AttrOf(Node):
    """An attribute of the first selected card; 0 (or '') when there is none."""

    __slots__ = ("_it", "attr", "card")

    def __init__(self, attr: str, card: Any):
        self.attr, self.card = attr, card
        self._it = card.kind == "it" and attr != "name"

    def evaluate(self, g: Game, ctx: Ctx) -> Any:
        if g.computed_attrs and self.attr in g.computed_attrs:  # "worth 1 VP for each ..." (cards2 area)
            card = [ctx.it] if self._it and ctx.it is not None else [] if self._it else self.card.cards(g, ctx)
            return g.attr_value(card[0], self.attr) if card else 0
        if self._it:
            return g.card_attrs[ctx.it].get(self.attr, 0) if ctx.it is not None else 0
        cards = self.card.cards(g, ctx)
        if not cards:
            return 0
        if self.attr == "name":  # the printed name: a text, whichever set the card is of
            ct = g.d.cards[g.card_type[cards[0]]]
            return ct.printed or ct.name
        if self.attr == "face":
            return g.face_value[cards[0]] or ""
        return g.card_attrs[cards[0]].get(self.attr, 0)


class CounterValue(Node):
    """owner: you | them | shared; 'seat' is the 1-based seat number, 'turn order' the
    1-based place in turn order (the first player is 1)."""

    __slots__ = ("_plain", "_your", "counter", "owner")

    def __init__(self, owner: str, counter: int):
        self.owner, self.counter = owner, counter
        self._your = owner == "you" and counter >= 0  # 'your power': the most read shape
        #: 'your C' of a per-player counter no passive ability adds to: a list index (planned at
        #: first use from the compiled game, which is the same for every game this runs in)
        self._plain: bool | None = None

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        if self._your:
            plain = self._plain
            if plain is None:
                c = self.counter
                plain = self._plain = g.d.counters[c].per_player and c not in g.d.passive_counters
            if plain:
                return g.values[g.counter_base[self.counter] + ctx.you]
            return g.get(self.counter, ctx.you)
        p = whose(self.owner, ctx)
        if self.counter == -1:  # seat
            return p + 1
        if self.counter == -2:  # turn order: the first player is 1, the player to their left 2
            return (p - g.first_player) % g.n + 1
        return g.get(self.counter, p)


class HighestAttr(Node):
    """The highest (or lowest) value of an attribute among the selected cards (0 for none)."""

    __slots__ = ("attr", "cards", "lowest")

    def __init__(self, attr: str, cards: Any, lowest: bool = False):
        self.attr, self.cards, self.lowest = attr, cards, lowest

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        if g.computed_attrs and self.attr in g.computed_attrs:  # "worth 1 VP for each ..." (cards2 area)
            vals = [as_number(g.attr_value(c, self.attr)) for c in self.cards.cards(g, ctx)]
        else:
            vals = [as_number(g.card_attrs[c].get(self.attr, 0)) for c in self.cards.cards(g, ctx)]
        if not vals:
            return 0
        return min(vals) if self.lowest else max(vals)


class MinMax(Node):
    """'max(E, E)' and 'min(E, E)'."""

    __slots__ = ("left", "op", "right")

    def __init__(self, op: str, left: Any, right: Any):
        self.op, self.left, self.right = op, left, right

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        a, b = self.left.evaluate(g, ctx), self.right.evaluate(g, ctx)
        return max(a, b) if self.op == "max" else min(a, b)


class CardCounter(Node):
    """A per-card counter of the first selected card ('damage of it'); 0 when none."""

    __slots__ = ("cards", "counter")

    def __init__(self, counter: int, cards: Any):
        self.counter, self.cards = counter, cards

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        return g.get(self.counter, cs[0]) if cs else 0


class Highest(Node):
    """'highest|lowest EXPR among PLAYERS': the extreme value with each player as 'them'."""

    __slots__ = ("expr", "lowest", "players")

    def __init__(self, expr: Any, players: Any, lowest: bool = False):
        self.expr, self.players, self.lowest = expr, players, lowest

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        vals = [self.expr.evaluate(g, ctx.with_them(p)) for p in self.players.players(g, ctx)]
        if not vals:
            return 0
        return min(vals) if self.lowest else max(vals)

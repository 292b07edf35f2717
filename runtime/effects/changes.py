"""Statements that change counters and marks."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects.base import Node, whose
from cardscript.runtime.game import Game


class CounterAdd(Node):
    """``+N counter [for PLAYERS]``; for a per-card counter ``cards`` selects the cards."""

    __slots__ = ("amount", "cards", "counter", "players", "sign")

    def __init__(self, counter: int, sign: int, amount: Any, players: Any = None, cards: Any = None):
        self.counter, self.sign, self.amount, self.players, self.cards = counter, sign, amount, players, cards

    def run(self, g: Game, ctx: Ctx) -> int:
        delta = self.sign * self.amount.evaluate(g, ctx)
        if self.cards is not None:
            return sum(abs(g.change(self.counter, c, delta)) for c in self.cards.cards(g, ctx))
        if self.players is None:
            return abs(g.change(self.counter, ctx.you, delta))
        return sum(abs(g.change(self.counter, p, delta)) for p in self.players.players(g, ctx))


class CounterSet(Node):
    """'set COUNTER to N' (within the counter's bounds)."""

    __slots__ = ("cards", "counter", "owner", "value")

    def __init__(self, counter: int, owner: str, value: Any, cards: Any = None):
        self.counter, self.owner, self.value, self.cards = counter, owner, value, cards

    def run(self, g: Game, ctx: Ctx) -> int:
        v = self.value.evaluate(g, ctx)
        if self.cards is not None:
            return sum(abs(g.set(self.counter, c, v)) for c in self.cards.cards(g, ctx))
        return abs(g.set(self.counter, whose(self.owner, ctx), v))


class MarkPlayers(Node):
    """'mark|unmark PLAYERS "M" [this turn]': local to the effect, or for the turn."""

    __slots__ = ("mark", "on", "players", "this_turn")

    def __init__(self, players: Any, mark: str, this_turn: bool, on: bool):
        self.players, self.mark, self.this_turn, self.on = players, mark, this_turn, on

    def run(self, g: Game, ctx: Ctx) -> int:
        ps = self.players.players(g, ctx)
        for p in ps:
            g.mark_player(ctx, self.mark, p, self.this_turn, self.on)
        return len(ps)


class MarkCards(Node):
    """'mark|unmark CARDS "M" [this turn]'."""

    __slots__ = ("cards", "mark", "on", "this_turn")

    def __init__(self, cards: Any, mark: str, this_turn: bool, on: bool):
        self.cards, self.mark, self.this_turn, self.on = cards, mark, this_turn, on

    def run(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        for c in cs:
            g.mark_card(ctx, self.mark, c, self.this_turn, self.on)
        return len(cs)

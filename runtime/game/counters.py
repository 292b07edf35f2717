"""Counters: reading them (passive bonuses included) and changing them within bounds."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.errors import PRODUCT_LIMIT, saturated
from cardscript.runtime.game.state import GameState


class CounterOps(GameState):
    """Counter values (part of :class:`~cardscript.runtime.game.Game`)."""

    def counter_slot(self, counter: int, player: int) -> int:
        """The value slot of a counter; ``player`` is a card id for per-card counters."""
        c = self.d.counters[counter]
        return self.counter_base[counter] + (player if c.per_player or c.per_card else 0)

    def get(self, counter: int, player: int) -> int:
        v = self.values[self.counter_base[counter] + (player if self.counter_per_player[counter] else 0)]
        if counter in self.d.passive_counters:
            v += self.passive_bonus(counter, player)
        return v

    def passive_bonus(self, counter: int, player: int) -> int:
        total = 0
        for label, zone in self.d.passives:
            cards = self.slots[self.slot(zone, player)]
            self.steps += len(cards)
            for card in cards:
                amounts = self.d.cards[self.card_type[card]].passive.get(label)
                if amounts:
                    total += amounts.get(counter, 0)
        return total

    def change(self, counter: int, player: int, delta: int) -> int:
        """Add ``delta`` within the counter's bounds; returns the change made."""
        c = self.d.counters[counter]
        i = self.counter_base[counter] + (player if self.counter_per_player[counter] else 0)  # counter_slot()
        values = self.values
        old = values[i]
        new = old + delta
        if c.high is not None and new > c.high:
            new = c.high
        if c.low is not None and new < c.low:
            new = c.low
        if not -PRODUCT_LIMIT <= new <= PRODUCT_LIMIT:  # unbounded: saturates (a loop doubling it)
            new = saturated(new)
        values[i] = new
        if new != old:
            who = player if c.per_player else self.owner[player] if c.per_card else -1
            if who >= 0:  # touch(), inlined: a tick
                self.clock += 1
                self.touched[who] = self.clock
        if new != old and self.logging:
            entry: dict[str, Any] = {"t": "counter", "counter": c.name, "delta": new - old, "value": new}
            if c.per_card:
                entry["card"] = self.card_name(player)
            else:
                entry["player"] = player
            self.emit_log(entry)
        return new - old

    def set(self, counter: int, player: int, value: int) -> int:
        return self.change(counter, player, value - self.values[self.counter_slot(counter, player)])


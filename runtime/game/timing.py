"""Timing (issue 12): simultaneous triggers resolved in the order their player chooses.

A game that says ``triggers resolve in the order you choose`` (a rulebook's "If you have
multiple triggered abilities, you resolve them in any order you choose", RULINGS JLD-15)
runs an event's triggers one at a time, each picked by the event's player from those
still pending, whenever the order can matter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardscript.runtime.decision import Decision
from cardscript.runtime.game.state import GameState

if TYPE_CHECKING:
    from cardscript.runtime.definition import TriggerDef

#: a trigger waiting to resolve: its definition and the card carrying it (-1: a rule)
Pending = tuple["TriggerDef", int]


class TimingOps(GameState):
    """Trigger order (part of :class:`~cardscript.runtime.game.Game`)."""

    def pending_triggers(self, name: str, player: int, it: int | None) -> list[Pending]:
        """The card triggers (triggered abilities) an emit of ``name`` for ``player`` runs,
        in the fixed order of ``emit``: the event card's own triggers, then the cards of
        active zones (bottom card first). The game's ``when`` rules are not abilities: they
        run first, in load order. Triggers that would not fire (another player's turn, a
        'first time each turn' already used) are left out, so they are never offered."""
        out: list[Pending] = []
        if it is not None and name in self.self_events:
            out.extend((t, it) for t in self.d.cards[self.card_type[it]].triggers
                       if t.of_this_card and t.event == name)
        if name in self.trigger_events:
            for z in self.active_zones:
                slot = self.zone_base[z.index] + (player if z.per_player else 0)
                self.steps += len(self.slots[slot])
                for card in self.slots[slot]:
                    out.extend((t, card) for t in self.d.cards[self.card_type[card]].triggers
                               if t.event == name and not t.of_this_card)
        return [(t, c) for t, c in out
                if not (t.your_turn and player != self.active) and not (t.first_time and (t.uid, c) in self.fired)]

    def next_trigger(self, pending: list[Pending], player: int) -> Pending:
        """Take the trigger that resolves next out of ``pending``: asked of ``player`` (a
        Decision of kind "trigger", one option per pending trigger) unless the order
        cannot change anything — one trigger, or every one the same ability (copies of
        one card)."""
        if len(pending) == 1 or len({t.uid for t, _ in pending}) == 1:
            return pending.pop(0)
        labels = [self.trigger_label(t, c) for t, c in pending]
        pick = self.decide(Decision(player, "trigger", list(pending), labels, 1, 1, "trigger order"))[0]  # type: ignore[attr-defined]
        return pending.pop(pick)

    def trigger_label(self, trig: TriggerDef, card: int) -> str:
        """'CARD: when EVENT', without quotes, so that a scenario can answer with it."""
        return f"{self.card_name(card)}: when {trig.event}"

"""Zone-entry triggers (issue 12, cards2 area): "When a card enters your discard pile",
"when a Hero enters the supply". A move into a zone that no trigger names costs one test
of an empty set (``enter_zones``); nothing is logged or dispatched for it."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.errors import MAX_TRIGGER_DEPTH, RunawayError
from cardscript.runtime.game.state import GameState
from cardscript.runtime.observation import note_subject


class EntryOps(GameState):
    """Zone entries (part of :class:`~cardscript.runtime.game.Game`)."""

    def entered(self, card: int, slot: int) -> None:
        """``card`` has just entered ``slot``, whose zone some trigger names: the game's
        rules fire once, for the zone's player (the active player for a shared zone); then
        the triggers of cards in active zones: for a per-player zone, those of its player's
        active zones and of the shared ones; for a shared zone, those of every player's, in
        turn order from the active player, each with its player as 'you'. ``it`` is the card.

        Raises:
            RunawayError: a chain of triggers deeper than
                :data:`~cardscript.runtime.errors.MAX_TRIGGER_DEPTH`.
        """
        name = self.enter_names[self.slot_zone[slot]]
        owner = self.slot_owner[slot]
        player = owner if owner >= 0 else self.active
        if self.logging:
            if self.listeners:
                note_subject(self, card)  # which card it names, for a seat's log (issue 13)
            self.emit_log({"t": "event", "event": name, "player": player, "card": self.card_name(card)})
        if self.trigger_depth >= MAX_TRIGGER_DEPTH:
            where = self.where(card)  # type: ignore[attr-defined]  # EventOps, in Game
            raise RunawayError(f"trigger chain deeper than {MAX_TRIGGER_DEPTH} at event {name!r} {where}")
        fire: Any = self._fire  # type: ignore[attr-defined]  # EventOps, in Game
        for trig in self.d.rules.get(name, ()):
            fire(trig, -1, player, card)
        seats = [owner] if owner >= 0 else self.everyone()  # type: ignore[attr-defined]  # MarkOps
        for i, q in enumerate(seats):
            for z in self.active_zones:
                if not z.per_player and i > 0:
                    continue  # a shared active zone is looked at once
                holder = self.slots[self.slot(z.index, q)]
                self.steps += len(holder)
                for c in list(holder):
                    for trig in self.d.cards[self.card_type[c]].triggers:
                        if trig.event == name:
                            fire(trig, c, q if z.per_player else player, card)

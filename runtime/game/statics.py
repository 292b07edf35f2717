"""Static rules of passive abilities (issue 12; DC rulebooks, "Ongoing"): triggers,
attribute modifiers and marks that hold only while their card lies in a passive zone
(``passive ongoing in played``); and attributes computed when read ("This card is worth
1 VP for each Equipment in your deck"). Nothing here runs unless some card of the game
has such a rule: the sets read in :class:`~cardscript.runtime.game.state.GameState` are
empty then, and every hook tests them first."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.definition import StaticRules
from cardscript.runtime.game.state import GameState


class StaticOps(GameState):
    """Static rules (part of :class:`~cardscript.runtime.game.Game`)."""

    def _statics_of(self, seats: list[int] | None) -> Iterator[tuple[int, int, StaticRules]]:
        """(card, player, rules) for each card lying in a passive zone with static rules:
        the player is the zone's (the active player for a shared zone); ``seats`` limits
        the per-player zones looked at (None: every seat)."""
        for label, zone in self.d.passives:
            per_player = self.d.zones[zone].per_player
            for q in (seats if seats is not None else range(self.n)) if per_player else [self.active]:
                cards = self.slots[self.slot(zone, q)]
                self.steps += len(cards)
                for card in list(cards):
                    rules = self.d.cards[self.card_type[card]].statics.get(label)
                    if rules is not None:
                        yield card, q, rules

    def fire_statics(self, name: str, player: int, it: int | None) -> None:
        """The static triggers on event ``name`` of the cards in ``player``'s passive
        zones (and the shared ones), bottom card first, with ``it`` the event's card."""
        for card, _, rules in self._statics_of([player]):
            for trig in rules.triggers:
                if trig.event != name:
                    continue
                if trig.kind and (it is None or not any(w in self.card_words[it] for w in trig.kind)):
                    continue
                self._fire(trig, card, player, it)  # type: ignore[attr-defined]  # EventOps, in Game

    def static_delta(self, attr: str, seat: int, card: int) -> int:
        """How much the static modifiers in play change ``attr`` of ``card`` as ``seat`` sees it."""
        total = 0
        for holder, q, rules in self._statics_of(None):
            for name, types, delta, players in rules.modifiers:
                if name != attr or (types and not any(w in self.card_words[card] for w in types)):
                    continue
                if seat in players.players(self, Ctx(q, this=holder)):
                    total += delta
        return total

    def static_marked(self, name: str, player: int, this_turn: bool) -> bool:
        """Whether a static rule in play marks ``player`` with ``name``. While the players
        of a static mark are selected, static marks are not seen (a selector filtering on
        the mark it gives cannot loop)."""
        if self.in_static_marks:
            return False
        self.in_static_marks = True
        try:
            for holder, q, rules in self._statics_of(None):
                for players, mark, turn in rules.marks:
                    if mark == name and turn == this_turn and player in players.players(self, Ctx(q, this=holder)):
                        return True
            return False
        finally:
            self.in_static_marks = False

    def attr_value(self, card: int, attr: str) -> Any:
        """``attr`` of ``card``: computed by the card's expression when it has one, with the
        card's owner as 'you' (the active player when nobody owns it) and the card as 'this'
        and 'it'; else the printed value. The checker forbids a computed attribute that
        reads a computed one (CS236); should one run anyway (a runtime guard), a value read
        while it is being computed is the printed one."""
        expr = self.d.cards[self.card_type[card]].computed.get(attr)
        key = (card, attr)
        if expr is None or key in self.computing:
            return self.card_attrs[card].get(attr, 0)
        self.computing.add(key)
        try:
            owner = self.owner[card]
            return expr.evaluate(self, Ctx(owner if owner >= 0 else self.active, it=card, this=card))
        finally:
            self.computing.discard(key)

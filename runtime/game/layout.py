"""The layout of a game, made once per definition and number of seats (issue 11, "game
creation"): the components, the zone slots and counter slots, what the card types listen
to, and the initial contents every game of that definition starts from.

:class:`~cardscript.runtime.game.state.GameState` shares the parts that never change
during a game (the attributes of :data:`FIXED_LAYOUT`, all in
:data:`cardscript.runtime.game.snapshot.FIXED`) and copies the rest, instead of laying out
the definition again for each game.
"""

from __future__ import annotations

import weakref
from typing import Any

from cardscript.runtime.definition import GameDefinition

#: the attributes a game shares with its layout (they never change during a game)
FIXED_LAYOUT = (
    "card_type", "card_attrs", "card_names", "card_words", "type_cards", "named_cards",
    "zone_base", "slot_zone", "slot_owner", "slot_card", "counter_base", "counter_per_player",
    "trigger_events", "self_events", "static_events", "static_attrs", "static_marks", "computed_attrs",
    "enter_zones", "enter_names", "active_zones", "active_slots", "slot_face_up", "foes_of", "seats_from",
)


class Layout:
    """Everything a new game of ``definition`` for ``seats`` players is laid out with.

    Slots: zone ``z`` for seat ``p`` is ``zone_base[z] + p`` (per-player zones),
    ``zone_base[z] + card`` (per-card zones) or ``zone_base[z]`` (shared zones); counter
    values use the same layout (``counter_base``). Every card starts in the box.

    Attributes:
        fixed: attribute name -> value, for the names of :data:`FIXED_LAYOUT`; shared by
            every game of this layout, never to be changed.
        nslots, box, ncards: how many zone slots, the box's slot, how many cards.
        values, owner, face_up, face_value, loc: the initial lists a game copies.
    """

    __slots__ = ("box", "face_up", "face_value", "fixed", "loc", "ncards", "nslots", "owner", "values")

    def __init__(self, d: GameDefinition, seats: int):
        # components (numbered first: per-card zones and counters need their count)
        card_type: list[int] = []
        card_attrs: list[dict[str, Any]] = []
        for pr in d.printings:
            for _ in range(pr.copies):
                card_type.append(pr.card.index)
                card_attrs.append(pr.attrs)
        ncards = len(card_type)
        # zones: slot = zone_base[z] + seat (per player) / + card (per card) / + 0 (shared)
        zone_base: list[int] = []
        slot = 0
        slot_zone: list[int] = []
        slot_owner: list[int] = []
        slot_card: list[int] = []
        for z in d.zones:
            zone_base.append(slot)
            count = seats if z.per_player else ncards if z.per_card else 1
            for p in range(count):
                slot_zone.append(z.index)
                slot_owner.append(p if z.per_player else -1)
                slot_card.append(p if z.per_card else -1)
            slot += count
        # counters: the same layout
        counter_base: list[int] = []
        cslot = 0
        for c in d.counters:
            counter_base.append(cslot)
            cslot += seats if c.per_player else ncards if c.per_card else 1
        values = [0] * cslot
        for c in d.counters:
            for p in range(seats if c.per_player else ncards if c.per_card else 1):
                values[counter_base[c.index] + p] = c.initial
        box = zone_base[d.box_zone]
        # Only events some card listens to need a scan of the active zones.
        statics = [r for ct in d.cards for r in ct.statics.values()]
        # zones some 'when a card enters ZONE' trigger names (runtime/game/entries.py)
        enters = [t.enters for ts in d.rules.values() for t in ts] + [t.enters for ct in d.cards for t in ct.triggers]
        # replacements (issue 12): the components of each card type
        type_cards: list[list[int]] = [[] for _ in d.cards]
        for card, t in enumerate(card_type):
            type_cards[t].append(card)
        words = [ct.types | ct.keywords for ct in d.cards]
        names = [ct.name for ct in d.cards]
        named: dict[str, list[int]] = {}
        for card, t in enumerate(card_type):
            named.setdefault(names[t], []).append(card)
        self.fixed: dict[str, Any] = {
            "card_type": card_type, "card_attrs": card_attrs,
            "card_names": [names[t] for t in card_type],
            "card_words": [words[t] for t in card_type], "type_cards": type_cards,
            "named_cards": {name: tuple(cards) for name, cards in named.items()},
            "zone_base": zone_base, "slot_zone": slot_zone, "slot_owner": slot_owner, "slot_card": slot_card,
            "counter_base": counter_base,
            "counter_per_player": [c.per_player or c.per_card for c in d.counters],
            "trigger_events": frozenset(t.event for ct in d.cards for t in ct.triggers if not t.of_this_card),
            "self_events": frozenset(t.event for ct in d.cards for t in ct.triggers if t.of_this_card),
            # Static rules of passive abilities (runtime/game/statics.py): empty sets cost nothing.
            "static_events": frozenset(t.event for r in statics for t in r.triggers),
            "static_attrs": frozenset(m[0] for r in statics for m in r.modifiers),
            "static_marks": frozenset((m[1], m[2]) for r in statics for m in r.marks),
            # attributes some card computes when read (``vp = count ...``)
            "computed_attrs": frozenset(a for ct in d.cards for a in ct.computed),
            "enter_zones": frozenset(z for z in enters if z >= 0),
            "enter_names": [f'enters "{z.name}"' for z in d.zones],
            "active_zones": [z for z in d.zones if z.active],
            # for each seat, the slots of the active zones an emit for it scans, in the
            # order of ``active_zones``; one more entry, read as index -1, holds what the
            # slot formula gives for seat -1 (an emit for no seat scans what it always did)
            "active_slots": [tuple(zone_base[z.index] + (p if z.per_player else 0) for z in d.zones if z.active)
                             for p in [*range(seats), -1]],
            # a card moved into the slot is face up (``ZoneOps._moved``)
            "slot_face_up": [not d.zones[z].face_down for z in slot_zone],
            # per seat, its foes clockwise from its left, and every seat clockwise from it
            # (MarkOps.foes, MarkOps.everyone)
            "foes_of": [tuple((p + i) % seats for i in range(1, seats)) for p in range(seats)],
            "seats_from": [tuple((p + i) % seats for i in range(seats)) for p in range(seats)],
        }
        assert tuple(self.fixed) == FIXED_LAYOUT
        self.nslots, self.box, self.ncards = slot, box, ncards
        self.values = values
        self.owner = [-1] * ncards
        self.face_up = [not d.zones[d.box_zone].face_down] * ncards
        self.face_value: list[str | None] = [None] * ncards
        self.loc = [box] * ncards


#: id(definition) -> (a weak reference to it, {seats: Layout})
_LAYOUTS: dict[int, tuple[weakref.ref[GameDefinition], dict[int, Layout]]] = {}


def layout_for(d: GameDefinition, seats: int) -> Layout:
    """The :class:`Layout` of ``d`` for ``seats`` players, made at its first use and kept
    while ``d`` lives (a compiled definition never changes)."""
    entry = _LAYOUTS.get(id(d))
    if entry is None or entry[0]() is not d:
        entry = (weakref.ref(d), {})
        _LAYOUTS[id(d)] = entry
        weakref.finalize(d, _forget, id(d), entry[0])
    by_seats = entry[1]
    layout = by_seats.get(seats)
    if layout is None:
        layout = by_seats[seats] = Layout(d, seats)
    return layout


def _forget(key: int, ref: weakref.ref[GameDefinition]) -> None:
    entry = _LAYOUTS.get(key)
    if entry is not None and entry[0] is ref:
        del _LAYOUTS[key]

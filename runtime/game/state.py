"""The state of one game: cards, zone slots, counter values and turn memory, laid out
from the definition; the names of cards and slots, and the log."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.errors import MAX_STEPS

if TYPE_CHECKING:
    from cardscript.runtime.decision import Agent


class GameState:
    """The data of one game, laid out from its definition; the base of every part of
    :class:`~cardscript.runtime.game.Game`.

    Cards are numbered 0..N-1; ``loc[card]`` is the zone slot holding it and every
    slot is an ordered list whose end is the top. Slots: zone ``z`` for seat ``p`` is
    ``zone_base[z] + p`` (per-player zones), ``zone_base[z] + card`` (per-card zones) or
    ``zone_base[z]`` (shared zones). Counter values use the same layout (``counter_base``).
    """

    def __init__(self, definition: GameDefinition, seats: int, agents: Sequence[Agent], seed: int,
                 log: bool = True):
        d = definition
        self.d = d
        self.n = seats
        self.agents = list(agents)
        self.rng = random.Random(seed)
        self.seed = seed
        self.logging = log
        self.log: list[dict[str, Any]] = []
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        #: tracing (scenarios' ``test -v``): blocks keep ``at`` on the statement running, 'file:line:col'
        #: (:meth:`trace` adds it to each log entry); off, nothing is recorded
        self.tracing = False
        self.at: str | None = None
        # components (numbered first: per-card zones and counters need their count)
        self.card_type: list[int] = []
        self.card_attrs: list[dict[str, Any]] = []
        for pr in d.printings:
            for _ in range(pr.copies):
                self.card_type.append(pr.card.index)
                self.card_attrs.append(pr.attrs)
        ncards = len(self.card_type)
        # zones: slot = zone_base[z] + seat (per player) / + card (per card) / + 0 (shared)
        self.zone_base: list[int] = []
        slot = 0
        self.slot_zone: list[int] = []
        self.slot_owner: list[int] = []
        self.slot_card: list[int] = []
        for z in d.zones:
            self.zone_base.append(slot)
            count = seats if z.per_player else ncards if z.per_card else 1
            for p in range(count):
                self.slot_zone.append(z.index)
                self.slot_owner.append(p if z.per_player else -1)
                self.slot_card.append(p if z.per_card else -1)
            slot += count
        self.slots: list[list[int]] = [[] for _ in range(slot)]
        # counters: the same layout
        self.counter_base: list[int] = []
        cslot = 0
        for c in d.counters:
            self.counter_base.append(cslot)
            cslot += seats if c.per_player else ncards if c.per_card else 1
        self.values: list[int] = [0] * cslot
        for c in d.counters:
            for p in range(seats if c.per_player else ncards if c.per_card else 1):
                self.values[self.counter_base[c.index] + p] = c.initial
        self.owner: list[int] = [-1] * ncards
        #: what changed whom ('if they were affected'): a clock ticked by every change of a
        #: player's counters, zones, cards or marks, and each player's last tick
        self.clock = 0
        self.touched: list[int] = [0] * seats
        self.face_up: list[bool] = [not d.zones[d.box_zone].face_down] * ncards
        #: the face a die shows (None until rolled)
        self.face_value: list[str | None] = [None] * ncards
        box = self.zone_base[d.box_zone]
        self.slots[box] = list(range(ncards))
        self.loc: list[int] = [box] * ncards
        # turn memory
        self.active = 0
        #: the seat that takes the first turn (the engine's, or set by 'you go first')
        self.first_player = 0
        #: above 0 inside 'between turns:': no player is active (see ``is_active``)
        self.between_turns = 0
        self.turn = 0
        self.turn_pmarks: dict[str, set[int]] = {}
        self.turn_cmarks: dict[str, set[int]] = {}
        self.fired: set[tuple[int, int]] = set()
        self.played_turn: list[int] = []
        #: attribute modifiers (runtime/effects/cardrules.py), each
        #: [attribute, seat, types, delta, verb, used]; those for the turn end with it
        self.attr_mods: list[list[Any]] = []
        #: the action running (a "the next ... you VERB" modifier applies within action VERB)
        self.action_name = ""
        #: the timing area (runtime/game/timing.py): delayed effects waiting for an event, by
        #: (event, seat or -1), with how many are pending and the number of the last one set up;
        #: actions granted until the end of the turn
        self.delayed: dict[tuple[str, int], list[Any]] = {}
        self.delayed_count = self.delayed_seq = 0
        self.granted: list[Any] = []
        #: the label of each ability offered in a trigger-order decision, made once a game
        self.trigger_labels: dict[Any, str] = {}
        self.decisions = 0
        self.trigger_depth = 0
        #: effect steps taken (the budget: ``step_limit``) and levels of effects running inside
        #: each other (see EventOps.run_nested); both deterministic, never time
        self.steps = 0
        self.step_limit = MAX_STEPS
        self.nesting = 0
        self.over: str | None = None
        self.winners: list[int] = []
        self.outcome = ""
        self.warnings: list[str] = []
        #: outcomes forced by a scenario: ("shuffle", [names from the top]) or ("random", [answers])
        self.rigged: list[tuple[str, list[Any]]] = []
        self.event_counts: dict[tuple[str, int], int] = {}
        # Only events some card listens to need a scan of the active zones.
        self.trigger_events = frozenset(t.event for ct in d.cards for t in ct.triggers if not t.of_this_card)
        self.self_events = frozenset(t.event for ct in d.cards for t in ct.triggers if t.of_this_card)
        # Static rules of passive abilities (runtime/game/statics.py): empty sets cost nothing.
        statics = [r for ct in d.cards for r in ct.statics.values()]
        self.static_events = frozenset(t.event for r in statics for t in r.triggers)
        self.static_attrs = frozenset(m[0] for r in statics for m in r.modifiers)
        self.static_marks = frozenset((m[1], m[2]) for r in statics for m in r.marks)
        self.in_static_marks = False
        #: attributes some card computes when read (``vp = count ...``), and those being computed
        self.computed_attrs = frozenset(a for ct in d.cards for a in ct.computed)
        self.computing: set[tuple[int, str]] = set()
        #: zones some 'when a card enters ZONE' trigger names (runtime/game/entries.py)
        enters = [t.enters for ts in d.rules.values() for t in ts] + [t.enters for ct in d.cards for t in ct.triggers]
        self.enter_zones = frozenset(z for z in enters if z >= 0)
        self.enter_names = [f'enters "{z.name}"' for z in d.zones]
        #: cards a player controls outside their play zone, for this turn
        self.controller: dict[int, int] = {}
        self.active_zones = [z for z in d.zones if z.active]
        self.counter_per_player = [c.per_player or c.per_card for c in d.counters]
        # replacements (issue 12): the components of each card type, and the (uid, card)
        # replacements running now, which do not replace again
        self.type_cards: list[list[int]] = [[] for _ in d.cards]
        for card, t in enumerate(self.card_type):
            self.type_cards[t].append(card)
        self.replacing: set[tuple[int, int]] = set()
        #: the slot each card was last moved out of (-1: never moved), for 'came from'
        self.came_from: list[int] = [-1] * ncards
        #: (card, seat) for each card a seat took into a zone ('take ... into') this turn
        self.gained_turn: list[tuple[int, int]] = []
        words = [ct.types | ct.keywords for ct in d.cards]
        self.card_words = [words[t] for t in self.card_type]

    # ------------------------------------------------------------ names
    def card_name(self, card: int) -> str:
        return self.d.cards[self.card_type[card]].name

    def slot_name(self, slot: int) -> str:
        z = self.d.zones[self.slot_zone[slot]]
        owner = self.slot_owner[slot]
        if self.slot_card[slot] >= 0:
            return f"{z.name} of {self.card_name(self.slot_card[slot])}"
        return f"P{owner + 1} {z.name}" if owner >= 0 else z.name

    # ------------------------------------------------------------ logging
    def emit_log(self, entry: dict[str, Any]) -> None:
        if self.logging:
            self.log.append(entry)
            for fn in self.listeners:
                fn(entry)

    def trace(self) -> None:
        """Turn tracing on: from now on each log entry gets an ``"at"`` field, the script
        position ('file:line:col') of the statement whose effect logged it, when one ran."""
        self.tracing = True

        def stamp(entry: dict[str, Any]) -> None:
            if self.at is not None:
                entry["at"] = self.at

        self.listeners.append(stamp)
    def is_active(self, player: int) -> bool:
        """``player`` is the active player: it is their turn and not between turns."""
        return player == self.active and not self.between_turns

    def touch(self, player: int) -> None:
        """Record that something of ``player`` changed now (see ``touched``)."""
        self.clock += 1
        self.touched[player] = self.clock

    # ------------------------------------------------------------ layout
    def slot(self, zone: int, player: int) -> int:
        """The slot of a zone for a seat (the one slot of a shared zone)."""
        z = self.d.zones[zone]
        return self.zone_base[zone] + (player if z.per_player else 0)

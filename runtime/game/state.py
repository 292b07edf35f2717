"""The state of one game: cards, zone slots, counter values and turn memory, laid out
from the definition; the names of cards and slots, and the log."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.errors import MAX_STEPS
from cardscript.runtime.game.layout import layout_for

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

    # Shared with the game's Layout (runtime/game/layout.py, FIXED_LAYOUT): never changed.
    card_type: list[int]
    card_attrs: list[dict[str, Any]]
    #: each card's name (``card_name``), read without a call where a filter tests many cards
    card_names: list[str]
    #: each card name -> the cards of that name, in number order (a selector naming a card
    #: finds it in a large zone, such as the box at setup, without testing every card)
    named_cards: dict[str, tuple[int, ...]]
    card_words: list[frozenset[str]]
    #: the components of each card type (replacements, issue 12)
    type_cards: list[list[int]]
    zone_base: list[int]
    slot_zone: list[int]
    slot_owner: list[int]
    slot_card: list[int]
    counter_base: list[int]
    counter_per_player: list[bool]
    #: events some card listens to (only those need a scan of the active zones)
    trigger_events: frozenset[str]
    self_events: frozenset[str]
    static_events: frozenset[str]
    static_attrs: frozenset[str]
    static_marks: frozenset[tuple[Any, Any]]
    #: attributes some card computes when read (``vp = count ...``)
    computed_attrs: frozenset[str]
    #: zones some 'when a card enters ZONE' trigger names (runtime/game/entries.py)
    enter_zones: frozenset[int]
    enter_names: list[str]
    active_zones: list[Any]
    #: per seat (and, last, for seat -1), the slots of the active zones an emit scans
    active_slots: list[tuple[int, ...]]
    #: per slot, whether a card moved into it lies face up
    slot_face_up: list[bool]
    #: per seat, its foes clockwise starting with the player to its left; every seat
    #: clockwise starting with it (index -1: the last seat's, which is what -1 gives too)
    foes_of: list[tuple[int, ...]]
    seats_from: list[tuple[int, ...]]

    def __init__(self, definition: GameDefinition, seats: int, agents: Sequence[Agent], seed: int,
                 log: bool = True):
        d = definition
        self.d = d
        self.n = seats
        self.agents = list(agents)
        self._rng = random.Random(seed)
        self._rng_shared = False
        #: the last snapshot this game took or was restored from, whose containers the next
        #: snapshot shares where they are equal (runtime/game/snapshot.py); None: none yet
        self._last: Any = None
        self.seed = seed
        self.logging = log
        self.log: list[dict[str, Any]] = []
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        #: tracing (scenarios' ``test -v``): blocks keep ``at`` on the statement running, 'file:line:col'
        #: (:meth:`trace` adds it to each log entry); off, nothing is recorded
        self.tracing = False
        self.at: str | None = None
        # The layout (cards, slots, counters and what each card type listens to) is the same
        # for every game of a definition and seat count: laid out once, then shared (what
        # never changes) or copied (the initial cards in zones and counter values).
        layout = layout_for(d, seats)
        self.__dict__.update(layout.fixed)
        self.slots: list[list[int]] = [[] for _ in range(layout.nslots)]
        self.slots[layout.box] = list(range(layout.ncards))
        self.values: list[int] = layout.values[:]
        self.owner: list[int] = layout.owner[:]
        #: what changed whom ('if they were affected'): a clock ticked by every change of a
        #: player's counters, zones, cards or marks, and each player's last tick
        self.clock = 0
        self.touched: list[int] = [0] * seats
        self.face_up: list[bool] = layout.face_up[:]
        #: the face a die shows (None until rolled)
        self.face_value: list[str | None] = layout.face_value[:]
        self.loc: list[int] = layout.loc[:]
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
        #: plays whose ability is resolving, in a game whose triggers wait for the card played
        #: (``GameDefinition.triggers_wait_for_play``); the seat playing the outermost one; and
        #: the card triggers waiting for it to resolve, each (trigger, card, player, it)
        self.playing = 0
        self.play_player = -1
        self.waiting: list[tuple[Any, int, int, int | None]] = []
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
        self.in_static_marks = False
        #: the (card, attribute) computed attributes being computed now
        self.computing: set[tuple[int, str]] = set()
        #: cards a player controls outside their play zone, for this turn
        self.controller: dict[int, int] = {}
        #: the (uid, card) replacements running now (issue 12), which do not replace again
        self.replacing: set[tuple[int, int]] = set()
        #: the slot each card was last moved out of (-1: never moved), for 'came from'
        self.came_from: list[int] = [-1] * layout.ncards
        #: (card, seat) for each card a seat took into a zone ('take ... into') this turn
        self.gained_turn: list[tuple[int, int]] = []

    # ------------------------------------------------------------ the RNG
    # Copy-on-write: a snapshot does not copy the RNG's state (getstate() + setstate() were
    # ~18 µs, 40 % of bench's snapshot plus restore of a 4-player game), it takes the
    # game's Random object as it is and marks it shared (``_rng_shared``); so does a restore.
    # A shared Random is never advanced: the first read of ``rng`` after a snapshot or a
    # restore gives the game its own copy. A game that snapshots and restores without
    # drawing (a bot's lookahead reading a position) never copies it at all.
    _rng: random.Random
    #: ``_rng`` is also held by a snapshot (or another game): copy it before drawing from it
    _rng_shared: bool

    @property
    def rng(self) -> random.Random:
        """The game's one seeded RNG (shuffles, random picks, dice), this game's own: it can
        be drawn from. Do not hold it across a ``snapshot()`` or ``restore()`` (read it again)."""
        if self._rng_shared:
            self._rng = _copy_random(self._rng)
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, r: random.Random) -> None:
        self._rng, self._rng_shared = r, False

    # ------------------------------------------------------------ names
    def card_name(self, card: int) -> str:
        return self.card_names[card]

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


_new_random = random.Random.__new__


def _copy_random(r: random.Random) -> random.Random:
    """A new Random in the state of ``r`` (``r`` unchanged). ``__new__`` and ``setstate``:
    ``Random()`` would first seed itself from the OS, for nothing."""
    out = _new_random(type(r))
    out.setstate(r.getstate())
    return out

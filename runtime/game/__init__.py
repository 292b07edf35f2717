"""The state of one game and the operations effects use, as one :class:`Game` built
from parts that each have one job:

* :mod:`.state` — the layout of cards, zone slots and counter values, turn memory, names, the log;
* :mod:`.zones` — moving cards, refilling zones, shuffles, rolls and random picks;
* :mod:`.counters` — reading and changing counters;
* :mod:`.marks` — seat order and marks on players and cards;
* :mod:`.decisions` — asking a player's agent;
* :mod:`.events` — events, triggers and the start of a turn;
* :mod:`.timing` — simultaneous triggers in the order their player chooses.
* :mod:`.replacements` — cards' replacements of effect calls ('instead of').
* :mod:`.statics` — static rules of passive abilities, while their card lies in play;
* :mod:`.entries` — triggers on a card entering a zone.
* :mod:`.snapshot` — snapshots, copies and the record of decisions (:mod:`.forks` replays it).
"""

from __future__ import annotations

from cardscript.runtime.game.counters import CounterOps
from cardscript.runtime.game.decisions import DecisionOps
from cardscript.runtime.game.entries import EntryOps
from cardscript.runtime.game.events import EventOps
from cardscript.runtime.game.marks import MarkOps
from cardscript.runtime.game.replacements import ReplacementOps
from cardscript.runtime.game.snapshot import SnapshotOps
from cardscript.runtime.game.state import GameState
from cardscript.runtime.game.statics import StaticOps
from cardscript.runtime.game.timing import TimingOps
from cardscript.runtime.game.zones import ZoneOps

__all__ = ["Game", "GameState"]


class Game(ZoneOps, CounterOps, MarkOps, DecisionOps, EventOps, TimingOps, ReplacementOps, StaticOps,
           EntryOps, SnapshotOps):
    """The state of one game and the operations effects use.

    Cards are numbered 0..N-1; ``loc[card]`` is the zone slot holding it and every
    slot is an ordered list whose end is the top. Slots: zone ``z`` for seat ``p`` is
    ``zone_base[z] + p`` (per-player zones) or ``zone_base[z]`` (shared zones).
    """

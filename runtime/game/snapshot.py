"""Snapshots of a game's state (issue 11, "snapshots"): :meth:`SnapshotOps.snapshot`,
:meth:`SnapshotOps.restore` and :meth:`SnapshotOps.copy`, and the record of a game's
decisions and turn-start checkpoints that :mod:`.forks` replays.

A snapshot holds flat copies of every container of the state (list slices, ``dict.copy``;
no ``copy.deepcopy``) and the game's RNG (shared copy-on-write: ``GameState.rng``); it is
never changed by play, so it can be restored any number of times. Containers that are equal
to those of the game's last snapshot (slots, sets, marks) are that snapshot's objects,
shared: no snapshot's container is ever changed, and a game never holds one.

What it means to restore one depends on where it was taken:

* **at a turn boundary** (a *checkpoint*, ``next_player >= 0``): the engine is between two
  turns, nothing is on the Python stack; :func:`~cardscript.runtime.game.forks.resume` plays
  on from it and gives the same game as the original (same agents, same RNG states);
* **anywhere else** (inside an agent's ``choose``, the engine mid-effect): the effects
  running are Python frames, which no snapshot holds. Restoring such a snapshot gives the
  state to *read* (evaluate a position, compare two states), never a game to play on:
  to play on from a decision, :func:`~cardscript.runtime.game.forks.fork` replays the
  decisions from the last checkpoint on a fresh game, which is always correct.

Every attribute of a :class:`~cardscript.runtime.game.Game` is either listed in
:data:`FIXED` (laid out from the definition when the game is created and never changed;
settings and observers) or is state a snapshot copies. ``tests/test_snapshot.py`` fails
when an attribute is neither, so a new field cannot be left out by mistake.
"""

from __future__ import annotations

import random
from operator import attrgetter, methodcaller
from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.game.state import GameState
from cardscript.runtime.game.timing import DelayedEffect, GrantedAction
from cardscript.runtime.observation import rewind

#: attributes laid out from the definition when a game is created and never changed after,
#: or settings and observers that are not the game's state: shared by a copy, not snapshot
FIXED = frozenset({
    "d", "n", "agents", "logging", "listeners", "tracing", "step_limit",
    "card_type", "card_attrs", "card_names", "card_words", "type_cards", "named_cards",
    "zone_base", "slot_zone", "slot_owner", "slot_card", "counter_base", "counter_per_player",
    "trigger_events", "self_events", "static_events", "static_attrs", "static_marks", "computed_attrs",
    "enter_zones", "enter_names", "active_zones", "active_slots", "slot_face_up", "foes_of", "seats_from",
})
#: state held in immutable values (ints, strings, None), copied as they are
ATOMS = ("seed", "clock", "active", "first_player", "between_turns", "turn", "action_name", "decisions",
         "trigger_depth", "steps", "nesting", "over", "outcome", "in_static_marks", "at", "delayed_count",
         "delayed_seq", "playing", "play_player")
#: state held in lists of immutable values (or of objects never changed once made): one slice each
LISTS = ("values", "owner", "touched", "face_up", "face_value", "loc", "came_from", "played_turn",
         "gained_turn", "warnings", "winners", "waiting")
#: state held in sets and dicts of immutable values: one ``copy()`` each
SETS = ("fired", "computing", "replacing", "event_counts", "controller", "trigger_labels")
#: marks for the turn: name -> set of seats / cards
MARKS = ("turn_pmarks", "turn_cmarks")
#: state with its own copy rule (see :meth:`SnapshotOps.snapshot`)
SPECIAL = ("slots", "attr_mods", "granted", "rigged", "_rng", "_rng_shared", "log", "delayed", "_last")
#: the record of a recorded game (:meth:`SnapshotOps.record`), on the instance only while recording
RECORDING = ("history", "checkpoints", "start_first", "decide", "new_turn")
#: every attribute a snapshot covers
STATE = frozenset(ATOMS + LISTS + SETS + MARKS + SPECIAL + RECORDING)

_atoms = attrgetter(*ATOMS)
_lists = attrgetter(*LISTS)
_sets = attrgetter(*SETS)
_new = object.__new__
#: a set's or a dict's shallow copy
_copy = methodcaller("copy")
#: the RNG of a blank game (shared, never drawn from: see GameState.rng)
_RNG0 = random.Random(0)


class Snapshot:
    """The state of one game at one moment (see the module docstring). Read-only: nothing
    that plays on changes it.

    Attributes:
        definition: the game's :class:`~cardscript.runtime.definition.GameDefinition`.
        seats: its number of players.
        next_player: at a turn boundary, the seat whose turn starts next; else -1.
        decisions: decisions asked so far (the one being asked included).
        answered: while recording, decisions answered so far (``decisions - 1`` inside an
            agent's ``choose``); else -1.
    """

    __slots__ = ("answered", "atoms", "attr_mods", "checkpoints", "definition", "delayed", "granted", "history",
                 "lists", "log", "log_len", "marks", "next_player", "rigged", "rng", "seats", "sets", "slots",
                 "start_first")

    definition: GameDefinition
    seats: int
    next_player: int
    answered: int
    atoms: tuple[Any, ...]
    lists: tuple[list[Any], ...]
    sets: list[Any]
    marks: tuple[dict[str, set[int]], dict[str, set[int]]]
    slots: list[list[int]]
    attr_mods: list[list[Any]]
    granted: list[GrantedAction]
    delayed: tuple[tuple[tuple[str, int], tuple[DelayedEffect, ...]], ...]
    rigged: list[tuple[str, list[Any]]]
    #: the game's Random when it was taken, shared copy-on-write (see GameState.rng): never drawn from
    rng: random.Random
    log: list[dict[str, Any]]
    log_len: int
    history: list[tuple[list[int], int]] | None
    checkpoints: tuple[list[Snapshot], int] | None
    start_first: int | None

    @property
    def decisions(self) -> int:
        return int(self.atoms[ATOMS.index("decisions")])

    def _key(self) -> tuple[Any, ...]:
        """Everything that makes two states the same game, by value (a fork's delayed effects
        and granted actions are other objects than the original's, with equal contents)."""
        lists = self.lists
        delayed = [(key, [(id(x.node), x.player, x.seq, _ctx_key(x.ctx)) for x in xs]) for key, xs in self.delayed]
        granted = [(g.name, g.player, g.left, id(g.body), _ctx_key(g.ctx)) for g in self.granted]
        return (id(self.definition), self.seats, self.next_player, self.atoms, lists, delayed, self.sets,
                self.marks, self.slots, self.attr_mods, granted, self.rigged, self.rng.getstate(), self.log_len,
                self.answered, self.start_first)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Snapshot) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable contents: compared, never hashed


def _ctx_key(c: Ctx) -> tuple[Any, ...]:
    return (c.you, c.them, c.it, c.this, sorted(c.vars.items(), key=repr), c.depth)


def _clone_ctx(c: Ctx) -> Ctx:
    # A stored context's 'let' values are its own: a copy of the game must not share them.
    out = c.copy(vars=dict(c.vars))
    out.did, out.since = c.did, c.since
    return out


def _clone_grant(ga: GrantedAction) -> GrantedAction:
    # ``left`` counts down as the action is taken: each copy needs its own object.
    return GrantedAction(ga.name, ga.cond, ga.body, ga.prefer, ga.player, ga.left, _clone_ctx(ga.ctx))


def _clone_delayed(x: DelayedEffect) -> DelayedEffect:
    out = DelayedEffect(x.node, x.player, _clone_ctx(x.ctx))
    out.seq = x.seq  # the order they were set up in, which an emit runs them by
    return out


class SnapshotOps(GameState):
    """Snapshots, copies and the decision record (part of :class:`~cardscript.runtime.game.Game`)."""

    #: every decision answered so far, while recording (:meth:`record`): the picks, and the
    #: steps taken once it was answered (a bot reading a decision's values spends steps); else None
    history: list[tuple[list[int], int]] | None = None
    #: a snapshot at the start of each turn, while recording; else None
    checkpoints: list[Snapshot] | None = None
    #: the seat the engine gave the first turn to (before setup ran), while recording
    start_first: int | None = None

    def snapshot(self, next_player: int = -1) -> Snapshot:
        """The state of the game now, copied (see the module docstring).

        Args:
            next_player: only when the engine is between turns, the seat whose turn starts
                next; this makes the snapshot a checkpoint that ``resume`` can play on from.
        """
        s = _new(Snapshot)
        s.definition, s.seats, s.next_player = self.d, self.n, next_player
        s.atoms = _atoms(self)
        # Structural sharing: a slot, set or marks dict equal to the last snapshot's (taken
        # or restored) is that snapshot's own object, shared (no snapshot's container is ever
        # changed); one that differs is copied. For these small containers comparing is
        # cheaper than copying (no allocation, nothing to free later), and between two
        # snapshots of a game most are the same (a move changes two slots). The per-card lists
        # are copied: a list of 255 ints compares no faster than it copies (callgrind), and
        # ``loc`` and ``came_from`` change with every move.
        # ``==`` is exact here: each container holds values of one type (ints, bools, strs,
        # None, tuples of them), for which equal values are interchangeable.
        last = self._last
        lists = _lists(self)
        slots = self.slots
        sets = _sets(self)
        pm, cm = self.turn_pmarks, self.turn_cmarks
        if last is None:
            s.lists = tuple(map(list.copy, lists))
            s.slots = list(map(list.copy, slots))
            s.sets = list(map(_copy, sets))
            s.marks = ({k: v.copy() for k, v in pm.items()}, {k: v.copy() for k, v in cm.items()})
        else:
            s.lists = tuple(map(list.copy, lists))
            ls = last.slots
            s.slots = ls if slots == ls else [p if c == p else c.copy() for c, p in zip(slots, ls, strict=True)]
            s.sets = [p if c == p else c.copy() for c, p in zip(sets, last.sets, strict=True)]
            lp, lc = last.marks
            s.marks = (lp if pm == lp else {k: v.copy() for k, v in pm.items()},
                       lc if cm == lc else {k: v.copy() for k, v in cm.items()})
        self._last = s
        # pending delayed effects, filed by (event, seat): each its own copy
        # (mostly empty: an empty one costs no comprehension)
        dl = self.delayed
        s.delayed = tuple([(key, tuple(map(_clone_delayed, xs))) for key, xs in dl.items()]) if dl else ()
        s.attr_mods = list(map(list.copy, self.attr_mods))
        s.granted = [_clone_grant(ga) for ga in self.granted] if self.granted else []
        s.rigged = [(kind, list(v)) for kind, v in self.rigged] if self.rigged else []
        # The RNG, copy-on-write: the game copies it before its next draw (GameState.rng).
        s.rng = self._rng
        self._rng_shared = True
        # The log, the history and the checkpoints only grow, and a restore gives the game new
        # lists (never truncates one): the snapshot keeps the list and its length.
        s.log, s.log_len = self.log, len(self.log)
        h = self.history
        s.history, s.answered = h, len(h) if h is not None else -1
        s.checkpoints = (self.checkpoints, len(self.checkpoints)) if self.checkpoints is not None else None
        s.start_first = self.start_first
        return s

    def restore(self, s: Snapshot) -> None:
        """Put the game back in the state of ``s`` (which stays as it was: it can be restored
        again). The game's containers are replaced by copies, or kept where they equal the
        snapshot's: hold no references to them across a restore. While the log is off, the log is left as it is.

        Raises:
            ValueError: ``s`` was taken in a game of another definition or number of players.
        """
        if s.definition is not self.d or s.seats != self.n:
            raise ValueError(f"a snapshot of {s.definition.name} for {s.seats} players cannot be restored "
                             f"into a game of {self.d.name} for {self.n} players")
        d = self.__dict__
        # dict.update of zips and maps: the loops run in C (no bytecode per attribute)
        d.update(zip(ATOMS, s.atoms, strict=True))
        d.update(zip(LISTS, map(list.copy, s.lists), strict=True))
        if self._last is None:  # a new or blank game: nothing to compare with
            d.update(zip(SETS, map(_copy, s.sets), strict=True))
            self.slots = list(map(list.copy, s.slots))
            self.turn_pmarks = {k: v.copy() for k, v in s.marks[0].items()}
            self.turn_cmarks = {k: v.copy() for k, v in s.marks[1].items()}
        else:
            # A container of the game equal to the snapshot's is kept (it is the game's own,
            # never a snapshot's); one that differs is replaced by a copy. See snapshot().
            for name, v in zip(SETS, s.sets, strict=True):
                if d[name] != v:
                    d[name] = v.copy()
            ss = s.slots
            if self.slots != ss:
                self.slots = [c if c == p else p.copy() for c, p in zip(self.slots, ss, strict=True)]
            if self.turn_pmarks != s.marks[0]:
                self.turn_pmarks = {k: v.copy() for k, v in s.marks[0].items()}
            if self.turn_cmarks != s.marks[1]:
                self.turn_cmarks = {k: v.copy() for k, v in s.marks[1].items()}
        self._last = s
        # mostly empty: an empty one costs no comprehension
        self.delayed = {key: list(map(_clone_delayed, xs)) for key, xs in s.delayed} if s.delayed else {}
        self.attr_mods = list(map(list.copy, s.attr_mods))
        self.granted = [_clone_grant(ga) for ga in s.granted] if s.granted else []
        self.rigged = [(kind, list(v)) for kind, v in s.rigged] if s.rigged else []
        d["_rng"], d["_rng_shared"] = s.rng, True  # copied before the game's next draw
        rewind(self)  # type: ignore[arg-type]  # only ever part of a Game
        if self.logging and (self.log is not s.log or len(self.log) != s.log_len):
            self.log = s.log[:s.log_len]
        if s.history is None:
            if self.history is not None:
                self._recording(None, None, None)
            return
        h = self.history if self.history is s.history and len(s.history) == s.answered else s.history[:s.answered]
        assert s.checkpoints is not None
        ck, n = s.checkpoints
        self._recording(h, self.checkpoints if self.checkpoints is ck and len(ck) == n else ck[:n],
                        s.start_first)

    def copy(self) -> Any:
        """A new game in the same state, sharing only what never changes (:data:`FIXED`).
        It has no listeners (no tracing) and the same agent objects: a copy is for reading
        and for ``resume`` with agents of its own, not for two games sharing agents."""
        other = self.blank()
        other.restore(self.snapshot())
        return other

    def blank(self) -> Any:
        """A game of the same definition and seats with no state yet (restore one into it):
        the fixed layout is shared, not laid out again (much cheaper than a new Game)."""
        other = _new(type(self))
        od, mine = other.__dict__, self.__dict__
        for name in FIXED:
            od[name] = mine[name]
        other.agents = list(self.agents)
        other.listeners = []
        other.tracing = False
        # an RNG in the state of Random(0), shared: a restore replaces it, seeding one is ~10 µs
        other._rng, other._rng_shared = _RNG0, True
        other.log = []
        other._last = None
        return other

    # ------------------------------------------------------------ the record of a game
    def record(self, first_player: int = 0) -> None:
        """Record this game's decisions and a checkpoint at the start of each turn, so that
        :func:`~cardscript.runtime.game.forks.fork` can replay it; call it on
        ``engine.game`` before ``engine.run()``, with the engine's ``first_player``.
        A recorded game plays exactly as an unrecorded one; an unrecorded one pays nothing.

        Raises:
            ValueError: the game has started.
        """
        if self.decisions or self.turn or self.log:
            raise ValueError("record() must be called before the game starts")
        self._recording([], [], first_player)

    def _recording(self, history: list[tuple[list[int], int]] | None, checkpoints: list[Snapshot] | None,
                   start_first: int | None) -> None:
        # The recording versions of decide and new_turn are set on the instance, so that a
        # game that does not record runs the plain methods, with no test of a flag.
        d = self.__dict__
        if history is None:
            for name in RECORDING:
                d.pop(name, None)
            return
        d["history"], d["checkpoints"], d["start_first"] = history, checkpoints, start_first
        d["decide"], d["new_turn"] = self._decide_recorded, self._new_turn_recorded

    def _decide_recorded(self, decision: Any) -> list[int]:
        picks: list[int] = type(self).decide(self, decision)  # type: ignore[attr-defined]  # DecisionOps
        self.history.append((picks, self.steps))  # type: ignore[union-attr]  # set while recording
        return picks

    def _new_turn_recorded(self, player: int) -> None:
        self.checkpoints.append(self.snapshot(next_player=player))  # type: ignore[union-attr]
        type(self).new_turn(self, player)  # type: ignore[attr-defined]  # EventOps

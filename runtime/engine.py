"""The game-agnostic engine: owns the state and the one seeded RNG, resolves
effects, asks agents for decisions, dispatches events to triggers, and records a log.

Usage::

    result = Engine(definition, seats=2, agents=[RandomAgent(), GreedyAgent()], seed=7).run()

The engine knows zones, counters, cards, marks, events and decisions; every rule
of a particular game comes from the :class:`~cardscript.runtime.definition.GameDefinition`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardscript.runtime.definition import GameDefinition, TriggerDef

#: Bounds that make every game terminate (DESIGN: "every loop and trigger chain is bounded").
MAX_TURNS = 400
MAX_ACTIONS_PER_TURN = 200
MAX_TRIGGER_DEPTH = 24
MAX_CALL_DEPTH = 64


class GameOver(Exception):
    """Raised inside effects by 'end game' to stop the game at once."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RunawayError(Exception):
    """A trigger chain or recursion passed its bound. ``chain`` names the sources."""

    def __init__(self, message: str, chain: list[str]):
        super().__init__(message)
        self.chain = chain


class RigError(Exception):
    """A rigged outcome (scenarios) names a card that is not there."""


class InvalidDecision(Exception):
    """An agent answered a decision with an illegal choice."""


class Decision:
    """A choice put to one player.

    Attributes:
        player: seat index (0-based) of the player who decides.
        kind: "action" | "card" | "player" | "yes/no".
        options: legal options; ``labels`` are what logs and humans see.
        labels: one readable label per option (computed on first use when given
            as a function, so bots that never read them pay nothing).
        low, high: how many options to pick (inclusive).
        purpose: the verb the choice serves ("discard", "gain", "defense", ...),
            a hint for bots.
        values: one number per option for bots (e.g. a card's cost), or empty
            (also computed on first use when given as a function).
    """

    __slots__ = ("_labels", "_values", "high", "kind", "low", "options", "player", "purpose")

    def __init__(self, player: int, kind: str, options: list[Any], labels: Any, low: int, high: int,
                 purpose: str = "", values: Any = ()):
        self.player, self.kind, self.options, self._labels = player, kind, options, labels
        self.low, self.high, self.purpose, self._values = low, high, purpose, values

    @property
    def labels(self) -> list[str]:
        if callable(self._labels):
            self._labels = self._labels()
        return self._labels

    @property
    def values(self) -> list[int]:
        if callable(self._values):
            self._values = self._values()
        return self._values  # type: ignore[no-any-return]


class Agent:
    """Answers decisions. Subclasses implement :meth:`choose`."""

    name = "agent"

    def bind(self, game: Game, seat: int) -> None:
        """Called once when the game starts."""

    def choose(self, game: Game, decision: Decision) -> list[int]:  # pragma: no cover - interface
        """Return the indices of the chosen options (between low and high of them)."""
        raise NotImplementedError


class Ctx:
    """Who and what an effect refers to while it runs.

    you: acting seat; them: the player bound by 'for each'; it: the bound card;
    this: the card whose ability runs; vars: parameters and 'let' values;
    frames: a chain of local mark tables (marks without 'this turn');
    did: the result of the previous statement ('if you do').
    """

    __slots__ = ("depth", "did", "frames", "it", "them", "this", "vars", "you")

    def __init__(self, you: int, them: int | None = None, it: int | None = None, this: int | None = None,
                 vars: dict[str, Any] | None = None, frames: list[dict] | None = None, depth: int = 0):
        self.you = you
        self.them = them
        self.it = it
        self.this = this
        self.vars = vars if vars is not None else {}
        self.frames = frames if frames is not None else [{}]
        self.did = 0
        self.depth = depth

    def copy(self, **kw: Any) -> Ctx:
        c = self.clone()
        for k, v in kw.items():
            setattr(c, k, v)
        return c

    def clone(self) -> Ctx:
        c = _new_ctx(Ctx)
        c.you, c.them, c.it, c.this = self.you, self.them, self.it, self.this
        c.vars, c.frames, c.did, c.depth = self.vars, self.frames, 0, self.depth
        return c

    def with_them(self, them: int | None) -> Ctx:
        c = self.clone()
        c.them = them
        return c

    def with_it(self, it: int | None) -> Ctx:
        c = self.clone()
        c.it = it
        return c

    def with_you(self, you: int) -> Ctx:
        c = self.clone()
        c.you = you
        return c


_new_ctx = object.__new__


@dataclass
class Result:
    """The outcome of a game.

    Attributes:
        scores: final score per seat.
        ranking: seats from first to last place, tie-breaks applied.
        winners: seats sharing first place after tie-breaks (usually one).
        outcome: the co-operative result (the first ``outcome`` whose condition holds), or "".
        reason: the end condition's text.
        turns: turns played.
        decisions: decisions asked.
        log: the event log (empty when logging is off).
    """

    scores: list[int]
    ranking: list[int]
    winners: list[int]
    reason: str
    turns: int
    decisions: int
    tie_values: list[list[int]]
    log: list[dict[str, Any]]
    outcome: str = ""


class Game:
    """The state of one game and the operations effects use.

    Cards are numbered 0..N-1; ``loc[card]`` is the zone slot holding it and every
    slot is an ordered list whose end is the top. Slots: zone ``z`` for seat ``p`` is
    ``zone_base[z] + p`` (per-player zones) or ``zone_base[z]`` (shared zones).
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
        self.face_up: list[bool] = [not d.zones[d.box_zone].face_down] * ncards
        #: the face a die shows (None until rolled)
        self.face_value: list[str | None] = [None] * ncards
        box = self.zone_base[d.box_zone]
        self.slots[box] = list(range(ncards))
        self.loc: list[int] = [box] * ncards
        # turn memory
        self.active = 0
        self.turn = 0
        self.turn_pmarks: dict[str, set[int]] = {}
        self.turn_cmarks: dict[str, set[int]] = {}
        self.fired: set[tuple[int, int]] = set()
        self.played_turn: list[int] = []
        self.decisions = 0
        self.trigger_depth = 0
        self.chain: list[str] = []
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
        #: cards a player controls outside their play zone, for this turn
        self.controller: dict[int, int] = {}
        self.active_zones = [z for z in d.zones if z.active]
        self.counter_per_player = [c.per_player or c.per_card for c in d.counters]
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

    # ------------------------------------------------------------ zones
    def slot(self, zone: int, player: int) -> int:
        z = self.d.zones[zone]
        return self.zone_base[zone] + (player if z.per_player else 0)

    def visible(self, slot: int) -> list[int]:
        """Cards a selector sees in a slot: all of them, or only the top of a stack."""
        cards = self.slots[slot]
        if self.d.zones[self.slot_zone[slot]].stack:
            return cards[-1:]
        return cards

    def ensure(self, slot: int, count: int) -> None:
        """Refill an empty zone from its ``refill_from`` zone when cards must be taken
        from it (DC rulebooks, "Shuffling Your Deck")."""
        cards = self.slots[slot]
        if len(cards) >= count:
            return
        z = self.d.zones[self.slot_zone[slot]]
        if z.refill_from < 0 or cards:
            return
        src = self.slot(z.refill_from, self.slot_owner[slot])
        if not self.slots[src]:
            return
        for c in list(self.slots[src]):
            self.move(c, slot)
        self.shuffle(slot)
        self.emit_log({"t": "refill", "zone": self.slot_name(slot)})

    def move(self, card: int, slot: int, bottom: bool = False) -> None:
        old = self.loc[card]
        self.slots[old].remove(card)
        if bottom:
            self.slots[slot].insert(0, card)
        else:
            self.slots[slot].append(card)
        self.loc[card] = slot
        # A card in a player's zone is theirs unless it already belongs to someone (a foe's
        # card you play stays theirs); a card in a shared zone belongs to nobody.
        if self.slot_owner[slot] >= 0:
            if self.owner[card] < 0:
                self.owner[card] = self.slot_owner[slot]
        elif self.slot_card[slot] < 0:
            self.owner[card] = -1
        # Control taken of a card ends when the card moves.
        if self.controller:
            self.controller.pop(card, None)
        self.face_up[card] = not self.d.zones[self.slot_zone[slot]].face_down
        if self.logging:
            self.emit_log({"t": "move", "card": self.card_name(card), "id": card,
                           "from": self.slot_name(old), "to": self.slot_name(slot)})

    def shuffle(self, slot: int) -> None:
        cards = self.slots[slot]
        self.rng.shuffle(cards)
        if self.rigged and self.rigged[0][0] == "shuffle":
            names = self.rigged.pop(0)[1]
            top: list[int] = []
            for name in names:
                c = next((c for c in reversed(cards) if self.card_name(c) == name and c not in top), None)
                if c is None:
                    raise RigError(f"no {name!r} left to put on top of {self.slot_name(slot)}")
                top.append(c)
            cards[:] = [c for c in cards if c not in top] + top[::-1]

    def roll(self, die: int) -> str:
        """Roll one die: a random face (or the next rigged one). Returns the face."""
        faces = self.d.cards[self.card_type[die]].faces
        if self.rigged and self.rigged[0][0] == "roll":
            wanted = self.rigged[0][1]
            face = wanted.pop(0)
            if not wanted:
                self.rigged.pop(0)
            if face not in faces:
                raise RigError(f"{self.card_name(die)} has no face {face!r}: its faces are {list(faces)}")
        else:
            face = self.rng.choice(faces)
        self.face_value[die] = face
        if self.logging:
            self.emit_log({"t": "roll", "die": self.card_name(die), "id": die, "face": face})
        return face

    def pick_random(self, pool: list[int], n: int) -> list[int]:
        """``n`` distinct cards of ``pool`` at random (or as rigged by a scenario)."""
        if self.rigged and self.rigged[0][0] == "random":
            answers = self.rigged[0][1]
            out: list[int] = []
            while len(out) < n and answers:
                a = answers.pop(0)
                left = [c for c in pool if c not in out]
                c = left[a] if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(left) else \
                    next((c for c in left if self.card_name(c) == a), None)
                if c is None:
                    raise RigError(f"{a!r} is not among {[self.card_name(c) for c in left]}")
                out.append(c)
            if not answers:
                self.rigged.pop(0)
            return out
        if n == 1:
            return [self.rng.choice(pool)]
        return self.rng.sample(pool, n)

    # ------------------------------------------------------------ counters
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
            for card in self.slots[self.slot(zone, player)]:
                amounts = self.d.cards[self.card_type[card]].passive.get(label)
                if amounts:
                    total += amounts.get(counter, 0)
        return total

    def change(self, counter: int, player: int, delta: int) -> int:
        """Add ``delta`` within the counter's bounds; returns the change made."""
        c = self.d.counters[counter]
        i = self.counter_slot(counter, player)
        old = self.values[i]
        new = old + delta
        if c.high is not None and new > c.high:
            new = c.high
        if c.low is not None and new < c.low:
            new = c.low
        self.values[i] = new
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

    # ------------------------------------------------------------ players
    def foes(self, you: int) -> list[int]:
        """Foes clockwise, starting with the player to your left."""
        return [(you + i) % self.n for i in range(1, self.n)]

    def everyone(self) -> list[int]:
        """All players clockwise starting with the active player."""
        return [(self.active + i) % self.n for i in range(self.n)]

    # ------------------------------------------------------------ marks
    def mark_player(self, ctx: Ctx, name: str, player: int, this_turn: bool, on: bool = True) -> None:
        table: dict[Any, set[int]] = self.turn_pmarks if this_turn else ctx.frames[-1]
        key: Any = name if this_turn else ("p", name)
        s = table.setdefault(key, set())
        (s.add if on else s.discard)(player)

    def mark_card(self, ctx: Ctx, name: str, card: int, this_turn: bool, on: bool = True) -> None:
        table: dict[Any, set[int]] = self.turn_cmarks if this_turn else ctx.frames[-1]
        key: Any = name if this_turn else ("c", name)
        s = table.setdefault(key, set())
        (s.add if on else s.discard)(card)

    def player_marked(self, ctx: Ctx, name: str, player: int, this_turn: bool) -> bool:
        if this_turn:
            return player in self.turn_pmarks.get(name, ())
        key = ("p", name)
        return any(player in f.get(key, ()) for f in ctx.frames)

    def card_marked(self, ctx: Ctx, name: str, card: int, this_turn: bool) -> bool:
        if this_turn:
            return card in self.turn_cmarks.get(name, ())
        key = ("c", name)
        return any(card in f.get(key, ()) for f in ctx.frames)

    # ------------------------------------------------------------ decisions
    def decide(self, decision: Decision) -> list[int]:
        """Ask the player's agent; validate and log the answer."""
        self.decisions += 1
        agent = self.agents[decision.player]
        picks = list(agent.choose(self, decision))
        n = len(decision.options)
        if not (decision.low <= len(picks) <= decision.high) or len(set(picks)) != len(picks) or \
                any(not (0 <= i < n) for i in picks):
            raise InvalidDecision(
                f"{agent.name} answered {picks} to a {decision.kind} decision of P{decision.player + 1} "
                f"with {n} options, needing {decision.low}..{decision.high} picks: {decision.labels}")
        if self.logging:
            self.emit_log({"t": "decision", "player": decision.player, "kind": decision.kind,
                           "purpose": decision.purpose, "options": decision.labels, "chose": picks})
        return picks

    def yes_no(self, player: int, prompt: str) -> bool:
        picks = self.decide(Decision(player, "yes/no", [False, True], ["no", "yes"], 1, 1, prompt))
        return picks[0] == 1

    # ------------------------------------------------------------ events
    def emit(self, name: str, player: int, it: int | None, source: int | None) -> None:
        """Dispatch an event: rules first, then triggers of cards in the player's active zones."""
        key = (name, player)
        self.event_counts[key] = self.event_counts.get(key, 0) + 1
        if self.logging:
            entry: dict[str, Any] = {"t": "event", "event": name, "player": player}
            if it is not None:
                entry["card"] = self.card_name(it)
            self.emit_log(entry)
        if self.trigger_depth >= MAX_TRIGGER_DEPTH:
            raise RunawayError(f"trigger chain deeper than {MAX_TRIGGER_DEPTH} at event {name!r}", self.chain[-8:])
        for trig in self.d.rules.get(name, ()):
            self._fire(trig, -1, player, it)
        if it is not None and name in self.self_events:
            for trig in self.d.cards[self.card_type[it]].triggers:
                if trig.of_this_card and trig.event == name:
                    self._fire(trig, it, player, it)
        if name not in self.trigger_events:
            return
        for z in self.active_zones:
            slot = self.zone_base[z.index] + (player if z.per_player else 0)
            for card in list(self.slots[slot]):
                for trig in self.d.cards[self.card_type[card]].triggers:
                    if trig.event == name and not trig.of_this_card:
                        self._fire(trig, card, player, it)

    def _fire(self, trig: TriggerDef, card: int, player: int, it: int | None) -> None:
        if trig.your_turn and player != self.active:
            return
        if trig.first_time:
            key = (trig.uid, card)
            if key in self.fired:
                return
            self.fired.add(key)
        self.trigger_depth += 1
        who = self.card_name(card) if card >= 0 else "rule"
        self.chain.append(f"{who} on {trig.event!r} ({trig.source})" if trig.source else f"{who} on {trig.event!r}")
        try:
            trig.body.run(self, Ctx(player, it=it, this=card if card >= 0 else None))
        finally:
            self.trigger_depth -= 1
            self.chain.pop()

    # ------------------------------------------------------------ turn memory
    def check_immediate(self) -> None:
        """End the game now if an 'immediately' end condition holds."""
        for cond in self.d.end_conditions:
            if cond.timing == "immediately" and cond.cond.test(self, Ctx(self.active)):
                raise GameOver(cond.reason)

    def new_turn(self, player: int) -> None:
        self.active = player
        self.turn += 1
        self.event_counts.clear()
        self.controller.clear()
        self.turn_pmarks.clear()
        self.turn_cmarks.clear()
        self.fired.clear()
        self.played_turn.clear()
        self.emit_log({"t": "turn", "turn": self.turn, "player": player})


class Engine:
    """Runs one game of a :class:`GameDefinition` to its end.

    Args:
        definition: the compiled game.
        seats: number of players (within ``definition.players``).
        agents: one agent per seat.
        seed: seeds the one RNG stream of the game.
        log: record the event log (off for fast simulation).
        first_player: seat that takes the first turn.
    """

    def __init__(self, definition: GameDefinition, seats: int, agents: Sequence[Agent], seed: int,
                 log: bool = True, first_player: int = 0):
        lo, hi = definition.players
        if not lo <= seats <= hi:
            raise ValueError(f"{definition.name} is for {lo} to {hi} players, not {seats}")
        if len(agents) != seats:
            raise ValueError(f"{seats} seats need {seats} agents, got {len(agents)}")
        self.game = Game(definition, seats, agents, seed, log)
        self.first_player = first_player

    def setup(self) -> None:
        """Run the setup block (rules 'setup:')."""
        g = self.game
        for seat, agent in enumerate(g.agents):
            agent.bind(g, seat)
        g.emit_log({"t": "setup", "game": g.d.name, "players": g.n, "seed": g.seed})
        g.active = self.first_player
        g.d.setup.run(g, Ctx(self.first_player))
        for text, cond in g.d.warnings:
            if cond.test(g, Ctx(self.first_player)):
                g.warnings.append(text)
                g.emit_log({"t": "warning", "text": text})

    def play_one_turn(self, player: int) -> str:
        """Play one turn of ``player``; returns the end reason if the game ended after it."""
        g = self.game
        g.new_turn(player)
        g.d.turn.run(g, Ctx(player))
        reason = self.check_end("after the turn") or self.check_end("immediately")
        if reason:
            raise GameOver(reason)
        return ""

    def play_turns(self, max_turns: int = MAX_TURNS) -> str:
        """Play turns until an end condition holds; returns the end reason."""
        g = self.game
        player = self.first_player
        try:
            for _ in range(max_turns):
                self.play_one_turn(player)
                player = (player + 1) % g.n
        except GameOver as over:
            return over.reason
        return "turn limit reached"

    def check_end(self, timing: str) -> str:
        g = self.game
        for cond in g.d.end_conditions:
            if cond.timing == timing and cond.cond.test(g, Ctx(g.active)):
                return cond.reason
        return ""

    def run(self) -> Result:
        """Set up, play, score. Returns the :class:`Result`."""
        try:
            self.setup()
        except GameOver as over:
            return self.finish(over.reason)
        return self.finish(self.play_turns())

    def finish(self, reason: str) -> Result:
        g = self.game
        g.over = reason
        g.emit_log({"t": "end", "reason": reason, "turn": g.turn})
        scores = []
        ties: list[list[int]] = []
        for p in range(g.n):
            ctx = Ctx(p)
            if g.d.score is not None:
                g.d.score.run(g, ctx)
            scores.append(g.get(g.d.score_counter, p) if g.d.score_counter >= 0 else 0)
            ties.append([tb.evaluate(g, ctx) for tb in g.d.tie_breaks])
        keys = {p: (scores[p], *ties[p]) for p in range(g.n)}
        ranking = sorted(range(g.n), key=lambda p: tuple(-k for k in keys[p]))
        best = keys[ranking[0]]
        winners = [p for p in ranking if keys[p] == best]
        g.winners = winners
        outcome = next((text for text, cond in g.d.outcomes if cond.test(g, Ctx(g.active))), "")
        g.outcome = outcome
        entry: dict[str, Any] = {"t": "score", "scores": scores, "tie_break": ties, "winners": winners}
        if outcome:
            entry["outcome"] = outcome
        g.emit_log(entry)
        return Result(scores, ranking, winners, reason, g.turn, g.decisions, ties, g.log, outcome)

"""Events and triggers: dispatching an event to the rules and to the triggers of
cards, the bound on trigger chains, and the turn memory reset at each new turn."""

from __future__ import annotations

from typing import Any, NoReturn

from cardscript.runtime import compiled as _compiled
from cardscript.runtime.context import Ctx, fresh_ctx
from cardscript.runtime.definition import TriggerDef
from cardscript.runtime.errors import MAX_NESTING, MAX_TRIGGER_DEPTH, GameOver, RunawayError
from cardscript.runtime.game.state import GameState
from cardscript.runtime.observation import note_subject

_NO_INDEX: dict[str, Any] = {}  # before the first index is made (EventOps._listening)
#: the plan of an event that nothing listens to (EventOps._emit_plan): emit() knows it by identity
_QUIET: tuple[tuple[TriggerDef, ...], bool, bool, list[Any] | None] = ((), False, False, None)


class EventOps(GameState):
    """Events, triggers and turns (part of :class:`~cardscript.runtime.game.Game`)."""

    def emit(self, name: str, player: int, it: int | None, source: int | None) -> None:
        """Dispatch an event: rules first, then triggers of cards in the player's active zones,
        then the delayed effects waiting for it (:mod:`.timing`; there too the order the
        player chooses, when the game says so)."""
        key = (name, player)
        self.event_counts[key] = self.event_counts.get(key, 0) + 1
        if self.logging:
            entry: dict[str, Any] = {"t": "event", "event": name, "player": player}
            if it is not None:
                entry["card"] = self.card_name(it)
                if self.listeners:
                    note_subject(self, it)  # which card it names, for a seat's log (issue 13)
            self.emit_log(entry)
        if self.trigger_depth >= MAX_TRIGGER_DEPTH:
            raise RunawayError(f"trigger chain deeper than {MAX_TRIGGER_DEPTH} at event {name!r} {self.where(source)}")
        if self.d.triggers_in_chosen_order:
            for trig in self.d.rules.get(name, ()):
                self._fire(trig, -1, player, it)
            if name in self.static_events:  # static rules hold, whatever the order of the triggers
                self.fire_statics(name, player, it)  # type: ignore[attr-defined]  # StaticOps, in Game
            pending = self.pending_triggers(name, player, it)  # type: ignore[attr-defined]  # TimingOps
            if self.playing and player == self.play_player:  # they wait for the card played
                self.waiting += [(t, c, player, it) for t, c in pending if isinstance(t, TriggerDef)]
                pending = [x for x in pending if not isinstance(x[0], TriggerDef)]
            while pending:
                trig, card = self.next_trigger(pending, player)  # type: ignore[attr-defined]
                if isinstance(trig, TriggerDef):
                    self._fire(trig, card, player, it)
                else:
                    self.run_delayed(trig)  # type: ignore[attr-defined]
            return
        plan = self.d.__dict__.get("_emits", _NO_INDEX).get(name) or self._emit_plan(name)
        if plan is _QUIET:  # no rule and no card listens (most events of some games): only delayed effects
            if self.delayed:
                for x in self.due_delayed(name, player):  # type: ignore[attr-defined]
                    self.run_delayed(x)  # type: ignore[attr-defined]
            return
        self.dispatch(name, plan, player, it)

    def dispatch(self, name: str, plan: tuple[tuple[TriggerDef, ...], bool, bool, list[Any] | None],
                 player: int, it: int | None) -> None:
        """What an emit of ``name`` runs once counted and checked, as its plan
        (:meth:`_emit_plan`, not :data:`_QUIET`) says: the rules, a card's own triggers, the
        static rules, the triggers of the cards in the player's active zones (by card type),
        then the delayed effects waiting for it. A game whose triggers resolve in the order
        the player chooses does not come here (:meth:`emit`)."""
        rules, own, static, by_type = plan
        due = self.due_delayed(name, player) if self.delayed else ()  # type: ignore[attr-defined]
        for trig in rules:
            self._fire(trig, -1, player, it)
        # the card triggers of the playing player wait for the card played to resolve
        fire = self._wait if self.playing and player == self.play_player else self._fire
        if own and it is not None:
            for trig in self.d.cards[self.card_type[it]].triggers:
                if trig.of_this_card and trig.event == name:
                    fire(trig, it, player, it)
        if static:
            self.fire_statics(name, player, it)  # type: ignore[attr-defined]  # StaticOps, in Game
        if by_type is not None:
            card_type, slots = self.card_type, self.slots
            for s in self.active_slots[player]:
                cards = slots[s]
                if not cards:
                    continue
                self.steps += len(cards)
                if len(cards) == 1:  # one card (a character): no list of the cards that listen
                    card = cards[0]
                    for trig in by_type[card_type[card]]:
                        fire(trig, card, player, it)
                    continue
                # the cards that listen, as the zone holds them now (a card's type never changes)
                for card in [c for c in cards if by_type[card_type[c]]]:
                    for trig in by_type[card_type[card]]:
                        fire(trig, card, player, it)
        for x in due:  # delayed effects last, in the order they were set up
            self.run_delayed(x)  # type: ignore[attr-defined]

    def _emit_plan(self, name: str) -> tuple[tuple[TriggerDef, ...], bool, bool, list[Any] | None]:
        """What an emit of ``name`` runs, found in one look-up (issue 11): the game's rules
        listening to it, whether a card's own trigger ('of this card') or a static rule
        listens, and the card triggers by card type (:meth:`_listening`), None when no card
        listens; :data:`_QUIET` itself when nothing listens. Made at the first emit of the
        event and kept with the definition."""
        plans: dict[str, Any] | None = self.d.__dict__.get("_emits")
        if plans is None:
            plans = self.d.__dict__["_emits"] = {}
        plan = (tuple(self.d.rules.get(name, ())), name in self.self_events, name in self.static_events,
                self._listening(name) if name in self.trigger_events else None)
        plans[name] = plan = _QUIET if plan == _QUIET else plan
        return plan

    def _listening(self, name: str) -> list[tuple[TriggerDef, ...]]:
        """For each card type, the triggers (not 'of this card') that listen to event
        ``name``, in the order the card lists them: triggers indexed by event (issue 11).
        Made at the first emit of the event and kept with the definition, which no game
        changes (a per-game attribute would be state for snapshots)."""
        index: dict[str, list[tuple[TriggerDef, ...]]] | None = self.d.__dict__.get("_listening")
        if index is None:
            index = self.d.__dict__["_listening"] = {}
        found = index.get(name)
        if found is None:
            found = index[name] = [tuple(t for t in ct.triggers if t.event == name and not t.of_this_card)
                                   for ct in self.d.cards]
        return found

    def _wait(self, trig: TriggerDef, card: int, player: int, it: int | None) -> None:
        """:meth:`_fire` later: once the card being played has resolved (:meth:`resolve_waiting`).
        'During your turn' is about the moment of the event: a trigger that would not fire
        now does not wait."""
        if trig.your_turn and not self.is_active(player):
            return
        self.waiting.append((trig, card, player, it))

    def resolve_waiting(self) -> None:
        """Fire the card triggers that waited for the card played to resolve, in the order
        they were triggered; in a game whose triggers resolve in the order the player
        chooses, in the order the playing player picks (:meth:`~.timing.TimingOps.next_trigger`).
        'First time each turn' is checked as each fires. Rule:
        ``GameDefinition.triggers_wait_for_play``; triggers these fire run at once."""
        player = self.play_player
        while self.waiting:
            batch, self.waiting = self.waiting, []
            if not self.d.triggers_in_chosen_order or len(batch) == 1:
                for trig, card, p, it in batch:
                    self._fire(trig, card, p, it)
                continue
            pending: list[Any] = [(t, c) for t, c, _, _ in batch]
            while pending:
                trig, card = self.next_trigger(pending, player)  # type: ignore[attr-defined]  # TimingOps
                j = next(j for j, x in enumerate(batch) if x[0] is trig and x[1] == card)
                _, _, p, it = batch.pop(j)
                self._fire(trig, card, p, it)

    def _fire(self, trig: TriggerDef, card: int, player: int, it: int | None) -> None:
        if trig.your_turn and not self.is_active(player):
            return
        if trig.kind and (it is None or not any(w in self.card_words[it] for w in trig.kind)):
            return  # 'when a hero enters ...', 'when you play a hero: ...' (cards2 area)
        if trig.where is not None and not trig.where.test(self, fresh_ctx(player, it, card if card >= 0 else None, 0)):
            return  # 'the first time you play a card where cost of it <= 3 ...': another card uses no time up
        if trig.first_time:
            key = (trig.uid, card)
            if key in self.fired:
                return
            self.fired.add(key)
        self.trigger_depth += 1
        ctx = fresh_ctx(player, it, card if card >= 0 else None, 0)  # Ctx(player, it=it, this=...)
        try:
            self.run_nested(trig.body, ctx)
        except RunawayError as exc:
            who = self.card_name(card) if card >= 0 else "rule"
            exc.passing(f"{who} on {trig.event!r} ({trig.source})" if trig.source else f"{who} on {trig.event!r}")
            raise
        finally:
            self.trigger_depth -= 1

    def run_nested(self, body: Any, ctx: Ctx) -> int:
        """Run a body that does not run where it is written (a trigger's, an ability's, an
        action's, a called effect's, a block argument's), within
        :data:`~cardscript.runtime.errors.MAX_NESTING` levels of effects running inside each
        other, each body counting its depth (``Seq._depth``): far from Python's recursion limit."""
        depth = (body._depth if body._depth >= 0 else body.depth()) + 2  # and the frames of the call that runs it
        self.nesting += depth
        try:
            if self.nesting > MAX_NESTING:
                self.too_deep(ctx.this)
            entry = body._fn  # Seq.run's look-up of the block's closure, written out (runtime/compiled)
            if entry is not None and entry[0] is self.d and not self.tracing and _compiled.ENABLED:
                return entry[1](self, ctx)
            return body.run(self, ctx)
        finally:
            self.nesting -= depth

    def too_deep(self, this: int | None) -> NoReturn:
        """Stop effects that run inside each other past :data:`~cardscript.runtime.errors.MAX_NESTING`."""
        raise RunawayError(f"effects run inside each other more than {MAX_NESTING} levels deep {self.where(this)}: "
                           "a chain of triggers or effects that does not stop?")

    def out_of_steps(self, this: int | None) -> NoReturn:
        """Stop a game that used up its step budget (:data:`~cardscript.runtime.errors.MAX_STEPS`)."""
        raise RunawayError(f"the game used up its budget of {self.step_limit:,} steps {self.where(this)}: "
                           "a loop or a chain of triggers that does not end?")

    def where(self, this: int | None) -> str:
        """'in card NAME (seed S)' for a runaway's message: the card whose ability ran, the seed."""
        who = f"card {self.card_name(this)!r}" if this is not None else "the rules"
        return f"in {who} (seed {self.seed})"

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
        self.attr_mods.clear()
        self.granted.clear()  # "this turn"
        self.gained_turn.clear()
        if self.logging:
            self.emit_log({"t": "turn", "turn": self.turn, "player": player})


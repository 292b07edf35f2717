"""Timing (issue 12): simultaneous triggers resolved in the order their player chooses,
delayed effects waiting for the next emit of an event, and actions granted for the rest of
the turn (:class:`GrantedAction`).

A game that says ``triggers resolve in the order you choose`` (a rulebook's "If you have
multiple triggered abilities, you resolve them in any order you choose", RULINGS JLD-15)
runs an event's triggers one at a time, each picked by the event's player from those
still pending, whenever the order can matter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from cardscript.runtime.context import Ctx
from cardscript.runtime.decision import Decision
from cardscript.runtime.errors import MAX_DELAYED, MAX_GRANTED, MAX_PENDING_TRIGGERS, RunawayError
from cardscript.runtime.game.state import GameState

if TYPE_CHECKING:
    from cardscript.runtime.definition import TriggerDef


class DelayedEffect:
    """A delayed effect set up by ``Delay`` (``at the next "EVENT": ...``), waiting.

    Attributes:
        node: the ``Delay`` statement (its event and body; copies of one card share it).
        player: the seat whose next emit it waits for, or -1 for anyone's.
        ctx: the context it was set up in ('you', 'this', 'it', parameters).
        seq: its number in the order delayed effects were set up (given by ``add_delayed``).
    """

    __slots__ = ("ctx", "node", "player", "seq")

    def __init__(self, node: Any, player: int, ctx: Ctx):
        self.node, self.player, self.ctx, self.seq = node, player, ctx, 0


class GrantedAction:
    """An action a card granted its player until the turn ends (``Grant``: "Once this turn,
    you may ..."). The action window offers it beside the game's actions, with the same
    fields a bot reads on an ``ActionDef`` (``name``, ``choose`` None, ``cond``, ``body``,
    ``prefer``).

    Attributes:
        player: the seat it is offered to.
        left: uses left; -1 for any number.
        ctx: the context it was granted in ('this' is the card that granted it).
    """

    __slots__ = ("body", "choose", "cond", "ctx", "left", "name", "player", "prefer")

    def __init__(self, name: str, cond: Any, body: Any, prefer: Any, player: int, left: int, ctx: Ctx):
        self.name, self.cond, self.body, self.prefer, self.choose = name, cond, body, prefer, None
        self.player, self.left, self.ctx = player, left, ctx

    def offered(self, g: Any, player: int) -> bool:
        """Whether the action window of ``player`` offers it now."""
        return self.player == player and self.left != 0 and (self.cond is None or self.cond.test(g, self.ctx))


#: an ability waiting to resolve: a card's trigger and the card carrying it, or a delayed effect
Pending = tuple["TriggerDef | DelayedEffect", int]


class TimingOps(GameState):
    """Trigger order (part of :class:`~cardscript.runtime.game.Game`)."""

    def pending_triggers(self, name: str, player: int, it: int | None) -> list[Pending]:
        """The card triggers (triggered abilities) an emit of ``name`` for ``player`` runs,
        in the fixed order of ``emit``: the event card's own triggers, then the cards of
        active zones (bottom card first). The game's ``when`` rules are not abilities: they
        run first, in load order. Triggers that would not fire (another player's turn, a
        'first time each turn' already used) are left out, so they are never offered. The
        delayed effects due at this emit come last, in the order they were set up."""
        out: list[tuple[TriggerDef, int]] = []
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
        firing: list[Pending] = [(t, c) for t, c in out if not (t.your_turn and player != self.active)
                                 and not (t.first_time and (t.uid, c) in self.fired)]
        return firing + [(x, x.ctx.this if x.ctx.this is not None else -1) for x in self.due_delayed(name, player)]

    def add_delayed(self, x: DelayedEffect) -> None:
        """Set up a delayed effect (``Delay``), filed under its event and seat so that an emit
        looks only at those it runs, whatever else is pending (review of issue 12, A2).

        Raises:
            RunawayError: :data:`~cardscript.runtime.errors.MAX_DELAYED` are pending already
                (CS401: a delayed effect that sets up more of itself, or one set up in a loop).
        """
        if self.delayed_count >= MAX_DELAYED:
            self.too_many(f"more than {MAX_DELAYED:,} delayed effects pending", x.ctx.this)
        self.delayed_seq += 1
        x.seq = self.delayed_seq
        self.delayed.setdefault((x.node.event, x.player), []).append(x)
        self.delayed_count += 1

    def due_delayed(self, name: str, player: int) -> list[DelayedEffect]:
        """Take out of ``delayed`` the effects this emit runs (in the order they were set
        up): those that wait for ``name`` for anyone or for ``player``. Taken at the start
        of the emit, so each runs once and one set up meanwhile waits for the next emit.
        Each one taken is a step of the budget."""
        if not self.delayed:
            return []
        due = self.delayed.pop((name, -1), None) or []
        mine = self.delayed.pop((name, player), None) if player != -1 else None
        if mine:
            # each list is in the order of setting up: merged by that order (linear: two runs)
            due = sorted(due + mine, key=_seq) if due else mine
        self.delayed_count -= len(due)
        self.steps += len(due)
        return due

    def add_granted(self, ga: GrantedAction) -> None:
        """Grant an action for the rest of the turn (``Grant``).

        Raises:
            RunawayError: :data:`~cardscript.runtime.errors.MAX_GRANTED` were granted this turn
                already (CS401: a granted action that grants more of itself, review A3).
        """
        if len(self.granted) >= MAX_GRANTED:
            self.too_many(f"more than {MAX_GRANTED:,} actions granted in one turn", ga.ctx.this)
        self.granted.append(ga)

    def offered_grants(self, player: int) -> list[GrantedAction]:
        """The granted actions the action window of ``player`` offers now; each one looked
        at is a step of the budget."""
        if not self.granted:
            return []
        self.steps += len(self.granted)
        if self.steps > self.step_limit:
            self.out_of_steps(None)  # type: ignore[attr-defined]  # EventOps
        return [ga for ga in self.granted if ga.offered(self, player)]

    def no_actions_between_turns(self, this: int | None) -> NoReturn:
        """Stop a game whose script opens the action window between turns (the safety net of
        CS213: a trigger or a block argument the check does not follow)."""
        raise RunawayError(f"'take actions' between turns {self.where(this)}: "  # type: ignore[attr-defined]
                           "no player is active to take them")

    def too_many(self, what: str, this: int | None,
                 why: str = "an effect that sets up more of itself, or one run in a loop?") -> NoReturn:
        """Stop a game whose script made some state grow past its bound (docs/language.md,
        "Bounds"): a ``RunawayError`` (CS401) naming the card and the seed."""
        raise RunawayError(f"{what} {self.where(this)}: {why}")  # type: ignore[attr-defined]  # EventOps

    def run_delayed(self, x: DelayedEffect) -> None:
        """Run a due delayed effect as a trigger of its event, in the context it was set up
        in: 'you' is still the player who set it up (a Defense's "at the end of this turn,
        draw a card" draws for the defender on the attacker's turn). It counts in the
        trigger-chain bound."""
        self.trigger_depth += 1
        ctx = x.ctx.copy(frames=[{}])
        try:
            self.run_nested(x.node.body, ctx)  # type: ignore[attr-defined]  # EventOps
        except RunawayError as exc:
            who = self.card_name(x.ctx.this) if x.ctx.this is not None else "rule"
            exc.passing(f"{who}: at the next {x.node.event!r}")
            raise
        finally:
            self.trigger_depth -= 1

    def next_trigger(self, pending: list[Pending], player: int) -> Pending:
        """Take the trigger that resolves next out of ``pending``: asked of ``player`` (a
        Decision of kind "trigger", one option per pending trigger) unless the order
        cannot change anything — one trigger, or every one the same ability (copies of
        one card)."""
        self.steps += len(pending)  # each pending ability looked at, and offered
        if len(pending) == 1 or len({_ability(t) for t, _ in pending}) == 1:
            return pending.pop(0)
        if len(pending) > MAX_PENDING_TRIGGERS:
            self.too_many(f"more than {MAX_PENDING_TRIGGERS} abilities pending at once to resolve in "
                          "the order the player chooses", pending[0][1] if pending[0][1] >= 0 else None,
                          "more cards with an ability on one event than a table holds?")
        if self.steps > self.step_limit:
            self.out_of_steps(pending[0][1] if pending[0][1] >= 0 else None)  # type: ignore[attr-defined]
        # one label string per pending ability for the whole emit: the log keeps every
        # decision's labels, which then share them (review A4: n + (n-1) + ... labels)
        cache = self.trigger_labels
        labels = []
        for t, c in pending:
            key = (_ability(t), c, t.player >= 0) if isinstance(t, DelayedEffect) else (t.uid, c)
            label = cache.get(key)
            if label is None:
                label = cache[key] = self.trigger_label(t, c)
            labels.append(label)
        pick = self.decide(Decision(player, "trigger", list(pending), labels, 1, 1, "trigger order"))[0]  # type: ignore[attr-defined]
        return pending.pop(pick)

    def trigger_label(self, trig: TriggerDef | DelayedEffect, card: int) -> str:
        """'CARD: when EVENT' or 'CARD: at the next EVENT', without quotes, so that a
        scenario can answer with it."""
        who = self.card_name(card) if card >= 0 else "rule"
        if isinstance(trig, DelayedEffect):
            return f"{who}: at {'your' if trig.player >= 0 else 'the'} next {trig.node.event}"
        return f"{who}: when {trig.event}"


def _seq(x: DelayedEffect) -> int:
    return x.seq


def _ability(t: TriggerDef | DelayedEffect) -> Any:
    """What makes two pending abilities the same: a trigger's uid, a delayed effect's statement."""
    return ("delayed", id(t.node)) if isinstance(t, DelayedEffect) else t.uid

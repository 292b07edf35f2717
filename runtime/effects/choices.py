"""Statements that put a decision to a player: 'you may', 'choose', and the free-action
window (:class:`TakeActions`) with its lazily built option labels and bot values."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.decision import Decision
from cardscript.runtime.effects.actionplan import WindowPlan
from cardscript.runtime.effects.base import Node
from cardscript.runtime.effects.selectors import choose_cards
from cardscript.runtime.errors import MAX_ACTIONS_PER_TURN, RunawayError
from cardscript.runtime.game import Game
from cardscript.runtime.game.timing import GrantedAction

if TYPE_CHECKING:
    from cardscript.runtime.definition import GameDefinition


class May(Node):
    """``you may ...``: a yes/no decision, then the statement.

    ``prompt`` is the call as written: a string, or a tuple of words and :class:`Var`
    parameters whose values (a number, a type, a text) are read when the decision is
    put, so an effect's ``you may pay N gold`` asks "pay 2 gold"."""

    __slots__ = ("prompt", "stmt")

    def __init__(self, stmt: Any, prompt: str | tuple[Any, ...]):
        self.stmt, self.prompt = stmt, prompt

    def run(self, g: Game, ctx: Ctx) -> int:
        prompt = self.prompt
        if not isinstance(prompt, str):
            prompt = " ".join(p if isinstance(p, str) else str(ctx.vars[p.name]) for p in prompt)
        if not g.yes_no(ctx.you, prompt):
            return 0
        return self.stmt.run(g, ctx)


class Choose(Node):
    """``choose CARDS: body`` — bind each chosen card to 'it'. ``optional``: may choose none."""

    __slots__ = ("body", "cards", "optional")

    def __init__(self, cards: Any, body: Any, optional: bool):
        self.cards, self.body, self.optional = cards, body, optional

    def run(self, g: Game, ctx: Ctx) -> int:
        sel = self.cards
        if sel.quantity == "one" and sel.kind in ("pick", "played", "control", "param"):
            pool = sel.candidates(g, ctx)
            if not pool:
                return 0
            chosen = choose_cards(g, ctx.you, pool, 0 if self.optional else 1, 1, sel.purpose, sel.prefer, ctx)
        else:
            chosen = sel.cards(g, ctx)
        total = 0
        for c in chosen:
            total += 1
            if self.body is not None:
                self.body.run(g, ctx.with_it(c))
        if self.body is None and chosen:
            ctx.it = chosen[-1]
        return total


class _ActionLabels:
    """Labels of action options, built only when someone reads them."""

    __slots__ = ("g", "options")

    def __init__(self, g: Game, options: list[Any]):
        self.g, self.options = g, options

    def __call__(self) -> list[str]:
        g = self.g
        return [("end turn" if act is None else act.name if c is None else f"{act.name} {g.card_name(c)}")
                for act, c in self.options]


class _ActionValues:
    """Values of action options for bots, built only when a bot reads them: the script's
    ``prefer`` (of the action, or of its choose), else the card's cost, else 0. The hints of
    the game's own actions are read through the window's :class:`WindowPlan` (their common
    parts computed once per decision); a granted action's in its own context."""

    __slots__ = ("ctx", "g", "options", "plan")

    def __init__(self, g: Game, options: list[Any], ctx: Ctx, plan: WindowPlan):
        self.g, self.options, self.ctx, self.plan = g, options, ctx, plan

    def __call__(self) -> list[int]:
        g, ctx, plan = self.g, self.ctx, self.plan
        if plan.running:  # a pass inside a pass (never made by the built-in bots): no memos
            return option_values(g, self.options, ctx, {}, {})
        plan.running = True
        plan.forget()
        try:
            return option_values(g, self.options, ctx, plan.plain, plan.card)
        finally:
            plan.forget()
            plan.running = False


def option_values(g: Game, options: list[Any], ctx: Ctx, plain: dict[int, Any], card: dict[int, Any]) -> list[int]:
    """The value of each action option (action, card) for bots (:class:`_ActionValues`), the
    hints of the game's actions read through ``plain`` and ``card`` (a :class:`WindowPlan`'s,
    or empty)."""
    out = []
    saved = ctx.it
    try:
        for act, c in options:
            if act is None:
                out.append(0)
            elif c is None:
                if isinstance(act, GrantedAction):  # a granted action's own context
                    out.append(act.prefer.evaluate(g, act.ctx) if act.prefer is not None else 0)
                else:
                    prefer = plain.get(id(act), act.prefer)
                    out.append(prefer.evaluate(g, ctx) if prefer is not None else 0)
            elif act.choose.prefer is not None:
                sign, expr = card.get(id(act), act.choose.prefer)
                ctx.it = c
                out.append(sign * expr.evaluate(g, ctx))
            else:
                cost = g.card_attrs[c].get("cost", 0)  # as_number(), inlined: once per option
                out.append(cost if isinstance(cost, int) else 0)
    finally:
        ctx.it = saved
    return out


def kinds_and_values(g: Game, options: list[Any], ctx: Ctx, plan: WindowPlan,
                     kinds: dict[int, Any]) -> tuple[list[Any], list[int]]:
    """What a ``by_action`` agent is handed for an action window (issue 11): per option its
    action's :class:`~cardscript.runtime.observation.ActionKind` (None for ending the turn) and
    its value, as :func:`~cardscript.runtime.observation.action_kinds` and
    :class:`_ActionValues` give them. ``kinds``: the definition's table of ActionKinds by
    id(action) (``observation._tables``; id(None) -> None). The values without a pass of
    the plan's memos when the window's hints share no part and no action is granted this
    turn; else through those two."""
    if plan.memos or plan.running or g.granted:
        from cardscript.runtime.observation import action_kinds

        return list(action_kinds(g, options)), _ActionValues(g, options, ctx, plan)()
    return [kinds[id(act)] for act, _card in options], option_values(g, options, ctx, plan.plain, plan.card)


#: id(definition) -> (the definition, weakly; its one WindowPlan): every 'take actions' of a
#: definition (a game may have several) shares one plan, made once (its making walks every hint)
_PLANS: dict[int, tuple[weakref.ref[GameDefinition], WindowPlan]] = {}


def plan_for(g: Game) -> WindowPlan:
    """The :class:`WindowPlan` of ``g``'s definition, made at its first window and kept
    while the definition lives (as :func:`~cardscript.runtime.game.layout.layout_for`)."""
    d = g.d
    entry = _PLANS.get(id(d))
    if entry is None or entry[0]() is not d:  # a definition not seen (or one gone, its id reused)
        ref = weakref.ref(d)
        weakref.finalize(d, _forget, id(d), ref)
    elif entry[1].actions is d.actions:
        return entry[1]
    else:  # its list of actions was replaced: a plan for the new one
        ref = entry[0]
    plan = WindowPlan(d.actions, g)
    _PLANS[id(d)] = (ref, plan)
    return plan


def _forget(key: int, ref: weakref.ref[GameDefinition]) -> None:
    entry = _PLANS.get(key)
    if entry is not None and entry[0] is ref:
        del _PLANS[key]


class TakeActions(Node):
    """The free-action window: offer every legal action, then the actions granted for this
    turn (:class:`~cardscript.runtime.game.timing.GrantedAction`), plus 'end turn', until the
    player ends it."""

    __slots__ = ("_plan",)

    def __init__(self) -> None:
        self._plan: WindowPlan | None = None  # its definition's plan (plan_for), found at the first window

    def run(self, g: Game, ctx: Ctx) -> int:
        plan = self._plan
        if plan is None or plan.actions is not g.d.actions:
            plan = self._plan = plan_for(g)
        if g.between_turns:  # the check's CS213 misses a trigger or block that takes actions
            g.no_actions_between_turns(ctx.this)
        taken = 0
        outer = g.action_name  # an action's own 'take actions' restores it
        for _ in range(MAX_ACTIONS_PER_TURN):
            options = plan.options(g, ctx, outer)
            pick = g.decide(Decision(ctx.you, "action", options, _ActionLabels(g, options), 1, 1, "action",
                                     _ActionValues(g, options, ctx, plan)))[0]
            act, card = options[pick]
            if act is None:
                break
            taken += 1
            g.action_name = act.name
            run_ctx = ctx.clone()  # ctx.copy(it=card, frames=[{}]), without its keywords
            run_ctx.it, run_ctx.frames = card, [{}]
            if isinstance(act, GrantedAction):
                act.left -= act.left > 0  # -1 stays: any number of times
                run_ctx = act.ctx.copy(frames=[{}])
            try:
                g.run_nested(act.body, run_ctx)
            except RunawayError as exc:
                exc.passing(f"action {act.name!r}")
                raise
            finally:
                g.action_name = outer
            g.check_immediate()
        return taken


def heuristic_action(g: Game, options: list[Any], ctx: Ctx, plan: WindowPlan, kinds: dict[int, Any]) -> int:
    """The index of the option :class:`~cardscript.runtime.agents.HeuristicAgent` picks in an
    action window: ``HeuristicAgent.pick_action(*kinds_and_values(g, options, ctx, plan,
    kinds))`` in one pass, each value worked out as :func:`option_values` works it out, in the
    same order, and compared as ``pick_action`` compares it (issue 11: the two calls and the
    two lists cost 9 % of the instructions of bench's Minideck played by heuristic bots). It
    reads what the agent would be handed and nothing else. For the fast case of
    :func:`kinds_and_values` only: no memo of the plan, no pass running, no action granted
    this turn. ``tests/test_compiled.py`` checks it equals the two calls."""
    plain, card, attrs = plan.plain, plan.card, g.card_attrs
    best, seen = len(options) - 1, False
    top = value = 0  # pick_action's best key so far: (top, value), compared as a pair
    saved = ctx.it
    try:
        i = -1
        for act, c in options:
            i += 1
            if act is None:  # ending the turn: pick_action's default, never compared
                continue
            order, hinted, granted = kinds[id(act)]
            if c is None:
                prefer = plain.get(id(act), act.prefer)
                v = prefer.evaluate(g, ctx) if prefer is not None else 0
            elif act.choose.prefer is not None:
                sign, expr = card.get(id(act), act.choose.prefer)
                ctx.it = c
                v = sign * expr.evaluate(g, ctx)
            else:
                v = attrs[c].get("cost", 0)
                if not isinstance(v, int):
                    v = 0
            if hinted and v < 0:
                continue
            k = 1 if granted and hinted and v > 0 else -order
            if not seen or k > top or (k == top and v > value):
                best, top, value, seen = i, k, v, True
    finally:
        ctx.it = saved
    return best

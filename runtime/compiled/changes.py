"""Compiled changes of counters and marks, and the statements that ask a player (see
:mod:`cardscript.runtime.compiled`): each rule returns ``fn(g, ctx) -> int`` doing what
the statement's ``run`` does."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled.blocks import _one
from cardscript.runtime.compiled.compiler import NOT_CONST, STATEMENTS, Compiler, rule
from cardscript.runtime.context import NO_STATEMENT, Ctx, new_ctx
from cardscript.runtime.effects import changes as H
from cardscript.runtime.effects import choices as Q
from cardscript.runtime.effects.actionplan import END, WindowPlan
from cardscript.runtime.effects.selectors import choose_cards
from cardscript.runtime.errors import MAX_ACTIONS_PER_TURN, MAX_NESTING, GameOver, RunawayError
from cardscript.runtime.game.timing import GrantedAction

#: WindowPlan.options as the runtime defines it (a compiled window runs its finders itself)
_PLAIN_OPTIONS = WindowPlan.options


# ====================================================================== counters and marks
@rule(STATEMENTS, H.CounterAdd)
def _counter_add(cx: Compiler, node: Any) -> Fn:
    """:meth:`CounterAdd.run`: '+N C' of the acting player with N written in the script adds
    within the counter's bounds inline (``CounterOps.change``, whose log entry it writes)."""
    counter, sign = node.counter, node.sign
    k = cx.const(node.amount)
    if node.cards is None and node.players is None and k is not NOT_CONST and isinstance(k, int):
        cdef = cx.d.counters[counter]
        if cdef.per_player and not cdef.per_card:
            # A constant (at most MAX_NUMBER) added once a step never reaches CounterOps.change's
            # saturation within a game's step budget: no test for it.
            return _add_yours(counter, sign * k, cdef.low, cdef.high)
    amount = cx.expr(node.amount)
    if node.cards is not None:
        cards = cx.cards(node.cards)

        def run_cards(g: Any, ctx: Ctx) -> int:
            delta = sign * amount(g, ctx)
            return sum(abs(g.change(counter, c, delta)) for c in cards(g, ctx))
        return run_cards
    if node.players is None:
        def run(g: Any, ctx: Ctx) -> int:
            return abs(g.change(counter, ctx.you, sign * amount(g, ctx)))
        return run
    players = cx.players(node.players)

    def run_players(g: Any, ctx: Ctx) -> int:
        delta = sign * amount(g, ctx)
        return sum(abs(g.change(counter, p, delta)) for p in players(g, ctx))
    return run_players


def _add_yours(counter: int, delta: int, low: int | None, high: int | None) -> Fn:
    """'+N C' of a per-player counter for the acting player, N a constant:
    ``abs(g.change(C, you, N))`` written out."""
    def run(g: Any, ctx: Ctx) -> int:
        you = ctx.you
        values = g.values
        i = g.counter_base[counter] + you
        old = values[i]
        new = old + delta
        if high is not None and new > high:
            new = high
        if low is not None and new < low:
            new = low
        if new == old:
            return 0
        values[i] = new
        g.clock += 1
        g.touched[you] = g.clock
        if g.logging:
            g.emit_log({"t": "counter", "counter": g.d.counters[counter].name, "delta": new - old, "value": new,
                        "player": you})
        return abs(new - old)
    return run


@rule(STATEMENTS, H.CounterSet)
def _counter_set(cx: Compiler, node: Any) -> Fn:
    """:meth:`CounterSet.run`."""
    counter, owner = node.counter, node.owner
    k = cx.const(node.value)
    value = cx.expr(node.value) if k is NOT_CONST else None
    if node.cards is not None:
        cards = cx.cards(node.cards)

        def run_cards(g: Any, ctx: Ctx) -> int:
            v = k if value is None else value(g, ctx)
            return sum(abs(g.set(counter, c, v)) for c in cards(g, ctx))
        return run_cards
    if owner == "you":
        def run_yours(g: Any, ctx: Ctx) -> int:
            return abs(g.set(counter, ctx.you, k if value is None else value(g, ctx)))
        return run_yours

    def run(g: Any, ctx: Ctx) -> int:
        v = k if value is None else value(g, ctx)
        p = ctx.you if owner == "you" else (ctx.them if ctx.them is not None else ctx.you) if owner == "them" else 0
        return abs(g.set(counter, p, v))
    return run


@rule(STATEMENTS, H.MarkPlayers)
def _mark_players(cx: Compiler, node: Any) -> Fn:
    """:meth:`MarkPlayers.run`."""
    players = cx.players(node.players)
    mark, this_turn, on = node.mark, node.this_turn, node.on

    def run(g: Any, ctx: Ctx) -> int:
        ps = players(g, ctx)
        for p in ps:
            g.mark_player(ctx, mark, p, this_turn, on)
        return len(ps)
    return run


@rule(STATEMENTS, H.MarkCards)
def _mark_cards(cx: Compiler, node: Any) -> Fn:
    """:meth:`MarkCards.run`."""
    cards = cx.cards(node.cards)
    mark, this_turn, on = node.mark, node.this_turn, node.on

    def run(g: Any, ctx: Ctx) -> int:
        cs = cards(g, ctx)
        for c in cs:
            g.mark_card(ctx, mark, c, this_turn, on)
        return len(cs)
    return run


# ====================================================================== choices
@rule(STATEMENTS, Q.May)
def _may(cx: Compiler, node: Any) -> Fn:
    """:meth:`May.run`: a yes/no decision, then the statement."""
    stmt = cx.stmt(node.stmt)
    prompt = node.prompt
    if isinstance(prompt, str):
        def run(g: Any, ctx: Ctx) -> int:
            if not g.yes_no(ctx.you, prompt):
                return 0
            return stmt(g, ctx)
        return run
    parts = prompt

    def run_prompt(g: Any, ctx: Ctx) -> int:
        text = " ".join(p if isinstance(p, str) else str(ctx.vars[p.name]) for p in parts)
        if not g.yes_no(ctx.you, text):
            return 0
        return stmt(g, ctx)
    return run_prompt


@rule(STATEMENTS, Q.TakeActions)
def _take_actions(cx: Compiler, node: Any) -> Fn:
    """:meth:`TakeActions.run`: the window's options from its definition's
    :class:`~cardscript.runtime.effects.actionplan.WindowPlan`, one decision per action
    taken, each game action's body compiled (a granted one runs as its object), then the
    end conditions that end a game at once."""
    immediate = [(cx.cond(c.cond), c.reason) for c in cx.d.end_conditions if c.timing == "immediately"]
    # id(action) -> (closure, depth, at) of a game action's body; a body of one statement is
    # that statement's closure, run inline with its block's step (at: its positions), for
    # nobody reads what the block would store in the action's own new context
    bodies: dict[int, tuple[Fn, int, Any]] = {}
    for act in cx.d.actions:
        body = act.body
        depth = (body._depth if body._depth >= 0 else body.depth()) + 2  # found before compiling plans its calls
        one = _one(cx, body)
        bodies[id(act)] = (cx.stmt(body), depth, None) if one is None else (one[0], depth, one[1])
    plan_for, Decision, Labels, Values = Q.plan_for, Q.Decision, Q._ActionLabels, Q._ActionValues
    from cardscript.runtime.agents import HeuristicAgent
    from cardscript.runtime.effects.choices import heuristic_action, kinds_and_values
    from cardscript.runtime.game.decisions import checked
    from cardscript.runtime.observation import _tables

    def run(g: Any, ctx: Ctx) -> int:
        plan = node._plan
        if plan is None or plan.actions is not g.d.actions:
            plan = node._plan = plan_for(g)
        if g.between_turns:
            g.no_actions_between_turns(ctx.this)
        taken = 0
        outer = g.action_name
        options_of, decide = plan.options, g.decide
        you = ctx.you
        agent = g.agents[you]
        # A blind agent (the random bot) answers from the number of options alone: in a game
        # that neither logs nor records its decisions, no Decision is made for it (DecisionOps.decide).
        direct = not g.logging and "decide" not in g.__dict__
        blind = direct and getattr(agent, "blind", False)
        # One that answers by its options' actions and values (the heuristic bot) is handed them alone.
        by_action = direct and not blind and getattr(agent, "by_action", False)
        kinds: dict[int, Any] = _tables(g)[1] if by_action else {}
        # The heuristic bot's own policy, not a subclass's or an instance's: picked in one pass
        fused = by_action and type(agent).pick_action is HeuristicAgent.pick_action and \
            "pick_action" not in getattr(agent, "__dict__", ())
        # the window's compiled finders run here (WindowPlan.options written out), unless
        # options() is not the plan's own (a test that compares every window's options hooks it)
        found = plan.finders[1] if type(plan).options is _PLAIN_OPTIONS else None
        for _ in range(MAX_ACTIONS_PER_TURN):
            if found is None:
                options = options_of(g, ctx, outer)
            else:
                options = []
                for find in found:
                    find(g, ctx, options)
                g.action_name = outer
                if g.granted:
                    options.extend((ga, None) for ga in g.offered_grants(you))
                options.append(END)
            if blind:
                g.decisions += 1
                n = len(options)
                picks = agent.pick(n, 1, 1)
                if type(picks) is not list or len(picks) != 1 or type(picks[0]) is not int or not 0 <= picks[0] < n:
                    picks = checked(g, Decision(you, "action", options, Labels(g, options), 1, 1, "action"),
                                    agent, picks)
                pick = picks[0]
            elif by_action:
                g.decisions += 1
                if fused and not (plan.memos or plan.running or g.granted):
                    pick = heuristic_action(g, options, ctx, plan, kinds)
                else:
                    pick = agent.pick_action(*kinds_and_values(g, options, ctx, plan, kinds))
                if type(pick) is not int or not 0 <= pick < len(options):
                    pick = checked(g, Decision(you, "action", options, Labels(g, options), 1, 1, "action"),
                                   agent, [pick])[0]
            else:
                pick = decide(Decision(you, "action", options, Labels(g, options), 1, 1, "action",
                                       Values(g, options, ctx, plan)))[0]
            act, card = options[pick]
            if act is None:
                break
            taken += 1
            g.action_name = act.name
            compiled = bodies.get(id(act))
            try:
                if compiled is None or isinstance(act, GrantedAction):
                    if isinstance(act, GrantedAction):
                        act.left -= act.left > 0
                        run_ctx = act.ctx.copy(frames=[{}])
                    else:
                        run_ctx = ctx.clone()
                        run_ctx.it, run_ctx.frames = card, [{}]
                    g.run_nested(act.body, run_ctx)
                else:
                    fn, depth, at = compiled
                    run_ctx = new_ctx(Ctx)  # ctx.clone() with 'it' the card and a mark table of its own
                    run_ctx.you = ctx.you
                    run_ctx.them = ctx.them
                    run_ctx.it = card
                    run_ctx.this = ctx.this
                    run_ctx.vars = ctx.vars
                    run_ctx.frames = [{}]
                    run_ctx.did = 0
                    run_ctx.since = NO_STATEMENT
                    run_ctx.depth = ctx.depth
                    g.nesting += depth
                    try:
                        if g.nesting > MAX_NESTING:
                            g.too_deep(run_ctx.this)
                        if at is None:
                            fn(g, run_ctx)
                        else:
                            g.steps += 1
                            if g.steps > g.step_limit:
                                g.out_of_steps(run_ctx.this)
                            try:
                                fn(g, run_ctx)
                            except RunawayError as exc:
                                exc.leaving(at, 0)
                                raise
                    finally:
                        g.nesting -= depth
            except RunawayError as exc:
                exc.passing(f"action {act.name!r}")
                raise
            finally:
                g.action_name = outer
            if immediate:
                check = Ctx(g.active)
                for test, reason in immediate:
                    if test(g, check):
                        raise GameOver(reason)
        return taken
    return run


@rule(STATEMENTS, Q.Choose)
def _choose(cx: Compiler, node: Any) -> Fn:
    """:meth:`Choose.run`: one card chosen among the candidates (or the cards selected), the
    body run with each as 'it' on a context of its own; with no body, the last one bound to 'it'."""
    sel = node.cards
    one = sel.quantity == "one" and sel.kind in ("pick", "played", "control", "param")
    candidates = (cx.candidates(sel) or cx._planned(sel).candidates) if one else None
    cards = None if one else cx.cards(sel)
    body = cx.stmt(node.body) if node.body is not None else None
    low = 0 if node.optional else 1
    purpose, prefer = sel.purpose, sel.prefer

    def run(g: Any, ctx: Ctx) -> int:
        if candidates is not None:
            pool = candidates(g, ctx)
            if not pool:
                return 0
            chosen = choose_cards(g, ctx.you, pool, low, 1, purpose, prefer, ctx)
        else:
            chosen = cards(g, ctx)  # type: ignore[misc]  # set when not choosing one
        if body is None:
            if chosen:
                ctx.it = chosen[-1]
            return len(chosen)
        for c in chosen:
            inner = new_ctx(Ctx)  # ctx.with_it(c)
            inner.you = ctx.you
            inner.them = ctx.them
            inner.it = c
            inner.this = ctx.this
            inner.vars = ctx.vars
            inner.frames = ctx.frames
            inner.did = 0
            inner.since = NO_STATEMENT
            inner.depth = ctx.depth
            body(g, inner)
        return len(chosen)
    return run

"""Compiled calls of script effects, block arguments and events (see
:mod:`cardscript.runtime.compiled`): each rule returns ``fn(g, ctx) -> int`` doing what the
statement's ``run`` does."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled import block as _compiled_block
from cardscript.runtime.compiled.compiler import STATEMENTS, Compiler, rule
from cardscript.runtime.compiled.inline import inline_call
from cardscript.runtime.context import NO_STATEMENT, Ctx, new_ctx
from cardscript.runtime.effects import calls as K
from cardscript.runtime.effects import flow as F
from cardscript.runtime.effects.base import Node
from cardscript.runtime.effects.calls import Closure
from cardscript.runtime.effects.expressions import Const
from cardscript.runtime.errors import MAX_CALL_DEPTH, MAX_NESTING, MAX_TRIGGER_DEPTH, RunawayError
from cardscript.runtime.game.events import _QUIET
from cardscript.runtime.observation import note_subject


# ====================================================================== calls and events
def emitter(cx: Compiler, event: str) -> Any:
    """``fn(g, player, it, source)``: what ``g.emit(event, ...)`` does. An event that no
    rule, card or static rule of the definition listens to (its emit plan, made now:
    ``EventOps._emit_plan``) is counted, logged and checked against the trigger bound
    without the look-up of what listens; then only the delayed effects waiting for it run
    (through ``g.emit`` in a game whose triggers resolve in the order the player chooses).
    One something listens to is dispatched as its plan says (:func:`heard`)."""
    plan = cx.d.__dict__.get("_emits", {}).get(event) or cx.g._emit_plan(event)
    if plan is not _QUIET:
        return heard(cx, event, plan)
    chosen = cx.d.triggers_in_chosen_order  # delayed effects due together: in the order the player chooses

    def quiet(g: Any, player: int, it: int | None, source: int | None) -> None:
        if chosen and g.delayed:
            g.emit(event, player, it, source)
            return
        key = (event, player)
        counts = g.event_counts
        counts[key] = counts.get(key, 0) + 1
        if g.logging:
            entry: dict[str, Any] = {"t": "event", "event": event, "player": player}
            if it is not None:
                entry["card"] = g.card_names[it]
                if g.listeners:
                    note_subject(g, it)
            g.emit_log(entry)
        if g.trigger_depth >= MAX_TRIGGER_DEPTH:
            raise RunawayError(f"trigger chain deeper than {MAX_TRIGGER_DEPTH} at event {event!r} {g.where(source)}")
        if g.delayed:
            for x in g.due_delayed(event, player):
                g.run_delayed(x)
    return quiet


def heard(cx: Compiler, event: str, plan: Any) -> Any:
    """``fn(g, player, it, source)``: what ``g.emit(event, ...)`` does for an event something
    listens to, its emit plan (``EventOps._emit_plan``: the rules, whether a card's own
    trigger or a static rule listens, the card triggers by type) known when compiled. A
    game that logs, or whose triggers resolve in the order the player chooses, takes
    ``g.emit``."""
    if cx.d.triggers_in_chosen_order:
        return lambda g, player, it, source: g.emit(event, player, it, source)

    def heard_event(g: Any, player: int, it: int | None, source: int | None) -> None:
        if g.logging:
            g.emit(event, player, it, source)
            return
        key = (event, player)
        counts = g.event_counts
        counts[key] = counts.get(key, 0) + 1
        if g.trigger_depth >= MAX_TRIGGER_DEPTH:
            raise RunawayError(f"trigger chain deeper than {MAX_TRIGGER_DEPTH} at event {event!r} {g.where(source)}")
        g.dispatch(event, plan, player, it)
    return heard_event


@rule(STATEMENTS, K.Emit)
def _emit(cx: Compiler, node: Any) -> Fn:
    """:meth:`Emit.run` (through :func:`emitter`)."""
    event = node.event
    emit = emitter(cx, event)
    if node.players is None:
        def run(g: Any, ctx: Ctx) -> int:
            emit(g, ctx.you, ctx.it, ctx.this)
            return 0
        return run
    players = cx.players(node.players)

    def run_for(g: Any, ctx: Ctx) -> int:
        for p in players(g, ctx):
            emit(g, p, ctx.it, ctx.this)
        return 0
    return run_for


@rule(STATEMENTS, K.RunBlock)
def _run_block(cx: Compiler, node: Any) -> Fn:
    """:meth:`RunBlock.run`: a block argument ('B') run in its caller's context, with the
    callee's 'them' and 'it', within the nesting bound (``EventOps.run_nested``)."""
    name = node.name

    def run(g: Any, ctx: Ctx) -> int:
        clo = ctx.vars[name]
        body, outer = clo.body, clo._ctx
        inner = new_ctx(Ctx)  # outer.copy(them=ctx.them, it=ctx.it)
        inner.you = outer.you
        inner.them = ctx.them
        inner.it = ctx.it
        inner.this = outer.this
        inner.vars = outer.vars
        inner.frames = outer.frames
        inner.did = 0
        inner.since = NO_STATEMENT
        inner.depth = outer.depth
        return g.run_nested(body, inner)
    return run


@rule(STATEMENTS, K.Call)
def _call(cx: Compiler, node: Any) -> Fn:
    """:meth:`Call.run`: the arguments bound as planned (constants once), the body run on
    a new context within the nesting bound, a runaway error told which effect it left.
    The effect's replacements ('instead of') are looked for at each call, as the object does."""
    effect = node.effect
    name = effect.name
    if node._binders is None:
        node._plan()
    inline = inline_call(cx, node)
    if inline is not None:
        return inline
    constant = node._bound  # every argument a constant: one table for every call
    binds: list[tuple[str, int, Any]] = []
    for (pname, _kind), (kind, arg) in zip(effect.params, node.args, strict=True):  # as Call._plan
        if kind == "number":
            binds.append((pname, 1, arg.value) if type(arg) is Const else (pname, 0, cx.expr(arg)))
        elif kind == "players":
            binds.append((pname, 0, cx.players(arg)))
        elif kind == "cards":
            binds.append((pname, 0, cx.cards(arg)))
        elif kind == "block":
            binds.append((pname, 2, arg))
        elif kind == "zone":
            binds.append((pname, 0, arg.slots))
        elif isinstance(arg, Node):  # a type or text passed on from the caller's parameter
            binds.append((pname, 0, cx.expr(arg)))
        else:
            binds.append((pname, 1, arg))
    plan = tuple(binds)
    kinds = [k for _, k in effect.params]
    body_seq = effect.body
    assert body_seq is not None, f"effect {name!r} was never lowered"
    depth = node._depth if node._depth >= 0 else node._plan_body()
    frame = node._frame
    # The body is compiled at the first call, not with its caller: a chain of effects calling
    # each other compiles one body at a time, never as one deep recursion. A body of one
    # statement runs as Call.run runs it: the statement where its block would run it, and a
    # runaway error told it left that statement.
    single = type(body_seq) is F._Seq1
    known: list[Any] = [None, None]  # the body's closure, and its one statement's (once compiled)
    where = f"effect '{name}'"

    at = body_seq._at
    block_of = _compiled_block

    def run(g: Any, ctx: Ctx) -> int:
        if ctx.depth >= MAX_CALL_DEPTH:
            raise RunawayError(f"effect calls nested deeper than {MAX_CALL_DEPTH} at {name!r} "
                               f"{g.where(ctx.this)}", [where])
        bound = constant
        if bound is None:
            bound = {}
            for pname, how, what in plan:
                if how == 0:
                    bound[pname] = what(g, ctx)
                elif how == 1:
                    bound[pname] = what
                else:
                    bound[pname] = Closure(what, ctx)
        if effect.replacements:
            found = g.replacement(effect.replacements, ctx.you)
            if found is not None:
                return g.run_replacement(found, bound, kinds, ctx)
        inner = new_ctx(Ctx)
        inner.you = ctx.you
        inner.them = ctx.them
        inner.it = ctx.it
        inner.this = ctx.this
        inner.vars = bound
        inner.frames = [*ctx.frames, {}] if frame else ctx.frames
        inner.did = 0
        inner.since = NO_STATEMENT
        inner.depth = ctx.depth + 1
        g.nesting += depth
        try:
            if g.nesting > MAX_NESTING:
                g.too_deep(ctx.this)
            body = known[0]
            if body is None:
                body = known[0] = block_of(body_seq, g)
                # its one statement's closure (its object's run when the block was left as objects)
                known[1] = body_seq._fn[2] or (body_seq._first.run if single else None)
            if not single:
                return body(g, inner)
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            return known[1](g, inner)
        except RunawayError as exc:
            if single:
                exc.leaving(at, 0)
            exc.passing(where)
            raise
        finally:
            g.nesting -= depth
    return run

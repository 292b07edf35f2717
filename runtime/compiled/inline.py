"""Calls of script effects run inline (see :mod:`cardscript.runtime.compiled`): a call whose
arguments are all constants (numbers, types and texts written in the script, or parameters
of an inline call bound to them) runs the effect's body in the caller's context, compiled
for those arguments (``draw 5``: a loop of five moves), instead of making a context of its
own.

What a new context would have kept apart is kept apart another way, or the call is not run
inline:

* the parameters: the context's ``vars`` are the call's arguments while the body runs;
* the nesting of effects: each call still counts its levels (``MAX_NESTING``) and reports
  the effect a runaway error leaves; how deep calls nest (``MAX_CALL_DEPTH``) is the
  caller's depth plus the number of inline calls around (:attr:`Compiler.level`), for every
  call in the body;
* 'if you do': the body's first statement reads nothing of the statement before the call
  (the block running the call stores the call's own result after it);
* 'it': nothing in the body binds a card to 'it' for the statements after it;
* local marks: the body marks nothing local to the effect (``Call._frame``).

A body holding anything else — an ability played or resolved, a delayed or granted effect
(which keep the context for later), a call with a block argument or a replacement — runs as
an ordinary call, and so does a call nested more than :data:`MAX_INLINE` deep."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled.analysis import reads_previous
from cardscript.runtime.compiled.compiler import NOT_CONST, Compiler
from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import calls as K
from cardscript.runtime.effects import cardrules as R
from cardscript.runtime.effects import cards as M
from cardscript.runtime.effects import changes as H
from cardscript.runtime.effects import choices as Q
from cardscript.runtime.effects import conditions as C
from cardscript.runtime.effects import expressions as X
from cardscript.runtime.effects import flow as F
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.effects.base import Node
from cardscript.runtime.errors import MAX_CALL_DEPTH, MAX_NESTING, RunawayError

#: the deepest a call runs inline inside calls run inline
MAX_INLINE = 6

#: what a body run inline may hold (a specialised variant counts as its generic class)
_ALLOWED: frozenset[type] = frozenset({
    F.Seq, F.If, F.Repeat, F.ForPlayers, F.ForCards, F.Nothing, F.EndGame, F.BetweenTurns, F.Let,
    K.Emit, K.Call, K.UserEffect,
    M.Move, M.Take, M.Shuffle, M.Flip, M.Reveal, M.Roll, M.TakeControl,
    H.CounterAdd, H.CounterSet, H.MarkPlayers, H.MarkCards,
    Q.May, Q.Choose,
    R.AddModifier, R.UseUpModifiers, R.ChooseOne, R.GoFirst, R.AttrFor, R.IsThis,
    C.Compare, C.And, C.Or, C.Not, C.PlayerMarked, C.CardMarked, C.AnyFoeMarked, C.FaceDown, C.Did,
    C.Affected, C.ZoneEmpty, C.HasWord, C.Showing, C.Owned, C.HasHome, C.Emitted, C.IsOver, C.OutcomeIs,
    C.WinnerIs, C.CameFrom,
    X.Const, X.Text, X.Var, X.Arith, X.CountCards, X.CountSeats, X.CountTypes, X.SumAttr, X.AttrOf,
    X.CounterValue, X.HighestAttr, X.MinMax, X.CardCounter, X.Highest,
    S.ZoneRef, S.ZoneParam, S.Players, S.Cards,
})


def arguments(cx: Compiler, node: Any) -> dict[str, Any] | None:
    """The arguments of call ``node`` by parameter name when every one is a constant (a
    number, a type or a text), else None."""
    bound: dict[str, Any] = {}
    for (name, _kind), (kind, arg) in zip(node.effect.params, node.args, strict=True):
        if kind == "number":
            value = cx.const(arg)
            if value is NOT_CONST:
                return None
            bound[name] = value
        elif kind in ("players", "cards", "block", "zone"):
            return None
        else:  # a type, a text: written in the script
            bound[name] = arg
    return bound


def _generic(node: Any) -> type:
    return getattr(type(node), "_generic", None) or type(node)


def allowed(body: Any) -> bool:
    """Whether every node of ``body`` may run in its caller's context (see the module doc):
    the bodies of the calls in it are not looked into (each is planned at its own call)."""
    todo: list[Any] = [body]
    while todo:
        obj = todo.pop()
        if isinstance(obj, Node):
            node: Any = obj
            t = _generic(node)
            if t not in _ALLOWED:
                return False
            if t is K.Call and (node.effect.replacements or any(k == "block" for k, _ in node.args)):
                return False
            if t is Q.Choose and node.body is None:  # binds 'it' for the statements after it
                return False
            if not node._opaque:
                slots: tuple[str, ...] = node.__slots__
                todo.extend(getattr(node, name) for name in slots if not name.startswith("_"))
        elif isinstance(obj, (list, tuple)):
            todo.extend(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
    return True


def inline_call(cx: Compiler, node: Any) -> Fn | None:
    """The closure of call ``node`` run inline, or None when it runs as an ordinary call."""
    effect = node.effect
    body = effect.body
    if body is None or effect.replacements or cx.level >= MAX_INLINE or effect in cx.inlined:
        return None
    bound = arguments(cx, node)
    if bound is None:
        return None
    depth = node._depth if node._depth >= 0 else node._plan_body()
    if node._frame or not body.stmts or reads_previous(body.stmts[0], cx.memo) or not allowed(body):
        return None
    inner = cx.inside(bound, effect)
    single = type(body) is F._Seq1
    run_body = inner.block(body)
    first = inner.local[id(body)][1] if single else None
    at = body._at
    level = cx.level
    name = effect.name
    where = f"effect '{name}'"

    def run(g: Any, ctx: Ctx) -> int:
        # Call.run for a context of its own whose depth is one more and whose 'vars' are the
        # arguments: here, the caller's context with its 'vars' swapped for the body's run
        if ctx.depth + level >= MAX_CALL_DEPTH:
            raise RunawayError(f"effect calls nested deeper than {MAX_CALL_DEPTH} at {name!r} "
                               f"{g.where(ctx.this)}", [where])
        saved = ctx.vars
        ctx.vars = bound
        g.nesting += depth
        try:
            if g.nesting > MAX_NESTING:
                g.too_deep(ctx.this)
            if first is None:
                return run_body(g, ctx)
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            return first(g, ctx)
        except RunawayError as exc:
            if single:
                exc.leaving(at, 0)
            exc.passing(where)
            raise
        finally:
            g.nesting -= depth
            ctx.vars = saved
    return run

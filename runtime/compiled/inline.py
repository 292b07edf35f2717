"""Calls of script effects with constant arguments (see :mod:`cardscript.runtime.compiled`):
a call whose arguments are all constants (numbers, types and texts written in the script,
or parameters of such a call bound to them) runs the effect's body compiled for those
arguments — a parameter folds into a constant wherever the body reads it (``draw 5``: a
loop of five moves, ``+N power`` a constant change) — instead of the body compiled for any
arguments.

The call is otherwise :meth:`Call.run <cardscript.runtime.effects.calls.Call.run>`: a
context of its own (its ``vars`` the arguments, one level deeper, a mark table of its own
when the body marks locally), the nesting bound, the effect a runaway error leaves. A
parameter that the body binds again ('let N = N + 5') is read from the context, not folded.

One body is compiled per effect and arguments, shared by every call of them in the
definition (``GameDefinition.__dict__["_inlined"]``), and calls run so nest at most
:data:`MAX_INLINE` deep; an effect with a replacement ('instead of'), a call with an
argument that is not a constant, or one inside the body of the same effect runs as an
ordinary call."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled.compiler import NOT_CONST, Compiler
from cardscript.runtime.context import NO_STATEMENT, Ctx, new_ctx
from cardscript.runtime.effects import flow as F
from cardscript.runtime.effects.base import Node
from cardscript.runtime.errors import MAX_CALL_DEPTH, MAX_NESTING, RunawayError

#: the deepest calls compiled for their arguments nest inside each other
MAX_INLINE = 3


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
        elif kind in ("players", "cards", "block", "zone") or isinstance(arg, Node):
            return None  # a type or a text passed on from a parameter is read when called
        else:  # a type, a text: written in the script
            bound[name] = arg
    return bound


def rebound(body: Any) -> set[str]:
    """The names a 'let' in ``body`` binds (the bodies of the calls in it not looked into)."""
    out: set[str] = set()
    todo: list[Any] = [body]
    while todo:
        obj = todo.pop()
        if isinstance(obj, Node):
            if isinstance(obj, F.Let):
                out.add(obj.name)
            if not obj._opaque:
                slots: tuple[str, ...] = obj.__slots__
                todo.extend(getattr(obj, name) for name in slots if not name.startswith("_"))
        elif isinstance(obj, (list, tuple)):
            todo.extend(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
    return out


def inline_call(cx: Compiler, node: Any) -> Fn | None:
    """The closure of call ``node`` with its body compiled for its constant arguments, or
    None when it runs as an ordinary call."""
    effect = node.effect
    body = effect.body
    if body is None or effect.replacements or cx.level >= MAX_INLINE or effect in cx.inlined:
        return None
    bound = arguments(cx, node)
    if bound is None:
        return None
    depth = node._depth if node._depth >= 0 else node._plan_body()
    frame = node._frame
    # the body compiled for these arguments, once per definition
    folded = {k: v for k, v in bound.items() if k not in rebound(body)}
    key = (id(body), tuple(sorted((k, type(v).__name__, v) for k, v in folded.items())))
    table: dict[Any, Any] = cx.d.__dict__.setdefault("_inlined", {})
    found = table.get(key)
    if found is None or found[0] is not body:
        inner_cx = cx.inside(folded, effect)
        run_body = inner_cx.block(body)
        found = table[key] = (body, run_body, inner_cx.local[id(body)][1])
    _body, run_body, first = found
    single = type(body) is F._Seq1
    at = body._at
    name = effect.name
    where = f"effect '{name}'"

    def run(g: Any, ctx: Ctx) -> int:
        if ctx.depth >= MAX_CALL_DEPTH:
            raise RunawayError(f"effect calls nested deeper than {MAX_CALL_DEPTH} at {name!r} "
                               f"{g.where(ctx.this)}", [where])
        inner = new_ctx(Ctx)  # Call.run's context of its own
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
            if first is None:
                return run_body(g, inner)
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            return first(g, inner)
        except RunawayError as exc:
            if single:
                exc.leaving(at, 0)
            exc.passing(where)
            raise
        finally:
            g.nesting -= depth
    return run

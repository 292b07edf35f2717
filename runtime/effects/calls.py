"""Statements that run other code: script effects (:class:`UserEffect`, :class:`Call`) and
their block arguments, a card's labelled ability (:class:`Resolve`), and events (:class:`Emit`)."""

from __future__ import annotations

from typing import Any, cast

from cardscript.runtime.context import NO_STATEMENT, Ctx, new_ctx
from cardscript.runtime.effects.base import Node, to_ir
from cardscript.runtime.effects.changes import MarkCards, MarkPlayers
from cardscript.runtime.effects.expressions import Const
from cardscript.runtime.effects.flow import _Seq1
from cardscript.runtime.errors import MAX_CALL_DEPTH, MAX_NESTING, RunawayError
from cardscript.runtime.game import Game


class Resolve(Node):
    """Run a card's labelled ability (e.g. its Defense reward) for a player."""

    __slots__ = ("cards", "label", "players")

    def __init__(self, label: str, cards: Any, players: Any = None):
        self.label, self.cards, self.players = label, cards, players

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        who = self.players.players(g, ctx) if self.players is not None else [ctx.you]
        for c in self.cards.cards(g, ctx):
            ability = g.d.cards[g.card_type[c]].abilities.get(self.label)
            if ability is None:
                continue
            for p in who:
                try:
                    total += 1 + g.run_nested(ability, Ctx(p, it=c, this=c, depth=ctx.depth + 1))
                except RunawayError as exc:
                    exc.passing(f"{self.label} of {g.card_name(c)}")
                    raise
        return total


class Emit(Node):
    """'emit "EVENT" [for PLAYERS]': fires the rules and triggers listening to the event."""

    __slots__ = ("event", "players")

    def __init__(self, event: str, players: Any = None):
        self.event, self.players = event, players

    def run(self, g: Game, ctx: Ctx) -> int:
        if self.players is None:
            g.emit(self.event, ctx.you, ctx.it, ctx.this)
            return 0
        for p in self.players.players(g, ctx):
            g.emit(self.event, p, ctx.it, ctx.this)
        return 0


class Closure(Node):
    """A block argument: the caller's body and context, run with the callee's 'them'/'it'."""

    __slots__ = ("_ctx", "body")

    def __init__(self, body: Any, ctx: Ctx):
        self.body, self._ctx = body, ctx


class RunBlock(Node):
    """A block parameter run by its name ('B'), in the caller's context."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def run(self, g: Game, ctx: Ctx) -> int:
        clo: Closure = ctx.vars[self.name]
        return g.run_nested(clo.body, clo._ctx.copy(them=ctx.them, it=ctx.it))


class UserEffect(Node):
    """An effect defined in script (``effect ...:``). ``body`` is set after lowering so
    that effects may call each other; ``params`` are (name, kind) pairs."""

    __slots__ = ("body", "name", "params", "replacements")
    _opaque = True  # its body runs where it is called, not where a call names it

    def __init__(self, name: str, params: list[tuple[str, str]]):
        self.name, self.params, self.body = name, params, None
        #: cards' 'instead of' this effect (ReplacementDef), set by the lowering; usually none
        self.replacements: tuple[Any, ...] = ()

    def ir(self) -> dict[str, Any]:
        return {"UserEffect": {"name": self.name, "params": [list(p) for p in self.params], "body": to_ir(self.body)}}


class Call(Node):
    """A call of a script effect. ``args`` are (kind, evaluator) per parameter."""

    __slots__ = ("_binders", "_bound", "_depth", "_first", "_frame", "args", "effect")

    def __init__(self, effect: UserEffect, args: list[tuple[str, Any]]):
        self.effect, self.args = effect, args
        self._binders: tuple[tuple[str, int, Any], ...] | None = None  # see _plan()
        #: the parameters when every argument is a constant (or there is none): one dict for
        #: every call, as nothing changes a context's ``vars`` in place (``Let`` copies them)
        self._bound: dict[str, Any] | None = None
        self._depth = -1  # the body's nesting depth plus the call's 2 frames, found at the first call
        #: whether the body marks anything local to the effect (a mark without 'this turn'), so
        #: that the call needs a mark table of its own; found with _depth (_plan_body())
        self._frame = True
        #: the body's one statement when it is a block of one (``_Seq1``), else None: run
        #: without the block's own call (see run())
        self._first: Any = None

    def _plan(self) -> tuple[tuple[str, int, Any], ...]:
        """How each parameter is bound, planned at the first call: (name, how, what) with
        how 0: call ``what(g, ctx)`` (the argument's evaluate/players/cards/slots),
        1: ``what`` as it is (a number written in the script, a type, a text),
        2: a :class:`Closure` of the block ``what`` in the caller's context."""
        plan: list[tuple[str, int, Any]] = []
        for (name, _kind), (kind, arg) in zip(self.effect.params, self.args, strict=True):
            if kind == "number":
                plan.append((name, 1, arg.value) if type(arg) is Const else (name, 0, arg.evaluate))
            elif kind == "players":
                plan.append((name, 0, arg.players))
            elif kind == "cards":
                plan.append((name, 0, arg.cards))
            elif kind == "block":
                plan.append((name, 2, arg))
            elif kind == "zone":
                plan.append((name, 0, arg.slots))
            elif isinstance(arg, Node):  # a type or text passed on from the caller's parameter
                plan.append((name, 0, cast(Any, arg).evaluate))
            else:  # type / text written in the script
                plan.append((name, 1, arg))
        self._binders = tuple(plan)
        if all(how == 1 for _, how, _ in plan):
            self._bound = {name: what for name, _, what in plan}
        return self._binders

    def _plan_body(self) -> int:
        """Plan how the body runs, at the first call: its nesting depth (plus the call's 2
        frames), whether it needs a mark table of its own (:func:`marks_locally`) and its one
        statement when it has one. Returns the depth."""
        body = self.effect.body
        assert body is not None, f"effect {self.effect.name!r} was never lowered"
        self._frame = marks_locally(body)
        self._first = body._first if type(body) is _Seq1 else None
        self._depth = (body._depth if body._depth >= 0 else body.depth()) + 2
        return self._depth

    def ir(self) -> dict[str, Any]:
        return {"Call": {"effect": self.effect.name, "args": [[k, to_ir(a)] for k, a in self.args]}}

    def run(self, g: Game, ctx: Ctx) -> int:
        if ctx.depth >= MAX_CALL_DEPTH:
            raise RunawayError(f"effect calls nested deeper than {MAX_CALL_DEPTH} at {self.effect.name!r} "
                               f"{g.where(ctx.this)}", [f"effect '{self.effect.name}'"])
        bound = self._bound
        if bound is None:
            bound = {}
            for name, how, what in self._binders if self._binders is not None else self._plan():
                if how == 0:
                    bound[name] = what(g, ctx)
                elif how == 1:
                    bound[name] = what
                else:
                    bound[name] = Closure(what, ctx)
            if self._bound is not None:  # planned just now: every argument a constant
                bound = self._bound
        effect = self.effect
        if effect.replacements:
            found = g.replacement(effect.replacements, ctx.you)
            if found is not None:
                return g.run_replacement(found, bound, [k for _, k in effect.params], ctx)
        depth = self._depth
        if depth < 0:
            depth = self._plan_body()
        # Ctx(ctx.you, ctx.them, ctx.it, ctx.this, bound, frames, ctx.depth + 1), written out
        # (a class call with its __init__ costs more than the stores). A body that marks
        # nothing locally shares the caller's chain of mark tables: a table of its own would
        # stay empty, and the chain is read, never changed in place (runtime/game/marks.py).
        inner = new_ctx(Ctx)  # one store a line: a tuple assignment of four builds a tuple
        inner.you = ctx.you
        inner.them = ctx.them
        inner.it = ctx.it
        inner.this = ctx.this
        inner.vars = bound
        inner.frames = [*ctx.frames, {}] if self._frame else ctx.frames
        inner.did = 0
        inner.since = NO_STATEMENT
        inner.depth = ctx.depth + 1
        # g.run_nested(body, inner), written out: calls are the most frequent nested runs
        g.nesting += depth
        first = self._first
        try:
            if g.nesting > MAX_NESTING:
                g.too_deep(ctx.this)
            if first is None or g.tracing:
                return effect.body.run(g, inner)  # type: ignore[attr-defined]  # lowered: checked at the first call
            # _Seq1.run(body, g, inner), written out: most effects are one statement. What
            # it stores in inner (did, since) no one reads once the call returns.
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            return first.run(g, inner)
        except RunawayError as exc:
            if first is not None:  # the body's one statement, run here rather than by its block
                exc.leaving(effect.body._at, 0)  # type: ignore[attr-defined]  # lowered: a Seq
            exc.passing(f"effect '{effect.name}'")
            raise
        finally:
            g.nesting -= depth


def marks_locally(body: Any) -> bool:
    """Whether ``body`` holds a mark local to the effect running it ('mark it "M"', without
    'this turn'), which goes into the innermost mark table of the context (``ctx.frames``).
    A called effect's body is not looked into: its call makes its own table when it needs one."""
    todo: list[Any] = [body]
    while todo:
        obj = todo.pop()
        if isinstance(obj, (MarkCards, MarkPlayers)):
            if not obj.this_turn:
                return True
        elif isinstance(obj, Node):
            if not obj._opaque:
                slots: tuple[str, ...] = obj.__slots__
                todo.extend(getattr(obj, name) for name in slots if not name.startswith("_"))
        elif isinstance(obj, (list, tuple)):
            todo.extend(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
    return False

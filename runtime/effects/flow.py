"""Statements that order the others: blocks, conditionals, loops, acting as another
player, 'let' and ending the game."""

from __future__ import annotations

from typing import Any

from cardscript.runtime import compiled as _compiled
from cardscript.runtime.context import NO_STATEMENT, Ctx, new_ctx
from cardscript.runtime.effects.base import Node, nest_depth, specialised
from cardscript.runtime.errors import MAX_REPEAT, GameOver, RunawayError, saturated
from cardscript.runtime.game import Game


class Seq(Node):
    """A block: runs its statements in order; each one's result becomes 'did' for the next."""

    __slots__ = ("_at", "_depth", "_first", "_fn", "stmts")
    _first: Any
    _block = True

    def __new__(cls, stmts: list[Any], at: tuple[str, ...] | None = None) -> Seq:
        if cls is not Seq:
            return object.__new__(cls)
        return object.__new__(_Seq1 if len(stmts) == 1 else _Seq0 if not stmts else Seq)

    def __init__(self, stmts: list[Any], at: tuple[str, ...] | None = None):
        self.stmts = stmts
        self._first = stmts[0] if stmts else None  # the statement of a block of one (_Seq1)
        self._depth = -1  # how deep its effect objects nest: found when first needed (depth())
        #: where each statement is written ('file:line:col'), for traced logs (``Game.tracing``);
        #: not part of the IR
        self._at = at
        #: (definition, closure, its one statement's closure or None): the block compiled for
        #: a definition at its first run (:mod:`cardscript.runtime.compiled`); None before
        self._fn: tuple[Any, Any, Any] | None = None

    def depth(self) -> int:
        """How deep its effect objects nest (:func:`~.base.nest_depth`), found once."""
        if self._depth < 0:
            self._depth = nest_depth(self)
        return self._depth

    def run(self, g: Game, ctx: Ctx) -> int:
        """Run the block: its compiled closure (:mod:`cardscript.runtime.compiled`), made for
        the game's definition at the first run; the objects in a traced game (each statement's
        position recorded) or with compiling turned off (:meth:`run_objects`)."""
        if g.tracing or not _compiled.ENABLED:
            return self.run_objects(g, ctx)
        entry = self._fn
        fn = entry[1] if entry is not None and entry[0] is g.d else _compiled.block(self, g)
        return fn(g, ctx)

    def run_objects(self, g: Game, ctx: Ctx) -> int:
        """The block as its objects run it (the reference the compiled closure matches)."""
        # The step budget counts the statements run: loops, calls and triggers all run blocks.
        g.steps += len(self.stmts)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if g.tracing:
            return self._traced(g, ctx)
        total = 0
        try:
            for s in self.stmts:
                start = g.clock
                r = s.run(g, ctx)
                ctx.did = r
                ctx.since = start
                total += r
        except RunawayError as exc:
            # file:line:col for the CS401: the statement is found once raised (no counter per statement)
            exc.leaving(self._at, next(i for i, x in enumerate(self.stmts) if x is s))
            raise
        return total

    def _traced(self, g: Game, ctx: Ctx) -> int:
        """:meth:`run` that keeps ``g.at`` on the statement running, so that each log entry
        records the script line whose effect logged it (the innermost statement)."""
        at, outer, total = self._at, g.at, 0
        try:
            for i, s in enumerate(self.stmts):
                if at is not None:
                    g.at = at[i]
                start = g.clock
                r = s.run(g, ctx)
                ctx.did = r
                ctx.since = start  # 'if they were affected' reads it, traced or not
                total += r
        finally:
            g.at = outer
        return total


@specialised
class _Seq0(Seq):
    """An empty block: no statement, no step; it still stops a game past its step budget."""

    def run_objects(self, g: Game, ctx: Ctx) -> int:
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        return 0


@specialised
class _Seq1(Seq):
    """A block of one statement (most bodies of 'if' and 'for each'): :meth:`Seq.run` without the loop."""

    def run_objects(self, g: Game, ctx: Ctx) -> int:
        g.steps += 1
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if g.tracing:
            return self._traced(g, ctx)
        start = g.clock
        try:
            r = self._first.run(g, ctx)
        except RunawayError as exc:
            exc.leaving(self._at, 0)
            raise
        ctx.did = r
        ctx.since = start
        return 0 + r  # the block's total, as Seq.run sums it


class Nothing(Node):
    """'nothing': does nothing (result 0)."""

    __slots__ = ()

    def run(self, g: Game, ctx: Ctx) -> int:
        return 0


class If(Node):
    """'if C: ... otherwise: ...'."""

    __slots__ = ("cond", "otherwise", "then")

    def __new__(cls, cond: Any, then: Any, otherwise: Any = None) -> If:
        if cls is not If:
            return object.__new__(cls)
        return object.__new__(_If1 if type(then) is _Seq1 else If)

    def __init__(self, cond: Any, then: Any, otherwise: Any = None):
        self.cond, self.then, self.otherwise = cond, then, otherwise

    def run(self, g: Game, ctx: Ctx) -> int:
        if self.cond.test(g, ctx):
            return self.then.run(g, ctx)
        if self.otherwise is not None:
            return self.otherwise.run(g, ctx)
        return 0


@specialised
class _If1(If):
    """'if C:' with a block of one statement (most of them): the block's :meth:`_Seq1.run`
    written out, one call fewer."""

    def run(self, g: Game, ctx: Ctx) -> int:
        if self.cond.test(g, ctx):
            then = self.then
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            if g.tracing:
                return then._traced(g, ctx)
            start = g.clock
            try:
                r: int = then._first.run(g, ctx)
            except RunawayError as exc:
                exc.leaving(then._at, 0)
                raise
            ctx.did = r
            ctx.since = start
            return r
        if self.otherwise is not None:
            return self.otherwise.run(g, ctx)
        return 0


class ForPlayers(Node):
    """'for each foe|player [in P] [marked ...]: ...' with each player bound to 'them'."""

    __slots__ = ("body", "players")

    def __init__(self, players: Any, body: Any):
        self.players, self.body = players, body

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        body = self.body
        you, it, this, vars, frames, depth = ctx.you, ctx.it, ctx.this, ctx.vars, ctx.frames, ctx.depth
        for p in self.players.players(g, ctx):
            inner = new_ctx(Ctx)  # ctx.with_them(p), written out (tests/test_call_inline.py)
            inner.you = you
            inner.them = p
            inner.it = it
            inner.this = this
            inner.vars = vars
            inner.frames = frames
            inner.did = 0
            inner.since = NO_STATEMENT
            inner.depth = depth
            total += body.run(g, inner)
        return total


class ForCards(Node):
    """'for each card ...: ...' with each card bound to 'it'."""

    __slots__ = ("body", "cards")

    def __init__(self, cards: Any, body: Any):
        self.cards, self.body = cards, body

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        body = self.body
        you, them, this, vars, frames, depth = ctx.you, ctx.them, ctx.this, ctx.vars, ctx.frames, ctx.depth
        for c in self.cards.cards(g, ctx):
            inner = new_ctx(Ctx)  # ctx.with_it(c), written out (tests/test_call_inline.py)
            inner.you = you
            inner.them = them
            inner.it = c
            inner.this = this
            inner.vars = vars
            inner.frames = frames
            inner.did = 0
            inner.since = NO_STATEMENT
            inner.depth = depth
            total += body.run(g, inner)
        return total


class Repeat(Node):
    """'repeat N: ...' (bounded: at most 1000 times)."""

    __slots__ = ("body", "times")

    def __init__(self, times: Any, body: Any):
        self.times, self.body = times, body

    def run(self, g: Game, ctx: Ctx) -> int:
        n = self.times.evaluate(g, ctx)
        if n > MAX_REPEAT:
            raise RunawayError(f"repeat {n} times is more than the bound {MAX_REPEAT} {g.where(ctx.this)}")
        total = 0
        body = self.body
        if type(body) is not _Seq1 or g.tracing:
            for _ in range(max(0, n)):  # each pass counts its statements against the step budget (Seq)
                total += body.run(g, ctx)
            return total
        stmt = body._first  # a block of one statement ('repeat N: draw a card'): _Seq1.run written out
        for _ in range(max(0, n)):
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            start = g.clock
            r = stmt.run(g, ctx)
            ctx.did = r
            ctx.since = start
            total += r
        return total


class AsPlayers(Node):
    """``they ...`` / ``each foe ...``: run a statement with each selected player as 'you'."""

    __slots__ = ("players", "stmt")

    def __init__(self, players: Any, stmt: Any):
        self.players, self.stmt = players, stmt

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        stmt = self.stmt
        for p in self.players.players(g, ctx):
            inner = new_ctx(Ctx)  # ctx.with_you(p), written out (tests/test_call_inline.py)
            inner.you = p
            inner.them = ctx.them
            inner.it = ctx.it  # not hoisted: the pass before may have bound another card
            inner.this = ctx.this
            inner.vars = ctx.vars
            inner.frames = ctx.frames
            inner.did = 0
            inner.since = NO_STATEMENT
            inner.depth = ctx.depth
            total += stmt.run(g, inner)
            # what the statement bound ('they choose a card ...') stays bound for the next one
            ctx.it = inner.it
        return total


class BetweenTurns(Node):
    """'between turns: BODY': no player is active while the body runs, so 'during your turn'
    triggers do not fire (``Game.between_turns``, ``Game.is_active``)."""

    __slots__ = ("body",)

    def __init__(self, body: Any):
        self.body = body

    def run(self, g: Game, ctx: Ctx) -> int:
        g.between_turns += 1
        try:
            return self.body.run(g, ctx)
        finally:
            g.between_turns -= 1


class Let(Node):
    """'let X = EXPR': a number named for the rest of the block."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: Any):
        self.name, self.value = name, value

    def run(self, g: Game, ctx: Ctx) -> int:
        ctx.vars = dict(ctx.vars)
        v = self.value.evaluate(g, ctx)
        ctx.vars[self.name] = saturated(v) if type(v) is int else v  # a loop doubling it stays bounded
        return 0


class EndGame(Node):
    """'end game "REASON"': the game ends at once."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason

    def run(self, g: Game, ctx: Ctx) -> int:
        raise GameOver(self.reason or "the game ended")

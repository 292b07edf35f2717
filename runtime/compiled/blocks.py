"""Compiled blocks and the statements that order others (see :mod:`cardscript.runtime.compiled`):
each rule returns ``fn(g, ctx) -> int`` doing what the statement's ``run`` does (the
method is named in each rule's docstring)."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled.analysis import reads_previous
from cardscript.runtime.compiled.compiler import NOT_CONST, STATEMENTS, Compiler, rule
from cardscript.runtime.context import NO_STATEMENT, Ctx, new_ctx
from cardscript.runtime.effects import cards as M
from cardscript.runtime.effects import flow as F
from cardscript.runtime.errors import MAX_REPEAT, MOVE_STEPS, GameOver, RunawayError, saturated


# ====================================================================== blocks
def compile_block(cx: Compiler, seq: Any) -> tuple[Fn, Fn | None]:
    """:meth:`Seq.run <cardscript.runtime.effects.flow.Seq.run>` (``_Seq0``, ``_Seq1``):
    the statements in order, the block's size charged to the step budget first, each
    statement's result stored for the next ('if you do') only when the next may read it
    (the last one's always), a runaway error told which statement it left. Returns the
    closure and, for a block of one statement, that statement's own closure (a caller
    may run it where it would run the block: :func:`_one`)."""
    stmts = seq.stmts
    n = len(stmts)
    at = seq._at
    if n == 0:
        def run0(g: Any, ctx: Ctx) -> int:
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            return 0
        return run0, None
    fns = [cx.stmt(s) for s in stmts]
    # keep[i]: store statement i's result and start clock (the last one's always: what the
    # block's caller runs next on this context may read them)
    keep = [reads_previous(stmts[i + 1], cx.memo) for i in range(n - 1)] + [True]
    if n == 1:
        f0 = fns[0]

        def run1(g: Any, ctx: Ctx) -> int:
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            start = g.clock
            try:
                r = f0(g, ctx)
            except RunawayError as exc:
                exc.leaving(at, 0)
                raise
            ctx.did = r
            ctx.since = start
            return 0 + r
        return run1, f0
    if n == 2 and not keep[0]:
        f0, f1 = fns

        def run2(g: Any, ctx: Ctx) -> int:
            g.steps += 2
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            try:
                total = f0(g, ctx)
            except RunawayError as exc:
                exc.leaving(at, 0)
                raise
            start = g.clock
            try:
                r = f1(g, ctx)
            except RunawayError as exc:
                exc.leaving(at, 1)
                raise
            ctx.did = r
            ctx.since = start
            return 0 + total + r
        return run2, None
    if n == 3 and not (keep[0] or keep[1]):
        f0, f1, f2 = fns

        def run3(g: Any, ctx: Ctx) -> int:
            g.steps += 3
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            i = 0
            try:
                total = f0(g, ctx)
                i = 1
                total += f1(g, ctx)
                i = 2
                start = g.clock
                r = f2(g, ctx)
            except RunawayError as exc:
                exc.leaving(at, i)
                raise
            ctx.did = r
            ctx.since = start
            return 0 + total + r
        return run3, None
    plan = tuple(zip(fns, keep, strict=True))

    def run(g: Any, ctx: Ctx) -> int:
        g.steps += n
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        total = 0
        i = 0
        try:
            for f, kept in plan:
                if kept:
                    start = g.clock
                    r = f(g, ctx)
                    ctx.did = r
                    ctx.since = start
                else:
                    r = f(g, ctx)
                total += r
                i += 1
        except RunawayError as exc:
            exc.leaving(at, i)
            raise
        return total
    return run, None


def _one(cx: Compiler, seq: Any) -> tuple[Fn, Any] | None:
    """(the closure of its one statement, its positions) for a block of exactly one
    statement (``_Seq1``), so that a caller runs the statement where it would run the
    block; None for any other block, or one still being compiled (an effect that calls itself)."""
    if type(seq) is not F._Seq1:
        return None
    cx.block(seq)
    if cx.level:
        first = cx.local[id(seq)][1]
        return (first, seq._at) if first is not None else None
    entry = seq._fn
    if entry is None or entry[0] is not cx.d:  # being compiled: not known yet
        return None
    return entry[2], seq._at


# ====================================================================== flow
@rule(STATEMENTS, F.Nothing)
def _nothing(cx: Compiler, node: Any) -> Fn:
    """:meth:`Nothing.run`."""
    def run(g: Any, ctx: Ctx) -> int:
        return 0
    return run


@rule(STATEMENTS, F.If, F._If1)
def _if(cx: Compiler, node: Any) -> Fn:
    """:meth:`If.run` (and ``_If1``): a 'then' block of one statement runs inline."""
    test = cx.cond(node.cond)
    other = cx.stmt(node.otherwise) if node.otherwise is not None else None
    one = _one(cx, node.then)
    if one is None:
        then = cx.stmt(node.then)
        if other is None:
            def run_if(g: Any, ctx: Ctx) -> int:
                if test(g, ctx):
                    return then(g, ctx)
                return 0
            return run_if

        def run_if_else(g: Any, ctx: Ctx) -> int:
            if test(g, ctx):
                return then(g, ctx)
            return other(g, ctx)
        return run_if_else
    stmt, at = one

    def run_if1(g: Any, ctx: Ctx) -> int:
        if test(g, ctx):
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            start = g.clock
            try:
                r = stmt(g, ctx)
            except RunawayError as exc:
                exc.leaving(at, 0)
                raise
            ctx.did = r
            ctx.since = start
            return 0 + r
        if other is not None:
            return other(g, ctx)
        return 0
    return run_if1


@rule(STATEMENTS, F.ForPlayers)
def _for_players(cx: Compiler, node: Any) -> Fn:
    """:meth:`ForPlayers.run`: the body with each player as 'them', on a context of its own
    (a body of one statement runs inline: nobody reads what its block would store in that context)."""
    players = cx.players(node.players)
    body = cx.stmt(node.body)
    one = _one(cx, node.body)
    if one is not None:
        stmt, at = one

        def run_one(g: Any, ctx: Ctx) -> int:
            total = 0
            you, it, this, vars, frames, depth = ctx.you, ctx.it, ctx.this, ctx.vars, ctx.frames, ctx.depth
            for p in players(g, ctx):
                inner = new_ctx(Ctx)
                inner.you = you
                inner.them = p
                inner.it = it
                inner.this = this
                inner.vars = vars
                inner.frames = frames
                inner.did = 0
                inner.since = NO_STATEMENT
                inner.depth = depth
                g.steps += 1
                if g.steps > g.step_limit:
                    g.out_of_steps(this)
                try:
                    total += stmt(g, inner)
                except RunawayError as exc:
                    exc.leaving(at, 0)
                    raise
            return total
        return run_one

    def run(g: Any, ctx: Ctx) -> int:
        total = 0
        you, it, this, vars, frames, depth = ctx.you, ctx.it, ctx.this, ctx.vars, ctx.frames, ctx.depth
        for p in players(g, ctx):
            inner = new_ctx(Ctx)
            inner.you = you
            inner.them = p
            inner.it = it
            inner.this = this
            inner.vars = vars
            inner.frames = frames
            inner.did = 0
            inner.since = NO_STATEMENT
            inner.depth = depth
            total += body(g, inner)
        return total
    return run


@rule(STATEMENTS, F.ForCards)
def _for_cards(cx: Compiler, node: Any) -> Fn:
    """:meth:`ForCards.run`: the body with each card as 'it', on a context of its own (a body
    of one statement runs inline: nobody reads what its block would store in that context)."""
    cards = cx.cards(node.cards)
    body = cx.stmt(node.body)
    one = _one(cx, node.body)
    if one is not None:
        stmt, at = one

        def run_one(g: Any, ctx: Ctx) -> int:
            total = 0
            you, them, this, vars, frames, depth = ctx.you, ctx.them, ctx.this, ctx.vars, ctx.frames, ctx.depth
            for c in cards(g, ctx):
                inner = new_ctx(Ctx)
                inner.you = you
                inner.them = them
                inner.it = c
                inner.this = this
                inner.vars = vars
                inner.frames = frames
                inner.did = 0
                inner.since = NO_STATEMENT
                inner.depth = depth
                g.steps += 1
                if g.steps > g.step_limit:
                    g.out_of_steps(this)
                try:
                    total += stmt(g, inner)
                except RunawayError as exc:
                    exc.leaving(at, 0)
                    raise
            return total
        return run_one

    def run(g: Any, ctx: Ctx) -> int:
        total = 0
        you, them, this, vars, frames, depth = ctx.you, ctx.them, ctx.this, ctx.vars, ctx.frames, ctx.depth
        for c in cards(g, ctx):
            inner = new_ctx(Ctx)
            inner.you = you
            inner.them = them
            inner.it = c
            inner.this = this
            inner.vars = vars
            inner.frames = frames
            inner.did = 0
            inner.since = NO_STATEMENT
            inner.depth = depth
            total += body(g, inner)
        return total
    return run


@rule(STATEMENTS, F.Repeat)
def _repeat(cx: Compiler, node: Any) -> Fn:
    """:meth:`Repeat.run`: at most :data:`~cardscript.runtime.errors.MAX_REPEAT` passes; a
    body of one statement runs inline, its result stored after each pass."""
    k = cx.const(node.times)
    times = cx.expr(node.times) if k is NOT_CONST else None
    one = _one(cx, node.body)
    if one is None:
        body = cx.stmt(node.body)

        def run_block(g: Any, ctx: Ctx) -> int:
            n = k if times is None else times(g, ctx)
            if n > MAX_REPEAT:
                raise RunawayError(f"repeat {n} times is more than the bound {MAX_REPEAT} {g.where(ctx.this)}")
            total = 0
            for _ in range(max(0, n)):
                total += body(g, ctx)
            return total
        return run_block
    stmt = one[0]  # no position kept: Repeat.run tells a runaway error nothing of it
    if type(node.body.stmts[0]) is M._MoveTopCard:
        return _repeat_move_top(cx, node.body.stmts[0], k, times)

    def run(g: Any, ctx: Ctx) -> int:
        n = k if times is None else times(g, ctx)
        if n > MAX_REPEAT:
            raise RunawayError(f"repeat {n} times is more than the bound {MAX_REPEAT} {g.where(ctx.this)}")
        total = 0
        for _ in range(max(0, n)):
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            start = g.clock
            r = stmt(g, ctx)
            ctx.did = r
            ctx.since = start
            total += r
        return total
    return run


def _repeat_move_top(cx: Compiler, move_node: Any, k: Any, times: Fn | None) -> Fn:
    """'repeat N: move the top card of ZONE to ZONE2' (a draw): :meth:`Repeat.run` with the
    move of ``_MoveTopCard.run`` in the loop, no call per pass but the move's bookkeeping."""
    from cardscript.runtime.compiled.cards import slot_of
    from cardscript.runtime.compiled.moves import mover

    sz, syours = slot_of(move_node.cards.zones[0]) or (0, False)
    dz, dyours = slot_of(move_node.zone) or (0, False)
    move = mover(cx, dz, dyours, move_node.bottom)
    z = cx.d.zones[dz]
    # the passes that take a card already there, all but the last, moved at once when each
    # move is the plain one mover writes out (the same changes as a move of each in turn)
    at_once = not (move_node.bottom or z.per_card or dyours != z.per_player or dz in cx.g.enter_zones)
    per_pass = 1 + MOVE_STEPS

    def run(g: Any, ctx: Ctx) -> int:
        n = k if times is None else times(g, ctx)
        if n > MAX_REPEAT:
            raise RunawayError(f"repeat {n} times is more than the bound {MAX_REPEAT} {g.where(ctx.this)}")
        total = 0
        you = ctx.you
        s = g.zone_base[sz] + you if syours else g.zone_base[sz]
        if at_once and not g.logging:
            pile = g.slots[s]
            m = min(n, len(pile)) - 1
            dest = g.zone_base[dz] + you if dyours else g.zone_base[dz]
            if m >= 2 and dest != s and g.steps + m * per_pass <= g.step_limit:  # no pass runs out
                cards = pile[-m:]
                cards.reverse()  # top first
                del pile[-m:]
                g.slots[dest].extend(cards)
                g._moved_many(cards, s, dest)
                g.steps += m * per_pass
                total = m
                n -= m
        for _ in range(max(0, n)):
            g.steps += 1
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            start = g.clock
            pile = g.slots[s]
            if not pile:
                g.ensure(s, 1, False)
            if pile:
                g.steps += MOVE_STEPS
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                move(g, pile[-1], you)
                r = 1
            else:
                if g.steps > g.step_limit:  # the check of a move of no card
                    g.out_of_steps(ctx.this)
                r = 0
            ctx.did = r
            ctx.since = start
            total += r
        return total
    return run


@rule(STATEMENTS, F.AsPlayers)
def _as_players(cx: Compiler, node: Any) -> Fn:
    """:meth:`AsPlayers.run`: the statement with each player as 'you'; what it bound to
    'it' stays bound for the next."""
    players = cx.players(node.players)
    stmt = cx.stmt(node.stmt)

    def run(g: Any, ctx: Ctx) -> int:
        total = 0
        for p in players(g, ctx):
            inner = new_ctx(Ctx)
            inner.you = p
            inner.them = ctx.them
            inner.it = ctx.it
            inner.this = ctx.this
            inner.vars = ctx.vars
            inner.frames = ctx.frames
            inner.did = 0
            inner.since = NO_STATEMENT
            inner.depth = ctx.depth
            total += stmt(g, inner)
            ctx.it = inner.it
        return total
    return run


@rule(STATEMENTS, F.BetweenTurns)
def _between_turns(cx: Compiler, node: Any) -> Fn:
    """:meth:`BetweenTurns.run`."""
    body = cx.stmt(node.body)

    def run(g: Any, ctx: Ctx) -> int:
        g.between_turns += 1
        try:
            return body(g, ctx)
        finally:
            g.between_turns -= 1
    return run


@rule(STATEMENTS, F.Let)
def _let(cx: Compiler, node: Any) -> Fn:
    """:meth:`Let.run`: a new table of values with the name bound."""
    name = node.name
    k = cx.const(node.value)
    value = cx.expr(node.value) if k is NOT_CONST else None

    def run(g: Any, ctx: Ctx) -> int:
        v = ctx.vars = dict(ctx.vars)
        if value is None:
            v[name] = k
        else:
            x = value(g, ctx)
            v[name] = saturated(x) if type(x) is int else x
        return 0
    return run


@rule(STATEMENTS, F.EndGame)
def _end_game(cx: Compiler, node: Any) -> Fn:
    """:meth:`EndGame.run`."""
    reason = node.reason or "the game ended"

    def run(g: Any, ctx: Ctx) -> int:
        raise GameOver(reason)
    return run

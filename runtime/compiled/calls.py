"""Compiled calls, events and the primitives on cards (see :mod:`cardscript.runtime.compiled`):
each rule returns ``fn(g, ctx) -> int`` doing what the statement's ``run`` does."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled import block as _compiled_block
from cardscript.runtime.compiled.compiler import STATEMENTS, Compiler, rule
from cardscript.runtime.compiled.inline import inline_call
from cardscript.runtime.compiled.moves import mover, transfer
from cardscript.runtime.context import NO_STATEMENT, Ctx, new_ctx
from cardscript.runtime.effects import calls as K
from cardscript.runtime.effects import cards as M
from cardscript.runtime.effects import counting
from cardscript.runtime.effects import flow as F
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.effects.calls import Closure
from cardscript.runtime.effects.expressions import Const
from cardscript.runtime.errors import MAX_CALL_DEPTH, MAX_NESTING, MAX_TRIGGER_DEPTH, MOVE_STEPS, RunawayError
from cardscript.runtime.game.events import _QUIET
from cardscript.runtime.observation import note_subject


# ====================================================================== calls and events
def emitter(cx: Compiler, event: str) -> Any:
    """``fn(g, player, it, source)``: what ``g.emit(event, ...)`` does. An event that no
    rule, card or static rule of the definition listens to (its emit plan, made now:
    ``EventOps._emit_plan``) is counted, logged and checked against the trigger bound
    without the look-up of what listens; then only the delayed effects waiting for it run
    (through ``g.emit`` in a game whose triggers resolve in the order the player chooses)."""
    plan = cx.d.__dict__.get("_emits", {}).get(event) or cx.g._emit_plan(event)
    if plan is not _QUIET:
        return lambda g, player, it, source: g.emit(event, player, it, source)
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


@rule(STATEMENTS, K.Emit)
def _emit(cx: Compiler, node: Any) -> Fn:
    """:meth:`Emit.run` (through :func:`emitter`)."""
    emit = emitter(cx, node.event)
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
    level = cx.level  # calls run inline around this one: its depth is the caller's plus those
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
        if ctx.depth + level >= MAX_CALL_DEPTH:
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
        inner.depth = ctx.depth + level + 1
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


# ====================================================================== cards
def slot_of(zone: Any) -> tuple[int, bool] | None:
    """(zone index, of 'you') of a 'your ZONE' or shared zone reference, else None."""
    t = type(zone)
    if t is S._YourZone:
        return zone.zone, True
    if t is S._SharedZone:
        return zone.zone, False
    return None


@rule(STATEMENTS, M._MoveTopCard)
def _move_top(cx: Compiler, node: Any) -> Fn:
    """:meth:`_MoveTopCard.run`: 'move the top card of ZONE to ZONE2', both one slot by index."""
    src = slot_of(node.cards.zones[0])
    dst = slot_of(node.zone)
    assert src is not None and dst is not None
    sz, syours = src
    move = mover(cx, *dst, node.bottom)

    def run(g: Any, ctx: Ctx) -> int:
        s = g.zone_base[sz] + ctx.you if syours else g.zone_base[sz]
        pile = g.slots[s]
        if not pile:
            g.ensure(s, 1, False)
            if not pile:
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                return 0
        g.steps += MOVE_STEPS
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        move(g, pile[-1], ctx.you)
        return 1
    return run


@rule(STATEMENTS, M._MoveToYours, M._MoveToShared)
def _move_to(cx: Compiler, node: Any) -> Fn:
    """:meth:`_MoveToYours.run` and :meth:`_MoveToShared.run`: a destination of one slot."""
    dz, dyours = slot_of(node.zone) or (0, False)
    bottom = node.bottom
    move = mover(cx, dz, dyours, bottom)
    if type(node.cards) is S._CardsIt:  # 'move it to ...': no list
        def run_it(g: Any, ctx: Ctx) -> int:
            it = ctx.it
            if it is None:
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                return 0
            g.steps += MOVE_STEPS
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            move(g, it, ctx.you)
            return 1
        return run_it
    whole = _whole_slot(cx, node.cards)
    if whole is not None and not bottom:
        return transfer(cx, whole, (dz, dyours))
    cards = cx.cards(node.cards)

    def run(g: Any, ctx: Ctx) -> int:
        cs = cards(g, ctx)
        g.steps += MOVE_STEPS * len(cs)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if len(cs) == 1:
            move(g, cs[0], ctx.you)
        elif cs:
            g.move_all(cs, g.zone_base[dz] + ctx.you if dyours else g.zone_base[dz], bottom)
        return len(cs)
    return run


@rule(STATEMENTS, M.Move)
def _move(cx: Compiler, node: Any) -> Fn:
    """:meth:`Move.run` to any other zone reference: a player's ('their ZONE', 'the ZONE of
    each foe'), a card's, or each moved card's own ('its owner's ZONE', 'its home'), whose
    slot is found for each card."""
    cards = cx.cards(node.cards)
    zone, bottom = node.zone, node.bottom
    owner = getattr(zone, "owner", "")
    if owner in ("owner", "home"):
        d = cx.d
        per_player = [z.per_player for z in d.zones]
        homes = [ct.home for ct in d.cards]
        z = zone.zone

        def run_each(g: Any, ctx: Ctx) -> int:
            cs = cards(g, ctx)
            g.steps += MOVE_STEPS * len(cs)
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            n = 0
            you = ctx.you
            for c in cs:  # ZoneRef.slots with the card as 'it'
                if owner == "owner":
                    o = g.owner[c]
                    dest = g.zone_base[z] + ((o if o >= 0 else you) if per_player[z] else 0)
                else:
                    home = homes[g.card_type[c]]
                    if home < 0:
                        continue
                    dest = g.zone_base[home] + (you if per_player[home] else 0)
                g.move(c, dest, bottom)
                n += 1
            return n
        return run_each
    slots = cx.slots(zone)

    def run(g: Any, ctx: Ctx) -> int:
        cs = cards(g, ctx)
        g.steps += MOVE_STEPS * len(cs)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        found = slots(g, ctx)  # read once, before 'it' moves on
        if not found:
            return 0
        dest = found[0]
        for c in cs:
            g.move(c, dest, bottom)
        return len(cs)
    return run


@rule(STATEMENTS, M.Roll)
def _roll(cx: Compiler, node: Any) -> Fn:
    """:meth:`Roll.run`: each selected die (a card with faces) shows a face."""
    cards = cx.cards(node.cards)
    dice = [bool(ct.faces) for ct in cx.d.cards]

    def run(g: Any, ctx: Ctx) -> int:
        n = 0
        card_type = g.card_type
        for c in cards(g, ctx):
            if dice[card_type[c]]:
                g.roll(c)
                n += 1
        return n
    return run


@rule(STATEMENTS, M.Take)
def _take(cx: Compiler, node: Any) -> Fn:
    """:meth:`Take.run`: 'take CARDS into your ZONE' (gaining): each card moved there and
    made the acting player's, recorded as taken this turn. Any other destination runs the object."""
    dst = slot_of(node.zone)
    if dst is None or not dst[1]:
        return node.run
    move = mover(cx, *dst)
    cards = cx.cards(node.cards)

    def run(g: Any, ctx: Ctx) -> int:
        cs = cards(g, ctx)
        g.steps += MOVE_STEPS * len(cs)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        you = ctx.you
        for c in cs:
            move(g, c, you)
            if g.owner[c] != you:
                g.owner[c] = you
                g.touch(you)
            g.gained_turn.append((c, you))
        return len(cs)
    return run


def _whole_slot(cx: Compiler, sel: Any) -> tuple[int, bool] | None:
    """(zone, of 'you') when ``sel`` selects every card of one 'your ZONE' or shared zone
    and nothing else ('all cards from your hand'), top first; else None."""
    sel = cx._planned(sel)
    shape = sel._shape if type(sel) is counting._CardsAllShape else None
    if shape is None or shape.one is None or shape.name or shape.tests:
        return None
    kind, zone, top = shape.one
    if top or kind not in (counting._YOURS, counting._SHARED):
        return None
    return zone, kind == counting._YOURS


@rule(STATEMENTS, M.Play)
def _play(cx: Compiler, node: Any) -> Fn:
    """:meth:`Play.run`: into the play zone, recorded as played, its 'play' ability resolved
    (the player's card triggers waiting for it, in a game whose triggers wait), then the
    'play' event. A card type's ability is compiled at its first play."""
    d = cx.d
    zone = node.play_zone
    per_player = d.zones[zone].per_player
    waits = d.triggers_wait_for_play
    cards_of = d.cards
    abilities: dict[int, Any] = {}  # card type -> (closure, depth) of its play ability, or None
    it_only = type(node.cards) is S._CardsIt
    cards = None if it_only else cx.cards(node.cards)
    emit_play = emitter(cx, "play")

    def ability_of(g: Any, ct: int) -> Any:
        found = abilities.get(ct, False)
        if found is False:
            ab = cards_of[ct].abilities.get("play")
            found = abilities[ct] = None if ab is None else \
                (Compiler(g).block(ab) if isinstance(ab, F.Seq) else Compiler(g).stmt(ab), ab,
                 (ab._depth if ab._depth >= 0 else ab.depth()) + 2)
        return found

    move = mover(cx, zone, per_player)

    def play_one(g: Any, ctx: Ctx, c: int) -> None:
        you = ctx.you
        move(g, c, you)
        g.played_turn.append(c)
        if g.logging:
            g.emit_log({"t": "play", "player": you, "card": g.card_names[c]})
        found = ability_of(g, g.card_type[c])
        if found is not None:
            fn, _ab, depth = found
            inner = new_ctx(Ctx)
            inner.you = you
            inner.them = None
            inner.it = c
            inner.this = c
            inner.vars = {}
            inner.frames = [{}]
            inner.did = 0
            inner.since = NO_STATEMENT
            inner.depth = ctx.depth + 1
            if waits:
                if not g.playing:
                    g.play_player = you
                g.playing += 1
                done = False
                try:
                    nested(g, fn, inner, depth)
                    done = True
                except RunawayError as exc:
                    exc.passing(f"play of {g.card_names[c]}")
                    raise
                finally:
                    g.playing -= 1
                    if not g.playing and not done:
                        g.waiting.clear()
                if not g.playing and g.waiting:
                    g.resolve_waiting()
            else:
                try:
                    nested(g, fn, inner, depth)
                except RunawayError as exc:
                    exc.passing(f"play of {g.card_names[c]}")
                    raise
        emit_play(g, you, c, c)

    if it_only:
        def run_it(g: Any, ctx: Ctx) -> int:
            c = ctx.it
            if c is None:
                return 0
            play_one(g, ctx, c)
            return 1
        return run_it

    def run(g: Any, ctx: Ctx) -> int:
        n = 0
        for c in cards(g, ctx):  # type: ignore[misc]  # set when not it_only
            play_one(g, ctx, c)
            n += 1
        return n
    return run


def nested(g: Any, fn: Fn, ctx: Ctx, depth: int) -> int:
    """:meth:`EventOps.run_nested <cardscript.runtime.game.events.EventOps.run_nested>` of a
    compiled body whose nesting depth (plus the 2 frames of its caller) is ``depth``."""
    g.nesting += depth
    try:
        if g.nesting > MAX_NESTING:
            g.too_deep(ctx.this)
        return fn(g, ctx)
    finally:
        g.nesting -= depth


@rule(STATEMENTS, M.Shuffle)
def _shuffle(cx: Compiler, node: Any) -> Fn:
    """:meth:`Shuffle.run`."""
    one = slot_of(node.zone)
    if one is None:
        slots = node.zone.slots

        def run_any(g: Any, ctx: Ctx) -> int:
            for s in slots(g, ctx):
                g.shuffle(s)
            return 0
        return run_any
    z, yours = one

    def run(g: Any, ctx: Ctx) -> int:
        g.shuffle(g.zone_base[z] + ctx.you if yours else g.zone_base[z])
        return 0
    return run

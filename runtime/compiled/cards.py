"""Compiled primitives on cards (see :mod:`cardscript.runtime.compiled`): moves, take, play,
shuffle and roll. Each rule returns ``fn(g, ctx) -> int`` doing what the statement's ``run``
does."""

from __future__ import annotations

from random import Random as _Random
from typing import Any

from cardscript.runtime.compiled import Fn
from cardscript.runtime.compiled import block as compiled_block
from cardscript.runtime.compiled.calls import emitter
from cardscript.runtime.compiled.compiler import STATEMENTS, Compiler, rule
from cardscript.runtime.compiled.moves import mover, transfer
from cardscript.runtime.context import NO_STATEMENT, Ctx, new_ctx
from cardscript.runtime.effects import cards as M
from cardscript.runtime.effects import counting
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.errors import MAX_NESTING, MOVE_STEPS, RunawayError


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
    faces_of = [tuple(ct.faces) for ct in cx.d.cards]

    def run(g: Any, ctx: Ctx) -> int:
        n = 0
        card_type = g.card_type
        # a scenario's rigged faces, a logged roll, an RNG of another kind (set by its user, with
        # its own choice()): ZoneOps.roll
        if g.rigged or g.logging or type(g.rng) is not _Random:
            for c in cards(g, ctx):
                if dice[card_type[c]]:
                    g.roll(c)
                    n += 1
            return n
        # ZoneOps.roll of each die, its rng.choice(faces) written out: the draws of CPython's
        # Random.choice (seq[_randbelow(len(seq))], _randbelow_with_getrandbits: bit_length(m)
        # bits until they are below m), as RandomAgent.pick draws them
        bits = g.rng.getrandbits
        face_value = g.face_value
        for c in cards(g, ctx):
            t = card_type[c]
            if dice[t]:
                faces = faces_of[t]
                m = len(faces)
                width = m.bit_length()
                r = bits(width)
                while r >= m:
                    r = bits(width)
                face_value[c] = faces[r]
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
            if ab is None:
                found = abilities[ct] = None
            else:  # its depth as its objects find it, before compiling plans the calls in it
                depth = (ab._depth if ab._depth >= 0 else ab.depth()) + 2
                found = abilities[ct] = (compiled_block(ab, g), ab, depth)
        return found

    move = mover(cx, zone, per_player)

    def play_one(g: Any, ctx: Ctx, c: int) -> None:
        you = ctx.you
        move(g, c, you)
        g.played_turn.append(c)
        if g.logging:
            g.emit_log({"t": "play", "player": you, "card": g.card_names[c]})
        found = abilities.get(g.card_type[c], False)
        if found is False:
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
            # nested(g, fn, inner, depth), written out: one call fewer per card played
            if waits:
                if not g.playing:
                    g.play_player = you
                g.playing += 1
                done = False
                g.nesting += depth
                try:
                    if g.nesting > MAX_NESTING:
                        g.too_deep(c)
                    fn(g, inner)
                    done = True
                except RunawayError as exc:
                    exc.passing(f"play of {g.card_names[c]}")
                    raise
                finally:
                    g.nesting -= depth
                    g.playing -= 1
                    if not g.playing and not done:
                        g.waiting.clear()
                if not g.playing and g.waiting:
                    g.resolve_waiting()
            else:
                g.nesting += depth
                try:
                    if g.nesting > MAX_NESTING:
                        g.too_deep(c)
                    fn(g, inner)
                except RunawayError as exc:
                    exc.passing(f"play of {g.card_names[c]}")
                    raise
                finally:
                    g.nesting -= depth
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

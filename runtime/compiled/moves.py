"""Moving a card to a zone known when compiled (see :mod:`cardscript.runtime.compiled`):
:meth:`ZoneOps.move <cardscript.runtime.game.zones.ZoneOps.move>` with what the destination
decides worked out once — its slot by index, whose it is, the face its cards lie with,
whether a trigger watches cards entering it — the most frequent change of every game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardscript.runtime.compiled.compiler import Compiler
from cardscript.runtime.context import Ctx
from cardscript.runtime.errors import MOVE_STEPS

#: ``move(g, card, you)``: the card onto the top of the destination (of seat ``you``)
Mover = Callable[[Any, int, int], None]


def mover(cx: Compiler, zone: int, yours: bool, bottom: bool = False) -> Mover:
    """What ``g.move(card, slot)`` does for the slot of ``zone`` (of seat ``you`` when
    ``yours``, else the shared zone's one slot), written out. A move onto the bottom, into a
    per-card zone or into a zone a 'when a card enters' trigger watches runs ``g.move``."""
    z = cx.d.zones[zone]
    if bottom or z.per_card or yours != z.per_player or zone in cx.g.enter_zones:
        if yours:
            return lambda g, card, you: g.move(card, g.zone_base[zone] + you, bottom)
        return lambda g, card, you: g.move(card, g.zone_base[zone], bottom)
    face = not z.face_down
    if yours:
        def move_yours(g: Any, card: int, you: int) -> None:
            dest = g.zone_base[zone] + you
            loc = g.loc
            old = loc[card]
            slots = g.slots
            cards = slots[old]
            if cards[-1] == card:
                cards.pop()
            else:
                del cards[cards.index(card)]
            slots[dest].append(card)
            loc[card] = dest
            g.came_from[card] = old
            # the ticks of ZoneOps.move: the old slot's player, you, the card's owner
            touched, owner = g.touched, g.owner
            clock = g.clock
            p = g.slot_owner[old]
            if p >= 0:
                clock += 1
                touched[p] = clock
            clock += 1
            touched[you] = clock
            p = owner[card]
            if p >= 0:
                clock += 1
                touched[p] = clock
            else:
                owner[card] = you  # a card in your zone is yours unless it belongs to someone
            g.clock = clock
            if g.controller:
                g.controller.pop(card, None)
            g.face_up[card] = face
            if g.logging:
                g.emit_log({"t": "move", "card": g.card_names[card], "id": card, "from": g.slot_name(old),
                            "to": g.slot_name(dest)})
        return move_yours

    def move_shared(g: Any, card: int, you: int) -> None:
        dest = g.zone_base[zone]
        loc = g.loc
        old = loc[card]
        slots = g.slots
        cards = slots[old]
        if cards[-1] == card:
            cards.pop()
        else:
            del cards[cards.index(card)]
        slots[dest].append(card)
        loc[card] = dest
        g.came_from[card] = old
        touched, owner = g.touched, g.owner
        clock = g.clock
        p = g.slot_owner[old]
        if p >= 0:
            clock += 1
            touched[p] = clock
        p = owner[card]
        if p >= 0:
            clock += 1
            touched[p] = clock
        g.clock = clock
        owner[card] = -1  # a card in a shared zone belongs to nobody
        if g.controller:
            g.controller.pop(card, None)
        g.face_up[card] = face
        if g.logging:
            g.emit_log({"t": "move", "card": g.card_names[card], "id": card, "from": g.slot_name(old),
                        "to": g.slot_name(dest)})
    return move_shared


def transfer(cx: Compiler, src: tuple[int, bool], dst: tuple[int, bool]) -> Any:
    """``fn(g, ctx) -> int``: 'move all cards from SRC to DST' of two 'your ZONE' or shared
    zones (a selector of every card of one slot, nothing to filter), as ``_MoveToYours.run``
    with the selector's ``select_cards`` and ``ZoneOps.move_all`` do it: the slot's cards top
    first, its size then the moves charged, each card's bookkeeping that of ``ZoneOps.move``
    in turn, without a call per card. A destination a move must not write out (see
    :func:`mover`), a zone moved onto itself, or a game that logs (each move's entry shows the
    state after that move) takes ``g.move_all``."""
    sz, syours = src
    dz, dyours = dst
    z = cx.d.zones[dz]
    move = mover(cx, dz, dyours)
    general = z.per_card or dyours != z.per_player or dz in cx.g.enter_zones or syours != cx.d.zones[sz].per_player

    def run(g: Any, ctx: Ctx) -> int:
        you = ctx.you
        base = g.zone_base
        old = base[sz] + you if syours else base[sz]
        pile = g.slots[old]
        n = len(pile)
        g.steps += n  # the selector's pool (select_cards)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        g.steps += MOVE_STEPS * n
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        if n <= 1:
            if n:
                move(g, pile[-1], you)
            return n
        dest = base[dz] + you if dyours else base[dz]
        if general or dest == old or g.logging:  # a logged move shows the state of each card's move
            g.move_all(pile[::-1], dest)
            return n
        cards = pile[::-1]  # top first: the order a move of each takes them in
        pile.clear()
        g.slots[dest].extend(cards)
        g._moved_many(cards, old, dest)
        return n
    return run

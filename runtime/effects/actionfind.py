"""The option finders of an action window (issue 11, "legal actions from indexes"): for
each action of a :class:`~cardscript.runtime.effects.actionplan.WindowPlan`, a closure made
once per plan that adds the action's options to a decision's list, as
:meth:`WindowPlan.options <cardscript.runtime.effects.actionplan.WindowPlan.options>` finds
them with the action's plan — with what the plan knows worked out when the closure is made:
its zones' slots by index, whether a zone is a stack, the counter a ``keyed`` filter reads
and how. The options, their order and the steps they charge are those of the plan's code,
which a ``gated`` or ``test`` action still runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.game import Game

if TYPE_CHECKING:
    from cardscript.runtime.effects.actionplan import WindowPlan

#: ``find(g, ctx, options)``: appends one action's options (``(action, card)`` pairs)
Finder = Callable[[Game, Ctx, list[Any]], None]


def finders(plan: WindowPlan, g: Game, compiling: bool) -> tuple[Finder, ...]:
    """One finder per action of ``plan``, in the window's order, for games of ``g``'s
    definition; ``compiling``: an action's condition and a ``test`` action's selector run as
    their compiled closures (:mod:`cardscript.runtime.compiled`), else as their objects."""
    cx = None
    if compiling:
        from cardscript.runtime.compiled.compiler import Compiler

        cx = Compiler(g)
        try:
            return tuple(_finder(plan, g, i, act, cx) for i, act in enumerate(plan.actions))
        except RecursionError:  # compiled where Python's stack is already deep: the objects' finders
            pass
    return tuple(_finder(plan, g, i, act, None) for i, act in enumerate(plan.actions))


def pool_of(g: Game, zones: tuple[tuple[int, bool], ...]) -> Callable[[Game, Ctx], list[int]]:
    """``pool(g, ctx)``: the cards a choose sees in ``zones`` (zone, of 'you'), as
    ``WindowPlan._pool`` lists them: each slot from the top, only the top card of a stack."""
    if len(zones) == 1:
        zone, yours = zones[0]
        if g.d.zones[zone].stack:
            if yours:
                return lambda g, ctx: g.slots[g.zone_base[zone] + ctx.you][-1:]
            return lambda g, ctx: g.slots[g.zone_base[zone]][-1:]
        if yours:
            return lambda g, ctx: g.slots[g.zone_base[zone] + ctx.you][::-1]
        return lambda g, ctx: g.slots[g.zone_base[zone]][::-1]
    stacks = tuple((zone, yours, g.d.zones[zone].stack) for zone, yours in zones)

    def pool(g: Game, ctx: Ctx) -> list[int]:
        out: list[int] = []
        for zone, yours, stack in stacks:
            cards = g.slots[g.zone_base[zone] + (ctx.you if yours else 0)]
            if stack:
                out += cards[-1:]
            else:
                out += reversed(cards)
        return out
    return pool


def pairs_of(act: Any, g: Game) -> list[tuple[Any, int]]:
    """The option ``(act, card)`` of every card of ``g``'s definition, by card: made once per
    finder, so a decision's options are the same tuples, not new ones (a card's number is its
    place in the definition's printings, the same in every game of it)."""
    return [(act, c) for c in range(len(g.card_type))]


def _finder(plan: WindowPlan, g: Game, i: int, act: Any, cx: Any) -> Finder:
    kind, data = plan.plans[i]
    if kind == "direct" or kind == "static":
        pairs = pairs_of(act, g)
        zones = data if kind == "direct" else data[0]
        pool = pool_of(g, zones)
        if len(zones) == 1 and not g.d.zones[zones[0][0]].stack:  # one slot by index, from its top
            zone, yours = zones[0]
            ok = data[1] if kind == "static" else None

            def one(g: Game, ctx: Ctx, options: list[Any]) -> None:
                cards = g.slots[g.zone_base[zone] + ctx.you] if yours else g.slots[g.zone_base[zone]]
                g.steps += len(cards)  # as the selector counts its pool
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                if ok is None:
                    options += map(pairs.__getitem__, reversed(cards))
                else:
                    options += [pairs[c] for c in reversed(cards) if ok[c]]
            return one
        if kind == "direct":
            def direct(g: Game, ctx: Ctx, options: list[Any]) -> None:
                cards = pool(g, ctx)
                g.steps += len(cards)  # as the selector counts its pool
                if g.steps > g.step_limit:
                    g.out_of_steps(ctx.this)
                options += map(pairs.__getitem__, cards)
            return direct
        ok = data[1]

        def static(g: Game, ctx: Ctx, options: list[Any]) -> None:
            cards = pool(g, ctx)
            g.steps += len(cards)
            if g.steps > g.step_limit:
                g.out_of_steps(ctx.this)
            options += [pairs[c] for c in cards if ok[c]]
        return static
    name = act.name
    if kind == "keyed":
        keyed = _keyed(plan, g, i, act, data)
        if keyed is not None:
            return keyed
    if kind in ("keyed", "gated"):
        sized = kind == "gated" and data[2][5]

        def planned(g: Game, ctx: Ctx, options: list[Any]) -> None:
            g.action_name = name  # what its candidates cost: "the next ... you buy"
            if sized and plan._ruled_out(g, ctx, i, data[2]):
                return
            options += [(act, c) for c in plan._keyed(g, ctx, i, act, data)]
        return planned
    if act.choose is not None:
        candidates = (cx.candidates(act.choose) if cx is not None else None) or act.choose.candidates

        def chosen(g: Game, ctx: Ctx, options: list[Any]) -> None:
            g.action_name = name
            options += [(act, c) for c in candidates(g, ctx)]
        return chosen
    if act.cond is None:
        def always(g: Game, ctx: Ctx, options: list[Any]) -> None:
            g.action_name = name
            options.append((act, None))
        return always
    test = cx.cond(act.cond) if cx is not None else act.cond.test

    def plain(g: Game, ctx: Ctx, options: list[Any]) -> None:
        g.action_name = name
        if test(g, ctx):
            options.append((act, None))
    return plain


def _keyed(plan: WindowPlan, g: Game, i: int, act: Any, data: Any) -> Finder | None:
    """The finder of a ``keyed`` action whose filter reads at most one counter, and maybe
    the modifiers and the cards' faces (a buy: ``cost of it for you <= your power``):
    ``WindowPlan._keyed`` with its key built as the plan says, the counter read by index
    when no passive ability adds to it. None for any other ``keyed`` action."""
    zones, reads, gate = data
    if gate is not None or reads.marks or reads.slots or len(reads.counters) > 1:
        return None
    pool = pool_of(g, zones)
    sel, name, faces, mods = act.choose, act.name, reads.faces, reads.mods
    counter, yours = reads.counters[0] if reads.counters else (-1, False)
    plain = counter >= 0 and counter not in g.d.passive_counters and \
        g.d.counters[counter].per_player == yours and not g.d.counters[counter].per_card
    known, test = plan.known[i], plan._test_card
    pairs = pairs_of(act, g)
    from cardscript.runtime.effects.actionplan import KNOWN

    def find(g: Game, ctx: Ctx, options: list[Any]) -> None:
        g.action_name = name
        cards = pool(g, ctx)
        you = ctx.you
        if counter < 0:
            key: tuple[Any, ...] = (you,)
        elif plain:
            key = (you, g.values[g.counter_base[counter] + you] if yours else g.values[g.counter_base[counter]])
        else:
            key = (you, g.get(counter, you if yours else 0))
        if mods and g.attr_mods:
            key += (tuple(map(tuple, g.attr_mods)),)
        seen_cards = known.get(key)
        if seen_cards is None:
            if len(known) >= KNOWN:
                known.clear()
            seen_cards = known[key] = {}
        steps = len(cards)
        found = []
        if faces:  # a card's answer is kept by the card and its face
            up = g.face_up
            for c in cards:
                ck = c + c + up[c]
                seen = seen_cards.get(ck)
                if seen is None:
                    seen = seen_cards[ck] = test(g, ctx, sel, c, sel.filters)
                if seen[0]:
                    found.append(pairs[c])
                steps += seen[1]
        else:
            for c in cards:
                seen = seen_cards.get(c)
                if seen is None:
                    seen = seen_cards[c] = test(g, ctx, sel, c, sel.filters)
                if seen[0]:
                    found.append(pairs[c])
                steps += seen[1]
        if g.steps + steps > g.step_limit:  # the selector itself stops the game where it runs out
            options += [(act, c) for c in sel.candidates(g, ctx)]
            return
        g.steps += steps
        options += found
    return find

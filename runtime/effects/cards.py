"""The built-in primitives on cards: move, take, shuffle, flip, reveal, play, roll and
take control."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx, fresh_ctx
from cardscript.runtime.effects.base import Node, specialised
from cardscript.runtime.effects.expressions import Const
from cardscript.runtime.effects.selectors import _CardsTop, _SharedZone, _YourZone
from cardscript.runtime.errors import MOVE_STEPS, RunawayError
from cardscript.runtime.game import Game
from cardscript.runtime.observation import note_revealed


class Move(Node):
    """``move CARDS to ZONE``: onto the top (or the bottom) of the first slot of the zone."""

    __slots__ = ("bottom", "cards", "zone")

    def __new__(cls, cards: Any, zone: Any, bottom: bool = False) -> Move:
        if cls is not Move:
            return object.__new__(cls)
        kind = type(zone)
        if kind is _YourZone or kind is _SharedZone:
            if _one_top_card(cards):
                return object.__new__(_MoveTopCard)
            return object.__new__(_MoveToYours if kind is _YourZone else _MoveToShared)
        return object.__new__(Move)

    def __init__(self, cards: Any, zone: Any, bottom: bool = False):
        self.cards, self.zone, self.bottom = cards, zone, bottom

    def run(self, g: Game, ctx: Ctx) -> int:
        cards = self.cards.cards(g, ctx)
        g.steps += MOVE_STEPS * len(cards)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        zone = self.zone
        kind = type(zone)
        if kind is _YourZone or kind is _SharedZone:  # one slot, found by index (most moves)
            dest = g.zone_base[zone.zone] + ctx.you if kind is _YourZone else g.zone_base[zone.zone]
            bottom, move = self.bottom, g.move
            for c in cards:
                move(c, dest, bottom)
            return len(cards)
        n = 0
        # Only 'its owner's' and 'its home' are about each moved card; any other
        # destination ('the markers of it') is read once, before 'it' moves on.
        fixed = zone.owner not in ("owner", "home")
        if fixed:
            slots = zone.slots(g, ctx)
            if not slots:
                return 0
            dest = slots[0]
        for c in cards:
            if not fixed:
                slots = zone.slots(g, ctx.with_it(c))
                if not slots:
                    continue
                dest = slots[0]
            g.move(c, dest, self.bottom)
            n += 1
        return n


@specialised
class _MoveToYours(Move):
    """``move CARDS to your ZONE`` (most moves): :meth:`Move.run` for a destination known
    to be one slot found by index, without asking the zone's kind at each run."""

    def run(self, g: Game, ctx: Ctx) -> int:
        cards = self.cards.cards(g, ctx)
        g.steps += MOVE_STEPS * len(cards)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        dest = g.zone_base[self.zone.zone] + ctx.you
        if len(cards) == 1:
            g.move(cards[0], dest, self.bottom)
        elif cards:
            g.move_all(cards, dest, self.bottom)
        return len(cards)


@specialised
class _MoveToShared(Move):
    """``move CARDS to the ZONE`` of a shared zone: as :class:`_MoveToYours`."""

    def run(self, g: Game, ctx: Ctx) -> int:
        cards = self.cards.cards(g, ctx)
        g.steps += MOVE_STEPS * len(cards)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        dest = g.zone_base[self.zone.zone]
        if len(cards) == 1:
            g.move(cards[0], dest, self.bottom)
        elif cards:
            g.move_all(cards, dest, self.bottom)
        return len(cards)


def _one_top_card(cards: Any) -> bool:
    """``cards`` is 'the top card of' one 'your ZONE' or shared zone (a draw, a reveal of
    the top of a deck): a selector found by index that needs no list of its own."""
    return (type(cards) is _CardsTop and len(cards.zones) == 1 and type(cards.zones[0]) in (_YourZone, _SharedZone)
            and type(cards.count) is Const and cards.count.value == 1)


@specialised
class _MoveTopCard(Move):
    """``move the top card of ZONE to ZONE2``, both 'your' or shared zones (a draw, the most
    frequent move): :meth:`_MoveToYours.run` with the top card taken where
    ``_CardsTop.cards`` finds it (refilling the zone when empty), and no list built."""

    def run(self, g: Game, ctx: Ctx) -> int:
        zone_base = g.zone_base
        src = self.cards.zones[0]
        s = zone_base[src.zone] + ctx.you if type(src) is _YourZone else zone_base[src.zone]
        pile = g.slots[s]
        if not pile:
            g.ensure(s, 1, False)  # refills this very list, when its zone refills
            if not pile:
                if g.steps > g.step_limit:  # the check of a move of no card
                    g.out_of_steps(ctx.this)
                return 0
        g.steps += MOVE_STEPS
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        zone = self.zone
        g.move(pile[-1], zone_base[zone.zone] + ctx.you if type(zone) is _YourZone else zone_base[zone.zone],
               self.bottom)
        return 1


class Take(Node):
    """``take CARDS into ZONE``: move and become the owner (gaining, in most games)."""

    __slots__ = ("cards", "zone")

    def __init__(self, cards: Any, zone: Any):
        self.cards, self.zone = cards, zone

    def run(self, g: Game, ctx: Ctx) -> int:
        n = 0
        fixed = self.zone.owner not in ("owner", "home")
        dest = self.zone.slots(g, ctx) if fixed else []
        cards = self.cards.cards(g, ctx)
        g.steps += MOVE_STEPS * len(cards)
        if g.steps > g.step_limit:
            g.out_of_steps(ctx.this)
        for c in cards:
            slots = dest if fixed else self.zone.slots(g, ctx.with_it(c))
            if not slots:
                continue
            g.move(c, slots[0])
            if g.owner[c] != ctx.you:
                g.owner[c] = ctx.you
                g.touch(ctx.you)
            g.gained_turn.append((c, ctx.you))
            n += 1
        return n


class Shuffle(Node):
    """'shuffle ZONE' with the game's one RNG (or as rigged by a scenario)."""

    __slots__ = ("zone",)

    def __init__(self, zone: Any):
        self.zone = zone

    def run(self, g: Game, ctx: Ctx) -> int:
        for s in self.zone.slots(g, ctx):
            g.shuffle(s)
        return 0


class Flip(Node):
    """'flip CARDS': face up becomes face down and back."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        for c in cs:
            g.face_up[c] = not g.face_up[c]
            if g.logging:
                g.emit_log({"t": "flip", "card": g.card_name(c), "face_up": g.face_up[c]})
        return len(cs)


class Reveal(Node):
    """'reveal CARDS': shows the cards (a log entry); nothing moves."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        if cs:
            note_revealed(g, cs)  # every seat has seen them (issue 13's observations)
        if g.logging and cs:
            g.emit_log({"t": "reveal", "player": ctx.you, "cards": [g.card_name(c) for c in cs]})
        return len(cs)


class Play(Node):
    """``play CARDS``: into the player's play zone, recorded as played this turn; its
    'play' ability resolves fully, then the 'play' event fires.

    In a game whose triggers wait for the card played (``triggers_wait_for_play``), the
    card triggers that the player's events fire meanwhile wait until the outermost card
    played has resolved, and then fire before its 'play' event (``Game.resolve_waiting``)."""

    __slots__ = ("cards", "play_zone")

    def __init__(self, cards: Any, play_zone: int):
        self.cards, self.play_zone = cards, play_zone

    def run(self, g: Game, ctx: Ctx) -> int:
        n = 0
        for c in self.cards.cards(g, ctx):
            g.move(c, g.slot(self.play_zone, ctx.you))
            g.played_turn.append(c)
            if g.logging:
                g.emit_log({"t": "play", "player": ctx.you, "card": g.card_name(c)})
            ability = g.d.cards[g.card_type[c]].abilities.get("play")
            if ability is not None:
                if g.d.triggers_wait_for_play:
                    self._resolve_waiting_after(g, ctx, c, ability)
                else:
                    try:
                        g.run_nested(ability, fresh_ctx(ctx.you, c, c, ctx.depth + 1))
                    except RunawayError as exc:
                        exc.passing(f"play of {g.card_name(c)}")
                        raise
            g.emit("play", ctx.you, c, c)
            n += 1
        return n


    @staticmethod
    def _resolve_waiting_after(g: Game, ctx: Ctx, c: int, ability: Any) -> None:
        """Resolve card ``c``'s play ability with the player's card triggers waiting, then,
        when it is the outermost card played, fire those that waited. A card that never
        finished resolving (the game ended, or ran away) leaves none waiting."""
        if not g.playing:
            g.play_player = ctx.you
        g.playing += 1
        done = False
        try:
            g.run_nested(ability, fresh_ctx(ctx.you, c, c, ctx.depth + 1))
            done = True
        except RunawayError as exc:
            exc.passing(f"play of {g.card_name(c)}")
            raise
        finally:
            g.playing -= 1
            if not g.playing and not done:
                g.waiting.clear()
        if not g.playing and g.waiting:
            g.resolve_waiting()


class Roll(Node):
    """``roll DICE``: each selected die shows one of its faces at random (or as rigged)."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        n = 0
        for c in self.cards.cards(g, ctx):
            if g.d.cards[g.card_type[c]].faces:
                g.roll(c)
                n += 1
        return n


class TakeControl(Node):
    """``take control of C``: until the end of the turn the acting player controls the
    cards where they are; no card moves and nobody gains it."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        for c in cs:
            g.controller[c] = ctx.you
        return len(cs)

"""Statements that printed card text needs beyond the basic verbs (issue 12): a modal
choice (:class:`ChooseOne`); modifiers of a number attribute as a player sees it
(:class:`AddModifier`, read by :class:`AttrFor`, used up by :class:`UseUpModifiers`); the
test whether a card is the one whose ability runs (:class:`IsThis`, "each other Hero")."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.decision import Decision
from cardscript.runtime.effects.base import Node, card_has
from cardscript.runtime.effects.conditions import _EveryCard
from cardscript.runtime.errors import MAX_MODIFIERS
from cardscript.runtime.game import Game


class ChooseOne(Node):
    """``choose one: A; or B``: the acting player picks one mode, which runs.

    The decision's kind is ``"mode"`` and its options are labelled with each mode's text
    as written, so a scenario may answer ``"draw a card"`` or an index. The result is
    the chosen mode's result (what "if you do" reads after it).
    """

    __slots__ = ("labels", "modes")

    def __init__(self, modes: list[Any], labels: list[str]):
        self.modes, self.labels = modes, labels

    def run(self, g: Game, ctx: Ctx) -> int:
        options = list(range(len(self.modes)))
        pick = g.decide(Decision(ctx.you, "mode", options, list(self.labels), 1, 1, "choose one"))[0]
        return int(self.modes[pick].run(g, ctx))


class GoFirst(Node):
    """``you go first`` / ``the foe to your left goes first``: the acting player takes
    the first turn, and becomes the active player (so a setup's ``for each player`` that
    follows starts with them; ``turn order`` counts from them). Said during setup, the
    turns start from that seat; said later, it changes only ``turn order``. Result: 1."""

    __slots__ = ()

    def run(self, g: Game, ctx: Ctx) -> int:
        g.first_player = g.active = ctx.you
        g.emit_log({"t": "first player", "player": ctx.you})
        return 1


# ---------------------------------------------------------------- attribute modifiers
# A modifier is [attribute, seat, types, delta, verb, used] in ``g.attr_mods``: it changes
# ``attribute`` of the cards with one of ``types`` (all cards when empty) as ``seat``
# sees them. With no ``verb`` it lasts the turn; with one ("the next super power you buy"),
# it applies only while the action named ``verb`` runs, until that action uses it up.
def _applies(g: Game, m: list[Any], attr: str, seat: int, card: int) -> bool:
    if m[0] != attr or m[1] != seat or m[5]:
        return False
    if m[4] and m[4] != g.action_name:
        return False
    return not m[2] or card_has(g, card, m[2])


def modified(g: Game, attr: str, seat: int, card: int) -> int:
    """``attr`` of ``card`` as ``seat`` sees it: the printed number plus the modifiers
    that apply, never below 0 ("cost 1 less" of a card that costs 0 is 0). Each modifier
    looked at is a step of the budget (review of issue 12, A5)."""
    value = g.attr_value(card, attr) if attr in g.computed_attrs else g.card_attrs[card].get(attr, 0)
    if not isinstance(value, int):  # as_number, inlined: called per card of every buy
        value = 0
    if g.attr_mods:
        g.steps += len(g.attr_mods)
        if g.steps > g.step_limit:
            g.out_of_steps(None)
    for m in g.attr_mods:
        if _applies(g, m, attr, seat, card):
            value += m[3]
    if g.static_attrs and attr in g.static_attrs:  # "Ongoing: Cards cost 1 less for you" (cards2 area)
        value += g.static_delta(attr, seat, card)
    return max(value, 0)


class AddModifier(Node):
    """``cards with T cost 1 less for PLAYERS this turn`` / ``the next T you VERB this turn
    costs 2 less``: records a modifier for each player (``players`` None: the acting player).
    Result: the number of players it applies to.

    Raises:
        RunawayError: more than ``MAX_MODIFIERS`` recorded this turn (CS401).
    """

    __slots__ = ("attr", "delta", "players", "types", "verb")

    def __init__(self, attr: str, types: tuple[str, ...], delta: int, players: Any, verb: str):
        self.attr, self.types, self.delta, self.players, self.verb = attr, types, delta, players, verb

    def run(self, g: Game, ctx: Ctx) -> int:
        seats = self.players.players(g, ctx) if self.players is not None else [ctx.you]
        if len(g.attr_mods) + len(seats) > MAX_MODIFIERS:
            g.too_many(f"more than {MAX_MODIFIERS:,} attribute modifiers in one turn", ctx.this)
        for p in seats:
            g.attr_mods.append([self.attr, p, self.types, self.delta, self.verb, False])
        return len(seats)


class AttrFor(Node):
    """``ATTR of CARD for PLAYER``: the attribute with the modifiers that player has
    (:func:`modified`); 0 when no card is selected."""

    __slots__ = ("_it_you", "attr", "card", "player")

    def __init__(self, attr: str, card: Any, player: Any):
        self.attr, self.card, self.player = attr, card, player
        # 'cost of it for you', the shape of every buy: no selector to run
        self._it_you = card.kind == "it" and player.kind == "you" and not player.filters

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        if self._it_you:
            it = ctx.it
            if it is None:
                return 0
            if g.attr_mods or g.computed_attrs or g.static_attrs:
                return modified(g, self.attr, ctx.you, it)
            # no modifier, no computed or static attribute: modified() comes to the printed number
            value = g.card_attrs[it].get(self.attr, 0)
            return value if isinstance(value, int) and value > 0 else 0
        cards = self.card.cards(g, ctx)
        seats = self.player.players(g, ctx)
        if not cards or not seats:
            return 0
        return modified(g, self.attr, seats[0], cards[0])


class UseUpModifiers(Node):
    """``use modifiers of CARDS``: the "next one" modifiers that apply to the cards for
    the acting player, in the action running, are used up (an action calls it once it has
    paid). Result: how many were used up."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        used = 0
        for card in self.cards.cards(g, ctx):
            g.steps += len(g.attr_mods)
            for m in g.attr_mods:
                if m[4] and _applies(g, m, m[0], ctx.you, card):
                    m[5] = True
                    used += 1
        return used


class IsThis(_EveryCard):
    """Every selected card is the card whose ability runs ('it is this card'; "each other
    Hero you play" is 'it is not this card': a second copy has the name, not the identity)."""

    __slots__ = ("cards",)

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return card == ctx.this

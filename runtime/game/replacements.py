"""Replacement effects of cards (issue 12): which card, if any, replaces a call of an
effect, and running its replacement with the call's arguments.

A card's ``instead of PATTERN`` is armed while the card lies in an ``active`` zone: a
per-player active zone arms it for the calls made by that zone's player (``a foe's``:
by that player's foes), a shared active zone for everybody's (``a foe's``: everybody but
the card's owner). One replacement applies to a call; while it runs, the replacement
(of that card) does not replace again, so a body that calls the effect it replaces
reaches the effect itself, or another card's replacement, and a chain of them ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.definition import ReplacementDef
from cardscript.runtime.errors import RunawayError
from cardscript.runtime.game.state import GameState


class ReplacementOps(GameState):
    """Replacements (part of :class:`~cardscript.runtime.game.Game`)."""

    run_nested: Callable[[Any, Ctx], int]  # from EventOps, the part of Game that runs nested bodies

    def replacement(self, reps: tuple[ReplacementDef, ...], you: int) -> tuple[ReplacementDef, int, int] | None:
        """The first armed replacement of a call by seat ``you`` (in the order the cards
        were loaded, then by component), with the card carrying it and the seat it is armed
        for (-1: a card nobody owns in a shared zone); None when none is."""
        for rep in reps:
            self.steps += len(self.type_cards[rep.card])
            for card in self.type_cards[rep.card]:
                slot = self.loc[card]
                zone = self.d.zones[self.slot_zone[slot]]
                if not zone.active:
                    continue
                player = self.slot_owner[slot] if zone.per_player else self.owner[card]
                if rep.foes:
                    if player == you:
                        continue
                elif zone.per_player and player != you:
                    continue
                key = (rep.uid, card)
                if key in self.replacing or (rep.first_time and key in self.fired):
                    continue
                return rep, card, player
        return None

    def run_replacement(self, found: tuple[ReplacementDef, int, int], bound: dict[str, Any], kinds: list[str],
                        ctx: Ctx) -> int:
        """Run a replacement (from :meth:`replacement`) instead of a call whose arguments
        are ``bound`` (by the effect's parameter names, in order; ``kinds`` their kinds).
        ``you`` is the calling player — for ``a foe's``, the card's player, and the calling
        foe is ``them``; ``this`` is the card, ``it`` the first card of the first cards
        argument (the caller's ``it`` when there is none). Returns the body's result."""
        rep, card, player = found
        key = (rep.uid, card)
        if rep.first_time:
            self.fired.add(key)
        values = dict(zip(rep.names, bound.values(), strict=True))
        it = next((v[0] if v else None for v, k in zip(bound.values(), kinds, strict=True) if k == "cards"), ctx.it)
        you, them = (player if player >= 0 else ctx.you, ctx.you) if rep.foes else (ctx.you, ctx.them)
        inner = Ctx(you, them, it, card, values, [*ctx.frames, {}], ctx.depth + 1)
        if self.logging:
            self.emit_log({"t": "replace", "card": self.card_name(card), "effect": rep.effect, "player": ctx.you})
        self.replacing.add(key)
        try:
            return self.run_nested(rep.body, inner)
        except RunawayError as exc:
            exc.passing(f"{self.card_name(card)} instead of '{rep.effect}' ({rep.source})")
            raise
        finally:
            self.replacing.discard(key)


"""Players in seat order, and the marks put on players and cards (for the turn, or
local to an effect's frames)."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.game.state import GameState


class MarkOps(GameState):
    """Seat order and marks (part of :class:`~cardscript.runtime.game.Game`)."""

    def foes(self, you: int) -> list[int]:
        """Foes clockwise, starting with the player to your left."""
        return list(self.foes_of[you]) if -self.n <= you < self.n else [(you + i) % self.n for i in range(1, self.n)]

    def everyone(self) -> list[int]:
        """All players clockwise starting with the active player."""
        return list(self.seats_from[self.active])

    # ------------------------------------------------------------ marks
    def mark_player(self, ctx: Ctx, name: str, player: int, this_turn: bool, on: bool = True) -> None:
        table: dict[Any, set[int]] = self.turn_pmarks if this_turn else ctx.frames[-1]
        key: Any = name if this_turn else ("p", name)
        s = table.setdefault(key, set())
        if (player in s) != on:
            (s.add if on else s.discard)(player)
            self.touch(player)

    def mark_card(self, ctx: Ctx, name: str, card: int, this_turn: bool, on: bool = True) -> None:
        table: dict[Any, set[int]] = self.turn_cmarks if this_turn else ctx.frames[-1]
        key: Any = name if this_turn else ("c", name)
        s = table.setdefault(key, set())
        if (card in s) != on:
            (s.add if on else s.discard)(card)
            if self.owner[card] >= 0:
                self.touch(self.owner[card])

    def player_marked(self, ctx: Ctx, name: str, player: int, this_turn: bool) -> bool:
        if this_turn:
            if player in self.turn_pmarks.get(name, ()):
                return True
        elif any(player in f.get(("p", name), ()) for f in ctx.frames):
            return True
        # A static mark of a passive ability in play ("Ongoing: ..."): runtime/game/statics.py
        return bool(self.static_marks) and (name, this_turn) in self.static_marks and \
            self.static_marked(name, player, this_turn)  # type: ignore[attr-defined]  # StaticOps, in Game

    def card_marked(self, ctx: Ctx, name: str, card: int, this_turn: bool) -> bool:
        if this_turn:
            return card in self.turn_cmarks.get(name, ())
        key = ("c", name)
        return any(card in f.get(key, ()) for f in ctx.frames)


"""A choice put to a player (:class:`Decision`) and the interface of whoever answers
it (:class:`Agent`); the bots are in :mod:`cardscript.runtime.agents`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardscript.runtime.game import Game


class Decision:
    """A choice put to one player.

    Attributes:
        player: seat index (0-based) of the player who decides.
        kind: "action" | "card" | "player" | "yes/no" | "trigger" (which pending trigger resolves next).
        options: legal options; ``labels`` are what logs and humans see.
        labels: one readable label per option (computed on first use when given
            as a function, so bots that never read them pay nothing).
        low, high: how many options to pick (inclusive).
        purpose: the verb the choice serves ("discard", "gain", "defense", ...),
            a hint for bots.
        values: one number per option for bots (e.g. a card's cost), or empty
            (also computed on first use when given as a function).
    """

    __slots__ = ("_labels", "_values", "high", "kind", "low", "options", "player", "purpose")

    def __init__(self, player: int, kind: str, options: list[Any], labels: Any, low: int, high: int,
                 purpose: str = "", values: Any = ()):
        self.player, self.kind, self.options, self._labels = player, kind, options, labels
        self.low, self.high, self.purpose, self._values = low, high, purpose, values

    @property
    def labels(self) -> list[str]:
        if callable(self._labels):
            self._labels = self._labels()
        return self._labels

    @property
    def values(self) -> list[int]:
        if callable(self._values):
            self._values = self._values()
        return self._values


class Agent:
    """Answers decisions. Subclasses implement :meth:`choose`."""

    name = "agent"

    def bind(self, game: Game, seat: int) -> None:
        """Called once when the game starts."""

    def choose(self, game: Game, decision: Decision) -> list[int]:  # pragma: no cover - interface
        """Return the indices of the chosen options (between low and high of them)."""
        raise NotImplementedError

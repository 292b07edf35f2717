"""A choice put to a player (:class:`Decision`) and the interface of whoever answers
it (:class:`Agent`); the bots are in :mod:`cardscript.runtime.agents`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardscript.runtime.game import Game
    from cardscript.runtime.observation import DecisionView, Observation


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

    __slots__ = ("__weakref__", "_labels", "_values", "high", "kind", "low", "options", "player", "purpose")

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
    """Answers decisions for one seat. Subclasses implement :meth:`choose`.

    An agent never receives the game: it is handed what its seat may know (issue 13),
    an :class:`~cardscript.runtime.observation.Observation` and, per decision, a
    :class:`~cardscript.runtime.observation.DecisionView`.
    """

    name = "agent"
    #: the agent asks ``decision.forecast`` (issue 13): the engine records its game, which a
    #: forecast forks
    forecasts = False
    #: the agent's answer depends only on the shape of a decision (how many options, how many
    #: to pick) and its own stream: the engine asks :meth:`pick` instead of :meth:`choose`,
    #: with no view to build (the random bot; issue 11, "cheap decisions")
    blind = False
    #: the agent answers an action decision from what each option says of its action and
    #: the options' values alone (:attr:`DecisionView.actions
    #: <cardscript.runtime.observation.DecisionView.actions>`, ``values``): the engine asks
    #: :meth:`pick_action` for it, with no view to build (the heuristic bot; issue 11)
    by_action = False
    #: the agent answers any other decision but a choice of player from its ``kind``,
    #: ``purpose``, size, ``low``, ``high`` and ``values`` alone: the engine asks
    #: :meth:`pick_values` for it, with no view to build (the heuristic bot; issue 11)
    by_values = False

    def bind(self, seat: int, seed: int) -> None:
        """Called once when the game starts.

        Args:
            seat: the agent's seat (0-based).
            seed: the seed of this seat's own random stream (derived from the game's seed
                and the seat), so that a bot drawing from it plays the same game again.
        """

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:  # pragma: no cover - interface
        """Return the indices of the chosen options (between ``decision.low`` and
        ``decision.high`` of them)."""
        raise NotImplementedError

    def pick(self, size: int, low: int, high: int) -> list[int]:  # pragma: no cover - interface
        """A :attr:`blind` agent's answer: the indices of the chosen options (between ``low``
        and ``high`` of the ``size`` options), which :meth:`choose` must give too."""
        raise NotImplementedError

    def pick_action(self, actions: Sequence[Any], values: Sequence[int]) -> int:  # pragma: no cover - interface
        """A :attr:`by_action` agent's answer to an action decision: the index of the option
        chosen, which :meth:`choose` must give too. ``actions``: per option, its
        :class:`~cardscript.runtime.observation.ActionKind` (None for ending the turn), as
        ``DecisionView.actions``; ``values``: one number per option, as ``DecisionView.values``."""
        raise NotImplementedError

    def pick_values(self, kind: str, purpose: str, size: int, low: int, high: int,
                    values: Sequence[int]) -> list[int]:  # pragma: no cover - interface
        """A :attr:`by_values` agent's answer to a decision that is neither an action window nor a
        choice of player: the indices of the chosen options (between ``low`` and ``high`` of
        the ``size`` options), which :meth:`choose` must give too; the arguments as the
        decision's :class:`~cardscript.runtime.observation.DecisionView` gives them."""
        raise NotImplementedError


class EngineAgent(Agent):
    """Engine side, not a player: answers with the game in hand (a scenario's or a
    replay's scripted answers, a fork's replay, a test probe). Not part of the API; the
    engine asks it through :meth:`answer` instead of :meth:`choose`. When it passes a
    decision on to a real agent, it does so through
    :func:`cardscript.runtime.observation.ask`, which hands that agent its seat's view."""

    def attach(self, game: Game, seat: int) -> None:
        """Called once when the game starts (instead of :meth:`bind`)."""

    def answer(self, game: Game, decision: Decision) -> list[int]:  # pragma: no cover - interface
        """Return the indices of the chosen options."""
        raise NotImplementedError

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        raise TypeError(f"{self.name} answers with the game (answer), not from a view")


def a_kind(kind: str) -> str:
    """'a yes/no decision' / 'an action decision': ``kind`` with its article, for messages."""
    return f"{'an' if kind[:1] in 'aeiou' and kind else 'a'} {kind} decision"

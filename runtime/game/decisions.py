"""Asking a player: the agent answers a :class:`~cardscript.runtime.decision.Decision`,
the game checks the answer and logs it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn, cast

from cardscript.runtime.decision import Decision, a_kind
from cardscript.runtime.errors import InvalidDecision
from cardscript.runtime.game.state import GameState
from cardscript.runtime.observation import action_kinds, ask, note_decision

if TYPE_CHECKING:
    from cardscript.runtime.game import Game


class DecisionOps(GameState):
    """Decisions (part of :class:`~cardscript.runtime.game.Game`)."""

    def decide(self, decision: Decision) -> list[int]:
        """Ask the player's agent; validate and log the answer."""
        self.decisions += 1
        agent = self.agents[decision.player]
        n = len(decision.options)
        kind = decision.kind
        if getattr(agent, "blind", False):  # it answers from the decision's shape alone: no view
            answer: Any = agent.pick(n, decision.low, decision.high)
        elif kind != "player" and getattr(agent, "by_action" if kind == "action" else "by_values", False):
            # it answers from what its view would say of the options' actions or values alone
            if kind == "action":
                answer = [agent.pick_action(action_kinds(cast("Game", self), decision.options), decision.values)]
            else:
                answer = agent.pick_values(kind, decision.purpose, n, decision.low, decision.high, decision.values)
        else:
            # The agent sees its seat's view, never the game (issue 13; runtime/observation.py).
            answer = ask(cast("Game", self), agent, decision)  # DecisionOps is only ever part of a Game
        # a copy: the log and a recorded game's history keep it, whatever the agent does with its list
        picks = answer[:] if type(answer) is list else self._as_picks(decision, agent, answer)
        if len(picks) == 1:  # the usual answer: one pick, no duplicates to look for
            bad = type(picks[0]) is not int or not (decision.low <= 1 <= decision.high and 0 <= picks[0] < n)
        else:
            bad = any(type(i) is not int for i in picks) or _invalid(picks, decision.low, decision.high, n)
        if bad:  # maybe indices of another integer type (numpy's), else a wrong answer
            picks = self._as_picks(decision, agent, picks)
            if _invalid(picks, decision.low, decision.high, n):
                self.bad_answer(decision, agent, picks)
        if self.logging:
            note_decision(cast("Game", self), decision)  # a seat's log relabels it for its seat
            self.emit_log({"t": "decision", "player": decision.player, "kind": decision.kind,
                           "purpose": decision.purpose, "options": decision.labels, "chose": picks})
        return picks

    @classmethod
    def _as_picks(cls, decision: Decision, agent: Any, answer: Any) -> list[int]:
        """An agent's answer that is not a list, as one (a tuple, any iterable of indices), the
        indices as ints (a numpy integer is one; a bool, a float or a text is not).

        Raises:
            InvalidDecision: the answer is not a sequence of indices.
        """
        try:
            picks = list(answer)
        except TypeError:
            cls.bad_answer(decision, agent, answer)
        out: list[int] = []
        for i in picks:
            if isinstance(i, (bool, float, str)) or not hasattr(i, "__index__"):
                cls.bad_answer(decision, agent, picks)
            out.append(i.__index__())
        return out

    @staticmethod
    def bad_answer(decision: Decision, agent: Any, picks: list[int]) -> NoReturn:
        """Stop the game: ``agent`` answered ``decision`` with ``picks``, which it does not allow.

        Raises:
            InvalidDecision: always.
        """
        raise InvalidDecision(
            f"{agent.name} answered {picks} to {a_kind(decision.kind)} of P{decision.player + 1} "
            f"with {len(decision.options)} options, needing {decision.low}..{decision.high} picks: "
            f"{decision.labels}")

    def yes_no(self, player: int, prompt: str) -> bool:
        picks = self.decide(Decision(player, "yes/no", [False, True], ["no", "yes"], 1, 1, prompt))
        return picks[0] == 1


def _invalid(picks: list[int], low: int, high: int, n: int) -> bool:
    """Whether ``picks`` (ints) is no answer to a decision of ``n`` options needing ``low`` to
    ``high`` picks: too few or too many, one out of range, or one twice."""
    return not (low <= len(picks) <= high) or any(not 0 <= i < n for i in picks) or len(set(picks)) != len(picks)


def checked(g: Any, decision: Decision, agent: Any, answer: Any) -> list[int]:
    """``agent``'s ``answer`` to ``decision`` as a list of indices (:meth:`DecisionOps._as_picks`),
    when it was not a list of ints in range: for the answers the engine takes without
    :meth:`DecisionOps.decide` (a blind or ``by_action`` agent's, in an action window).

    Raises:
        InvalidDecision: it is no answer to the decision.
    """
    picks = g._as_picks(decision, agent, answer)
    if _invalid(picks, decision.low, decision.high, len(decision.options)):
        g.bad_answer(decision, agent, picks)
    return picks

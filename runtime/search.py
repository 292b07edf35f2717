"""The search bot (issue 13): determinized Monte Carlo over the seat's fair model.

At each decision that takes one answer — an action, a card or a target (or none, when none
may be chosen), yes or no; a decision of several picks, or of more than
:data:`~cardscript.runtime.agents.LOOKAHEAD_CAP` options, is the heuristic's:

1. **screen**: every answer gets a one-step lookahead (one deal, the rest of the turn played
   by :class:`~cardscript.runtime.agents.HeuristicAgent`: greedy's, for an action), which also
   tells the *holdings* it reaches (:meth:`~cardscript.runtime.forecast.Forecast.reach`: what
   each player owns and every counter). Answers of the same holdings (the same cards played
   in another order) are one candidate, its best answer by greedy's key. The *champion* is
   greedy's answer: the best screened action; at any other decision the heuristic's answer
   (greedy answers those as the heuristic does) unless another is more than
   :data:`TOLERANCE` ahead;
2. **candidates**: the champion and the candidates whose screening value is within
   :data:`MARGIN` of it, at most :data:`FINALISTS` in all. With only one, it is the answer: no rollout
   (most decisions: which card to play first changes nothing the turn ends with);
3. **rollouts**: each candidate is played ``rollouts // candidates`` times (at least once)
   on other deals of the hidden cards — the same deals for every candidate (common random
   numbers), so that they differ by the option only — to the horizon: :data:`HORIZON` more
   turns of the seat's own (every seat played by the heuristic), long enough for a card
   bought now to be drawn and show its worth; each rollout scored by the game's own
   evaluation (:func:`cardscript.runtime.forecast.evaluate`; a game ended on the way:
   its result); co-operative games score the team's outcome the same way (the shared score);
4. the champion (greedy's pick) stays the answer unless another candidate's mean
   gain over it, paired by deal, is at least :data:`CONFIDENCE` standard errors; of those
   that are, the largest gain wins (ties: the better screened).

Its effort is counted in rollouts, never in time: the same seed plays the same game on
any machine. ``--bots search`` plays up to :data:`DEFAULT_ROLLOUTS` per decision, ``search:N`` N.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardscript.runtime.agents import LOOKAHEAD_CAP, GreedyAgent, _capped
from cardscript.runtime.observation import DecisionView, Observation

if TYPE_CHECKING:
    from cardscript.runtime.forecast import Forecast

#: rollouts per searched decision of ``--bots search`` (its cost per decision: docs/bots.md)
DEFAULT_ROLLOUTS = 8
#: the most rollouts ``search:N`` may ask for: each is 3 turns of play, so 1000 already takes
#: seconds per decision, and a larger N only spends memory on its seeds
MAX_ROLLOUTS = 1000
#: the most candidates the rollouts compare
FINALISTS = 2
#: a candidate whose screening value is this far below the best gets no rollout (in points of
#: the game's score: an option that loses a point by the end of the turn is not searched)
MARGIN = 1.0
#: the seat's own turns a rollout plays after this one
HORIZON = 3
#: a candidate replaces the screening's best only when its mean gain over it, paired by deal,
#: is at least this many standard errors (rollouts played by the heuristic are noisy, and
#: the heuristic's play is not the seat's: an unproven gain is no reason to leave greedy's pick)
CONFIDENCE = 2.0
#: at a decision other than an action, the heuristic's answer (greedy's) stays the screening's
#: champion unless another answer is this far ahead by the end of the turn (in points: the
#: evaluation's tie-break terms alone, such as one card more in a deck, do not displace it)
TOLERANCE = 0.5


class SearchAgent(GreedyAgent):
    """Determinized Monte Carlo (see the module docstring).

    Args:
        rollouts: rollouts per searched decision (at least 1; default :data:`DEFAULT_ROLLOUTS`).

    Raises:
        ValueError: ``rollouts`` below 1.
    """

    name = "search"

    def __init__(self, rollouts: int | None = None):
        if rollouts is not None and rollouts < 1:
            raise ValueError(f"search needs at least 1 rollout per decision, not {rollouts}")
        self.rollouts = DEFAULT_ROLLOUTS if rollouts is None else rollouts
        if rollouts is not None:
            self.name = f"search:{rollouts}"  # as asked for, the default's count included

    def choose(self, view: Observation, d: DecisionView) -> list[int]:
        if d.kind in ("action", "trigger"):
            return super().choose(view, d)
        given = super().choose(view, d)  # the heuristic's answer: greedy's too
        answers = _answers(d)
        if answers is None or given not in answers:
            return given
        forecast = d.forecast
        seed = self.rng.getrandbits(32)
        best_of: dict[int, tuple[tuple[Any, ...], list[int]]] = {}
        for j, answer in enumerate(answers):
            value, held = forecast.reach_picks(answer, seed)
            key = (value, answer == given, -j)
            if held not in best_of or key > best_of[held][0]:
                best_of[held] = (key, answer)
        screened = sorted(best_of.values(), key=lambda ka: ka[0], reverse=True)
        mine = next((ka for ka in screened if ka[0][1]), None)
        if mine is not None and mine[0][0] >= screened[0][0][0] - TOLERANCE:
            screened.remove(mine)  # the heuristic's answer stays the champion unless clearly worse
            screened.insert(0, mine)
        return self._settle(view, forecast, [(k[0], a) for k, a in screened])

    def _action(self, view: Observation, d: DecisionView) -> int:
        n = d.size
        if n == 1:
            return 0
        forecast = d.forecast
        options, values = d.options, d.values
        seed = self.rng.getrandbits(32)
        best_of: dict[int, tuple[float, int, bool, int]] = {}
        for i in _capped(self, view, d):
            act = options[i]
            hint = values[i] if act is not None and act.hinted else 0
            value, held = forecast.reach(i, seed)
            key = (value, hint, act is not None, -i)
            if held not in best_of or key > best_of[held]:
                best_of[held] = key
        screened = sorted(best_of.values(), reverse=True)
        return self._settle(view, forecast, [(k[0], [-k[3]]) for k in screened])[0]

    def _settle(self, view: Observation, forecast: Forecast, screened: list[tuple[float, list[int]]]) -> list[int]:
        """Steps 2 to 4 of the module docstring over ``screened``: (screening value, answer)
        pairs, the champion first, then best first. Returns the answer."""
        champion_value, champion = screened[0]
        finalists = [a for v, a in screened[1:] if v >= champion_value - MARGIN][:FINALISTS - 1]
        if not finalists:
            return champion
        per = max(1, self.rollouts // (len(finalists) + 1))
        seeds = [self.rng.getrandbits(32) for _ in range(per)]
        horizon = view.players * HORIZON  # the foes' turns and the seat's own, HORIZON times
        base = [forecast.picks(champion, s, turns=horizon) for s in seeds]
        best, best_gain = champion, 0.0
        for answer in finalists:
            # paired by deal: each difference is this answer's gain over the champion's
            diffs = [forecast.picks(answer, s, turns=horizon) - b for s, b in zip(seeds, base, strict=True)]
            mean = sum(diffs) / per
            if mean <= 0 or mean < CONFIDENCE * _standard_error(diffs, mean):
                continue  # not shown better: the rollout policy's noise never overrides the screening
            if mean > best_gain:
                best, best_gain = answer, mean
        return best


def _answers(d: DecisionView) -> list[list[int]] | None:
    """The answers search compares for a decision other than an action: yes and no, or each
    single option (and none, when none may be chosen). None for a decision that takes
    several options, or offers more than :data:`LOOKAHEAD_CAP`: the heuristic answers it."""
    n = d.size
    if d.kind == "yes/no":
        return [[0], [1]] if n == 2 else None
    if d.high != 1 or n > LOOKAHEAD_CAP:
        return None
    answers = [[i] for i in range(n)]
    if d.low == 0:
        answers.append([])
    return answers if len(answers) >= 2 else None


def _standard_error(diffs: list[float], mean: float) -> float:
    """The standard error of ``mean`` (the mean of ``diffs``); 0 for a single rollout."""
    k = len(diffs)
    if k < 2:
        return 0.0
    return (sum((x - mean) ** 2 for x in diffs) / (k - 1) / k) ** 0.5

"""The search bot (issue 13): determinized Monte Carlo over the seat's fair model.

At each action decision (every other decision is the heuristic's, as for greedy):

1. **screen**: every option gets greedy's one-step lookahead (one deal, the rest of the
   turn played by :class:`~cardscript.runtime.agents.HeuristicAgent`), which also tells
   the *holdings* it reaches (:meth:`~cardscript.runtime.forecast.Forecast.reach`: what
   each player owns and every counter). Options of the same holdings (the same cards played
   in another order) are one candidate, its best option by greedy's key;
2. **candidates**: the candidates whose screening value is within :data:`MARGIN` of the
   best, at most :data:`FINALISTS` of them. With only one, it is the answer: no rollout
   (most decisions: which card to play first changes nothing the turn ends with);
3. **rollouts**: each candidate is played ``rollouts // candidates`` times (at least once)
   on other deals of the hidden cards — the same deals for every candidate (common random
   numbers), so that they differ by the option only — to the horizon: :data:`HORIZON` more
   turns of the seat's own (every seat played by the heuristic), long enough for a card
   bought now to be drawn and show its worth; each rollout scored by the game's own
   evaluation (:func:`cardscript.runtime.forecast.evaluate`; a game ended on the way:
   its result); co-operative games score the team's outcome the same way (the shared score);
4. the screening's best (greedy's pick) stays the answer unless another candidate's mean
   gain over it, paired by deal, is at least :data:`CONFIDENCE` standard errors; of those
   that are, the largest gain wins (ties by the screening key).

Its effort is counted in rollouts, never in time: the same seed plays the same game on
any machine. ``--bots search`` plays up to :data:`DEFAULT_ROLLOUTS` per decision, ``search:N`` N.
"""

from __future__ import annotations

from cardscript.runtime.agents import GreedyAgent, _capped
from cardscript.runtime.observation import DecisionView, Observation

#: rollouts per action decision of ``--bots search`` (its cost per decision: docs/bots.md)
DEFAULT_ROLLOUTS = 8
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


class SearchAgent(GreedyAgent):
    """Determinized Monte Carlo (see the module docstring).

    Args:
        rollouts: rollouts per action decision (at least 1; default :data:`DEFAULT_ROLLOUTS`).

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
        top = screened[0][0]
        finalists = [k for k in screened if k[0] >= top - MARGIN][:FINALISTS]
        if len(finalists) == 1:
            return -finalists[0][3]
        per = max(1, self.rollouts // len(finalists))
        seeds = [self.rng.getrandbits(32) for _ in range(per)]
        horizon = view.players * HORIZON  # the foes' turns and the seat's own, HORIZON times
        champion = finalists[0]  # the screening's best: what greedy would take
        base = [forecast.after(-champion[3], s, turns=horizon) for s in seeds]
        best, best_key = -champion[3], None
        for screen in finalists[1:]:
            # paired by deal: each difference is this option's gain over the champion's
            diffs = [forecast.after(-screen[3], s, turns=horizon) - b for s, b in zip(seeds, base, strict=True)]
            mean = sum(diffs) / per
            if mean <= 0 or mean < CONFIDENCE * _standard_error(diffs, mean):
                continue  # not shown better: the rollout policy's noise never overrides the screening
            ranked = (mean, *screen)
            if best_key is None or ranked > best_key:
                best, best_key = -screen[3], ranked
        return best


def _standard_error(diffs: list[float], mean: float) -> float:
    """The standard error of ``mean`` (the mean of ``diffs``); 0 for a single rollout."""
    k = len(diffs)
    if k < 2:
        return 0.0
    return (sum((x - mean) ** 2 for x in diffs) / (k - 1) / k) ** 0.5

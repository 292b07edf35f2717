"""The search bot (issue 13): determinized Monte Carlo over the seat's fair model.

At each action decision (every other decision is the heuristic's, as for greedy):

1. **screen**: every option gets greedy's one-step lookahead (one deal, the rest of the
   turn played by :class:`~cardscript.runtime.agents.HeuristicAgent`);
2. **search**: the :data:`FINALISTS` best are each played ``rollouts // FINALISTS`` times
   (at least once) on other deals of the hidden cards — the same deals for every finalist,
   so that they differ by the option only — to the horizon: the end of the seat's next turn
   (every seat played by the heuristic), each rollout scored by the game's own evaluation
   (:func:`cardscript.runtime.forecast.evaluate`); co-operative games score the team's
   outcome the same way (the shared score);
3. the best mean wins; ties as greedy's (the ``prefer`` hint, acting over ending the turn,
   the option offered first).

Its effort is counted in rollouts, never in time: the same seed plays the same game on
any machine. ``--bots search`` plays :data:`DEFAULT_ROLLOUTS` per decision, ``search:N`` N.
"""

from __future__ import annotations

from cardscript.runtime.agents import GreedyAgent, _capped
from cardscript.runtime.observation import DecisionView, Observation

#: rollouts per action decision of ``--bots search`` (its cost per decision: docs/bots.md)
DEFAULT_ROLLOUTS = 4
#: the options the screening keeps for the rollouts
FINALISTS = 2


class SearchAgent(GreedyAgent):
    """Determinized Monte Carlo (see the module docstring).

    Args:
        rollouts: rollouts per action decision (at least 1).

    Raises:
        ValueError: ``rollouts`` below 1.
    """

    name = "search"

    def __init__(self, rollouts: int = DEFAULT_ROLLOUTS):
        if rollouts < 1:
            raise ValueError(f"search needs at least 1 rollout per decision, not {rollouts}")
        self.rollouts = rollouts
        if rollouts != DEFAULT_ROLLOUTS:
            self.name = f"search:{rollouts}"

    def _action(self, view: Observation, d: DecisionView) -> int:
        n = d.size
        if n == 1:
            return 0
        forecast = d.forecast
        options, values = d.options, d.values
        seed = self.rng.getrandbits(32)
        screened = []
        for i in _capped(self, view, d):
            act = options[i]
            hint = values[i] if act is not None and act.hinted else 0
            screened.append((forecast.after(i, seed), hint, act is not None, -i))
        screened.sort(reverse=True)
        finalists = screened[:FINALISTS]
        if len(finalists) == 1:
            return -finalists[0][3]
        per = max(1, self.rollouts // len(finalists))
        seeds = [self.rng.getrandbits(32) for _ in range(per)]
        horizon = view.players  # the turns of every foe, then the seat's next turn
        best, best_key = -finalists[0][3], None
        for _, hint, acts, neg in finalists:
            mean = sum(forecast.after(-neg, s, turns=horizon) for s in seeds) / per
            key = (mean, hint, acts, neg)
            if best_key is None or key > best_key:
                best, best_key = -neg, key
        return best

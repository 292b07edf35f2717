"""Agents answer :class:`~cardscript.runtime.decision.Decision` objects.

* :class:`RandomAgent` — uniform over legal answers, from its own seeded stream.
* :class:`GreedyAgent` — values every legal action by a one-step lookahead on the seat's
  fair model of the game (issue 13; :mod:`cardscript.runtime.forecast`), the rest of the
  turn played by the heuristic below; :class:`~cardscript.runtime.search.SearchAgent`
  searches deeper (``--bots search``).
* :class:`HeuristicAgent` — a cheap sensible player for any game: takes actions in the order
  the rules declare them (so it plays its hand before buying), buys the most valuable
  card it can, always says yes to "may", defends when it can, and picks its most
  valuable cards for good things and its least valuable for bad ones. Scripts guide it
  with ``prefer`` hints (a negative value: not worth taking; on an action granted for the
  turn, a value above 0: take it before the game's own actions).
* :class:`ScriptedAgent` — answers from a list (scenarios and replays).

The bots play fair: like every agent they see only their seat's
:class:`~cardscript.runtime.observation.Observation` and
:class:`~cardscript.runtime.observation.DecisionView`, never the game (issue 13).
The scripted agent is engine side (it replays answers with the game in hand).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from cardscript.runtime.decision import Agent, Decision, EngineAgent, a_kind
from cardscript.runtime.game import Game
from cardscript.runtime.observation import DecisionView, Observation, ask, bind

#: Decision purposes where a player gives up cards: the least valuable goes first.
NEGATIVE = frozenset({"discard", "destroy", "lose", "return", "defense", "put back"})


class RandomAgent(Agent):
    """Uniform random answers; its stream is seeded from the game seed and the seat."""

    name = "random"
    blind = True  # the engine asks pick(): no view is built for it

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # a subclass that answers in choose() its own way is asked through it, unless it says
        if "choose" in cls.__dict__ and "blind" not in cls.__dict__:
            cls.blind = False

    def bind(self, seat: int, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Observation, d: DecisionView) -> list[int]:
        return self.pick(d.size, d.low, d.high)

    def pick(self, size: int, low: int, high: int) -> list[int]:
        # The same draws as ``k = rng.randint(low, high); sorted(rng.sample(range(n), k))``
        # (randint(a, b) is a + _randbelow(b - a + 1); a sample of one is [_randbelow(n)]),
        # without their argument checks and lists: the answer of every decision. CPython's
        # _randbelow (random.Random._randbelow_with_getrandbits) is written out below, two
        # Python calls less per decision: draw bit_length(m) bits until they are below m.
        # tests/test_agents.py checks the draws against randint and sample.
        n = size
        high = min(high, n)
        if low > high:
            return self.rng.sample(range(n), self.rng.randint(low, high))  # raises, as it always did
        # looked up per decision, never kept: a deep copy of the bot (a fork's) copies its
        # stream, but would keep a bound builtin method pointing at the original one
        bits = self.rng.getrandbits
        if low == high == 1:  # one pick (an action window): randint(1, 1) draws 1 bit until it is 0
            while bits(1):
                pass
            width = n.bit_length()
            r = bits(width)
            while r >= n:
                r = bits(width)
            return [r]
        m = high - low + 1
        width = m.bit_length()
        r = bits(width)
        while r >= m:
            r = bits(width)
        k = low + r
        if k == 1:
            width = n.bit_length()
            r = bits(width)
            while r >= n:
                r = bits(width)
            return [r]
        return sorted(self.rng.sample(range(n), k)) if k else []


class HeuristicAgent(Agent):
    """The cheap sensible player of the module docstring: actions in declaration order,
    ``prefer`` hints, the most valuable card for good things. The policy a forecast plays
    every seat with (:mod:`cardscript.runtime.forecast`); ``--bots heuristic``."""

    name = "heuristic"
    by_action = True  # its action decisions read only the options' ActionKinds and values
    by_values = True  # and the others, but a choice of player, the decision's shape and values

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A subclass that answers in choose() or _action() its own way is asked through them,
        # unless it says otherwise; one that overrides pick_action or pick_values is asked them
        # (choose() calls them too).
        if ("_action" in cls.__dict__ or "choose" in cls.__dict__) and "by_action" not in cls.__dict__:
            cls.by_action = False
        if "choose" in cls.__dict__ and "by_values" not in cls.__dict__:
            cls.by_values = False

    def bind(self, seat: int, seed: int) -> None:
        self.seat = seat

    def choose(self, view: Observation, d: DecisionView) -> list[int]:
        if d.kind == "yes/no":
            return [1]
        if d.kind == "action":
            return [self._action(view, d)]
        if d.kind == "player":
            return [self._target(view, d)]
        return self.pick_values(d.kind, d.purpose, d.size, d.low, d.high, d.values)

    def pick_values(self, kind: str, purpose: str, size: int, low: int, high: int,
                    values: Sequence[int]) -> list[int]:
        if kind == "yes/no":
            return [1]
        order = sorted(range(size), key=lambda i: (values[i] if values else 0, -i))
        # the purpose is a verb, or the effect a choice serves ("discard a card"): its first word
        verb = purpose.split(" ", 1)[0]
        if purpose not in NEGATIVE and verb not in NEGATIVE:
            order.reverse()
        k = high if verb != "discard" or low else max(low, 1 if high else 0)
        return sorted(order[:max(low, min(k, high))])

    def _action(self, view: Observation, d: DecisionView) -> int:
        return self.pick_action(d.actions, d.values)

    def pick_action(self, actions: Sequence[Any], values: Sequence[int]) -> int:
        # Actions arrive grouped in declaration order; take the first group that offers
        # anything, and within it the most valuable option.
        best, seen = len(actions) - 1, False
        top = value = 0  # the best key so far: (top, value), compared as a pair
        for i, act in enumerate(actions):  # its action's order and hint: no card to read
            if act is None:
                continue
            order, hinted, granted = act
            v = values[i]
            if hinted and v < 0:
                continue  # the script says this option is not worth taking now
            # actions granted this turn come after the game's, unless their `prefer` says they
            # are worth taking (a value above 0): then before them, the most valuable first
            k = 1 if granted and hinted and v > 0 else -order
            if not seen or k > top or (k == top and v > value):
                best, top, value, seen = i, k, v, True
        return best

    def _target(self, view: Observation, d: DecisionView) -> int:
        # Target the foe who is ahead on the score counter, if the game has one.
        score = view.score
        if score is None:
            return 0
        options = d.options
        return max(range(d.size), key=lambda i: (score[options[i]], -i))


class GreedyAgent(HeuristicAgent):
    """Values every legal action by a one-step lookahead (issue 13): each option is taken on
    the seat's fair model of the game (:class:`~cardscript.runtime.forecast.Forecast`: a
    copy whose hidden cards are dealt again), the rest of the turn is played by
    :class:`HeuristicAgent` for every seat, and the position at the end of the turn is valued
    from the game's own score. The best value wins; declaration order plays no part, so an
    action an expansion or a variant adds is taken when it pays. Ties go to the ``prefer``
    hint, then to acting over ending the turn, then to the option offered first. Every other
    decision (a card to discard, a target, yes/no) is the heuristic's. At most
    :data:`LOOKAHEAD_CAP` options are looked ahead: past it, the heuristic's best ones."""

    name = "greedy"
    forecasts = True

    def bind(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)  # the seeds of its forecasts' deals: its own stream

    def _action(self, view: Observation, d: DecisionView) -> int:
        n = d.size
        if n == 1:
            return 0
        seed = self.rng.getrandbits(32)  # one deal for every option: they differ by the option only
        forecast = d.forecast
        options, values = d.options, d.values
        best, best_key = n - 1, None
        for i in _capped(self, view, d):
            act = options[i]
            hint = values[i] if act is not None and act.hinted else 0
            key = (forecast.after(i, seed), hint, act is not None, -i)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best


#: the most options of one decision that greedy looks ahead
LOOKAHEAD_CAP = 16


def _capped(bot: HeuristicAgent, view: Observation, d: DecisionView) -> list[int]:
    """The options worth a lookahead: all of them, or past :data:`LOOKAHEAD_CAP` the
    heuristic's pick, ending the turn, and the most valuable others."""
    n = d.size
    if n <= LOOKAHEAD_CAP:
        return list(range(n))
    values = d.values
    keep = {HeuristicAgent._action(bot, view, d)} | {i for i, o in enumerate(d.options) if o is None}
    for i in sorted(range(n), key=lambda i: (-(values[i] if values else 0), i)):
        if len(keep) >= LOOKAHEAD_CAP:
            break
        keep.add(i)
    return sorted(keep)


class ScriptedAgent(EngineAgent):
    """Answers from a queue shared by all seats (a scenario or a replayed log).

    Each answer is a list of option indices, an option label (str), a bool for yes/no,
    or an int index. When the queue is empty it falls back to ``fallback``.
    """

    name = "scripted"

    def __init__(self, queue: list[Any], fallback: Agent | None = None, strict: bool = False):
        self.queue = queue
        self.fallback = fallback
        self.strict = strict
        self.used = 0

    def attach(self, game: Game, seat: int) -> None:
        if self.fallback is not None:
            bind(game, seat, self.fallback)

    def answer(self, game: Game, d: Decision) -> list[int]:
        if not self.queue:
            if self.fallback is None or self.strict:
                raise NeedAnswer(d)
            return ask(game, self.fallback, d)
        ans = self.queue.pop(0)
        self.used += 1
        return _interpret(ans, d)


class NeedAnswer(Exception):
    """A scripted agent ran out of answers."""

    def __init__(self, decision: Decision):
        super().__init__(f"P{decision.player + 1} must answer {a_kind(decision.kind)} "
                         f"({decision.purpose}): {decision.labels}")
        self.decision = decision


class BadAnswer(Exception):
    """A scripted answer does not fit the decision it was given to."""


def _interpret(ans: Any, d: Decision) -> list[int]:
    if isinstance(ans, list):
        return ans
    if isinstance(ans, bool):
        if d.kind != "yes/no":
            raise BadAnswer(f"answer {'yes' if ans else 'no'} given to {a_kind(d.kind)}: {d.labels}")
        return [1 if ans else 0]
    if isinstance(ans, int):
        return [ans]
    if isinstance(ans, tuple):  # several picks for one decision: ["A", "B"]
        picks: list[int] = []
        for a in ans:
            i = _one(a, d, taken=picks)
            picks.append(i)
        return sorted(picks)
    want = str(ans).lower()
    if want in ("none", "nothing") and d.low == 0:
        return []
    return [_one(ans, d)]


def _one(ans: Any, d: Decision, taken: list[int] | None = None) -> int:
    """One option by exact label ("buy Cyborg (Earth-1)"), or for an action by the label
    without its action word ("Cyborg (Earth-1)") when that is unambiguous."""
    if isinstance(ans, int) and not isinstance(ans, bool):
        return ans
    taken = taken or []
    want = str(ans).lower()
    labels = [label.lower() for label in d.labels]
    exact = [i for i, label in enumerate(labels) if label == want and i not in taken]
    if exact:
        return exact[0]
    if d.kind == "action":
        tail = [i for i, label in enumerate(labels) if label.split(" ", 1)[-1] == want and i not in taken]
        if len({labels[i] for i in tail}) == 1:
            return tail[0]
    raise BadAnswer(f"answer {ans!r} is not one of the options {d.labels}")


def make_agents(spec: Iterable[str], seats: int) -> list[Agent]:
    """Agents from names ('random', 'heuristic', 'greedy', 'search', 'search:N' for N
    rollouts per decision), cycled to fill ``seats``.

    Raises:
        ValueError: for an unknown bot name or a bad rollout count.
    """
    from cardscript.runtime.search import MAX_ROLLOUTS, SearchAgent  # it builds on this module's bots

    names = [s.strip() for s in spec if s.strip()] or ["heuristic"]
    kinds: dict[str, Any] = {"random": RandomAgent, "greedy": GreedyAgent, "heuristic": HeuristicAgent,
                             "search": SearchAgent}
    for n in names:
        base, _, count = n.partition(":")
        if base not in kinds or (count and base != "search"):
            raise ValueError(f"unknown bot {n!r}: choose from {', '.join(sorted(kinds))} (or search:N)")
        if count and (not count.isdigit() or not 1 <= int(count) <= MAX_ROLLOUTS):
            raise ValueError(f"bot {n!r}: N in search:N is a number of rollouts, 1 to {MAX_ROLLOUTS}")

    def make(n: str) -> Agent:
        base, _, count = n.partition(":")
        return SearchAgent(int(count)) if count else kinds[base]()

    return [make(names[i % len(names)]) for i in range(seats)]

"""A fair model of the game for bots that look ahead (issue 13, greedy and search).

A bot may ask "what if I took option k?" without ever holding the game: its
:class:`~cardscript.runtime.observation.DecisionView` offers a :class:`Forecast`, whose
methods take an option's index, a seed and a budget, and return only numbers (the
evaluation of the position reached, from the asking seat's point of view).

How a forecast plays (engine side, :func:`_play`):

1. it forks the game (:func:`~cardscript.runtime.game.forks.fork`: the last checkpoint,
   then the turn's recorded answers replayed) up to the decision being asked;
2. there it *determinizes* the fork: every card the seat may not see (a deck's order, a
   foe's hand, a face-down card) is dealt again, uniformly, among the places of the cards
   the seat may not see *of the same owner* — the seat knows what each player owns (every
   gain is public) but not where an unseen card of theirs lies; the sizes of all zones stay,
   and every card the seat sees (a revealed one included) stays put. The fork's RNG is
   reseeded from the seed the bot passes (its own stream), so a forecast never shows the
   real game's coming shuffles or rolls;
3. it answers the decision with option k and plays on with a cheap policy for every seat
   (:class:`~cardscript.runtime.agents.HeuristicAgent` or
   :class:`~cardscript.runtime.agents.RandomAgent`) to the horizon: the end of the turn the
   decision is in, plus ``turns`` more turns (or the end of the game);
4. it evaluates the position there (:func:`evaluate`) and returns the number.

**The evaluation** comes from the game's own scripts, nothing game-specific in Python:
each seat's score as the game's ``score:`` block would compute it now (the block is run on
the fork, which is thrown away), plus its ``tie break:`` values as small terms (a tie break
names what the game counts as better). In a competitive game the value is the seat's score
minus the best foe's; in a co-operative game (one that declares ``outcome`` tiers: the team
shares one outcome) it is the seat's score, the team's. A game that ended on the way is
valued by its final scores, a win adding :data:`WIN`. Counters are left out: the language
does not say whether more of a counter is better.

**The trust boundary.** A :class:`Forecast` holds two numbers (its seat's key and the
decision's serial); its methods are plain functions of this module that look the game up
in :mod:`cardscript.runtime.observation`'s engine-side registry. Nothing reachable from it
by attributes, closures or containers leads to the game (``tests/test_bots_issue13.py``
walks it). This isolation is in-process: it keeps an honest bot from peeking by accident.
A malicious agent can always reach the interpreter (``sys.modules``, ``gc``); only a
process boundary would stop that.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardscript.runtime.context import Ctx
from cardscript.runtime.errors import GameOver, RunawayError

if TYPE_CHECKING:
    from cardscript.runtime.decision import Agent, Decision
    from cardscript.runtime.game import Game

#: what winning the game outright adds to a value (a loss takes it away)
WIN = 1000.0
#: the weight of the first tie break's difference, the next one's is this squared, ...
TIE_WEIGHT = 0.01


class Forecast:
    """A seat's model of the game at one decision (see the module docstring). Get one from
    ``decision.forecast`` (an action, card, player or yes/no decision of a recorded game;
    the engine records every game one of whose agents says ``forecasts = True``).

    Raises (every method):
        RuntimeError: the decision has been answered, or the game is not recorded.
        IndexError: ``option`` is not one of the decision's options.
    """

    __slots__ = ("_key", "_serial")

    def __init__(self, key: int, serial: int):
        self._key, self._serial = key, serial

    def value(self) -> float:
        """The evaluation of the position now, from this seat's point of view."""
        g, seat, _ = _decision(self._key, self._serial)
        return evaluate(g.copy(), seat)

    def after(self, option: int, seed: int, turns: int = 0, policy: str = "heuristic") -> float:
        """Take ``option`` on a determinized copy (dealt from ``seed``), play on with
        ``policy`` ("heuristic" or "random") for every seat to the end of this turn plus
        ``turns`` turns, and return the evaluation of the position there."""
        return _play(self._key, self._serial, [option], seed, turns, policy)

    def picks(self, picks: list[int], seed: int, turns: int = 0, policy: str = "heuristic") -> float:
        """As :meth:`after`, answering the decision with several ``picks`` (a decision that
        takes more than one option)."""
        return _play(self._key, self._serial, list(picks), seed, turns, policy)

    def reach(self, option: int, seed: int, turns: int = 0, policy: str = "heuristic") -> tuple[float, int]:
        """As :meth:`after`, and also the *holdings* reached: a number equal for two
        positions in which each player owns the same cards (by kind, wherever they lie) and
        every counter has the same value. Two options that only play the same cards in
        another order reach the same holdings; buying one card or another does not
        (the search bot compares only options of different holdings). What a player owns
        is public (every gain is), and the fork's hidden cards are the seat's own deal."""
        return self.reach_picks([option], seed, turns, policy)

    def reach_picks(self, picks: list[int], seed: int, turns: int = 0,
                    policy: str = "heuristic") -> tuple[float, int]:
        """As :meth:`reach`, answering the decision with ``picks`` (none, one or several)."""
        out: list[int] = []
        value = _play(self._key, self._serial, list(picks), seed, turns, policy, out)
        return value, out[0]


def _decision(key: int, serial: int) -> tuple[Game, int, Decision]:
    from cardscript.runtime.observation import _seat

    s = _seat(key)
    if s.serial != serial or s.decision is None:
        raise RuntimeError("this decision has been answered: it can no longer be forecast")
    g = s.live()
    if g.history is None:
        raise RuntimeError("this game is not recorded, so it cannot be forecast: give the agent "
                           "'forecasts = True' (the engine then records the game)")
    return g, s.seat, s.decision


#: the steps one option's lookahead may take past its decision (a runaway past it: the option
#: is never worth taking)
LOOKAHEAD_STEPS = 20_000

#: the hidden places of the decision forecast last (every option of a decision has the same)
_last: tuple[tuple[int, int], list[list[tuple[int, int]]]] = ((0, 0), [])


def _policy(name: str, seat: int, seed: int) -> Agent:
    from cardscript.runtime.agents import HeuristicAgent, RandomAgent

    agent: Agent = RandomAgent() if name == "random" else HeuristicAgent()
    agent.bind(seat, seed * 31 + seat)
    return agent


def _play(key: int, serial: int, picks: list[int], seed: int, turns: int, policy: str,
          holdings: list[int] | None = None) -> float:
    from cardscript.runtime.game.forks import fork

    g, seat, d = _decision(key, serial)
    n = len(d.options)
    if not (d.low <= len(picks) <= d.high) or any(not 0 <= i < n for i in picks) or len(set(picks)) != len(picks):
        raise IndexError(f"picks {picks} do not answer a decision of {n} options taking {d.low}..{d.high}")
    if policy not in ("heuristic", "random"):
        raise ValueError(f"unknown policy {policy!r}: heuristic or random")
    global _last
    if _last[0] != (key, serial):
        _last = ((key, serial), hidden_groups(g, seat, d))
    groups = _last[1]
    rng = random.Random(seed)
    last = g.turn + turns

    def arrive(fg: Game, fd: Decision) -> None:
        deal(fg, groups, rng)
        fg.rng.seed(rng.getrandbits(64))

    def until(fg: Game, fd: Decision) -> bool:
        return fg.turn > last

    agents = [_policy(policy, p, seed) for p in range(g.n)]
    try:
        # one option's lookahead may spend LOOKAHEAD_STEPS past the decision, not what is left
        # of the game's budget: a script whose action costs a million steps is not played out
        # sixteen times a decision (a whole game of the built-in games takes under 100,000)
        f = fork(g, then=[picks], agents=agents, until=until, arrive=arrive,
                 step_limit=min(g.step_limit, g.steps + LOOKAHEAD_STEPS))
    except RunawayError:
        if holdings is not None:
            holdings.append(-1)
        return -WIN  # the option runs a script past its bounds: never worth taking
    if holdings is not None:
        holdings.append(_holdings(f.game))
    if f.result is not None:
        return _final(f.result.scores, f.result.winners, seat, bool(g.d.outcomes))
    f.game.agents = agents
    return evaluate(f.game, seat)


def _holdings(g: Game) -> int:
    # ints hash the same in every process (PYTHONHASHSEED randomizes str and bytes only)
    return hash((tuple(sorted(zip(g.owner, g.card_type, strict=True))), tuple(g.values)))


def hidden_groups(g: Game, seat: int, d: Decision | None = None) -> list[list[tuple[int, int]]]:
    """The places (slot, index) of the cards ``seat`` may not see, grouped by the cards'
    owner (see the module docstring), in a fixed order. The cards of ``d``'s options stay put.
    Engine side: read on the real game, where the cards revealed this turn are known."""
    from cardscript.runtime.observation import card_seen

    keep = set()
    if d is not None:
        for o in d.options:
            c = o if d.kind == "card" else o[1] if d.kind == "action" and isinstance(o, tuple) else None
            if isinstance(c, int) and not isinstance(c, bool):
                keep.add(c)
    box = g.zone_base[g.d.box_zone]
    groups: dict[int, list[tuple[int, int]]] = {}
    for slot, cards in enumerate(g.slots):
        if slot == box:
            continue
        for i, c in enumerate(cards):
            if c not in keep and not card_seen(g, c, seat):
                groups.setdefault(g.owner[c], []).append((slot, i))
    return [groups[k] for k in sorted(groups)]


def deal(g: Game, groups: list[list[tuple[int, int]]], rng: random.Random) -> None:
    """Deal the cards at each group's places again among them, uniformly (in place: the
    effects running keep the lists they hold). A card's face follows its place."""
    for places in groups:
        if len(places) < 2:
            continue
        cards = [g.slots[s][i] for s, i in places]
        faces = [g.face_up[c] for c in cards]
        rng.shuffle(cards)
        for (s, i), c, up in zip(places, cards, faces, strict=True):
            g.slots[s][i] = c
            g.loc[c] = s
            g.face_up[c] = up


def evaluate(g: Game, seat: int) -> float:
    """The value of ``g``'s position for ``seat`` (see the module docstring). Runs the game's
    ``score:`` block on ``g``, which it changes: call it on a copy or a fork."""
    scores: list[float] = []
    ties: list[list[int]] = []
    sc = g.d.score_counter
    for p in range(g.n):
        ctx = Ctx(p)
        try:
            if g.d.score is not None:
                g.d.score.run(g, ctx)
            ties.append([tb.evaluate(g, ctx) for tb in g.d.tie_breaks])
        except (GameOver, RunawayError):
            ties.append([0] * len(g.d.tie_breaks))
        scores.append(g.get(sc, p) if sc >= 0 else 0)
    coop = bool(g.d.outcomes)
    value = float(scores[seat])
    weight = TIE_WEIGHT
    for i in range(len(g.d.tie_breaks)):
        if coop or g.n == 1:
            value += weight * ties[seat][i]
        else:
            value += weight * (ties[seat][i] - max(ties[p][i] for p in range(g.n) if p != seat))
        weight *= TIE_WEIGHT
    if not coop and g.n > 1:
        value -= max(scores[p] for p in range(g.n) if p != seat)
    return value


def _final(scores: list[int], winners: list[int], seat: int, coop: bool) -> float:
    if coop or len(scores) == 1:
        return float(scores[seat])
    value = float(scores[seat] - max(s for p, s in enumerate(scores) if p != seat))
    if winners == [seat]:
        value += WIN
    elif seat not in winners:
        value -= WIN
    return value

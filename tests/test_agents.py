"""Bots: the greedy agent follows a script's 'prefer' hint; the random agent is seeded."""

from __future__ import annotations

from pathlib import Path

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import GreedyAgent, HeuristicAgent, RandomAgent
from cardscript.runtime.engine import Engine

GAME = '''game "Pick"
players 1 to 2
types thing
attribute cost = 0
zone hand: per player, public
zone discard: per player, public
counter score: per player, 0
card "Cheap": thing, cost 1
card "Dear": thing, cost 9
card "Middling": thing, cost 5
setup:
  move all cards from the box to your hand
turn:
  choose a card from your hand{PREFER}: move it to your discard
  end game "picked"
score:
  +(sum of cost of all cards in your discard) score
'''


def _score(tmp_path: Path, prefer: str, agent) -> int:
    (tmp_path / "game.rules").write_text(GAME.replace("{PREFER}", prefer))
    d, _, _ = compile_game(str(tmp_path))
    return Engine(d, 1, [agent], 3).run().scores[0]


def test_greedy_takes_the_most_valuable_by_default(tmp_path):
    assert _score(tmp_path, "", GreedyAgent()) == 9


def test_greedy_follows_prefer_lowest(tmp_path):
    assert _score(tmp_path, " prefer lowest (cost of it)", GreedyAgent()) == 1


def test_greedy_follows_prefer_highest_expression(tmp_path):
    # prefer the card whose cost is closest to 5
    assert _score(tmp_path, " prefer highest (0 - max(cost of it - 5, 5 - cost of it))", GreedyAgent()) == 5


def test_random_agent_is_reproducible(tmp_path):
    a = _score(tmp_path, "", RandomAgent())
    b = _score(tmp_path, "", RandomAgent())
    assert a == b and a in (1, 5, 9)


ACT = '''game "Act"
players 1 to 1
types thing
attribute cost = 0
zone hand: per player, public
zone discard: per player, public
counter score: per player, 0
counter power: per player, 0
card "Cheap": thing, cost 1
card "Dear": thing, cost 9
setup:
  move all cards from the box to your hand
turn:
  take actions
  end game "done"
action "toss": choose a card from your hand prefer highest (5 - cost of it):
  move it to your discard
action "charge" prefer {CHARGE}:
  +1 power
score:
  +(sum of cost of all cards in your discard) score
'''


def test_greedy_skips_actions_the_script_values_below_zero(tmp_path):
    # 'toss' is worth 5-1=4 for Cheap and 5-9=-4 for Dear: greedy tosses Cheap only,
    # and 'charge' at -1 is never taken: the turn ends with 1 point in the discard.
    (tmp_path / "game.rules").write_text(ACT.replace("{CHARGE}", "(0 - 1)"))
    d, _, _ = compile_game(str(tmp_path))
    # the hints are the heuristic policy's (issue 13: greedy looks ahead; hints break its ties)
    result = Engine(d, 1, [HeuristicAgent()], 1).run()
    assert result.scores[0] == 1
    assert sum(e["kind"] == "action" for e in result.log if e["t"] == "decision") == 2


def test_random_agent_draws_as_randint_and_sample():
    """RandomAgent.choose writes out CPython's _randbelow: its answers and the state of its
    stream afterwards must stay those of ``randint(low, high)`` then ``sorted(sample(range(n), k))``."""
    import random
    from types import SimpleNamespace

    agent = RandomAgent()
    agent.bind(0, 12345)
    ref = random.Random(12345)
    cases = [(1, 1, n) for n in range(1, 40)] + [(0, 1, n) for n in range(0, 12)] + \
        [(low, high, n) for n in range(0, 9) for low in range(0, 4) for high in range(low, 6) if low <= min(high, n)]
    for _ in range(30):
        for low, high, n in cases:
            d = SimpleNamespace(size=n, low=low, high=high)
            got = agent.choose(None, d)
            k = ref.randint(low, min(high, n))
            assert got == sorted(ref.sample(range(n), k)), (low, high, n)
            assert agent.rng.getstate() == ref.getstate()

"""The greedy bot and the issue-12 primitives (review C1): an action granted for the turn
with a ``prefer`` value above 0 is taken before the game's own actions; without one, or
with a value of 0 or less, after them (docs/language.md, "abilities for the rest of the
turn")."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import HeuristicAgent
from cardscript.runtime.engine import Engine

GAME = '''game "Grant"
players 1 to 1
types thing
zone hand: per player, public
zone discard: per player, public
counter score: per player, 0
counter power: per player, 0
card "Token": thing
setup:
  move all cards from the box to your hand
turn:
  once this turn, you may "boost"{PREFER}: +10 power
  take actions
  end game "done"
action "charge" where your power < 1:
  +1 power
score:
  +(your power) score
'''


def _taken(tmp_path: Path, prefer: str) -> list[str]:
    (tmp_path / "game.rules").write_text(GAME.replace("{PREFER}", prefer))
    d, _, _ = compile_game(str(tmp_path))
    # the hints are the heuristic policy's (issue 13: greedy looks ahead; these hints break its ties)
    result = Engine(d, 1, [HeuristicAgent()], 1).run()
    return [e["options"][e["chose"][0]] for e in result.log if e["t"] == "decision" and e["kind"] == "action"]


@pytest.mark.parametrize("prefer", [" prefer 10", " prefer (2 + 3)"])
def test_a_preferred_grant_goes_before_the_game_actions(tmp_path: Path, prefer: str) -> None:
    # before the fix the key (-rank, value) put 'boost' after 'charge' whatever its value
    assert _taken(tmp_path, prefer)[0] == "boost"


@pytest.mark.parametrize("prefer", ["", " prefer 0"])
def test_an_unvalued_grant_waits_for_the_game_actions(tmp_path: Path, prefer: str) -> None:
    taken = _taken(tmp_path, prefer)
    assert taken[0] == "charge" and "boost" in taken


def test_a_grant_valued_below_zero_is_never_taken(tmp_path: Path) -> None:
    assert "boost" not in _taken(tmp_path, " prefer (0 - 1)")

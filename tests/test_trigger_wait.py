"""``your triggers wait until the card you are playing resolves`` (DC rulebooks,
"Resolving Card Abilities": "fully resolve the card you are playing before resolving any
secondary abilities triggered by your card play"): the card triggers that the playing
player's events fire while a card resolves wait for it, nested plays included, and
resolve before its "play" event; a foe's triggers do not wait."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardscript.dsl.front.pipeline import compile_game, to_ir, validate_ir
from cardscript.runtime.agents import ScriptedAgent
from cardscript.runtime.engine import Engine

# Watcher counts "ping"s. Pinger pings and scores 10 per ping seen so far; Outer plays
# the top card of its deck (Pinger) and scores 100 per ping seen so far. So the score
# tells whether the Watcher's trigger ran inside the card (10 or 110) or after it (0).
GAME = '''game "Wait"
players 2
{WAIT}
types thing
abilities play
zone deck: per player, hidden
zone hand: per player, public
zone played: per player, public, play zone
zone watch: per player, public, active
counter score: per player, 0
counter seen: per player, 0
card "Watcher": thing, copies 2
  when "ping": +1 seen
card "Other Watcher": thing, copies 2
  when "ping": +2 seen
card "Pinger": thing
  play:
    emit "ping"
    +(your seen * 10) score
card "Foe Pinger": thing
  play:
    emit "ping" for each foe
    for each foe: +(their seen * 10) score
card "Outer": thing
  play:
    play the top card of your deck
    +(your seen * 100) score
when "play": +(your seen * 1000) score
setup:
  for each player: move 1 "Watcher" from the box to their watch
  {SETUP}
turn:
  play the top card of your hand
  end game "done"
score:
  nothing
'''


def _game(tmp_path: Path, setup: str, wait: bool = True, order: bool = False, extra: str = ""):
    lines = (["your triggers wait until the card you are playing resolves"] if wait else []) + \
        (["triggers resolve in the order you choose"] if order else [])
    text = GAME.replace("{WAIT}", "\n".join(lines)).replace("{SETUP}", setup) + extra
    (tmp_path / "game.rules").write_text(text)
    d, diags, _ = compile_game(str(tmp_path))
    assert d is not None, diags
    return d


def _score(d, answers: list | None = None) -> tuple[int, list[dict]]:
    agents = [ScriptedAgent(list(answers or []), strict=True), ScriptedAgent([], strict=True)]
    eng = Engine(d, 2, agents, 1)
    eng.run()
    g = eng.game
    asked = [e for e in g.log if e.get("t") == "decision" and e["kind"] == "trigger"]
    return g.get(g.d.counter("score").index, 0), asked


PINGER = 'move 1 "Pinger" from the box to your hand'
OUTER = 'move 1 "Pinger" from the box to your deck\n  move 1 "Outer" from the box to your hand'


@pytest.mark.parametrize(("wait", "score"), [(True, 1000), (False, 10 + 1000)])
def test_a_trigger_of_the_player_waits_for_the_card_played(tmp_path: Path, wait: bool, score: int) -> None:
    # waiting: Pinger reads 0 pings seen; the Watcher's trigger ran before the "play" rule (1000)
    assert _score(_game(tmp_path, PINGER, wait))[0] == score


@pytest.mark.parametrize(("wait", "score"), [(True, 1000), (False, 10 + 1000 + 100 + 1000)])
def test_a_nested_play_waits_for_the_outermost_card(tmp_path: Path, wait: bool, score: int) -> None:
    # waiting: neither card sees the ping; the game's "play" rule is procedure, not an
    # ability, so it never waits: it runs after Pinger (0 seen) and after Outer (1 seen)
    assert _score(_game(tmp_path, OUTER, wait))[0] == score


def test_the_triggers_of_a_foe_do_not_wait(tmp_path: Path) -> None:
    d = _game(tmp_path, 'move 1 "Foe Pinger" from the box to your hand')
    assert _score(d)[0] == 10  # the foe's Watcher saw the ping inside the card


def test_waiting_triggers_are_ordered_by_the_player_when_the_game_says_so(tmp_path: Path) -> None:
    setup = PINGER + '\n  move 1 "Other Watcher" from the box to your watch'
    score, asked = _score(_game(tmp_path, setup, order=True), ["Other Watcher: when ping"])
    assert [e["options"] for e in asked] == [["Watcher: when ping", "Other Watcher: when ping"]]
    assert [e["chose"] for e in asked] == [[1]]
    assert score == 3000  # both ran after Pinger (0 seen) and before the "play" rule (3 seen)


def test_a_card_that_ends_the_game_leaves_nothing_waiting(tmp_path: Path) -> None:
    extra = 'card "Ender": thing\n  play:\n    emit "ping"\n    end game "ended inside"\n'
    d = _game(tmp_path, 'move 1 "Ender" from the box to your hand', extra=extra)
    eng = Engine(d, 2, [ScriptedAgent([]), ScriptedAgent([])], 1)
    assert eng.run().reason == "ended inside"
    assert eng.game.waiting == [] and eng.game.playing == 0


def test_the_declaration_is_in_the_ir(tmp_path: Path) -> None:
    for wait in (True, False):
        ir = to_ir(_game(tmp_path, PINGER, wait))
        assert ir["triggers_wait_for_play"] is wait
        assert validate_ir(ir) == []

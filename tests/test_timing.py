"""Timing (issue 12): the order of simultaneous triggers (JLD-15), delayed effects and
abilities for the rest of the turn."""

from __future__ import annotations

from pathlib import Path

from cardscript.dsl.front.pipeline import compile_game, to_ir, validate_ir
from cardscript.runtime.agents import GreedyAgent, RandomAgent, ScriptedAgent
from cardscript.runtime.engine import Engine

# Two abilities on "ping" whose order changes the result: Doubler doubles the score,
# Adder adds 1. Adder then Doubler: 2; Doubler then Adder: 1.
ORDER_GAME = '''game "Order"
players 1 to 2
{ORDER}
types thing
zone hand: per player, public
zone played: per player, public, active
counter score: per player, 0
card "Doubler": thing, copies {COPIES}
  when "ping": +(your score) score
card "Adder": thing
  when "ping": +1 score
setup:
  move all "Doubler" from the box to your played
  move all "Adder" from the box to your played
turn:
  emit "ping"
  end game "pinged"
score:
  nothing
'''


def _order_game(tmp_path: Path, order: bool = True, copies: int = 1, adder: bool = True):
    text = ORDER_GAME.replace("{ORDER}", "triggers resolve in the order you choose" if order else "")
    text = text.replace("{COPIES}", str(copies))
    if not adder:
        text = text.replace('  move all "Adder" from the box to your played\n', "")
    (tmp_path / "game.rules").write_text(text)
    d, diags, _ = compile_game(str(tmp_path))
    assert d is not None, diags
    return d


def _play(d, answers: list) -> tuple[int, list[dict]]:
    agent = ScriptedAgent(list(answers), strict=True)
    eng = Engine(d, 1, [agent], 1)
    result = eng.run()
    asked = [e for e in eng.game.log if e.get("t") == "decision" and e["kind"] == "trigger"]
    return result.scores[0], asked


def test_the_player_chooses_the_order_and_it_changes_the_result(tmp_path):
    d = _order_game(tmp_path)
    assert _play(d, ["Adder: when ping"])[0] == 2
    assert _play(d, ["Doubler: when ping"])[0] == 1


def test_the_choice_lists_each_pending_ability_by_card(tmp_path):
    _score, asked = _play(_order_game(tmp_path), ["Adder: when ping"])
    # Doubler lies below Adder in the played zone: the fixed order's first is first here too
    assert [e["options"] for e in asked] == [["Doubler: when ping", "Adder: when ping"]]


def test_copies_of_one_ability_are_not_ordered(tmp_path):
    # three copies of Doubler and no Adder: the order cannot matter, nothing is asked
    score, asked = _play(_order_game(tmp_path, copies=3, adder=False), [])
    assert (score, asked) == (0, [])


def test_a_lone_trigger_is_not_ordered(tmp_path):
    score, asked = _play(_order_game(tmp_path, adder=False), [])
    assert (score, asked) == (0, [])


def test_without_the_declaration_the_order_is_fixed(tmp_path):
    # bottom card first: Doubler (0 * 2), then Adder
    score, asked = _play(_order_game(tmp_path, order=False), [])
    assert (score, asked) == (1, [])


def test_the_declaration_is_in_the_ir(tmp_path):
    ir = to_ir(_order_game(tmp_path))
    assert ir["triggers_in_chosen_order"] is True
    assert validate_ir(ir) == []
    assert to_ir(_order_game(tmp_path, order=False))["triggers_in_chosen_order"] is False


def test_bots_answer_the_order(tmp_path):
    d = _order_game(tmp_path)
    # greedy keeps the fixed order; random picks among the pending abilities
    assert Engine(d, 1, [GreedyAgent()], 1).run().scores[0] == 1
    scores = {Engine(d, 1, [RandomAgent()], seed).run().scores[0] for seed in range(1, 12)}
    assert scores == {1, 2}


def test_justice_league_dark_orders_its_triggers():
    d, _, _ = compile_game("justice-league-dark")
    assert d.triggers_in_chosen_order
    d, _, _ = compile_game("injustice")  # INJ-04: Injustice keeps the printed order
    assert not d.triggers_in_chosen_order

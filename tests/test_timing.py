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


# ---------------------------------------------------------------- delayed effects
DELAY_GAME = '''game "Later"
players 1
{ORDER}
types thing
abilities play
zone hand: per player, public
zone played: per player, public, active, play zone
counter score: per player, 0
effect later {B: block}:
  at the next "ping": B
card "Fuse": thing
  play: later: +10 score
card "Echo": thing
  when "ping": +(your score) score; at the next "ping": +1 score
setup:
  move all "Echo" from the box to your played
  play all "Fuse" in the box
turn:
  emit "ping"
  emit "ping"
  end game "pinged"
score:
  nothing
'''


def _delay_game(tmp_path: Path, order: bool):
    (tmp_path / "game.rules").write_text(DELAY_GAME.replace("{ORDER}", "triggers resolve in the order you choose"
                                                            if order else ""))
    d, diags, _ = compile_game(str(tmp_path))
    assert d is not None, diags
    return d


def test_a_delayed_effect_runs_once_with_its_block_argument_after_the_triggers(tmp_path):
    # ping 1: Echo doubles 0, sets up +1; then Fuse's +10 (a block argument run later).
    # ping 2: Echo doubles 10 -> 20 and sets up another +1; the first +1 runs -> 21;
    # the one set up during ping 2 waits for a ping that never comes.
    score, asked = _play(_delay_game(tmp_path, order=False), [])
    assert (score, asked) == (21, [])


def test_a_delayed_effect_is_a_pending_ability_when_the_player_orders_them(tmp_path):
    d = _delay_game(tmp_path, order=True)
    # ping 1: Fuse's +10 first, then Echo doubles it: 20; ping 2: Echo then the +1: 41
    score, asked = _play(d, ["Fuse: at the next ping", "Echo: when ping"])
    assert score == 41
    assert asked[0]["options"] == ["Echo: when ping", "Fuse: at the next ping"]
    assert asked[1]["options"] == ["Echo: when ping", "Echo: at the next ping"]


def test_delayed_syntax_formats_canonically_and_renders_the_printed_text(tmp_path):
    from cardscript.dsl.tools.fmt import format_text
    from cardscript.dsl.tools.render.statements import _when_next

    text = 'card "X": thing\n  play:   at  your next "start of turn" :  draw 1\n'
    once = format_text(text)
    assert once == 'card "X": thing\n  play: at your next "start of turn": draw 1\n'
    assert format_text(once) == once
    assert _when_next("end of turn", False) == "at the end of this turn"
    assert _when_next("start of turn", False) == "at the start of the next turn"
    assert _when_next("start of turn", True) == "at the start of your next turn"
    assert _when_next("end of turn", True) == "at the end of your turn"
    assert _when_next("ping", True) == "the next time \u201cping\u201d happens to you"


# ---------------------------------------------------------------- abilities for the rest of the turn
GRANT_GAME = '''game "Grant"
players 1
types thing
abilities play
zone hand: per player, public
zone played: per player, public, play zone
counter score: per player, 0
counter turns: per player, 0
card "Kit": thing
  play: {USES} this turn, you may "tick: +1 score" where your score < 5: +1 score
setup:
  nothing
turn:
  +1 turns
  if your turns == 1: play all "Kit" in the box
  take actions
  if your turns == 2: end game "two turns"
score:
  nothing
'''


def _grant_game(tmp_path: Path, uses: str):
    (tmp_path / "game.rules").write_text(GRANT_GAME.replace("{USES}", uses))
    return compile_game(str(tmp_path))


def _offers(log: list[dict]) -> list[list[str]]:
    return [e["options"] for e in log if e.get("t") == "decision" and e["kind"] == "action"]


def test_a_granted_action_is_offered_its_number_of_times_then_not_after_the_turn(tmp_path):
    d, _, _ = _grant_game(tmp_path, "2 times")
    agent = ScriptedAgent(["tick: +1 score", "tick: +1 score", "end turn", "end turn"], strict=True)
    eng = Engine(d, 1, [agent], 1)
    result = eng.run()
    assert result.scores[0] == 2
    assert _offers(eng.game.log) == [["tick: +1 score", "end turn"], ["tick: +1 score", "end turn"], ["end turn"],
                                     ["end turn"]]


def test_any_number_of_times_stops_only_at_its_condition(tmp_path):
    d, _, _ = _grant_game(tmp_path, "any number of times")
    agent = ScriptedAgent(["tick: +1 score"] * 5 + ["end turn", "end turn"], strict=True)
    eng = Engine(d, 1, [agent], 1)
    assert eng.run().scores[0] == 5
    assert _offers(eng.game.log)[5] == ["end turn"]  # 'where your score < 5' no longer holds


def test_bots_take_granted_actions(tmp_path):
    d, _, _ = _grant_game(tmp_path, "any number of times")
    assert Engine(d, 1, [GreedyAgent()], 1).run().scores[0] == 5
    assert {Engine(d, 1, [RandomAgent()], seed).run().scores[0] for seed in range(1, 10)} - {0}


def test_zero_times_is_a_diagnostic(tmp_path):
    import pytest

    from cardscript.dsl.diagnostics import CompileError

    with pytest.raises(CompileError) as info:
        _grant_game(tmp_path, "0 times")
    assert [d.code for d in info.value.diagnostics] == ["CS215"]
    assert info.value.diagnostics[0].span.line == 10


def test_granted_actions_render_their_printed_text():
    from types import SimpleNamespace

    from cardscript.dsl.front.build import build
    from cardscript.dsl.tools.fmt import format_text
    from cardscript.dsl.tools.render.statements import Statements

    text = 'card "K": hero\n  play: once  this turn, you may "draw a card" where your power > 0 prefer 2: draw 1\n'
    once = format_text(text)
    assert once == 'card "K": hero\n  play: once this turn, you may "draw a card" where your power > 0 prefer 2: draw 1\n'
    assert format_text(once) == once
    grant = build(once).items[0].abilities[0].body.stmts[0]
    plain = SimpleNamespace(printed_words=lambda text: text)  # the label's names: tests/test_render_issue12.py
    assert Statements.s_grant(plain, grant, None) == "once this turn, you may draw a card"  # type: ignore[arg-type]

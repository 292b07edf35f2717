"""Scripts from strangers that pass ``check`` must not exhaust the machine or crash ``play``
(issue 10, part C): static bounds with a diagnostic at the number that passes them, a
deterministic step budget at run time, O(1) moves of a zone's top card, types of
attributes and expressions, nesting limits checked before any recursive stage, and no
silent redefinition of a shared effect (docs/language.md, "Limits", "Replacing an effect").
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardscript
from cardscript.dsl.cli import main
from cardscript.dsl.diagnostics import Diagnostic
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import RunawayError

GAME = '''game "Tiny"
players 2 to 2
types hero
attribute cost = 0
attribute tag = "plain"
abilities play
zone deck: per player, hidden, refill from discard
zone hand: per player, private
zone discard: per player, public
zone played: per player, public, play zone
zone pile: shared, hidden
counter power: per player, 0
counter score: per player, 0
setup:
  move all cards from the box to the pile
  for each player:
    repeat 5: move the top card of the pile to their hand
turn:
  take actions
action "play": choose a card from your hand:
  play it
effect draw {N: number}:
  repeat N: move the top card of your deck to your hand
card "Jab": hero, copies 4, cost 1
  play: +1 power
'''
LINE = GAME.count("\n") + 1  # the first line of what a test adds


def _game(tmp_path: Path, extra: str, name: str = "game") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.rules").write_text(GAME + extra, encoding="utf-8")
    return folder


def _errors(path: Path) -> list[Diagnostic]:
    rep = cardscript.check_paths([str(path)])
    assert all(d.code != "CS900" for d in rep.diagnostics)
    return [d for d in rep.diagnostics if d.severity == "error"]


def _one(path: Path, code: str) -> Diagnostic:
    errs = _errors(path)
    assert [d.code for d in errs] == [code], [(d.code, d.message) for d in errs]
    return errs[0]


def _cli(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, list(args))
    assert not isinstance(res.exception, RecursionError), res.output
    assert "internal error" not in res.output and "CS900" not in res.output, res.output
    return res.exit_code, res.output


# ---------------------------------------------------------------- 1. static bounds
@pytest.mark.parametrize("extra,number,says", [
    ('card "Horde": hero, copies 1000000000\n', "1000000000", "copies of one card: at most 10,000"),
    ('card "Horde": hero, copies 20000\n', "20000", "20,000 copies"),
    ('card "Rich": hero, cost ' + "9" * 5000 + "\n", "9" * 5000, "(5000 digits) is too large"),  # was CS900 at 1:1
    ('card "Big": hero\n  play: +10000000000 power\n', "10000000000", "at most 1,000,000,000"),
], ids=["copies-1e9", "copies-20000", "5000-digits", "amount-1e10"])
def test_numbers_past_their_limit_point_at_the_number(tmp_path: Path, extra: str, number: str, says: str) -> None:
    d = _one(_game(tmp_path, extra), "CS209")
    lines = extra.splitlines()
    at = next(i for i, text in enumerate(lines) if number in text)
    assert (d.span.line, d.span.column) == (LINE + at, lines[at].index(number) + 1) and says in d.message, d


def test_players_past_the_limit(tmp_path: Path) -> None:
    folder = _game(tmp_path, "")
    text = (folder / "game.rules").read_text().replace("players 2 to 2", "players 2 to 1000000000")
    (folder / "game.rules").write_text(text)
    d = _one(folder, "CS209")
    assert (d.span.line, d.span.column) == (2, 14) and "a game seats at most 100" in d.message


def test_components_of_a_game_are_bounded(tmp_path: Path) -> None:
    extra = "".join(f'card "Horde {i}": hero, copies 10000\n' for i in range(11))
    d = _one(_game(tmp_path, extra), "CS211")
    # with the game's 4 Jabs, the tenth card's copies pass 100,000
    assert (d.span.line, d.span.column) == (LINE + 9, 30) and "100,004 components" in d.message, d


def test_per_card_zones_are_bounded(tmp_path: Path) -> None:
    extra = "".join(f'card "Horde {i}": hero, copies 10000\n' for i in range(9))
    extra += "".join(f"zone marks{i}: per card\n" for i in range(12))
    d = _one(_game(tmp_path, extra), "CS211")
    assert "zone 'marks11'" in d.message and "1,000,000" in d.message  # 10 + 4 + 12 x 90,004


def test_nested_repeats_are_bounded_at_the_number(tmp_path: Path) -> None:
    extra = 'card "Loop": hero\n  play:\n    repeat 1000:\n      repeat 1000:\n        repeat 1000: +1 power\n'
    d = _one(_game(tmp_path, extra), "CS211")
    assert (d.span.line, d.span.column) == (LINE + 3, 14) and "1,000 x 1,000" in d.message


def test_repeats_are_bounded_through_the_effects_they_call(tmp_path: Path) -> None:
    extra = ('effect spin {N: number}:\n  repeat N: draw N\n'
             'card "Loop": hero\n  play: repeat 10: spin 200\n')
    d = _one(_game(tmp_path, extra), "CS211")
    assert (d.span.line, d.span.column) == (LINE + 3, 20) and "40,000 times" in d.message
    ok = ('effect spin {N: number}:\n  repeat N: draw N\n'
          'card "Loop": hero\n  play: repeat 10: spin 100\n')  # 10 x 100 x 100: at the limit
    assert _errors(_game(tmp_path, ok, "ok")) == []


def test_a_constant_repeat_past_the_runtime_bound_is_found_statically(tmp_path: Path) -> None:
    d = _one(_game(tmp_path, 'card "Loop": hero\n  play: repeat 5000: +1 power\n'), "CS209")
    assert (d.span.line, d.span.column) == (LINE + 1, 16)


@pytest.mark.parametrize("count,ok", [(1, False), (2, True), (4, True), (5, False), (9, False)])
def test_scenario_players_are_within_the_games_range(tmp_path: Path, count: int, ok: bool) -> None:
    path = tmp_path / "p.scenario"
    path.write_text(f'scenario "P"\nuses "injustice"\nplayers {count}\n\nexpect count players == {count}\n')
    res = cardscript.run_scenarios([path])[0]
    assert res.passed == ok, res.diagnostics
    if not ok:
        (d,) = res.diagnostics
        assert (d.code, d.span.line) == ("CS209", 3) and "2 to 4 players play this game" in d.message


def test_a_scenario_may_use_the_players_of_a_variant(tmp_path: Path) -> None:
    path = tmp_path / "p.scenario"
    path.write_text('scenario "P"\nuses "injustice"\nvariant "more-players"\nplayers 5\n\nexpect count players == 5\n')
    assert cardscript.run_scenarios([path])[0].passed


# ---------------------------------------------------------------- 2. runtime: budget, moves, counts
FILLERS = "".join(f'card "Filler {i}": hero, copies 1000\n' for i in range(5))
# 1,000 passes that look at the 4,990 cards of the pile each: past the budget of 2,000,000 steps
SPIN = "repeat 1000: +(count all cards in the pile) power\n"
SPINNER = FILLERS + 'action "spin":\n  ' + SPIN


def test_a_runaway_game_stops_at_its_step_budget_naming_card_chain_and_seed(tmp_path: Path) -> None:
    d = cardscript.compile_game(str(_game(tmp_path, SPINNER)))
    messages = []
    for _ in range(2):
        engine = Engine(d, 2, make_agents(["random"], 2), 3, log=False, step_limit=200_000)
        with pytest.raises(RunawayError) as exc:
            engine.run()
        messages.append((str(exc.value), exc.value.chain, engine.game.steps))
    assert messages[0] == messages[1], "the budget is counted in steps: the same game stops at the same place"
    text, chain, _ = messages[0]
    assert "budget of 200,000 steps" in text and "(seed 3)" in text and chain == ["action 'spin'"]


# The bounds below are of this process's CPU time, not the wall clock: the suite runs on
# every core (pytest-xdist), beside other work, and a bound of seconds must not depend on that.
def test_the_cli_reports_a_runaway_as_cs401_within_seconds(tmp_path: Path) -> None:
    spinner = FILLERS + 'card "Spinner": hero, copies 5\n  play: ' + SPIN
    deal = 'setup:\n  for each player:\n    move all "Spinner" from the pile to their hand\n'
    folder = _game(tmp_path, spinner + deal)
    start = time.process_time()
    code, out = _cli("play", str(folder), "--seed", "3", "--bots", "random")
    assert code == 1 and "error[CS401]" in out and "card 'Spinner'" in out and "seed 3" in out, out
    assert "hint: it was running action 'play' -> play of Spinner" in out
    # at the line of the card's ability that ran away, with its excerpt and caret
    assert re.search(r"game\.rules:\d+:\d+: error\[CS401\]", out) and "play: " + SPIN.split("\n")[0] in out, out
    assert time.process_time() - start < 20


def test_effects_inside_each_other_stop_before_the_recursion_limit(tmp_path: Path) -> None:
    body = "".join("  " * (i + 1) + "if 1 > 0:\n" for i in range(30))
    extra = "effect dive:\n" + body + "  " * 31 + 'dive\nwhen "dive": dive\nsetup:\n  emit "dive"\n'
    d = cardscript.compile_game(str(_game(tmp_path, extra)))

    def deep(k: int) -> None:  # play with a deeper stack than the CLI's, as under a test runner
        if k:
            deep(k - 1)
            return
        with pytest.raises(RunawayError) as exc:
            cardscript.play_game(d, seed=1)
        assert "levels deep" in str(exc.value) and "seed 1" in str(exc.value)
        assert exc.value.chain[0].startswith("rule on 'dive'") and "effect 'dive'" in exc.value.chain

    deep(200)


def test_moving_the_top_card_is_not_a_search_of_the_zone(tmp_path: Path) -> None:
    """100,000 components moved out of the box and dealt: quadratic before (about 2 minutes)."""
    extra = "".join(f'card "Horde {i}": hero, copies 10000\n' for i in range(9)) + 'card "Rest": hero, copies 9996\n'
    d = cardscript.compile_game(str(_game(tmp_path, extra)))
    start = time.process_time()
    result = cardscript.play_game(d, seed=1, log=False)
    assert result.turns > 0 and time.process_time() - start < 10


def test_a_refill_keeps_the_order_of_one_move_at_a_time(tmp_path: Path) -> None:
    extra = 'setup:\n  move all cards from the pile to your discard\n  move the top 3 cards of your deck to your hand\n'
    d = cardscript.compile_game(str(_game(tmp_path, extra)))
    log = cardscript.play_game(d, seed=2).log
    moves = [e for e in log if e["t"] == "move" and e["from"] == "P1 discard"]
    assert [e["id"] for e in moves] == sorted(e["id"] for e in moves)  # bottom card first, as the pile was built


@pytest.mark.parametrize("selector,count,moved", [
    ("N random cards from the pile", "0 - 2", 0),  # rng.sample raised ValueError
    ("N random cards from the pile", "0", 0),
    ("N random cards from the pile", "1000000", 24),
    ("the top 0 cards of the pile", "0", 0),  # cards[-0:] was every card
])
def test_counts_outside_the_pool_select_none_or_all(tmp_path: Path, selector: str, count: str, moved: int) -> None:
    extra = f'card "Filler": hero, copies 30\nsetup:\n  let N = {count}\n  move {selector} to your discard\n'
    d = cardscript.compile_game(str(_game(tmp_path, extra)))
    log = cardscript.play_game(d, seed=1, agents="random").log
    assert len([e for e in log if e["t"] == "move" and e["from"] == "pile" and e["to"] == "P1 discard"]) == moved


def test_a_product_saturates_instead_of_growing_without_end(tmp_path: Path) -> None:
    extra = "setup:\n  let X = 2\n  repeat 100:\n    let X = X * X\n  set your score to X\n"
    d = cardscript.compile_game(str(_game(tmp_path, extra)))
    start = time.process_time()
    cardscript.play_game(d, seed=1, log=False)
    assert time.process_time() - start < 5


@pytest.mark.parametrize("extra", [
    "setup:\n  +1 score\n  repeat 100:\n    repeat 1000:\n      +(your score) score\n",
    "setup:\n  +(999999999 * 999999999) score\n  repeat 1000:\n    +(your score) score\n",
    "setup:\n  let X = 1\n  repeat 100:\n    repeat 1000:\n      let X = X + X\n  set your score to X\n",
], ids=["counter-doubled", "counter-past-64-bits", "let-doubled"])
def test_a_counter_or_a_let_doubled_in_a_loop_saturates(tmp_path: Path, extra: str) -> None:
    """A counter with no bound, or a 'let' value, doubled 100,000 times grew to a number of
    30,000 digits a step (about 2 GB in a logged game; printing the scores crashed with exit 3,
    found by a hostile trial). Each saturates at 10**18, as a product does, and the game ends
    with its scores printed."""
    folder = _game(tmp_path, extra)
    code, out = _cli("play", str(folder), "-q")
    assert code == 0, out
    assert "1000000000000000000" in out
    d = cardscript.compile_game(str(folder))
    r = cardscript.play_game(d, seed=1, log=True)
    assert max(r.scores) == 10**18
    assert all(abs(e.get("value", 0)) <= 10**18 for e in r.log)


# ---------------------------------------------------------------- 3. types
@pytest.mark.parametrize("extra,line,says", [
    ('card "Bad": hero, cost "five"\n', 0, "attribute 'cost' holds numbers, not \"five\""),
    ('card "Bad": hero, tag 3\n', 0, "attribute 'tag' holds text, not 3"),
    ('card "Bad": hero, copies 2 as cost "x"\n', 0, "holds numbers"),
    ('card "Bad": hero\n  play: +(tag of this card + 1) power\n', 1, "is text: a number is needed here"),
    ('card "Bad": hero\n  play: repeat tag of this card: +1 power\n', 1, "is text"),
    ('card "Bad": hero\n  play: if tag of this card > 2: +1 power\n', 1, "compares a text with a number"),
    ('card "Bad": hero\n  play: if name of this card == 3: +1 power\n', 1, "compares a text with a number"),
    ('card "Bad": hero\n  play: if tag of this card < "b": +1 power\n', 1, "texts compare only with == and !="),
    ('card "Bad": hero\n  play: +(sum of tag of all cards in the pile) power\n', 1, "holds text, not a number"),
    ('card "Bad": hero\n  play: draw (name of this card)\n', 1, "is text"),
    ("tie break: tag of the top card of your hand\n", 0, "is text"),
], ids=["cost-text", "tag-number", "printing-text", "arith-text", "repeat-text", "compare-text-number",
        "compare-name-number", "text-less-than", "sum-text", "argument-text", "tie-break-text"])
def test_type_confusion_is_a_diagnostic_at_check_time(tmp_path: Path, extra: str, line: int, says: str) -> None:
    d = _one(_game(tmp_path, extra), "CS204")
    assert d.span.line == LINE + line and says in d.message, d


def test_text_attributes_compare_with_texts(tmp_path: Path) -> None:
    extra = 'card "Good": hero, tag "odd"\n  play: if tag of this card == "odd" and name of this card != "Jab": ' \
        "+1 power\n"
    assert _errors(_game(tmp_path, extra)) == []


# ---------------------------------------------------------------- 4. nesting, before any recursive stage
def _nested_ifs(n: int) -> str:
    return "setup:\n" + "".join("  " * (i + 1) + "if 1 > 0:\n" for i in range(n)) + "  " * (n + 1) + "+1 power\n"


def _inline_ifs(n: int) -> str:
    """Nested on one line (a script of indented blocks 5,000 deep would pass the 1 MiB a script may have)."""
    return "setup:\n  " + "if 1 > 0: " * n + "+1 power\n"


def _parens(n: int) -> str:
    return "setup:\n  +" + "(" * n + "1" + ")" * n + " power\n"


@pytest.mark.parametrize("extra,line,says", [
    (_nested_ifs(33), 33, "statements nested more than 32 deep"),
    (_nested_ifs(300), 33, "statements nested more than 32 deep"),
    (_inline_ifs(5000), 1, "statements nested more than 32 deep"),
    (_parens(33), 1, "parentheses nested more than 32 deep"),
    (_parens(979), 1, "parentheses nested more than 32 deep"),
    (_parens(10000), 1, "parentheses nested more than 32 deep"),
    ("setup:\n  +" + " + ".join(["1"] * 300) + " power\n", 1, "nested more than 160 levels deep"),
    ("setup:\n  if " + "not " * 300 + "1 > 0: nothing\n", 1, "nested more than 160 levels deep"),
], ids=["ifs33", "ifs300", "ifs5000", "parens33", "parens979", "parens10000", "sum300", "not300"])
def test_nesting_past_the_limit_is_cs104_in_every_command(tmp_path: Path, extra: str, line: int, says: str) -> None:
    folder = _game(tmp_path, extra)
    for cmd in (["check", str(folder)], ["fmt", "--check", str(folder)], ["compile", str(folder)],
                ["play", str(folder), "--seed", "1"]):
        code, out = _cli(*cmd)
        assert code == 1 and "error[CS104]" in out and says in out, (cmd, out[-2000:])
        assert f"game.rules:{LINE + line}:" in out, out[-2000:]


def test_nesting_at_the_limits_passes_every_command(tmp_path: Path) -> None:
    blocks = "".join("  " * (i + 1) + "if 1 > 0:\n" for i in range(32))
    inner = "+" + "(" * 32 + " + ".join(["1"] * 40) + ")" * 32 + " power\n"
    folder = _game(tmp_path, "setup:\n" + blocks + "  " * 33 + inner + "setup:\n  +" + " + ".join(["1"] * 150)
                   + " power\n")

    def deep(k: int) -> None:  # a deeper stack than the CLI's own, as under a test runner
        if k:
            deep(k - 1)
            return
        for cmd in (["check", str(folder)], ["fmt", str(folder)], ["compile", str(folder)],
                    ["play", str(folder), "--seed", "1"], ["render", str(folder)]):
            code, out = _cli(*cmd)
            assert code == 0, (cmd, out[-2000:])

    deep(150)


def test_a_long_chain_of_effects_compiles(tmp_path: Path) -> None:
    """The IR collects the effects a game calls iteratively, and validates a deep IR in pieces."""
    extra = "".join(f"effect step{i}:\n  step{i + 1}\n" for i in range(400)) + "effect step400:\n  +1 power\n"
    code, out = _cli("compile", str(_game(tmp_path, extra + 'card "Go": hero\n  play: step0\n')))
    assert code == 0 and '"step400"' in out


# ---------------------------------------------------------------- 5. shared effects
def _expansion(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "fan.cards"
    path.write_text('expansion "Fan"\nuses "injustice"\n\n' + text, encoding="utf-8")
    return path


def test_an_expansion_cannot_silently_redefine_a_shared_effect(tmp_path: Path) -> None:
    d = _one(_expansion(tmp_path, "effect draw {N: number}:\n  nothing\n"), "CS203")
    assert d.span.line == 4 and "redefines the shared effect from" in d.message and "dc-core/core.rules:" in d.message
    assert "effect draw {N: number} replaces:" in d.hint


def test_replaces_says_it_on_purpose(tmp_path: Path) -> None:
    path = _expansion(tmp_path, "effect draw {N: number} replaces:\n  repeat N: move the top card of your deck to "
                                "your hand\n")
    assert _errors(path) == []


def test_replaces_must_replace_something(tmp_path: Path) -> None:
    d = _one(_expansion(tmp_path, "effect juggle {N: number} replaces:\n  nothing\n"), "CS201")
    assert d.span.line == 4 and "replaces nothing" in d.message


def test_a_built_in_primitive_is_replaced_only_on_purpose(tmp_path: Path) -> None:
    d = _one(_expansion(tmp_path, "effect shuffle {Z: zone}:\n  nothing\n"), "CS203")
    assert "redefines the built-in effect" in d.message


def test_the_built_in_replacements_say_replaces(tmp_path: Path) -> None:
    """Justice League Dark replaces dc-core's gain and attack: it says so, and must."""
    import shutil

    from cardscript.dsl.front.loader import builtin_root

    game = tmp_path / "jld"
    shutil.copytree(builtin_root() / "justice-league-dark", game)
    cardscript.compile_game(str(game))
    rules = game / "game.rules"
    rules.write_text(rules.read_text().replace("effect gain {C: cards} replaces:", "effect gain {C: cards}:"))
    errs = _errors(game)
    line = rules.read_text().splitlines().index("effect gain {C: cards}:") + 1
    assert [(d.code, d.span.line) for d in errs] == [("CS203", line)] and "dc-core/core.rules:" in errs[0].message


@pytest.mark.parametrize("variant", ["advanced", "impossible", "mixing"])
def test_the_built_in_variants_compile(variant: str) -> None:
    cardscript.compile_game("injustice", variants=[variant])


def test_replaces_is_a_keyword_that_fmt_keeps() -> None:
    from cardscript.dsl.front.build import build
    from cardscript.dsl.tools.fmt import format_text

    text = 'effect attack {T: players} {B: block} replaces printed "Attack: {B}":\n  B\n'
    (effect,) = build(text).items
    assert effect.replaces and [type(i).__name__ for i in effect.pattern] == ["Word", "Slot", "Slot"]
    assert format_text(text) == text


@pytest.mark.parametrize("line", ["counter power: per player, 0..3", "zone hand: shared, public",
                                  "zone discard: per player, public", "attribute cost = 5"])
def test_an_expansion_cannot_silently_redefine_a_ruleset_declaration(tmp_path: Path, line: str) -> None:
    """'counter power: per player, 0..3' in an expansion capped every player's Power at 3
    for the whole game without a word (the game's own counters gave CS203; the ruleset's,
    dc-core's, were replaced; found by a hostile trial). CS203 at the expansion's line."""
    d = _one(_expansion(tmp_path, line + "\n"), "CS203")
    assert d.span.line == 4 and "an expansion cannot redefine" in d.message and "dc-core/core.rules:" in d.hint


@pytest.mark.parametrize("line,says", [
    ('action "end turn": +1 power', "the label of the option that ends the turn"),
    ('action "play Heavy Punch": +5 power', "the label of action 'play' on the card 'Heavy Punch'"),
])
def test_an_action_cannot_take_another_options_label(tmp_path: Path, line: str, says: str) -> None:
    """An expansion's 'action "end turn"' showed in the menu next to the real one, and a
    scenario's answer "end turn" picked it (found by a hostile trial). CS203 at its line."""
    d = _one(_expansion(tmp_path, line + "\n"), "CS203")
    assert d.span.line == 4 and says in d.message


@pytest.mark.parametrize("extra,line,says", [
    ('card "' + "A" * 101 + '": hero\n  play: +1 power\n', 0, "a card name of 101 characters: at most 100"),
    ('action "' + "a" * 101 + '": +1 power\n', 0, "an action name of 101 characters: at most 100"),
    ('card "B": hero\n  play: mark you "' + "m" * 1001 + '" this turn\n', 1, "a text of 1,001 characters: at most 1,000"),
], ids=["card-name", "action-name", "text"])
def test_names_and_texts_are_bounded(tmp_path: Path, extra: str, line: int, says: str) -> None:
    """Ten cards named by 100,000 characters each (1 MB of script) took 1.1 GB in a game: every
    option of every decision is labelled with its card's name, and a log keeps the labels
    (found by a hostile trial). A name is at most 100 characters, any text 1,000: CS209."""
    d = _one(_game(tmp_path, extra), "CS209")
    assert says in d.message and d.span.line == LINE + line


def test_a_parameter_named_twice_is_cs203(tmp_path: Path) -> None:
    """'effect foo {N: number} and {N: number}' was accepted, and its body read one of the
    two arguments (found by a hostile trial). CS203 at the second."""
    d = _one(_expansion(tmp_path, "effect foo {N: number} and {N: number}:\n  +N power\n"), "CS203")
    assert d.span.line == 4 and "parameter 'N' is named twice" in d.message and d.span.column == 28


def test_one_effect_over_the_loop_limit_is_one_error_not_one_per_caller(tmp_path: Path) -> None:
    """A hostile trial: a chain of 200 effects, each running the next three times, gave 368
    CS211 errors for one cause. An effect over the limit by itself says so in its own body;
    its callers do not say it again."""
    lines = ['expansion "C"', 'uses "injustice"', '']
    for i in range(200):
        lines += [f"effect step{i}:", f"  repeat 2: step{i + 1}", f"  step{i + 1}", ""] if i < 199 else \
                 [f"effect step{i}:", "  draw a card", ""]
    lines += ['card "Chain": hero, cost 1', "  play: step0"]
    (tmp_path / "c.cards").write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = [d for d in cardscript.check_paths([str(tmp_path / "c.cards")]).diagnostics if d.code == "CS211"]
    assert 1 <= len(found) <= 5, len(found)
    (tmp_path / "d.cards").write_text('expansion "D"\nuses "injustice"\n\neffect big:\n  repeat 1000:\n'
                                      '    repeat 1000: draw a card\n\ncard "Big": hero, cost 1\n  play: big\n\n'
                                      'card "Big2": hero, cost 1\n  play: repeat 2: big\n', encoding="utf-8")
    found = [(d.code, d.span.line) for d in cardscript.check_paths([str(tmp_path / "d.cards")]).diagnostics]
    assert found == [("CS211", 6)]

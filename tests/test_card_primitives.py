"""Primitives for printed card text (issue 12, area "cards"): modal choices, cost
modifiers, static Ongoing rules, end-of-game VP and the first player.

Each test names the primitive it pins; the scenarios in tests/scenarios/language/ and
examples/language-tour/ play them in real games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.front.pipeline import compile_game, to_ir, validate_ir
from cardscript.dsl.tools.fmt import format_text
from snippets import compile_errors as _compile_errors
from snippets import scenario as _scenario

ROOT = Path(__file__).resolve().parent.parent
TOUR = ROOT / "examples" / "language-tour"






@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    """Card name -> rendered text of the Language Tour's cards."""
    out = CliRunner().invoke(main, ["render", str(TOUR), "--format", "json"])
    assert out.exit_code == 0, out.output
    return {c["name"]: c["text"] for c in json.loads(out.output)}


# ---------------------------------------------------------------- choose one
CHOOSE_ONE = '''card "A": hero, cost 3
  play: choose one: +2 power; or draw a card

card "B": hero, cost 3
  play:
    choose one:
      +1 power; draw a card
      or target foe gains a weakness
'''


def test_choose_one_formats_canonically_and_idempotently() -> None:
    assert format_text(CHOOSE_ONE) == CHOOSE_ONE
    messy = CHOOSE_ONE.replace("one: +2 power; or", "one :  +2 power ;or")
    assert format_text(messy) == CHOOSE_ONE


def test_choose_one_renders_the_printed_wording(rendered: dict[str, str]) -> None:
    assert rendered["Tactical Genius"] == "Choose one: +2 Power; or draw a card."
    assert rendered["Field Commander"].startswith("+1 Power. Choose one: draw a card")
    assert rendered["Field Commander"].endswith("; or target foe gains a Weakness.")


def test_choose_one_with_one_mode_is_cs235(tmp_path: Path) -> None:
    errors = _compile_errors(tmp_path, 'card "Jab": hero\n  play: choose one: draw a card\n')
    assert [(d.code, d.span.line, d.span.column) for d in errors] == [("CS235", 2, 9)]
    assert errors[0].message == "'choose one' offers a single mode"


SCENARIO = '''scenario "modes"
uses "injustice"
players 2
seed 1
card "A": hero, cost 3, copies 2
  play: choose one: +2 power; or draw a card
do:
  for each player: move all cards from their character to the box
  move all cards from your hand to the box
  move 1 "A" from the main-deck and the line-up to your hand
answer "play A", ANSWER, "end turn"
do:
  take actions
expect your power == POWER
'''


@pytest.mark.parametrize("answer,power", [('"+2 power"', 2), ("0", 2), ('"draw a card"', 0), ("1", 0)])
def test_choose_one_is_answered_by_label_or_index(tmp_path: Path, answer: str, power: int) -> None:
    res = _scenario(tmp_path, SCENARIO.replace("ANSWER", answer).replace("POWER", str(power)))
    assert res.passed, [d.message for d in res.diagnostics]


def test_choose_one_offers_the_modes_as_labels(tmp_path: Path) -> None:
    res = _scenario(tmp_path, SCENARIO.replace("ANSWER", '"+3 power"').replace("POWER", "0"))
    assert not res.passed
    assert "['+2 power', 'draw a card']" in " ".join(d.message for d in res.diagnostics)


def test_choose_one_lowers_to_its_own_effect_in_valid_ir(tmp_path: Path) -> None:
    path = tmp_path / "a.cards"
    path.write_text(CHOOSE_ONE, encoding="utf-8")
    definition, _, _ = compile_game("injustice", extra=[path])
    ir = to_ir(definition)
    assert validate_ir(ir) == []
    card = next(c for c in ir["cards"] if c["name"] == "A")
    modes = card["abilities"]["play"]["Seq"]["stmts"][0]["ChooseOne"]
    assert modes["labels"] == ["+2 power", "draw a card"]


# ---------------------------------------------------------------- cost modifiers
MODIFIERS = '''card "A": hero, cost 3
  play: cards cost 1 less for you this turn; the next super power you buy this turn costs 2 less

card "B": hero, cost 3
  play: cards with villain cost 1 more for each foe this turn
  defense: +(cost of it for you) power
'''


def test_cost_modifiers_format_canonically() -> None:
    assert format_text(MODIFIERS) == MODIFIERS
    assert format_text(MODIFIERS.replace("for you this", "for  you   this")) == MODIFIERS


def test_cost_modifiers_render_the_printed_wording(rendered: dict[str, str], tmp_path: Path) -> None:
    assert rendered["Black Market Contact"] == "Cards cost 1 less for you this turn. Draw a card."
    assert rendered["Focused Training"] == "+1 Power. The next Super Power you buy this turn costs 2 less."
    assert rendered["Regime Recruiter"] == "+1 Power. Villains cost 1 less for you this turn."
    (tmp_path / "b.cards").write_text('expansion "B"\nuses "injustice"\n' + MODIFIERS, encoding="utf-8")
    out = CliRunner().invoke(main, ["render", str(tmp_path), "--format", "json"])
    text = {c["name"]: c["text"] for c in json.loads(out.output)}["B"]
    assert text.startswith("Villains cost 1 more for your foes this turn.")


@pytest.mark.parametrize("line,code,message", [
    ("the next super power you purchase this turn costs 2 less", "CS201",
     "no action 'purchase' uses the next card: 'the next ... you purchase' names an action"),
    ("cards with vilain cost 1 less for you this turn", "CS201", "unknown card type 'vilain'"),
    ("cards character 1 less for you this turn", "CS204", "attribute 'character' holds text, not a number"),
    ("cards price 1 less for you this turn", "CS201", "unknown attribute 'price'"),
])
def test_cost_modifier_mistakes_are_diagnostics(tmp_path: Path, line: str, code: str, message: str) -> None:
    errors = _compile_errors(tmp_path, f'card "Jab": hero\n  play: {line}\n')
    assert [(d.code, d.span.line, d.message) for d in errors] == [(code, 2, message)]


PRICES = '''scenario "prices"
uses "injustice"
players 2
seed 1
do:
  for each player: move all cards from their character to the box
  move 1 "Somersault" from the main-deck to the line-up
  STATEMENT
expect cost of the top card of the line-up == 3
expect cost of the top card of the line-up for you == PRICE
'''


@pytest.mark.parametrize("statement,price", [
    ("nothing", 3),
    ("cards cost 1 less for you this turn", 2),
    ("cards cost 2 less for you this turn; cards with super power cost 1 less for you this turn", 0),
    ("cards cost 5 less for you this turn", 0),  # never below 0
    ("cards with hero cost 1 less for you this turn", 3),
    ("cards cost 1 less for each foe this turn", 3),
    ("cards cost 2 more for you this turn", 5),
    ("the next super power you buy this turn costs 2 less", 3),  # only inside the action 'buy'
])
def test_cost_of_it_for_you_reads_the_modifiers(tmp_path: Path, statement: str, price: int) -> None:
    res = _scenario(tmp_path, PRICES.replace("STATEMENT", statement).replace("PRICE", str(price)))
    assert res.passed, [d.message for d in res.diagnostics]


# ---------------------------------------------------------------- the first player
VARIANT = ROOT / "tests" / "scenarios" / "injustice" / "variants" / "third-seat-goes-first.variant"


def test_turns_start_from_the_player_a_setup_step_sends_first() -> None:
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine

    definition, _, _ = compile_game("injustice", extra=[VARIANT])
    engine = Engine(definition, 4, make_agents(["greedy"], 4), seed=3)
    engine.setup()
    meter = next(c.index for c in definition.counters if c.name == "meter")
    assert [engine.game.get(meter, p) for p in range(4)] == [1, 2, 0, 0]  # INJ-01, in turn order 3 4 1 2
    engine.play_turns(max_turns=3)
    turns = [e["player"] for e in engine.game.log if e["t"] == "turn"]
    assert turns == [2, 3, 0]
    assert [e["player"] for e in engine.game.log if e["t"] == "first player"] == [2]


def test_go_first_formats() -> None:
    text = 'setup "0. first player":\n  the foe to your left goes first\n'
    assert format_text(text) == text


@pytest.mark.parametrize("text", [
    "score :\n  choose one :\n    alpha : nothing\n",               # found by hypothesis: 'alpha : nothing'
    "turn :\n  choose one :\n    alpha\n    or choose up to ( - 0 ) card\n",  # and '( - 0 )'
    'setup :\n  choose one :\n    choose 0 "Alpha" from your alpha prefer highest - 0\n',  # a unary minus
])
def test_formatting_never_changes_a_mode_label(text: str) -> None:
    """A mode's label is spaced one way, so fmt (which only moves white space) keeps it."""
    from cardscript.dsl.tools.fmt import format_text

    formatted = format_text(text)
    assert format_text(formatted) == formatted

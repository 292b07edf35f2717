"""Static rules of passive abilities, end-of-game computed attributes and zone-entry
triggers (issue 12, area "cards2").

Each test names the primitive it pins; the scenarios in tests/scenarios/language/ and
examples/language-tour/scenarios/ play them in real games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.front.pipeline import compile_game, to_ir, validate_ir
from cardscript.dsl.tools.fmt import format_text
from snippets import compile_errors as _compile_errors
from snippets import compile_snippet as _compile
from snippets import scenario as _scenario

ROOT = Path(__file__).resolve().parent.parent
TOUR = ROOT / "examples" / "language-tour"








@pytest.fixture(scope="module")
def rendered() -> dict[str, dict]:
    """Card name -> rendered card (JSON) of the Language Tour's cards."""
    out = CliRunner().invoke(main, ["render", str(TOUR), "--format", "json"])
    assert out.exit_code == 0, out.output
    return {c["name"]: c for c in json.loads(out.output)}


# ---------------------------------------------------------------- static Ongoing rules
STATIC = '''card "Boss": villain, cost 6
  ongoing: when you play a villain: +1 power

card "Spy": hero, cost 5
  play: +1 power
  ongoing:
    cards with hero cost 1 less for you
    mark each foe "watched" this turn
    when you gain a card: draw a card
'''


def test_static_rules_format_canonically_and_idempotently() -> None:
    assert format_text(STATIC) == STATIC
    messy = STATIC.replace("when you play a villain: +1", "when  you play  a villain :+1")
    assert format_text(messy) == STATIC


def test_static_rules_render_as_the_printed_ongoing_line(rendered: dict[str, dict]) -> None:
    assert rendered["Regime Commander"]["text"] == "Ongoing: Your Villains have +1 Power."
    assert rendered["Black Market Dealer"]["text"] == "+1 Power. Ongoing: Cards cost 1 less for you."
    # the tour's 'printed mark "attacks can't be avoided" as "your Attacks can't be avoided"'
    assert rendered["Relentless Assault"]["text"] == "+2 Power. Ongoing: Your Attacks can't be avoided."


def test_a_static_trigger_with_another_body_renders_as_whenever(tmp_path: Path) -> None:
    path = tmp_path / "x.cards"
    path.write_text('expansion "x"\nuses "injustice"\n' + STATIC, encoding="utf-8")
    out = CliRunner().invoke(main, ["render", str(path), "--format", "json"])
    assert out.exit_code == 0, out.output
    text = {c["name"]: c["text"] for c in json.loads(out.output)}["Spy"]
    assert text == ("+1 Power. Ongoing: Heroes cost 1 less for you. Each foe is marked “watched”. "
                    "Whenever you gain a card, draw a card.")


@pytest.mark.parametrize(("text", "code", "line", "message"), [
    ('card "Bad": hero\n  play: when you play a villain: +1 power\n', "CS204", 2,
     "'when you ...' inside an ability is a static rule: it holds only in a passive ability "
     "('ongoing:' with 'passive ongoing in played')"),
    ('card "Bad": hero\n  play: cards cost 1 less for you\n', "CS204", 2,
     "a modifier without 'this turn' is a static rule: it holds only in a passive ability "
     "('ongoing:' with 'passive ongoing in played')"),
    ('card "Bad": hero\n  ongoing: draw a card\n', "CS204", 2,
     "a passive 'ongoing' ability states what holds while the card is in play: this statement does "
     "something once"),
    ('card "Bad": hero\n  ongoing: when you play a vilain: +1 power\n', "CS201", 2,
     "unknown card type 'vilain'"),
])
def test_static_rule_mistakes_are_diagnostics(tmp_path: Path, text: str, code: str, line: int,
                                              message: str) -> None:
    errors = _compile_errors(tmp_path, text)
    assert [(d.code, d.span.line) for d in errors] == [(code, line)]
    assert errors[0].message == message


def test_static_rules_lower_to_the_card_and_valid_ir(tmp_path: Path) -> None:
    game = _compile(tmp_path, STATIC)
    card = next(c for c in game.cards if c.name == "Spy")
    rules = card.statics["ongoing"]
    assert [t.event for t in rules.triggers] == ["gain"]
    assert [(m[0], m[1], m[2]) for m in rules.modifiers] == [("cost", ("hero",), -1)]
    assert [(m[1], m[2]) for m in rules.marks] == [("watched", True)]
    assert card.abilities["ongoing"].stmts == []  # nothing left to run once
    ir = to_ir(game)
    assert validate_ir(ir) == []
    b = next(c for c in ir["cards"] if c["name"] == "Spy")
    assert b["statics"]["ongoing"]["triggers"][0]["event"] == "gain"
    assert "statics" not in next(c for c in ir["cards"] if c["name"] == "Heavy Punch")


def test_a_game_without_static_rules_arms_no_hook() -> None:
    from cardscript.runtime.game import Game

    game = Game(compile_game("injustice")[0], 2, [], 1)
    assert (game.static_events, game.static_attrs, game.static_marks) == (frozenset(), frozenset(), frozenset())


LOOPING_MARK = '''scenario "a static mark whose players filter on the same mark"
uses "injustice"
players 2
card "Odd": hero, cost 1
  ongoing: mark each foe not marked "odd" "odd"
do:
  move all "Odd" from the main-deck and the line-up to your played
expect each foe: they are marked "odd"
expect you are not marked "odd"
'''


def test_a_static_mark_reading_itself_does_not_loop(tmp_path: Path) -> None:
    """While the players of a static mark are selected, static marks are not seen."""
    result = _scenario(tmp_path, LOOPING_MARK)
    assert result.passed, result.diagnostics


# ---------------------------------------------------------------- computed attributes
def test_computed_vp_renders_the_printed_sentence_and_a_star(rendered: dict[str, dict]) -> None:
    card = rendered["Watchtower Archivist"]
    assert card["text"] == "+1 Power. This card is worth 1 VP for each Equipment in your deck."
    assert card["attributes"]["vp"] == "*"


@pytest.mark.parametrize(("text", "code", "message"), [
    ('card "Bad": hero\n  vp = sum of vp of all cards in your deck\n', "CS236",
     "the computed 'vp' of 'Bad' reads 'vp', which a card computes"),
    ('card "Bad": hero\n  vp = count all cards in your deck where vp of it > 1\n', "CS236",
     "the computed 'vp' of 'Bad' reads 'vp', which a card computes"),
    ('card "Bad": hero, vp 2\n  vp = 3\n', "CS203", "card 'Bad' gives 'vp' twice"),
    ('card "Bad": hero\n  worth = 3\n', "CS205", "unknown attribute 'worth' on card 'Bad'"),
    ('card "Bad": hero\n  character = 3\n', "CS204", "attribute 'character' holds text, not a number"),
])
def test_computed_attribute_mistakes_are_diagnostics(tmp_path: Path, text: str, code: str, message: str) -> None:
    errors = _compile_errors(tmp_path, text)
    assert [(d.code, d.span.line) for d in errors] == [(code, 2)]
    assert errors[0].message == message


def test_a_computed_attribute_read_while_it_is_computed_is_the_printed_one(tmp_path: Path) -> None:
    """The runtime guard behind CS236: a definition built without the checker cannot recurse."""
    from cardscript.runtime import effects as E
    from cardscript.runtime.game import Game

    game = _compile(tmp_path, 'card "Fort": location, cost 6\n  vp = count all cards in your deck with equipment\n')
    fort = next(c for c in game.cards if c.name == "Fort")
    fort.computed["vp"] = E.Arith("+", E.Const(1), E.AttrOf("vp", E.Cards("this")))
    g = Game(game, 2, [], 1)
    card = next(i for i, t in enumerate(g.card_type) if t == fort.index)
    assert g.attr_value(card, "vp") == 1  # its own vp, read inside, is the printed 0
    assert g.computing == set()


def test_computed_attributes_are_in_the_valid_ir(tmp_path: Path) -> None:
    game = _compile(tmp_path, 'card "Fort": location, cost 6\n  vp = 2 * count all cards in your deck with equipment\n')
    ir = to_ir(game)
    assert validate_ir(ir) == []
    fort = next(c for c in ir["cards"] if c["name"] == "Fort")
    assert list(fort["computed"]) == ["vp"]


# ---------------------------------------------------------------- zone-entry triggers
def test_zone_entry_triggers_render_and_format(rendered: dict[str, dict]) -> None:
    assert rendered["Watchtower Oracle"]["text"] == "When a Villain enters the Line-Up, charge your Meter."
    text = 'card "Recycler": hero, cost 3\n  when a card enters your discard: +1 power\n'
    assert format_text(text.replace("enters your", "enters  your")) == text


@pytest.mark.parametrize(("line", "code", "message"), [
    ("when a card enters their discard: +1 power", "CS204", "a zone-entry trigger names 'your ZONE' or 'the ZONE'"),
    ("when a card enters your line-up: +1 power", "CS204", "zone 'line-up' is shared: say 'the line-up'"),
    ("when a vilain enters the line-up: +1 power", "CS201", "unknown card type 'vilain'"),
    ("when a card enters the lineup: +1 power", "CS201", "unknown zone 'lineup'"),
])
def test_zone_entry_mistakes_are_diagnostics(tmp_path: Path, line: str, code: str, message: str) -> None:
    errors = _compile_errors(tmp_path, f'card "Bad": hero\n  {line}\n')
    assert [(d.code, d.span.line) for d in errors] == [(code, 2)]
    assert errors[0].message == message


def test_zone_entries_arm_only_the_zones_a_trigger_names(tmp_path: Path) -> None:
    from cardscript.runtime.game import Game

    assert Game(compile_game("injustice")[0], 2, [], 1).enter_zones == frozenset()
    game = _compile(tmp_path, 'card "Recycler": hero, cost 3\n  when a card enters your discard: +1 power\n')
    assert Game(game, 2, [], 1).enter_zones == frozenset({game.zone("discard").index})


def test_a_zone_entry_logs_an_event_only_when_listened_to(tmp_path: Path) -> None:
    """A game whose triggers name no zone logs exactly what it logged before (the golden
    set pins that); one that names the discard logs 'enters "discard"' for each entry."""
    import cardscript

    game = _compile(tmp_path, 'when a card enters your discard: nothing\n')
    result = cardscript.play_game(game, players=2, agents=["random"], seed=3)
    events = {e.get("event") for e in result.log if e.get("t") == "event"}
    assert 'enters "discard"' in events
    plain = cardscript.play_game(compile_game("injustice")[0], players=2, agents=["random"], seed=3)
    assert not any(str(e.get("event", "")).startswith("enters ") for e in plain.log)

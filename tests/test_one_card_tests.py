"""Primitives found writing examples/dc-classic-fan: a one-card count with filters
('count it where COND', 'count this ...', 'count the top card of ZONE ...': 1 or 0) and the
static trigger 'the first time you VERB a TYPE [where COND] during each of your turns'
(DC Locations). The scenarios tests/scenarios/language/a-condition-on-the-candidate-card-
as-a-number.scenario and static-first-time-each-turn.scenario play them."""

from __future__ import annotations

from pathlib import Path

import pytest
from snippets import compile_errors as _compile_errors
from snippets import compile_snippet as _compile

from cardscript.dsl.front.build import build
from cardscript.dsl.front.parse import parse
from cardscript.dsl.front.pipeline import to_ir, validate_ir
from cardscript.dsl.tools.fmt import format_text

CARDS = '''card "Arkham": location, cost 5
  ongoing: the first time you play a villain during each of your turns: draw a card

card "Tower": location, cost 5
  ongoing: the first time you play a card where cost of it >= 2 and cost of it <= 3 each turn: draw a card

card "Arrow": hero, cost 5
  play: +(count the top card of your deck with hero) power
  vp = 5 * count this where count all cards in your deck with hero >= 5
'''


def test_the_forms_format_idempotently() -> None:
    assert format_text(CARDS) == CARDS


def test_the_first_time_lowers_to_a_once_per_turn_trigger_with_its_filter(tmp_path: Path) -> None:
    game = _compile(tmp_path, CARDS)
    arkham = next(c for c in game.cards if c.name == "Arkham").statics["ongoing"].triggers[0]
    tower = next(c for c in game.cards if c.name == "Tower").statics["ongoing"].triggers[0]
    assert (arkham.event, arkham.first_time, arkham.your_turn, arkham.kind, arkham.where) == \
        ("play", True, True, ("villain",), None)
    assert (tower.first_time, tower.your_turn, tower.kind) == (True, False, ())
    assert tower.where is not None
    ir = to_ir(game)
    assert validate_ir(ir) == []
    t = next(c for c in ir["cards"] if c["name"] == "Tower")["statics"]["ongoing"]["triggers"][0]
    assert t["first_time"] and "where" in t
    assert "where" not in next(c for c in ir["cards"] if c["name"] == "Arkham")["statics"]["ongoing"]["triggers"][0]


@pytest.mark.parametrize("text", [
    # a 'where' after 'it' outside 'count' stays the enclosing selector's (no new meaning
    # for 'the targets of it where ...')
    'card "A": hero\n  play: draw (count all cards in the line-up where cost of it > 1 where cost of it < 5)\n',
    'card "B": hero\n  play: if (count it where cost of it > 1) == 1: draw a card\n',
])
def test_one_card_counts_parse(text: str) -> None:
    parse(text, "t.cards")


def test_the_filter_of_a_zone_of_it_stays_the_outer_selectors() -> None:
    script = build('card "A": hero\n  play: draw (count all cards in the discard of it where cost of it > 1)\n',
                   "t.cards")
    count = script.items[0].abilities[0].body.stmts[0].items[1].expr  # type: ignore[attr-defined]
    assert [f.kind for f in count.cards.filters] == ["where"]
    assert count.cards.zones[0].card.filters == ()


def test_prefer_on_a_one_card_count_is_a_diagnostic(tmp_path: Path) -> None:
    errors = _compile_errors(tmp_path, 'card "Bad": hero\n  play: draw (count it prefer highest cost of it)\n')
    assert [(d.code, d.span.line) for d in errors] == [("CS204", 2)]
    assert "a count of one card chooses nothing" in errors[0].message


def test_this_card_is_said_of_cards_not_players(tmp_path: Path) -> None:
    errors = _compile_errors(tmp_path, 'card "Bad": hero\n  play: if you are not this card: draw a card\n')
    assert [(d.code, d.span.line) for d in errors] == [("CS204", 2)]
    assert errors[0].message == "a player is not 'is (not) this card': that is said of cards"


def test_the_first_time_outside_a_passive_ability_is_a_diagnostic(tmp_path: Path) -> None:
    text = 'card "Bad": hero\n  play: the first time you play a villain each turn: draw a card\n'
    errors = _compile_errors(tmp_path, text)
    assert [(d.code, d.span.line, d.span.column) for d in errors] == [("CS204", 2, 9)]
    assert errors[0].message.startswith("'the first time you ...' inside an ability is a static rule")
    assert errors[0].hint == 'a trigger of the card itself is a line of its own: when "play" first time each turn: ...'


def test_a_card_triggers_first_time_on_a_static_rule_gets_a_hint(tmp_path: Path) -> None:
    text = 'card "Bad": location\n  ongoing: when you play a villain first time each turn: draw a card\n'
    errors = _compile_errors(tmp_path, text)
    assert [(d.code, d.span.line, d.span.column) for d in errors] == [("CS101", 2, 47)]
    assert errors[0].message == "unexpected 'each'"
    assert errors[0].hint == ("once a turn, a static rule reads 'the first time you VERB a TYPE each turn: ...' "
                              "(or '... during each of your turns: ...')")

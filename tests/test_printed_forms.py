"""Printed forms of counters, events and zones (docs/language.md, "printed forms"):
``printed counter NAME as "TEMPLATE"``, ``printed event "NAME" as "TEMPLATE"`` and
``printed zone NAME as "TEXT"`` parse and check (an unknown name is CS201 with the nearest
name as a hint), and ``cardscript render`` words the built-in cards through them instead
of the counter's, the event's and the zone's names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from snippets import compile_errors

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build import build
from cardscript.dsl.front.pipeline import compile_game
from cardscript.dsl.tools.render import load, render_program

GOOD = """printed counter damage-bonus as "increase damage you deal to foes by {N}"
printed event "emptied a foe's health bar" as "you empty a foe's Health Bar"
printed zone super-move as "Super Move slot"
"""


def test_declarations_parse_into_printed_forms() -> None:
    items = build(GOOD, "snippet.rules").items
    forms = [(i.kind, i.name, i.template) for i in items if isinstance(i, A.PrintedForm)]
    assert forms == [
        ("counter", "damage-bonus", "increase damage you deal to foes by {N}"),
        ("event", "emptied a foe's health bar", "you empty a foe's Health Bar"),
        ("zone", "super-move", "Super Move slot"),
    ]


def test_good_declarations_check_clean(tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.rules"
    snippet.write_text(GOOD, encoding="utf-8")
    compile_game("injustice", extra=[snippet])  # raises on any error


def test_unknown_counter_is_cs201_with_a_hint(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, 'printed counter damage-bonnus as "more damage: {N}"\n')
    assert [(d.code, d.message) for d in errors] == [("CS201", "unknown counter 'damage-bonnus'")]
    assert "damage-bonus" in (errors[0].hint or "")


def test_unknown_event_is_cs201_with_a_hint(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, 'printed event "emptied a foe\'s helth bar" as "you empty a foe\'s Health Bar"\n')
    assert [(d.code, d.message) for d in errors] == [("CS201", 'unknown event "emptied a foe\'s helth bar"')]
    assert "emptied a foe's health bar" in (errors[0].hint or "")


def test_unknown_zone_is_cs201_with_a_hint(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, 'printed zone discrad as "discard pile"\n')
    assert [(d.code, d.message) for d in errors] == [("CS201", "unknown zone 'discrad'")]
    assert "discard" in (errors[0].hint or "")


@pytest.fixture(scope="module")
def injustice() -> dict[str, str]:
    return {c.name: c.text for c in render_program(load("injustice"))}


def test_the_joker_reads_its_ongoing_as_printed(injustice: dict[str, str]) -> None:
    text = injustice["Injustice The Joker"]
    assert "Ongoing: Increase damage you deal to foes by 1." in text
    assert "Damage Bonus" not in text


def test_harley_quinn_names_no_event(injustice: dict[str, str]) -> None:
    text = injustice["Harley Quinn"]
    assert text == "The first time you successfully attack each turn, draw a card."
    assert "successful attack" not in text and "happens" not in text


def test_hawkgirl_reads_as_the_rulebook(injustice: dict[str, str]) -> None:
    text = injustice["Injustice Hawkgirl"]
    assert "The first time you empty a foe's Health Bar each turn, draw a card." in text
    assert "emptied" not in text and "health bar" not in text


def test_the_flash_is_attacked_for_the_first_time_each_turn(injustice: dict[str, str]) -> None:
    text = injustice["Injustice The Flash"]
    assert text.startswith("The first time you are attacked each turn, you may discard a card")
    assert "The first time each turn" not in text


def test_templates_take_the_amount_and_the_card(tmp_path: Path) -> None:
    """{N} is the amount ("-1" when taken away), {C} "this card" for a trigger 'of this card'."""
    game = tmp_path / "game.rules"
    game.write_text(
        """game "Forms"
players 1 to 2
abilities play
zone deck: per player
zone played: per player, play zone, active
counter luck: per player, 0
printed counter luck as "your luck changes by {N}"
printed event "flipped" as "{C} is flipped over"
effect flip over:
  emit "flipped"
card "Coin": hero
  play: -2 luck
  when "flipped" of this card: +1 luck
turn:
  flip over
""",
        encoding="utf-8",
    )
    coin = next(c for c in render_program(load(str(game))) if c.name == "Coin")
    assert coin.paragraphs == ("Your luck changes by -2.", "When this card is flipped over, your luck changes by 1.")


def test_zones_read_as_the_cards_name_them(injustice: dict[str, str]) -> None:
    """'printed zone discard as "discard pile"' (dc-core): Nightwing's Defense as the card
    reads it ("... from your discard pile into your hand"), the Line-Up and the main deck
    by their printed names."""
    assert "from your discard pile into your hand" in injustice["Injustice Nightwing"]
    assert "from the Line-Up" in injustice["Green Lantern Power Ring"]
    assert injustice["Mallet Bomb"].startswith("Play the top card of the main deck.")
    assert not [t for t in injustice.values() if re.search(r"\b(your|their) discard(?! pile)|Line Up|Main Deck", t)]


def test_unknown_mark_is_cs201_with_a_hint(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, 'printed mark "kod" as "you are out"\n')
    assert [(d.code, d.message) for d in errors] == [
        ("CS201", "unknown mark 'kod': no script marks a player or a card with it, or reads it")]
    assert "ko'd" in (errors[0].hint or "")


def test_a_mark_reads_as_printed_in_a_passive_and_an_active_ability(tmp_path: Path) -> None:
    """'printed mark "M" as "TEXT"': "Ongoing: Your Attacks can't be avoided." for a passive
    'mark you "M"', "TEXT this turn" for a statement; another player's mark keeps its name."""
    game = tmp_path / "game.rules"
    game.write_text(
        """game "Marks"
players 1 to 2
abilities play, ongoing
passive ongoing in played
zone deck: per player
zone played: per player, play zone, active
printed mark "unstoppable" as "your Attacks can't be avoided"
card "Relentless": hero
  play: mark you "unstoppable" this turn
  ongoing: mark you "unstoppable"
card "Taunt": hero
  play: mark each foe "unstoppable" this turn
turn:
  if you are marked "unstoppable": nothing
""",
        encoding="utf-8",
    )
    cards = {c.name: c for c in render_program(load(str(game)))}
    assert cards["Relentless"].paragraphs == ("Your Attacks can't be avoided this turn.",
                                              "Ongoing: Your Attacks can't be avoided.")
    assert cards["Taunt"].text == "Mark each foe “unstoppable” this turn."  # not "your Attacks ..."

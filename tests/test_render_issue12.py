"""``cardscript render`` of the issue-12 primitives: the English of each finding D of the
review of issue 12 (a where-clause at the end of its sentence, "for each foe who did",
"Twice", names capitalised in a grant's label, uncountable type names, lower-case modes,
a replaced call's block, a number slot of a replacement, "At the end of your turn")."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardscript.dsl.tools.render import load, render_program
from cardscript.dsl.tools.render.english import capitalise_sentences, plural

ROOT = Path(__file__).resolve().parent.parent

CARDS = '''expansion "Render Twelve"
uses "injustice"

card "Regime Checkpoint": villain, cost 4, vp 1, copies 2
  play:
    +1 power
    for each foe:
      they discard a card
      if they were affected: draw a card

card "Cyborg Uplink": equipment, cost 4, vp 1, copies 2
  play:
    +1 power
    2 times this turn, you may "destroy a card in your hand: +2 power" where count all cards in your hand > 0:
      destroy a card from your hand
      +2 power

card "Split Decision": villain, cost 5, vp 1, copies 2
  play: choose one: draw a card; or each foe gains a weakness; or draw 2 cards

card "Black Market Armory": villain, cost 3, vp 1, copies 2
  play:
    +1 power
    cards with equipment cost 2 less for you this turn

card "Regroup": super power, cost 6, vp 2, copies 2
  play: put up to (count players - 1) cards from your discard into your hand

card "Doubler": hero, cost 4, vp 1, copies 1
  instead of attack {T: players} {B: block}: B; B

card "Scout": hero, cost 3, vp 1, copies 1
  when "end of turn": draw (count all cards you gained this turn)
'''


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("render12")
    (folder / "cards.cards").write_text(CARDS)
    return {c.name: c.text for c in render_program(load(str(folder)))}


@pytest.fixture(scope="module")
def tour() -> dict[str, str]:
    return {c.name: c.text for c in render_program(load(str(ROOT / "examples" / "language-tour")))}


def test_where_clause_ends_the_sentence(texts: dict[str, str], tour: dict[str, str]) -> None:
    assert texts["Regroup"] == "Put up to X cards from your discard pile into your hand, where X is the number of your foes."
    assert tour["Half Measures"] == ("Put up to X cards from your discard pile into your hand, where X is half your "
                                     "Meter, rounded down.")


def test_they_were_affected_reads_who_did(texts: dict[str, str]) -> None:
    assert texts["Regime Checkpoint"] == "+1 Power. Each foe discards a card. Draw a card for each foe who did."
    assert "affected" not in texts["Regime Checkpoint"]


def test_grant_twice_and_label_names(texts: dict[str, str], tour: dict[str, str]) -> None:
    assert texts["Cyborg Uplink"] == "+1 Power. Twice this turn, you may destroy a card in your hand: +2 Power."
    assert "you may pay 3 Power: Gain the top card of the Main Deck." in tour["Deep Reserves"]


def test_uncountable_type_plural(texts: dict[str, str]) -> None:
    assert "Equipment cost 2 less for you this turn." in texts["Black Market Armory"]
    assert plural("Hero") == "Heroes" and plural("Villain") == "Villains" and plural("Equipment") == "Equipment"


def test_modes_are_lower_case(texts: dict[str, str], tour: dict[str, str]) -> None:
    assert texts["Split Decision"] == "Choose one: draw a card; or each foe gains a Weakness; or draw 2 cards."
    assert tour["Field Commander"].startswith("+1 Power. Choose one: draw a card, then")
    assert capitalise_sentences("Surge (2): draw a card. if you do, x") == "Surge (2): Draw a card. If you do, x"


def test_replaced_block_is_its_effect(texts: dict[str, str]) -> None:
    assert texts["Doubler"] == "If you would attack a player, instead resolve its effect twice."


def test_number_slot_of_a_replacement(tour: dict[str, str]) -> None:
    assert "The first time each turn a foe would draw a card, instead" in tour["Jammed Signal"]


def test_end_of_turn_trigger(texts: dict[str, str], tour: dict[str, str]) -> None:
    assert texts["Scout"] == "At the end of your turn, draw a card for each card you gained this turn."
    assert "At the end of your turn, draw a card for each card you gained this turn with a different name" \
        in tour["Talent Scout"]


def test_a_card_named_with_an_english_word_leaves_the_word_alone(tmp_path: Path) -> None:
    """A card named "A" (or "It") is still printed by its name where it is named, but the
    words "a" and "it" of other cards' text stay English words: "Draw a card", never
    "Draw A card" (a fan set's bug report)."""
    (tmp_path / "cards.cards").write_text('expansion "Words"\nuses "injustice"\n\n'
                                          'card "A": hero, cost 3, vp 1\n  play: draw a card\n'
                                          'card "It": hero, cost 2, vp 1\n  play: +1 power; destroy it\n'
                                          'card "Tough": hero, cost 3, vp 1\n  play: each foe gains a weakness\n')
    texts = {c.name: c.text for c in render_program(load(str(tmp_path)))}
    assert texts["A"] == "Draw a card."
    assert texts["It"] == "+1 Power. Destroy it."
    assert texts["Tough"] == "Each foe gains a Weakness."  # a one-word card name that is no English glue word


def test_any_number_of_cards_reads_as_printed(tmp_path: Path) -> None:
    """'destroy any number of cards from your hand' is printed back as written, not as
    the 'up to' count it is lowered to."""
    (tmp_path / "cards.cards").write_text('expansion "Any"\nuses "injustice"\n\n'
                                          'card "Purge": hero, cost 3, vp 1\n'
                                          '  play: destroy any number of cards from your hand\n')
    texts = {c.name: c.text for c in render_program(load(str(tmp_path)))}
    assert texts["Purge"] == "Destroy any number of cards in your hand."

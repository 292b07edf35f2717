"""Hints a fan-expansion author met on Injustice (bug reports of the 'dc-base-fan' pack):
each test names the message it had before and asserts the code, line, column and hint now.
CS202 hints pointed at the wrong fix ('else', a block effect without ':', a zone written
as printed), and so did the CS101 of a label written with a dash. (The ongoing triggers
of the same reports: tests/test_hints_ongoing.py.)
"""

from __future__ import annotations

from pathlib import Path

from cardscript.dsl.diagnostics import FOREIGN_WORDS
from snippets import check_pack as _diags


def _card(body: str) -> str:
    """A hero whose play ability is ``body`` (lines indented under 'play:'), from line 6."""
    return 'card "Jab": hero, cost 1\n  play:\n' + "".join(f"    {line}\n" for line in body.splitlines())


# ---------------------------------------------------------------- CS202 hints
def test_else_suggests_otherwise(tmp_path: Path) -> None:
    # was: hint "did you mean 'play {C: cards} {B: block}'?"
    found = _diags(tmp_path, _card("if your power > 3: draw a card\nelse: +1 power"))
    assert found == [("CS202", 7, 5, "no effect matches 'else'", FOREIGN_WORDS["else"])]
    assert "'otherwise:'" in FOREIGN_WORDS["else"]


def test_other_languages_words_get_the_languages_form(tmp_path: Path) -> None:
    assert _diags(tmp_path, _card("draw a card\nendif")) == [
        ("CS202", 7, 5, "no effect matches 'endif'", "a block ends where its indentation ends: remove the line")]
    assert [d[:3] + d[4:] for d in _diags(tmp_path, _card("if your power > 3 then draw a card"))] == [
        ("CS101", 6, 23, "an 'if' takes ':' where other languages write 'then': 'if COND: ...'")]
    # was: "did you forget ':' before the statements?"
    assert [d[:3] + d[4:] for d in _diags(tmp_path, _card("draw a card\nelif your power > 2: +1 power"))] == [
        ("CS101", 7, 21, FOREIGN_WORDS["elif"])]


def test_an_effect_of_the_scripts_wins_over_the_table(tmp_path: Path) -> None:
    # the table is for words no effect starts with: a pack's own 'while ...' keeps its hint
    text = 'effect while away:\n  draw a card\n' + _card("while awy")
    found = _diags(tmp_path, text)
    assert [(c, line, col, hint) for c, line, col, _, hint in found if c == "CS202"] == [
        ("CS202", 8, 5, "did you mean 'while away'?")]


def test_a_block_effect_without_its_colon_says_so(tmp_path: Path) -> None:
    # was: hint "did you mean 'discard a card'?"
    assert _diags(tmp_path, _card("attack each foe they discard a card")) == [
        ("CS202", 6, 5, "no effect matches 'attack each foe they discard a card'",
         "did you forget ':'? 'attack {T: players} {B: block}' opens a block: write "
         "'attack each foe: they discard a card'")]


def test_words_after_a_block_effect_that_are_no_statement_keep_the_closest_pattern(tmp_path: Path) -> None:
    found = _diags(tmp_path, _card("play a card from your hand twice"))
    assert [(c, line, col, hint) for c, line, col, _, hint in found] == [
        ("CS202", 6, 5, "did you mean 'play {C: cards}'?")]


def test_a_zone_with_spaces_for_its_hyphens_is_told_how_it_is_written(tmp_path: Path) -> None:
    # was: hint "did you mean 'move {C: cards} to {Z: zone}'?" and nothing about the zone
    assert _diags(tmp_path, _card("move the top card of the main deck to your hand")) == [
        ("CS202", 6, 5, "no effect matches 'move the top card of the main deck to your hand'",
         "the zone is written 'main-deck' ('the main-deck'), not 'main deck'; "
         "did you mean 'move {C: cards} to {Z: zone}'?")]
    assert _diags(tmp_path, _card("move the top card of the main-deck to your hand")) == []


def test_a_zone_by_its_printed_name_is_told_how_it_is_written(tmp_path: Path) -> None:
    # 'printed zone discard as "discard pile"' (dc-core): the script writes 'your discard'
    found = _diags(tmp_path, _card("put a card from your discard pile into your hand"))
    assert [(c, line, col, hint) for c, line, col, _, hint in found] == [
        ("CS202", 6, 5, "the zone is written 'discard' ('your discard'), not 'discard pile'; "
                        "did you mean 'put {C: cards} into your hand'?")]


def test_the_zone_hint_reads_the_packs_own_declarations(tmp_path: Path) -> None:
    # nothing of a game in the check: a zone and printed name the pack declares are found too
    zone = 'zone cold-storage: shared, public\nprinted zone cold-storage as "The Vault"\n'
    found = _diags(tmp_path, zone + _card("move the top card of the cold storage to your hand\n"
                                          "move all cards from the cold-storage to your hand"))
    assert [(c, line, col, hint) for c, line, col, _, hint in found] == [
        ("CS202", 8, 5, "the zone is written 'cold-storage' ('the cold-storage'), not 'cold storage'; "
                        "did you mean 'move {C: cards} to {Z: zone}'?")]
    # a zone reference by the printed name was CS201 with the code's general hint
    found = _diags(tmp_path, zone + _card("move the top card of the vault to your hand\n"
                                          "move all cards from the cold-storage to your hand"))
    assert found == [("CS201", 8, 26, "unknown zone 'vault'",
                      "the zone is written 'cold-storage' ('the cold-storage'), not 'vault'")]


# ---------------------------------------------------------------- labels with a dash
FIRST_APPEARANCE = ('card "A": villain, super-villain, level 2, cost 9, vp 4\n  play: +3 power\n'
                    '  {}: each player gains a weakness\n')


def test_a_label_written_with_a_dash_is_told_the_label(tmp_path: Path) -> None:
    # was: hint "did you forget ':' before the statements?"
    found = _diags(tmp_path, FIRST_APPEARANCE.format("first appearance - attack"))
    assert [d[:3] + d[4:] for d in found] == [
        ("CS101", 6, 20, "an ability label is words with no dash: write 'first appearance attack:'")]
    found = _diags(tmp_path, FIRST_APPEARANCE.format("first appearance \u2013 attack"))  # as printed
    assert [d[:3] + d[4:] for d in found] == [
        ("CS101", 6, 20, "an ability label is words with no dash: write 'first appearance attack:'")]
    assert _diags(tmp_path, FIRST_APPEARANCE.format("first appearance attack")) == []


def test_a_minus_in_a_statement_keeps_its_hint(tmp_path: Path) -> None:
    found = _diags(tmp_path, _card("draw 1 - 2"))
    assert [d[:3] + d[4:] for d in found] == [("CS101", 6, 12, "did you forget ':' before the statements?")]

"""``subtypes WORDS``: labels a ruleset declares beside its card types. A subtype is named
on a card line and tested by ``with`` / ``has`` / kind words like a type, but ``count
types of`` does not count it (DC rulebooks: Injustice 001 "Card Details", "VILLAIN ·
SUPER-VILLAIN"; Justice League Dark 000 "Nemesis Cards", "the Super-Villain and Super
Hero subtypes"; "Card Details", the "Transformed" subtype)."""

from __future__ import annotations

from pathlib import Path

import pytest
from snippets import compile_snippet, errors, run

from cardscript.dsl.diagnostics import CompileError
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build import build
from cardscript.dsl.front.pipeline import compile_game, to_ir, validate_ir
from cardscript.runtime.agents import ScriptedAgent
from cardscript.runtime.engine import Engine

# A game of no particular kind: 'boss' is a subtype. The turn scores the distinct card
# types in hand and keeps, in 'bosses', how many cards in hand have the subtype.
GAME = '''game "Kinds"
players 2
types hero, villain
{SUBTYPES}
zone hand: per player, public
counter score: per player, 0
counter bosses: per player, 0
card "Big Bad": villain, boss
card "Good Guy": hero
card "Thug": villain
setup:
  for each player: move all cards from the box to their hand
turn:
  +(count types of all cards in your hand) score
  +(count all cards in your hand with boss) bosses
  end game "done"
score:
  nothing
'''


def _game(tmp_path: Path, subtypes: str = "subtypes boss"):
    (tmp_path / "game.rules").write_text(GAME.replace("{SUBTYPES}", subtypes))
    d, diags, _ = compile_game(str(tmp_path))
    assert d is not None, diags
    return d


def _counters(d) -> tuple[int, int]:
    eng = Engine(d, 2, [ScriptedAgent([], strict=True), ScriptedAgent([], strict=True)], 1)
    eng.run()
    g = eng.game
    return g.get(d.counter("score").index, 0), g.get(d.counter("bosses").index, 0)


def test_subtypes_line_builds_a_types_declaration_marked_subtypes() -> None:
    items = build("types hero, super power\nsubtypes super-villain, super hero\n").items
    assert list(items) == [A.Types(items[0].span, ("hero", "super power")),
                           A.Types(items[1].span, ("super-villain", "super hero"), True)]
    assert not items[0].subtypes and items[1].subtypes


def test_a_subtype_is_tested_like_a_type_but_not_counted(tmp_path: Path) -> None:
    d = _game(tmp_path)
    big_bad = next(c for c in d.cards if c.name == "Big Bad")
    assert big_bad.types == {"villain", "boss"} and big_bad.subtypes == {"boss"}
    assert d.subtypes == ("boss",) and "boss" in d.types
    # hero and villain: 2 types; one card in hand has the subtype
    assert _counters(d) == (2, 1)


def test_declared_as_a_type_the_same_word_is_counted(tmp_path: Path) -> None:
    # what the subtype line fixes: declared with 'types', 'boss' is a third card type
    d = _game(tmp_path, "types boss")
    assert _counters(d) == (3, 1)


def test_a_word_declared_as_a_type_and_as_a_subtype_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "game.rules").write_text(GAME.replace("{SUBTYPES}", "subtypes boss, villain"))
    with pytest.raises(CompileError) as info:
        compile_game(str(tmp_path))
    found = [x for x in info.value.diagnostics if x.code == "CS203"]
    assert len(found) == 1 and "'villain' is declared as a type and as a subtype" in found[0].message
    assert found[0].span is not None and found[0].span.line == 4


def test_an_undeclared_word_on_a_card_line_is_still_unknown(tmp_path: Path) -> None:
    (tmp_path / "game.rules").write_text(GAME.replace("{SUBTYPES}", "subtypes bos"))
    with pytest.raises(CompileError) as info:
        compile_game(str(tmp_path))
    assert any(x.code == "CS201" and "'boss'" in x.message for x in info.value.diagnostics)


def test_the_ir_names_the_subtypes(tmp_path: Path) -> None:
    d = _game(tmp_path)
    ir = to_ir(d)
    validate_ir(ir)
    assert ir["subtypes"] == ["boss"]
    cards = {c["name"]: c for c in ir["cards"]}
    assert cards["Big Bad"]["subtypes"] == ["boss"] and "subtypes" not in cards["Thug"]


def test_dc_nemesis_labels_and_transformed_are_subtypes() -> None:
    inj = compile_game("injustice")[0]
    assert set(inj.subtypes) == {"super-villain", "super hero"}
    aquaman = next(c for c in inj.cards if c.name == "Aquaman (Earth-1)")
    assert aquaman.types == {"hero", "super hero"} and aquaman.subtypes == {"super hero"}
    jld = compile_game("justice-league-dark")[0]
    assert set(jld.subtypes) == {"super-villain", "super hero", "transformed"}


def test_injustice_type_count_leaves_out_super_hero_and_super_villain(tmp_path: Path) -> None:
    # Aquaman (Hero · Super Hero) and Lex Luthor (Villain · Super-Villain): 2 card types;
    # the kind word and 'with' still find them by their subtypes
    res = run(tmp_path, '''do:
  move all cards from your discard to the box
  move 1 "Aquaman (Earth-1)" from the box to your discard
  move 1 "Injustice Lex Luthor" from the box to your discard
expect count types of all cards in your discard == 2
expect count all super hero in your discard == 1
expect count all cards in your discard with super-villain or super hero == 2
expect all cards in your discard with villain has super-villain
''')
    assert res.passed, errors(res)


def test_a_subtype_is_a_type_argument_and_a_trigger_kind(tmp_path: Path) -> None:
    d = compile_snippet(tmp_path, '''effect tally {T: type}:
  +(count all cards in your discard with T) power

card "Tally": hero, cost 1
  play: tally "super hero"

when a super-villain enters the destroyed: +1 power
''')
    assert any(c.name == "Tally" for c in d.cards)

"""Static checks beyond syntax (dsl/tools/lint/): each warning, its code, line and column,
and no false positive on the built-in games."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardscript.dsl.front.pipeline import check_paths
from cardscript.dsl.diagnostics import CODES, render
from cardscript.dsl.report import WARNING_CODES

# A small game that lints clean; each case below appends lines to it (from line 31).
GAME = '''game "Tiny"
players 2 to 3
types hero, gadget
attribute cost = 0
abilities play
zone deck: per player, hidden, refill from discard
zone hand: per player, private
zone discard: per player, public
zone played: per player, public, play zone, active
counter power: per player, 0
counter charge: per player, 0..8
counter score: per player, 0
setup:
  for each player:
    move 5 cards from the box with hero or gadget to their deck
    they draw 2
turn:
  set your power to 0
  take actions
  move all cards from your played to your discard
action "play": choose a card from your hand:
  play it
effect draw {N: number}:
  repeat N: move the top card of your deck to your hand
  if you do: emit "draw"
effect burn {N: number} {B: block}:
  if your charge >= N: -N charge; B
card "Punch": hero, cost 1, copies 10
  play: +1 power; burn 1: +1 power
score:
  +(count all cards in your deck) score
'''
FIRST = GAME.count("\n") + 1  # the first line a case adds


def _lint(tmp_path: Path, extra: str, kind: str = "game") -> list:
    (tmp_path / "game.rules").write_text(GAME, encoding="utf-8")
    if kind == "game":
        (tmp_path / "game.rules").write_text(GAME + extra, encoding="utf-8")
    else:
        (tmp_path / "more.cards").write_text(f'expansion "More"\nuses "game.rules"\n{extra}', encoding="utf-8")
    rep = check_paths([str(tmp_path / ("game.rules" if kind == "game" else "more.cards"))])
    assert rep.errors == 0, [render(d, rep.sources) for d in rep.diagnostics]
    return rep.diagnostics


def test_the_small_game_lints_clean(tmp_path: Path) -> None:
    assert _lint(tmp_path, "") == []


CASES = [
    # (appended text, code, line offset from FIRST, column, words in the message)
    ('card "Spy": hero\n  when "drawn": +1 power\n', "CS501", 1, 8, "no rule or effect emits 'drawn'"),
    ('when "spotted": draw 1\n', "CS501", 0, 6, "this trigger never fires"),
    (('types wand\ncard "Gizmo": gadget\n  play: you may choose a card from your hand with gadget or play: nothing\n'
     'card "Wand": hero\n  play: choose a card from your hand with wand: nothing\n'), "CS502", 4, 38, "no card has 'wand'"),
    ('types wand\ncard "Probe": hero\n  play: if it has wand: draw 1\n', "CS502", 2, 12,
     "this condition is never true"),
    ('card "Overload": hero\n  play: burn 9: +2 power\n', "CS502", 1, 9, "'burn 9: +2 power' can never be met"),
    ('action "cash in" where your charge > 8: +1 score\n', "CS502", 0, 24, "'your charge > 8' is never true"),
    ('types relic\ncard "Lost": relic\n  play: draw 1\ncard "Found": hero\n', "CS504", 1, 1,
     "card 'Lost' never leaves the box"),
    ('when "draw": draw 1\n', "CS505", 0, 6, 'loop without bound: "draw" -> "draw"'),
    ('effect echo:\n  emit "ping"\nwhen "ping": echo\n', "CS505", 2, 6, '"ping" -> "ping" (through \'echo\')'),
    ('counter rage: per player, 0\n', "CS503", 0, 1, "counter 'rage' is never used"),
    ('zone vault: shared, hidden\n', "CS503", 0, 1, "zone 'vault' is never used"),
    ('types relic\n', "CS503", 0, 7, "type 'relic' is never used"),
    ('abilities ambush\n', "CS503", 0, 11, "ability label 'ambush' is never used"),
    ('attribute weight = 0\n', "CS503", 0, 1, "attribute 'weight' is never used"),
]


@pytest.mark.parametrize("extra,code,offset,column,words", CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_each_warning(tmp_path: Path, extra: str, code: str, offset: int, column: int, words: str) -> None:
    diags = _lint(tmp_path, extra)
    (d,) = [d for d in diags if d.code == code]
    assert d.severity == "warning"
    assert (d.span.line, d.span.column) == (FIRST + offset, column), render(d)
    assert words in d.message
    assert d.hint


def test_an_expansions_unused_keyword(tmp_path: Path) -> None:
    """A game's effects are vocabulary for its expansions; an expansion's are not."""
    diags = _lint(tmp_path, 'effect shout:\n  nothing\ncard "Spark": hero\n  play: +1 power\n', kind="expansion")
    (d,) = diags
    assert (d.code, d.span.file.endswith("more.cards"), d.span.line) == ("CS503", True, 3)
    assert d.message == "effect 'shout' is never used"


def test_first_time_each_turn_bounds_a_chain(tmp_path: Path) -> None:
    assert _lint(tmp_path, 'when "draw" first time each turn: draw 1\n') == []


def test_two_triggers_in_a_loop_give_one_warning(tmp_path: Path) -> None:
    diags = _lint(tmp_path, 'when "draw": emit "ping"\nwhen "ping": draw 1\n')
    (d,) = diags
    assert d.code == "CS505" and '"draw" -> "ping" -> "draw"' in d.message


def test_a_where_filter_can_take_a_card_out(tmp_path: Path) -> None:
    extra = 'types relic\ncard "Lost": relic, cost 3\nsetup:\n  move all cards from the box where cost of it == {} to the box\n'
    assert _lint(tmp_path, extra.format(3)) == []
    extra = extra.format(4)
    assert [d.code for d in _lint(tmp_path, extra)] == ["CS504"]


def test_the_lint_codes_are_documented_warnings() -> None:
    assert WARNING_CODES <= set(CODES)


@pytest.mark.parametrize("folder", ["cardscripts", "docs/examples", "examples"])
def test_builtin_scripts_and_examples_have_no_warning(folder: str) -> None:
    root = Path(__file__).resolve().parent.parent
    rep = check_paths([str(root / folder)])
    assert rep.diagnostics == [], "\n".join(render(d, rep.sources) for d in rep.diagnostics)


def test_a_card_file_the_game_does_not_use_is_named_by_check_until_uses_names_it(tmp_path: Path) -> None:
    """'check' checked a .cards file beside game.rules that 'uses' does not name, said
    nothing, and 'play' left its cards out (found by a new user's trial). check warns CS510 at
    the file, and the warning goes once 'uses' names it, when play has the card."""
    import shutil

    from cardscript.dsl.front.loader import resolve_game
    from cardscript.dsl.front.pipeline import check_paths, compile_game

    game = tmp_path / "injustice"
    shutil.copytree(resolve_game("injustice").parent, game)
    (game / "extra.cards").write_text('card "Extra Punch": hero, cost 2, vp 1\n  play: +2 power\n', encoding="utf-8")
    rep = check_paths([str(game)])
    (w,) = [d for d in rep.diagnostics if d.code == "CS510"]
    assert w.severity == "warning" and w.span is not None and w.span.file.endswith("extra.cards")
    assert "extra.cards" in w.hint and "'uses'" in w.hint
    assert "Extra Punch" not in {c.name for c in compile_game(str(game))[0].cards}
    rules = game / "game.rules"
    text = rules.read_text(encoding="utf-8")
    head, rest = text.split("\nuses ", 1)
    line, tail = rest.split("\n", 1)
    rules.write_text(f'{head}\nuses {line}, "extra.cards"\n{tail}', encoding="utf-8")
    assert not [d for d in check_paths([str(game)]).diagnostics if d.code == "CS510"]
    assert "Extra Punch" in {c.name for c in compile_game(str(game))[0].cards}

"""User mistakes become diagnostics with file, line, column, excerpt and a hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardscript.dsl.diagnostics import CompileError, render
from cardscript.dsl.front.pipeline import check_paths, compile_game
from cardscript.dsl.front.loader import resolve_game

GAME = '''game "Tiny"
players 2 to 2
types hero
attribute cost = 0
attribute vp = 0
abilities play
zone deck: per player, hidden, refill from discard
zone hand: per player, private
zone discard: per player, public
zone played: per player, public, play zone
counter power: per player, 0
counter score: per player, 0
turn:
  take actions
action "play": choose a card from your hand:
  play it
effect draw {N: number}:
  repeat N: move the top card of your deck to your hand
'''


def _check(tmp_path: Path, extra: str):
    (tmp_path / "game.rules").write_text(GAME + extra)
    rep = check_paths([str(tmp_path)])
    return [d for d in rep.diagnostics if d.severity == "error"], rep


def test_misspelt_zone_did_you_mean(tmp_path):
    errs, rep = _check(tmp_path, 'card "Punch": hero, copies 3\n  play: move all cards from your hnad to your discard\n')
    (d,) = errs
    assert (d.code, d.span.line) == ("CS201", 20)
    assert "unknown zone 'hnad'" in d.message and "did you mean 'hand'?" in d.hint
    text = render(d, rep.sources)
    assert "game.rules:20:" in text and "^" in text


def test_unknown_effect_did_you_mean(tmp_path):
    errs, _ = _check(tmp_path, 'card "Punch": hero\n  play: +1 power; drew 1\n')
    (d,) = errs
    assert d.code == "CS202" and d.span.line == 20 and "drew 1" in d.message
    assert "draw {N: number}" in d.hint


def test_unknown_counter(tmp_path):
    errs, _ = _check(tmp_path, 'card "Punch": hero\n  play: +1 powr\n')
    (d,) = errs
    assert d.code == "CS201" and d.span.line == 20 and "did you mean 'power'?" in d.hint


def test_wrong_argument_kind(tmp_path):
    errs, _ = _check(tmp_path, 'card "Punch": hero\n  play: draw your hand\n')
    (d,) = errs
    assert d.code == "CS204" and d.span.line == 20 and "must be number" in d.message


def test_unknown_attribute(tmp_path):
    errs, _ = _check(tmp_path, 'card "Punch": hero, price 3\n')
    (d,) = errs
    assert d.code == "CS205" and d.span.line == 19


def test_unknown_type(tmp_path):
    errs, _ = _check(tmp_path, 'card "Punch": heroo\n')
    (d,) = errs
    assert d.code == "CS201" and "did you mean 'hero'?" in d.hint


def test_duplicate_card(tmp_path):
    errs, _ = _check(tmp_path, 'card "Punch": hero\ncard "Punch": hero\n')
    (d,) = errs
    assert d.code == "CS203" and d.span.line == 20


def test_python_code_is_a_syntax_error(tmp_path):
    errs, _ = _check(tmp_path, 'card "Punch": hero\n  play: __import__("os").system("x")\n')
    (d,) = errs
    assert d.code == "CS101" and d.span.line == 20
    assert "Python" in d.hint


def test_unknown_game_is_a_diagnostic():
    with pytest.raises(CompileError) as info:
        resolve_game("injustise")
    (d,) = info.value.diagnostics
    assert d.code == "CS002" and "did you mean 'injustice'?" in d.hint


def test_missing_uses_file(tmp_path):
    (tmp_path / "game.rules").write_text(GAME.replace('players 2 to 2\n', 'players 2 to 2\nuses "nope.cards"\n'))
    with pytest.raises(CompileError) as info:
        compile_game(str(tmp_path))
    (d,) = info.value.diagnostics
    assert d.code == "CS001" and d.span.line == 3


def test_uses_outside_the_package_is_refused(tmp_path):
    game = tmp_path / "g"
    game.mkdir()
    (tmp_path / "secret.cards").write_text('card "S": hero\n')
    (game / "game.rules").write_text(GAME.replace('players 2 to 2\n', 'players 2 to 2\nuses "../secret.cards"\n'))
    with pytest.raises(CompileError) as info:
        compile_game(str(game))
    assert info.value.diagnostics[0].code == "CS003"


def test_builtin_scripts_check_clean():
    rep = check_paths(["cardscripts"])
    assert rep.errors == 0, [render(d, rep.sources) for d in rep.diagnostics]


def test_seat_is_read_only(tmp_path):
    errs, _ = _check(tmp_path, 'card "Punch": hero\n  play: set your seat to 3\n')
    (d,) = errs
    assert d.code == "CS204" and "read-only" in d.message and d.span.line == 20


def test_effect_defined_twice_even_with_renamed_parameters(tmp_path):
    errs, _ = _check(tmp_path, 'effect draw {M: number}:\n  nothing\n')
    (d,) = errs
    assert d.code == "CS203" and d.span.line == 19


def test_unknown_parameter_kind(tmp_path):
    errs, _ = _check(tmp_path, 'effect zap {X: numbr}:\n  nothing\n')
    assert errs[0].code == "CS204" and "did you mean 'number'?" in errs[0].hint


def test_zone_with_two_visibilities(tmp_path):
    errs, _ = _check(tmp_path, 'zone vault: shared, hidden, public\n')
    (d,) = errs
    assert d.code == "CS209" and d.span.line == 19


def test_shared_counter_read_as_yours(tmp_path):
    errs, _ = _check(tmp_path, 'counter pot: shared, 0\ncard "Punch": hero\n  play: if your pot > 0: nothing\n')
    (d,) = errs
    assert d.code == "CS204" and "say 'the pot'" in d.message


def test_diagnostics_doc_is_generated_from_the_code_table():
    from cardscript.dsl.diagnostics import diagnostics_markdown

    assert Path("docs/diagnostics.md").read_text(encoding="utf-8") == diagnostics_markdown(), \
        "run: python -m cardscript.dsl.diagnostics"


def test_a_game_may_replace_an_effect_of_its_ruleset(tmp_path):
    from cardscript.dsl.front.pipeline import to_ir

    (tmp_path / "lib.rules").write_text('ruleset "lib"\ncounter power: per player, 0\neffect zap:\n  +2 power\n')
    game = GAME.replace("counter power: per player, 0\n", "").replace('players 2 to 2\n', 'players 2 to 2\nuses "lib.rules"\n')
    (tmp_path / "game.rules").write_text(game + 'effect zap replaces:\n  +1 power\ncard "Z": hero\n  play: zap\n')
    d, diags, _ = compile_game(str(tmp_path))
    assert [x for x in diags if x.severity == "error"] == []
    (card,) = [c for c in to_ir(d)["cards"] if c["name"] == "Z"]
    call = card["abilities"]["play"]["Seq"]["stmts"][0]["Call"]
    assert call["effect"] == "zap"
    body = to_ir(d)["effects"]["zap"]["body"]
    assert body["Seq"]["stmts"][0]["CounterAdd"]["amount"] == {"Const": {"value": 1}}


def test_per_card_counter_needs_a_card(tmp_path):
    errs, _ = _check(tmp_path, 'counter damage: per card, 0\ncard "Punch": hero\n  play: +1 damage\n')
    (d,) = errs
    assert d.code == "CS204" and "+N damage on CARDS" in d.message


def test_per_card_zone_needs_a_card(tmp_path):
    errs, _ = _check(tmp_path, 'zone markers: per card\ncard "Punch": hero\n  play: move it to the markers\n')
    (d,) = errs
    assert d.code == "CS204" and "the markers of CARD" in d.message


def test_ast_cache_round_trip(tmp_path, monkeypatch):
    """A cached AST equals a fresh one; a broken cache entry is ignored, not trusted."""
    import cardscript.dsl.front.cache as cache
    from cardscript.dsl.front.build import build

    monkeypatch.setenv("CARDSCRIPT_CACHE", str(tmp_path))
    cache._disk_cache.cache_clear()
    cache._AST_CACHE.clear()
    text = 'card "A": hero, cost 3\n  play: +1 power\n'
    first = cache.build_cached(text, "a.cards")
    assert any(tmp_path.iterdir())
    cache._AST_CACHE.clear()
    again = cache.build_cached(text, "a.cards")
    assert again == build(text, "a.cards") == first
    for f in tmp_path.iterdir():
        f.write_bytes(b"not a pickle")
    cache._AST_CACHE.clear()
    assert cache.build_cached(text, "a.cards") == first
    cache._disk_cache.cache_clear()


def test_reference_doc_is_generated_from_the_compiler_tables():
    from cardscript.dsl.tools.reference import reference_markdown

    assert Path("docs/reference.md").read_text(encoding="utf-8") == reference_markdown(), \
        "run: python -m cardscript.dsl.tools.reference"


def test_words_quoted_in_grammar_comments_are_not_reserved():
    """The reserved words are the grammar's literals, not the words its comments quote
    ('"go first"', '"up to"' were listed as reserved words before)."""
    from cardscript.dsl.front.cache import grammar_code
    from cardscript.dsl.lsp.features import grammar_keywords

    code = grammar_code('a: "x" "y" // quoted "go first" here\n// "up to"\nb: "//" "z"  // "w"\n')
    assert code == 'a: "x" "y" \n\nb: "//" "z"  \n'
    text = Path("docs/reference.md").read_text(encoding="utf-8").split("Reserved words", 1)[1]
    reference = text.split("\n\n")[1]  # the list of reserved words, one paragraph
    for comment_only in ("go first", "up to", "are considered to happen between turns"):
        assert f"`{comment_only}`" not in reference and comment_only not in grammar_keywords()
    assert "`zone`" in reference and "zone" in grammar_keywords()


@pytest.mark.parametrize("typo", ["copeis", "copis"])
def test_a_misspelt_copies_suggests_copies(tmp_path, typo) -> None:
    """'copies' is a word of the card line, not a declared attribute: a typo of it must
    not be told 'did you mean cost?' (a fresh user's report)."""
    from cardscript.dsl.front.pipeline import check_paths as check

    script = tmp_path / "pack.cards"
    script.write_text(f'uses "injustice"\n\ncard "Kick": super power, cost 3, {typo} 3\n', encoding="utf-8")
    [d] = [d for d in check([str(script)]).diagnostics if d.code == "CS205"]
    assert d.hint == "did you mean 'copies'?"

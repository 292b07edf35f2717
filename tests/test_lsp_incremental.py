"""The language server's analysis without a client (issue 15): the item-by-item build is
the whole-file build, an unsaved buffer is checked in its game as `cardscript check`
checks the saved file, and positions name the right card, effect or declaration."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardscript.dsl.diagnostics import Span
from cardscript.dsl.files import overlay, read_text
from cardscript.dsl.front.cache import build_cached
from cardscript.dsl.front.loader import builtin_root
from cardscript.dsl.front.pipeline import check_paths
from cardscript.dsl.lsp import features as F
from cardscript.dsl.lsp import incremental
from cardscript.dsl.lsp.analysis import analyse

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p for folder in (builtin_root(), REPO / "examples") for p in folder.rglob("*")
                 if p.suffix in (".rules", ".cards", ".variant", ".scenario"))


def test_every_script_builds_item_by_item_to_its_whole_ast():
    assert len(SCRIPTS) > 40
    for path in SCRIPTS:
        text = read_text(path)
        whole = build_cached(text, str(path))
        inc = incremental.build_incremental(text, str(path))
        assert inc is not None, path
        assert inc.items == whole.items, path
        # the node equality ignores spans: compare those of every item and of its first level too
        assert [i.span for i in inc.items] == [i.span for i in whole.items], path
        assert incremental.shift(incremental.shift(whole, 3), -3).items == whole.items


def test_a_moved_item_is_shifted_not_parsed(monkeypatch: pytest.MonkeyPatch):
    text = 'ruleset "x"\ncounter score: per player, 0\n\neffect score {N: number}:\n  +N score\n'
    first = incremental.build_incremental(text, "moved.rules")
    assert first is not None
    calls = []
    real = incremental.cache.build
    monkeypatch.setattr(incremental.cache, "build", lambda t, n: calls.append(t) or real(t, n))
    moved = incremental.build_incremental("# a new first line\n" + text, "moved.rules")
    assert moved is not None and calls == ["# a new first line\nruleset \"x\"\n"]  # the edited item only
    effect = moved.items[-1]
    assert effect.span.line == first.items[-1].span.line + 1 == 5
    assert effect.body.stmts[0].span.line == 6  # inner spans moved too
    assert moved.items == first.items


def test_a_syntax_error_leaves_the_build_to_the_loader():
    assert incremental.build_incremental('ruleset "x"\ncounter score per player\n', "bad.rules") is None


def test_overlay_replaces_a_file_only_inside_the_block(tmp_path: Path):
    f = tmp_path / "a.rules"
    f.write_text('ruleset "disk"\n', encoding="utf-8")
    with overlay({str(f): 'ruleset "buffer"\r\n'}):
        assert read_text(f) == 'ruleset "buffer"\n'
        assert read_text(tmp_path / "." / "a.rules") == 'ruleset "buffer"\n'
    assert read_text(f) == 'ruleset "disk"\n'


@pytest.fixture
def game(tmp_path: Path) -> Path:
    shutil.copytree(builtin_root() / "injustice", tmp_path / "injustice")
    return tmp_path / "injustice"


def test_an_unsaved_buffer_is_checked_in_its_game_like_check(game: Path, tmp_path: Path):
    cards = game / "cards.cards"
    broken = read_text(cards).replace("+2 power; attack target foe", "+2 powr; attack target foe", 1)
    an = analyse(cards, broken)
    assert read_text(cards) != broken  # nothing written
    saved = tmp_path / "saved"
    shutil.copytree(game, saved)
    (saved / "cards.cards").write_text(broken, encoding="utf-8")
    want = [(d.code, d.message, d.span.line, d.span.column) for d in check_paths([str(saved)]).diagnostics
            if d.span is not None]
    got = [(d.code, d.message, d.span.line, d.span.column) for d in an.diagnostics if d.span is not None]
    assert got == want and got
    # a rule file's buffer breaks a card file: the card file's diagnostics come with it
    rules = game / "game.rules"
    an = analyse(rules, read_text(rules), {str(cards): broken})
    assert any(d.span is not None and d.span.file.endswith("cards.cards") for ds in an.elsewhere.values() for d in ds)


def test_positions_name_cards_effects_and_declarations():
    cards = builtin_root() / "injustice" / "cards.cards"
    text = read_text(cards)
    an = analyse(cards, text)
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith('card "Sword and Shield"'))
    card = F.target_at(an, n, lines[n].index("Sword"))
    assert card is not None and card.kind == "card" and card.span is not None and card.span.line == n + 1
    assert "Defense: Discard this card to avoid an Attack." in card.doc
    play = lines[n + 1]
    gain = F.target_at(an, n + 1, play.index("gain a weakness"))
    assert gain is not None and gain.kind == "effect" and gain.name == "gain a weakness"
    assert gain.span is not None and gain.span.file.endswith("core.rules")
    power = F.target_at(an, n + 1, play.index("power"))
    assert power is not None and power.kind == "counter" and "counter power" in power.doc
    assert F.target_at(an, n + 1, 0) is None  # the indentation names nothing
    move = F.target_at(an, *_find(lines, "move all cards from your deck to your discard"))
    assert move is not None and move.span is None and "built-in primitive" in move.doc
    symbols = F.symbols(an)
    assert [s.name for s in symbols if s.kind == "card"][:1] == ["Light Punch"]
    assert all(isinstance(s.span, Span) for s in symbols)


def test_hover_on_a_zone_shows_its_printed_name():
    core = builtin_root() / "dc-core" / "core.rules"
    text = read_text(core)
    an = analyse(core, text)
    zone = F.target_at(an, *_find(text.splitlines(), "discard: per player"))
    assert zone is not None and zone.kind == "zone" and zone.name == "discard"
    assert "printed as: discard pile" in zone.doc


def test_hover_on_a_mark_shows_its_printed_form():
    tour = Path(__file__).resolve().parent.parent / "examples" / "language-tour" / "ongoing.cards"
    text = read_text(tour)
    an = analyse(tour, text)
    line, col = _find(text.splitlines(), 'ongoing: mark you "attacks')
    mark = F.target_at(an, line, col + len('ongoing: mark you "'))
    assert mark is not None and mark.kind == "mark" and mark.name == "attacks can't be avoided"
    assert "printed as: your Attacks can't be avoided" in mark.doc


def _find(lines: list[str], needle: str) -> tuple[int, int]:
    for n, line in enumerate(lines):
        if needle in line:
            return n, line.index(needle) + 1
    raise AssertionError(needle)


def test_completion_offers_card_names_inside_a_string_only():
    cards = builtin_root() / "injustice" / "cards.cards"
    an = analyse(cards, read_text(cards))
    line = next(i for i, t in enumerate(an.text.splitlines()) if t.startswith('card "Sword'))
    inside = F.completions(an, line, len('card "S'))
    assert inside and {i.kind for i in inside} == {"card"}
    outside = F.completions(an, line + 1, len("  play: "))
    kinds = {i.kind for i in outside}
    assert {"card", "effect", "keyword", "zone", "counter", "attribute", "type", "label"} <= kinds
    attack = next(i for i in outside if i.label.startswith("attack {T"))
    assert attack.snippet and attack.insert == "attack ${1:T}:"


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                          check=False)


def test_check_does_not_import_pygls_and_lsp_without_it_is_a_usage_error():
    done = _run("import sys, atexit\n"
                "atexit.register(lambda: print('pygls' in sys.modules, file=sys.stderr))\n"
                "from cardscript.dsl.cli import main\n"
                "main(['check', 'cardscripts/injustice'])")
    assert done.returncode == 0 and done.stderr.strip().splitlines()[-1] == "False", done.stderr
    done = _run("import sys\nsys.modules['pygls'] = None\n"
                "from cardscript.dsl.cli import main\nmain(['lsp'])")
    assert done.returncode == 2 and "pip install 'cardscript[lsp]'" in done.stderr, done.stderr


@pytest.mark.parametrize("script", ["examples/injustice-fan/keywords.rules",
                                    "cardscripts/injustice/variants/short.variant",
                                    "examples/language-tour/scenarios/rules-trading-blows.scenario"])
def test_expansions_variants_and_scenarios_are_checked_with_their_game(script: str):
    path = REPO / script
    text = read_text(path)
    an = analyse(path, text)
    assert "Sword and Shield" in an.symbols.cards  # the game's cards are in scope
    broken = analyse(path, text + '\ncard "Bad": hero, cost 2\n  play: frobnicate 3\n')
    assert [d.code for d in broken.diagnostics] == ["CS202"]

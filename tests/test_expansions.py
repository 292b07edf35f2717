"""Expansions: manifests (dsl/tools/manifest.py), ``new expansion``, ``play --with`` and the
fan expansion in examples/injustice-fan."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.front.pipeline import check_paths, compile_game
from cardscript.dsl.diagnostics import render
from cardscript.dsl.tools.manifest import check_combination, load_expansions, read_manifest

ROOT = Path(__file__).resolve().parent.parent
FAN = ROOT / "examples" / "injustice-fan"
GOOD = 'name = "fan-pack"\nversion = "1.2.0"\ngame = "injustice"\n'


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


# ---------------------------------------------------------------- new expansion
@pytest.mark.parametrize("game", ["injustice", "justice-league-dark", "hero-dice-batman"])
def test_new_expansion_passes_check_test_and_play(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # every built-in game: Hero Dice's scaffold card never left the box (CS504), as its setup
    # takes out only the cards it names
    monkeypatch.chdir(tmp_path)
    code, out = _run("new", "expansion", "my-pack", "--for", game)
    assert code == 0, out
    made = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "my-pack").rglob("*") if p.is_file())
    assert made == ["my-pack/README.md", "my-pack/cards.cards", "my-pack/cardscript.toml",
                    "my-pack/scenarios/my-pack-sample.scenario"]
    code, out = _run("check", "my-pack")
    assert code == 0 and "0 error(s), 0 warning(s)" in out, out
    code, out = _run("test", "my-pack")
    assert code == 0 and out.rstrip().endswith("1 passed, 0 failed"), out
    code, out = _run("play", game, "--with", "my-pack", "-q", "--seed", "2")
    assert code == 0, out


@pytest.mark.parametrize("args,words", [
    (["new", "expansion", "My_Pack", "--for", "injustice"], "lower-case words"),
    (["new", "expansion", "pack", "--for", "injustise"], "unknown game 'injustise'"),
    (["new", "expansion", "pack"], "Missing option '--for'"),
    (["new", "expansion", "", "--for", "injustice"], "give the expansion a name"),  # was '. already exists'
    (["new", "expansion", ".", "--for", "injustice"], "give the expansion a name"),
])
def test_new_expansion_usage_errors(args: list[str], words: str, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _run(*args)
    assert code == 2 and words in out, out
    assert list(tmp_path.iterdir()) == []


def test_new_expansion_never_overwrites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pack").mkdir()
    code, out = _run("new", "expansion", "pack", "--for", "injustice")
    assert code == 2 and "already exists" in out


# ---------------------------------------------------------------- manifests
def _manifest(tmp_path: Path, text: str):
    (tmp_path / "cardscript.toml").write_text(text, encoding="utf-8")
    return read_manifest(tmp_path / "cardscript.toml")


def test_a_good_manifest(tmp_path: Path) -> None:
    m, diags = _manifest(tmp_path, GOOD + 'requires = ["other-pack >= 1.0"]\nconflicts = ["rival-pack"]\n')
    assert diags == [] and m is not None
    assert (m.name, m.version, m.game) == ("fan-pack", (1, 2, 0), "injustice")
    assert m.requires == (("other-pack", ">=", (1, 0)),) and m.conflicts == ("rival-pack",)


@pytest.mark.parametrize("text,code,line,column,words", [
    (GOOD + 'version = "2.0.0"\n', "CS004", 4, 18, "not valid TOML: cannot overwrite a value"),
    ('name = "fan-pack"\nversion = "1.0.0\n', "CS004", 2, 17, "not valid TOML"),
    ('name = "fan-pack"\nversion = "1.0"\ngame = "injustice"\n', "CS004", 2, 11, "bad value for version"),
    ('name = "Fan Pack"\nversion = "1.0.0"\ngame = "injustice"\n', "CS004", 1, 8, "bad value for name"),
    (GOOD + 'verison = "1.0.0"\n', "CS004", 4, 1, "unknown key 'verison'"),
    ('name = "fan-pack"\nversion = "1.0.0"\n', "CS004", 1, 1, "has no 'game'"),
    ('name = "fan-pack"\nversion = "1.0.0"\ngame = "injustise"\n', "CS002", 3, 8, "unknown game 'injustise'"),
    (GOOD + 'requires = ["ok", "Not OK"]\n', "CS004", 4, 19, "bad value for requires.1"),
    (GOOD + 'conflicts = "rival"\n', "CS004", 4, 13, "'rival' is not an array"),
])
def test_bad_manifests(tmp_path: Path, text: str, code: str, line: int, column: int, words: str) -> None:
    m, diags = _manifest(tmp_path, text)
    assert m is None
    d = diags[0]
    assert (d.code, d.span.line, d.span.column) == (code, line, column), render(d)
    assert words in d.message
    assert d.span.file.endswith("cardscript.toml")


def test_did_you_mean_for_a_key_and_a_game(tmp_path: Path) -> None:
    _, diags = _manifest(tmp_path, GOOD + 'verison = "1.0.0"\n')
    assert diags[0].hint == "did you mean 'version'?"
    _, diags = _manifest(tmp_path, GOOD.replace('"injustice"', '"injustise"'))
    assert diags[0].hint == "did you mean 'injustice'?"


def _pack(root: Path, name: str, extra: str = "", game: str = "injustice") -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "cardscript.toml").write_text(f'name = "{name}"\nversion = "1.0.0"\ngame = "{game}"\n{extra}')
    title = name.title()
    (folder / "cards.cards").write_text(f'expansion "{title}"\nuses "injustice"\n'
                                        f'card "{title} Card": hero, cost 2\n  play: +1 power\n')
    return folder


def test_requires_and_conflicts_when_combined(tmp_path: Path) -> None:
    a = _pack(tmp_path, "alpha", 'requires = ["beta >= 2.0"]\nconflicts = ["gamma"]\n')
    b = _pack(tmp_path, "beta")
    g = _pack(tmp_path, "gamma")
    _, diags = load_expansions("injustice", [str(a)])
    assert [d.code for d in diags] == ["CS005"] and "requires 'beta'" in diags[0].message
    assert diags[0].span.line == 4
    _, diags = load_expansions("injustice", [str(a), str(b)])
    assert "requires beta >= 2.0, not 1.0.0" in diags[0].message
    _, diags = load_expansions("injustice", [str(b), str(g)])
    assert diags == []
    ma, _ = read_manifest(a / "cardscript.toml")
    mg, _ = read_manifest(g / "cardscript.toml")
    assert ma is not None and mg is not None
    assert [d.message for d in check_combination([ma, mg], "injustice")][-1] == \
        "expansion 'alpha' cannot be played with 'gamma'"


def test_play_with_a_missing_requirement_is_a_diagnostic(tmp_path: Path) -> None:
    a = _pack(tmp_path, "alpha", 'requires = ["beta"]\n')
    code, out = _run("play", "injustice", "--with", str(a), "-q")
    assert code == 1 and "error[CS005]: expansion 'alpha' requires 'beta'" in out, out
    assert "Traceback" not in out


def test_play_with_a_missing_folder_is_a_usage_error() -> None:
    code, out = _run("play", "injustice", "--with", "no/such/pack", "-q")
    assert code == 2 and "CS001" in out


def test_an_expansion_may_use_its_own_scripts_when_added(tmp_path: Path) -> None:
    """With --with, an expansion's relative 'uses' stay inside its own package root."""
    a = _pack(tmp_path, "alpha")
    (a / "more.rules").write_text('expansion "Alpha"\nuses "injustice"\neffect shine:\n  +2 power\n')
    (a / "cards.cards").write_text('expansion "Alpha"\nuses "injustice", "more.rules"\n'
                                   'card "Alpha Card": hero, cost 2\n  play: shine\n')
    scripts, diags = load_expansions("injustice", [str(a)])
    assert diags == []
    d, _, _ = compile_game("injustice", extra=scripts)
    assert "Alpha Card" in {c.name for c in d.cards}


def test_check_a_folder_with_a_manifest_compiles_it_with_its_game(tmp_path: Path) -> None:
    a = _pack(tmp_path, "alpha")
    (a / "cards.cards").write_text('expansion "Alpha"\nuses "injustice"\ncard "Alpha Card": hero, cost 2\n'
                                   "  play: +1 powr\n")
    rep = check_paths([str(a)])
    (d,) = rep.diagnostics
    assert (d.code, d.span.line, d.hint) == ("CS201", 4, "did you mean 'power'?")


# ---------------------------------------------------------------- the fan expansion
def test_fan_expansion_checks_clean() -> None:
    rep = check_paths([str(FAN)])
    assert rep.diagnostics == [], "\n".join(render(d, rep.sources) for d in rep.diagnostics)


def test_fan_expansion_has_twelve_cards_a_keyword_and_a_scenario_per_card() -> None:
    scripts, diags = load_expansions("injustice", [str(FAN)])
    assert diags == []
    base, _, _ = compile_game("injustice")
    d, _, _program = compile_game("injustice", extra=scripts)
    new_cards = sorted({c.name for c in d.cards} - {c.name for c in base.cards})
    assert len(new_cards) >= 12
    keywords = re.findall(r"^effect (\w+)", (FAN / "keywords.rules").read_text(), re.MULTILINE)
    assert keywords and all(any(k in c.keywords for c in d.cards) for k in keywords)
    texts = [p.read_text() for p in sorted((FAN / "scenarios").glob("*.scenario"))]
    for name in new_cards:
        assert any(f'scenario "{name}' in t for t in texts), f"no scenario for {name}"


def test_play_and_replay_with_the_fan_expansion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    log = tmp_path / "game.jsonl"
    code, out = _run("play", "injustice", "--with", "examples/injustice-fan", "-q", "--seed", "3", "--log", str(log))
    assert code == 0, out
    header = json.loads(log.read_text().splitlines()[0])
    assert [(log.parent / w).resolve() for w in header["with"]] == [FAN.resolve()]  # found from any folder
    fan = {c.name for c in compile_game("injustice", extra=load_expansions("injustice", [str(FAN)])[0])[0].cards}
    moved = {json.loads(line).get("card") for line in log.read_text().splitlines()[1:]}
    assert moved & (fan - {c.name for c in compile_game("injustice")[0].cards})
    code, out = _run("replay", str(log))
    assert code == 0 and out.startswith("replay identical"), out


def test_an_expansion_for_another_game() -> None:
    from cardscript.dsl.front.loader import builtin_games

    other = next((g for g in builtin_games() if g != "injustice"), None)
    if other is None:
        pytest.skip("only one built-in game")
    m, _ = read_manifest(FAN / "cardscript.toml")
    assert m is not None
    (d,) = check_combination([m], other)
    assert d.code == "CS005" and d.message == f"expansion 'injustice-fan' is for 'injustice', not {other!r}"
    assert d.span is not None and d.span.line == 5


@pytest.mark.parametrize("files", [
    ["examples/injustice-fan/keywords.rules"],
    ["examples/injustice-fan/keywords.rules", "examples/injustice-fan/cards.cards"],
    ["examples/hero-dice-villain-pack/abilities.rules"],
])
def test_checking_an_expansions_files_one_by_one_is_checking_the_package(files) -> None:
    """pre-commit passes the changed files, not the folder: a keyword file alone must not
    warn that its effects are unused when the package's cards use them (CS502/CS503)."""
    from cardscript.dsl.front.pipeline import check_paths

    rep = check_paths([str(ROOT / f) for f in files])
    assert (rep.errors, rep.warnings) == (0, 0), [d.message for d in rep.diagnostics]


def test_the_games_own_folder_or_an_expansion_twice_is_one_usage_error(tmp_path: Path) -> None:
    """'--with' of the game's own scripts defined each card and rule a second time (77 CS203);
    the same expansion twice did too. Each is one usage error now, before any compiling."""
    from cardscript.dsl.front.loader import resolve_game

    own = str(resolve_game("injustice").parent)
    code, out = _run("play", "injustice", "--with", own, "-q")
    assert code == 2 and "is the folder of the game injustice itself, not an expansion" in out, out
    assert "CS203" not in out
    fan = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "fan")
    code, out = _run("play", "injustice", "--with", fan, "--with", fan + "/", "-q")
    assert code == 2 and "is given twice" in out, out
    code, out = _run("play", "injustice", "--with", fan, "-q", "--seed", "2")
    assert code == 0, out


def test_another_games_folder_or_script_with_with_is_one_error_not_a_flood() -> None:
    """'--with' of another game (Justice League Dark on Injustice) defined its zones,
    counters and rules a second time (a flood of CS203). It is one CS005 now, for its folder
    and for its game.rules alike, with the way to add its cards (--mix)."""
    from cardscript.dsl.front.loader import resolve_game

    other = resolve_game("justice-league-dark")
    for given in (str(other.parent), str(other)):
        code, out = _run("play", "injustice", "--with", given, "-q")
        assert code == 1 and "CS005" in out and "is a game (game.rules starts with 'game')" in out, out
        assert "--mix" in out and "CS203" not in out

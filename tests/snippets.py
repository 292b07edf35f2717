"""Helpers the tests share for small scripts written inline: compile one as an extra
script on Injustice, run one as a scenario; and a command run in a bounded subprocess.
(Imported as ``snippets``: pytest puts this folder on the path, as it has no
``__init__.py``.)"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardscript.dsl.diagnostics import CompileError
from cardscript.dsl.front.pipeline import compile_game
from cardscript.dsl.harness.scenario import ScenarioResult, run_scenario

#: the head of an inline scenario on Injustice for 2 players
HEAD = 'scenario "t"\nuses "injustice"\nplayers 2\n\n'


def compile_snippet(tmp_path: Path, text: str) -> Any:
    """``text`` compiled as an extra script on Injustice: the GameDefinition."""
    path = tmp_path / "snippet.cards"
    path.write_text(text, encoding="utf-8")
    return compile_game("injustice", extra=[path])[0]


def compile_errors(tmp_path: Path, text: str) -> list:
    """The error diagnostics of ``text`` compiled as an extra script on Injustice."""
    path = tmp_path / "snippet.cards"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CompileError) as info:
        compile_game("injustice", extra=[path])
    return [d for d in info.value.diagnostics if d.severity == "error"]


#: the head of an inline expansion of Injustice
PACK_HEAD = 'expansion "Fan"\nuses "injustice"\n\n'


def check_pack(tmp_path: Path, text: str) -> list[tuple[str, int, int, str, str]]:
    """(code, line, column, message, hint) of each diagnostic of ``cardscript check
    --format json`` on an expansion of one file, ``text`` after :data:`PACK_HEAD`."""
    import json

    from click.testing import CliRunner

    from cardscript.dsl.cli import main

    pack = tmp_path / "pack"
    pack.mkdir(exist_ok=True)
    (pack / "x.cards").write_text(PACK_HEAD + text, encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(pack), "--format", "json"])
    return [(d["code"], d["span"]["line"], d["span"]["column"], d["message"], d["hint"])
            for d in json.loads(res.output)]


def scenario(tmp_path: Path, text: str) -> ScenarioResult:
    """``text`` (a whole scenario) run."""
    path = tmp_path / "t.scenario"
    path.write_text(text, encoding="utf-8")
    return run_scenario(path)


def run(tmp_path: Path, body: str) -> ScenarioResult:
    """``body`` run as a scenario after :data:`HEAD`."""
    return scenario(tmp_path, HEAD + body)


def errors(res: ScenarioResult) -> list[tuple[str, int, str]]:
    """A scenario's errors as (code, line, message)."""
    return [(d.code, d.span.line if d.span else 0, d.message) for d in res.diagnostics if d.severity == "error"]


def run_bounded(*args: str, cwd: Path | None = None, timeout: float = 60) -> tuple[int, str]:
    """A command in a subprocess with a timeout and a 2 GB memory limit: a hang or a flood fails."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    try:
        p = subprocess.run([sys.executable, "-m", "cardscript.dsl.cli.main", *args], cwd=cwd, capture_output=True,
                           text=True, timeout=timeout, preexec_fn=limit, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"cardscript {' '.join(args)} did not finish in {timeout} s")
    return p.returncode, p.stdout + p.stderr

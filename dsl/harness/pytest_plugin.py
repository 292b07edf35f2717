"""pytest plugin (entry point ``pytest11``): collect ``*.scenario`` files as tests.

With cardscript installed, plain ``pytest`` in any repository runs its scenario
files; a failing expectation is reported as the compiler's diagnostic.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr  # what pytest's own repr_failure returns


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".scenario":
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        from cardscript.dsl.textsafe import terminal

        # the name is the script's: pytest prints it, so no control character may reach the terminal
        yield ScenarioItem.from_parent(self, name=terminal(_header_name(self.path)) or self.path.stem)


def _header_name(path: Path) -> str:
    """The name in the file's 'scenario "..."' header, read as text (not run)."""
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            s = line.strip()
            if s.startswith('scenario "') and s.count('"') >= 2:
                return s.split('"')[1]
    except (OSError, UnicodeDecodeError):
        pass
    return ""


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # No fixtures, as a doctest item has none; pytest-lsp's hook wrapper (in the test extra
        # for tests/test_lsp.py) fails every item that lacks this attribute.
        self.funcargs: dict[str, object] = {}

    def runtest(self) -> None:
        from cardscript.dsl.harness.scenario import run_scenario

        res = run_scenario(self.path)
        if not res.passed:
            from cardscript.dsl.diagnostics import render

            raise ScenarioFailed("\n".join(render(d, res.sources) for d in res.diagnostics))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario {self.name}"

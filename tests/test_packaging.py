"""One installed import package, ``cardscript`` (DESIGN: "One installed import package").

The source folders stay at the top of the repository and pyproject.toml maps them into
the package; these tests keep that mapping complete. ``.ci/run`` builds the wheel and
checks, from outside the repository, that it installs ``cardscript`` alone.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
MAPPED = {"dsl": "cardscript.dsl", "runtime": "cardscript.runtime", "grammar": "cardscript.grammar",
          "cardscripts": "cardscript.cardscripts", "api": "cardscript"}


def _source_packages() -> set[str]:
    """Every import package of the source folders, by the name it is installed under."""
    out = set()
    for folder, name in MAPPED.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            out.add(".".join((name, *rel.parts)))
    return out


def test_every_source_package_is_in_the_wheel() -> None:
    assert set(CONFIG["packages"]) == _source_packages()


def test_the_folders_map_into_one_package() -> None:
    assert CONFIG["package-dir"] == {name: folder for folder, name in MAPPED.items()}
    assert all(p == "cardscript" or p.startswith("cardscript.") for p in CONFIG["packages"])


def test_entry_points_name_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["cardscript"] == "cardscript.dsl.cli:main"
    assert project["entry-points"]["pytest11"]["cardscript"] == "cardscript.dsl.harness.pytest_plugin"


def _imports(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            out.append((node.lineno, "." * node.level + (node.module or "")))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
    return out


def test_no_import_of_the_source_folders_by_their_own_names() -> None:
    """``import dsl`` works only inside a checkout: installed, only ``cardscript.dsl`` exists."""
    bad = [f"{p.relative_to(ROOT)}:{line}: {mod}"
           for folder in ("dsl", "runtime", "api", "tests", "bench")
           for p in sorted((ROOT / folder).rglob("*.py"))
           for line, mod in _imports(p)
           if mod.split(".")[0] in ("dsl", "runtime", "grammar", "cardscripts")]
    assert bad == []


def test_runtime_never_imports_the_front_end() -> None:
    bad = [f"{p.relative_to(ROOT)}:{line}: {mod}" for p in sorted((ROOT / "runtime").rglob("*.py"))
           for line, mod in _imports(p) if mod.startswith("cardscript.dsl") or mod == "cardscript"]
    assert bad == []


def test_modules_stay_small() -> None:
    """STYLE: no module in dsl/ or runtime/ over 500 lines."""
    big = {str(p.relative_to(ROOT)): n for folder in ("dsl", "runtime") for p in sorted((ROOT / folder).rglob("*.py"))
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert big == {}


def test_public_names_resolve_and_load_lazily() -> None:
    import subprocess
    import sys

    import cardscript

    assert sorted(cardscript.__all__) == sorted(cardscript._WHERE)
    assert all(getattr(cardscript, name) is not None for name in cardscript.__all__)
    code = "import sys, cardscript.runtime.engine; print('lark' in sys.modules, 'cardscript.dsl' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"], "importing the runtime must not load the front end"


def test_shipped_ir_schema_is_generated_from_the_effect_classes() -> None:
    """dsl/front/ir_schema.json is what ``python -m cardscript.dsl.front.pipeline`` writes."""
    import json

    from cardscript.dsl.front.pipeline import generate_schema, ir_schema

    assert ir_schema() == json.loads(json.dumps(generate_schema())), \
        "the IR schema drifted: run python -m cardscript.dsl.front.pipeline"

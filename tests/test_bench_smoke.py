"""bench/run.py (issue 11): the one table of figures, its JSON, its parity checks, and
the rule of its CI smoke (``--quick``): it fails on an exception or a parity mismatch,
never on a timing. Nothing here asserts a speed."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def bench():
    """bench/run.py as a module (it puts bench/ at the end of sys.path, after the stdlib,
    so bench/profile.py cannot shadow the standard ``profile``)."""
    spec = importlib.util.spec_from_file_location("cardscript_bench_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def injustice():
    from cardscript.dsl.front.pipeline import compile_game

    return compile_game("injustice")[0]


def _no_processes(monkeypatch, bench):
    # the process rows spawn `cardscript check` (seconds): measured for real in .ci/run
    rows = [bench.W.Row("check-warm", "check cardscripts, warm", "run", 0.01, [0.01]),
            bench.W.Row("check-cold", "check cardscripts, cold", "run", 0.02, [0.02])]
    monkeypatch.setattr(bench.W, "process_rows", lambda runs: rows)


def _tiny(monkeypatch, bench):
    """One game per row, so that a whole run takes a few seconds."""
    small = {k: (*v[:4], 1, 1) for k, v in bench.GAME_ROWS.items()}
    monkeypatch.setattr(bench, "GAME_ROWS", small)
    monkeypatch.setattr(bench.W, "GOLDEN_SAMPLE", ("injustice/2p/random/1", "hero-dice-batman/1p/random/1"))


def test_quick_run_writes_every_figure_as_json(bench, monkeypatch, tmp_path):
    _no_processes(monkeypatch, bench)
    _tiny(monkeypatch, bench)
    out = tmp_path / "figures.json"
    assert bench.main(["--quick", "--minideck-games", "3", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    keys = {r["key"] for r in data["rows"]}
    assert set(bench.GAME_ROWS) <= keys
    assert {"minideck-cardscript-random", "minideck-handwritten-greedy", "snapshot-4p", "check-warm",
            "check-cold"} <= keys
    assert data["failures"] == []
    assert data["parity"]["golden-sample"] == "identical"
    assert data["parity"]["minideck-random"] == data["parity"]["minideck-greedy"] == "identical"
    rows = {r["key"]: r for r in data["rows"]}
    inj = rows["injustice-2p-random"]
    assert inj["seconds"] > 0 and inj["decisions"] > 0 and inj["calls_per_decision"] > 10
    assert inj["us_per_decision"] == pytest.approx(inj["seconds"] / inj["decisions"] * 1e6)
    hand = rows["minideck-handwritten-random"]
    assert hand["hand_ratio"] == 1.0
    assert inj["hand_ratio"] == pytest.approx(inj["seconds"] / hand["seconds"])
    assert rows["check-warm"]["hand_ratio"] == pytest.approx(0.01 / hand["seconds"])
    assert not list(tmp_path.glob(".*.tmp"))  # the temporary file was renamed into place


def test_quick_never_fails_on_a_timing(bench, monkeypatch, tmp_path):
    _no_processes(monkeypatch, bench)
    _tiny(monkeypatch, bench)
    impossible = {k: ("min", 1e12, "impossible") for k in bench.GAME_ROWS}
    monkeypatch.setattr(bench, "TARGETS", impossible)
    out = tmp_path / "f.json"
    assert bench.main(["--quick", "--minideck-games", "3", "--json", str(out), "--fail-on-miss"]) == 0
    assert any(r["passed"] is False for r in json.loads(out.read_text())["rows"])


def test_a_changed_golden_hash_fails_the_run(bench, monkeypatch, tmp_path):
    import golden

    real = json.loads(golden.GOLDEN.read_text())
    fake = tmp_path / "log_hashes.json"
    fake.write_text(json.dumps({**real, "injustice/2p/random/1": "0" * 16}))
    monkeypatch.setattr(golden, "GOLDEN", fake)
    assert bench.W.golden_mismatches(["injustice/2p/random/1", "hero-dice-batman/1p/random/1"]) == [
        f"injustice/2p/random/1: {'0' * 16} -> {real['injustice/2p/random/1']}"]
    _no_processes(monkeypatch, bench)
    _tiny(monkeypatch, bench)
    assert bench.main(["--quick", "--minideck-games", "3"]) == 1


def test_a_minideck_parity_mismatch_fails_the_run(bench, monkeypatch):
    import handwritten

    monkeypatch.setitem(handwritten.CARDS, "Lab", handwritten.CARDS["Lab"]._replace(draw=1))
    with pytest.raises(AssertionError):
        bench.W.minideck_rows([1, 2, 3], "greedy", 1, 3, 1)
    _no_processes(monkeypatch, bench)
    _tiny(monkeypatch, bench)
    assert bench.main(["--quick", "--minideck-games", "3"]) == 1


def test_snapshot_row_is_na_until_the_runtime_has_snapshots(bench, injustice):
    from cardscript.runtime.game import Game

    if hasattr(Game, "snapshot"):
        pytest.skip("the runtime has Game.snapshot(): the row is measured (see the next tests)")
    row = bench.W.snapshot_row(injustice, 1, 6, 10, 1)
    assert row.seconds is None and row.target == "<= 50 µs"
    bench.apply_ratios_and_targets([row])
    assert bench.figure(row) == "n/a" and row.passed is None


def _deepcopy_snapshots(monkeypatch, broken: bool = False) -> None:
    """A slow but exact snapshot: a deep copy of the game's attributes (the definition
    shared); ``broken`` forgets the RNG, so a restored game goes another way."""
    from cardscript.runtime.game import Game

    def snapshot(self):
        return copy.deepcopy(self.__dict__, {id(self): self, id(self.d): self.d})

    def restore(self, snap):
        state = copy.deepcopy(snap, {id(self): self, id(self.d): self.d})
        if broken:
            state.pop("_rng")  # the game goes on with its RNG where the last run left it
            state.pop("_rng_shared")
        self.__dict__.update(state)

    monkeypatch.setattr(Game, "snapshot", snapshot, raising=False)
    monkeypatch.setattr(Game, "restore", restore, raising=False)


def test_snapshot_row_lights_up_and_checks_the_restored_game(bench, injustice, monkeypatch):
    _deepcopy_snapshots(monkeypatch)
    row = bench.W.snapshot_row(injustice, 1, 6, 3, 1)
    assert row.seconds is not None and row.seconds > 0
    assert row.note == "restored game identical"


def test_snapshot_parity_mismatch_is_caught(bench, injustice, monkeypatch):
    _deepcopy_snapshots(monkeypatch, broken=True)
    with pytest.raises(AssertionError, match="snapshot parity"):
        bench.W.snapshot_row(injustice, 1, 6, 3, 1)


def test_ci_runs_the_quick_bench():
    ci = (BENCH.parent / ".ci" / "run").read_text()
    assert "python bench/run.py --quick" in ci


def test_bench_does_not_shadow_the_standard_profile_module(bench):
    import profile

    assert Path(profile.__file__).resolve() != (BENCH / "profile.py").resolve()
    assert str(BENCH) in sys.path and sys.path.index(str(BENCH)) > 0


# ---------------------------------------------------------------- the check cache (issue 11, "check")
ROOT = BENCH.parent
CHECKED = ["cardscripts", "examples", "tests/broken",
           *sorted(f"tests/broken/{p.name}" for p in (ROOT / "tests" / "broken").iterdir())]


@pytest.fixture
def check_folder(tmp_path, monkeypatch):
    """An empty cache folder of the current user, nothing cached in memory, run from the
    repository root (the names in diagnostics are relative to it)."""
    from cardscript.dsl.front import cache, check_cache

    where = tmp_path / "cache"
    where.mkdir(mode=0o700)
    monkeypatch.setenv("CARDSCRIPT_CACHE", str(where))
    monkeypatch.chdir(ROOT)
    cache._disk_cache.cache_clear()
    cache._AST_CACHE.clear()
    check_cache._MEMORY.clear()
    yield where
    cache._disk_cache.cache_clear()
    cache._AST_CACHE.clear()
    check_cache._MEMORY.clear()


def _forget() -> None:
    """A new process, as far as the caches go: only the disk is left."""
    from cardscript.dsl.front import cache, check_cache

    cache._AST_CACHE.clear()
    check_cache._MEMORY.clear()


def _check(path: str) -> tuple:
    """Everything `cardscript check PATH` reports: diagnostics, files, sources, and its
    text and JSON outputs."""
    from cardscript.dsl.front.pipeline import check_paths
    from cardscript.dsl.report import format_diagnostics

    rep = check_paths([path])
    return (rep.diagnostics, rep.files, rep.sources, format_diagnostics(rep.diagnostics, "text", rep.sources),
            format_diagnostics(rep.diagnostics, "json", rep.sources))


@pytest.mark.parametrize("path", CHECKED)
def test_cached_check_reports_exactly_what_an_uncached_one_does(check_folder, monkeypatch, path):
    from cardscript.dsl.front import cache, pipeline

    previous = cache.set_disk_cache(False)
    try:
        uncached = _check(path)
    finally:
        cache.set_disk_cache(previous)
    _forget()
    cold = _check(path)  # computes and writes the entries
    _forget()
    computed = []
    real = pipeline._check_program
    monkeypatch.setattr(pipeline, "_check_program", lambda program: computed.append(program) or real(program))
    warm = _check(path)  # reads them
    assert cold == uncached
    assert warm == uncached
    assert computed == [], "a warm check computes no program again"


def test_the_builtin_games_are_checked_from_the_cache_when_warm(check_folder, monkeypatch):
    from cardscript.dsl.front import pipeline

    _check("cardscripts")
    entries = sorted(p.name for p in check_folder.iterdir() if p.name.startswith("check-"))
    assert len(entries) >= 3  # the three games, and their variants
    _forget()

    def fail(program):
        raise AssertionError(f"{program.main} was compiled and linted again")

    monkeypatch.setattr(pipeline, "_check_program", fail)
    monkeypatch.setattr(pipeline, "compile_program", fail)
    assert _check("cardscripts")[0] == []


def test_the_key_covers_every_source_and_the_compiler(monkeypatch):
    from cardscript.dsl.front import check_cache
    from cardscript.dsl.front.loader import load_program, resolve_game

    program = load_program(resolve_game("injustice"))
    key = check_cache.program_key("program", program)
    assert key == check_cache.program_key("program", load_program(resolve_game("injustice")))
    assert key != check_cache.program_key("scenario", program)
    name = next(iter(program.sources))
    edited = dict(program.sources, **{name: program.sources[name] + "\n"})
    monkeypatch.setattr(program, "sources", edited)
    assert check_cache.program_key("program", program) != key
    monkeypatch.setattr(program, "sources", dict(program.sources, **{name: program.sources[name][:-1]}))
    assert check_cache.program_key("program", program) == key
    monkeypatch.setattr(program, "mixed", frozenset({"other.cards"}))
    assert check_cache.program_key("program", program) != key
    monkeypatch.setattr(program, "mixed", frozenset())
    check_cache.compiler_version.cache_clear()
    real = check_cache.compiler_version()
    monkeypatch.setattr(check_cache, "compiler_version", lambda: real[::-1])
    assert check_cache.program_key("program", program) != key


def test_the_compiler_version_hashes_the_compiler_and_the_runtime():
    from cardscript.dsl.front import check_cache

    modules = check_cache._modules(ROOT / "dsl") + check_cache._modules(ROOT / "runtime")
    names = {p.relative_to(ROOT).as_posix() for p in modules}
    assert {"dsl/front/lower/__init__.py", "dsl/tools/lint/checks.py", "dsl/front/check.py",
            "runtime/engine.py", "dsl/diagnostics.py"} <= names
    assert len(check_cache.compiler_version()) == 64


def _entry_path(folder: Path, program) -> Path:
    from cardscript.dsl.front import check_cache

    return folder / f"check-{check_cache.program_key('program', program)[:32]}.json"


def _hostile_entries(key: str) -> dict[str, bytes]:
    good = {"severity": "warning", "code": "CS503", "message": "planted", "span": ["x.cards", 1, 1, 1, 2],
            "hint": "", "expected": []}

    def entry(**change: Any) -> bytes:
        data = {"format": 1, "key": key, "diagnostics": [good]}
        data.update(change)
        return json.dumps(data).encode()

    return {
        "not JSON": b"\x80{not json",
        "a list": b"[]",
        "another key": entry(key="0" * 64),
        "another format": entry(format=2),
        "an extra field": entry(extra=1),
        "a bool for a line": entry(diagnostics=[{**good, "span": ["x.cards", True, 1, 1, 2]}]),
        "a short span": entry(diagnostics=[{**good, "span": ["x.cards", 1]}]),
        "an unknown severity": entry(diagnostics=[{**good, "severity": "fatal"}]),
        "a number for a message": entry(diagnostics=[{**good, "message": 7}]),
        "a missing field": entry(diagnostics=[{k: v for k, v in good.items() if k != "hint"}]),
        "an object for expected": entry(diagnostics=[{**good, "expected": {"a": 1}}]),
        "nested deep": b'{"format": 1, "key": "k", "diagnostics": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    }


HOSTILE = sorted(_hostile_entries("k"))


@pytest.mark.parametrize("how", HOSTILE)
def test_a_hostile_check_entry_is_a_miss(check_folder, how):
    from cardscript.dsl.diagnostics import Diagnostic
    from cardscript.dsl.front import check_cache
    from cardscript.dsl.front.loader import load_program, resolve_game

    program = load_program(resolve_game("hero-dice-batman"))
    key = check_cache.program_key("program", program)
    _entry_path(check_folder, program).write_bytes(_hostile_entries(key)[how])
    assert check_cache._decode(_entry_path(check_folder, program).read_bytes(), key) is None
    computed = [Diagnostic("warning", "CS503", "computed")]
    assert check_cache.diagnostics_cached("program", program, lambda: computed) == computed
    check_cache._MEMORY.clear()  # and what was computed replaced the hostile entry
    assert check_cache.diagnostics_cached("program", program, lambda: []) == computed


def test_a_planted_entry_with_the_right_key_is_read(check_folder):
    """The control of the test above: a well-formed entry under the right key is what the
    cache returns (so the folder must be trusted: docs/cache.md, "What is refused")."""
    from cardscript.dsl.diagnostics import Diagnostic, Span
    from cardscript.dsl.front import check_cache
    from cardscript.dsl.front.loader import load_program, resolve_game

    program = load_program(resolve_game("hero-dice-batman"))
    key = check_cache.program_key("program", program)
    planted = (Diagnostic("warning", "CS503", "planted", Span("x.cards", 1, 1, 1, 2)),)
    _entry_path(check_folder, program).write_bytes(check_cache._encode(planted, key))
    assert check_cache.diagnostics_cached("program", program, lambda: []) == list(planted)


def test_an_untrusted_folder_is_neither_read_nor_written_for_checks(check_folder):
    from cardscript.dsl.diagnostics import Diagnostic
    from cardscript.dsl.front import check_cache
    from cardscript.dsl.front.loader import load_program, resolve_game

    program = load_program(resolve_game("hero-dice-batman"))
    key = check_cache.program_key("program", program)
    _entry_path(check_folder, program).write_bytes(
        check_cache._encode((Diagnostic("warning", "CS503", "planted"),), key))
    check_folder.chmod(0o770)
    before = sorted(p.name for p in check_folder.iterdir())
    assert check_cache.diagnostics_cached("program", program, lambda: []) == []
    check_cache._MEMORY.clear()
    other = load_program(resolve_game("injustice"))
    check_cache.diagnostics_cached("program", other, lambda: [])
    assert sorted(p.name for p in check_folder.iterdir()) == before


def test_no_cache_writes_no_check_entry(check_folder):
    from click.testing import CliRunner

    from cardscript.dsl.cli.main import main

    result = CliRunner().invoke(main, ["--no-cache", "check", "cardscripts/hero-dice-batman"])
    assert result.exit_code == 0, result.output
    assert list(check_folder.iterdir()) == []
    result = CliRunner().invoke(main, ["check", "cardscripts/hero-dice-batman"])  # control
    assert result.exit_code == 0, result.output
    assert any(p.name.startswith("check-") for p in check_folder.iterdir())


def test_check_entries_count_in_the_bounds(check_folder, monkeypatch):
    from cardscript.dsl.front import cache

    monkeypatch.setattr(cache, "MAX_ENTRIES", 4)
    _check("cardscripts/hero-dice-batman")
    names = [p.name for p in check_folder.iterdir()]
    assert len(names) == 4 and any(n.startswith("check-") for n in names)


def test_a_warm_check_imports_neither_parser_nor_lowering_nor_runtime(tmp_path):
    """`cardscript check` served from the cache imports only what it uses: not Lark, the
    lowering, the lint, the runtime, rich or jsonschema."""
    import os
    import subprocess

    where = tmp_path / "cache"
    where.mkdir(mode=0o700)
    code = ("import sys\nfrom cardscript.dsl.cli.main import main\nsys.argv = ['cardscript', 'check', 'cardscripts']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('MODULES:', ' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'rich', 'jsonschema') "
            "or m.startswith(('cardscript.runtime', 'cardscript.dsl.front.lower', 'cardscript.dsl.tools.lint', "
            "'cardscript.dsl.cli.playing')))))\n")
    env = {**os.environ, "CARDSCRIPT_CACHE": str(where)}
    cold = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    warm = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)

    def imported(out: str) -> set[str]:
        return set(out.split("MODULES:", 1)[1].split())

    assert {"lark", "cardscript.runtime", "cardscript.dsl.front.lower", "cardscript.dsl.tools.lint"} <= imported(
        cold.stdout), "the control: a cold check parses, lowers and lints"
    assert "0 error(s)" in warm.stdout
    assert imported(warm.stdout) == set()


def test_lint_walks_each_shared_ast_once_and_lists_each_time():
    from cardscript.dsl.front import ast as A
    from cardscript.dsl.front.loader import load_program, resolve_game
    from cardscript.dsl.tools.lint import facts

    program = load_program(resolve_game("hero-dice-batman"))
    script = program.scripts[-1]
    first = list(facts.walk(script))
    assert first and all(isinstance(n, A.Node) for n in first) and first[0] is script
    assert facts._WALKS[id(script)][0] is script  # kept for the next program that shares it
    assert list(facts.walk(script)) == first
    items = list(script.items)
    assert list(facts.walk(items)) == first[1:]
    assert id(items) not in facts._WALKS  # a list may change: never kept

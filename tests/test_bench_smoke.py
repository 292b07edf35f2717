"""bench/run.py (issue 11): the one table of figures, its JSON, its parity checks, and
the rule of its CI smoke (``--quick``): it fails on an exception or a parity mismatch,
never on a timing. Nothing here asserts a speed."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path

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
            state.pop("rng")  # the game goes on with its RNG where the last run left it
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

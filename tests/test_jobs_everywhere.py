"""Issue 14, "--jobs applies to every command that plays many games": ``cardscript test
--jobs N`` runs scenarios on N processes and reports them exactly as ``--jobs 1`` does
(the same text, the same JSON report, the same exit code), and the batch pool's runs
cover every seed once, in order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main

# process pools (--jobs 2) or a dask LocalCluster: one xdist worker runs all such tests, one at a time
# (pyproject's --dist loadgroup), so that two pools never share the machine's cores
pytestmark = pytest.mark.xdist_group("pools")

ROOT = Path(__file__).resolve().parent.parent
HD = ROOT / "tests" / "scenarios" / "hero-dice-batman"


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """A dozen scenarios that pass, one whose expectation is wrong and one that does not parse."""
    for f in sorted(HD.glob("*.scenario"))[:12]:
        (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    first = sorted(HD.glob("*.scenario"))[0].read_text(encoding="utf-8")
    (tmp_path / "HD-01x-wrong.scenario").write_text(first.replace("your hits == 5", "your hits == 6"),
                                                    encoding="utf-8")
    (tmp_path / "zz-broken.scenario").write_text('scenario "broken"\nuses "hero-dice-batman"\nexpect ==\n',
                                                 encoding="utf-8")
    return tmp_path


def test_test_jobs_2_prints_what_jobs_1_prints(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardscript.dsl.cli import scenarios

    monkeypatch.setattr(scenarios, "MIN_SCENARIOS_PER_WORKER", 2)  # a pool even for 14 files
    calls: list[int] = []
    real = scenarios.ProcessPoolExecutor

    def counted(workers: int, **kw: Any) -> Any:
        calls.append(workers)
        return real(workers, **kw)

    monkeypatch.setattr(scenarios, "ProcessPoolExecutor", counted)
    out = {}
    for fmt in ("text", "json"):
        one = _run("test", str(folder), "--format", fmt, "--jobs", "1")
        two = _run("test", str(folder), "--format", fmt, "--jobs", "2")
        assert one.exit_code == two.exit_code == 1
        assert one.output == two.output
        out[fmt] = one.output
    assert calls == [2, 2], "--jobs 2 ran on a pool, --jobs 1 did not"
    report = json.loads(out["json"])
    assert [r["passed"] for r in report].count(False) == 2 and len(report) == 14
    text = out["text"]
    assert text.endswith("12 passed, 2 failed\n") and "FAIL  HD-01 " in text and "zz-broken.scenario" in text
    assert text.index("HD-01x-wrong") < text.index("HD-02a"), "reported in the order of the files"


def test_a_few_scenarios_run_in_this_process() -> None:
    from cardscript.dsl.cli.scenarios import MIN_SCENARIOS_PER_WORKER

    r = _run("test", str(HD), "--jobs", "8")  # 29 files: fewer than 2 workers' worth
    assert r.exit_code == 0 and f"{len(list(HD.glob('*.scenario')))} passed, 0 failed" in r.output
    assert len(list(HD.glob("*.scenario"))) < 2 * MIN_SCENARIOS_PER_WORKER


@pytest.mark.parametrize(("games", "processes"), [(1, 2), (24, 2), (200, 2), (1000, 3), (10_000, 8)])
def test_the_runs_of_a_batch_cover_every_seed_once_in_order_shorter_towards_the_end(games: int,
                                                                                  processes: int) -> None:
    from cardscript.dsl.sim.pool import runs_of

    seeds = list(range(7, 7 + games))
    runs = runs_of(seeds, processes)
    assert [s for run in runs for s in run] == seeds
    sizes = [len(r) for r in runs]
    assert sizes == sorted(sizes, reverse=True) and max(sizes) <= 50
    assert len(runs) >= min(games // 2, 4 * processes), "enough runs for every process, and to balance the end"

"""Issue 14 ("Balance at scale"), the cluster backend: ``simulate --scheduler`` plays a
batch on dask.distributed with the same results as on this machine (a LocalCluster of 2
workers here), resumes and keeps going the same way, and every problem with the cluster
is a clear message, never a traceback."""

from __future__ import annotations

import importlib.metadata
import json
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main

# process pools (--jobs 2) or a dask LocalCluster: one xdist worker runs all such tests, one at a time
# (pyproject's --dist loadgroup), so that two pools never share the machine's cores
pytestmark = pytest.mark.xdist_group("pools")

ROOT = Path(__file__).resolve().parent.parent
UNSTABLE = str(ROOT / "tests" / "sim" / "unstable.cards")  # runs away in about half the games

pytest.importorskip("distributed", reason="the cluster backend needs cardscript[cluster] (the test extra has it)")


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _timeless(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_second")}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------- the same results
def test_a_local_cluster_prints_the_same_summary_and_writes_the_same_rows_as_jobs_1(tmp_path: Path) -> None:
    args = ["simulate", "injustice", "-n", "30", "--seed", "4", "--bots", "heuristic,random", "--with", UNSTABLE,
            "--keep-going", "--json"]
    one = _run(*args, "--jobs", "1", "--out", str(tmp_path / "one.jsonl"))
    dask = _run(*args, "--scheduler", "local", "--jobs", "2", "--out", str(tmp_path / "dask.jsonl"))
    assert one.exit_code == dask.exit_code == 1, (one.output, dask.output)  # some games run away: recorded
    a, b = json.loads(one.output), json.loads(dask.output)
    assert a["failed"] and a["games"] > 0 and len(a["failed"]) + a["games"] == 30
    assert _timeless(a) == _timeless(b)
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "dask.jsonl").read_bytes()


def test_resume_on_a_local_cluster_appends_the_missing_rows_of_a_cut_run(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    argv = ["simulate", "injustice", "-n", "24", "--seed", "9", "--players", "3"]
    assert _run(*argv, "--jobs", "1", "--out", str(whole)).exit_code == 0
    data = whole.read_bytes()
    cut.write_bytes(data[:data.index(b"\n", data.index(b'"seed": 15') ) + 30])  # up to seed 15, then a torn row
    r = _run(*argv, "--scheduler", "local", "--jobs", "2", "--out", str(cut), "--resume", "--json")
    assert r.exit_code == 0, r.output
    assert cut.read_bytes() == data and json.loads(r.output)["games"] == 24


def test_a_failing_game_stops_a_cluster_batch_at_the_same_seed_as_jobs_1() -> None:
    args = ["simulate", "injustice", "-n", "16", "--seed", "2", "--with", UNSTABLE]
    one, dask = _run(*args, "--jobs", "1"), _run(*args, "--scheduler", "local", "--jobs", "2")
    assert one.exit_code == dask.exit_code == 1
    stop = next(ln for ln in one.output.splitlines() if "failed; replay it with" in ln)
    assert stop in dask.output and "error[CS401]" in dask.output


def test_one_connection_plays_several_batches_in_seed_order() -> None:
    """The backend other commands (compare, a ladder) call: one cluster, many batches."""
    from cardscript.dsl.sim.cluster import connect
    from cardscript.dsl.sim.pool import play_seeds
    from cardscript.dsl.sim.spec import BatchSpec

    specs = [BatchSpec("injustice", 2, "heuristic"), BatchSpec("justice-league-dark", 3, "heuristic,random", detail=True)]
    with connect("local", 2) as cluster:
        assert cluster.workers() == 2
        for spec in specs:
            d = spec.compile()
            seeds = [8, 3, 5, 21, 13, 1, 2]  # any order: the rows come back in this order
            rows = list(play_seeds(spec, d, seeds, 1, scheduler=cluster))
            here = list(play_seeds(spec, d, seeds, 1))
            assert [r["seed"] for r in rows] == seeds and rows == here


def test_a_worker_with_other_scripts_refuses_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's fingerprint is patched here only: the workers (other processes) see
    their real scripts, which then differ, and say so rather than play another game."""
    from cardscript.dsl.sim import cluster as backend

    monkeypatch.setattr(backend, "scripts_fingerprint", lambda spec: "0123456789abcdef")
    r = _run("simulate", "injustice", "-n", "4", "--scheduler", "local", "--jobs", "1")
    assert r.exit_code == 1 and "scripts of injustice differ" in r.output and "Traceback" not in r.output, r.output


# ---------------------------------------------------------------- clear errors
def test_without_dask_the_message_says_to_install_the_cluster_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    r = _run("simulate", "injustice", "-n", "4", "--scheduler", "local")
    assert r.exit_code == 1 and "install cardscript[cluster]" in r.output and "Traceback" not in r.output, r.output


def test_an_unreachable_scheduler_is_an_error_after_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardscript.dsl.sim import cluster as backend

    monkeypatch.setattr(backend, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{_free_port()}"
    r = _run("simulate", "injustice", "-n", "4", "--scheduler", address)
    assert r.exit_code == 1 and f"cannot reach the dask scheduler at {address} within 1 s" in r.output, r.output
    r = _run("simulate", "injustice", "-n", "4", "--scheduler", "nowhere")
    assert r.exit_code == 1 and "is not a scheduler's address" in r.output, r.output
    r = _run("simulate", "injustice", "-n", "4", "--scheduler", " ")
    assert r.exit_code == 2 and "--scheduler" in r.output


class _Client:
    """A stand-in for distributed.Client: what its workers answer when asked their version."""

    def __init__(self, answer: Any):
        self.answer = answer

    def wait_for_workers(self, n: int, timeout: float) -> None:
        if self.answer is None:
            raise TimeoutError("no workers")

    def run(self, fn: Any, *args: Any) -> dict[str, str]:
        if isinstance(self.answer, Exception):
            raise self.answer
        return dict(self.answer)


@pytest.mark.parametrize(("answer", "message"), [
    (importlib.metadata.PackageNotFoundError("cardscript"), "lacks cardscript: install cardscript[cluster]"),
    ({"tcp://10.0.0.2:4001": importlib.metadata.version("cardscript"), "tcp://10.0.0.3:4001": "0.0.1"},
     "worker tcp://10.0.0.3:4001 runs cardscript 0.0.1"),
    (None, "has no worker after"),
])
def test_workers_without_cardscript_or_with_another_version_are_named(answer: Any, message: str) -> None:
    from cardscript.dsl.sim.cluster import Cluster, ClusterProblem, _check_workers

    with pytest.raises(ClusterProblem, match=message.replace("[", r"\[").replace("]", r"\]")):
        _check_workers(Cluster(_Client(answer), "tcp://10.0.0.1:8786"))
    _check_workers(Cluster(_Client({"w": importlib.metadata.version("cardscript")}), "tcp://10.0.0.1:8786"))


def test_a_worker_that_cannot_compile_the_batch_says_why() -> None:
    from cardscript.dsl.sim.cluster import ClusterProblem, _play_run
    from cardscript.dsl.sim.spec import BatchSpec

    spec = BatchSpec("injustice", 2, "heuristic", with_paths=("/nowhere/expansion.cards",))
    with pytest.raises(ClusterProblem, match="cannot compile injustice .*same scripts at the same paths"):
        _play_run(spec.to_json(), "0123456789abcdef", [1])

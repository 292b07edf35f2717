"""The speed-up of ``cardscript simulate --jobs N`` (issue 14): the same batch with 1
worker and with N, wall-clock time, each repeated; checks that both give the same rows.

    python bench/simulate_jobs.py                       # 200 Injustice games, --jobs 1 vs 2
    python bench/simulate_jobs.py --games 1000 --jobs 4 --repeat 3
    python bench/simulate_jobs.py --detail                # the rows of --out (per-seat card counts)
    python bench/simulate_jobs.py --scheduler local       # --jobs N on a dask LocalCluster instead

Prints the load average before and after: on a shared machine the figure is only as
good as the cores were idle (docs/scale.md quotes a run and its load).
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from cardscript.dsl.sim.pool import play_seeds
from cardscript.dsl.sim.spec import BatchSpec


def measure(spec: BatchSpec, games: int, jobs: int,
            scheduler: object = None) -> tuple[float, float, float, list[dict[str, object]]]:
    """Wall seconds, CPU seconds of this process and of its workers to play seeds
    1..games with ``jobs`` processes (the parent compiles once, as the command does), and the rows."""
    d = spec.compile()
    start, own, children = time.perf_counter(), _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    rows = list(play_seeds(spec, d, range(1, games + 1), jobs, None if jobs == 1 else scheduler))
    return (time.perf_counter() - start, _cpu(resource.RUSAGE_SELF) - own, _cpu(resource.RUSAGE_CHILDREN) - children,
            rows)


def _cpu(who: int) -> float:
    use = resource.getrusage(who)
    return use.ru_utime + use.ru_stime


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="injustice")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--bots", default="heuristic", help="bots per seat, cycled (default: heuristic, simulate's)")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--detail", action="store_true", help="per-seat card counts in each row, as --out writes")
    p.add_argument("--scheduler", help="'local': --jobs N on a dask LocalCluster started once (not timed); "
                   "its workers' CPU is not counted")
    a = p.parse_args()
    spec = BatchSpec(a.game, a.players, a.bots, detail=a.detail)
    if a.scheduler:
        from cardscript.dsl.sim.cluster import connect

        with connect(a.scheduler, a.jobs) as cluster:
            run(a, spec, cluster)
    else:
        run(a, spec, None)


def run(a: argparse.Namespace, spec: BatchSpec, scheduler: object) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    best = {1: float("inf"), a.jobs: float("inf")}
    cpu = {1: float("inf"), a.jobs: float("inf")}
    reference = None
    for _ in range(a.repeat):
        for jobs in (1, a.jobs):
            seconds, own, children, rows = measure(spec, a.games, jobs, scheduler)
            best[jobs], cpu[jobs] = min(best[jobs], seconds), min(cpu[jobs], own + children)
            reference = reference or rows
            assert rows == reference, "the rows differ between --jobs 1 and --jobs N"
            print(f"  --jobs {jobs}: {seconds:.2f} s wall, CPU {own:.2f} s here + {children:.2f} s in the workers")
    print(f"{a.games} {a.game} games: --jobs 1 {best[1]:.2f} s, --jobs {a.jobs} {best[a.jobs]:.2f} s "
          f"(best of {a.repeat}): {best[1] / best[a.jobs]:.2f}x; load average after: {os.getloadavg()[0]:.2f}")
    if scheduler is not None:  # a cluster's workers are not this process's children: their CPU is not seen
        print(f"CPU here (the dask client, and a LocalCluster's scheduler): {cpu[a.jobs]:.2f} s")
        return
    # What idle cores would give: the work spread over the workers, none of it waiting for a core.
    print(f"CPU: --jobs 1 {cpu[1]:.2f} s, --jobs {a.jobs} {cpu[a.jobs]:.2f} s in all (worker start-up included); "
          f"on {a.jobs} idle cores at most {cpu[1] / (cpu[a.jobs] / a.jobs):.2f}x")


if __name__ == "__main__":
    main()

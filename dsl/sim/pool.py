"""The games of a batch on a pool of worker processes (the standard library's
:class:`concurrent.futures.ProcessPoolExecutor`, ``spawn`` context).

A worker receives the batch as JSON text (:meth:`BatchSpec.to_json`) once, when it
starts, and compiles the game itself (from the parse cache, like any command): nothing
loaded from disk is ever pickled. It then receives runs of seeds and sends back each
game's row as JSON text. This process plays games too, while it waits: ``--jobs N``
is this process and N - 1 workers. The rows are handed on in seed order, whatever the
number of workers and whichever finishes first, so everything computed from them is the
same for ``--jobs 1`` and ``--jobs 8`` (docs/scale.md). The same rows come from a dask
cluster through :mod:`cardscript.dsl.sim.cluster`.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from cardscript.dsl.sim.games import play_seed
from cardscript.dsl.sim.spec import BatchSpec
from cardscript.runtime.definition import GameDefinition

#: Below this many games per worker, a worker's start (a Python process, the imports, the
#: game compiled from the cache: about a third of a second) costs more than it saves.
MIN_GAMES_PER_WORKER = 12

_worker: tuple[BatchSpec, GameDefinition] | None = None


class WorkerDied(Exception):
    """A worker process ended in the middle of its games (killed, out of memory): not a
    game's failure, so no seed is to blame; the games before it were handed on."""


def default_jobs() -> int:
    """Every core: ``os.cpu_count()`` (1 when unknown)."""
    return os.cpu_count() or 1


def workers_for(games: int, jobs: int) -> int:
    """How many processes, this one included, play ``games`` games with ``--jobs jobs``:
    at most ``jobs``, and at least :data:`MIN_GAMES_PER_WORKER` games each; 1 means no pool."""
    return max(1, min(jobs, games // MIN_GAMES_PER_WORKER))


def _init(spec_json: str) -> None:
    global _worker
    # Ctrl-C reaches the whole process group: this process stops the pool and says
    # "interrupted"; a worker ignores it (it printed a KeyboardInterrupt traceback each, and
    # a worker gone first made the command report a dead worker) and ends its run
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent(os.getppid())
    spec = BatchSpec.from_json(spec_json)
    _worker = (spec, spec.compile())
    # The worker lives for the batch: its compiled game never becomes garbage.
    gc.collect()
    gc.freeze()


def _watch_parent(parent: int) -> None:
    """End this worker within about a second of its parent's end: a parent killed
    (SIGTERM, SIGKILL, out of memory) cannot stop its pool, and its workers went on
    playing as orphans."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="cardscript-parent-watch", daemon=True).start()


@contextmanager
def settled() -> Iterator[None]:
    """Run a batch with every object alive now (the compiled game, its layouts, the
    parser) moved out of the cyclic garbage collector's sight (``gc.freeze``), and put
    back after (``gc.unfreeze``), so that nothing of the caller's leaks. Inside a freeze
    already made (a batch playing inside another, as compare's two sides may, or the
    caller's own) it does nothing, so it never undoes a freeze it did not make.

    Why: a full collection walks every tracked object, and a compiled game is tens of
    thousands of them; with many short games (Hero Dice: 884 per-card lists a game) the
    collector walked them again and again (Hero Dice 1 hero random: +45 % games/s frozen).
    Collection never changes a game: the same seeds play the same games either way.
    """
    if gc.get_freeze_count():
        yield  # frozen already (a batch inside a batch, or the caller's own freeze): theirs to undo
        return
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _play_run(seeds: list[int]) -> list[str]:
    assert _worker is not None, "the pool's initializer compiles the game first"
    spec, d = _worker
    return [json.dumps(play_seed(d, spec, s), sort_keys=True) for s in seeds]


def runs_of(seeds: Sequence[int], processes: int) -> list[list[int]]:
    """``seeds`` cut into runs, one task each, in order: long runs first, shorter ones
    towards the end (guided scheduling: each run a quarter of an even share of what is
    left, 2 to 50 games), so that the processes finish close together and a run's
    answer, one message, carries many games."""
    runs, i = [], 0
    while i < len(seeds):
        size = max(2, min(50, -(-(len(seeds) - i) // (processes * 4))))
        runs.append(list(seeds[i:i + size]))
        i += size
    return runs


def play_seeds(spec: BatchSpec, d: GameDefinition, seeds: Sequence[int], jobs: int,
               scheduler: Any = None) -> Generator[dict[str, Any], None, None]:
    """Play the games of ``seeds`` and yield their rows in the order of ``seeds``, on any
    backend: this process, a pool of processes, or a dask cluster. The rows are the same
    whichever (each game is the game of its seed), so callers (simulate, compare, a
    ladder) compute the same results from them.

    Args:
        spec: the batch; a worker compiles the game from it.
        d: the game, compiled here: this process plays games too.
        seeds: the games to play, one seed each.
        jobs: the most processes to use, this one included (``--jobs``): this process
            and ``jobs - 1`` workers; with a ``scheduler`` started here (``"local"``),
            the number of its workers.
        scheduler: None for this machine's processes; a dask scheduler's address
            (``tcp://host:port``), ``"local"`` (a LocalCluster of ``jobs`` workers) or a
            :class:`~cardscript.dsl.sim.cluster.Cluster` already open, to play on dask
            (:func:`cardscript.dsl.sim.cluster.play_on_cluster`; needs ``cardscript[cluster]``).

    A failing game is a row (``"t": "failed"``), never an exception. Closing the iterator
    early (a batch stopped by a failure) cancels the games not started yet.

    Raises:
        WorkerDied: a worker process ended abruptly; the rows yielded before are sound.
        ClusterProblem: (with ``scheduler``) dask is not installed, the scheduler cannot
            be reached, or its workers cannot play the batch.
    """
    if scheduler is not None:
        from cardscript.dsl.sim.cluster import play_on_cluster

        yield from play_on_cluster(spec, d, seeds, jobs, scheduler)
        return
    with settled():
        yield from _play_here(spec, d, seeds, jobs)


def _play_here(spec: BatchSpec, d: GameDefinition, seeds: Sequence[int],
               jobs: int) -> Generator[dict[str, Any], None, None]:
    workers = workers_for(len(seeds), jobs)
    if workers == 1:
        for s in seeds:
            yield play_seed(d, spec, s)
        return
    runs = runs_of(seeds, workers)
    pool = ProcessPoolExecutor(workers - 1, mp_context=multiprocessing.get_context("spawn"), initializer=_init,
                               initargs=(spec.to_json(),))
    # Every run is submitted at once: a worker never waits for the parent to hand on the
    # rows of a slower run ahead of its own (the results wait, in seed order, instead).
    pending: list[Future[list[str]]] = [pool.submit(_play_run, run) for run in runs]
    mine: dict[int, list[dict[str, Any]]] = {}  # runs this process took back and played
    try:
        for i in range(len(runs)):
            # While the next run is not ready this process plays too: it takes back the
            # first run no worker has started (its rows are close to be handed on, so few
            # wait in memory), and it needs no start-up, having compiled the game already.
            while i not in mine and not pending[i].done():
                j = next((j for j in range(i, len(runs)) if j not in mine and pending[j].cancel()), None)
                if j is None:
                    break
                mine[j] = [play_seed(d, spec, s) for s in runs[j]]
            if i in mine:
                yield from mine.pop(i)
                continue
            try:
                texts = pending[i].result()
            except BrokenProcessPool as exc:
                raise WorkerDied("a worker process ended abruptly (killed, or out of memory?); "
                                 "play the batch again, with fewer --jobs") from exc
            for text in texts:
                yield json.loads(text)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)

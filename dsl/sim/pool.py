"""The games of a batch on a pool of worker processes (the standard library's
:class:`concurrent.futures.ProcessPoolExecutor`, ``spawn`` context).

A worker receives the batch as JSON text (:meth:`BatchSpec.to_json`) once, when it
starts, and compiles the game itself (from the parse cache, like any command): nothing
loaded from disk is ever pickled. It then receives runs of seeds and sends back each
game's row as JSON text. The rows are handed on in seed order, whatever the number of
workers and whichever finishes first, so everything computed from them is the same
for ``--jobs 1`` and ``--jobs 8`` (docs/scale.md).
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import deque
from collections.abc import Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
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
    """How many worker processes ``games`` games get with ``--jobs jobs``: at most
    ``jobs``, and at least :data:`MIN_GAMES_PER_WORKER` games each; 1 means no pool."""
    return max(1, min(jobs, games // MIN_GAMES_PER_WORKER))


def _init(spec_json: str) -> None:
    global _worker
    spec = BatchSpec.from_json(spec_json)
    _worker = (spec, spec.compile())


def _play_run(seeds: list[int]) -> list[str]:
    assert _worker is not None, "the pool's initializer compiles the game first"
    spec, d = _worker
    return [json.dumps(play_seed(d, spec, s), sort_keys=True) for s in seeds]


def play_seeds(spec: BatchSpec, d: GameDefinition, seeds: Sequence[int],
               jobs: int) -> Generator[dict[str, Any], None, None]:
    """Play the games of ``seeds`` and yield their rows in the order of ``seeds``.

    Args:
        spec: the batch; a worker compiles the game from it.
        d: the game, compiled here: played in this process when one worker is enough
            (:func:`workers_for`).
        seeds: the games to play, one seed each.
        jobs: the most worker processes to use.

    A failing game is a row (``"t": "failed"``), never an exception. Closing the iterator
    early (a batch stopped by a failure) cancels the games not started yet.

    Raises:
        WorkerDied: a worker process ended abruptly; the rows yielded before are sound.
    """
    workers = workers_for(len(seeds), jobs)
    if workers == 1:
        for s in seeds:
            yield play_seed(d, spec, s)
        return
    size = max(1, min(50, len(seeds) // (workers * 8)))  # small runs: an even spread, a smooth progress bar
    runs = (list(seeds[i:i + size]) for i in range(0, len(seeds), size))
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init,
                               initargs=(spec.to_json(),))
    # Every run is submitted at once: a worker never waits for the parent to hand on the
    # rows of a slower run ahead of its own (the results wait, in seed order, instead).
    pending: deque[Future[list[str]]] = deque(pool.submit(_play_run, run) for run in runs)
    try:
        while pending:
            try:
                rows = pending.popleft().result()
            except BrokenProcessPool as exc:
                raise WorkerDied("a worker process ended abruptly (killed, or out of memory?); "
                                 "play the batch again, with fewer --jobs") from exc
            for text in rows:
                yield json.loads(text)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)

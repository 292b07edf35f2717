"""The games of a batch on a dask.distributed cluster (``simulate --scheduler``; the
optional extra ``cardscript[cluster]``, docs/scale.md).

The client cuts the seeds into runs (:func:`cardscript.dsl.sim.pool.runs_of`) and
submits one task per run: the batch as JSON text (:meth:`BatchSpec.to_json`), the
fingerprint of the client's scripts, and the run's seeds. dask pickles that call (a
reference to :func:`_play_run` and three plain values); nothing compiled and nothing
read from disk is ever pickled. A worker compiles the game from the spec, from its own
copy of cardscript and of the scripts, once per worker process (:data:`_compiled`,
keyed by the spec's text), refuses to play when its scripts' fingerprint is not the
client's, and returns each game's row as JSON text. The client hands the rows on in
seed order (a run finished early waits for the runs before it), so a batch on a
cluster gives the same rows as ``--jobs 1``.

Scripts are not shipped with the tasks: every worker needs the same cardscript version
and the same scripts at the same paths (a built-in game always is; a ``--with`` path is
resolved in the worker's working folder). The version is checked when the client
connects and the scripts at the first task of each worker, so a mismatch is an error
naming the worker, never a different game.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import logging
import re
import threading
from collections.abc import Generator, Iterator, Sequence
from typing import Any

from cardscript.dsl.sim.games import play_seed
from cardscript.dsl.sim.spec import BatchSpec
from cardscript.runtime.definition import GameDefinition

#: Seconds to wait for a scheduler to answer, and for it to have a worker.
CONNECT_TIMEOUT = 10.0
#: The distribution a worker must have installed, in the client's version.
DISTRIBUTION = "cardscript"
#: How many compiled games a worker process keeps (one per spec: a ladder or a compare
#: sends a few specs to the same workers).
KEEP = 4

_compiled: dict[tuple[str, str], tuple[BatchSpec, GameDefinition]] = {}
_lock = threading.Lock()  # a worker may run tasks on several threads (dask worker --nthreads)


class ClusterProblem(Exception):
    """The batch cannot be played on the cluster: dask is not installed, the scheduler
    cannot be reached or has no worker, or a worker lacks cardscript, runs another
    version, or has other scripts. The message says which and what to do."""


class Cluster:
    """An open connection to a dask cluster, to play several batches on (``compare``
    plays two versions, a ladder many pairings): :func:`connect` opens one.

    Attributes:
        client: the ``distributed.Client``.
        address: the scheduler's address (``"local"`` for a LocalCluster started here).
    """

    def __init__(self, client: Any, address: str, local: Any = None):
        self.client = client
        self.address = address
        self._local = local

    def workers(self) -> int:
        """How many workers the scheduler has now."""
        return len(self.client.scheduler_info().get("workers", {}))

    def close(self) -> None:
        """Close the client, and the LocalCluster if this connection started it."""
        with contextlib.suppress(Exception):  # closing a lost connection must not hide why it was lost
            self.client.close()
        if self._local is not None:
            with contextlib.suppress(Exception):
                self._local.close()


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterProblem("--scheduler plays on a dask cluster, which needs dask.distributed: "
                             "install cardscript[cluster] (pip install 'cardscript[cluster]')") from None
    return distributed


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """dask logs every lost connection and closing worker; the command reports what matters."""
    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


@contextlib.contextmanager
def connect(scheduler: str, jobs: int) -> Iterator[Cluster]:
    """Open a connection to the cluster of ``scheduler`` and check its workers can play.

    Args:
        scheduler: a scheduler's address (``tcp://host:port``), or ``"local"`` to start a
            LocalCluster here: ``jobs`` worker processes, one thread each, no dashboard.
        jobs: the LocalCluster's workers (not used for an address: the cluster has its own).

    Raises:
        ClusterProblem: dask is not installed; the scheduler does not answer within
            :data:`CONNECT_TIMEOUT` seconds or has no worker by then; a worker lacks
            cardscript or runs another version of it.
    """
    distributed = _distributed()
    port = re.search(r":(\d+)/?$", scheduler)
    if scheduler != "local" and port and not 0 < int(port.group(1)) < 65536:
        # dask would try it for the whole timeout and then blame the scheduler for not answering
        raise ClusterProblem(f"--scheduler {scheduler!r} is not a scheduler's address (port {port.group(1)} is "
                             "not 1 to 65535): give tcp://HOST:PORT, or 'local'")
    with _quiet():
        local = None
        try:
            if scheduler == "local":
                local = distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                                 dashboard_address=None, silence_logs=logging.CRITICAL)
                client = distributed.Client(local, timeout=CONNECT_TIMEOUT)
            else:
                client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
        except ValueError as exc:  # dask's own words for what is wrong with it: 'missing port number'
            raise ClusterProblem(f"--scheduler {scheduler!r} is not a scheduler's address ({exc}): give "
                                 "tcp://HOST:PORT, or 'local'") from None
        except (OSError, TimeoutError) as exc:
            if local is not None:
                local.close()
            raise ClusterProblem(f"cannot reach the dask scheduler at {scheduler} within {CONNECT_TIMEOUT:g} s "
                                 f"({type(exc).__name__}: {exc}); is 'dask scheduler' running there, "
                                 "and is the address tcp://HOST:PORT?") from None
        cluster = Cluster(client, scheduler, local)
        try:
            _check_workers(cluster)
            yield cluster
        finally:
            cluster.close()


def _check_workers(cluster: Cluster) -> None:
    try:
        cluster.client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        raise ClusterProblem(f"the dask scheduler at {cluster.address} has no worker after {CONNECT_TIMEOUT:g} s; "
                             f"start some with 'dask worker {cluster.address}'") from exc
    mine = importlib.metadata.version(DISTRIBUTION)
    try:  # importlib.metadata is on every worker: this asks even a worker without cardscript
        theirs = cluster.client.run(importlib.metadata.version, DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise ClusterProblem(f"a worker of {cluster.address} lacks cardscript: install cardscript[cluster] "
                             f"{mine} on every worker (the same version as here)") from None
    except Exception as exc:  # noqa: BLE001 -- whatever dask raised, the worker could not answer
        raise ClusterProblem(f"the workers of {cluster.address} cannot run cardscript "
                             f"({type(exc).__name__}: {exc})") from None
    other = {w: v for w, v in sorted(theirs.items()) if v != mine}
    if other:
        worker, version = next(iter(other.items()))
        raise ClusterProblem(f"worker {worker} runs cardscript {version}, this machine {mine}: "
                             f"install the same version on every worker ({len(other)} differ)")


def scripts_fingerprint(spec: BatchSpec) -> str:
    """The fingerprint of the scripts ``spec`` compiles, as results files and logs hold it.

    Raises:
        CompileError: the scripts have errors.
    """
    from cardscript.dsl.cli.replaylog import fingerprint
    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.dsl.front.variants import game_scripts

    extra, cards = game_scripts(spec.game, list(spec.with_paths), list(spec.variants), list(spec.mixes))
    return fingerprint(compile_game(spec.game, extra, cards)[2].sources)


def _worker_game(spec_json: str, scripts: str) -> tuple[BatchSpec, GameDefinition]:
    from cardscript.dsl.diagnostics import CompileError

    with _lock:
        got = _compiled.get((spec_json, scripts))
        if got is None:
            spec = BatchSpec.from_json(spec_json)
            try:
                mine = scripts_fingerprint(spec)
                d = spec.compile()
            except CompileError as exc:
                first = exc.diagnostics[0] if exc.diagnostics else None
                why = f"{first.code}: {first.message}" if first is not None else "errors"
                raise ClusterProblem(f"a worker cannot compile {spec.game} ({why}): every worker needs the "
                                     "same scripts at the same paths") from None
            if mine != scripts:
                raise ClusterProblem(f"a worker's scripts of {spec.game} differ from this machine's "
                                     f"(fingerprint {mine}, here {scripts}): give every worker the same scripts")
            while len(_compiled) >= KEEP:
                _compiled.pop(next(iter(_compiled)))
            got = _compiled[(spec_json, scripts)] = (spec, d)
    return got


def _play_run(spec_json: str, scripts: str, seeds: list[int]) -> list[str]:
    """A task on a worker: the rows of ``seeds``' games, as JSON text."""
    spec, d = _worker_game(spec_json, scripts)
    return [json.dumps(play_seed(d, spec, s), sort_keys=True) for s in seeds]


def play_on_cluster(spec: BatchSpec, d: GameDefinition, seeds: Sequence[int], jobs: int,
                    scheduler: str | Cluster) -> Generator[dict[str, Any], None, None]:
    """Play the games of ``seeds`` on a dask cluster and yield their rows in the order of
    ``seeds`` (the same rows as :func:`cardscript.dsl.sim.pool.play_seeds` on this machine).

    Args:
        spec: the batch; each worker compiles the game from it.
        d: the game compiled here (not sent: the workers compile their own).
        seeds: the games to play.
        jobs: the workers of a LocalCluster (``scheduler="local"``).
        scheduler: an address, ``"local"``, or a :class:`Cluster` from :func:`connect`
            (left open: the caller closes it).

    Closing the iterator early cancels the runs not finished.

    Raises:
        ClusterProblem: as :func:`connect`, or a worker cannot compile the batch's scripts
            or has other ones.
        WorkerDied: a worker died in the middle of a run, too often for dask to retry it.
    """
    if isinstance(scheduler, Cluster):
        yield from _play(scheduler, spec, seeds)
        return
    with connect(scheduler, jobs) as cluster:
        yield from _play(cluster, spec, seeds)


def _play(cluster: Cluster, spec: BatchSpec, seeds: Sequence[int]) -> Generator[dict[str, Any], None, None]:
    from cardscript.dsl.sim.pool import WorkerDied, runs_of

    distributed = _distributed()
    if not seeds:
        return
    spec_json, scripts = spec.to_json(), scripts_fingerprint(spec)
    runs = runs_of(seeds, max(1, cluster.workers()))
    # Earlier runs first (a higher priority): their rows are the next to be handed on.
    futures = [cluster.client.submit(_play_run, spec_json, scripts, run, pure=False, priority=len(runs) - i)
               for i, run in enumerate(runs)]
    held: list[Any] = futures  # a future is dropped once its rows are in hand: the cluster may forget them
    try:
        for i, future in enumerate(futures):
            try:
                texts = future.result()
            except distributed.KilledWorker as exc:
                raise WorkerDied(f"a dask worker died playing seeds {runs[i][0]}-{runs[i][-1]} (killed, or out "
                                 "of memory?) and dask gave up on it; play the batch again") from exc
            except (OSError, TimeoutError) as exc:
                raise ClusterProblem(f"lost the dask scheduler at {cluster.address} ({type(exc).__name__}: {exc})"
                                     ) from None
            held[i] = None
            for text in texts:
                yield json.loads(text)
    finally:
        with contextlib.suppress(Exception):
            cluster.client.cancel([f for f in held if f is not None])

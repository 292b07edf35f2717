"""Many games at once: the batches of ``cardscript simulate`` (docs/scale.md).

* :mod:`~cardscript.dsl.sim.spec` — what a batch plays (:class:`BatchSpec`) and the
  command that replays one of its games;
* :mod:`~cardscript.dsl.sim.games` — one game of a batch, to its row (result, per-seat
  card counts, or the failure);
* :mod:`~cardscript.dsl.sim.pool` — the games of a batch on a pool of worker processes,
  in seed order whatever the number of workers;
* :mod:`~cardscript.dsl.sim.cluster` — the same on a dask.distributed cluster
  (``--scheduler``, the extra ``cardscript[cluster]``);
* :mod:`~cardscript.dsl.sim.results` — the results file (``--out``, JSON lines;
  ``--resume``) and the summary of a batch's rows.
* :mod:`~cardscript.dsl.sim.htmlreport` — ``analyze --html``: the report as one page of plots;
* :mod:`~cardscript.dsl.sim.compare` — ``compare``: the same seeds under two versions, paired.
"""

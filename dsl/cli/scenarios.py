"""``cardscript test``'s scenarios, one after another or on ``--jobs N`` processes.

Scenarios are independent (each compiles its game and plays its own setup), so a worker
process can run any of them. What a scenario prints is made as text where it runs
(:func:`scenario_outcome`) and printed by the command in the order of the files, so the
output, the ``--format json`` report and the exit code are the same for any ``--jobs``
(docs/scale.md). A worker receives file paths and sends back plain JSON text.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from cardscript.dsl.diagnostics import render
from cardscript.dsl.textsafe import terminal

#: A worker costs about a third of a second to start, and compiles each game its
#: scenarios use once more: below this many scenarios per process it saves nothing.
MIN_SCENARIOS_PER_WORKER = 40


def scenario_outcome(path: str, text: bool, verbose: bool) -> dict[str, Any]:
    """Run the scenario file ``path`` and return what the command reports of it.

    Returns:
        ``entry``: its item of the ``--format json`` report; ``text``: the lines the text
        format prints for it (with ``text``); ``passed``; ``internal``: the traceback of
        a bug in cardscript ("" when none), printed with ``--debug`` only.
    """
    from cardscript.dsl.harness.scenario import run_scenario

    res = run_scenario(Path(path), trace=verbose)
    entry: dict[str, Any] = {"file": path, "name": res.name, "passed": res.passed,
                             "diagnostics": [d.to_json() for d in res.diagnostics]}
    if verbose and not res.passed:
        entry["log"] = res.log
    lines: list[str] = []
    if text:
        mark = "PASS" if res.passed else "FAIL"
        lines.append(terminal(f"{mark}  {res.name}  ({path})"))
        if res.passed:  # a passing scenario still shows its warnings (a step that did less than it says)
            lines += [render(d, res.sources) for d in res.diagnostics if d.severity == "warning"]
        else:
            lines += [render(d, res.sources) for d in res.diagnostics]
            if verbose and res.definition is not None:
                from cardscript.dsl.cli.logfmt import traced_lines

                lines.append(f"game log after the setup (its {res.setup_entries} entries left out), each line "
                             "with the script line whose statement logged it:")
                lines += traced_lines(res.log[res.setup_entries:], res.definition)
    return {"entry": entry, "text": lines, "passed": res.passed, "internal": res.internal}


def _run_many(paths: list[str], text: bool, verbose: bool) -> list[str]:
    return [json.dumps(scenario_outcome(p, text, verbose)) for p in paths]


def run_scenarios(files: Sequence[Path], text: bool, verbose: bool, jobs: int) -> Iterator[dict[str, Any]]:
    """The outcome of each file of ``files`` (:func:`scenario_outcome`), in that order,
    on at most ``jobs`` processes (1: this one; a pool only when each worker gets
    :data:`MIN_SCENARIOS_PER_WORKER` scenarios)."""
    paths = [str(f) for f in files]
    workers = max(1, min(jobs, len(paths) // MIN_SCENARIOS_PER_WORKER))
    if workers == 1:
        for p in paths:
            yield scenario_outcome(p, text, verbose)
        return
    size = max(1, len(paths) // (workers * 4))
    runs = [paths[i:i + size] for i in range(0, len(paths), size)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for texts in pool.map(_run_many, runs, [text] * len(runs), [verbose] * len(runs)):
            for t in texts:
                yield json.loads(t)

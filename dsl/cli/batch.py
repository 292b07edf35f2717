"""What ``cardscript simulate`` prints around its games: the progress bar (with an
ETA), a failing game's report (its seed and the command that replays it), the table of
games that failed under ``--keep-going`` (docs/scale.md)."""

from __future__ import annotations

from typing import Any

import click

from cardscript.dsl.textsafe import terminal


def progress_bar(disable: bool) -> Any:
    """A rich progress bar: games done of all, elapsed time and the estimated time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("ETA"), TimeRemainingColumn(), transient=True, disable=disable)


def report_failure(row: dict[str, Any], debug: bool) -> int:
    """Print why the game of ``row`` failed and how to replay it; return the exit code
    (1 for a runaway chain, CS401; 3 for a bug in cardscript)."""
    where = f"the game of seed {row['seed']} failed; replay it with:\n  {terminal(row['replay'])}"
    if row["error"] == "CS401":
        from cardscript.dsl.diagnostics import render, runaway

        click.echo(render(runaway(row["message"], row.get("chain", []), row.get("at"))), err=True)
        click.echo(where, err=True)
        return 1
    if debug and row.get("traceback"):
        click.echo(terminal(row["traceback"], keep="\n"), err=True, nl=False)
    click.echo(where, err=True)
    click.echo(row["message"], err=True)  # internal_message(): one line, already safe
    return 3


def print_failed(failed: list[dict[str, Any]]) -> None:
    """The games that failed under ``--keep-going``, one line each (never wrapped, so that
    each replay command can be copied whole): seed, error, message, then the command."""
    click.echo(f"{len(failed)} game(s) failed:")
    for f in failed:
        at = f"{f['at']}: " if f.get("at") else ""
        message = f["message"] if f["error"] == "internal" else f"{at}error[CS401]: {f['message']}"
        click.echo(terminal(f"  seed {f['seed']}: {message}"))
        click.echo(terminal(f"    replay: {f['replay']}"))

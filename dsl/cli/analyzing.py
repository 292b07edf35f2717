"""``cardscript analyze``: the balance report of results files written by
``simulate --out`` (registered on the group in :mod:`cardscript.dsl.cli.main`; the
numbers come from :mod:`cardscript.dsl.sim.analyze`, docs/scale.md#analyze)."""

from __future__ import annotations

import json
import os
from typing import Any

import click

from cardscript.dsl.cli.common import check_writable, claim_output, guard, note_inputs, write_atomic
from cardscript.dsl.textsafe import cell


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}"


def _interval(low: float | None, high: float | None) -> str:
    return "—" if low is None or high is None else f"[{100 * low:+.1f}, {100 * high:+.1f}]"


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--action", default="buy", show_default=True, help="the action whose chosen cards count as bought")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), help="write the per-card table as CSV to FILE")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), help="write the whole report as JSON to FILE")
@click.option("--top", type=click.IntRange(min=1), help="print only the N cards of largest |impact| (files get all)")
@click.option("--html", "html_dir", type=click.Path(file_okay=False),
              help="write the report with its plots as one self-contained page, DIR/index.html (needs matplotlib)")
@guard
def analyze(results: tuple[str, ...], action: str, csv_file: str | None, json_file: str | None,
            top: int | None, html_dir: str | None) -> None:
    """Per-card win-rate impact with 95 % intervals, seat advantage, game length,
    scores, end reasons and co-operative outcomes, from 'simulate --out' files;
    with --html, also a page of plots (docs/analyze.md#html)."""
    from cardscript.dsl.sim.analyze import analyze as make_report
    from cardscript.dsl.sim.analyze import card_csv
    from cardscript.dsl.sim.results import ResultsProblem, read_results

    note_inputs(results, "results file")
    for path, option in ((csv_file, "--csv"), (json_file, "--json")):
        if path is not None:  # an empty one is refused, as every empty path
            check_writable(path, option)
    html_file = _html_target(html_dir) if html_dir is not None else None
    rows: list[dict[str, Any]] = []
    games: list[str] = []
    for path in results:
        try:
            header, by_seed, whole = read_results(path)
            torn = os.path.getsize(path) > whole
        except ResultsProblem as exc:
            raise click.BadParameter(str(exc), param_hint="RESULTS") from None
        except OSError as exc:
            raise click.ClickException(f"cannot read {path}: {exc.strerror or exc}") from None
        if header is None:
            raise click.BadParameter(f"{path}: not a results file of 'cardscript simulate --out'",
                                     param_hint="RESULTS")
        if torn:  # left out as --resume would cut it off: say so, a row the user may be counting on
            click.echo(f"note: the last line of {path} is torn (the run stopped while writing it): left out; "
                       "'simulate --out FILE --resume' plays that game again", err=True)
        rows.extend(by_seed[s] for s in sorted(by_seed))
        if str(header.get("game")) not in games:
            games.append(str(header.get("game")))
    if not rows:  # a run stopped before its first game ended: tables of nothing, a page of empty plots
        raise click.ClickException(f"no games in {', '.join(results)}: only the run's header, so there is nothing "
                                   "to analyze; let 'simulate --out FILE --resume' play them first")
    chosen = {a for row in rows for per in row.get("per_seat") or [] for a in (per.get("chosen") or {})}
    given = click.get_current_context().get_parameter_source("action") != click.core.ParameterSource.DEFAULT
    if given and chosen and action not in chosen:  # a table of zeros would look like a card nobody wants
        raise click.BadParameter(f"the results hold no choices of the action {action!r}; they hold "
                                 f"{', '.join(repr(a) for a in sorted(chosen))}", param_hint="--action")
    report = make_report(rows, action)
    if html_file:
        _write_html(html_file, report, games)
    if csv_file:
        write_atomic(csv_file, card_csv(report))
    if json_file:
        write_atomic(json_file, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    _print(report, top)


def _html_target(folder: str) -> str:
    """DIR/index.html, checked before any work: DIR must be a folder, or be missing in a
    folder that exists and can be written (it is made only when the page is written, so a
    run that fails on its input leaves no empty folder behind).

    Raises:
        click.BadParameter: DIR is a file, or cannot be made or written (exit 2).
    """
    import os

    if not folder:
        raise click.BadParameter("an empty path names no folder", param_hint="--html")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise click.BadParameter(f"{folder} is not a folder", param_hint="--html")
    target = os.path.join(folder, "index.html")
    if os.path.isdir(folder):
        check_writable(target, "--html")
        return target
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(parent):
        raise click.BadParameter(f"cannot make the folder {folder}: its parent {parent} does not exist",
                                 param_hint="--html")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise click.BadParameter(f"cannot make the folder {folder}: {parent} is not writable", param_hint="--html")
    claim_output(target, "--html")
    return target


def _write_html(target: str, report: dict[str, Any], games: list[str]) -> None:
    """The page, rendered whole in memory, then written by temp file and rename: a reader
    never sees a half-written page."""
    import os

    from cardscript.dsl.sim.htmlreport import MissingMatplotlib, page

    try:
        text = page(report, f"cardscript analyze: {', '.join(games)}, {report['games']:,} games")
    except MissingMatplotlib as exc:
        raise click.ClickException(str(exc)) from None
    folder = os.path.dirname(target)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise click.ClickException(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    write_atomic(target, text)
    click.echo(f"wrote {target}", err=True)


def _print(report: dict[str, Any], top: int | None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"{report['games']} games" + (f" ({report['failed']} failed games skipped)"
                                               if report["failed"] else ""))
    cards = report["cards"]
    if top:
        cards = sorted(cards, key=lambda r: -abs(r["adjusted"] or 0.0))[:top]
    if cards:
        t = Table(title=f"cards: win % of seats that bought it ('{report['action']}') vs not")
        t.add_column("card", ratio=1)
        lines = [(cell(r["card"]), str(r["bought"]), _pct(r["bought_share"]), str(r["played"]),
                  f"{_pct(r['win_bought'])}/{_pct(r['win_not_bought'])}",
                  "—" if r["adjusted"] is None else f"{100 * r['adjusted']:+.1f} {_interval(r['low'], r['high'])}",
                  "*" if r["significant"] else "") for r in cards]
        for k, name in enumerate(("buys", "seats%", "plays", "win% b/n", "impact [95 %]", "sig"), 1):
            # the numbers are never cut: the card's name wraps instead
            t.add_column(name, justify="right", no_wrap=True,
                         min_width=max(len(name), *(len(line[k]) for line in lines)))
        for line in lines:
            t.add_row(*line)
        console.print(t)
        console.print("seats% = seat-games that bought it; win% b/n = bought / not; impact = seat-adjusted "
                      "difference in points, sig = its interval excludes 0", highlight=False)
    elif not report["detail"]:
        console.print("no per-seat card counts in these rows (written by 'simulate --out')")
    if report["seats"]:
        t = Table(title="seat advantage")
        for name in ("seat", "games", "wins", "win %", "95 % (Wilson)", "expected %", "differs"):
            t.add_column(name, justify="left" if name == "seat" else "right")
        for s in report["seats"]:
            t.add_row(s["seat"], str(s["n"]), f"{s['wins']:g}", _pct(s["rate"]),
                      f"[{_pct(s['low'])}, {_pct(s['high'])}]", _pct(s["expected"]), "yes" if s["differs"] else "no")
        console.print(t)
    t = Table(title="distributions")
    for name in ("measure", "n", "mean", "median", "q1", "q3", "min", "max"):
        t.add_column(name, justify="left" if name == "measure" else "right")
    for label, dist in (("turns", report["turns"]), *(
            (k, v) for k, v in report["scores"].items())):
        if dist["n"]:
            t.add_row(label, *(f"{dist[k]:g}" for k in ("n", "mean", "median", "q1", "q3", "min", "max")))
    console.print(t)
    t = Table(title="end reasons")
    t.add_column("reason")
    t.add_column("games", justify="right")
    t.add_column("%", justify="right")
    for e in report["end_reasons"]:
        t.add_row(cell(e["reason"]), str(e["games"]), _pct(e["share"]))
    console.print(t)
    if report["outcomes"]:
        t = Table(title="co-operative outcomes per hero count")
        for name in ("heroes", "outcome", "games", "%", "95 % (Wilson)"):
            t.add_column(name, justify="left" if name == "outcome" else "right")
        for o in report["outcomes"]:
            t.add_row(str(o["heroes"]), cell(o["outcome"]), f"{o['wins']:g} of {o['n']}", _pct(o["rate"]),
                      f"[{_pct(o['low'])}, {_pct(o['high'])}]")
        console.print(t)
    m = report["methods"]
    console.print(f"methods: unit = {m['unit']}. {m['interval']}. difference = {m['difference']}; "
                  f"seat-adjusted: {m['adjusted']}. sig = the adjusted interval excludes 0.", highlight=False)

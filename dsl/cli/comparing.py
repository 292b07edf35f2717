"""``cardscript compare``: the same seeds under two versions of a game (registered on
the group in :mod:`cardscript.dsl.cli.main`; the numbers come from
:mod:`cardscript.dsl.sim.compare`, docs/analyze.md#compare)."""

from __future__ import annotations

import json
import sys
from contextlib import closing
from typing import Any

import click

from cardscript.dsl.cli.common import (
    GAMES,
    capped_jobs,
    check_seeds,
    check_writable,
    compile_with_options,
    debug_requested,
    guard,
    write_atomic,
)
from cardscript.dsl.textsafe import cell, terminal
from cardscript.runtime.errors import MAX_SEED


def _version(game: str, with_paths: tuple[str, ...], variants: tuple[str, ...],
             mixes: tuple[str, ...]) -> tuple[Any, dict[str, dict[str, Any]], str]:
    """One version compiled: its definition, its cards as printed (name -> JSON), and the
    fingerprint of its scripts."""
    from cardscript.dsl.cli.replaylog import fingerprint
    from cardscript.dsl.tools.render.cards import render_program

    d, _, program = compile_with_options(game, with_paths, variants, mixes)
    return d, {c.name: c.to_json() for c in render_program(program)}, fingerprint(program.sources)


def _play(spec: Any, d: Any, seeds: range, jobs: int, keep_going: bool, progress: Any,
          task: Any) -> list[dict[str, Any]]:
    from cardscript.dsl.cli.batch import report_failure
    from cardscript.dsl.sim.pool import WorkerDied, play_seeds

    rows = []
    with closing(play_seeds(spec, d, seeds, jobs)) as games:
        try:
            for row in games:
                if row["t"] == "failed" and not keep_going:
                    progress.stop()
                    games.close()
                    sys.exit(report_failure(row, debug_requested()))
                rows.append(row)
                progress.advance(task)
        except WorkerDied as exc:
            raise click.ClickException(str(exc)) from None
    return rows


@click.command()
@click.argument("game")
@click.option("--a-with", "a_with", multiple=True, metavar="PATH", help="an expansion of A only; repeatable")
@click.option("--b-with", "b_with", multiple=True, metavar="PATH", help="an expansion of B only; repeatable")
@click.option("--a-variant", "a_variants", multiple=True, metavar="NAME", help="a variant of A only; repeatable")
@click.option("--b-variant", "b_variants", multiple=True, metavar="NAME", help="a variant of B only; repeatable")
@click.option("--with", "with_paths", multiple=True, metavar="PATH", help="an expansion of both; repeatable")
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="a variant of both; repeatable")
@click.option("--mix", "mixes", multiple=True, metavar="GAME", help="mix another set into both; repeatable")
@click.option("--games", "-n", type=GAMES, default=1000, show_default=True,
              help="seeds; each is played under A and under B")
@click.option("--players", "-p", type=int)
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="seed of the first game; game i uses seed+i")
@click.option("--bots", default="heuristic", show_default=True, help="bots per seat, cycled (docs/bots.md)")
@click.option("--jobs", "-j", type=click.IntRange(min=1),
              help="worker processes (default: every core); the results are the same for any number")
@click.option("--action", default="buy", show_default=True, help="the action whose chosen cards count as bought")
@click.option("--keep-going", is_flag=True,
              help="drop a seed whose game fails under A or B (counted) instead of stopping")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), help="write the whole report as JSON to FILE")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), help="write the per-card table as CSV to FILE")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="print the changed cards and the N other cards whose impact moved most (files get all)")
@guard
def compare(game: str, a_with: tuple[str, ...], b_with: tuple[str, ...], a_variants: tuple[str, ...],
            b_variants: tuple[str, ...], with_paths: tuple[str, ...], variants: tuple[str, ...],
            mixes: tuple[str, ...], games: int, players: int | None, seed: int, bots: str, jobs: int | None,
            action: str, keep_going: bool, json_file: str | None, csv_file: str | None, top: int) -> None:
    """Play the same seeds under two versions, A and B, of GAME and report the paired
    difference in each seat's win rate and in each card's win-rate impact, with 95 %
    intervals and a verdict in words.

    A is GAME with --with, --variant, --mix and the --a-... options; B the same with
    the --b-... options instead. Example: compare GAME --a-with v1/ --b-with v2/
    """
    from cardscript.dsl.cli.batch import progress_bar
    from cardscript.dsl.cli.playing import _agents, _check_players
    from cardscript.dsl.sim.compare import card_csv
    from cardscript.dsl.sim.compare import compare as make_report
    from cardscript.dsl.sim.spec import BatchSpec

    for path, option in ((csv_file, "--csv"), (json_file, "--json")):
        if path is not None:  # an empty one is refused, as every empty path
            check_writable(path, option)
    check_seeds(seed, games)
    jobs = capped_jobs(jobs)
    paths_a, paths_b = with_paths + a_with, with_paths + b_with
    variants_a, variants_b = variants + a_variants, variants + b_variants
    d_a, cards_a, scripts_a = _version(game, paths_a, variants_a, mixes)
    d_b, cards_b, scripts_b = _version(game, paths_b, variants_b, mixes)
    n = _check_players(d_a, players)
    _check_players(d_b, n)
    _agents(bots, n)
    spec_a = BatchSpec(game, n, bots, paths_a, variants_a, mixes, detail=True)
    spec_b = BatchSpec(game, n, bots, paths_b, variants_b, mixes, detail=True)
    seeds = range(seed, seed + games)
    with progress_bar(disable=False) as progress:
        task = progress.add_task(f"{games} seeds under A and B", total=2 * games)
        rows_a = _play(spec_a, d_a, seeds, jobs, keep_going, progress, task)
        rows_b = _play(spec_b, d_b, seeds, jobs, keep_going, progress, task)
    report = make_report(rows_a, rows_b, cards_a, cards_b, action)
    report.update(game=game, players=n, bots=bots, seeds=[seed, seed + games - 1], same_scripts=scripts_a == scripts_b,
                  a={"with": list(paths_a), "variants": list(variants_a), "scripts": scripts_a},
                  b={"with": list(paths_b), "variants": list(variants_b), "scripts": scripts_b})
    if csv_file:
        write_atomic(csv_file, card_csv(report))
    if json_file:
        write_atomic(json_file, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    _print(report, top)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}"


def _signed(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.1f}"


def _with_interval(x: float | None, low: float | None, high: float | None) -> str:
    if x is None or low is None or high is None:
        return "—"
    return f"{100 * x:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"


def _printed(card: dict[str, Any], other: dict[str, Any]) -> str:
    """What of a card as printed differs from the other version: attributes, copies, text."""
    parts = [f"{k} {v}" for k, v in card["attributes"].items() if other["attributes"].get(k) != v]
    parts += [f"types {', '.join(card['types'])}"] if card["types"] != other["types"] else []
    parts += [f"copies {card['copies']}"] if card["copies"] != other["copies"] else []
    parts += [card["text"] or "(no text)"] if card["text"] != other["text"] or not parts else []
    return "; ".join(parts)


def _print(report: dict[str, Any], top: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    a, b = report["a"], report["b"]
    console.print(cell(f"A: {report['game']} " + " ".join([*(f"--with {p}" for p in a["with"]),
                                                          *(f"--variant {v}" for v in a["variants"])])))
    console.print(cell(f"B: {report['game']} " + " ".join([*(f"--with {p}" for p in b["with"]),
                                                          *(f"--variant {v}" for v in b["variants"])])))
    if report["same_scripts"]:
        console.print("A and B compile from the same scripts: every game is the same under both")
    if report["failed"]:
        console.print(f"{len(report['failed'])} seed(s) dropped: their game failed under A or B")
    rows = [(x["seat"] if "seat" in x else x["outcome"], x) for x in [*report["seats"], *report["outcomes"]]]
    if rows:
        t = Table(title="win % per seat, paired" if report["seats"] else "outcome %, paired")
        for name in ("seat" if report["seats"] else "outcome", "games", "A %", "B %", "B - A [95 %]", "sig"):
            t.add_column(name, justify="left" if name in ("seat", "outcome") else "right")
        for label, x in rows:
            t.add_row(cell(label), str(x["n"]), _pct(x["a"]), _pct(x["b"]),
                      _with_interval(x["diff"], x["low"], x["high"]), "*" if x["significant"] else "")
        console.print(t)
    if report["measures"]:
        t = Table(title="means, paired")
        for name in ("measure", "A", "B", "B - A [95 %]", "sig"):
            t.add_column(name, justify="left" if name == "measure" else "right")
        for x in report["measures"]:
            t.add_row(cell(x["what"]), f"{x['a']:.2f}", f"{x['b']:.2f}",
                      f"{x['diff']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}]", "*" if x["significant"] else "")
        console.print(t)
    cards = [c for c in report["cards"] if c["changed"]]
    cards += [c for c in report["cards"] if not c["changed"] and c["diff"] is not None][:top]
    if cards:
        t = Table(title=f"card impact under A and B (win % of seats that bought it, '{report['action']}', vs not)")
        t.add_column("card", ratio=1)
        lines = [(cell(c["card"] + (" (changed)" if c["changed"] else "")),
                  f"{_pct(c['a']['bought_share'])}/{_pct(c['b']['bought_share'])}",
                  f"{_signed(c['a']['adjusted'])}/{_signed(c['b']['adjusted'])}",
                  _with_interval(c["diff"], c["low"], c["high"]), "*" if c["significant"] else "") for c in cards]
        for k, name in enumerate(("seats% A/B", "impact A/B", "B - A [95 %]", "sig"), 1):
            t.add_column(name, justify="right", no_wrap=True, min_width=max(len(name), *(len(x[k]) for x in lines)))
        for line in lines:
            t.add_row(*line)
        console.print(t)
        console.print("seats% = seat-games that bought it; impact = seat-adjusted win-rate difference, bought "
                      "minus not, in points; B - A = how much it moved", highlight=False)
    for ch in report["changed"]:
        console.print(cell(f"changed: {ch['card']}"))
        for side in ("a", "b"):
            console.print(cell(f"  {side.upper()}: {_printed(ch[side], ch['b' if side == 'a' else 'a'])}"))
    for i, line in enumerate(report["verdicts"]):
        console.print(cell(("verdict: " if i == 0 else "  ") + line), style="bold" if i == 0 else None)
    m = report["methods"]
    console.print(terminal(f"methods: {m['design']}. seats: {m['seats']}. cards: {m['cards']}. {m['changed']}."),
                  highlight=False)

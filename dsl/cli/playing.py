"""The commands that play games: ``play``, ``simulate``, ``replay`` and ``test`` (the
scenarios), with the score and summary tables they print (registered on the group in
:mod:`cardscript.dsl.cli.main`).
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import click

from cardscript.dsl.cli.common import (
    GAMES,
    bot_names,
    capped_jobs,
    check_seeds,
    check_writable,
    compile_with_options,
    debug_requested,
    guard,
    variant_option,
    write_atomic,
)
from cardscript.dsl.cli.replaylog import (
    excerpt,
    fingerprint,
    legacy_fingerprint,
    read_log,
    replay_sources,
    write_game_log,
)
from cardscript.dsl.files import walk
from cardscript.dsl.textsafe import cell, json_text, terminal
from cardscript.runtime.errors import MAX_SEED


# ---------------------------------------------------------------- play
def _agents(bots: str, players: int) -> list[Any]:
    from cardscript.runtime.agents import make_agents

    try:
        return make_agents(bot_names(bots), players)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None


def _check_players(d: Any, players: int | None) -> int:
    lo, hi = d.players
    n = players if players is not None else lo
    if not lo <= n <= hi:
        raise click.BadParameter(f"{terminal(d.name)} is for {lo} to {hi} players, not {n}", param_hint="--players")
    return n


@click.command()
@click.argument("game", required=False)
@click.option("--players", "-p", type=int, help="number of players (default: the game's minimum)")
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), default=1, show_default=True)
@click.option("--bots", default="heuristic", show_default=True,
              help="bots per seat, cycled: heuristic, greedy, search, search:N, random (docs/bots.md)")
@click.option("--human", "humans", multiple=True, type=int, metavar="SEAT",
              help="you play seat SEAT (1-based) at this terminal; repeatable for hot-seat play (docs/play.md)")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="pick up a game saved with 'save FILE' during --human play")
@click.option("--log", "log_file", type=click.Path(dir_okay=False), help="write the replayable event log (JSON lines)")
@click.option("--log-for", "log_for", nargs=2, type=(int, click.Path(dir_okay=False)), metavar="SEAT FILE",
              help="write only what seat SEAT (1-based) saw, as JSON lines: its decisions, public events, "
                   "other seats' hidden cards as counts")
@click.option("--quiet", "-q", is_flag=True, help="print only the final scores")
@click.option("--with", "with_paths", multiple=True, metavar="PATH",
              help="add an expansion (a folder with a cardscript.toml, or a script); repeatable")
@variant_option
@guard
def play(game: str | None, players: int | None, seed: int, bots: str, humans: tuple[int, ...], resume: str | None,
         log_file: str | None, log_for: tuple[int, str] | None, quiet: bool, with_paths: tuple[str, ...],
         variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """Play one full game of GAME with bots, printing a readable log and the scores.

    With --human SEAT you play that seat yourself (numbered menus; commands ?NAME, log,
    undo, save FILE, help); --resume FILE picks up a saved game.
    """
    from cardscript.dsl.cli import logfmt
    from cardscript.runtime.engine import Engine

    if humans or resume:
        if log_for or quiet:
            raise click.UsageError("--log-for and --quiet are for bot games, not with --human or --resume")
        from cardscript.dsl.cli.humanplay import play_cli

        play_cli(game, players, seed, bots, humans, with_paths, variants, mixes, resume, log_file, _print_scores)
        return
    if not game:
        raise click.UsageError("Missing argument 'GAME'.")
    if log_file:
        check_writable(log_file, "--log")
    d, _, program = compile_with_options(game, with_paths, variants, mixes)
    n = _check_players(d, players)
    agents = _agents(bots, n)
    engine = Engine(d, n, agents, seed, log=True)
    seat_log = None
    if log_for:
        from cardscript.runtime.seatlog import SeatLog

        if not 1 <= log_for[0] <= n:
            raise click.BadParameter(f"seat {log_for[0]}: a game of {n} players has seats 1 to {n}",
                                     param_hint="--log-for")
        # refused when it is the file of --log too: the second would overwrite the first
        check_writable(log_for[1], "--log-for")
        seat_log = SeatLog(engine.game, log_for[0] - 1)
        engine.game.listeners.append(seat_log)
    # a log written to stdout stays JSON lines: what is for the reader goes to stderr then
    to_err = log_file == "-" or bool(log_for and log_for[1] == "-")
    if not quiet:
        quiet_events = d.quiet_events | {"play"}
        quiet_counters = {d.counters[i].name for i in d.quiet_counters}

        def show(entry: dict[str, Any]) -> None:
            line = logfmt.format_entry(entry, quiet_events, quiet_counters)
            if line is not None:
                click.echo(line, err=to_err)

        engine.game.listeners.append(show)
    result = engine.run()
    if quiet:
        for text in engine.game.warnings:
            click.echo(terminal(f"warning: {text}"), err=True)
    _print_scores(d, result, [a.name for a in agents], to_err)
    if log_file:
        write_game_log(log_file, result, [a.name for a in agents], seed, program, game, with_paths, variants, mixes)
    if log_for and seat_log is not None:
        body = "".join(json.dumps(e, sort_keys=True, ensure_ascii=False) + "\n" for e in seat_log.entries)
        write_atomic(log_for[1], body)
        click.echo(f"P{log_for[0]}'s log written to {log_for[1]} ({len(seat_log.entries)} entries)",
                   err=log_for[1] == "-")


def _print_scores(d: Any, result: Any, bots: list[str], to_err: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table

    title = cell(f"Final scores — {result.reason} (turn {result.turns})")
    # as wide as its title: a title wider than the columns was wrapped mid-sentence ("(turn\n44)")
    table = Table(title=title, min_width=len(title))
    table.add_column("place")
    table.add_column("player")
    table.add_column("bot")
    table.add_column("score", justify="right")
    table.add_column("tie-breaks", justify="right")
    coop = bool(d.outcomes)  # a co-operative game has an outcome, not a winner
    for place, p in enumerate(result.ranking, 1):
        mark = " ★" if p in result.winners and not coop else ""
        table.add_row(str(place), f"P{p + 1}{mark}", bots[p], str(result.scores[p]),
                      ", ".join(str(v) for v in result.tie_values[p]))
    Console(stderr=to_err).print(table)
    if result.outcome:
        click.echo(terminal(f"Outcome: {result.outcome}"), err=to_err)


# ---------------------------------------------------------------- simulate
@click.command()
@click.argument("game")
@click.option("--games", "-n", type=GAMES, default=100, show_default=True)
@click.option("--players", "-p", type=int)
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="seed of the first game; game i uses seed+i")
@click.option("--bots", default="heuristic", show_default=True,
              help="bots per seat, cycled: heuristic, greedy, search, search:N, random (docs/bots.md)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@click.option("--jobs", "-j", type=click.IntRange(min=1),
              help="worker processes (default: every core); the results are the same for any number")
@click.option("--out", "out_file", type=click.Path(dir_okay=False),
              help="stream one JSON line per game to FILE: result and per-seat cards (docs/scale.md)")
@click.option("--resume", is_flag=True, help="continue the run of --out FILE: play only the seeds not in it yet")
@click.option("--keep-going", is_flag=True,
              help="record a game that fails (CS401, an internal error) and play the others; exit 1 at the end")
@click.option("--scheduler", metavar="ADDRESS",
              help="play on a dask cluster: its scheduler's tcp://HOST:PORT, or 'local' to start one of --jobs "
                   "workers here (needs cardscript[cluster]; docs/scale.md)")
@click.option("--with", "with_paths", multiple=True, metavar="PATH", help="add an expansion; repeatable")
@variant_option
@guard
def simulate(game: str, games: int, players: int | None, seed: int, bots: str, as_json: bool, jobs: int | None,
             out_file: str | None, resume: bool, keep_going: bool, with_paths: tuple[str, ...],
             variants: tuple[str, ...], mixes: tuple[str, ...], scheduler: str | None = None) -> None:
    """Play many games with bots and summarise wins, lengths and end reasons.

    A game that fails stops the batch with its seed and the 'cardscript play' command
    that replays it (exit 1, or 3 for a bug in cardscript); with --keep-going it is
    recorded and the batch goes on (docs/scale.md).
    """
    from rich.console import Console

    from cardscript.dsl.cli.batch import print_failed, progress_bar, report_failure
    from cardscript.dsl.sim.cluster import ClusterProblem
    from cardscript.dsl.sim.pool import WorkerDied, default_jobs, play_seeds
    from cardscript.dsl.sim.results import ResultsProblem, open_results, run_header
    from cardscript.dsl.sim.spec import BatchSpec
    from cardscript.dsl.sim.summary import Tally

    if resume and not out_file:
        raise click.BadParameter("--resume continues the run of --out FILE: give --out", param_hint="--resume")
    if out_file is not None and (out_file == "-" or not out_file):
        raise click.BadParameter("give the path of a file", param_hint="--out")
    if scheduler is not None and not scheduler.strip():
        raise click.BadParameter("give a scheduler's address (tcp://HOST:PORT) or 'local'", param_hint="--scheduler")
    if out_file:
        check_writable(out_file, "--out")
    check_seeds(seed, games)
    if scheduler in (None, "local"):  # a scheduler's address: its cluster has its own workers
        jobs = capped_jobs(jobs)
    d, _, program = compile_with_options(game, with_paths, variants, mixes)
    n = _check_players(d, players)
    names = [a.name for a in _agents(bots, n)]
    spec = BatchSpec(game, n, bots, with_paths, variants, mixes, detail=bool(out_file))
    writer = None
    existing: dict[int, dict[str, Any]] = {}
    if out_file:
        header = run_header(game, n, names, with_paths, variants, mixes, fingerprint(program.sources))
        try:
            writer, existing = open_results(out_file, header, resume)
        except ResultsProblem as exc:
            raise click.BadParameter(str(exc), param_hint="--out") from None
        except OSError as exc:
            raise click.ClickException(f"cannot write {out_file}: {exc.strerror or exc}") from None
    seeds = range(seed, seed + games)
    tally = Tally(n, bool(d.outcomes))
    t0 = time.perf_counter()
    try:
        with progress_bar(disable=as_json) as progress, closing(writer or _Nothing()):
            task = progress.add_task(f"simulating {games} games", total=games)
            todo = [s for s in seeds if s not in existing]
            with closing(play_seeds(spec, d, todo, jobs or default_jobs(), scheduler)) as fresh:
                try:
                    for s in seeds:
                        row = existing.get(s) or next(fresh)
                        if row["t"] == "failed" and not keep_going:
                            progress.stop()
                            fresh.close()  # the games not started yet are cancelled
                            sys.exit(report_failure(row, debug_requested()))
                        if writer is not None and s not in existing:
                            writer.write(row)
                        tally.add(row)
                        progress.advance(task)
                except (WorkerDied, ClusterProblem) as exc:
                    raise click.ClickException(str(exc)) from None
            if writer is not None:
                writer.finish()
    finally:
        if writer is not None and writer.partial:  # a batch that stopped early never clobbers --out
            click.echo(f"{out_file} is kept as it was; the games played are in {writer.partial} "
                       f"(--out {writer.partial} --resume plays the rest)", err=True)
        elif writer is not None and not writer.finished:  # a new file, cut short: say how to go on
            click.echo(f"{out_file} holds the games played so far, whole rows only "
                       f"(--out {out_file} --resume plays the rest)", err=True)
    summary = tally.summary(d.name, list(variants), names, time.perf_counter() - t0)
    code = 0 if not tally.failed else 3 if any(f["error"] == "internal" for f in tally.failed) else 1
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        if code:
            sys.exit(code)
        return

    console = Console()
    played = summary["games"]
    if not d.outcomes and played:
        _wins_tables(console, d, played, n, names, tally.wins_seat, tally.wins_bot)
    if played:
        _games_tables(console, d, played, summary, tally.reasons, tally.outcomes)
    else:  # tables of zeros would read as games of 0 turns
        click.echo(f"no game of the {games} ran to its end")
    if tally.failed:
        print_failed(tally.failed)
        sys.exit(code)


class _Nothing:
    def close(self) -> None:
        pass


def _wins_tables(console: Any, d: Any, games: int, n: int, names: list[str], wins_seat: Any, wins_bot: Any) -> None:
    from rich.table import Table

    title = cell(f"{d.name}: {games} games, {n} players, bots {','.join(names)}")
    t = Table(title=title, min_width=len(title))
    t.add_column("seat")
    t.add_column("bot")
    t.add_column("wins", justify="right")
    t.add_column("win %", justify="right")
    t.add_column("95 % (Wilson)", justify="right")
    for p in range(n):
        t.add_row(f"P{p + 1}", names[p], f"{wins_seat[p]:g}", f"{100 * wins_seat[p] / games:.1f}",
                  _percent_interval(wins_seat[p], games))
    console.print(t)
    if len(set(names)) > 1:
        tb = Table(title="wins per bot")
        tb.add_column("bot")
        tb.add_column("wins", justify="right")
        for b in sorted(set(names)):
            tb.add_row(b, f"{wins_bot[b]:g}")
        console.print(tb)


def _games_tables(console: Any, d: Any, games: int, summary: dict[str, Any], reasons: Any, outcomes: Any) -> None:
    from rich.table import Table

    s = Table(title="games")
    s.add_column("measure")
    s.add_column("value", justify="right")
    s.add_row("turns (mean / max)", f"{summary['turns_mean']} / {summary['turns_max']}")
    s.add_row("decisions per game", str(summary["decisions_per_game"]))
    s.add_row("games per second", str(summary["games_per_second"]))
    console.print(s)
    r = Table(title="end reasons")
    r.add_column("reason")
    r.add_column("games", justify="right")
    for k, v in sorted(reasons.items()):
        r.add_row(cell(k), str(v))
    console.print(r)
    if outcomes:
        o = Table(title="outcomes")
        o.add_column("outcome")
        o.add_column("games", justify="right")
        o.add_column("%", justify="right")
        o.add_column("95 % (Wilson)", justify="right")
        for text in [t for t, _ in d.outcomes if t in outcomes]:
            o.add_row(cell(text), str(outcomes[text]), f"{100 * outcomes[text] / games:.1f}",
                      _percent_interval(outcomes[text], games))
        console.print(o)


def _percent_interval(count: float, games: int) -> str:
    """A rate's 95 % Wilson interval in percent, as ``analyze`` prints it: '[21.9, 51.0]'."""
    from cardscript.dsl.sim.summary import interval

    low, high = interval(count, games)
    return f"[{100 * low:.1f}, {100 * high:.1f}]"


# ---------------------------------------------------------------- test
@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("-v", "--verbose", is_flag=True,
              help="print a failing scenario's game log, each entry with the script line that caused it")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="run the scenarios on N processes; the output is the same for any number")
@guard
def test(paths: tuple[str, ...], fmt: str, verbose: bool = False, jobs: int = 1) -> None:
    """Run scenario files (.scenario) under PATHS."""
    from cardscript.dsl.cli.scenarios import run_scenarios

    files: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not raw:
            raise click.BadParameter("an empty path names nothing", param_hint="PATHS")
        if not p.exists():
            raise click.BadParameter(f"no such file or folder: {raw}", param_hint="PATHS")
        if p.is_file() and p.suffix != ".scenario" and not p.name.endswith(".scenario.txt"):
            raise click.BadParameter(f"{raw} is not a scenario (a .scenario file)", param_hint="PATHS")
        files.extend(walk(p, (".scenario",)) if p.is_dir() else [p])
    if not files:
        raise click.UsageError("no .scenario files found")
    failed = internal = 0
    report = []
    for out in run_scenarios(files, fmt == "text", verbose, capped_jobs(jobs)):
        report.append(out["entry"])
        if not out["passed"]:
            failed += 1
        if out["internal"]:  # a bug in cardscript (CS900): the run goes on, the exit code is 3
            internal += 1
            if debug_requested():
                click.echo(terminal(out["internal"], keep="\n"), err=True, nl=False)
        for line in out["text"]:
            click.echo(line)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(f"{len(files) - failed} passed, {failed} failed")
    sys.exit(3 if internal else 1 if failed else 0)


# ---------------------------------------------------------------- replay
@click.command()
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False))
@guard
def replay(log_file: str) -> None:
    """Replay a game log written by 'play --log' and confirm the identical result."""
    from cardscript.runtime.agents import ScriptedAgent
    from cardscript.runtime.engine import Engine

    entries = read_log(log_file)
    head = entries[0]
    d, _, program = compile_with_options(*replay_sources(log_file, head))
    if head.get("scripts") not in (fingerprint(program.sources), legacy_fingerprint(program.sources)):
        click.echo("warning: the scripts changed since this log was written", err=True)
    from cardscript.dsl.harness.agent import an
    from cardscript.runtime.agents import BadAnswer, NeedAnswer
    from cardscript.runtime.errors import InvalidDecision

    queue = [e["chose"] for e in entries[1:] if e.get("t") == "decision"]
    if head["players"] < d.players[0] or head["players"] > d.players[1]:
        raise click.ClickException(f"{log_file}:1: the log says {head['players']} player"
                                   f"{'' if head['players'] == 1 else 's'}; "
                                   f"{terminal(d.name)} is for {d.players[0]} to {d.players[1]}")
    agent = ScriptedAgent(queue)
    try:
        result = Engine(d, head["players"], [agent] * head["players"], head["seed"], log=True).run()
    except (NeedAnswer, InvalidDecision, BadAnswer) as exc:
        click.echo(terminal(f"replay differs: the logged decisions no longer fit the game ({an(str(exc))})"), err=True)
        sys.exit(1)
    new = [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in result.log]
    old = [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in entries[1:]]
    for i, (a, b) in enumerate(zip(old, new, strict=False)):  # the lengths are compared after
        if a != b:
            click.echo(f"replay differs at log line {i + 2}:\n  log:    {excerpt(json_text(a))}\n"
                       f"  replay: {excerpt(json_text(b))}", err=True)
            sys.exit(1)
    if len(old) != len(new):
        click.echo(f"replay differs in length: log has {len(old)} entries, replay {len(new)}", err=True)
        sys.exit(1)
    click.echo(f"replay identical: {len(new)} entries, {terminal(result.reason)}, scores "
               + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(result.scores)))

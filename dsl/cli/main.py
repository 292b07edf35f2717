"""The ``cardscript`` command line (click). Thin: argument handling and output only.

Exit codes: 0 clean, 1 diagnostics with errors (or a failed test/replay), 2 usage error.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from cardscript.dsl.diagnostics import CompileError, Diagnostic, render


def _print_diags(diags: list[Diagnostic], sources: dict[str, str] | None = None, err: bool = True) -> None:
    for d in diags:
        click.echo(render(d, sources), err=err)


def _fail_compile(exc: CompileError, sources: dict[str, str] | None = None) -> None:
    _print_diags(exc.diagnostics, sources)
    n = sum(d.severity == "error" for d in exc.diagnostics)
    click.echo(f"{n} error(s)", err=True)
    usage = all(d.code in ("CS001", "CS002", "CS006") and d.span is None for d in exc.diagnostics)
    sys.exit(2 if usage else 1)


def _guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn user errors into diagnostics and bugs into 'internal error' (traceback with --debug)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kw: Any) -> Any:
        try:
            return fn(*args, **kw)
        except CompileError as exc:
            _fail_compile(exc)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            # the reader went away (cardscript play ... | head): stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(141)
        except Exception as exc:  # an internal error, not the user's
            from cardscript.runtime.engine import RunawayError

            if isinstance(exc, RunawayError):
                click.echo(f"error[CS401]: {exc}\n  chain: {' -> '.join(exc.chain)}", err=True)
                sys.exit(1)
            if os.environ.get("CARDSCRIPT_DEBUG") or "--debug" in sys.argv:
                traceback.print_exc()
            click.echo(f"internal error: {exc.__class__.__name__}: {exc}\n"
                       "  this is a bug in cardscript; rerun with --debug for a traceback", err=True)
            sys.exit(3)

    return wrapper


def _variant_option(fn: Any) -> Any:
    fn = click.option("--mix", "mixes", multiple=True, metavar="GAME",
                      help="mix in the cards of another set; cards needing rules this game lacks are left out "
                           "(with a warning); repeatable")(fn)
    return click.option("--variant", "variants", multiple=True, metavar="NAME",
                        help="play a variant of the game (see 'cardscript variants GAME'); repeatable")(fn)


def _compile(game: str, with_paths: tuple[str, ...] = (), variants: tuple[str, ...] = (),
             mixes: tuple[str, ...] = ()) -> Any:
    """compile_game with expansions (--with), variants (--variant) and mixed sets (--mix);
    prints the warnings (left-out cards, oversized decks) before the game starts."""
    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.dsl.front.variants import mix_scripts

    rules, cards = mix_scripts(game, list(mixes))
    d, warnings, program = compile_game(game, _extra(game, with_paths, variants) + rules, cards)
    if mixes:
        _print_diags([w for w in warnings if w.code in ("CS220", "CS221")], program.sources)
    return d, warnings, program


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardscript")
@click.option("--debug", is_flag=True, hidden=True, help="show tracebacks of internal errors")
def main(debug: bool) -> None:
    """cardscript: card games written as scripts — check, compile, play and test them."""


# ---------------------------------------------------------------- check
@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True, help="text; a JSON array; SARIF 2.1.0; GitHub Actions annotations")
@_guard
def check(paths: tuple[str, ...], fmt: str) -> None:
    """Parse and check scripts: games, expansions, libraries and scenarios under PATHS."""
    from cardscript.dsl.front.pipeline import check_paths
    from cardscript.dsl.report import format_diagnostics

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise click.BadParameter(f"no such file or folder: {missing[0]}", param_hint="PATHS")
    t0 = time.perf_counter()
    rep = check_paths(list(paths))
    out = format_diagnostics(rep.diagnostics, fmt, rep.sources)
    if out:
        click.echo(out)
    if fmt in ("text", "github"):
        ms = (time.perf_counter() - t0) * 1000
        click.echo(f"checked {len(rep.files)} file(s) in {ms:.0f} ms: {rep.errors} error(s), {rep.warnings} warning(s)")
    sys.exit(1 if rep.errors else 0)


# ---------------------------------------------------------------- cards
def _card_rows(game: str, variants: tuple[str, ...] = (), mixes: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    d, _, program = _compile(game, (), variants, mixes)
    rows = []
    for ct in d.cards:
        prints = [p for p in d.printings if p.card is ct]
        copies = sum(p.copies for p in prints)
        attrs = prints[0].attrs if prints else ct.attrs
        rows.append({
            "name": ct.name,
            "type": ", ".join(sorted(ct.types)) or "(none)",
            "cost": attrs.get("cost", 0),
            "vp": attrs.get("vp", 0),
            "copies": copies,
            "text": _card_text(ct.source, program.sources),
            "attributes": {k: v for k, v in attrs.items()},
            "printings": [{"copies": p.copies, "attributes": dict(p.attrs)} for p in prints],
        })
    return rows


def _card_text(source: str, sources: dict[str, str]) -> str:
    """The script lines of a card's abilities, joined: its text as written."""
    file, _, line = source.rpartition(":")
    lines = sources.get(file, "").splitlines()
    if not line.isdigit():
        return ""
    out = []
    for raw in lines[int(line):]:
        if not raw.startswith((" ", "\t")) or not raw.strip():
            break
        out.append(raw.strip().split("  #")[0].strip())
    return " / ".join(o for o in out if o and not o.startswith("#"))


@main.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@_variant_option
@_guard
def cards(game: str, fmt: str, variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """List the cards of GAME (a built-in name or a folder of scripts)."""
    rows = _card_rows(game, variants, mixes)
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{game}: {len(rows)} cards, {sum(r['copies'] for r in rows)} components")
    attrs = list(rows[0]["attributes"]) if rows else []
    for col in ["name", "type", *attrs, "copies", "text"]:
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(r["name"], r["type"], *(str(r["attributes"].get(a, "")) for a in attrs), str(r["copies"]),
                      r["text"])
    Console().print(table)


# ---------------------------------------------------------------- variants
@main.command()
@click.argument("game")
@_guard
def variants(game: str) -> None:
    """List the variants of GAME (use one with --variant NAME)."""
    from cardscript.dsl.front.variants import list_variants

    found = list_variants(game)
    if not found:
        click.echo(f"{game} has no variants")
        return
    width = max(len(v.key) for v in found)
    for v in found:
        click.echo(f"{v.key:<{width}}  {v.title}: {v.about}" if v.about else f"{v.key:<{width}}  {v.title}")


# ---------------------------------------------------------------- compile
def _writable(path: str, option: str) -> None:
    """Fail early (usage error, before any work) when an output file cannot be written."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise click.BadParameter(f"folder {folder} does not exist", param_hint=option)
    if target.is_dir():
        raise click.BadParameter(f"{path} is a folder", param_hint=option)
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise click.BadParameter(f"cannot write {path}", param_hint=option)


def _write_atomic(path: str, text: str) -> None:
    """Write a whole file or nothing (temp file + rename), readable as umask allows.

    Raises:
        click.ClickException: the file cannot be written (nothing is left behind).
    """
    target = Path(path)
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".", prefix=".cardscript-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as exc:
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)
        raise


@main.command(name="compile")
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="write the IR here")
@_variant_option
@_guard
def compile_cmd(game: str, output: str | None, variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """Compile GAME to its JSON IR (validated against the shipped JSON Schema)."""
    from cardscript.dsl.front.pipeline import to_ir, validate_ir

    d, warnings, program = _compile(game, (), variants, mixes)
    _print_diags(warnings, program.sources)
    ir = to_ir(d)
    problems = validate_ir(ir)
    if problems:
        raise click.ClickException("internal error: the IR does not match its schema: " + problems[0])
    text = json.dumps(ir, indent=1, sort_keys=True) + "\n"
    if output:
        _writable(output, "-o")
        _write_atomic(output, text)
        click.echo(f"wrote {output} ({len(text)} bytes)", err=True)
    else:
        click.echo(text, nl=False)


# ---------------------------------------------------------------- play
def _agents(bots: str, players: int) -> list[Any]:
    from cardscript.runtime.agents import make_agents

    try:
        return make_agents(bots.split(","), players)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None


def _check_players(d: Any, players: int | None) -> int:
    lo, hi = d.players
    n = players if players is not None else lo
    if not lo <= n <= hi:
        raise click.BadParameter(f"{d.name} is for {lo} to {hi} players, not {n}", param_hint="--players")
    return n


def _fingerprint(sources: dict[str, str]) -> str:
    h = hashlib.sha256()
    for name in sorted(sources):
        h.update(name.encode())
        h.update(sources[name].encode())
    return h.hexdigest()[:16]


@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, help="number of players (default: the game's minimum)")
@click.option("--seed", "-s", type=int, default=1, show_default=True)
@click.option("--bots", default="greedy", show_default=True, help="bots per seat, cycled: greedy,random")
@click.option("--log", "log_file", type=click.Path(dir_okay=False), help="write the replayable event log (JSON lines)")
@click.option("--quiet", "-q", is_flag=True, help="print only the final scores")
@click.option("--with", "with_paths", multiple=True, metavar="PATH",
              help="add an expansion (a folder with a cardscript.toml, or a script); repeatable")
@_variant_option
@_guard
def play(game: str, players: int | None, seed: int, bots: str, log_file: str | None, quiet: bool,
         with_paths: tuple[str, ...], variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """Play one full game of GAME with bots, printing a readable log and the scores."""
    from cardscript.dsl.cli import logfmt
    from cardscript.runtime.engine import Engine

    if log_file:
        _writable(log_file, "--log")
    d, _, program = _compile(game, with_paths, variants, mixes)
    n = _check_players(d, players)
    agents = _agents(bots, n)
    engine = Engine(d, n, agents, seed, log=True)
    if not quiet:
        quiet_events = d.quiet_events | {"play"}
        quiet_counters = {d.counters[i].name for i in d.quiet_counters}

        def show(entry: dict[str, Any]) -> None:
            line = logfmt.format_entry(entry, quiet_events, quiet_counters)
            if line is not None:
                click.echo(line)

        engine.game.listeners.append(show)
    result = engine.run()
    if quiet:
        for text in engine.game.warnings:
            click.echo(f"warning: {text}", err=True)
    _print_scores(d, result, [a.name for a in agents])
    if log_file:
        header = {"t": "header", "cardscript": 1, "game": game, "players": n, "seed": seed,
                  "bots": [a.name for a in agents], "scripts": _fingerprint(program.sources)}
        if with_paths:
            header["with"] = list(with_paths)
        if variants:
            header["variants"] = list(variants)
        if mixes:
            header["mix"] = list(mixes)
        body = "".join(json.dumps(e, sort_keys=True, ensure_ascii=False) + "\n" for e in [header] + result.log)
        _write_atomic(log_file, body)
        click.echo(f"log written to {log_file} ({len(result.log)} entries)")


def _extra(game: str, with_paths: tuple[str, ...] = (), variants: tuple[str, ...] = ()) -> list[Path]:
    """Expansion scripts (--with), then variant scripts (--variant), in that order."""
    from cardscript.dsl.front.variants import resolve_variants

    return _expansions(game, with_paths) + resolve_variants(game, list(variants))


def _expansions(game: str, paths: tuple[str, ...]) -> list[Path]:
    """The scripts of the expansions given with --with (manifests checked, combined)."""
    from cardscript.dsl.tools.manifest import load_expansions

    scripts, diags = load_expansions(game, list(paths))
    if any(d.severity == "error" for d in diags):
        raise CompileError(diags)
    return scripts


def _print_scores(d: Any, result: Any, bots: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Final scores — {result.reason} (turn {result.turns})")
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
    Console().print(table)
    if result.outcome:
        click.echo(f"Outcome: {result.outcome}")


# ---------------------------------------------------------------- simulate
@main.command()
@click.argument("game")
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--players", "-p", type=int)
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="seed of the first game; game i uses seed+i")
@click.option("--bots", default="greedy", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@click.option("--with", "with_paths", multiple=True, metavar="PATH", help="add an expansion; repeatable")
@_variant_option
@_guard
def simulate(game: str, games: int, players: int | None, seed: int, bots: str, as_json: bool,
             with_paths: tuple[str, ...], variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """Play many games with bots and summarise wins, lengths and end reasons."""
    from rich.console import Console
    from rich.progress import Progress

    from cardscript.runtime.engine import Engine


    d, _, _ = _compile(game, with_paths, variants, mixes)
    n = _check_players(d, players)
    names = [a.name for a in _agents(bots, n)]
    wins_seat: Counter[int] = Counter()
    wins_bot: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    turns: list[int] = []
    decisions: list[int] = []
    t0 = time.perf_counter()
    with Progress(transient=True, disable=as_json) as progress:
        task = progress.add_task(f"simulating {games} games", total=games)
        for i in range(games):
            res = Engine(d, n, _agents(bots, n), seed + i, log=False).run()
            share = 1 / len(res.winners) if not d.outcomes else 0  # co-operative: outcomes, no winner
            for w in res.winners:
                wins_seat[w] += share
                wins_bot[names[w]] += share
            reasons[res.reason] += 1
            if res.outcome:
                outcomes[res.outcome] += 1
            turns.append(res.turns)
            decisions.append(res.decisions)
            progress.advance(task)
    elapsed = time.perf_counter() - t0
    summary = {
        "game": d.name, "variants": list(variants), "games": games, "players": n, "bots": names, "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "wins_per_seat": {f"P{p + 1}": round(wins_seat[p], 2) for p in range(n)},
        "wins_per_bot": {b: round(wins_bot[b], 2) for b in sorted(set(names))},
        "turns_mean": round(sum(turns) / games, 2), "turns_max": max(turns),
        "decisions_per_game": round(sum(decisions) / games, 1),
        "end_reasons": dict(sorted(reasons.items())),
        "outcomes": dict(sorted(outcomes.items())),
    }
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return

    console = Console()
    if not d.outcomes:
        _wins_tables(console, d, games, n, names, wins_seat, wins_bot)
    _games_tables(console, d, games, summary, reasons, outcomes)


def _wins_tables(console: Any, d: Any, games: int, n: int, names: list[str], wins_seat: Any, wins_bot: Any) -> None:
    from rich.table import Table

    t = Table(title=f"{d.name}: {games} games, {n} players, bots {','.join(names)}")
    t.add_column("seat")
    t.add_column("bot")
    t.add_column("wins", justify="right")
    t.add_column("win %", justify="right")
    for p in range(n):
        t.add_row(f"P{p + 1}", names[p], f"{wins_seat[p]:g}", f"{100 * wins_seat[p] / games:.1f}")
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
        r.add_row(k, str(v))
    console.print(r)
    if outcomes:
        o = Table(title="outcomes")
        o.add_column("outcome")
        o.add_column("games", justify="right")
        o.add_column("%", justify="right")
        for text in [t for t, _ in d.outcomes if t in outcomes]:
            o.add_row(text, str(outcomes[text]), f"{100 * outcomes[text] / games:.1f}")
        console.print(o)


# ---------------------------------------------------------------- new
@main.group()
def new() -> None:
    """Create a new project from a template."""


@new.command(name="expansion")
@click.argument("name", type=click.Path(file_okay=False))
@click.option("--for", "game", required=True, metavar="GAME", help="the built-in game the expansion extends")
@_guard
def new_expansion(name: str, game: str) -> None:
    """Create folder NAME: a manifest, one card, one scenario and a README for GAME."""
    from cardscript.dsl.tools.scaffold import new_expansion as scaffold

    try:
        written = scaffold(Path(name), game)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME" if "unknown game" not in str(exc) else "--for")
    for path in written:
        click.echo(f"created {path}")
    click.echo(f"next: cardscript check {name} && cardscript test {name} && cardscript play {game} --with {name}")


# ---------------------------------------------------------------- test
@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_guard
def test(paths: tuple[str, ...], fmt: str) -> None:
    """Run scenario files (.scenario) under PATHS."""
    from cardscript.dsl.harness.scenario import run_scenario

    files: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise click.BadParameter(f"no such file or folder: {raw}", param_hint="PATHS")
        if p.is_file() and p.suffix != ".scenario" and not p.name.endswith(".scenario.txt"):
            raise click.BadParameter(f"{raw} is not a scenario (a .scenario file)", param_hint="PATHS")
        files.extend(sorted(p.rglob("*.scenario")) if p.is_dir() else [p])
    if not files:
        raise click.UsageError("no .scenario files found")
    failed = 0
    report = []
    for f in files:
        res = run_scenario(f)
        report.append({"file": str(f), "name": res.name, "passed": res.passed,
                       "diagnostics": [d.to_json() for d in res.diagnostics]})
        if not res.passed:
            failed += 1
        if fmt == "text":
            mark = "PASS" if res.passed else "FAIL"
            click.echo(f"{mark}  {res.name}  ({f})")
            if not res.passed:
                _print_diags(res.diagnostics, res.sources, err=False)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(f"{len(files) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


# ---------------------------------------------------------------- replay
def _read_log(log_file: str) -> list[dict[str, Any]]:
    """The entries of a log written by 'play --log', checked enough to replay safely.

    Raises:
        click.ClickException: with the line of the first problem.
    """
    def bad(line: int, why: str) -> click.ClickException:
        return click.ClickException(f"{log_file}:{line}: not a cardscript log ({why})")

    try:
        with open(log_file, encoding="utf-8") as fh:
            raw = fh.read().splitlines()
    except UnicodeDecodeError:
        raise bad(1, "not UTF-8 text") from None
    entries: list[dict[str, Any]] = []
    for no, line in enumerate(raw, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise bad(no, f"bad JSON: {exc.msg}") from None
        if not isinstance(entry, dict):
            raise bad(no, "a line is not a JSON object")
        if entry.get("t") == "decision" and not (isinstance(entry.get("chose"), list)
                                                 and all(isinstance(i, int) for i in entry["chose"])):
            raise bad(no, "a decision without its choice")
        entries.append(entry)
    if not entries or entries[0].get("t") != "header":
        raise bad(1, "no header line")
    head = entries[0]
    if head.get("cardscript") != 1:
        raise bad(1, f"log format {head.get('cardscript')!r}: this cardscript reads format 1")
    for key, kind in (("game", str), ("players", int), ("seed", int)):
        if not isinstance(head.get(key), kind) or isinstance(head.get(key), bool):
            raise bad(1, f"the header has no valid {key!r}")
    return entries


@main.command()
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False))
@_guard
def replay(log_file: str) -> None:
    """Replay a game log written by 'play --log' and confirm the identical result."""
    from cardscript.runtime.agents import ScriptedAgent
    from cardscript.runtime.engine import Engine


    entries = _read_log(log_file)
    head = entries[0]
    d, _, program = _compile(head["game"], tuple(head.get("with", ())), tuple(head.get("variants", ())),
                             tuple(head.get("mix", ())))
    if _fingerprint(program.sources) != head.get("scripts"):
        click.echo("warning: the scripts changed since this log was written", err=True)
    from cardscript.runtime.agents import BadAnswer, NeedAnswer
    from cardscript.runtime.engine import InvalidDecision

    queue = [e["chose"] for e in entries[1:] if e.get("t") == "decision"]
    if head["players"] < d.players[0] or head["players"] > d.players[1]:
        raise click.ClickException(f"{log_file}:1: the log says {head['players']} players; "
                                   f"{d.name} is for {d.players[0]} to {d.players[1]}")
    agent = ScriptedAgent(queue)
    try:
        result = Engine(d, head["players"], [agent] * head["players"], head["seed"], log=True).run()
    except (NeedAnswer, InvalidDecision, BadAnswer) as exc:
        click.echo(f"replay differs: the logged decisions no longer fit the game ({exc})", err=True)
        sys.exit(1)
    new = [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in result.log]
    old = [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in entries[1:]]
    for i, (a, b) in enumerate(zip(old, new)):
        if a != b:
            click.echo(f"replay differs at log line {i + 2}:\n  log:    {a}\n  replay: {b}", err=True)
            sys.exit(1)
    if len(old) != len(new):
        click.echo(f"replay differs in length: log has {len(old)} entries, replay {len(new)}", err=True)
        sys.exit(1)
    click.echo(f"replay identical: {len(new)} entries, {result.reason}, scores "
               + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(result.scores)))


# ---------------------------------------------------------------- fmt
@main.command(name="fmt")
@click.argument("paths", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="change nothing: print a unified diff per file that would change")
@_guard
def fmt_cmd(paths: tuple[str, ...], check: bool) -> None:
    """Rewrite the scripts under PATHS in the canonical layout (docs/fmt.md)."""
    from cardscript.dsl.tools.fmt import format_file, script_files

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise click.BadParameter(f"no such file or folder: {missing[0]}", param_hint="PATHS")
    files = script_files(list(paths))
    if not files:
        raise click.UsageError("no scripts (.rules, .cards, .variant, .scenario) found")
    changed = errors = 0
    for f in files:
        try:
            res = format_file(f, check)
        except CompileError as exc:
            _print_diags(exc.diagnostics, {str(f): f.read_text(encoding="utf-8", errors="replace")})
            errors += 1
            continue
        changed += res.changed
        if res.changed:
            click.echo(res.diff if check else f"reformatted {f}", nl=not check)
    verb = "would be reformatted" if check else "reformatted"
    click.echo(f"{changed} file(s) {verb}, {len(files) - changed - errors} unchanged, {errors} with errors", err=True)
    sys.exit(1 if errors or (check and changed) else 0)


# ---------------------------------------------------------------- render
@main.command(name="render")
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--html", "html_dir", type=click.Path(file_okay=False), help="write a card gallery: DIR/index.html")
@click.option("--svg", "svg_dir", type=click.Path(file_okay=False), help="write one print-and-play SVG per card")
@_guard
def render_cmd(game: str, fmt: str, html_dir: str | None, svg_dir: str | None) -> None:
    """Print each card's rules text, generated from its script (GAME: a name, folder or script)."""
    from cardscript.dsl.tools import render as R

    program = R.load(game)
    cards, name, defaults = R.render_program(program), R.game_name(program, game), R.defaults(program)
    if html_dir:
        click.echo(f"wrote {R.write_html(Path(html_dir), name, cards, defaults)} ({len(cards)} cards)")
    if svg_dir:
        click.echo(f"wrote {len(R.write_svg(Path(svg_dir), name, cards, defaults))} card faces to {svg_dir}")
    if html_dir or svg_dir:
        return
    if fmt == "json":
        click.echo(json.dumps([c.to_json() for c in cards], indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{name}: {len(cards)} cards")
    table.add_column("name", overflow="fold")
    table.add_column("text", overflow="fold")
    for c in cards:
        table.add_row(c.name, c.text)
    Console().print(table)


if __name__ == "__main__":  # pragma: no cover
    main()

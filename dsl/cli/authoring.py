"""The authoring commands: ``check``, ``cards``, ``variants``, ``compile``, ``new``,
``fmt`` and ``render`` (registered on the group in :mod:`cardscript.dsl.cli.main`).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from cardscript.dsl.cli.common import (
    check_writable,
    compile_with_options,
    game_or_expansion,
    guard,
    print_diags,
    variant_option,
    write_atomic,
)
from cardscript.dsl.diagnostics import CompileError, InternalError, error
from cardscript.dsl.files import FileProblem, normalise, read_bytes, read_text
from cardscript.dsl.textsafe import cell, json_text, terminal


def _require_paths(paths: tuple[str, ...], builtins: bool = False) -> list[str]:
    """``paths``, each checked: a usage error for an empty or missing PATH (an empty one
    would mean the current folder). With ``builtins``, a PATH that names no file but a
    built-in game ('check GAME', as 'play GAME' takes a name) stands for that game's folder."""
    from cardscript.dsl.front.loader import builtin_games, builtin_root

    out = []
    for p in paths:
        if not p:
            raise click.BadParameter("an empty path names nothing", param_hint="PATHS")
        if not Path(p).exists():
            if builtins and p in builtin_games():
                out.append(str(builtin_root() / p))
                continue
            hint = f" (built-in games: {', '.join(builtin_games())})" if builtins else ""
            raise click.BadParameter(f"no such file or folder: {p}{hint}", param_hint="PATHS")
        out.append(p)
    return out


def _text_or_nothing(path: Path) -> str:
    """A script's text for the excerpts of its diagnostics ("" when it cannot be read safely)."""
    try:
        return read_text(path)
    except FileProblem as exc:
        if not exc.line:
            return ""
    try:  # a byte that is not UTF-8: the rest of its line is still worth showing
        return normalise(read_bytes(path).decode("utf-8", errors="replace"))
    except FileProblem:
        return ""


# ---------------------------------------------------------------- check
@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True, help="text; a JSON array; SARIF 2.1.0; GitHub Actions annotations")
@guard
def check(paths: tuple[str, ...], fmt: str) -> None:
    """Parse and check scripts: games, expansions, libraries and scenarios under PATHS."""
    from cardscript.dsl.front.pipeline import check_paths
    from cardscript.dsl.report import format_diagnostics

    t0 = time.perf_counter()
    rep = check_paths(_require_paths(paths, builtins=True))
    out = format_diagnostics(rep.diagnostics, fmt, rep.sources)
    if out:
        click.echo(out)
    if fmt in ("text", "github"):
        ms = (time.perf_counter() - t0) * 1000
        click.echo(f"checked {len(rep.files)} file(s) in {ms:.0f} ms: {rep.errors} error(s), {rep.warnings} warning(s)")
    sys.exit(1 if rep.errors else 0)


# ---------------------------------------------------------------- cards
def _card_rows(game: str, variants: tuple[str, ...] = (), mixes: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    d, _, program = compile_with_options(*game_or_expansion(game), variants, mixes)
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


@click.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@variant_option
@guard
def cards(game: str, fmt: str, variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """List the cards of GAME (a built-in name or a folder of scripts; an expansion's
    folder lists its game's cards with the expansion's)."""
    rows = _card_rows(game, variants, mixes)
    if fmt == "json":
        click.echo(json_text(json.dumps(rows, indent=2, ensure_ascii=False)))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=cell(f"{game}: {len(rows)} cards, {sum(r['copies'] for r in rows)} components"))
    attrs = list(rows[0]["attributes"]) if rows else []
    for col in ["name", "type", *attrs, "copies", "text"]:
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(*map(cell, [r["name"], r["type"], *(r["attributes"].get(a, "") for a in attrs), r["copies"],
                                  r["text"]]))
    Console().print(table)


# ---------------------------------------------------------------- variants
@click.command()
@click.argument("game")
@guard
def variants(game: str) -> None:
    """List the variants of GAME (use one with --variant NAME)."""
    from cardscript.dsl.front.variants import list_variants

    found = list_variants(game)
    if not found:
        click.echo(f"{game} has no variants")
        return
    width = max(len(v.key) for v in found)
    for v in found:
        line = f"{v.key:<{width}}  {v.title}: {v.about}" if v.about else f"{v.key:<{width}}  {v.title}"
        click.echo(terminal(line))


# ---------------------------------------------------------------- compile
@click.command(name="compile")
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="write the IR here")
@variant_option
@guard
def compile_cmd(game: str, output: str | None, variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """Compile GAME to its JSON IR (validated against the shipped JSON Schema); an
    expansion's folder compiles its game with the expansion."""
    from cardscript.dsl.front.pipeline import to_ir, validate_ir

    d, warnings, program = compile_with_options(*game_or_expansion(game), variants, mixes)
    print_diags(warnings, program.sources)
    ir = to_ir(d)
    problems = validate_ir(ir)
    if problems:
        raise InternalError("the IR does not match its schema: " + problems[0])
    text = json.dumps(ir, indent=1, sort_keys=True) + "\n"
    if output:
        check_writable(output, "-o")
        write_atomic(output, text)
        click.echo(f"wrote {output} ({len(text)} bytes)", err=True)
    else:
        click.echo(text, nl=False)


# ---------------------------------------------------------------- new
@click.group()
def new() -> None:
    """Create a new project from a template."""


@new.command(name="expansion")
@click.argument("name", type=click.Path(file_okay=False))
@click.option("--for", "game", required=True, metavar="GAME", help="the built-in game the expansion extends")
@guard
def new_expansion(name: str, game: str) -> None:
    """Create folder NAME: a manifest, one card, one scenario and a README for GAME."""
    from cardscript.dsl.tools.scaffold import new_expansion as scaffold

    try:
        written = scaffold(Path(name), game)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME" if "unknown game" not in str(exc) else "--for") from None
    for path in written:
        click.echo(f"created {path}")
    click.echo(f"next: cardscript check {name} && cardscript test {name} && cardscript play {game} --with {name}")


# ---------------------------------------------------------------- fmt
@click.command(name="fmt")
@click.argument("paths", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="change nothing: print a unified diff per file that would change")
@guard
def fmt_cmd(paths: tuple[str, ...], check: bool) -> None:
    """Rewrite the scripts under PATHS in the canonical layout (docs/fmt.md)."""
    from cardscript.dsl.tools.fmt import format_file, script_files

    _require_paths(paths)
    files = script_files(list(paths))
    if not files:
        raise click.UsageError("no scripts (.rules, .cards, .variant, .scenario) found")
    changed = errors = 0
    for f in files:
        try:
            res = format_file(f, check)
        except CompileError as exc:
            print_diags(exc.diagnostics, {str(f): _text_or_nothing(f)})
            errors += 1
            continue
        except FileProblem as exc:  # a link, a full disk: this file is left as it was
            print_diags([error(exc.code, exc.message, None, exc.hint)])
            errors += 1
            continue
        changed += res.changed
        if res.changed:
            click.echo(terminal(res.diff, keep="\t\n") if check else f"reformatted {f}", nl=not check)
    verb = "would be reformatted" if check else "reformatted"
    click.echo(f"{changed} file(s) {verb}, {len(files) - changed - errors} unchanged, {errors} with errors", err=True)
    sys.exit(1 if errors or (check and changed) else 0)


# ---------------------------------------------------------------- render
@click.command(name="render")
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--html", "html_dir", type=click.Path(file_okay=False), help="write a card gallery: DIR/index.html")
@click.option("--svg", "svg_dir", type=click.Path(file_okay=False), help="write one print-and-play SVG per card")
@guard
def render_cmd(game: str, fmt: str, html_dir: str | None, svg_dir: str | None) -> None:
    """Print each card's rules text, generated from its script (GAME: a name, folder or script)."""
    from cardscript.dsl.tools import render as R

    program = R.load(game)
    cards, name, defaults = R.render_program(program), R.game_name(program, game), R.defaults(program)
    if not cards:  # an empty script, or a folder of none: nothing to show is a mistake, not a table
        raise click.ClickException(f"{game} declares no card to render (give a game, an expansion or a card file)")
    if html_dir or svg_dir:
        from cardscript.dsl.tools.render.html import write_html, write_svg

        try:
            if html_dir:
                click.echo(f"wrote {write_html(Path(html_dir), name, cards, defaults)} ({len(cards)} cards)")
            if svg_dir:
                click.echo(f"wrote {len(write_svg(Path(svg_dir), name, cards, defaults))} card faces to {svg_dir}")
        except FileProblem as exc:
            raise click.ClickException(exc.message + (f" ({exc.hint})" if exc.hint else "")) from None
        except FileExistsError as exc:  # the path is a file or a device: --html and --svg name folders
            raise click.ClickException(f"cannot write {exc.filename or html_dir or svg_dir}: it is not a folder "
                                       "(--html and --svg name the folder to write into)") from None
        except OSError as exc:  # the folder cannot be made
            raise click.ClickException(f"cannot write {exc.filename or html_dir or svg_dir}: {exc.strerror}") from None
        return
    if fmt == "json":
        click.echo(json_text(json.dumps([c.to_json() for c in cards], indent=2, ensure_ascii=False)))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=cell(f"{name}: {len(cards)} cards"))
    table.add_column("name", overflow="fold")
    table.add_column("text", overflow="fold")
    for c in cards:
        table.add_row(cell(c.name), cell(c.text))
    Console().print(table)

"""What the commands share: diagnostics printing, :func:`guard` (user errors as
diagnostics, bugs as "internal error"), the ``--variant``/``--mix`` options, compiling a
game with its expansions, variants and mixed sets, and writing output files safely.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from cardscript.dsl.diagnostics import CompileError, Diagnostic, render


def print_diags(diags: list[Diagnostic], sources: dict[str, str] | None = None, err: bool = True) -> None:
    for d in diags:
        click.echo(render(d, sources), err=err)


def fail_compile(exc: CompileError, sources: dict[str, str] | None = None) -> None:
    print_diags(exc.diagnostics, sources)
    n = sum(d.severity == "error" for d in exc.diagnostics)
    click.echo(f"{n} error(s)", err=True)
    usage = all(d.code in ("CS001", "CS002", "CS006") and d.span is None for d in exc.diagnostics)
    sys.exit(2 if usage else 1)


def guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn user errors into diagnostics and bugs into 'internal error' (traceback with --debug)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kw: Any) -> Any:
        try:
            return fn(*args, **kw)
        except CompileError as exc:
            fail_compile(exc)
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
        except Exception as exc:  # noqa: BLE001 -- an internal error, not the user's: reported as one
            from cardscript.runtime.errors import RunawayError

            if isinstance(exc, RunawayError):
                click.echo(f"error[CS401]: {exc}\n  chain: {' -> '.join(exc.chain)}", err=True)
                sys.exit(1)
            if os.environ.get("CARDSCRIPT_DEBUG") or "--debug" in sys.argv:
                traceback.print_exc()
            click.echo(f"internal error: {exc.__class__.__name__}: {exc}\n"
                       "  this is a bug in cardscript; rerun with --debug for a traceback", err=True)
            sys.exit(3)

    return wrapper


def variant_option(fn: Any) -> Any:
    fn = click.option("--mix", "mixes", multiple=True, metavar="GAME",
                      help="mix in the cards of another set; cards needing rules this game lacks are left out "
                           "(with a warning); repeatable")(fn)
    return click.option("--variant", "variants", multiple=True, metavar="NAME",
                        help="play a variant of the game (see 'cardscript variants GAME'); repeatable")(fn)


def compile_with_options(game: str, with_paths: tuple[str, ...] = (), variants: tuple[str, ...] = (),
                         mixes: tuple[str, ...] = ()) -> Any:
    """compile_game with expansions (--with), variants (--variant) and mixed sets (--mix);
    prints the warnings (left-out cards, oversized decks) before the game starts."""
    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.dsl.front.variants import mix_scripts

    rules, cards = mix_scripts(game, list(mixes))
    d, warnings, program = compile_game(game, _extra(game, with_paths, variants) + rules, cards)
    if mixes:
        print_diags([w for w in warnings if w.code in ("CS220", "CS221")], program.sources)
    return d, warnings, program


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


def check_writable(path: str, option: str) -> None:
    """Fail early (usage error, before any work) when an output file cannot be written."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise click.BadParameter(f"folder {folder} does not exist", param_hint=option)
    if target.is_dir():
        raise click.BadParameter(f"{path} is a folder", param_hint=option)
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise click.BadParameter(f"cannot write {path}", param_hint=option)


def write_atomic(path: str, text: str) -> None:
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

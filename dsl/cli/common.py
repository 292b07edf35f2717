"""What the commands share: diagnostics printing, :func:`guard` (user errors as
diagnostics, bugs as "internal error"), the ``--variant``/``--mix`` options, compiling a
game with its expansions, variants and mixed sets, and writing output files safely.
"""

from __future__ import annotations

import os
import stat
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from cardscript.dsl.diagnostics import CompileError, Diagnostic, internal_message, render
from cardscript.dsl.textsafe import terminal


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
    """Run a command so that no exception escapes as a traceback.

    A mistake in the scripts prints its diagnostics (exit 1, or 2 for a usage error); a
    game stopped by a runaway chain prints CS401 (exit 1); anything else is a bug in
    cardscript and prints one line, :func:`cardscript.dsl.diagnostics.internal_message`
    (exit 3), after its traceback with ``--debug`` (or ``CARDSCRIPT_DEBUG=1``).
    """
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
                click.echo(terminal(f"error[CS401]: {exc}\n  chain: {' -> '.join(exc.chain)}", keep="\n"), err=True)
                sys.exit(1)
            internal_error(exc)

    return wrapper


def debug_requested() -> bool:
    """Whether tracebacks of internal errors are wanted: ``cardscript --debug ...`` or
    ``CARDSCRIPT_DEBUG`` set (and not ``0``)."""
    if os.environ.get("CARDSCRIPT_DEBUG", "0") not in ("", "0") or "--debug" in sys.argv[1:]:
        return True
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.find_root().params.get("debug"))


def internal_error(exc: BaseException) -> NoReturn:
    """Report a bug in cardscript and exit 3: the traceback with ``--debug``, then one line."""
    if debug_requested():
        click.echo(terminal("".join(traceback.format_exception(exc)), keep="\n"), err=True, nl=False)
    click.echo(internal_message(exc), err=True)
    sys.exit(3)


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
    from cardscript.dsl.front.variants import game_scripts

    if any(not p for p in with_paths):  # "" would mean the current folder
        raise click.BadParameter("an empty path names no expansion", param_hint="--with")
    _distinct_expansions(game, with_paths)
    extra, cards = game_scripts(game, list(with_paths), list(variants), list(mixes))
    d, warnings, program = compile_game(game, extra, cards)
    if mixes:
        print_diags([w for w in warnings if w.code == "CS220"], program.sources)
    return d, warnings, program


def _distinct_expansions(game: str, with_paths: tuple[str, ...]) -> None:
    """Refuse, as one usage error, an expansion given twice or the game's own folder given
    as an expansion (it defined each of its cards and rules a second time: a flood of CS203).

    Raises:
        click.BadParameter: with ``--with`` as the parameter (exit 2).
    """
    from cardscript.dsl.diagnostics import CompileError
    from cardscript.dsl.front.loader import resolve_game

    try:
        home = resolve_game(game).resolve().parent
    except (CompileError, OSError):
        return  # compiling says what is wrong with GAME
    seen: dict[Path, str] = {}
    for p in with_paths:
        real = Path(p).resolve()
        if real == home:
            raise click.BadParameter(f"{p} is the folder of the game {game} itself, not an expansion of it",
                                     param_hint="--with")
        if real in seen:
            raise click.BadParameter(f"{p} is given twice (as {seen[real]} before)", param_hint="--with")
        seen[real] = p


def check_writable(path: str, option: str) -> None:
    """Fail early (usage error, before any work) when an output file cannot be written.

    ``-`` (standard output) and an existing device or FIFO (``/dev/null``) are written
    through, so only they need to be writable; a new path or a regular file is replaced,
    so its folder must be writable too; a symbolic link is refused
    (:func:`cardscript.dsl.files.write_text`).

    Raises:
        click.BadParameter: with ``option`` as the parameter (exit 2).
    """
    if path == "-":
        return
    if not path:
        raise click.BadParameter("an empty path names no file", param_hint=option)
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode: int | None = os.lstat(target).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISLNK(mode):
        raise click.BadParameter(f"{path} is a symbolic link: cardscript does not replace links nor write "
                                 f"through them; give the file it points to ({os.path.realpath(target)}) "
                                 "or another path", param_hint=option)
    if mode is not None and stat.S_ISDIR(mode):
        raise click.BadParameter(f"{path} is a folder", param_hint=option)
    if mode is not None and not stat.S_ISREG(mode):  # a device or FIFO: written through
        if not os.access(target, os.W_OK):
            raise click.BadParameter(f"cannot write {path}", param_hint=option)
        return
    if not folder.is_dir():
        raise click.BadParameter(f"folder {folder} does not exist", param_hint=option)
    if not os.access(folder, os.W_OK) or (mode is not None and not os.access(target, os.W_OK)):
        raise click.BadParameter(f"cannot write {path}", param_hint=option)


def write_atomic(path: str, text: str) -> None:
    """Write an output: a new path or a regular file whole or not at all (temp file +
    rename, readable as umask allows); a device, FIFO or ``-`` written through; a link
    refused (:func:`cardscript.dsl.files.write_text`).

    Raises:
        click.ClickException: the file cannot be written (exit 1; nothing is left behind).
    """
    from cardscript.dsl.files import FileProblem, write_text

    try:
        write_text(path, text)
    except FileProblem as exc:
        raise click.ClickException(exc.message + (f"; {exc.hint}" if exc.hint else "")) from None


def bot_names(bots: str) -> list[str]:
    """The bot names of a ``--bots`` value ('greedy, random' -> ['greedy', 'random']).

    Raises:
        click.BadParameter: a name is empty ('--bots ,', 'greedy,,random'): the runtime would
            fill it with its default bot, so the seats would not play what was asked.
    """
    names = [b.strip() for b in bots.split(",")]
    if not all(names):
        raise click.BadParameter(f"{terminal(repr(bots))} holds an empty bot name: give names separated by ',', "
                                 "as 'greedy,random' (heuristic, greedy, search, search:N, random)",
                                 param_hint="--bots")
    return names

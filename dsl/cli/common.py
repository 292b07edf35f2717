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

from cardscript.dsl.diagnostics import CompileError, Diagnostic, internal_message, render, unreadable_path
from cardscript.dsl.textsafe import terminal


def print_diags(diags: list[Diagnostic], sources: dict[str, str] | None = None, err: bool = True) -> None:
    for d in diags:
        click.echo(render(d, sources), err=err)


def fail_compile(exc: CompileError, sources: dict[str, str] | None = None) -> None:
    print_diags(exc.diagnostics, sources)
    n = sum(d.severity == "error" for d in exc.diagnostics)
    click.echo(f"{n} error(s)", err=True)
    usage = all(d.code in ("CS001", "CS002", "CS006", "CS007") and d.span is None for d in exc.diagnostics)
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
        except OSError as exc:
            # a path given (or named by a script) that the system cannot even look up: the
            # user's mistake (exit 2), not cardscript's
            unreadable = unreadable_path(exc)
            if unreadable is None:
                internal_error(exc)
            click.echo(f"Error: {unreadable.message}", err=True)
            sys.exit(2)
        except Exception as exc:  # noqa: BLE001 -- an internal error, not the user's: reported as one
            from cardscript.runtime.errors import RunawayError

            if isinstance(exc, RunawayError):
                from cardscript.dsl.diagnostics import render, runaway, runaway_position

                click.echo(render(runaway(str(exc), exc.chain, runaway_position(exc))), err=True)
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


#: the most games one command plays (--games): far more than any table would, and small
#: enough that a batch's list of seeds fits in memory; a typo of a few digits more ends at
#: once as a usage error instead of filling the memory before the first game
MAX_GAMES = 10_000_000

#: the type of a --games option
GAMES = click.IntRange(min=1, max=MAX_GAMES)

#: the most processes per core a --jobs N starts: past a few per core a batch is no faster,
#: and hundreds of processes (--jobs 200 on two cores) only fill the memory
JOBS_PER_CORE = 4


def check_seeds(seed: int, games: int) -> None:
    """Refuse a batch whose last seed (``seed + games - 1``: game i plays seed + i) is over
    the largest seed, 2^63 - 1.

    Raises:
        click.BadParameter: on ``--seed`` (exit 2), before any game is played.
    """
    from cardscript.runtime.errors import MAX_SEED

    if seed + games - 1 > MAX_SEED:
        raise click.BadParameter(f"{games:,} games from seed {seed} end at seed {seed + games - 1}, over the "
                                 f"largest seed {MAX_SEED} (2^63 - 1): give --seed at most {MAX_SEED - games + 1}",
                                 param_hint="--seed")


def capped_jobs(jobs: int | None) -> int:
    """The processes a ``--jobs`` plays on: every core when not given; at most
    :data:`JOBS_PER_CORE` per core (a note on stderr says so when ``jobs`` is more)."""
    from cardscript.dsl.sim.pool import default_jobs

    cores = default_jobs()
    if jobs is None:
        return cores
    most = JOBS_PER_CORE * cores
    if jobs > most:
        click.echo(f"note: --jobs {jobs} is more than {JOBS_PER_CORE} processes per core ({cores} core(s)): "
                   f"using {most}", err=True)
        return most
    return jobs


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
    twice = next((v for i, v in enumerate(variants) if v in variants[:i]), None)
    if twice is not None:  # as a set mixed in twice (CS007) or an expansion given twice
        raise click.BadParameter(f"{twice} is given twice", param_hint="--variant")
    extra, cards = game_scripts(game, list(with_paths), list(variants), list(mixes))
    d, warnings, program = compile_game(game, extra, cards)
    note_inputs(program.sources)  # before any game is played: no output may name a script read
    if mixes:
        print_diags([w for w in warnings if w.code == "CS220"], program.sources)
    return d, warnings, program


def game_or_expansion(game: str) -> tuple[str, tuple[str, ...]]:
    """GAME as ``cards`` and ``compile`` take it, and the expansions to compile it with: an
    expansion package's folder (scripts starting ``expansion "..."``, none with a ``game``
    header) stands for the game it extends, with the folder as ``--with`` (the game its
    manifest names, as ``check`` compiles it); without a manifest, its scripts are the
    program, read as ``render`` reads such a folder (their ``uses`` bring in the game).
    Any other GAME is returned as it is, with no expansions.

    Raises:
        CompileError: the folder's manifest has errors.
    """
    from cardscript.dsl.front.loader import _header_kind
    from cardscript.dsl.tools.manifest import expansion_scripts, read_manifest

    folder = Path(game)
    if not game or not folder.is_dir():
        return game, ()
    scripts = expansion_scripts(folder)
    kinds = {f: _header_kind(f) for f in scripts}
    if "game" in kinds.values() or "expansion" not in kinds.values():
        return game, ()  # a game folder, or no expansion: compiling says what is wrong
    if (folder / MANIFEST).is_file():
        manifest, diags = read_manifest(folder / MANIFEST)
        if manifest is None:
            raise CompileError(diags)
        return manifest.game, (game,)
    ordered = sorted(scripts, key=lambda f: kinds[f] != "expansion")  # an expansion script leads
    return str(ordered[0]), tuple(str(f) for f in ordered[1:])


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


# ---------------------------------------------------------------- outputs never clobber inputs
#: an existing file with one of these suffixes (or named :data:`MANIFEST`) is never an output
PROTECTED_SUFFIXES = (".cards", ".rules", ".variant", ".scenario")
MANIFEST = "cardscript.toml"


def _io() -> dict[str, dict[str, str]] | None:
    """This command's inputs (real path -> what it is: 'script', 'results file') and its
    declared outputs (path -> option), kept on the click context so that each run starts
    afresh; None outside a command (the Python API)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return None
    state: dict[str, dict[str, str]] = ctx.meta.setdefault("cardscript.io", {"inputs": {}, "outputs": {}})
    return state


def note_inputs(paths: Any, what: str = "script") -> None:
    """Record files this command reads (the scripts of the program, results files) and
    check every output declared so far (:func:`check_writable`) against them, so that an
    output naming an input is refused before any game is played.

    Raises:
        click.BadParameter: a declared output is one of them (exit 2).
    """
    state = _io()
    if state is None:
        return
    for p in paths:
        if p and p != "-":
            state["inputs"].setdefault(os.path.realpath(p), what)
    for path, option in state["outputs"].items():
        refuse_clobber(path, option)


def refuse_clobber(path: str, option: str) -> None:
    """The one guard of every output file: refuse a path that is (after resolving links and
    relative parts) an input of this command (:func:`note_inputs`), or an existing script
    (:data:`PROTECTED_SUFFIXES`) or manifest, which no output option is meant to replace.

    Raises:
        click.BadParameter: with ``option`` as the parameter (exit 2); nothing is written.
    """
    if not path or path == "-":
        return
    real = os.path.realpath(path)
    state = _io()
    what = state["inputs"].get(real) if state is not None else None
    if what is not None:
        what = f"an input {what}"
    elif os.path.isfile(real):
        names = {Path(real).name, Path(path).name}
        if any(n.endswith(PROTECTED_SUFFIXES) for n in names):
            what = "a script"
        elif MANIFEST in names:
            what = "an expansion's manifest"
    if what is not None:
        raise click.BadParameter(f"{terminal(path)} would overwrite {what}; choose another file", param_hint=option)


def claim_output(path: str, option: str) -> None:
    """Declare ``path`` the output of ``option``, refusing a path another output option of
    this command writes too (standard output, ``-``, included): the second file written
    would replace the first without a word.

    Raises:
        click.BadParameter: with ``option`` as the parameter (exit 2); nothing is written.
    """
    state = _io()
    if state is None:
        return
    for other, other_option in state["outputs"].items():
        if other_option != option and (other == path == "-" or (
                "-" not in (other, path) and os.path.realpath(other) == os.path.realpath(path))):
            raise click.BadParameter(f"{terminal(path)} is the file of {other_option} {terminal(other)} too: "
                                     "give each its own file", param_hint=option)
    state["outputs"].setdefault(path, option)


def check_writable(path: str, option: str) -> None:
    """Fail early (usage error, before any work) when an output file cannot be written.

    ``-`` (standard output) and an existing device or FIFO (``/dev/null``) are written
    through, so only they need to be writable; a new path or a regular file is replaced,
    so its folder must be writable too; a symbolic link is refused
    (:func:`cardscript.dsl.files.write_text`).

    Raises:
        click.BadParameter: with ``option`` as the parameter (exit 2).
    """
    if not path:
        raise click.BadParameter("an empty path names no file", param_hint=option)
    claim_output(path, option)
    if path == "-":
        return
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
    refuse_clobber(path, option)


def write_atomic(path: str, text: str, option: str | None = None) -> None:
    """Write an output: a new path or a regular file whole or not at all (temp file +
    rename, readable as umask allows); a device, FIFO or ``-`` written through; a link
    refused (:func:`cardscript.dsl.files.write_text`); an input of the command or an
    existing script refused (:func:`refuse_clobber`).

    Args:
        option: the option naming ``path``, for the message (default: the one it was
            declared with by :func:`check_writable`).

    Raises:
        click.BadParameter: the path is an input or a script (exit 2; nothing is written).
        click.ClickException: the file cannot be written (exit 1; nothing is left behind).
    """
    from cardscript.dsl.files import FileProblem, write_text

    state = _io()
    declared = state["outputs"].get(path) if state is not None else None
    refuse_clobber(path, option or declared or "output")
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

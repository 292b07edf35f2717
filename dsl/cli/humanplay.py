"""Playing a game with human seats (issue 15): :func:`play_human` runs it, replaying it
from its seed on ``undo``; :func:`play_cli` is ``cardscript play GAME --human SEAT`` and
``cardscript play --resume FILE`` (registered through :mod:`cardscript.dsl.cli.playing`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cardscript.dsl.cli.human import SAVE_FORMAT, HumanAgent, Quit, ReplayMismatch, Session, Undo
from cardscript.dsl.cli.replaylog import HEADER_SCHEMA
from cardscript.runtime.decision import Agent
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import MAX_SEED
from cardscript.runtime.result import Result


def play_human(definition: Any, agents: Sequence[Agent], seed: int, *, session: Session | None = None,
               log: bool = True) -> Result:
    """Play one game in which some seats are :class:`HumanAgent` objects, to its end.

    On ``undo`` the game is played again from ``seed`` with the answers recorded so far,
    minus the one taken back: the engine is deterministic, so it reaches the same decision
    again (the human seats answer the replayed decisions silently; the bots, re-bound,
    draw the same streams). ``session`` carries answers to replay first (a save file's)
    and the game's source for ``save``.

    Returns:
        The :class:`~cardscript.runtime.result.Result`, as ``cardscript.play_game``.

    Raises:
        Quit: a human seat's input ended (or the player typed ``quit``): the game is unfinished.
        ReplayMismatch: a recorded answer does not fit its decision (the scripts changed).
    """
    from cardscript.runtime.seatlog import SeatLog

    session = session if session is not None else Session()
    session.driven = True
    humans = [(p, a) for p, a in enumerate(agents) if isinstance(a, HumanAgent)]
    for _, h in humans:
        h.session = session
    while True:
        session.rewind()
        engine = Engine(definition, len(agents), agents, seed, log=log)
        for p, h in humans:
            seat_log = SeatLog(engine.game, p)
            engine.game.listeners.append(seat_log)
            h.events = seat_log.entries  # plain entries only: the seat log itself holds the game
        try:
            result = engine.run()
        except Undo:
            continue
        if session.cursor < len(session.answers):
            raise ReplayMismatch(f"the game ended with {len(session.answers) - session.cursor} recorded answers "
                                 "left over")
        return result


def _source_path(value: str) -> str:
    # A folder or file given by path is saved absolute, so that --resume works from anywhere.
    p = Path(value)
    return str(p.resolve()) if value and p.exists() else value


def play_cli(game: str | None, players: int | None, seed: int, bots: str, humans: tuple[int, ...],
             with_paths: tuple[str, ...], variants: tuple[str, ...], mixes: tuple[str, ...],
             resume: str | None, log_file: str | None,
             print_scores: Callable[[Any, Any, list[str]], None]) -> None:
    """``cardscript play`` with human seats (1-based ``humans``) or ``--resume FILE``.

    Raises:
        click.BadParameter, click.UsageError: a seat outside the game, a bad save file.
        SystemExit: 1 when the input ends before the game does.
    """
    import click

    from cardscript.dsl.cli.common import check_writable, compile_with_options, note_inputs
    from cardscript.dsl.cli.humanview import table_info
    from cardscript.dsl.cli.playing import _agents, _check_players
    from cardscript.dsl.cli.replaylog import _is_builtin_game, fingerprint, replay_sources, write_game_log
    from cardscript.dsl.diagnostics import CompileError
    from cardscript.dsl.textsafe import terminal

    answers: list[tuple[int, list[int]]] = []
    saved_scripts = None
    if resume:
        if game or humans or with_paths or variants or mixes:
            raise click.UsageError("--resume FILE plays the saved game: give no GAME, --human, --with, --variant "
                                   "or --mix with it")
        data = _read_save(resume)
        note_inputs([resume], "saved game")  # --log FILE must not replace the save it plays
        players, seed, bots, humans = data["players"], data["seed"], data["bots"], tuple(data["humans"])
        # the scripts it names: inside its folder, the current folder or the built-in games, as a log's
        game, with_paths, variants, mixes = replay_sources(resume, data, what="save file")
        # a built-in game's name stays a name (in a log's header, a save made again)
        game = data["game"] if _is_builtin_game(data["game"]) else game
        mixes = tuple(m if _is_builtin_game(m) else p for m, p in zip(data["mix"], mixes, strict=True))
        answers = [(int(s), [int(i) for i in a]) for s, a in data["answers"]]
        saved_scripts = data.get("scripts")
    if not game:
        raise click.UsageError("give the GAME to play (or --resume FILE)")
    if log_file == "-":  # the JSON lines would land in the middle of the screen's text
        raise click.BadParameter("standard output is the game's screen in human play: give a file, e.g. "
                                 "--log game.jsonl", param_hint="--log")
    if log_file:
        check_writable(log_file, "--log")
    try:
        d, _, program = compile_with_options(game, with_paths, variants, mixes)
    except CompileError as exc:  # a name in the save, not on the command line: the file is at fault (exit 1)
        if resume and any(x.code == "CS002" for x in exc.diagnostics):
            raise click.ClickException(f"{terminal(resume)}: the save file names a game this cardscript does not "
                                       f"know: {terminal(str(data['game']))!r}") from None
        raise
    if saved_scripts is not None and saved_scripts != fingerprint(program.sources):
        click.echo("warning: the scripts changed since this game was saved", err=True)
    try:
        n = _check_players(d, players)
        for s in humans:
            if not 1 <= s <= n:
                more = ("" if players is not None or not n < s <= d.players[1]
                        else f" (--players {s} or more for seat {s})")
                raise click.BadParameter(f"seat {s}: a game of {n} player{'s' if n != 1 else ''} has seats 1 to {n}"
                                         + more, param_hint="--human")
        if len(set(humans)) < len(humans):
            raise click.BadParameter("each seat once", param_hint="--human")
        agents = _agents(bots, n)
    except click.BadParameter as exc:
        if not resume:
            raise
        # the value came from the file, not from an option the user typed: name the file's field
        key = _SAVE_KEY.get(str(exc.param_hint), str(exc.param_hint))
        raise click.ClickException(f"{resume}: the save file's '{key}' does not fit the game: {exc.message}") \
            from None
    info = table_info(d, program)
    for s in humans:
        agents[s - 1] = HumanAgent(sys.stdin, sys.stdout, info=info)
    source = {"game": _source_path(game), "with": [_source_path(p) for p in with_paths],
              "variants": [_source_path(v) for v in variants], "mix": list(mixes), "players": n, "seed": seed,
              "bots": bots, "humans": sorted(humans), "scripts": fingerprint(program.sources)}
    session = Session(source, answers)
    if resume:
        session.notice = f"Resumed {resume}: {len(answers)} saved answers replayed."
    try:
        result = play_human(d, agents, seed, session=session)
    except Quit:
        click.echo("The game stops here, unfinished. Next time, type 'save FILE' first: "
                   "'cardscript play --resume FILE' picks a saved game up again.", err=True)
        sys.exit(1)
    except KeyboardInterrupt:  # Ctrl-C at a prompt: the same reminder as the end of the input
        click.echo("\ninterrupted: the game stops here, unfinished. Next time, type 'save FILE' first: "
                   "'cardscript play --resume FILE' picks a saved game up again.", err=True)
        sys.exit(130)
    except ReplayMismatch as exc:
        raise click.ClickException(f"{resume or 'the game'}: the saved answers no longer fit the game ({exc})") \
            from None
    first = next(a for a in agents if isinstance(a, HumanAgent))
    first.screen.say("")
    first.screen.recent(first.events, first.seat, limit=24)
    sys.stdout.flush()
    print_scores(d, result, [a.name for a in agents])
    if log_file:
        write_game_log(log_file, result, [a.name for a in agents], seed, program, game, with_paths, variants, mixes)


#: the save file's field that stands for each option of ``cardscript play``
_SAVE_KEY = {"--human": "humans", "--bots": "bots", "--players": "players"}
_KIND = {"str": "a text", "int": "a whole number", "list": "a list"}


def _read_save(path: str) -> dict[str, Any]:
    """A save file's content, checked.

    Raises:
        click.ClickException: unreadable, not JSON, not a save file, or a field of the wrong type.
    """
    import click

    from cardscript.dsl.cli.replaylog import excerpt
    from cardscript.dsl.files import MAX_LOG_BYTES, FileProblem, read_bytes

    try:  # a regular file (a FIFO would block, /dev/zero never end) of a bounded size
        data = json.loads(read_bytes(path, limit=MAX_LOG_BYTES).decode())
    except FileProblem as exc:
        raise click.ClickException(exc.message) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{path} is not a save file (not JSON: {exc})") from None
    except (ValueError, RecursionError):  # a number of too many digits; arrays nested too deeply
        raise click.ClickException(f"{path} is not a save file (a value too large or nested too deeply)") from None
    version = data.get("cardscript_save") if isinstance(data, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version != SAVE_FORMAT:
        raise click.ClickException(f"{path} is a save file of format {version}, written by another version of "
                                   f"cardscript: this one reads format {SAVE_FORMAT}")
    if not isinstance(data, dict) or type(data.get("cardscript_save")) is not int \
            or data["cardscript_save"] != SAVE_FORMAT:
        raise click.ClickException(f"{path} is not a save file of this cardscript (written by 'save FILE' "
                                   "during 'cardscript play --human')")
    shapes: dict[str, Any] = {"game": str, "players": int, "seed": int, "bots": str, "humans": list,
                              "with": list, "variants": list, "mix": list, "answers": list}
    for key, kind in shapes.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise click.ClickException(f"{path}: the save file's '{key}' is missing or not {_KIND[kind.__name__]}")
    for key, (low, high) in _RANGE.items():
        if not low <= data[key] <= high:
            raise click.ClickException(f"{path}: the save file's '{key}' is {excerpt(str(data[key]))}, not a whole "
                                       f"number from {low} to {high}")
    if not 0 < len(data["game"]) <= 4096:
        raise click.ClickException(f"{path}: the save file's 'game' is not a game's name or path")
    for key in ("with", "variants", "mix"):
        if not all(isinstance(v, str) and 0 < len(v) <= 4096 for v in data[key]):
            raise click.ClickException(f"{path}: the save file's '{key}' is not a list of names or paths")
    ok = all(isinstance(a, list) and len(a) == 2 and _whole(a[0]) and isinstance(a[1], list)
             and all(_whole(i) for i in a[1]) for a in data["answers"])
    if not ok or not all(_whole(h) for h in data["humans"]):
        raise click.ClickException(f"{path}: the save file's answers or humans are malformed")
    return data


#: the bounds of the save file's numbers: a log header's (replaylog.HEADER_SCHEMA)
_RANGE = {"players": (1, HEADER_SCHEMA["properties"]["players"]["maximum"]), "seed": (0, MAX_SEED)}


def _whole(v: Any) -> bool:
    """A seat or an option's index, as a save file holds one: an int (not a bool) of a sane size."""
    return type(v) is int and 0 <= v <= 1 << 31

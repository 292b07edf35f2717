"""A person at the table (issue 15, ``cardscript play GAME --human SEAT``).

:class:`HumanAgent` is an ordinary :class:`~cardscript.runtime.decision.Agent`: at each
decision it gets its seat's Observation and DecisionView, never the game, draws the
screen (:mod:`cardscript.dsl.cli.humanview`) and reads an answer from its input stream,
a terminal or lines piped in. Besides a number it takes commands: ``?NAME``, ``log``,
``undo``, ``save FILE``, ``help``.

``undo`` and ``save`` rest on the engine being deterministic: a game is its definition,
seat count, seed and the answers given so far (the bots draw from streams seeded by the
game's seed). :func:`play_human` plays a game and, on ``undo``, plays it again from the
seed with the recorded answers minus the last one, silently, up to the decision taken
back. A save file holds exactly that, as JSON; ``--resume`` replays it the same way.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Sequence
from typing import IO, Any

from cardscript.dsl.cli.humanview import Screen, TableInfo, pick_range
from cardscript.dsl.textsafe import terminal
from cardscript.runtime.decision import Agent
from cardscript.runtime.observation import DecisionView, Observation

#: the format number of a save file
SAVE_FORMAT = 1
#: the longest line taken as an answer (a longer one, a paste, is re-asked; the rest is not kept)
LINE_LIMIT = 4096

HELP = """Commands (at any prompt):
  NUMBER         choose that option (several for a multi-pick: "1 3 4" or "1,3"; 0 or empty for none)
  yes / no       answer a yes/no question
  ?NAME          show a card's rules text (any card of the game; part of a name will do)
  log [N]        show the last N events you saw (default 60)
  undo           take back your last choice
  save FILE      save the game to FILE and play on ('cardscript play --resume FILE' picks it up)
  help           this list
  quit           stop the game, unfinished (save first to go on later)"""


class Undo(BaseException):
    """Raised out of the engine to play the game again without the answer taken back (a
    BaseException: no handler of the effects' errors may stop it on its way out)."""


class Quit(BaseException):
    """The input ended (EOF) or the player typed ``quit``: the game stops, unfinished."""


class ReplayMismatch(Exception):
    """A recorded answer does not fit the decision it is replayed to (the scripts changed
    since the game was saved)."""


class Session:
    """The answers of a game's human seats, in the order given, and where the game came
    from (``source``: game, expansions, variants, mixed sets, players, seed, bots, humans —
    what a save file needs to play it again). Shared by every :class:`HumanAgent` of one
    game (hot-seat play)."""

    def __init__(self, source: dict[str, Any] | None = None, answers: Sequence[tuple[int, list[int]]] = ()):
        self.source = source
        self.answers: list[tuple[int, list[int]]] = [(s, list(a)) for s, a in answers]
        self.cursor = 0  # answers replayed so far in the current run of the game
        self.driven = False  # played by play_human, which replays the game on undo
        self.notice = ""  # said once, under the next screen drawn (after an undo, a resume)

    def rewind(self) -> None:
        """A new run of the game starts: every recorded answer is to be replayed."""
        self.cursor = 0

    def replayed(self, seat: int, d: DecisionView) -> list[int] | None:
        """The recorded answer of the next decision when the game is being replayed, else None.

        Raises:
            ReplayMismatch: the recorded answer was given by another seat or does not fit ``d``.
        """
        if self.cursor >= len(self.answers):
            return None
        who, picks = self.answers[self.cursor]
        if who != seat or not d.low <= len(picks) <= d.high or any(not 0 <= i < d.size for i in picks):
            raise ReplayMismatch(f"answer {self.cursor + 1} ({[i + 1 for i in picks]} by P{who + 1}) does not fit "
                                 f"P{seat + 1}'s decision '{d.purpose}' of {d.size} options")
        self.cursor += 1
        return list(picks)

    def record(self, seat: int, picks: list[int]) -> None:
        self.answers.append((seat, list(picks)))
        self.cursor = len(self.answers)

    def take_back(self, seat: int) -> bool:
        """Forget ``seat``'s last answer and every answer after it; False when it has none."""
        for i in range(len(self.answers) - 1, -1, -1):
            if self.answers[i][0] == seat:
                del self.answers[i:]
                return True
        return False

    def to_json(self) -> dict[str, Any]:
        """The save file's content (``source`` plus the answers as ``[seat, [option, ...]]``, 0-based)."""
        return {"cardscript_save": SAVE_FORMAT, **(self.source or {}),
                "answers": [[s, a] for s, a in self.answers]}

    def save(self, path: str) -> None:
        """Write the save file at ``path``, whole or not at all (temp file + rename).

        Raises:
            FileProblem: it cannot be written (nothing is left behind).
            ValueError: the session has no source (a game not started by ``cardscript play``
                nor given one): it could not be played again.
        """
        from cardscript.dsl.cli.replaylog import header_sources
        from cardscript.dsl.files import write_text

        if self.source is None:
            raise ValueError("this game has no source to save (pass source= to play_human)")
        data = self.to_json()
        # scripts as a log's header holds them: relative to the save's folder when inside it
        # (the save moves with its scripts), else absolute; --resume reads them back from there
        stored = header_sources(path, str(data.get("game", "")), tuple(data.get("with", ())),
                                tuple(data.get("variants", ())), tuple(data.get("mix", ())))
        data.update((k, v) for k, v in stored.items() if k in data)
        write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


class HumanAgent(Agent):
    """A person answering at ``input``/``output`` (default: the terminal's stdin/stdout).

    Args:
        input, output: text streams; the answers are read a line at a time, so lines piped
            in (or a test's StringIO) work as a terminal does.
        info: the game's name and card texts (:func:`~cardscript.dsl.cli.humanview.table_info`);
            or ``game``, a game name or path to build it from.
        tty: draw with colours and clear the screen (default: whether ``output`` is a terminal).

    ``undo`` and ``save`` need :func:`play_human` (``cardscript.play_game`` uses it when an
    agent is a HumanAgent); an EOF on ``input`` raises :class:`Quit` out of the game.
    """

    name = "human"

    def __init__(self, input: IO[str] | None = None, output: IO[str] | None = None, *,
                 info: TableInfo | None = None, game: str | None = None, tty: bool | None = None):
        self.input = input if input is not None else sys.stdin
        if self.input is sys.stdin and isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
            # a UTF-8 locale reads stdin strictly: one stray byte (a binary paste) would raise
            # UnicodeDecodeError out of the game; replaced, it is an answer that fits nothing
            sys.stdin.reconfigure(errors="replace")
        self.output = output if output is not None else sys.stdout
        if info is None and game is not None:
            info = _info_of(game)
        self.info = info or TableInfo()
        self.tty = self.output.isatty() if tty is None else tty
        self.screen = Screen(self.output, self.tty, self.info)
        self.session = Session()
        self.events: list[dict[str, Any]] = []  # this seat's log (runtime.seatlog), filled by play_human
        self.seat = 0

    def bind(self, seat: int, seed: int) -> None:
        self.seat = seat

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        """Draw the screen and read answers until one fits ``decision`` (or a replayed one).

        Raises:
            Undo: the player took back their last choice (:func:`play_human` replays the game).
            Quit: the input ended.
            ReplayMismatch: a replayed answer does not fit.
        """
        picks = self.session.replayed(self.seat, decision)
        if picks is not None:
            return picks
        self.screen.decision(view, decision, self.events)
        if self.session.notice:
            self.screen.say(self.session.notice, "yellow")
            self.session.notice = ""
        while True:
            line = self._read(decision)
            if line is None:
                continue
            result = self._answer(line, view, decision)
            if result is not None:
                self.session.record(self.seat, result)
                return result

    def _read(self, d: DecisionView) -> str | None:
        """The next line of input; None (after saying why) for a line too long to be an answer."""
        prompt = f"P{d.player + 1} > "
        if self.input is sys.stdin and self.tty and sys.stdin.isatty():
            try:
                typed = input(prompt)  # line editing and history on a terminal
            except EOFError:
                raise self._eof() from None
            if len(typed) <= LINE_LIMIT:
                return typed
            self._too_long(len(typed), d)
            return None
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline(LINE_LIMIT + 1)
        if not line:
            raise self._eof()
        if len(line) > LINE_LIMIT and not line.endswith("\n"):
            # read the rest of a huge line a piece at a time, counting it, never holding it whole
            size = len(line)
            while (rest := self.input.readline(65536)) and not rest.endswith("\n"):
                size += len(rest)
            size += len(rest.rstrip("\r\n"))
            if not self.tty:
                self.output.write(_clip(line, 40) + "\n")
            self._too_long(size, d)
            return None
        if not self.tty:  # the transcript of piped answers reads as a session would (escapes shown, not run)
            self.output.write(terminal(line.rstrip("\r\n")) + "\n")
        return line.rstrip("\r\n")

    def _too_long(self, size: int, d: DecisionView) -> None:
        self.screen.say(f"that line is too long ({size:,} characters; an answer has at most {LINE_LIMIT:,}): "
                        f"type a number from 1 to {d.size}, or help", "red")

    def _eof(self) -> Quit:
        self.output.write("\n")
        return Quit("the input ended")

    def _answer(self, line: str, view: Observation, d: DecisionView) -> list[int] | None:
        """The picks ``line`` gives, or None after doing its command or saying why it does not fit."""
        text = line.strip()
        word, _, rest = text.partition(" ")
        low = word.lower()
        if text.startswith("?"):
            self._show_card(text[1:].strip())
            return None
        if low in ("help", "h", "commands"):
            self.screen.say(HELP)
            return None
        if low == "log":
            self._log(rest.strip())
            return None
        if low == "undo":
            if not self.session.driven:
                self.screen.say("undo needs a game played by play_human or 'cardscript play --human'", "red")
            elif self.session.take_back(self.seat):
                self.screen.say("taking back your last choice…", "yellow")
                self.session.notice = "Your last choice was taken back: choose again."
                raise Undo()
            else:
                self.screen.say("nothing to undo: you have not chosen anything yet", "red")
            return None
        if low == "save":
            self._save(rest.strip())
            return None
        if low in ("quit", "exit"):
            raise Quit("the player quit")
        picks, problem = parse_picks(text, d)
        if problem:
            self.screen.say(problem, "red")
            return None
        return picks

    def _show_card(self, name: str) -> None:
        if not name:
            self.screen.say("?NAME shows a card: e.g. ?" + next(iter(self.info.cards), "Card Name"), "red")
            return
        card, near = self.info.find(name)
        if card is not None:
            self.screen.card(card)
        elif near:
            self.screen.say(f"no card called '{terminal(name)}'; did you mean: {', '.join(map(terminal, near))}?",
                            "red")
        else:
            self.screen.say(f"no card called '{terminal(name)}' in {terminal(self.info.game) or 'this game'}", "red")

    def _log(self, arg: str) -> None:
        lines = self.screen.event_lines(self.events)
        if not arg:
            n = 60
        elif arg.isascii() and arg.isdigit():  # a count larger than the log shows all of it
            n = int(arg) if _NUMBER.fullmatch(arg) else len(lines)
        else:
            self.screen.say(f"log N: N is how many events to show, e.g. log 20 (not '{_clip(arg)}')", "red")
            return
        for line in lines[max(len(lines) - n, 0):]:
            self.screen.say(line.strip("\n"))
        if not lines:
            self.screen.say("nothing has happened yet", "dim")

    def _save(self, path: str) -> None:
        from cardscript.dsl.files import FileProblem

        if not path:
            self.screen.say("save FILE: give the file to write, e.g. save game.json", "red")
            return
        import os

        path = os.path.expanduser(path)  # typed at our prompt, not a shell's: '~/game.json' is still home
        if os.path.isfile(path) and not _is_save_file(path):  # 'save game.rules' must not eat a script
            self.screen.say(f"not saved: {terminal(path)} exists and is not a save file, so it is not replaced; "
                            "give another name (e.g. save game.json)", "red")
            return
        try:
            self.session.save(path)
        except FileProblem as exc:
            self.screen.say(f"not saved: {exc.message}" + (f" ({exc.hint})" if exc.hint else ""), "red")
        except ValueError as exc:
            self.screen.say(f"not saved: {exc}", "red")
        else:
            self.screen.say(f"saved to {terminal(path)} ({len(self.session.answers)} answers); "
                            f"'cardscript play --resume {terminal(path)}' picks it up. Play on:", "green")


def _is_save_file(path: str) -> bool:
    """Whether ``path`` holds a save file (of any format): one ``save`` may replace."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return False
    return re.match(rb'\s*\{\s*"cardscript_save"\s*:', head) is not None


def _info_of(game: str) -> TableInfo:
    from cardscript.dsl.cli.humanview import table_info
    from cardscript.dsl.front.pipeline import compile_game

    definition, _, program = compile_game(game)
    return table_info(definition, program)


_SPLIT = re.compile(r"[\s,]+")
#: a number as an answer: ASCII digits, few enough for int() (an option, an event count)
_NUMBER = re.compile(r"0*[0-9]{1,9}")


def _clip(text: str, width: int = 12) -> str:
    """Typed text quoted back in a hint: made safe for the terminal, and cut short."""
    return terminal(text if len(text) <= width else text[:width] + "…")


def parse_picks(text: str, d: DecisionView) -> tuple[list[int], str]:
    """The 0-based picks a line of input gives ``d``, or ``([], why not)``.

    A number per option ("3"; several as "1 3 4" or "1,3"); "0" or nothing for none when
    ``d`` allows none; "yes"/"no" for a yes/no decision; or an option's label typed out.
    """
    n, low, high = d.size, d.low, min(d.high, d.size)
    labels = d.labels
    word = text.lower()
    if d.kind == "yes/no" and word in ("y", "yes", "n", "no"):
        want = "yes" if word.startswith("y") else "no"
        return [labels.index(want)] if want in labels else [], "" if want in labels else "answer with a number"
    if word in ("", "0", "none"):
        if low == 0:
            return [], ""
        return [], (f"type the number of your choice (1 to {n}), or help" if not text else
                    f"you must choose at least {low}: {pick_range(low, high)}")
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    if all(t.isdigit() for t in tokens):
        # isdigit() also takes '²' and a 5,000-digit number, which int() refuses: they are no option
        bad = [t for t in tokens if not _NUMBER.fullmatch(t) or not 1 <= int(t) <= n]
        if bad:
            return [], f"there is no option {_clip(bad[0])}: the options are 1 to {n}"
        picks = [int(t) - 1 for t in tokens]
        if len(set(picks)) < len(picks):
            return [], "each option can be chosen once"
        if not low <= len(picks) <= high:
            return [], f"{len(picks)} chosen: {pick_range(low, high)}" + (" (one number)" if high == 1 else "")
        return sorted(picks), ""
    matches = [i for i, label in enumerate(labels) if label.lower() == word]
    if matches and low <= 1 <= high:
        return [matches[0]], ""
    return [], f"'{terminal(text)}' is not an option nor a command: type a number from 1 to {n}, or help"

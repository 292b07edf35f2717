"""The results file of a batch (``simulate --out FILE``): JSON lines, one row per game,
streamed as the games finish, in seed order; ``--resume`` continues an interrupted run.

Line 1 is the run's header (``"t": "run"``: game, expansions, variants, mixed sets,
seats, bots, and a fingerprint of the scripts); every other line is one game's row
(:mod:`cardscript.dsl.sim.games`). Each line is written with one ``write`` of the whole
line on an unbuffered file, so a run killed at any moment leaves whole rows and at most
one torn last line, which :func:`open_results` drops when it resumes (docs/scale.md).
"""

from __future__ import annotations

import json
import os
from typing import Any, BinaryIO

from cardscript.dsl.files import FileProblem, open_regular

#: the longest line a results file may hold (a 6-player game's row holds under 100 kB)
MAX_ROW_BYTES = 16 << 20
#: the keys of the header that must match for a run to be resumed
SAME = ("game", "players", "bots", "with", "variants", "mix", "scripts")


class ResultsProblem(Exception):
    """The results file cannot be resumed: not a results file, a bad row, or another
    batch's (``field`` names the option that differs, if one does)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


def run_header(game: str, players: int, bots: list[str], with_paths: tuple[str, ...], variants: tuple[str, ...],
               mixes: tuple[str, ...], scripts: str) -> dict[str, Any]:
    """The first line of a results file: what the batch plays (``scripts``: the fingerprint
    of the compiled scripts, so that a resumed run does not mix two versions of a card)."""
    return {"t": "run", "cardscript": 1, "game": game, "players": players, "bots": bots, "with": list(with_paths),
            "variants": list(variants), "mix": list(mixes), "scripts": scripts}


def encode(row: dict[str, Any]) -> bytes:
    """One row as its line: sorted keys, so that the same game gives the same bytes in any run."""
    kept = {k: v for k, v in row.items() if k != "traceback"}  # for the terminal (--debug), not the file
    return (json.dumps(kept, sort_keys=True, ensure_ascii=False) + "\n").encode()


def read_results(path: str) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]], int]:
    """The header, the rows by seed, and the length in bytes of the whole lines of ``path``
    (a torn last line, with no newline, is not counted: the run was killed writing it).

    Raises:
        ResultsProblem: a whole line that is not a JSON object, or a row before the header,
            a line longer than :data:`MAX_ROW_BYTES`, or ``path`` not a regular file (a
            FIFO or a device: reading it could block or never end).
        OSError: the file cannot be read.
    """
    header: dict[str, Any] | None = None
    rows: dict[int, dict[str, Any]] = {}
    good = 0
    try:  # a regular file only (a FIFO would block, /dev/zero never end), read a line at a time
        f = open_regular(path, "give a results file of 'cardscript simulate --out'")
    except FileProblem as exc:
        raise ResultsProblem(exc.message) from None
    with f:
        lines = iter(lambda: f.readline(MAX_ROW_BYTES + 1), b"")
        for number, line in enumerate(lines, 1):
            if not line.endswith(b"\n"):
                if len(line) > MAX_ROW_BYTES:
                    raise ResultsProblem(f"{path}:{number}: not a row of a results file (a line longer than "
                                         f"{MAX_ROW_BYTES >> 20} MiB)")
                break  # the torn last line: not counted
            good += len(line)
            header = _read_row(path, number, line, header, rows)
    return header, rows, good


def _read_row(path: str, number: int, line: bytes, header: dict[str, Any] | None,
              rows: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    """Read line ``number`` of a results file into ``rows``; the header, once read."""
    try:
        row = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, a number past int()'s digits, nested too deep
        raise ResultsProblem(f"{path}:{number}: not a row of a results file (JSON lines)") from None
    if not isinstance(row, dict) or (number == 1) != (row.get("t") == "run"):
        raise ResultsProblem(f"{path}:{number}: not a results file of 'cardscript simulate --out'")
    if number == 1:
        return row
    if row.get("t") in ("game", "failed") and isinstance(row.get("seed"), int):
        problem = _row_problem(row, header)
        if problem:
            raise ResultsProblem(f"{path}:{number}: not a game's row: {problem}")
        rows[row["seed"]] = row
        return header
    raise ResultsProblem(f"{path}:{number}: not a game's row")


def _whole(v: Any) -> bool:
    """A whole number as a row holds one (a seed, a score, a count), of a sane size."""
    return type(v) is int and -(10**18) <= v <= 10**19


def _counts(v: Any) -> bool:
    """``{card name: count}``."""
    return isinstance(v, dict) and all(isinstance(k, str) and _whole(n) for k, n in v.items())


def _row_problem(row: dict[str, Any], header: dict[str, Any] | None) -> str:
    """What is wrong with a game's row (what 'analyze' and '--resume' read of it:
    :func:`~cardscript.dsl.sim.games.play_seed`), its seats as many as the header's
    players; '' when nothing is. Written out, not a JSON schema: a row with its per-seat
    counts took 1.5 ms through jsonschema, and a results file may hold a million rows."""
    if not _whole(row["seed"]):
        return "seed: not a whole number"
    if row["t"] == "failed":
        bad = [k for k in ("error", "message") if k in row and not isinstance(row[k], str)]
        return f"{bad[0]}: not a text" if bad else ""
    for key in ("turns", "decisions"):
        if not _whole(row.get(key)):
            return f"{key}: not a whole number"
    scores = row.get("scores")
    if not isinstance(scores, list) or not all(_whole(x) for x in scores):
        return "scores: not a list of whole numbers"
    for key in ("seats", "bots", "winners"):
        if key in row and not (isinstance(row[key], list) and all(isinstance(x, str) for x in row[key])):
            return f"{key}: not a list of texts"
    for key in ("reason", "outcome"):
        if key in row and not isinstance(row[key], str):
            return f"{key}: not a text"
    per_seat = row.get("per_seat", [])
    if not isinstance(per_seat, list):
        return "per_seat: not a list"
    for i, seat in enumerate(per_seat):
        if not isinstance(seat, dict) or not isinstance(seat.get("seat", ""), str):
            return f"per_seat/{i}: not a seat's counts"
        for key in ("final", "gained", "played"):
            if key in seat and not _counts(seat[key]):
                return f"per_seat/{i}/{key}: not counts of cards"
        chosen = seat.get("chosen", {})
        if not isinstance(chosen, dict) or not all(isinstance(k, str) and _counts(v) for k, v in chosen.items()):
            return f"per_seat/{i}/chosen: not counts of cards by action"
    players = header.get("players") if header is not None else None
    if isinstance(players, int):
        for key in ("scores", "seats", "bots", "per_seat"):
            if key in row and len(row[key]) != players:
                return f"{key}: {len(row[key])} for a run of {players} players"
    return ""


class ResultsWriter:
    """Appends whole rows to a results file: one ``write`` per line, unbuffered.

    When a file already lies at ``path``, a new batch's rows go to ``tmp`` (``path +
    ".partial"``) instead, which replaces ``path`` at :meth:`close` once the batch has run
    to its end (:meth:`finish`): a batch that stops early (a failure, Ctrl-C, a kill) never
    clobbers the old file, and leaves its rows in ``tmp`` (``partial``), which ``--resume``
    continues.
    """

    def __init__(self, f: BinaryIO, path: str = "", tmp: str = ""):
        self.f, self.path, self.tmp = f, path, tmp
        self.finished = False
        self.partial = ""

    def write(self, row: dict[str, Any]) -> None:
        data = encode(row)
        while data:  # a regular file takes it whole; the loop is for a short write all the same
            done = self.f.write(data)
            data = data[done or 0:]

    def finish(self) -> None:
        """The batch ran to its end: its rows replace whatever ``path`` held."""
        self.finished = True

    def close(self) -> None:
        self.f.close()
        if self.tmp:
            if self.finished:
                os.replace(self.tmp, self.path)
            else:
                self.partial = self.tmp
            self.tmp = ""


def open_results(path: str, header: dict[str, Any], resume: bool) -> tuple[ResultsWriter, dict[int, dict[str, Any]]]:
    """Open ``path`` for the rows of a batch: a new file (the header written first; over
    an existing file, through ``path + ".partial"``: see :class:`ResultsWriter`), or with
    ``resume`` the same batch's file, its torn last line cut off, to append to.

    Returns:
        The writer, and the rows already there by seed (empty for a new file).

    Raises:
        ResultsProblem: as :func:`read_results`, or the file is another batch's.
        OSError: the file cannot be read or written.
    """
    if resume and os.path.exists(path) and not os.path.isfile(path):  # opening a FIFO to append would block
        raise ResultsProblem(f"{path} is not a regular file: --resume continues a results file")
    if resume and os.path.exists(path) and os.path.getsize(path) > 0:
        old, rows, good = read_results(path)
        if old is None:  # only a torn header: nothing was played
            writer = ResultsWriter(open(path, "wb", buffering=0))  # noqa: SIM115 -- closed by the writer
            writer.write(header)
            return writer, {}
        for key in SAME:
            if old.get(key) != header.get(key):
                what = ("the scripts changed" if key == "scripts"
                        else f"its {key} is {old.get(key)!r}, not {header[key]!r}")
                raise ResultsProblem(f"{path} holds another batch's games: {what}", key)
        f = open(path, "r+b", buffering=0)  # noqa: SIM115 -- closed by the writer
        f.truncate(good)
        f.seek(good)
        return ResultsWriter(f), rows
    if os.path.exists(path) and not resume:  # another run's file: kept until this batch has run to its end
        f = open(path + ".partial", "wb", buffering=0)  # noqa: SIM115 -- closed by the writer
        writer = ResultsWriter(f, path, path + ".partial")
    else:  # written in place: a batch killed mid-way (kill -9) leaves its rows for --resume
        writer = ResultsWriter(open(path, "wb", buffering=0))  # noqa: SIM115 -- closed by the writer
    writer.write(header)
    return writer, {}

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
        ResultsProblem: a whole line that is not a JSON object, or a row before the header.
        OSError: the file cannot be read.
    """
    with open(path, "rb") as f:
        data = f.read()
    good = data.rfind(b"\n") + 1
    header: dict[str, Any] | None = None
    rows: dict[int, dict[str, Any]] = {}
    for number, line in enumerate(data[:good].splitlines(), 1):
        try:
            row = json.loads(line)
        except ValueError:
            raise ResultsProblem(f"{path}:{number}: not a row of a results file (JSON lines)") from None
        if not isinstance(row, dict) or (number == 1) != (row.get("t") == "run"):
            raise ResultsProblem(f"{path}:{number}: not a results file of 'cardscript simulate --out'")
        if number == 1:
            header = row
        elif row.get("t") in ("game", "failed") and isinstance(row.get("seed"), int):
            rows[row["seed"]] = row
        else:
            raise ResultsProblem(f"{path}:{number}: not a game's row")
    return header, rows, good


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

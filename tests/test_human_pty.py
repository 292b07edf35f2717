"""Issue 15, done when: a pseudo-terminal test plays a whole 2-player Injustice game as one
human seat against a bot, to the final scores, using undo once and save/resume once; the
same game driven by piped answers ends with the same scores."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

GAME = ["play", "injustice", "--variant", "short", "--seed", "3", "--human", "1"]
PROMPT = "P1 > "
TIMEOUT = 60  # per step: generous, for a loaded machine
ENV = {**os.environ, "COLUMNS": "110", "LINES": "50", "TERM": "xterm-256color"}
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _spawn(args: list[str]) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "cardscript", *args], env=ENV, encoding="utf-8",
                         timeout=TIMEOUT, dimensions=(50, 110))


def _rows(text: str) -> list[str]:
    """The final score table's rows, without colours."""
    return [line.strip() for line in _ANSI.sub("", text).splitlines() if line.strip().startswith("│")]


def _answer_ones(child: pexpect.spawn, until: int | None = None) -> int:
    """Answer "1" at each prompt (``until`` prompts, or to the end); returns how many."""
    n = 0
    while until is None or n < until:
        if child.expect([PROMPT, "Final scores"]) == 1:
            return n
        child.sendline("1")
        n += 1
    return n


def test_a_whole_game_in_a_terminal_with_undo_and_save_resume(tmp_path: Path) -> None:
    save = tmp_path / "saved.json"
    child = _spawn(GAME)
    assert _answer_ones(child, until=10) == 10
    # the 11th decision: take back the 10th choice, which is asked again
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("taking back your last choice")
    child.expect("Your last choice was taken back: choose again")
    assert _answer_ones(child, until=20) == 20
    child.expect(PROMPT)
    child.sendline("?Heavy Punch")
    child.expect("Deal 2 damage to target foe")
    child.expect(PROMPT)
    child.sendline(f"save {save}")
    child.expect("saved to")
    child.expect(PROMPT)
    child.sendeof()  # leave the game: it stops cleanly, unfinished
    child.expect("unfinished")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "Traceback" not in (child.before or "")

    resumed = _spawn(["play", "--resume", str(save)])
    resumed.expect("saved answers replayed")
    _answer_ones(resumed)
    resumed.expect(pexpect.EOF)
    resumed.close()
    assert resumed.exitstatus == 0
    rows = _rows(resumed.before or "")
    assert len(rows) == 2 and any("human" in r for r in rows)

    piped = subprocess.run([sys.executable, "-m", "cardscript", *GAME], input="1\n" * 600, capture_output=True,
                           text=True, timeout=120, env=ENV)
    assert piped.returncode == 0, piped.stderr
    # undo took back a "1" answered again with "1": the same answers, so the same game
    assert _rows(piped.stdout) == rows

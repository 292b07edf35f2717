"""dsl/ and runtime/ know no game: no card, keyword or concept of a particular game,
and nothing that runs strings as Python (DESIGN: "A minimal, game-agnostic runtime")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_WORDS = re.compile(
    r"(^|[^a-z])(weakness|nemes[ei]s|meter|line-?up|punch|flying.?kick|super.?move|batmobile|villain|injustice"
    r"|justice.?league|mystic|clash|arena|outskirts|health)", re.IGNORECASE)
EVAL = re.compile(r"\b(eval|exec)\(|compile\([^)]*(exec|eval)")


def _sources():
    for folder in ("dsl", "runtime"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_core_names_no_game():
    hits = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
            for p in _sources() for i, line in enumerate(p.read_text().splitlines(), 1) if GAME_WORDS.search(line)]
    assert hits == []


def test_core_never_evaluates_strings():
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in _sources()
            for i, line in enumerate(p.read_text().splitlines(), 1) if EVAL.search(line)]
    assert hits == []

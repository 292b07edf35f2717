"""Lint warnings for the issue-12 primitives (review E): a division or remainder by the
constant 0 (CS506), a cost modifier of 0 (CS507), and a delayed effect on an event nothing
emits (CS501, like a trigger)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardscript.dsl.cli.main import main

HEAD = 'expansion "Lint Twelve"\nuses "injustice"\n\n'


def codes(tmp_path: Path, cards: str) -> list[tuple[str, int, str]]:
    path = tmp_path / "t.cards"
    path.write_text(HEAD + cards)
    r = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    return [(d["code"], d["span"]["line"], d["message"]) for d in json.loads(r.output)]


def test_division_by_constant_zero(tmp_path: Path) -> None:
    got = codes(tmp_path, 'card "Split": hero, cost 1\n  play: +(count all cards in your hand / 0) power\n')
    assert [(c, line) for c, line, _ in got] == [("CS506", 5)]
    assert "always 0" in got[0][2]


def test_mod_by_constant_zero(tmp_path: Path) -> None:
    got = codes(tmp_path, 'card "Rest": hero, cost 1\n  play: if (3 mod 0) == 3: draw a card\n')
    assert [(c, line) for c, line, _ in got] == [("CS506", 5)]


def test_division_by_other_numbers_is_clean(tmp_path: Path) -> None:
    assert codes(tmp_path, 'card "Half": hero, cost 1\n  play: +(count all cards in your hand / 2) power\n') == []


def test_modifier_of_zero(tmp_path: Path) -> None:
    got = codes(tmp_path, 'card "Idle": hero, cost 1\n  play: cards cost 0 less for you this turn\n')
    assert [(c, line) for c, line, _ in got] == [("CS507", 5)]


def test_delayed_effect_on_an_event_nothing_emits(tmp_path: Path) -> None:
    got = codes(tmp_path, 'card "Wait": hero, cost 1\n  play: at the next "end of trun": draw a card\n')
    assert [(c, line) for c, line, _ in got] == [("CS501", 5)]
    assert "delayed effect never runs" in got[0][2]


def test_delayed_effect_on_an_emitted_event_is_clean(tmp_path: Path) -> None:
    assert codes(tmp_path, 'card "Wait": hero, cost 1\n  play: at the next "end of turn": draw a card\n') == []

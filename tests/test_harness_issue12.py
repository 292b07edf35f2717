"""Scenario-format findings of the review of issue 12 (B2): an ``expect offered`` that no
step follows fails instead of passing silently."""

from __future__ import annotations

from pathlib import Path

from snippets import errors, run





def test_expect_offered_with_no_step_after_it_fails(tmp_path: Path) -> None:
    res = run(tmp_path, 'expect offered "end turn"\n')
    assert errors(res) == [("CS301", 5, 'expectation failed: expect offered "end turn": no step runs after it')]


def test_expect_offered_followed_only_by_an_expect_fails(tmp_path: Path) -> None:
    res = run(tmp_path, 'expect offered "end turn"\nexpect count all cards in your hand == 5\n')
    assert [(c, line) for c, line, _ in errors(res)] == [("CS301", 5)]


def test_expect_offered_before_the_step_that_asks_passes(tmp_path: Path) -> None:
    res = run(tmp_path, 'expect offered "end turn"\nanswer "end turn"\ndo: take actions\n')
    assert res.passed, errors(res)


def test_leftover_answers_are_shown_as_written(tmp_path: Path) -> None:
    # review E: the CS302 message showed Python's True for a yes/no answer
    res = run(tmp_path, 'answer "discard a card": yes, no\ndo: draw a card\n')
    assert errors(res) == [("CS302", 5, "2 answer(s) left over: ['discard a card': yes, no]")]

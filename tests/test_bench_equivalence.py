"""bench/: Minideck written in cardscript (bench/minideck/) and by hand in plain Python
(bench/handwritten.py) must play identical games: same decisions (options and picks),
winners, scores, turns and end reason. No timing here; see bench/run.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def dsl_overhead():
    # bench/ is not a package; import from it without leaving it on sys.path
    # (it holds a profile.py that would shadow the standard library's).
    sys.path.insert(0, str(BENCH))
    try:
        import dsl_overhead as module
    finally:
        sys.path.remove(str(BENCH))
    return module


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_minideck_cardscript_and_handwritten_play_identical_games(dsl_overhead, policy):
    seeds = [1, 2, 3]
    compared = dsl_overhead.assert_identical(seeds, players=2, policy=policy, trace=True)
    assert compared > 100  # whole decision sequences were compared
    for seed in seeds:
        a = dsl_overhead.run_cardscript(seed, 2, policy)
        b = dsl_overhead.run_handwritten(seed, 2, policy)
        assert (a.winners, a.scores, a.turns) == (b.winners, b.scores, b.turns)


def test_minideck_identical_with_target_foe_decisions(dsl_overhead):
    dsl_overhead.assert_identical([1], players=4, policy="random", trace=True)


def test_a_rule_difference_is_caught(dsl_overhead, monkeypatch):
    handwritten = sys.modules["handwritten"]
    monkeypatch.setitem(handwritten.CARDS, "Lab", handwritten.CARDS["Lab"]._replace(draw=1))
    with pytest.raises(dsl_overhead.Mismatch):
        dsl_overhead.assert_identical([1, 2, 3], players=2, policy="greedy", trace=True)

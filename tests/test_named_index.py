"""A selector naming a card in a large slot finds it through the layout's index of names
(``base.named_in``, issue 11 "a card-by-name index for setup moves"): the same cards, in the
same order, for the same steps as testing every card of the slot."""

from __future__ import annotations

import random

import pytest

import cardscript
from cardscript.runtime.agents import make_agents
from cardscript.runtime.effects import base, counting, selectors
from cardscript.runtime.engine import Engine


def _setup(definition, players: int, seed: int, shuffle_box: int | None):
    engine = Engine(definition, players, make_agents(["random"], players), seed, log=True)
    g = engine.game
    if shuffle_box is not None:  # a box in any order: the index must keep the slot's order, top first
        random.Random(shuffle_box).shuffle(g.slots[g.zone_base[definition.box_zone]])
    engine.setup()
    return g.slots, g.steps, g.log, g.loc


@pytest.mark.parametrize("game, players", [("hero-dice-batman", 1), ("hero-dice-batman", 4), ("injustice", 3)])
@pytest.mark.parametrize("shuffle_box", [None, 1, 2])
def test_the_index_finds_what_the_scan_finds(game, players, shuffle_box, monkeypatch):
    definition = cardscript.compile_game(game)
    indexed = _setup(definition, players, 5, shuffle_box)
    for module in (selectors, counting):  # every slot scanned (a selector of a shape scans in counting)
        monkeypatch.setattr(module, "NAMED_SCAN", 10**9)
    scanned = _setup(definition, players, 5, shuffle_box)
    assert indexed == scanned


def test_the_index_is_used_at_setup(monkeypatch):
    definition = cardscript.compile_game("hero-dice-batman")
    calls = []
    real = base.named_in
    for module in (selectors, counting):  # a selector of a shape finds its cards in counting
        monkeypatch.setattr(module, "named_in", lambda *a: calls.append(1) or real(*a))
    _setup(definition, 1, 5, None)
    assert len(calls) > 10

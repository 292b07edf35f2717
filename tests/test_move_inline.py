"""Issue 11: ``ZoneOps.move`` writes ``_moved`` out for speed (measured: 2.7 % of an
Injustice game with random bots). This keeps the two copies the same: every move through
``move`` leaves the game as the plain path (take the card out, put it in, ``_moved``) does."""

from __future__ import annotations

import random

import cardscript
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine
from cardscript.runtime.game import Game


def _plain_move(g: Game, card: int, slot: int, bottom: bool) -> None:
    old = g.loc[card]
    g.slots[old].remove(card)
    if bottom:
        g.slots[slot].insert(0, card)
    else:
        g.slots[slot].append(card)
    g._moved(card, old, slot)
    if g.enter_zones and g.slot_zone[slot] in g.enter_zones:
        g.entered(card, slot)


def test_move_and_moved_change_the_same_state() -> None:
    d = cardscript.compile_game("injustice")
    eng = Engine(d, 3, make_agents(["random"], 3), seed=4, log=True)
    eng.run()
    g = eng.game
    rng = random.Random(1)
    cards = [c for s in g.slots for c in s]
    for _ in range(300):
        card, slot, bottom = rng.choice(cards), rng.randrange(len(g.slots)), rng.random() < 0.3
        a, b = g.copy(), g.copy()
        a.logging = b.logging = True
        a.move(card, slot, bottom)
        _plain_move(b, card, slot, bottom)
        assert a.snapshot() == b.snapshot()
        assert a.log == b.log
        assert a.face_up == b.face_up and a.owner == b.owner and a.touched == b.touched

"""Issue 11: ``ZoneOps.move`` writes ``_moved`` out for speed (measured: 2.7 % of an
Injustice game with random bots). This keeps the two copies the same: every move through
``move`` leaves the game as the plain path (take the card out, put it in, ``_moved``) does."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

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


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), bottom=st.booleans(), many=st.integers(0, 40), mixed=st.booleans())
def test_move_all_is_a_move_of_each_card(seed: int, bottom: bool, many: int, mixed: bool) -> None:
    """``move_all`` (a bulk move of many cards out of one slot) leaves the game as a move of
    each card in order does: slots, owners, faces, clock ticks and log; also when the cards
    come from several slots, repeat, or already lie in the destination (it moves them one by one)."""
    g = _mid_game()
    rng = random.Random(seed)
    full = [s for s, cards in enumerate(g.slots) if cards]
    src = rng.choice(full)
    cards = rng.sample(g.slots[src], min(many, len(g.slots[src])))
    if mixed and cards:
        cards.append(rng.choice(g.slots[rng.choice(full)]))  # another slot's, or a repeat
    dest = rng.randrange(len(g.slots))
    a, b = g.copy(), g.copy()
    a.logging = b.logging = True
    a.move_all(cards, dest, bottom)
    for c in cards:
        b.move(c, dest, bottom)
    assert a.snapshot() == b.snapshot()
    assert a.log == b.log and a.slots == b.slots and a.clock == b.clock
    assert a.face_up == b.face_up and a.owner == b.owner and a.touched == b.touched and a.came_from == b.came_from


_MID: list[Game] = []


def _mid_game() -> Game:
    """A 3-player Injustice game played to its end (every zone holds cards), made once."""
    if not _MID:
        d = cardscript.compile_game("injustice")
        eng = Engine(d, 3, make_agents(["random"], 3), seed=9, log=False)
        eng.run()
        _MID.append(eng.game)
    return _MID[0]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), many=st.integers(2, 30), owners=st.sampled_from(["as they are", "one", "mixed", "some nobody's"]),
       controlled=st.booleans())
def test_moved_many_unlogged_ticks_as_a_move_of_each_card(seed: int, many: int, owners: str, controlled: bool) -> None:
    """Unlogged, ``_moved_many`` (its own copy of ``_moved``'s bookkeeping, without a call
    per card) leaves the clock, touched ticks, owners, faces, ``came_from``, ``loc`` and
    control as ``_moved`` of each card in order does, between any two slots (a player's, a
    shared zone's, a card's), whoever owns the cards."""
    g = _mid_game()
    rng = random.Random(seed)
    full = [s for s, cards in enumerate(g.slots) if len(cards) >= 2]
    src = rng.choice(full)
    dest = rng.choice([s for s in range(len(g.slots)) if s != src])
    a, b = g.copy(), g.copy()
    cards = rng.sample(g.slots[src], min(many, len(g.slots[src])))
    for x in (a, b):
        r = random.Random(seed)
        for c in cards:
            if owners == "one":
                x.owner[c] = 1
            elif owners == "mixed":
                x.owner[c] = r.randrange(x.n)
            elif owners == "some nobody's":
                x.owner[c] = r.randrange(-1, x.n)
            if controlled and r.random() < 0.5:
                x.controller[c] = r.randrange(x.n)
        x.clock += seed % 7
        gone = set(cards)
        x.slots[src][:] = [c for c in x.slots[src] if c not in gone]
        x.slots[dest].extend(cards)
    assert not a.logging
    a._moved_many(cards, src, dest)
    for c in cards:
        b._moved(c, src, dest)
    assert a.clock == b.clock and a.touched == b.touched and a.owner == b.owner
    assert a.loc == b.loc and a.came_from == b.came_from and a.face_up == b.face_up and a.controller == b.controller


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 70))
def test_a_shuffle_draws_as_random_shuffle(seed: int, size: int) -> None:
    """``ZoneOps._shuffle_cards`` writes ``Random.shuffle`` out: the same order and the same
    RNG state after, for any size; an RNG of another kind shuffles with its own ``shuffle``."""
    g = _mid_game().copy()
    g.rng = random.Random(seed)
    cards = list(range(size))
    g._shuffle_cards(cards, 0)
    want, rng = list(range(size)), random.Random(seed)
    rng.shuffle(want)
    assert cards == want and g.rng.getstate() == rng.getstate()

    class Backwards(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    g.rng = Backwards(seed)
    cards = list(range(size))
    g._shuffle_cards(cards, 0)
    assert cards == list(range(size))[::-1]

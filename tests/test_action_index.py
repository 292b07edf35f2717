"""Issue 11, part B: game creation from a per-definition layout, and the legal actions of
the action window (runtime/effects/choices.py) against the options found the old way."""

from __future__ import annotations

from typing import Any

import pytest

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine
from cardscript.runtime.game import Game
from cardscript.runtime.game import layout as L
from cardscript.runtime.game.snapshot import FIXED

GAMES = {"injustice": (2, 4), "hero-dice-batman": (1, 2), "justice-league-dark": (2, 3)}


@pytest.fixture(scope="module")
def defs() -> dict[str, Any]:
    return {name: compile_game(name)[0] for name in GAMES}


def _state(g: Game) -> dict[str, Any]:
    out = {k: v for k, v in vars(g).items() if k not in ("rng", "agents")}
    out["rng"] = g.rng.getstate()
    return out


# ---------------------------------------------------------------- game creation
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_from_the_layout_equals_one_laid_out_from_scratch(defs: dict[str, Any], name: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    d = defs[name]
    for seats in GAMES[name]:
        agents = make_agents(["random"], seats)
        Game(d, seats, agents, 5, False)  # the layout is made and kept
        cached = _state(Game(d, seats, agents, 5, False))
        with monkeypatch.context() as m:
            m.setattr("cardscript.runtime.game.state.layout_for", lambda d, n: L.Layout(d, n))
            scratch = _state(Game(d, seats, agents, 5, False))
        assert cached.keys() == scratch.keys()
        for key in cached:
            assert cached[key] == scratch[key], key


@pytest.mark.parametrize("name", sorted(GAMES))
def test_two_games_of_one_definition_share_no_state(defs: dict[str, Any], name: str) -> None:
    d = defs[name]
    seats = GAMES[name][0]
    a = Game(d, seats, make_agents(["random"], seats), 1, False)
    b = Game(d, seats, make_agents(["random"], seats), 2, False)
    for key, value in vars(a).items():
        if key in FIXED or isinstance(value, (int, str, bool, float, type(None), frozenset)):
            continue
        assert value is not getattr(b, key), f"{key} is shared by two games"
    assert not {id(s) for s in a.slots} & {id(s) for s in b.slots}
    # what a game shares with its layout is what a snapshot calls FIXED
    assert set(L.FIXED_LAYOUT) <= FIXED


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playing_leaves_the_layout_as_it_was_made(defs: dict[str, Any], name: str) -> None:
    d = defs[name]
    seats = GAMES[name][-1]
    kept = L.layout_for(d, seats)
    for seed in range(3):
        Engine(d, seats, make_agents(["random", "greedy"], seats), seed, log=False).run()
    fresh = L.Layout(d, seats)
    assert L.layout_for(d, seats) is kept
    for slot in type(kept).__slots__:
        assert getattr(kept, slot) == getattr(fresh, slot), slot
    # and a game made after them starts exactly as the first one did
    g = Game(d, seats, make_agents(["random"], seats), 0, False)
    assert g.slots[kept.box] == list(range(kept.ncards))
    assert all(not s for i, s in enumerate(g.slots) if i != kept.box)


def test_a_layout_is_forgotten_with_its_definition(defs: dict[str, Any]) -> None:
    import copy
    import gc

    d = copy.copy(defs["injustice"])  # a definition nothing else holds
    L.layout_for(d, 2)
    key = id(d)
    assert L._LAYOUTS[key][0]() is d
    del d
    gc.collect()
    assert key not in L._LAYOUTS


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_per_card_names_are_the_card_types_names(defs: dict[str, Any], name: str) -> None:
    """'move 5 "Light Punch" from the box' filters by the layout's per-card names."""
    d = defs[name]
    g = Game(d, GAMES[name][0], make_agents(["random"], GAMES[name][0]), 3, False)
    assert g.card_names == [d.cards[t].name for t in g.card_type]
    assert [g.card_name(c) for c in range(len(g.card_type))] == g.card_names

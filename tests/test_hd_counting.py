"""Selectors and counts planned by shape (runtime/effects/counting.py): the same cards,
counts and steps as the general path, on the states built-in games reach, and where a
game stops at its step limit; and the planned path is the one taken."""

from __future__ import annotations

from typing import Any

import pytest

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime import compiled
from cardscript.runtime.agents import make_agents
from cardscript.runtime.effects import counting as K
from cardscript.runtime.effects import hoist
from cardscript.runtime.effects import selectors as S
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import RunawayError

GAMES = [("hero-dice-batman", 1), ("hero-dice-batman", 3), ("injustice", 2), ("justice-league-dark", 2)]


def _play(game: str, players: int, seed: int, step_limit: int | None = None) -> tuple:
    definition, _w, _p = compile_game(game)
    kw = {} if step_limit is None else {"step_limit": step_limit}
    e = Engine(definition, players, make_agents(["random"], players), seed, log=True, **kw)
    try:
        r = e.run()
        out: tuple = (r.scores, r.turns, r.decisions, len(r.log), [str(x) for x in r.log[-3:]])
    except RunawayError as err:
        out = ("stopped", str(err), len(e.game.log))
    return (*out, e.game.steps)


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """No selector gets a shape: every one runs as the generic class."""
    monkeypatch.setattr(K, "adopt", lambda sel, g: None)


@pytest.mark.parametrize("game,players", GAMES)
def test_shapes_keep_games_and_steps(game: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [_play(game, players, seed) for seed in (3, 4)]
    _general(monkeypatch)  # compile_game builds new effect objects: they plan again, without shapes
    assert [_play(game, players, seed) for seed in (3, 4)] == fast


@pytest.mark.parametrize("game,players", GAMES)
def test_shapes_stop_at_the_step_limit_where_the_general_path_does(game: str, players: int,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    total = _play(game, players, 5)[-1]
    limits = [total // 3, total // 2 + 1, total - 7]
    fast = [_play(game, players, 5, limit) for limit in limits]
    assert all(r[0] == "stopped" for r in fast)
    _general(monkeypatch)
    assert [_play(game, players, 5, limit) for limit in limits] == fast


def _pure(sel: Any) -> bool:
    """The selector decides nothing and draws nothing: it may be run twice on one state."""
    parts = [sel.zones] + [data for fk, data in sel.filters if fk in ("where", "other_name")]
    return all(hoist._scan(p) is not None for p in parts)


@pytest.mark.parametrize("game,players", GAMES)
def test_each_planned_call_matches_the_general_path_on_its_state(game: str, players: int,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call of a planned selector or count, in whole games, is checked against the
    generic method on the same state: the same cards in the same order (the same count)
    and the same steps."""
    checked = {"cards": 0, "count": 0}

    def generic_cards(sel: Any, g: Any, ctx: Any) -> list[int]:
        shape, sel._shape = sel._shape, None
        try:
            return S.Cards.candidates(sel, g, ctx)
        finally:
            sel._shape = shape

    def check_cards(sel: Any, g: Any, ctx: Any) -> list[int]:
        start = g.steps
        got = K.select_cards(sel, g, ctx)
        steps = g.steps
        if _pure(sel):
            g.steps = start
            assert generic_cards(sel, g, ctx) == got
            assert g.steps == steps
            checked["cards"] += 1
        return got

    def check_count(node: Any, g: Any, ctx: Any) -> int:
        start = g.steps
        got = K.count_cards(node, g, ctx)
        steps = g.steps
        if _pure(node.cards):
            g.steps = start
            assert len(generic_cards(node.cards, g, ctx)) == got
            assert g.steps == steps
            checked["count"] += 1
        return got

    monkeypatch.setattr(compiled, "ENABLED", False)  # the shapes' functions, not their compiled closures
    monkeypatch.setattr(K._CardsShape, "candidates", check_cards)
    monkeypatch.setattr(K._CardsAllShape, "candidates", check_cards)
    monkeypatch.setattr(K._CardsAllShape, "cards", check_cards)
    monkeypatch.setattr(K._CountShape, "evaluate", check_count)
    for seed in (1, 2):
        _play(game, players, seed)
    assert checked["cards"] > 20 and checked["count"] > 20


def test_the_planned_path_is_taken() -> None:
    """The counts of an action's condition ('count all "Gray Die" in your dice where it is
    showing "batmobile" > 0') become counts of a shape that fuses the name and the face;
    'count all cards in the targets of it where it is yours' one of the bound card's zone."""
    definition, _w, _p = compile_game("hero-dice-batman")
    e = Engine(definition, 1, make_agents(["random"], 1), 3, log=False)
    e.run()
    act = next(a for a in definition.actions if a.name == "use a gray Batmobile")
    marked_and_batmobile, not_batmobile = act.cond.args  # ('marked' and 'count > 0') and 'count > 0'
    counts = [marked_and_batmobile.args[1]._x, not_batmobile._x]
    for count in counts:
        assert type(count) is K._CountShape
        assert type(count.cards) is K._CardsAllShape
        shape = count._zone
        assert shape.one is not None and shape.fused is not None and len(shape.fused) == 2
        assert count.ir() == {"CountCards": {"cards": count.cards.ir()}}
        assert count.cards.ir()["Cards"]["name"] == "Gray Die"


@pytest.mark.parametrize("game,players", [("hero-dice-batman", 1), ("injustice", 2)])
def test_a_limit_reached_inside_a_planned_count_stops_where_the_general_path_does(
        game: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    spans: list[tuple[int, int]] = []
    real = K.count_cards

    def count(node: Any, g: Any, ctx: Any) -> int:
        start = g.steps
        got = real(node, g, ctx)
        if g.steps > start + 1:
            spans.append((start, g.steps))
        return got

    monkeypatch.setattr(K._CountShape, "evaluate", count)
    _play(game, players, 6)
    assert spans
    start, _end = spans[len(spans) // 2]
    fast = _play(game, players, 6, start + 1)  # over the budget inside that count
    assert fast[0] == "stopped" and fast[-1] > start + 1
    monkeypatch.undo()
    _general(monkeypatch)
    assert _play(game, players, 6, start + 1) == fast

"""Issue 11, hot path: the speed-ups change no game and count the same steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import make_agents
from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.effects import hoist
from cardscript.runtime.effects.selectors import Cards
from cardscript.runtime.engine import Engine
from cardscript.runtime.game import Game


def _play(game: str, players: int, bot: str, seed: int) -> tuple:
    definition, _w, _p = compile_game(game)
    e = Engine(definition, players, make_agents([bot], players), seed, log=True)
    r = e.run()
    return r.scores, r.turns, r.decisions, e.game.steps, len(r.log), [str(x) for x in r.log[-3:]]


def _no_hoisting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hoist, "plan_filter", lambda cond, *_a: ((), cond, ()))


@pytest.mark.parametrize("game,players", [("justice-league-dark", 2), ("injustice", 3), ("hero-dice-batman", 2)])
def test_hoisting_keeps_games_and_steps(game: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _play(game, players, "random", 11)
    _no_hoisting(monkeypatch)  # compile_game builds new effect objects: they plan again, without hoisting
    slow = _play(game, players, "random", 11)
    assert fast == slow


def test_card_independent_filter_parts_are_hoisted() -> None:
    """JLD's 'Ragman seals' tests '(count all "Ragman" in your character) > 0' once per
    pass, not once per line-up card."""
    definition, _w, _p = compile_game("justice-league-dark")
    act = next(a for a in definition.actions if a.name == "Ragman seals")
    plan = act.choose._plan(_game(definition))
    (_fk, prefix, rest, hoisted), = plan
    assert len(prefix) == 1  # the count of Ragman: tested once for the whole line-up
    assert len(hoisted) == 1 and isinstance(hoisted[0], hoist.Hoisted)  # the highest cost played
    assert rest is not None


def test_a_filter_reading_the_card_is_not_hoisted() -> None:
    definition, _w, _p = compile_game("injustice")
    buy = next(a for a in definition.actions if a.name == "buy")
    plan = buy.choose._plan(_game(definition))
    assert [(prefix, hs) for _fk, prefix, _rest, hs in plan] == [((), ())]


def _game(definition: GameDefinition) -> Game:
    return Game(definition, 2, make_agents(["random"], 2), 0, log=False)


def _where(tmp_path: Path, move: str) -> tuple[GameDefinition, Cards]:
    """A tiny game whose setup is the one statement ``move``, and that move's selector."""
    (tmp_path / "game.rules").write_text(f"""game "Tops"
players 1 to 2
types thing
zone deck: per player, hidden, refill from discard
zone discard: per player, public
zone character: per player, public
zone hand: per player, public
counter score: per player, 0
card "Cheap": thing
setup:
  {move}
turn:
  end game "done"
score:
  +1 score
""")
    definition, _w, _p = compile_game(str(tmp_path))
    node = definition.setup
    while not hasattr(node, "cards"):  # the setup block, its one step, its one statement
        node = node.stmts[0]
    return definition, node.cards


@pytest.mark.parametrize("zone,hoisted", [("character", True), ("deck", False)])
def test_the_top_card_of_a_zone_that_never_refills_is_hoisted(zone: str, hoisted: bool, tmp_path: Path) -> None:
    """Injustice setup 1: 'move 1 card from the box where character of it == name of the
    top card of their character' reads the top of 'character' once per pass, not once per
    card of the box; the top of a deck, which may refill (a shuffle: not pure), is read
    per card as before."""
    definition, sel = _where(tmp_path, f"move 1 card from the box where name of it == name of the top card of your {zone} to your hand")
    (_fk, prefix, _rest, hs), = sel._plan(_game(definition))
    assert prefix == () and len(hs) == (1 if hoisted else 0)


def test_random_agent_draws_as_randint_and_sample() -> None:
    """The random bot's short cut answers exactly as ``randint`` then ``sample`` did."""
    import random

    from cardscript.runtime.agents import RandomAgent
    from cardscript.runtime.decision import Decision
    from cardscript.runtime.observation import DecisionView

    agent = RandomAgent()
    agent.bind(1, 5 * 1009 + 1)  # the stream the engine gives seat 1 of a game of seed 5
    ref = random.Random(5 * 1009 + 1)
    shapes = [(n, low, high) for n in (1, 2, 3, 7, 30) for low in (0, 1, 2) for high in (1, 2, 5, 40) if low <= high]
    for _ in range(20):
        for n, low, high in shapes:
            if low > min(high, n):
                continue
            d = DecisionView(0, 0, Decision(0, "card", list(range(n)), [], low, high))
            k = ref.randint(low, min(high, n))
            assert agent.choose(None, d) == sorted(ref.sample(range(n), k))  # type: ignore[arg-type]

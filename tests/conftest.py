"""Shared fixtures: the compiled built-in games and a small game factory."""

from __future__ import annotations

import pytest

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine


@pytest.fixture(scope="session")
def injustice():
    """The compiled Injustice GameDefinition (compiled once per test session)."""
    definition, _warnings, _program = compile_game("injustice")
    return definition


@pytest.fixture(scope="session")
def new_game(injustice):  # stateless factory: safe to share across hypothesis examples
    """``new_game(seed=1, players=2, bots="random")`` -> an Engine, not yet run."""

    def make(seed: int = 1, players: int = 2, bots: str = "random", log: bool = True) -> Engine:
        return Engine(injustice, players, make_agents(bots.split(","), players), seed, log=log)

    return make

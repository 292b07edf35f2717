"""A seed is a whole number from 0 to 2**63 - 1, everywhere one is given: Python's generator
seeds with the absolute value of an int, so seed -1 played seed 1's game (a simulation from
seed -1 counted that game twice), and a seed past 2**63 - 1 wrote a log that replay refused."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

import cardscript
from cardscript.dsl.cli.main import main as cli
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import MAX_SEED, check_seed


@pytest.mark.parametrize("command", [["play", "injustice", "-q"], ["simulate", "injustice", "--games", "2"],
                                     ["compare", "injustice", "--games", "2"], ["ladder", "injustice"]])
@pytest.mark.parametrize("seed", ["-1", str(MAX_SEED + 1)])
def test_the_commands_refuse_a_seed_out_of_range(command: list[str], seed: str) -> None:
    r = CliRunner().invoke(cli, [*command, "--seed", seed])
    assert r.exit_code == 2 and "0<=x<=9223372036854775807" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (MAX_SEED + 1, ValueError), ("1", TypeError),
                                             (1.0, TypeError), (True, TypeError), (None, TypeError)])
def test_the_api_refuses_a_seed_that_is_not_a_whole_number_in_range(seed: Any, error: type) -> None:
    d = cardscript.compile_game("injustice")
    with pytest.raises(error, match="a seed is a whole number from 0 to"):
        cardscript.play_game(d, seed=seed, log=False)
    with pytest.raises(error, match="a seed is a whole number from 0 to"):
        Engine(d, 2, make_agents(["random"], 2), seed, log=False)
    with pytest.raises(error, match="a seed is a whole number from 0 to"):
        cardscript.play_games(d, 2, seed=seed)  # at once, before the first game


def test_the_last_seed_of_a_batch_is_checked_too_and_the_largest_plays() -> None:
    d = cardscript.compile_game("injustice")
    with pytest.raises(ValueError):
        cardscript.play_games(d, 2, seed=MAX_SEED)
    assert check_seed(MAX_SEED) == MAX_SEED
    assert cardscript.play_game(d, seed=MAX_SEED, log=False).turns > 0


def test_a_game_is_not_a_name() -> None:
    with pytest.raises(TypeError, match=r"compile it first: cardscript.compile_game\('injustice'\)"):
        cardscript.play_game("injustice")  # type: ignore[arg-type]

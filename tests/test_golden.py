"""Parity: every built-in game plays exactly the games recorded in tests/golden/log_hashes.json.

A refactoring or speed commit never changes a hash; a rule fix that changes games
re-baselines (``python bench/golden.py --update``) in its own commit and says so. Each
pytest process has its own string-hash seed, so this also checks that no game depends on
the iteration order of a set. Of the looking-ahead bots' games (bench/golden.py's LOOKAHEAD)
only :data:`LOOKAHEAD_SAMPLE` is replayed here; ``python bench/golden.py`` replays all.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import golden  # noqa: E402  (bench/golden.py: the configurations and the hash)

RECORDED = json.loads(golden.GOLDEN.read_text(encoding="utf-8"))
#: The games of the bots that look ahead checked here: one per game, both bots among them.
#: All six cost 16 s of CPU (JLD's search alone 7 s); ``python bench/golden.py`` checks them all.
LOOKAHEAD_SAMPLE = {"injustice/2p/greedy/1", "justice-league-dark/2p/greedy/1", "hero-dice-batman/1p/search/1"}


def _checked_here(key: str) -> bool:
    return key.split("/")[2] not in golden.LOOKAHEAD_BOTS or key in LOOKAHEAD_SAMPLE


def test_the_lookahead_sample_is_recorded_and_covers_every_game_and_bot() -> None:
    assert LOOKAHEAD_SAMPLE <= RECORDED.keys()
    assert {k.split("/")[0] for k in LOOKAHEAD_SAMPLE} == set(golden.LOOKAHEAD)
    assert {k.split("/")[2] for k in LOOKAHEAD_SAMPLE} == set(golden.LOOKAHEAD_BOTS)


@pytest.mark.parametrize("key,game,variants", list(golden.configurations()), ids=lambda x: str(x))
def test_games_are_unchanged(key: str, game: str, variants: list[str]) -> None:
    import cardscript

    mix = golden.mix_for(game, variants)
    definition = golden.compile_quietly(game, variants, mix)
    mine = {k: v for k, v in RECORDED.items() if k.split("/")[0] == key and _checked_here(k)}
    assert mine, f"no recorded games for {key}: run python bench/golden.py --update"
    for k, want in sorted(mine.items()):
        _, players, bots, seed = k.split("/")
        n = int(players[:-1])
        result = cardscript.play_game(definition, players=n, agents=bots.split(",")[:n], seed=int(seed))
        assert golden.log_hash(result.log) == want, f"{k}: the game changed"

"""Parity: every built-in game plays exactly the games recorded in tests/golden/log_hashes.json.

A refactoring or speed commit never changes a hash; a rule fix that changes games
re-baselines (``python bench/golden.py --update``) in its own commit and says so. Each
pytest process has its own string-hash seed, so this also checks that no game depends on
the iteration order of a set.
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


@pytest.mark.parametrize("key,game,variants", list(golden.configurations()), ids=lambda x: str(x))
def test_games_are_unchanged(key: str, game: str, variants: list[str]) -> None:
    import cardscript

    mix = golden.mix_for(game, variants)
    definition = golden.compile_quietly(game, variants, mix)
    mine = {k: v for k, v in RECORDED.items() if k.split("/")[0] == key}
    assert mine, f"no recorded games for {key}: run python bench/golden.py --update"
    for k, want in sorted(mine.items()):
        _, players, bots, seed = k.split("/")
        n = int(players[:-1])
        result = cardscript.play_game(definition, players=n, agents=bots.split(",")[:n], seed=int(seed))
        assert golden.log_hash(result.log) == want, f"{k}: the game changed"

"""A variant that restates a game's cards with more copies (Justice League Dark's
"Additional Players": "You can use additional Starter cards (from another set)") gives
them the game's text, ability for ability: only the number of copies may differ. Its
Incantation once said the same thing in other words, and its decisions read other labels."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardscript
from cardscript.dsl.front.ir import to_ir

ROOT = Path(__file__).resolve().parent.parent


def _cards(game: str, variants: list[str]) -> dict[str, dict]:
    return {c["name"]: c for c in to_ir(cardscript.compile_game(game, variants=variants))["cards"]}


@pytest.mark.parametrize(("game", "variant"), [("justice-league-dark", "more-players")])
def test_a_restated_card_keeps_the_games_text(game: str, variant: str) -> None:
    text = (ROOT / "cardscripts" / game / "variants" / f"{variant}.variant").read_text(encoding="utf-8")
    restated = [line.split('"')[1] for line in text.splitlines() if line.startswith('card "')]
    base, varied = _cards(game, []), _cards(game, [variant])
    assert len(restated) >= 5 and set(restated) <= set(base)
    for name in restated:
        assert varied[name] == base[name], name

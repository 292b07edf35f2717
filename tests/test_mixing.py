"""Mixing sets (rulebook 001, "Mixing in Cards from Other Sets"): another set's cards join
the game being played; cards needing rules it lacks are left out with a warning."""

from __future__ import annotations

from pathlib import Path

from cardscript.dsl.front.pipeline import compile_game
from cardscript.dsl.front.variants import mix_scripts
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine


def _mixed(game: str = "injustice", other: str = "justice-league-dark"):
    rules, cards = mix_scripts(game, [other])
    return compile_game(game, rules, cards)


def test_cards_needing_other_rules_are_left_out_with_a_warning():
    d, warnings, _ = _mixed()
    left_out = {w.message.split("'")[1] for w in warnings if w.code == "CS220"}
    assert {"Billy Batson, Chosen", "Mordru", "Mystic Ritual"} <= left_out
    assert "Nergal" not in left_out  # its Reward: the label comes from its set, Injustice's mixing rules resolve it
    names = {c.name for c in d.cards}
    assert "Word of Power" in names and "Billy Batson, Chosen" not in names
    # both sets' Weakness cards are in the game, each known with its set
    assert {"Weakness [injustice]", "Weakness [justice-league-dark]"} <= names and "Weakness" not in names


def test_mixed_main_deck_and_super_moves_for_other_characters():
    d, _, _ = _mixed()
    for seed in range(6):
        e = Engine(d, 4, make_agents(["greedy"], 4), seed)
        e.setup()
        g = e.game
        deck = [g.card_name(c) for z in ("main-deck", "line-up") for c in g.slots[g.slot(d.zone(z).index, 0)]]
        assert len(deck) == 92 + 20 + 15 and "Word of Power" in deck
        for p in range(4):
            # every Character, of this set or another, has a Super Move under it
            assert len(g.slots[g.slot(d.zone("super-move").index, p)]) == 1


def test_nemesis_levels_come_from_cost_when_mixing(tmp_path: Path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "game.rules").write_text('game "Other"\nplayers 2 to 4\nturn:\n  nothing\n')
    (other / "cards.cards").write_text(
        '# A Super-Villain of another set with no Level printed: cost 12 makes it Level 3.\n'
        'card "Far Villain": villain, super-villain, cost 12, vp 6\n')
    rules, cards = mix_scripts("injustice", [str(other)])
    d, _, _ = compile_game("injustice", rules, cards)
    found = 0
    for seed in range(30):
        e = Engine(d, 2, make_agents(["greedy"], 2), seed)
        e.setup()
        g = e.game
        stack = [g.card_name(c) for c in g.slots[g.slot(d.zone("nemesis-stack").index, 0)]]
        if "Far Villain" in stack:
            found += 1
            assert stack.index("Far Villain") < 3  # among the Level 3 cards, at the bottom
    assert found > 0


def test_mixing_in_the_game_itself_or_a_set_twice_is_an_error() -> None:
    """'--mix injustice' on Injustice dealt every Injustice card twice, and a set named twice
    was mixed in twice, without a word (found by a new user's trial). Each is CS007 now,
    from the CLI and from the API alike."""
    import pytest

    from cardscript.dsl.diagnostics import CompileError

    for game, mix, says in (("injustice", ["injustice"], "is the game itself"),
                            ("injustice", ["justice-league-dark", "justice-league-dark"], "is given twice")):
        with pytest.raises(CompileError) as err:
            mix_scripts(game, mix)
        (diag,) = err.value.diagnostics
        assert diag.code == "CS007" and says in diag.message
    rules, cards = mix_scripts("injustice", ["justice-league-dark"])  # one other set: as before
    assert cards and all("justice-league-dark" in str(p) for p in cards)

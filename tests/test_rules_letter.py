"""Rules the engine once got wrong, checked at the level of the runtime (issue 12, "rules").

Each test names the rulebook section (and RULINGS id) it comes from; the scenarios in
``tests/scenarios/`` check the same rules through the scripts.
"""

from __future__ import annotations

import pytest

from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine


@pytest.fixture()
def game(injustice):
    """A fresh 2-player Injustice game after setup, with P1's deck, hand and discard empty."""
    engine = Engine(injustice, 2, make_agents(["random", "random"], 2), 1, log=True)
    g = engine.game
    deck, discard = g.slot(injustice.zone("deck").index, 0), g.slot(injustice.zone("discard").index, 0)
    box = g.zone_base[injustice.box_zone]
    for s in (deck, discard, g.slot(injustice.zone("hand").index, 0)):
        for c in list(g.slots[s]):
            g.move(c, box)
    return g, deck, discard, box


def _fill(g, box: int, slot: int, n: int) -> list[int]:
    cards = list(g.slots[box][-n:])
    for c in cards:
        g.move(c, slot)
    return cards


# "Shuffling Your Deck" (INJ-24): the cards left are taken first, the discard goes beneath.
def test_refill_keeps_the_cards_left_on_top_and_shuffles_the_discard_beneath(game):
    g, deck, discard, box = game
    left = _fill(g, box, deck, 2)
    dis = _fill(g, box, discard, 4)
    g.ensure(deck, 3)
    assert g.slots[deck][-2:] == left
    assert sorted(g.slots[deck][:-2]) == sorted(dis)
    assert g.slots[discard] == []
    assert all(g.loc[c] == deck for c in dis)
    assert g.log[-1]["t"] == "refill"


def test_refill_from_the_bottom_keeps_the_cards_left_at_the_bottom(game):
    g, deck, discard, box = game
    left = _fill(g, box, deck, 1)
    _fill(g, box, discard, 3)
    g.ensure(deck, 2, bottom=True)
    assert g.slots[deck][0] == left[0]
    assert len(g.slots[deck]) == 4


def test_no_refill_when_the_zone_holds_enough_or_the_discard_is_empty(game):
    g, deck, discard, box = game
    _fill(g, box, deck, 3)
    dis = _fill(g, box, discard, 2)
    g.ensure(deck, 3)
    assert g.slots[discard] == dis
    g.slots[discard].clear()
    for c in dis:
        g.slots[box].append(c)
        g.loc[c] = box
    before = list(g.slots[deck])
    g.ensure(deck, 5)
    assert g.slots[deck] == before


# "Attack and Defense" (INJ-07): what changes a player, for 'if they were affected'.
def test_counters_moves_and_marks_stamp_the_player_they_change(game):
    g, deck, discard, box = game
    d = g.d
    health = next(c.index for c in d.counters if c.per_player and c.high is not None and c.high >= 20)
    start = list(g.touched)
    g.change(health, 1, -2)
    assert g.touched[1] > start[1] and g.touched[0] == start[0]
    before = g.clock
    g.change(health, 1, 0)  # no change: no stamp
    assert g.clock == before
    g.mark_player(_ctx(), "hit", 0, this_turn=True)
    assert g.touched[0] == g.clock
    before = g.clock
    g.mark_player(_ctx(), "hit", 0, this_turn=True)  # already marked: nothing changed
    assert g.clock == before
    _fill(g, box, discard, 1)
    assert g.touched[0] == g.clock


def _ctx():
    from cardscript.runtime.context import Ctx

    return Ctx(0)


def test_were_affected_with_no_statement_before_it_is_cs212(tmp_path):
    import cardscript

    f = tmp_path / "bad.cards"
    f.write_text('expansion "Bad"\nuses "injustice"\ncard "Jab": hero\n  play:\n    if they were affected: draw a card\n',
                 encoding="utf-8")
    report = cardscript.check_paths([f])
    [d] = [d for d in report.diagnostics if d.severity == "error"]
    assert (d.code, d.span.line, d.span.column) == ("CS212", 5, 8)


def test_were_affected_formats_canonically():
    from cardscript.dsl.tools.fmt import format_text

    text = 'card "Jab": hero\n  play:\n    draw a card\n    if  they were   not affected:  draw a card\n'
    once = format_text(text, "a.cards")
    assert once == 'card "Jab": hero\n  play:\n    draw a card\n    if they were not affected: draw a card\n'
    assert format_text(once, "a.cards") == once


# Justice League Dark, "Nemesis Cards" (JLD-02): between turns no player is active.
def test_between_turns_no_player_is_active(game):
    from cardscript.runtime import effects as E

    g, *_ = game
    seen: list[bool] = []

    class Probe(E.Nothing):
        def run(self, g, ctx):
            seen.append(g.is_active(g.active))
            return 0

    assert g.is_active(g.active)
    E.BetweenTurns(E.Seq([Probe()])).run(g, _ctx())
    assert seen == [False]
    assert g.is_active(g.active) and g.between_turns == 0


def test_take_actions_between_turns_is_cs213(tmp_path):
    import cardscript

    f = tmp_path / "bad.cards"
    f.write_text('expansion "Bad"\nuses "injustice"\ncard "Jab": hero\n  play:\n    between turns: take actions\n',
                 encoding="utf-8")
    [d] = [d for d in cardscript.check_paths([f]).diagnostics if d.severity == "error"]
    assert (d.code, d.span.line, d.span.column) == ("CS213", 5, 20)


def test_between_turns_formats_canonically():
    from cardscript.dsl.tools.fmt import format_text

    text = 'card "Jab": hero\n  play: +1 power;  between   turns :draw a card\n'
    once = format_text(text, "a.cards")
    assert once == 'card "Jab": hero\n  play: +1 power; between turns: draw a card\n'
    assert format_text(once, "a.cards") == once

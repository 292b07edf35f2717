"""Grammar accept/reject tables: every construct parses; near misses do not."""

from __future__ import annotations

import pytest

from cardscript.dsl.front.build import build
from cardscript.dsl.diagnostics import CompileError

ACCEPT = [
    'card "A": hero, cost 3, vp 1\n  play: +1 power\n',
    'card "A": hero, copies 2, copies 1 as level 3 cost 11\n',
    'card "A": super power\n  play: draw a card; you may discard a card; meter burn 2: draw 1\n',
    'card "A": hero\n  play:\n    +3 power\n    if any foe is marked "x" this turn: +2 power\n',
    'card "A": hero\n  when "gain" first time each turn: draw 1\n',
    'card "A": hero\n  when "draw" during your turn: charge your meter\n',
    'zone deck: per player, hidden, refill from discard\n',
    'zone line-up: shared, public, stack, face down, active, play zone\n',
    'counter health: per player, 20, 0..20\n',
    'counter score: shared, -3\n',
    'effect deal {N: number} damage to {P: players}:\n  for each foe in P: nothing\n',
    'effect attack {T: players} {B: block}:\n  for each foe in T not marked "a":\n    B\n',
    'players 2 to 4\n',
    'types starter, hero, super power\n',
    'attribute cost = 0\n',
    'attribute character = ""\n',
    'abilities play, first appearance attack\n',
    'passive ongoing in played\n',
    'game ends after the turn when the ko-supply is empty as "x"\n',
    'game ends immediately when your score >= 10\n',
    'tie break: count all cards in your deck, 1\n',
    'score:\n  +(sum of vp of all cards in your deck) score\n',
    'action "buy": choose a card from the line-up where cost of it <= your power:\n  gain it\n',
    'action "pass" where your power == 0:\n  nothing\n',
    'turn:\n  set your power to 0\n  take actions\n',
    'setup:\n  move 5 "Punch" from the box to your deck\n  move all "Kick" from the box to the kicks\n',
    'setup:\n  move 2 random cards from the box with character to their options\n',
    'when "successful attack": charge your meter\n',
    'do:\n  move the top 5 cards of the main-deck to the line-up\n',
    'expect each foe: their health == 20\n',
    'expect not emitted "play" for the foe to your left\n',
    'answer "play Heavy Punch", yes, no, 2\n',
    'quiet "draw", power\n',
    'do:\n  let H = count all cards in your hand\n  repeat (H * 2 - 1): nothing\n',
    'do:\n  choose the top card of your deck: reveal it; you may destroy it\n',
    'do:\n  if you do: draw 1\n  otherwise: nothing\n',
    'do:\n  resolve defense of it for them\n',
    'do:\n  mark this "used" this turn; unmark each foe "x"\n',
    'do:\n  they choose a card from the hand of each foe where it is marked "r": play it\n',
    'effect hit {P: players} for {N: number}:\n  nothing\n',   # 'for' and 'with' may be pattern words
    'do:\n  swap it with the top card of your deck\n',
    'do:\n  if the bounty == 0: nothing\n',                      # a shared counter in an expression
    'expect your score == -4\n',                              # unary minus in an expression
]

REJECT = [
    ('card "A" hero\n', 1),                       # missing ':'
    ('card "A": hero\n  play +1 power\n', 2),      # label without ':'
    ('card A: hero\n', 1),                        # unquoted card name
    ('zone Deck: shared\n', 1),                   # upper-case zone name
    ('counter health: per player, 20, 0...20\n', 1),
    ('import os\n', 1),                           # Python is not the language
    ('card "A": hero\n  play: eval("1")\n', 2),
    ('effect draw {N number}:\n  nothing\n', 1),
    ('card "A: hero\n', 1),                       # unterminated string
    ('players two\n', 1),
]


@pytest.mark.parametrize("text", ACCEPT)
def test_accepts(text: str) -> None:
    build(text, "t.cards")


@pytest.mark.parametrize("text,line", REJECT)
def test_rejects_with_line(text: str, line: int) -> None:
    with pytest.raises(CompileError) as info:
        build(text, "t.cards")
    (diag,) = info.value.diagnostics
    assert diag.code in ("CS101", "CS102", "CS103")
    assert diag.span is not None and diag.span.file == "t.cards" and diag.span.line == line

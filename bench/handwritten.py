"""Minideck written by hand: plain Python, no cardscript imports.

The same game as ``bench/minideck/*.rules|*.cards``, used to measure what the DSL
costs. It is ordinary, idiomatic Python — lists of card names, a dataclass per
player, a dict of card specs — written to give *identical* games for the same
seed and policy. Identical means consuming randomness exactly as the cardscript
engine does:

* one ``random.Random(seed)`` stream per game, used only for shuffles;
* a zone is a list whose END is the top: drawing pops from the end, shuffling is
  ``rng.shuffle(zone)``;
* drawing from an empty deck first moves the discard pile (in order) into the deck
  and shuffles it;
* "move all cards from X to Y" takes X's cards top first, so Y receives them in
  reverse order;
* the random policy has its own stream ``random.Random(seed * 1009 + seat)`` and
  answers every decision with ``k = randint(low, min(high, n))`` then
  ``sorted(sample(range(n), k))``; the greedy policy plays before it buys and
  picks the most expensive card;
* the action window lists the playable cards of the hand (top first), then the
  affordable cards of the market (top first), then "end turn".

Usage::

    result = play(seed=7, players=2, policy="random")
    result.winners, result.scores, result.turns
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

MAX_TURNS = 400  # the engine's turn bound: "turn limit reached"
MAX_ACTIONS_PER_TURN = 200
HAND_SIZE = 5
MARKET_SIZE = 5
MAX_HEALTH = 5


class Card(NamedTuple):
    """A card type: what it costs, what it scores, and what playing it does."""

    kind: str  # starter | market | token
    cost: int = 0
    vp: int = 0
    copies: int = 1
    power: int = 0  # +N power when played
    draw: int = 0  # draw N when played
    hit: int = 0  # target foe loses N health when played
    playable: bool = True


# In printing order: the order matters, as it fixes the supply before its shuffle.
CARDS: dict[str, Card] = {
    "Coin": Card("starter", copies=24, power=1),
    "Jab": Card("starter", copies=8, hit=1),
    "Estate": Card("starter", vp=1, copies=8, playable=False),
    "Silver": Card("market", cost=3, copies=10, power=2),
    "Gold": Card("market", cost=6, copies=6, power=3),
    "Lab": Card("market", cost=4, copies=8, draw=2),
    "Strike": Card("market", cost=4, copies=8, power=1, hit=2),
    "Gem": Card("market", cost=5, vp=2, copies=8, playable=False),
    "Crown": Card("market", cost=8, vp=5, copies=6, playable=False),
    "Bounty": Card("token", vp=2, copies=5, playable=False),
}
STARTING_DECK = ["Coin"] * 6 + ["Jab"] * 2 + ["Estate"] * 2


@dataclass
class Player:
    seat: int
    deck: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    trophies: list[str] = field(default_factory=list)
    power: int = 0
    health: int = MAX_HEALTH

    def all_cards(self) -> list[str]:
        return self.deck + self.hand + self.discard + self.played + self.trophies


@dataclass
class Result:
    scores: list[int]
    ranking: list[int]
    winners: list[int]
    reason: str
    turns: int
    decisions: int
    tie_values: list[list[int]]
    trace: list[tuple] = field(default_factory=list)


class GameOver(Exception):
    pass


# An action option: ("play", hand index, card), ("buy", market index, card) or ("end", -1, "").
Option = tuple[str, int, str]


class RandomPolicy:
    """Uniform random answers from the seat's own stream."""

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(seed * 1009 + seat)

    def _pick(self, n: int) -> int:
        k = self.rng.randint(1, min(1, n))
        return sorted(self.rng.sample(range(n), k))[0]  # noqa: FURB192 - as RandomAgent does

    def action(self, game: Game, options: list[Option]) -> int:
        return self._pick(len(options))

    def target(self, game: Game, foes: list[int]) -> int:
        return self._pick(len(foes))


class GreedyPolicy:
    """Play cards while you can (most expensive first), then buy the most expensive."""

    RANK: ClassVar[dict[str, int]] = {"play": 0, "buy": 1}

    def action(self, game: Game, options: list[Option]) -> int:
        best, best_key = len(options) - 1, None
        for i, (verb, _index, name) in enumerate(options):
            if verb == "end":
                continue
            key = (-self.RANK[verb], CARDS[name].cost)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best

    def target(self, game: Game, foes: list[int]) -> int:
        return 0  # every score is 0 until the game is scored: the first foe


class Game:
    def __init__(self, seed: int, players: int, policies: list, trace: bool = False):
        self.rng = random.Random(seed)
        self.players = [Player(seat) for seat in range(players)]
        self.policies = policies
        self.supply: list[str] = []
        self.market: list[str] = []
        self.bounty: list[str] = []
        self.turn = 0
        self.decisions = 0
        self.tracing = trace
        self.trace: list[tuple] = []

    # ------------------------------------------------------------ setup
    def setup(self) -> None:
        market_cards = [name for name, card in CARDS.items() if card.kind == "market"
                        for _ in range(card.copies)]
        self.supply = market_cards[::-1]  # taken from the box top first
        self.rng.shuffle(self.supply)
        for _ in range(MARKET_SIZE):
            self.market.append(self.supply.pop())
        self.bounty = ["Bounty"] * CARDS["Bounty"].copies
        for p in self.players:
            p.deck = list(STARTING_DECK)
            self.rng.shuffle(p.deck)
            self.draw(p, HAND_SIZE)

    # ------------------------------------------------------------ cards
    def draw(self, p: Player, n: int) -> None:
        for _ in range(n):
            if not p.deck and p.discard:
                p.deck, p.discard = p.discard, []
                self.rng.shuffle(p.deck)
            if p.deck:
                p.hand.append(p.deck.pop())

    def foes(self, seat: int) -> list[int]:
        n = len(self.players)
        return [(seat + i) % n for i in range(1, n)]

    def hit(self, p: Player, amount: int) -> None:
        foes = self.foes(p.seat)
        if len(foes) > 1:
            self.decisions += 1
            pick = self.policies[p.seat].target(self, foes)
            if self.tracing:
                self.trace.append((p.seat, "player", tuple(f"P{f + 1}" for f in foes), (pick,)))
            foes = [foes[pick]]
        for seat in foes:
            foe = self.players[seat]
            foe.health = max(0, foe.health - amount)
            if foe.health == 0:
                if self.bounty:
                    p.trophies.append(self.bounty.pop())
                foe.health = MAX_HEALTH

    def play_card(self, p: Player, index: int) -> None:
        name = p.hand.pop(index)
        p.played.append(name)
        card = CARDS[name]
        p.power += card.power
        if card.draw:
            self.draw(p, card.draw)
        if card.hit:
            self.hit(p, card.hit)

    def buy(self, p: Player, index: int) -> None:
        name = self.market.pop(index)
        p.power -= CARDS[name].cost
        p.discard.append(name)

    # ------------------------------------------------------------ turn
    def options(self, p: Player) -> list[Option]:
        opts: list[Option] = [("play", i, p.hand[i]) for i in range(len(p.hand) - 1, -1, -1)
                              if CARDS[p.hand[i]].playable]
        opts += [("buy", i, self.market[i]) for i in range(len(self.market) - 1, -1, -1)
                 if CARDS[self.market[i]].cost <= p.power]
        opts.append(("end", -1, ""))
        return opts

    def take_actions(self, p: Player) -> None:
        policy = self.policies[p.seat]
        for _ in range(MAX_ACTIONS_PER_TURN):
            opts = self.options(p)
            self.decisions += 1
            pick = policy.action(self, opts)
            if self.tracing:
                labels = tuple("end turn" if v == "end" else f"{v} {name}" for v, _, name in opts)
                self.trace.append((p.seat, "action", labels, (pick,)))
            verb, index, _name = opts[pick]
            if verb == "end":
                return
            if verb == "play":
                self.play_card(p, index)
            else:
                self.buy(p, index)

    def play_turn(self, p: Player) -> None:
        self.turn += 1
        p.power = 0
        self.take_actions(p)
        p.discard.extend(reversed(p.hand))
        p.hand.clear()
        p.discard.extend(reversed(p.played))
        p.played.clear()
        self.draw(p, HAND_SIZE)
        for _ in range(MARKET_SIZE - len(self.market)):
            if not self.supply:
                raise GameOver("the market cannot be refilled")
            self.market.append(self.supply.pop())
        if not self.bounty:
            raise GameOver("the last bounty was taken")

    def play(self) -> str:
        seat = 0
        try:
            for _ in range(MAX_TURNS):
                self.play_turn(self.players[seat])
                seat = (seat + 1) % len(self.players)
        except GameOver as over:
            return str(over)
        return "turn limit reached"

    # ------------------------------------------------------------ end
    def score(self, reason: str) -> Result:
        scores = [sum(CARDS[c].vp for c in p.all_cards()) for p in self.players]
        ties = [[p.health, len(p.trophies)] for p in self.players]
        keys = {p.seat: (scores[p.seat], *ties[p.seat]) for p in self.players}
        ranking = sorted(keys, key=lambda s: tuple(-k for k in keys[s]))
        winners = [s for s in ranking if keys[s] == keys[ranking[0]]]
        return Result(scores, ranking, winners, reason, self.turn, self.decisions, ties, self.trace)


POLICIES: dict[str, Callable[[int, int], object]] = {
    "random": RandomPolicy,
    "greedy": lambda seed, seat: GreedyPolicy(),
}


def play(seed: int, players: int = 2, policy: str = "random", trace: bool = False) -> Result:
    """Play one game of Minideck; ``trace`` records every decision (seat, kind, labels, picks)."""
    game = Game(seed, players, [POLICIES[policy](seed, seat) for seat in range(players)], trace)
    game.setup()
    return game.score(game.play())


if __name__ == "__main__":
    import sys

    r = play(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    print(f"scores {r.scores}, winners {[w + 1 for w in r.winners]}, {r.turns} turns: {r.reason}")

"""``cardscript ladder`` (issue 13): the bots against each other, pairwise, seats alternated.

For a competitive game, each pair (A, B) plays ``games`` games: A in the first seat for the
even ones, B for the odd ones (with more seats, the names alternate around the table and
the table turns by one each game). A game with k winners counts 1/k of a win to each. Win
rates get 95 % Wilson intervals (:func:`cardscript.dsl.sim.stats.wilson`).

For a co-operative game (one with ``outcome`` tiers) each bot plays every seat of
``games`` games, and the ladder counts the outcome tiers, each with its interval.

Each bot's cost per decision is measured apart, on ``cost_games`` games of the bot in every
seat, in this process (wall-clock: the only figure here that is not the same on every run).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from cardscript.dsl.sim.pool import play_seeds
from cardscript.dsl.sim.spec import BatchSpec
from cardscript.dsl.sim.stats import wilson
from cardscript.runtime.definition import GameDefinition


def seating(a: str, b: str, players: int, i: int) -> list[str]:
    """The bots of game ``i`` of the pair (a, b): alternated around the table, the table
    turned by ``i`` (so a and b take turns in the first seat)."""
    names = [a if (p + i) % 2 == 0 else b for p in range(players)]
    return names


def cost_per_decision(d: GameDefinition, bot: str, players: int, games: int, seed: int = 10_001) -> float:
    """µs per decision of ``bot`` playing every seat of ``games`` games (``seed``, ``seed + 1``, ...)."""
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine

    decisions, elapsed = 0, 0.0
    for s in range(seed, seed + games):
        agents = make_agents([bot], players)
        t0 = time.perf_counter()
        r = Engine(d, players, agents, s, log=False).run()
        elapsed += time.perf_counter() - t0
        decisions += r.decisions
    return elapsed / max(1, decisions) * 1e6


def ladder(game: str, d: GameDefinition, bots: Sequence[str], games: int, players: int, jobs: int,
           seed: int = 1, cost_games: int = 2, with_paths: tuple[str, ...] = (), variants: tuple[str, ...] = (),
           mixes: tuple[str, ...] = (), tick: Callable[[], None] | None = None) -> dict[str, Any]:
    """Play the ladder (see the module docstring) and return its figures as plain data:
    ``pairs`` (competitive: per pair, games, wins of each, rates and intervals) or
    ``outcomes`` (co-operative: per bot, the count, rate and interval of each tier), and
    ``cost`` (µs per decision per bot). A failed game (a runaway script) counts for neither
    and is listed in ``failed``.

    Raises:
        ValueError: fewer than two bots for a competitive game, an unknown bot name.
    """
    from cardscript.runtime.agents import make_agents

    for b in bots:
        make_agents([b], 1)  # an unknown name fails here, before any game
    coop = bool(d.outcomes)
    out: dict[str, Any] = {"game": game, "players": players, "games": games, "coop": coop, "failed": []}

    def rows(names: list[str], seeds: list[int]) -> Any:
        spec = BatchSpec(game, players, ",".join(names), with_paths, variants, mixes)
        for row in play_seeds(spec, d, seeds, jobs):
            if tick is not None:
                tick()
            yield row

    if coop:
        tiers = [text for text, _ in d.outcomes]
        per: dict[str, Any] = {}
        for b in bots:
            counts: Counter[str] = Counter()
            n = 0
            for row in rows([b], list(range(seed, seed + games))):
                if row["t"] != "game":
                    out["failed"].append({"bots": [b], "seed": row["seed"]})
                    continue
                counts[row["outcome"]] += 1
                n += 1
            per[b] = {"games": n, "tiers": {t: _rate(counts[t], n) for t in tiers}}
        out["outcomes"] = per
    else:
        if len(bots) < 2:
            raise ValueError("a ladder of a competitive game needs two bots or more")
        pairs = []
        for x in range(len(bots)):
            for y in range(x + 1, len(bots)):
                a, b = bots[x], bots[y]
                wins = {a: 0.0, b: 0.0}
                n = 0
                for parity in (0, 1):
                    names = seating(a, b, players, parity)
                    seeds = [s for s in range(seed, seed + games) if (s - seed) % 2 == parity]
                    for row in rows(names, seeds):
                        if row["t"] != "game":
                            out["failed"].append({"bots": names, "seed": row["seed"]})
                            continue
                        n += 1
                        for w in row["winners"]:
                            wins[names[int(w[1:]) - 1]] += 1 / len(row["winners"])
                pairs.append({"a": a, "b": b, "games": n, "a_wins": _rate(wins[a], n), "b_wins": _rate(wins[b], n)})
        out["pairs"] = pairs
    out["cost"] = {b: cost_per_decision(d, b, players, cost_games) for b in bots} if cost_games else {}
    return out


def _rate(wins: float, n: int) -> dict[str, float]:
    low, high = wilson(wins, n)
    return {"count": wins, "rate": wins / n if n else 0.0, "low": low, "high": high}

"""The summary of a batch (``cardscript simulate``'s tables and ``--json``), computed
from the games' rows in seed order only, so that it is the same however the games were
spread over processes, and after a ``--resume``."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tally:
    """The running totals of a batch; :meth:`add` each row in seed order."""

    players: int
    coop: bool
    # wins are shares (a win shared by k seats counts 1/k), so always floats: 0.0 and 3.0 in JSON alike
    wins_seat: defaultdict[int, float] = field(default_factory=lambda: defaultdict(float))
    wins_bot: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    reasons: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    turns: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    failed: list[dict[str, Any]] = field(default_factory=list)

    def add(self, row: dict[str, Any]) -> None:
        """Count one row (a finished game, or a failed one)."""
        if row["t"] == "failed":
            failed = {k: row[k] for k in ("seed", "error", "message", "replay")}
            if row.get("at"):  # where a runaway's script statement is written (CS401)
                failed["at"] = row["at"]
            self.failed.append(failed)
            return
        if not self.coop:  # co-operative: outcomes, no winner
            share = 1 / len(row["winners"])  # a shared win counts a share of one
            for w in row["winners"]:
                seat = int(w[1:]) - 1
                self.wins_seat[seat] += share
                self.wins_bot[row["bots"][seat]] += share
        self.reasons[row["reason"]] += 1
        if row["outcome"]:
            self.outcomes[row["outcome"]] += 1
        self.turns.append(row["turns"])
        self.decisions.append(row["decisions"])

    def add_all(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            self.add(row)

    def summary(self, game: str, variants: list[str], bots: list[str], seconds: float) -> dict[str, Any]:
        """The ``--json`` summary; only ``seconds`` and ``games_per_second`` depend on time."""
        games = len(self.turns)
        n = self.players
        return {
            "game": game, "variants": variants, "games": games, "players": n, "bots": bots,
            "seconds": round(seconds, 3),
            "games_per_second": round(games / seconds, 1) if seconds > 0 else 0.0,
            "wins_per_seat": {f"P{p + 1}": float(round(self.wins_seat[p], 2)) for p in range(n)},
            # each seat's win rate as a 95 % Wilson interval: what chance leaves open (docs/cli.md)
            "win_rate_95_per_seat": {f"P{p + 1}": interval(self.wins_seat[p], games) for p in range(n)},
            "wins_per_bot": {b: float(round(self.wins_bot[b], 2)) for b in sorted(set(bots))},
            "turns_mean": round(sum(self.turns) / games, 2) if games else 0, "turns_max": max(self.turns, default=0),
            "decisions_per_game": round(sum(self.decisions) / games, 1) if games else 0,
            "end_reasons": dict(sorted(self.reasons.items())),
            "outcomes": dict(sorted(self.outcomes.items())),
            "outcome_rate_95": {k: interval(v, games) for k, v in sorted(self.outcomes.items())},
            "failed": self.failed,
        }


def interval(count: float, games: int) -> list[float]:
    """The 95 % Wilson interval of ``count`` out of ``games`` (a win shared by k seats
    counts 1/k), as ``[low, high]`` proportions rounded to 4 places; ``[0.0, 1.0]`` for
    no game. See :func:`cardscript.dsl.sim.stats.wilson`."""
    from cardscript.dsl.sim.stats import wilson

    low, high = wilson(min(count, games), games)
    return [round(low, 4), round(high, 4)]

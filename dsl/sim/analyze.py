"""``cardscript analyze``: what a results file (``simulate --out``) says about balance.

:func:`analyze` turns the games' rows into a report (a plain dict, the ``--json``
output): per card, how often it is bought and played and how winning differs between
the players who bought it and those who did not; the seat advantage; the distributions
of game length and score; the end reasons; and for co-operative games the outcomes per
hero count. The methods (docs/scale.md#analyze):

* the unit is one seat in one game; a game with k winners counts 1/k of a win for each;
* a card is *bought* by a seat when the action named ``action`` (default ``buy``) chose it
  at least once in that game (``per_seat[].chosen[action]``);
* proportions get Wilson score intervals; the raw difference of win rates (bought minus
  not bought) Newcombe's hybrid score interval; the seat-adjusted difference is the
  Cochran-Mantel-Haenszel-weighted difference over seats, with Sato's variance
  (:mod:`cardscript.dsl.sim.stats`). A card is *significant* when the adjusted
  interval excludes 0.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from cardscript.dsl.sim.stats import mh_difference, newcombe, wilson

#: how the report says its methods (printed under the tables and kept in the JSON)
METHODS = {
    "unit": "one seat in one game; a game with k winners counts 1/k of a win for each",
    "interval": "95 %; proportions: Wilson score interval",
    "difference": "win rate of seats that bought the card minus those that did not; "
                  "raw: Newcombe's hybrid score interval",
    "adjusted": "stratified by seat: Cochran-Mantel-Haenszel-weighted difference, Sato's variance, normal interval",
}


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def _distribution(values: list[float]) -> dict[str, Any]:
    """Mean, median, quartiles (the inclusive method), min and max of ``values``."""
    if not values:
        return {"n": 0}
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else (values[0],) * 3
    return {"n": len(values), "mean": _r(statistics.fmean(values), 2), "median": statistics.median(values),
            "q1": _r(q1, 2), "q3": _r(q3, 2), "min": min(values), "max": max(values)}


def _counts(values: list[float]) -> list[list[float]]:
    """``[value, how many]`` for each value, in increasing order: the histograms of the HTML report."""
    return [[v, k] for v, k in sorted(Counter(values).items())]


def _proportion(wins: float, n: float) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"wins": _r(wins, 2), "n": n, "rate": _r(wins / n if n else None), "low": _r(low), "high": _r(high)}


class _Card:
    """Per card and seat index: bought/not-bought seat-games and their wins."""

    def __init__(self) -> None:
        self.bought = 0          # copies bought, all games
        self.played = 0          # copies played, all games
        self.seat_games_played = 0
        self.n1: Counter[int] = Counter()   # seat-games that bought it, per seat
        self.w1: defaultdict[int, float] = defaultdict(float)


def analyze(rows: Iterable[dict[str, Any]], action: str = "buy") -> dict[str, Any]:
    """The report of the rows of one or more results files.

    Args:
        rows: game rows (``"t": "game"``); ``"failed"`` rows are counted and skipped.
        action: the action whose choices are "bought".

    Returns:
        The report: ``games``, ``failed``, ``methods``, ``cards`` (sorted by adjusted
        difference, largest first; cards never bought last), ``seats``, ``turns``,
        ``scores``, ``histograms`` (``[value, count]`` pairs of turns and scores),
        ``end_reasons``, ``outcomes``.
    """
    games = failed = 0
    cards: dict[str, _Card] = defaultdict(_Card)
    seat_n: Counter[int] = Counter()
    seat_w: defaultdict[int, float] = defaultdict(float)
    players_seen: Counter[int] = Counter()
    turns: list[float] = []
    scores: list[float] = []
    winning: list[float] = []
    margins: list[float] = []
    reasons: Counter[str] = Counter()
    outcomes: defaultdict[int, Counter[str]] = defaultdict(Counter)
    detail = False
    for row in rows:
        if row.get("t") == "failed":
            failed += 1
            continue
        games += 1
        seats = row["seats"]
        players_seen[len(seats)] += 1
        turns.append(row["turns"])
        reasons[row["reason"]] += 1
        scores.extend(row["scores"])
        if row.get("outcome"):
            outcomes[len(seats)][row["outcome"]] += 1
        winners = row["winners"]
        if winners:
            ranked = sorted(row["scores"], reverse=True)
            winning.append(ranked[0])
            if len(ranked) > 1:
                margins.append(ranked[0] - ranked[1])
        share = 1 / len(winners) if winners else 0.0
        won = [share if s in winners else 0.0 for s in seats]
        coop = bool(row.get("outcome")) and not winners
        for i, w in enumerate(won):
            if not coop:
                seat_n[i] += 1
                seat_w[i] += w
        for i, per in enumerate(row.get("per_seat") or []):
            detail = True
            if coop:
                continue
            bought = (per.get("chosen") or {}).get(action) or {}
            for name, count in bought.items():
                c = cards[name]
                c.bought += count
                c.n1[i] += 1
                c.w1[i] += won[i]
            for name, count in (per.get("played") or {}).items():
                c = cards[name]
                c.played += count
                c.seat_games_played += 1
    card_rows = [_card_row(name, c, seat_n, seat_w) for name, c in cards.items()]
    card_rows.sort(key=lambda r: (r["adjusted"] is None, -(r["adjusted"] or 0.0), r["card"]))
    n_players = players_seen.most_common(1)[0][0] if players_seen else 0
    seats_report = [{"seat": f"P{i + 1}", **_proportion(seat_w[i], seat_n[i]),
                     "expected": _r(1 / n_players) if n_players else None}
                    for i in sorted(seat_n)]
    for s in seats_report:
        s["differs"] = s["expected"] is not None and s["n"] > 0 and not s["low"] <= s["expected"] <= s["high"]
    return {
        "games": games, "failed": failed, "action": action, "methods": METHODS, "detail": detail,
        "players": dict(sorted(players_seen.items())),
        "cards": card_rows, "seats": seats_report,
        "turns": _distribution(turns),
        "scores": {"score": _distribution(scores), "winning score": _distribution(winning),
                   "winning margin": _distribution(margins)},
        "histograms": {"turns": _counts(turns), "score": _counts(scores), "winning score": _counts(winning),
                       "winning margin": _counts(margins)},
        "end_reasons": [{"reason": r, "games": k, "share": _r(k / games)} for r, k in sorted(reasons.items())],
        "outcomes": [{"heroes": h, "outcome": o, **_proportion(k, sum(outcomes[h].values()))}
                     for h in sorted(outcomes) for o, k in sorted(outcomes[h].items())],
    }


def _card_row(name: str, c: _Card, seat_n: Counter[int], seat_w: defaultdict[int, float]) -> dict[str, Any]:
    """One card's line: its counts, win rates, raw and seat-adjusted differences."""
    n1 = sum(c.n1.values())
    w1 = sum(c.w1.values())
    total_n = sum(seat_n.values())
    n0 = total_n - n1
    w0 = sum(seat_w.values()) - w1
    row: dict[str, Any] = {"card": name, "bought": c.bought, "seat_games_bought": n1,
                           "bought_share": _r(n1 / total_n if total_n else None), "played": c.played,
                           "seat_games_played": c.seat_games_played,
                           "win_bought": _r(w1 / n1 if n1 else None), "win_not_bought": _r(w0 / n0 if n0 else None),
                           "raw": None, "raw_low": None, "raw_high": None,
                           "adjusted": None, "low": None, "high": None, "significant": False}
    if n1 and n0:
        d, lo, hi = newcombe(w1, n1, w0, n0)
        row.update(raw=_r(d), raw_low=_r(lo), raw_high=_r(hi))
    strata = [(c.w1[i], c.n1[i], seat_w[i] - c.w1[i], seat_n[i] - c.n1[i]) for i in sorted(seat_n)]
    adjusted = mh_difference(strata)
    if adjusted is not None:
        d, lo, hi = adjusted
        row.update(adjusted=_r(d), low=_r(lo), high=_r(hi), significant=lo > 0 or hi < 0)
    return row


def card_csv(report: dict[str, Any]) -> str:
    """The per-card table as CSV text (a header line, one line per card)."""
    import csv
    import io

    out = io.StringIO()
    fields = ["card", "bought", "seat_games_bought", "bought_share", "played", "seat_games_played", "win_bought",
              "win_not_bought", "raw", "raw_low", "raw_high", "adjusted", "low", "high", "significant"]
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in report["cards"]:
        writer.writerow({k: "" if row[k] is None else row[k] for k in fields})
    return out.getvalue()

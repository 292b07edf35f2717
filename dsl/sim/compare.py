"""``cardscript compare``: the same seeds under two versions of a game, A and B
(docs/analyze.md#compare).

Every seed is played once under A and once under B with the same seats and bots, so
the two results of a seed form a matched pair. :func:`compare` turns the two row lists
into a report (a plain dict, the ``--json`` output):

* per seat, the paired difference of win rates B - A with Newcombe's interval for
  paired proportions (:func:`cardscript.dsl.sim.stats.newcombe_paired`); a game with k
  winners counts 1/k of a win, split over the pair's table as its common part (both
  won) and the rest (one only), which keeps both margins and the difference exact;
* for co-operative games, the same for each outcome (the share of games ending so);
* the paired difference of the mean game length (turns) and of each seat's mean score,
  B - A, with a normal interval on the per-seed differences (mean ± 1.96 sd/√n): the
  most sensitive measure of a change that makes every seat stronger alike;
* per card present in both versions, its seat-adjusted win-rate impact under A and
  under B (:func:`cardscript.dsl.sim.analyze.analyze`) and the difference B - A, with a
  normal interval from the two intervals' variances added: the two are measured on the
  same seeds, usually positively correlated, so this interval is if anything too wide;
* the cards whose printed text (name, types, attributes, copies, rules text as
  ``cardscript render`` prints it) differs between A and B, and those in one only.

A difference is *significant* when its 95 % interval excludes 0; the verdicts are
sentences saying so.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from cardscript.dsl.sim.analyze import analyze
from cardscript.dsl.sim.stats import Z95, newcombe_paired

METHODS = {
    "design": "paired: every seed played under A and under B, same seats and bots",
    "seats": "per seat, win rate under B minus under A; Newcombe's hybrid score interval for paired "
             "proportions (1998, method 10); a shared win counts 1/k",
    "measures": "turns and each seat's score: mean of the per-seed differences B - A, normal interval "
                "(1.96 sd/sqrt n)",
    "cards": "per card in both: seat-adjusted impact (as analyze) under A and under B; difference B - A "
             "with a normal interval, variances added (conservative for paired seeds)",
    "changed": "a card differs when its printed text (cardscript render) differs",
    "interval": "95 %",
}


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def _points(x: float) -> str:
    return f"{100 * x:.1f}"


def _games(n: int) -> str:
    return f"{n:,} game" + ("" if n == 1 else "s")


def paired_table(pairs: Sequence[tuple[float, float]]) -> tuple[float, float, float, float]:
    """The matched-pairs table ``(both, first only, second only, neither)`` of values in
    [0, 1] (a share of a win): each pair adds its common part to ``both``, what only one
    has to that one's cell, and the rest to ``neither``."""
    a = b = c = d = 0.0
    for x, y in pairs:
        common = min(x, y)
        a += common
        b += x - common
        c += y - common
        d += 1 - max(x, y)
    return a, b, c, d


def _paired(label: str, pairs: list[tuple[float, float]]) -> dict[str, Any]:
    """One paired difference (B - A): ``pairs`` are (under B, under A) per game."""
    a, b, c, d = paired_table(pairs)
    n = len(pairs)
    diff, low, high = newcombe_paired(a, b, c, d)
    return {"what": label, "n": n, "a": _r((a + c) / n), "b": _r((a + b) / n), "diff": _r(diff),
            "low": _r(low), "high": _r(high), "significant": low > 0 or high < 0,
            "table": [_r(v, 2) for v in (a, b, c, d)]}


def _mean_difference(label: str, pairs: list[tuple[float, float]]) -> dict[str, Any]:
    """One paired difference of means (B - A): ``pairs`` are (under B, under A) per game."""
    n = len(pairs)
    diffs = [b - a for b, a in pairs]
    mean = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    return {"what": label, "n": n, "a": _r(statistics.fmean(a for _, a in pairs), 3),
            "b": _r(statistics.fmean(b for b, _ in pairs), 3), "diff": _r(mean, 3), "low": _r(mean - half, 3),
            "high": _r(mean + half, 3), "significant": mean - half > 0 or mean + half < 0}


def _wins(row: dict[str, Any]) -> list[float]:
    winners = row["winners"]
    return [1 / len(winners) if s in winners else 0.0 for s in row["seats"]]


def _impact(card: dict[str, Any] | None) -> dict[str, Any]:
    if card is None:
        return {"bought_share": None, "adjusted": None, "low": None, "high": None}
    return {k: card[k] for k in ("bought_share", "adjusted", "low", "high")}


def _card_difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    if a["adjusted"] is None or b["adjusted"] is None:
        return {"diff": None, "low": None, "high": None, "significant": False}
    var = sum(((x["high"] - x["low"]) / (2 * Z95)) ** 2 for x in (a, b))
    diff = b["adjusted"] - a["adjusted"]
    half = Z95 * math.sqrt(var)
    return {"diff": _r(diff), "low": _r(diff - half), "high": _r(diff + half),
            "significant": diff - half > 0 or diff + half < 0}


def compare(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]],
            cards_a: dict[str, dict[str, Any]], cards_b: dict[str, dict[str, Any]],
            action: str = "buy") -> dict[str, Any]:
    """The report of one paired batch.

    Args:
        rows_a, rows_b: the rows of the same seeds under A and under B, in the same order.
        cards_a, cards_b: each version's cards as printed (name -> ``RenderedCard.to_json()``).
        action: the action whose choices are "bought" (as ``analyze --action``).

    Returns:
        ``games`` (the pairs where both games finished), ``failed`` (seeds dropped),
        ``methods``, ``seats``, ``outcomes``, ``cards``, ``changed``, ``only_a``,
        ``only_b``, ``significant`` and ``verdicts`` (sentences, the headline first).

    Raises:
        ValueError: the two lists are not the same seeds.
    """
    if [r["seed"] for r in rows_a] != [r["seed"] for r in rows_b]:
        raise ValueError("A and B must be the same seeds, in the same order")
    kept = [(ra, rb) for ra, rb in zip(rows_a, rows_b, strict=True) if ra["t"] == rb["t"] == "game"]
    failed = [ra["seed"] for ra, rb in zip(rows_a, rows_b, strict=True) if "failed" in (ra["t"], rb["t"])]
    n = len(kept)
    coop = any(ra.get("outcome") for ra, _ in kept)
    seats: list[dict[str, Any]] = []
    outcomes: list[dict[str, Any]] = []
    if n and not coop:
        seat_names = kept[0][0]["seats"]
        if all(ra["seats"] == seat_names == rb["seats"] for ra, rb in kept):
            wins = [(_wins(rb), _wins(ra)) for ra, rb in kept]
            seats = [{"seat": s, **_paired(s, [(wb[i], wa[i]) for wb, wa in wins])}
                     for i, s in enumerate(seat_names)]
    elif n:
        for tier in sorted({r["outcome"] for pair in kept for r in pair if r.get("outcome")}):
            pairs = [(float(rb["outcome"] == tier), float(ra["outcome"] == tier)) for ra, rb in kept]
            outcomes.append({"outcome": tier, **_paired(tier, pairs)})
    measures: list[dict[str, Any]] = []
    if n:
        measures.append(_mean_difference("game length (turns)", [(rb["turns"], ra["turns"]) for ra, rb in kept]))
        if all(len(ra["scores"]) == len(rb["scores"]) == len(kept[0][0]["scores"]) for ra, rb in kept):
            measures += [_mean_difference(f"score of {seat}", [(rb["scores"][i], ra["scores"][i])
                                                               for ra, rb in kept])
                         for i, seat in enumerate(kept[0][0]["seats"])]
    impact_a = {c["card"]: c for c in analyze([ra for ra, _ in kept], action)["cards"]}
    impact_b = {c["card"]: c for c in analyze([rb for _, rb in kept], action)["cards"]}
    changed = sorted(name for name in cards_a.keys() & cards_b.keys() if cards_a[name] != cards_b[name])
    cards = []
    for name in sorted(cards_a.keys() & cards_b.keys()):
        a, b = _impact(impact_a.get(name)), _impact(impact_b.get(name))
        cards.append({"card": name, "changed": name in changed, "a": a, "b": b, **_card_difference(a, b)})
    cards.sort(key=lambda c: (not c["changed"], c["diff"] is None, -abs(c["diff"] or 0.0), c["card"]))
    report: dict[str, Any] = {
        "games": n, "failed": failed, "action": action, "methods": METHODS, "seats": seats, "outcomes": outcomes,
        "measures": measures, "cards": cards,
        "changed": [{"card": name, "a": cards_a[name], "b": cards_b[name]} for name in changed],
        "only_a": sorted(cards_a.keys() - cards_b.keys()), "only_b": sorted(cards_b.keys() - cards_a.keys()),
    }
    report["verdicts"] = verdicts(report)
    headline = [*seats, *outcomes, *measures, *(c for c in cards if c["changed"])]
    report["significant"] = any(x["significant"] for x in headline)
    return report


def _interval(x: dict[str, Any]) -> str:
    return f"[{100 * x['low']:+.1f}, {100 * x['high']:+.1f}]"


def verdicts(report: dict[str, Any]) -> list[str]:
    """The report in plain words: the headline (is there a significant difference at
    95 %?), then one sentence per seat or outcome and per changed card."""
    n = report["games"]
    over = f"over {_games(n)}"
    lines: list[str] = []
    for x in [*report["seats"], *report["outcomes"]]:
        subject = f"seat {x['seat']} wins" if "seat" in x else f"the outcome '{x['outcome']}' comes"
        if x["significant"]:
            more = "more" if x["diff"] > 0 else "less"
            lines.append(f"under B, {subject} {_points(abs(x['diff']))} points {more} often than under A "
                         f"{_interval(x)} {over}")
        else:
            lines.append(f"{subject.rsplit(' ', 1)[0]}: no significant difference at 95 % {over} "
                         f"(B - A {100 * x['diff']:+.1f} points {_interval(x)})")
    for x in report["measures"]:
        if x["significant"]:
            more = "more" if x["diff"] > 0 else "less"
            lines.append(f"under B, the {x['what']} is {abs(x['diff']):.2f} {more} than under A "
                         f"(mean {x['b']:.2f} against {x['a']:.2f}; [{x['low']:+.2f}, {x['high']:+.2f}]) {over}")
        else:
            lines.append(f"{x['what']}: no significant difference at 95 % {over} "
                         f"(B - A {x['diff']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}])")
    by_name = {c["card"]: c for c in report["cards"]}
    for ch in report["changed"]:
        c = by_name[ch["card"]]
        a, b = c["a"], c["b"]
        if c["diff"] is None:
            lines.append(f"'{ch['card']}' differs between A and B; it was not bought in both, so its impact "
                         "cannot be compared")
            continue
        words = "significantly different" if c["significant"] else "no significant difference"
        lines.append(f"'{ch['card']}' differs between A and B: bought by {_points(a['bought_share'])} % of "
                     f"seats under A, {_points(b['bought_share'])} % under B; win-rate impact "
                     f"{100 * a['adjusted']:+.1f} {_interval(a)} under A, {100 * b['adjusted']:+.1f} "
                     f"{_interval(b)} under B: B - A {100 * c['diff']:+.1f} points {_interval(c)}, {words}")
    if report["only_a"]:
        lines.append("only in A: " + ", ".join(report["only_a"]))
    if report["only_b"]:
        lines.append("only in B: " + ", ".join(report["only_b"]))
    headline = [*report["seats"], *report["outcomes"], *report["measures"],
                *(c for c in report["cards"] if c["changed"])]
    if not n:
        lines.insert(0, "no game finished under both A and B: nothing to compare")
    elif any(x["significant"] for x in headline):
        lines.insert(0, f"A and B differ at 95 % {over}")
    else:
        lines.insert(0, f"no significant difference at 95 % {over}")
    return lines


def card_csv(report: dict[str, Any]) -> str:
    """The per-card table of a comparison as CSV text (a header line, one line per card)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    side = ("bought_share", "adjusted", "low", "high")
    writer.writerow(["card", "changed", *(f"a_{k}" for k in side), *(f"b_{k}" for k in side),
                     "diff", "low", "high", "significant"])
    for c in report["cards"]:
        cells = [c["card"], c["changed"], *(c["a"][k] for k in side), *(c["b"][k] for k in side),
                 c["diff"], c["low"], c["high"], c["significant"]]
        writer.writerow(["" if v is None else v for v in cells])
    return out.getvalue()

"""``cardscript analyze --html DIR``: the report of :func:`cardscript.dsl.sim.analyze.analyze`
as one self-contained page (docs/analyze.md#html).

The plots are drawn by matplotlib (the ``report`` extra) on its Agg canvas, without
pyplot (no global state, no display), and embedded as base64 PNG: the page loads
nothing from anywhere, and its Content-Security-Policy forbids it to. Every text that
comes from a script (card names, end reasons, outcomes) is HTML-escaped in the tables,
and drawn in the plots with mathtext off, so a name like ``$x$`` is shown as written.
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

#: at most this many cards in the forest plot (those of largest |impact|); the table has all
FOREST_CARDS = 30

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #eee; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.sig { color: #b30000; font-weight: bold; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.9em; max-width: 60em; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
p.methods { color: #555; font-size: 0.9em; }
"""


class MissingMatplotlib(Exception):
    """The HTML report needs matplotlib, which is not installed."""


def _png(fig: Any) -> tuple[str, int, int]:
    """The figure as a base64 PNG, with its size in pixels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    canvas.print_png(buffer, metadata={"Software": None})
    width, height = canvas.get_width_height()
    return base64.b64encode(buffer.getvalue()).decode("ascii"), int(width), int(height)


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def forest_plot(cards: list[dict[str, Any]], limit: int = FOREST_CARDS) -> Any | None:
    """Each card's seat-adjusted win-rate impact (points) with its 95 % interval, sorted,
    with a zero line; the ``limit`` cards of largest |impact|. None if no card has one."""
    rows = [c for c in cards if c["adjusted"] is not None]
    if not rows:
        return None
    rows = sorted(sorted(rows, key=lambda c: -abs(c["adjusted"]))[:limit], key=lambda c: c["adjusted"])
    fig = _figure(9, max(2.4, 1.2 + 0.28 * len(rows)))
    ax = fig.add_subplot()
    ys = range(len(rows))
    for significant, colour in ((True, "#b30000"), (False, "#555555")):
        part = [(y, c) for y, c in zip(ys, rows, strict=True) if c["significant"] == significant]
        if part:
            x = [100 * c["adjusted"] for _, c in part]
            err = [[100 * (c["adjusted"] - c["low"]) for _, c in part],
                   [100 * (c["high"] - c["adjusted"]) for _, c in part]]
            ax.errorbar(x, [y for y, _ in part], xerr=err, fmt="o", color=colour, markersize=4,
                        elinewidth=1.5, capsize=3)
    ax.axvline(0, color="#000000", linewidth=1)
    ax.set_yticks(list(ys), [c["card"] for c in rows])
    ax.set_xlabel("win-rate impact, seat-adjusted (points; 95 % interval)")
    ax.grid(axis="x", alpha=0.3)
    title = "card impact" + (f" (the {len(rows)} of largest |impact|)" if len(rows) == limit < len(cards) else "")
    ax.set_title(title)
    return fig


def histogram(counts: list[list[float]], label: str, ax: Any) -> None:
    """A histogram of ``[value, count]`` pairs: one bar per value when few, else 40 bins."""
    values = [v for v, _ in counts]
    weights = [k for _, k in counts]
    span = max(values) - min(values) + 1
    bins: Any = [v - 0.5 for v in range(int(min(values)), int(max(values)) + 2)] if span <= 60 else 40
    ax.hist(values, bins=bins, weights=weights, color="#4477aa", edgecolor="#ffffff", linewidth=0.4)
    ax.set_xlabel(label)
    ax.set_ylabel("games" if label == "turns" else "count")
    ax.grid(axis="y", alpha=0.3)


def turns_plot(report: dict[str, Any]) -> Any | None:
    counts = report.get("histograms", {}).get("turns")
    if not counts:
        return None
    fig = _figure(9, 3.2)
    ax = fig.add_subplot()
    histogram(counts, "turns", ax)
    ax.set_title("game length")
    return fig


def scores_plot(report: dict[str, Any]) -> Any | None:
    parts = [(k, v) for k, v in report.get("histograms", {}).items() if k != "turns" and v]
    if not parts:
        return None
    fig = _figure(3.2 * len(parts), 3.2)
    for i, (label, counts) in enumerate(parts, 1):
        histogram(counts, label, fig.add_subplot(1, len(parts), i))
    fig.suptitle("score distributions")
    return fig


def _bars(ax: Any, labels: list[str], rows: list[dict[str, Any]], expected: float | None = None) -> None:
    xs = list(range(len(rows)))
    rates = [100 * (r["rate"] or 0.0) for r in rows]
    err = [[rate - 100 * r["low"] for rate, r in zip(rates, rows, strict=True)],
           [100 * r["high"] - rate for rate, r in zip(rates, rows, strict=True)]]
    ax.bar(xs, rates, color="#4477aa", yerr=err, capsize=6, ecolor="#000000")
    if expected is not None:
        ax.axhline(100 * expected, color="#b30000", linestyle="--", linewidth=1,
                   label=f"1/players = {100 * expected:.1f} %")
        ax.legend(loc="lower right")
    ax.set_xticks(xs, labels)
    ax.grid(axis="y", alpha=0.3)


def seats_plot(report: dict[str, Any]) -> Any | None:
    seats = report["seats"]
    if not seats:
        return None
    fig = _figure(max(4.0, 1.2 * len(seats) + 2), 3.2)
    ax = fig.add_subplot()
    _bars(ax, [s["seat"] for s in seats], seats, seats[0]["expected"])
    ax.set_ylabel("win % (95 % Wilson interval)")
    ax.set_title("seat advantage")
    return fig


def outcomes_plot(report: dict[str, Any]) -> Any | None:
    outcomes = report["outcomes"]
    if not outcomes:
        return None
    fig = _figure(max(4.0, 1.0 * len(outcomes) + 2), 3.4)
    ax = fig.add_subplot()
    _bars(ax, [f"{o['outcome']}\n{o['heroes']} heroes" for o in outcomes], outcomes)
    ax.set_ylabel("% of games (95 % Wilson interval)")
    ax.set_title("co-operative outcomes per hero count")
    return fig


# ---------------------------------------------------------------- the page
def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}"


def _interval(low: float | None, high: float | None) -> str:
    return "—" if low is None or high is None else f"[{100 * low:+.1f}, {100 * high:+.1f}]"


def _table(head: list[str], rows: list[list[Any]], sig: list[bool] | None = None) -> str:
    out = ["<table><thead><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        cls = ' class="sig"' if sig and sig[i] else ""
        out.append("<tr>" + "".join(f"<td{cls if k == len(row) - 1 else ''}>{_e(v)}</td>"
                                    for k, v in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _figure_html(fig: Any, alt: str, caption: str, name: str) -> str:
    data, width, height = _png(fig)
    return (f'<figure id="{name}"><img class="plot" alt="{_e(alt)}" width="{width}" height="{height}" '
            f'src="data:image/png;base64,{data}"><figcaption>{_e(caption)}</figcaption></figure>')


def page(report: dict[str, Any], title: str) -> str:
    """The whole page: plots and tables of ``report``, as HTML text.

    Raises:
        MissingMatplotlib: matplotlib is not installed (``pip install 'cardscript[report]'``).
    """
    try:
        import matplotlib
    except ImportError:
        raise MissingMatplotlib("the HTML report draws its plots with matplotlib: "
                                "pip install 'cardscript[report]' (or matplotlib)") from None
    with matplotlib.rc_context({"text.parse_math": False, "font.size": 9}):
        plots = [(forest_plot(report["cards"]), "forest plot of card impact",
                  "Each card's win-rate impact: the win rate of the seats that bought it minus those that did not, "
                  "adjusted for seat (Mantel-Haenszel), in points, with its 95 % interval; red: the interval "
                  "excludes 0. The zero line is no difference.", "forest"),
                 (seats_plot(report), "seat advantage", "Each seat's win rate with its 95 % Wilson interval; the "
                  "dashed line is 1/players, what a fair game gives.", "seats"),
                 (outcomes_plot(report), "co-operative outcomes", "Each outcome's share of the games per hero "
                  "count, with its 95 % Wilson interval.", "outcomes"),
                 (turns_plot(report), "turns histogram", "How many games lasted each number of turns.", "turns"),
                 (scores_plot(report), "score histograms", "The scores of every seat, of the winner, and the "
                  "winning margin (winner minus runner-up).", "scores")]
        figures = [_figure_html(fig, alt, caption, name) for fig, alt, caption, name in plots if fig is not None]
    cards = report["cards"]
    skipped = f"; {report['failed']} failed games skipped" if report["failed"] else ""
    parts = [f"<h1>{_e(title)}</h1>",
             f"<p>{report['games']:,} games{skipped}; bought = chosen by the action '{_e(report['action'])}'.</p>",
             "<h2>Plots</h2>", *figures]
    if report["seats"]:
        parts += ["<h2>Seat advantage</h2>", _table(
            ["seat", "games", "wins", "win %", "95 % (Wilson)", "expected %", "differs"],
            [[s["seat"], s["n"], f"{s['wins']:g}", _pct(s["rate"]), _interval(s["low"], s["high"]).replace("+", ""),
              _pct(s["expected"]), "yes" if s["differs"] else "no"] for s in report["seats"]],
            [s["differs"] for s in report["seats"]])]
    if cards:
        parts += ["<h2>Cards</h2>", _table(
            ["card", "buys", "seats %", "plays", "win % bought", "win % not", "impact", "95 %", "sig"],
            [[c["card"], c["bought"], _pct(c["bought_share"]), c["played"], _pct(c["win_bought"]),
              _pct(c["win_not_bought"]), "—" if c["adjusted"] is None else f"{100 * c['adjusted']:+.1f}",
              _interval(c["low"], c["high"]), "*" if c["significant"] else ""] for c in cards],
            [c["significant"] for c in cards])]
    dists = [("turns", report["turns"]), *report["scores"].items()]
    parts += ["<h2>Distributions</h2>", _table(
        ["measure", "n", "mean", "median", "q1", "q3", "min", "max"],
        [[label, *(f"{d[k]:g}" for k in ("n", "mean", "median", "q1", "q3", "min", "max"))]
         for label, d in dists if d["n"]])]
    parts += ["<h2>End reasons</h2>", _table(
        ["reason", "games", "%"], [[e["reason"], e["games"], _pct(e["share"])] for e in report["end_reasons"]])]
    if report["outcomes"]:
        parts += ["<h2>Co-operative outcomes per hero count</h2>", _table(
            ["heroes", "outcome", "games", "%", "95 % (Wilson)"],
            [[o["heroes"], o["outcome"], f"{o['wins']:g} of {o['n']}", _pct(o["rate"]),
              _interval(o["low"], o["high"]).replace("+", "")] for o in report["outcomes"]])]
    m = report["methods"]
    parts.append(f"<p class=\"methods\">Methods: unit = {_e(m['unit'])}. {_e(m['interval'])}. "
                 f"Difference = {_e(m['difference'])}; seat-adjusted: {_e(m['adjusted'])}. "
                 "sig = the adjusted interval excludes 0. Bots choose what they buy: a difference is an "
                 "association under these bots, not a card's causal strength (compare versions with "
                 "'cardscript compare').</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
            "style-src 'unsafe-inline'\">"
            f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")

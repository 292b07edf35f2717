"""The screen of a human seat (issue 15, ``cardscript play --human SEAT``): what that seat
may see, drawn from its :class:`~cardscript.runtime.observation.Observation`, the decision's
:class:`~cardscript.runtime.observation.DecisionView` and its seat's log — never the game.

Game-agnostic: every word on the screen comes from the scripts (zone, counter, event and
card names, the rendered rules text of :mod:`cardscript.dsl.tools.render`); this module
only lays them out. On a terminal it uses rich's colours; otherwise (answers piped in, a
test) it prints the same text plainly.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

from cardscript.dsl.cli.logfmt import format_entry
from cardscript.dsl.textsafe import terminal

_SEAT_ZONE = re.compile(r"P(\d+) (.+)")
#: how many groups of cards a zone lists before "… and N more"
_GROUPS = 10
#: how many recent events the screen shows (the ``log`` command shows more)
RECENT = 14


@dataclass(frozen=True)
class CardText:
    """A card as its printed face reads: its name, a one-line header (types and
    attributes) and its rules text."""

    name: str
    header: str
    text: str


@dataclass
class TableInfo:
    """What a human seat knows of the game before it starts: its name and every card's
    printed text (the rulebook and the card list a player holds). Plain data: never the
    definition or the game (issue 13)."""

    game: str = ""
    cards: dict[str, CardText] = field(default_factory=dict)
    quiet_events: frozenset[str] = frozenset()

    def find(self, name: str) -> tuple[CardText | None, list[str]]:
        """The card called ``name`` (case-insensitive; a unique start or part of a name
        will do), or None and the nearest names (a hint for a misspelling)."""
        want = " ".join(name.lower().split())
        by_lower = {n.lower(): n for n in self.cards}
        if want in by_lower:
            return self.cards[by_lower[want]], []
        for test in (str.startswith, str.__contains__):
            hits = [n for low, n in by_lower.items() if test(low, want)]
            if len(hits) == 1:
                return self.cards[hits[0]], []
            if hits:
                return None, sorted(hits)[:8]
        near = difflib.get_close_matches(want, list(by_lower), n=5, cutoff=0.5)
        return None, [by_lower[n] for n in near]


def table_info(definition: Any, program: Any) -> TableInfo:
    """The :class:`TableInfo` of a compiled game: ``definition`` (for its name and quiet
    events) and ``program`` (the parsed scripts, for the rendered card texts)."""
    from cardscript.dsl.tools.render import render_program

    cards: dict[str, CardText] = {}
    for c in render_program(program):
        # an attribute left at nothing (0, "") is the card's silence, as on a printed card
        attrs = ", ".join(f"{k} {v}" for k, v in c.attributes.items() if v not in (0, ""))
        header = " · ".join(p for p in (", ".join(c.types), attrs) if p)
        cards[c.name] = CardText(c.name, header, c.text)
    return TableInfo(definition.name, cards, frozenset(definition.quiet_events) | {"play"})


class Screen:
    """Draws one seat's screen on ``out``: rich with colours on a terminal, plain text
    otherwise (``tty``)."""

    def __init__(self, out: IO[str], tty: bool, info: TableInfo):
        self.out, self.tty, self.info = out, tty, info
        self.console = Console(file=out, force_terminal=tty, no_color=not tty, highlight=False,
                               width=None if tty else 100, emoji=False)

    def say(self, text: str, style: str = "") -> None:
        """One line of text (script names already made safe), in ``style`` on a terminal."""
        if not self.tty:  # plain text needs no layout engine (and piped games stay quick)
            self.out.write(text + "\n")
            return
        self.console.print(f"[{style}]{escape(text)}[/]" if style else escape(text), soft_wrap=True)

    def wrapped(self, text: str, indent: int, style: str = "") -> None:
        """A paragraph indented by ``indent``: wrapped to the terminal's width, one line when plain."""
        if not self.tty:
            self.out.write(" " * indent + text + "\n")
            return
        self.console.print(Padding(Text(text, style=style), (0, 0, 0, indent)))

    def decision(self, view: Any, d: Any, events: Sequence[dict[str, Any]]) -> None:
        """The whole screen before a decision: the table, the recent events, the menu."""
        if self.tty:
            self.console.clear()
        seat = d.player
        title = f"{self.info.game} · turn {view.turn} · P{view.active + 1}'s turn" if view.turn else \
            f"{self.info.game} · setup"
        if self.tty:
            self.console.rule(f"[bold]{escape(terminal(title))}[/]")
        else:
            self.say(f"── {terminal(title)} " + "─" * max(3, 60 - len(title)))
        self.recent(events, seat)
        self.table(view, seat)
        self.menu(d)

    def recent(self, events: Sequence[dict[str, Any]], seat: int, limit: int = RECENT) -> None:
        """The events since ``seat`` last decided (the last ``limit`` of them)."""
        start = 0
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            if e.get("t") == "decision" and e.get("player") == seat:
                start = i + 1
                break
        lines = self.event_lines(events[start:])
        if not lines:
            return
        self.say("Since your last choice:" if start else "So far:", "bold")
        if len(lines) > limit:
            self.say(f"  … {len(lines) - limit} earlier (type log)", "dim")
        for line in lines[-limit:]:
            self.say(line.strip("\n"))

    def event_lines(self, events: Sequence[dict[str, Any]]) -> list[str]:
        """The readable lines of seat-log entries (:func:`cardscript.dsl.cli.logfmt.format_entry`)."""
        out = []
        for e in events:
            t = e.get("t")
            if t == "setup" or (t == "decision" and "options" not in e):
                continue  # a foe's decision shows by what it did; the setup line has no seed here
            line = format_entry(e, self.info.quiet_events, set())
            if line is not None:
                out.append(line.rstrip())
        return out

    def table(self, view: Any, seat: int) -> None:
        """Every seat's counters and zone sizes; the cards this seat may see, zone by zone."""
        zones = view.zones
        counters = view.counters
        per_seat = {k: v for k, v in counters.items() if isinstance(v, tuple)}
        shared = {k: v for k, v in counters.items() if not isinstance(v, tuple)}
        seat_zones: list[str] = []
        for name in zones:
            m = _SEAT_ZONE.fullmatch(name)
            if m and m.group(2) not in seat_zones:
                seat_zones.append(m.group(2))
        # a zone empty at every seat (tokens before any is won) would only be noise
        seat_zones = [z for z in seat_zones if any(zones.get(f"P{p + 1} {z}") for p in range(view.players))]
        for p in range(view.players):
            who = f"P{p + 1} (you)" if p == seat else f"P{p + 1}"
            if p == view.active:
                who += " *"
            values = " · ".join(f"{terminal(k)} {v[p]}" for k, v in per_seat.items())
            sizes = " · ".join(f"{terminal(z)} {len(zones.get(f'P{p + 1} {z}', ()))}" for z in seat_zones)
            style = "bold" if p == seat else ""
            self.say(f"{who:<11}{values}", style)
            if sizes:
                self.say(f"{'':<11}cards: {sizes}", "dim")
        if shared:
            self.say("  ".join(f"{terminal(k)} {v}" for k, v in shared.items()))
        self.say("(* has the turn)", "dim")
        self._zones(zones, seat)

    def _zones(self, zones: dict[str, tuple[str | None, ...]], seat: int) -> None:
        mine, foes, common = [], [], []
        for name, cards in zones.items():
            m = _SEAT_ZONE.fullmatch(name)
            text = _zone_text(cards)
            if text is None:
                continue
            if m is None:
                common.append((name, text))
            elif int(m.group(1)) == seat + 1:
                mine.append((f"Your {m.group(2)}", text))
            else:
                foes.append((name, text))
        for group in (common, foes, mine):
            for name, text in group:
                if self.tty:
                    self.console.print(f"[bold]{escape(terminal(name))}:[/] {escape(text)}", soft_wrap=True)
                else:
                    self.say(f"{terminal(name)}: {text}")

    def menu(self, d: Any) -> None:
        """The numbered options, each card's rules text under it."""
        self.say("")
        purpose = terminal(d.purpose or d.kind)
        self.say(f"P{d.player + 1}, {_asking(d, purpose)}", "bold yellow")
        labels = d.labels
        options = d.options
        width = len(str(len(labels)))
        shown: set[str] = set()  # a card's text once per menu (a hand of four alike reads once)
        for i, label in enumerate(labels):
            self.say(f"  {i + 1:>{width}}. {terminal(label)}", "cyan")
            card = _option_card(d.kind, options[i])
            found = self.info.cards.get(card) if card else None
            if found is not None and card not in shown:
                shown.add(found.name)
                about = " — ".join(p for p in (found.header, found.text) if p)
                if about:
                    self.wrapped(terminal(about), width + 6, "dim")
        self.say("(a number · ?NAME shows a card · log · undo · save FILE · help)", "dim")

    def card(self, c: CardText) -> None:
        """One card: name, header, rules text (the ``?NAME`` command)."""
        self.say(terminal(c.name), "bold")
        if c.header:
            self.say(f"  {terminal(c.header)}", "dim")
        self.wrapped(terminal(c.text) or "(no rules text)", 2)


def _zone_text(cards: tuple[str | None, ...]) -> str | None:
    """A zone's cards in a line ("Card A x3, Card B"), or None to leave it out
    (empty, or nothing in it this seat may see: its size is in the table)."""
    seen = [c for c in cards if c is not None]
    if not seen:
        return None
    counts: dict[str, int] = {}
    for c in seen:
        counts[c] = counts.get(c, 0) + 1
    groups = [terminal(c) if k == 1 else f"{terminal(c)} x{k}" for c, k in counts.items()]
    text = ", ".join(groups[:_GROUPS]) + (f", … and {len(groups) - _GROUPS} more" if len(groups) > _GROUPS else "")
    if len(seen) < len(cards):
        text = f"{text} on top (of {len(cards)})" if len(seen) == 1 and cards[-1] is not None else \
            f"{text} (and {len(cards) - len(seen)} unseen)"
    return text


def _option_card(kind: str, option: Any) -> str | None:
    if kind == "card" and isinstance(option, str):
        return option
    if kind == "action" and option is not None:
        return getattr(option, "card", None)
    return None


def _asking(d: Any, purpose: str) -> str:
    n = d.size
    if d.kind == "yes/no":
        return f"{purpose}?"
    if d.kind == "action":
        return "what do you do? (choose one)"
    if purpose == "choose":
        purpose = "your choice"
    if d.low == d.high == 1:
        return f"{purpose}: choose one" + (" (the only option)" if n == 1 else "")
    return f"{purpose}: {pick_range(d.low, min(d.high, n))}"


def pick_range(low: int, high: int) -> str:
    """How many options a multi-pick decision takes, in words."""
    if low == high:
        return f"choose {low}"
    if low == 0:
        return f"choose up to {high} (0 or an empty line for none)"
    return f"choose {low} to {high}"

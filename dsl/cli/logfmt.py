"""Readable, turn-by-turn lines from the engine's event log.

Game-agnostic: what to leave out comes from the game's own ``quiet`` declarations
(events by name, counters by name); the runtime's built-in entries (turns, plays,
choices, flips, reveals, the end) always show. Every name in a line comes from a
script, so each is made safe for the terminal (:func:`cardscript.dsl.textsafe.terminal`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardscript.dsl.textsafe import terminal
from cardscript.runtime.definition import GameDefinition


def player(p: int) -> str:
    return f"P{p + 1}"


def lines(log: list[dict[str, Any]], d: GameDefinition) -> Iterator[str]:
    """Yield one readable line per interesting log entry."""
    quiet_events = d.quiet_events | {"play"}
    quiet_counters = {d.counters[i].name for i in d.quiet_counters}
    for e in log:
        line = format_entry(e, quiet_events, quiet_counters)
        if line is not None:
            yield line


def traced_lines(log: list[dict[str, Any]], d: GameDefinition) -> Iterator[str]:
    """The readable lines of a traced log (``cardscript test -v``: every entry, quiet or
    not, the card moves too), each followed by the script position ('file:line:col', relative to the current folder when
    inside it) of the statement that logged it."""
    import contextlib
    import os

    for e in log:
        # every entry, the quiet ones too: a failing scenario is read for what happened
        line = format_entry(e, frozenset({"play"}), set())
        if line is None:
            line = _safe(f"  {e.get('t')}: {', '.join(f'{k} {v}' for k, v in e.items() if k not in ('t', 'at', 'id'))}")
        at = e.get("at")
        if at:
            path, _, pos = str(at).rpartition(":")
            path, _, row = path.rpartition(":")
            with contextlib.suppress(ValueError):  # a path on another drive stays as it is
                path = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
            line = f"{line.rstrip()}    @ {terminal(f'{path}:{row}:{pos}')}"
        yield line


def format_entry(e: dict[str, Any], quiet_events: frozenset[str] | set[str], quiet_counters: set[str]) -> str | None:
    """One log entry as text, or None when it is not worth a line."""
    raw, e = e, {k: _safe(v) for k, v in e.items()}
    t = e["t"]
    if t == "setup":
        return f"{e['game']}: {e['players']} players, seed {e['seed']}"
    if t == "turn":
        return f"\n── Turn {e['turn']} · {player(e['player'])} ──"
    if t == "play":
        return f"  {player(e['player'])} plays {e['card']}"
    if t == "decision":
        chosen = [e["options"][i] for i in e["chose"]]
        if e["kind"] == "action":
            label = chosen[0]
            if label.startswith("play ") or label == "end turn":
                return None
            return f"  {player(e['player'])} → {label}"
        if e["kind"] == "yes/no":
            return f"  {player(e['player'])} uses “{e['purpose']}”" if chosen == ["yes"] else None
        if not chosen:
            return None
        what = e["purpose"] if e["purpose"] not in ("", "choose") else "chooses"
        return f"  {player(e['player'])} {what}: {', '.join(chosen)}"
    if t == "event":
        if raw["event"] in quiet_events:
            return None
        card = f" ({e['card']})" if "card" in e else ""
        return f"  {player(e['player'])} · {e['event']}{card}"
    if t == "counter":
        if raw["counter"] in quiet_counters:
            return None
        sign = "+" if e["delta"] > 0 else "−"  # noqa: RUF001 -- the log prints a typographic minus
        who = e["card"] if "card" in e else player(e["player"])
        return f"  {who} {e['counter']} {sign}{abs(e['delta'])} → {e['value']}"
    if t == "roll":
        return f"    {e['die']} → {e['face']}"
    if t == "flip":
        return f"  {e['card']} is turned {'face up' if e['face_up'] else 'face down'}"
    if t == "reveal":
        return f"  {player(e['player'])} reveals {', '.join(e['cards'])}"
    if t == "warning":
        return f"warning: {e['text']}"
    if t == "end":
        return f"\nGame over after turn {e['turn']}: {e['reason']}"
    return None


def _safe(value: Any) -> Any:
    """A log value with its text made safe for the terminal (lists item by item)."""
    if isinstance(value, str):
        return terminal(value)
    if isinstance(value, list):
        return [_safe(v) for v in value]
    return value

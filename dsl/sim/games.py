"""One game of a batch, to its row: a plain dict that is written as one JSON line.

A finished game's row (``"t": "game"``) holds its seed, seats, bots, scores, winners,
turns, decisions, end reason and outcome; with :attr:`BatchSpec.detail`, also per seat
the cards each action chose, the cards gained, played and owned at the end
(:func:`seat_counts`). A game that fails — a runaway chain (CS401) or a bug in
cardscript — gives a ``"t": "failed"`` row naming the seed and the command that replays it.
"""

from __future__ import annotations

import traceback
from collections import Counter, defaultdict
from typing import Any

from cardscript.dsl.sim.spec import BatchSpec
from cardscript.runtime.definition import GameDefinition


def play_seed(d: GameDefinition, spec: BatchSpec, seed: int) -> dict[str, Any]:
    """Play the game of ``seed`` and return its row. Never raises for a failing game:
    the failure is the row (``"t": "failed"``, ``"error"``: ``"CS401"`` or ``"internal"``).
    """
    from cardscript.dsl.diagnostics import internal_message, runaway_position
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine
    from cardscript.runtime.errors import RunawayError

    agents = make_agents(spec.bots.split(","), spec.players)
    try:
        engine = Engine(d, spec.players, agents, seed, log=spec.detail)
        res = engine.run()
    except RunawayError as exc:
        return {"t": "failed", "seed": seed, "error": "CS401", "message": str(exc), "chain": exc.chain,
                "at": runaway_position(exc),
                "replay": spec.replay_command(seed)}
    except Exception as exc:  # noqa: BLE001 -- a bug in cardscript: reported with its seed, not raised
        return {"t": "failed", "seed": seed, "error": "internal", "message": internal_message(exc),
                "replay": spec.replay_command(seed), "traceback": "".join(traceback.format_exception(exc))}
    coop = bool(d.outcomes)  # a co-operative game has an outcome, not a winner
    row: dict[str, Any] = {
        "t": "game", "seed": seed, "seats": [f"P{p + 1}" for p in range(spec.players)],
        "bots": [a.name for a in agents], "scores": res.scores,
        "winners": [] if coop else [f"P{p + 1}" for p in res.winners],
        "turns": res.turns, "decisions": res.decisions, "reason": res.reason, "outcome": res.outcome,
    }
    if spec.detail:
        row["per_seat"] = seat_counts(d, engine.game, res.log)
    return row


def seat_counts(d: GameDefinition, g: Any, log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per seat, read from a finished game's log and state (no game's concepts: only actions,
    zones and owners):

    * ``chosen``: per action name, the card names its ``choose`` picked (an action taken on
      a card: the game's "buy" or "defeat" actions, and its "play" too);
    * ``gained``: cards that came into a zone of that seat from a zone not theirs, after
      the setup (starting decks are not gains);
    * ``played``: cards the seat played;
    * ``final``: cards the seat owns when the game ends (its final deck, every zone).

    Each is ``{card name: count}`` with names sorted.
    """
    n = g.n
    card_actions = sorted((a.name for a in d.actions if a.choose is not None), key=len, reverse=True)
    card_names = {c.name for c in d.cards}
    slot_owner = {g.slot_name(s): g.slot_owner[s] for s in range(len(g.slots))}
    chosen: list[defaultdict[str, Counter[str]]] = [defaultdict(Counter) for _ in range(n)]
    gained: list[Counter[str]] = [Counter() for _ in range(n)]
    played: list[Counter[str]] = [Counter() for _ in range(n)]
    started = False
    for e in log:
        t = e["t"]
        if t == "move":
            p = slot_owner.get(e["to"], -1)
            if started and p >= 0 and slot_owner.get(e["from"], -1) != p:
                gained[p][e["card"]] += 1
        elif t == "play":
            played[e["player"]][e["card"]] += 1
        elif t == "turn":
            started = True
        elif t == "decision" and e["purpose"] == "action" and e["kind"] == "action":
            label = e["options"][e["chose"][0]]
            for name in card_actions:  # the label is 'ACTION CARD'; the longest action name that fits
                if label.startswith(name + " ") and label[len(name) + 1:] in card_names:
                    chosen[e["player"]][name][label[len(name) + 1:]] += 1
                    break
    final: list[Counter[str]] = [Counter() for _ in range(n)]
    for card, owner in enumerate(g.owner):
        if owner >= 0:
            final[owner][g.card_name(card)] += 1
    return [{"seat": f"P{p + 1}",
             "chosen": {a: dict(sorted(c.items())) for a, c in sorted(chosen[p].items())},
             "gained": dict(sorted(gained[p].items())), "played": dict(sorted(played[p].items())),
             "final": dict(sorted(final[p].items()))} for p in range(n)]

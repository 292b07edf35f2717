"""The log of what one seat saw (issue 13, ``cardscript play --log-for SEAT``): the full
log's entries as that seat may read them, by the visibility of
:mod:`cardscript.runtime.observation`.

* its own decisions, with the labels it was offered; another seat's decisions as their
  player, kind and purpose only (their options may name that seat's hidden cards);
* a card's move when the seat sees the card where it goes or saw the zone it left (a
  card taken from a public zone, played from its own private one); any other move as a count
  (``{"t": "move", "from": "P2 deck", "to": "P2 hand", "count": 5}``), consecutive ones
  between the same zones added up; no card ids;
* an event about a card the seat does not see (a foe's "draw"): the event without the card;
* the setup line without the seed (with it and the scripts, a deck's order can be worked out);
* everything else (turns, reveals, plays, rolls, flips, scores) as it is: it is public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardscript.runtime.observation import card_seen, event_subject, last_decision, seat_labels, slot_seen

if TYPE_CHECKING:
    from cardscript.runtime.game import Game


class SeatLog:
    """Collects ``seat``'s log of ``game`` as the game runs: add it to ``game.listeners``
    before the game starts; the entries are in :attr:`entries`.

    Raises:
        ValueError: a seat the game does not have.
    """

    def __init__(self, game: Game, seat: int):
        if not 0 <= seat < game.n:
            raise ValueError(f"there is no seat P{seat + 1} in a game of {game.n} players")
        self.game, self.seat = game, seat
        self.entries: list[dict[str, Any]] = []
        self._slots = {game.slot_name(s): s for s in range(len(game.slots))}

    def __call__(self, entry: dict[str, Any]) -> None:
        g, seat = self.game, self.seat
        t = entry.get("t")
        out = dict(entry)
        if t == "setup":
            out.pop("seed", None)
        elif t == "move":
            src = self._slots.get(entry["from"], -1)
            if not (card_seen(g, entry["id"], seat) or (src >= 0 and slot_seen(g, src, seat))):
                self._count(entry["from"], entry["to"])
                return
            out.pop("id", None)
        elif t == "roll":
            out.pop("id", None)
        elif t == "decision":
            if entry["player"] != seat:
                out = {k: entry[k] for k in ("t", "player", "kind", "purpose")}
            else:
                d = last_decision(g)
                if d is not None and d.player == seat:
                    out["options"] = seat_labels(g, seat, d)
        elif t == "event" and "card" in entry:
            card = event_subject(g)
            if card < 0 or not card_seen(g, card, seat):  # a foe's "draw": which card stays theirs
                out.pop("card")
        self.entries.append(out)

    def _count(self, src: str, dst: str) -> None:
        last = self.entries[-1] if self.entries else None
        if last is not None and last.get("t") == "move" and "count" in last and \
                last["from"] == src and last["to"] == dst:
            last["count"] += 1
        else:
            self.entries.append({"t": "move", "from": src, "to": dst, "count": 1})

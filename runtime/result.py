"""The outcome of a finished game (:class:`Result`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Result:
    """The outcome of a game.

    Attributes:
        scores: final score per seat.
        ranking: seats from first to last place, tie-breaks applied.
        winners: seats sharing first place after tie-breaks (usually one).
        outcome: the co-operative result (the first ``outcome`` whose condition holds), or "".
        reason: the end condition's text.
        turns: turns played.
        decisions: decisions asked.
        log: the event log (empty when logging is off).
    """

    scores: list[int]
    ranking: list[int]
    winners: list[int]
    reason: str
    turns: int
    decisions: int
    tie_values: list[list[int]]
    log: list[dict[str, Any]]
    outcome: str = ""

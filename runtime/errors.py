"""How a game stops early: the bounds that make every game terminate and the
exceptions raised when a game ends at once or goes wrong."""

from __future__ import annotations

#: Bounds that make every game terminate (DESIGN: "every loop and trigger chain is bounded").
MAX_TURNS = 400
MAX_ACTIONS_PER_TURN = 200
MAX_TRIGGER_DEPTH = 24
MAX_CALL_DEPTH = 64
MAX_REPEAT = 1000


class GameOver(Exception):
    """Raised inside effects by 'end game' to stop the game at once."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RunawayError(Exception):
    """A trigger chain or recursion passed its bound. ``chain`` names the sources."""

    def __init__(self, message: str, chain: list[str]):
        super().__init__(message)
        self.chain = chain


class RigError(Exception):
    """A rigged outcome (scenarios) names a card that is not there."""


class InvalidDecision(Exception):
    """An agent answered a decision with an illegal choice."""


"""How a game stops early: the bounds that make every game terminate and the
exceptions raised when a game ends at once or goes wrong."""

from __future__ import annotations

#: Bounds that make every game terminate (DESIGN: "every loop and trigger chain is bounded").
MAX_TURNS = 400
MAX_ACTIONS_PER_TURN = 200
MAX_TRIGGER_DEPTH = 24
MAX_CALL_DEPTH = 64
MAX_REPEAT = 1000
#: The step budget of one game: effect steps (a statement run, a call, a trigger, an
#: action, a loop's pass, a card a selector looks at or a shuffle shuffles, a card moved
#: counting :data:`MOVE_STEPS`), counted the same way in every run, never time: a game
#: that runs away stops within seconds. The built-in games use at most about 500,000.
MAX_STEPS = 2_000_000
#: What one card moved costs of the budget (a move changes and logs more than a look).
MOVE_STEPS = 4
#: State a script can make grow (docs/language.md, "Bounds"; review of issue 12, A1-A5): past
#: one of these the game stops (``RunawayError``, CS401) instead of slowing every later step.
#: Delayed effects pending at once ('at the next "EVENT"'), in the whole game.
MAX_DELAYED = 10_000
#: Actions granted in one turn ('once this turn, you may ...'), used up or not.
MAX_GRANTED = 1_000
#: Attribute modifiers recorded in one turn ('the next card you buy costs 1 less').
MAX_MODIFIERS = 1_000
#: Pending abilities offered in one trigger-order decision ('triggers resolve in the order
#: you choose').
MAX_PENDING_TRIGGERS = 200
#: How deep effects may run inside each other, in levels of effect objects (an 'if' in a
#: block in an effect called by a trigger ...): far below Python's recursion limit.
MAX_NESTING = 300
#: the largest seed: a game's seed is a whole number from 0 to this (what a log's header holds)
MAX_SEED = 2 ** 63 - 1


def check_seed(seed: object) -> int:
    """``seed`` as the int a game is seeded with: a whole number from 0 to :data:`MAX_SEED`
    (an integer of another type, numpy's, is taken as one).

    Raises:
        TypeError: not an integer (a bool, a float, a text, None).
        ValueError: below 0 (Python's generator would play the game of its absolute value,
            so seed -1 would be seed 1's game) or above :data:`MAX_SEED`.
    """
    if isinstance(seed, (bool, float, str)) or not hasattr(type(seed), "__index__"):
        raise TypeError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")
    n = type(seed).__index__(seed)  # type: ignore[attr-defined]
    if not 0 <= n <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, not {n} (a negative seed would "
                         "play the game of the positive one)")
    return n


class GameOver(Exception):
    """Raised inside effects by 'end game' to stop the game at once."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RunawayError(Exception):
    """A trigger chain, a recursion or the step budget passed its bound.

    Attributes:
        chain: what was running, outermost first: the actions, triggers ('CARD on "EVENT"
            (file:line)'), abilities and script effects the error passed through on its way
            out; a long chain keeps its first and last entries around a '...'.
        at: where the script statement running when the game stopped is written,
            'file:line:col' (the innermost block's statement that the error left), or None
            when it stopped outside any script block.
        ats: the positions of the statements it left, innermost first (at most
            :attr:`MAX_ATS`, each once in a row), so that a report can name the innermost
            one in a file of the user's rather than of a built-in game.
    """

    #: the entries of a long chain kept at its start and at its end
    HEAD, TAIL = 4, 8
    #: the most statement positions kept (``ats``)
    MAX_ATS = 64

    def __init__(self, message: str, chain: list[str] | None = None):
        super().__init__(message)
        self._inside = list(reversed(chain or []))  # innermost first, as the error leaves them
        self.ats: list[str] = []

    @property
    def at(self) -> str | None:
        return self.ats[0] if self.ats else None

    def leaving(self, at: tuple[str, ...] | None, index: int) -> None:
        """Record that the error leaves statement ``index`` of a block whose statements are
        written at ``at`` (``Seq._at``: 'file:line:col' each)."""
        if at is not None and 0 <= index < len(at) and at[index]:
            ats = self.ats
            if len(ats) < self.MAX_ATS and (not ats or ats[-1] != at[index]):
                ats.append(at[index])

    def passing(self, entry: str) -> None:
        """Record that the error leaves ``entry`` (a trigger, an effect) on its way out."""
        self._inside.append(entry)

    @property
    def chain(self) -> list[str]:
        out = self._inside[::-1]
        if len(out) > self.HEAD + self.TAIL + 1:
            out = [*out[:self.HEAD], f"... {len(out) - self.HEAD - self.TAIL} more ...", *out[-self.TAIL:]]
        return out


class RigError(Exception):
    """A rigged outcome (scenarios) names a card that is not there."""


class InvalidDecision(Exception):
    """An agent answered a decision with an illegal choice."""


#: the magnitude a number saturates at: a product, a counter, a 'let' value (so that a loop
#: doubling or squaring a value cannot grow it without end: a sum of saturated values is
#: bounded by the expression's size)
PRODUCT_LIMIT = 10**18


def saturated(v: int) -> int:
    """``v`` within ±:data:`PRODUCT_LIMIT` (what a counter and a 'let' keep)."""
    return v if -PRODUCT_LIMIT <= v <= PRODUCT_LIMIT else (PRODUCT_LIMIT if v > 0 else -PRODUCT_LIMIT)

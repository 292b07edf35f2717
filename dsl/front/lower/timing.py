"""Lowering of the timing area's statements (issue 12): delayed effects and abilities
for the rest of the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardscript.dsl.diagnostics import CODES
from cardscript.dsl.front import ast as A
from cardscript.runtime import effects as E

if TYPE_CHECKING:
    from cardscript.dsl.front.lower.bodies import BodyLowerer
    from cardscript.dsl.front.lower.names import NameLowerer


def lower_timing(low: BodyLowerer, s: Any, params: dict[str, str]) -> Any:
    """A timing statement as its runtime effect (``A.Delayed`` -> ``E.Delay``, ``A.Grant``
    -> ``E.Grant``); ``0 times this turn`` is CS215, a grant named "end turn" or like an
    action of the game CS216.

    Raises:
        AssertionError: for a node that is not a timing statement (a builder bug).
    """
    if isinstance(s, A.Delayed):
        return E.Delay(s.event, s.yours, low.body(s.body, params))
    if isinstance(s, A.Grant):
        if s.uses < 0:
            low.err("CS215", f"'0 times this turn, you may \"{s.label}\"' can never be used", s.span,
                    "write 'once this turn', 'N times this turn' (N at least 1) or 'any number of times this turn'")
        taken = {"end turn", *(a.name for a in low.sym.actions)}
        if s.label in taken:
            low.err("CS216", f"the granted ability \"{s.label}\" has the name of "
                    f"{'End Turn' if s.label == 'end turn' else 'an action of the game'}: answering "
                    f"\"{s.label}\" could take either", s.span, CODES["CS216"][2])
        cond = low.cond(s.cond, params) if s.cond is not None else None
        prefer = low.expr(s.prefer, params) if s.prefer is not None else None
        return E.Grant(s.label, max(s.uses, 0), low.body(s.body, params), cond, prefer)
    raise AssertionError(f"unknown statement {s!r}")


def between_call(low: NameLowerer, key: str, span: Any) -> None:
    """A call of the script effect ``key`` inside ``between turns:``: CS213 if it takes
    actions, directly or through the effects it calls (review of issue 12, B1). Checked at
    once when every effect is lowered already, else when they are (``between_calls_done``)."""
    if low._between_calls is None:
        _check_between(low, key, span)
    else:
        low._between_calls.append((key, span))


def between_calls_done(low: NameLowerer) -> None:
    """Every script effect is lowered (so ``takes_actions`` and ``calls`` are complete):
    check the calls made between turns meanwhile."""
    pending, low._between_calls = low._between_calls or [], None
    for key, span in pending:
        _check_between(low, key, span)


def _check_between(low: NameLowerer, key: str, span: Any) -> None:
    """CS213 at a call between turns that reaches 'take actions' (breadth first, so the
    chain named is a shortest one)."""
    if not low.takes_actions:
        return
    came: dict[str, str | None] = {key: None}
    todo = [key]
    for k in todo:  # grows while walked: a breadth-first walk over the call graph
        if k in low.takes_actions:
            names = {s.key: s.display for s in low.sym.effects}
            chain = []
            at: str | None = k
            while at is not None:
                chain.append(repr(names.get(at, at)))
                at = came[at]
            low.err("CS213", f"'take actions' between turns, through {' -> '.join(reversed(chain))}: "
                    "no player is active to take them", span, CODES["CS213"][2])
            return
        for nxt in sorted(low.calls.get(k, ())):
            if nxt not in came:
                came[nxt] = k
                todo.append(nxt)

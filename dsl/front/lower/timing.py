"""Lowering of the timing area's statements (issue 12): delayed effects and abilities
for the rest of the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardscript.dsl.front import ast as A
from cardscript.runtime import effects as E

if TYPE_CHECKING:
    from cardscript.dsl.front.lower.bodies import BodyLowerer


def lower_timing(low: BodyLowerer, s: Any, params: dict[str, str]) -> Any:
    """A timing statement as its runtime effect (``A.Delayed`` -> ``E.Delay``, ``A.Grant``
    -> ``E.Grant``); ``0 times this turn`` is CS215.

    Raises:
        AssertionError: for a node that is not a timing statement (a builder bug).
    """
    if isinstance(s, A.Delayed):
        return E.Delay(s.event, s.yours, low.body(s.body, params))
    if isinstance(s, A.Grant):
        if s.uses < 0:
            low.err("CS215", f"'0 times this turn, you may \"{s.label}\"' can never be used", s.span,
                    "write 'once this turn', 'N times this turn' (N at least 1) or 'any number of times this turn'")
        cond = low.cond(s.cond, params) if s.cond is not None else None
        prefer = low.expr(s.prefer, params) if s.prefer is not None else None
        return E.Grant(s.label, max(s.uses, 0), low.body(s.body, params), cond, prefer)
    raise AssertionError(f"unknown statement {s!r}")

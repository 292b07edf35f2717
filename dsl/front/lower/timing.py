"""Lowering of the timing area's statements (issue 12): delayed effects."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardscript.dsl.front import ast as A
from cardscript.runtime import effects as E

if TYPE_CHECKING:
    from cardscript.dsl.front.lower.bodies import BodyLowerer


def lower_timing(low: BodyLowerer, s: Any, params: dict[str, str]) -> Any:
    """A timing statement as its runtime effect (``A.Delayed`` -> ``E.Delay``).

    Raises:
        AssertionError: for a node that is not a timing statement (a builder bug).
    """
    if isinstance(s, A.Delayed):
        return E.Delay(s.event, s.yours, low.body(s.body, params))
    raise AssertionError(f"unknown statement {s!r}")

"""The prompt of an optional effect ('you may CALL'): the call as the script wrote it.

The readable log shows the yes/no decision by this prompt (``P1 uses “pay 2 gold”``)
and a scenario's addressed answer names it, so it reads as the card does: a literal
value as written, and a parameter of the effect the call sits in (``you may pay N
gold`` inside ``effect tax {N: number}``) by its value when the decision is
put. A computed value stays as the messages write it.
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import display, tokens_of
from cardscript.runtime import effects as E

#: parameter kinds whose value reads as a word in a prompt (the rest keep their name)
_WORDY = ("number", "type", "text")


def may_prompt(c: A.Call, params: dict[str, str]) -> str | tuple[Any, ...]:
    """The prompt of ``you may`` + call ``c`` in a body with parameters ``params`` (name
    -> kind): a string, or a tuple of words and ``E.Var`` parameters for
    :class:`cardscript.runtime.effects.May` to fill in. Raises nothing."""
    parts: list[Any] = []
    for t in tokens_of(c.items):
        if t[0] == "param" and params.get(t[1]) in _WORDY:
            parts.append(E.Var(t[1]))
        elif t[0] == "num":
            parts.append(_count(t[1], params))
        elif t[0] == "cards":
            parts.extend(_cards(t[1], params))
        else:
            parts.append(display([t]))
    if all(isinstance(p, str) for p in parts):
        return " ".join(parts)
    merged: list[Any] = []
    for p in parts:  # runs of words as one string: a short IR, a quick join
        if isinstance(p, str) and merged and isinstance(merged[-1], str):
            merged[-1] += " " + p
        else:
            merged.append(p)
    return tuple(merged)


def _count(e: Any, params: dict[str, str]) -> Any:
    if isinstance(e, A.Num):
        return str(e.value)
    if isinstance(e, A.Param) and params.get(e.name) == "number":
        return E.Var(e.name)
    return display([("num", e, None)])


def _cards(sel: A.CardSel, params: dict[str, str]) -> list[Any]:
    """'up to 2 equipment from your discard': as ``display``, whose count word is "N",
    with the count filled in."""
    words = display([("cards", sel, None)]).split(" ")
    if sel.count is None or "N" not in words:
        return [" ".join(words)]
    at = words.index("N")
    return [w for w in (" ".join(words[:at]), _count(sel.count, params), " ".join(words[at + 1:])) if w != ""]

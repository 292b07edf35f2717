"""Number agreement in call phrases. Printed cards say "Draw a card.", "draw 1 card" and
"Draw 2 cards.": a count of one takes the singular, any other count the plural. A pattern
is written in one of the forms (``effect draw {N: number} cards``, ``effect discard a
card``); a call in the other form of the same count still calls it
(docs/language.md, "How a call is matched"):

* ``1 card`` calls a pattern's ``a card``, and ``{N: number} cards`` with N = 1;
* ``a card`` calls a pattern's ``{N: number} cards`` with N = 1.

The checker tries these only when no pattern matches the call as written, so a call
that matched before matches the same effect. :func:`corrections` are what a call whose
count and noun disagree (``draw 2 card``) may have meant, for the hint of its diagnostic.
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.diagnostics import Span
from cardscript.dsl.front import ast as A

Token = tuple[Any, ...]

#: Number words a card prints ("Draw two cards."), for the hint that scripts write digits.
NUMBER_WORDS = {w: i for i, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven",
                                             "eight", "nine", "ten", "eleven", "twelve"])}


def plurals(word: str) -> set[str]:
    """The plural forms a singular noun may take (``card`` -> cards, ``box`` -> boxes, ``enemy`` -> enemies)."""
    out = {word + "s", word + "es"}
    if len(word) > 1 and word.endswith("y"):
        out.add(word[:-1] + "ies")
    return out


def _one(tok: Token) -> bool:
    return tok[0] == "num" and isinstance(tok[1], A.Num) and tok[1].value == 1


def agree(pattern: tuple[Token, ...], call: list[Token], span: Span) -> list[Token] | None:
    """``call`` rewritten to the number agreement of ``pattern`` (a count and the words after
    it, up to the next argument), or None when there is nothing to rewrite, or the rewrite
    would pair a count with the wrong form (``a cards``)."""
    if len(pattern) != len(call):
        return None
    out: list[Token] = []
    count: bool | None = None  # the last count of the call is 1 (None: no count before these words)
    owed = False  # an 'a' became the number 1: its noun must be singular, and so become plural
    changed = False
    for p, c in zip(pattern, call, strict=True):
        if owed and (c[0] != "w" or c == ("w", "a")):
            return None
        if c == ("w", "a") and p[0] == "slot" and p[2] == "number":
            out.append(("num", A.Num(span, 1), None))
            count, owed, changed = True, True, True
            continue
        if _one(c) and p == ("w", "a"):
            out.append(p)
            count, changed = True, True
            continue
        if c[0] == "num" or c == ("w", "a"):
            count = _one(c) or c == ("w", "a")
        elif c[0] != "w":
            count = None
        elif count and p[0] == "w" and p[1] in plurals(c[1]):
            out.append(p)
            owed, changed = False, True
            continue
        out.append(c)
    return None if owed or not changed else out


def corrections(call: list[Token]) -> list[list[Token]]:
    """``call`` with one noun after a count put in the other number: singular after 1 or 'a'
    (``draw a cards`` -> draw a card), plural after any other count (``draw 2 card`` ->
    draw 2 cards). For the hint of a call whose count and noun disagree."""
    out: list[list[Token]] = []
    count: bool | None = None
    for i, c in enumerate(call):
        if c[0] == "num" or c == ("w", "a"):
            count = _one(c) or c == ("w", "a")
        elif c[0] != "w":
            count = None
        elif count is not None:
            forms = _singulars(c[1]) if count else plurals(c[1])
            out.extend([*call[:i], ("w", f), *call[i + 1:]] for f in sorted(forms))
    return out


def _singulars(word: str) -> set[str]:
    out = {word[:-1]} if len(word) > 2 and word.endswith("s") else set()
    if len(word) > 3 and word.endswith("es"):
        out.add(word[:-2])
    if len(word) > 4 and word.endswith("ies"):
        out.add(word[:-3] + "y")
    return out


def in_digits(call: list[Token], span: Span) -> list[Token] | None:
    """``call`` with its number words (``two``) written as numbers, or None if it has none."""
    if not any(c[0] == "w" and c[1] in NUMBER_WORDS for c in call):
        return None
    return [("num", A.Num(span, NUMBER_WORDS[c[1]]), None) if c[0] == "w" and c[1] in NUMBER_WORDS else c
            for c in call]

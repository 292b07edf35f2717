"""Printed-text templates: :func:`fill` puts rendered values in the placeholders of a
``printed "..."`` template (the rules are in :mod:`cardscript.dsl.tools.render`'s docstring).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A placeholder of a template: ``{NAME}``.
PLACEHOLDER = re.compile(r"\{(\w[\w ]*)\}")
_PREPOSITIONS = {"to", "into", "of", "on", "at", "by", "from", "for", "with", "in", "under"}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Arg:
    """A template value: its text, words to add at the end of its sentence ('for each X'),
    or, for a computed number, the phrase that follows the noun it counts ('equal to X')."""

    text: str
    tail: str = ""
    equal: str = ""
    block: bool = False  # a block or an ability's text: its sentence is left out when empty


def _equal_to(sentence_text: str, placeholder: str, phrase: str) -> str:
    """'take {N} damage' -> 'take damage equal to X': the number leaves its place and the
    phrase follows the words after it (up to a preposition, a placeholder or punctuation)."""
    toks = sentence_text.split(" ")
    i = next((k for k, t in enumerate(toks) if t == placeholder), None)
    if i is None:
        return sentence_text.replace(placeholder, phrase)
    del toks[i]
    j = i
    while j < len(toks) and "{" not in toks[j] and toks[j].lower() not in _PREPOSITIONS:
        if toks[j][-1:] in ".,;:!?":
            toks[j] = f"{toks[j][:-1]} {phrase}{toks[j][-1]}"
            return " ".join(toks)
        j += 1
    toks.insert(j, phrase)
    return " ".join(toks)


def fill(template: str, values: dict[str, Arg]) -> str:
    """A template with its placeholders replaced (see :mod:`cardscript.dsl.tools.render`).
    A placeholder with no value stays as written."""
    out = []
    for part in _SENTENCE_END.split(template.strip()):
        names = [n for n in PLACEHOLDER.findall(part) if n in values]
        if any(values[n].block and not values[n].text.strip() for n in names):
            continue
        for n in names:
            v, ph = values[n], "{" + n + "}"
            if v.equal:
                part = _equal_to(part, ph, v.equal)
                continue
            if v.text and v.text[0].lower() in "aeiou":
                part = re.sub(r"\b([Aa]) (?=" + re.escape(ph) + ")", r"\1n ", part)
            part = part.replace(ph, v.text)
            if v.tail:
                end = len(part.rstrip(".!?"))
                part = f"{part[:end]} {v.tail}{part[end:]}"
        out.append(part)
    return " ".join(out)

"""The hint of a CS202 (no effect matches a call): what the writer most likely meant.

Every hint comes from what the scripts declare (their effects, zones and the zones'
printed names) or from the language's own words (:data:`~cardscript.dsl.diagnostics.FOREIGN_WORDS`),
never from a game's: the checker knows no game. In the order :func:`unmatched_hint`
tries them:

* a control word of another language (``else: +1 power``): the language's own form;
* an effect that opens a block, followed by a statement with no ':' between them
  (``attack each foe they discard a card``): the missing ':';
* a zone written as it is printed or with spaces for its hyphens (``the main deck``,
  ``your discard pile``): how the zone is written, then the closest pattern;
* else the closest pattern by its words, or the effects that start with the same verb.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from cardscript.dsl.diagnostics import closest, foreign_word_hint
from cardscript.dsl.front.patterns import EffectSig, display

Tokens = list[tuple[Any, ...]]
#: (effect, tokens, has_block) -> whether the tokens call the effect (counts agreeing, as
#: the checker matches them)
Fits = Callable[[EffectSig, Tokens, bool], bool]

#: the subjects a statement may start with ('they discard a card'): words of the language
_SUBJECTS = ("they", "you")


def unmatched_hint(toks: Tokens, has_block: bool, sigs: list[EffectSig], sym: Any, fits: Fits) -> str:
    """The hint of a call no effect matches.

    Args:
        toks: the call's tokens (:func:`~cardscript.dsl.front.patterns.tokens_of`).
        has_block: whether the call ends with ':' and a block.
        sigs: every effect the call could name (built-ins and the scripts').
        sym: the program's declarations (:class:`~cardscript.dsl.front.check.Symbols`): its
            ``zones`` and ``printed_zones``.
        fits: whether tokens call an effect.

    Returns:
        The hint, or '' when nothing is close.
    """
    first = toks[0][1] if toks and toks[0][0] == "w" else ""
    if first and not any(s.tokens and s.tokens[0] == toks[0] for s in sigs):  # a game's own 'then ...' wins
        foreign = foreign_word_hint(first)
        if foreign:
            return foreign
    colon = "" if has_block else _missing_colon(toks, sigs, fits)
    if colon:
        return colon
    pattern = _closest_pattern(toks, has_block, sigs)
    zone = zone_spelling(display(toks), sym)
    if zone:
        return f"{zone}; {pattern}" if pattern else zone
    return pattern


def _closest_pattern(toks: Tokens, has_block: bool, sigs: list[EffectSig]) -> str:
    """'did you mean PATTERN?' for the pattern closest by its words, else the effects that
    start with the call's verb, else ''."""
    skeletons = {_skeleton(s.tokens) + (" : ..." if s.has_block else ""): s for s in sigs}
    mine = _skeleton(toks) + (" : ..." if has_block else "")
    best = closest(mine, list(skeletons))  # not did_you_mean's text: a phrase may hold a quote
    if best is not None:
        return f"did you mean '{skeletons[best].display}'?"
    same_verb = [s.display for s in sigs if s.tokens and toks and s.tokens[0] == toks[0]]
    if same_verb:
        return f"effects starting with '{toks[0][1]}': " + "; ".join(sorted(same_verb)[:4])
    return ""


def _skeleton(tokens: Any) -> str:
    return " ".join(t[1] if t[0] == "w" else "_" for t in tokens)


def _missing_colon(toks: Tokens, sigs: list[EffectSig], fits: Fits) -> str:
    """The hint for an effect that opens a block followed on the same line by a statement
    with no ':' (``attack each foe they discard a card``), or ''. The words after the
    effect must be a statement of their own (after a subject such as 'they'), so a call
    that merely starts like a block effect is not told to split."""
    blocks = [s for s in sigs if s.has_block]
    for k in range(len(toks) - 1, 0, -1):  # the longest head first: 'attack each foe', not 'attack'
        head = toks[:k]
        opener = next((s for s in blocks if fits(s, head, True)), None)
        if opener is None or not _is_statement(toks[k:], sigs, fits):
            continue
        return (f"did you forget ':'? '{opener.display}' opens a block: write "
                f"'{display(head)}: {display(toks[k:])}'")
    return ""


def _is_statement(rest: Tokens, sigs: list[EffectSig], fits: Fits) -> bool:
    if rest and rest[0][0] == "w" and rest[0][1] in _SUBJECTS:
        rest = rest[1:]
    return bool(rest) and any(fits(s, rest, False) for s in sigs)


def zone_spelling(text: str, sym: Any) -> str:
    """How a zone named in ``text`` is written, when ``text`` names it as it is printed
    ('discard pile' for a zone ``discard`` with ``printed zone discard as "discard pile"``)
    or with spaces for the hyphens of its name ('main deck' for ``main-deck``); else ''.

    Args:
        text: the words of the statement as written.
        sym: the program's declarations (``zones``, ``printed_zones``).
    """
    low = text.lower()
    found: list[tuple[int, int, str, str]] = []  # (where, -length, the words seen, the zone)
    for name in sym.zones:
        forms = {name.replace("-", " ")}
        printed = sym.printed_zones.get(name)
        if printed is not None:
            words = printed.template.lower()
            forms |= {words, words.replace("-", " ")}
            # "The Vault" is named 'the vault' or, as a zone reference without its article, 'vault'
            forms |= {f.split(" ", 1)[1] for f in set(forms) if f.startswith("the ") and " " in f}
        for form in forms - {name}:
            m = re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", low)
            if m:
                found.append((m.start(), -len(form), form, name))
    if not found:
        return ""
    _, _, seen, name = min(found)
    owner = "your" if sym.zones[name].per_player else "the"
    return f"the zone is written '{name}' ('{owner} {name}'), not '{seen}'"

"""Card names scoped to their set (docs/language.md, "Card names and sets").

A card's identity is (set, name). The set of a script is the built-in folder it lies in
(``dc-core``, a game's folder...) or the name of its package's folder (an expansion, a
user's game). Two sets may each have a card of one name; in a game holding both, each is
known by its **qualified** name ``NAME [SET]`` — in logs, ``render`` and ``play`` — and
only then. A name in a script means the card of the script's own set first, then the one
card of that name; a name two other sets share must be written qualified (``CS222``).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardscript.dsl.front import ast as A


@lru_cache(maxsize=256)
def card_set(file: str) -> str:
    """The set a script's cards belong to.

    Args:
        file: the script's file name, as spans show it.

    Returns:
        The built-in folder under ``cardscripts/`` holding it, else the folder of its
        package root (:func:`cardscript.dsl.front.loader.package_root`).
    """
    from cardscript.dsl.front.loader import builtin_root, package_root

    path = Path(os.path.realpath(file))
    root = builtin_root().resolve()
    if root in path.parents:
        return path.relative_to(root).parts[0]
    return package_root(path).name


def qualified(name: str, set_name: str) -> str:
    """A card's name with its set, as a game holding two cards of that name shows it."""
    return f"{name} [{set_name}]"


def printed(cd: A.CardDef) -> str:
    """The name printed on a card (its name without the set)."""
    return cd.printed or cd.name


def renamed(cd: A.CardDef, key: str) -> A.CardDef:
    """The card under another name (``key``), keeping the printed one."""
    # every other field is kept as it is (replacements, computed attributes ...)
    fields = {f: getattr(cd, f) for f in cd._fields}
    fields.update(name=key, printed=printed(cd))
    return A.CardDef(cd.span, **fields)


def add_card(cards: dict[str, A.CardDef], sets: dict[str, str], item: A.CardDef, here: str,
             same_rank: bool) -> str | None:
    """Place a card of set ``here`` among those declared so far, by its identity.

    Args:
        cards: key -> card (renamed in place, order kept, when a name becomes shared).
        sets: key -> set of the card.
        item: the card.
        here: its set.
        same_rank: whether the script ranks with the one that declared a card of that name
            (:data:`cardscript.dsl.front.check.RANK`): then a card of another set is another
            card; else the more specific script replaces the card, as it replaces anything.

    Returns:
        The key to claim and store the card under (replacing what is there, by the usual
        rules), or None when it was added as a second card of the name.
    """
    group = [k for k, cd in cards.items() if printed(cd) == item.name]
    mine = [k for k in group if sets[k] == here]
    if not group or mine:
        return mine[0] if mine else item.name
    if not same_rank:
        return group[0]
    for k in group:  # the name is shared now: each card is known by its qualified name
        if k == printed(cards[k]):
            key = qualified(k, sets[k])
            cards_list = [(key if x == k else x, renamed(v, key) if x == k else v) for x, v in cards.items()]
            cards.clear()
            cards.update(cards_list)
            sets[key] = sets.pop(k)
    key = qualified(item.name, here)
    cards[key] = renamed(item, key)
    sets[key] = here
    return None


def resolve_card(cards: dict[str, A.CardDef], sets: dict[str, str], name: str,
                 file: str) -> tuple[str, list[str]]:
    """The card a name means in a script.

    Args:
        cards, sets: as :func:`add_card` left them.
        name: the name as written (printed, or qualified ``NAME [SET]``).
        file: the script naming it (its set is asked for first).

    Returns:
        (key, []) when it resolves; (name, []) when no card has it; (name, the qualified
        names to choose from) when two cards of other sets share it.
    """
    if name in cards:
        return name, []
    group = [k for k, cd in cards.items() if printed(cd) == name]
    if len(group) == 1:
        return group[0], []
    if not group:
        return name, []
    here = card_set(file)
    mine = [k for k in group if sets.get(k) == here]
    return (mine[0], []) if mine else (name, group)


def describe(names: list[str]) -> Any:
    """The qualified names a CS222 hint offers."""
    return " or ".join(f'"{n}"' for n in names)

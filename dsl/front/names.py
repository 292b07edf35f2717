"""Names a script gives that must not collide (CS203): the labels of an action window's
options (what a menu, a log and a scenario's answer show: 'end turn', an action's name, or
an action's name and a card's, 'play Jab'), and the parameters of one effect."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, error


def action_labels(actions: list[Any], cards: dict[str, Any]) -> list[Diagnostic]:
    """CS203 for an action whose label is another option's: 'end turn' (the option that ends
    the window), or 'NAME CARD' of an action that chooses a card ('play Jab' beside the
    action 'play' and the card 'Jab'): a menu, a log and a scenario's answer could not tell
    the two apart.

    Args:
        actions: the program's actions (``A.Action``), in order.
        cards: its cards by key (``A.CardDef``; a key is the card's name, or its qualified name).
    """
    out: list[Diagnostic] = []
    choosing = [a.name for a in actions if a.choose is not None]
    names = {cd.name for cd in cards.values()} | set(cards)
    for a in actions:
        if a.name == "end turn":
            out.append(error("CS203", "action 'end turn' has the label of the option that ends the turn", a.span,
                             "give the action another name"))
            continue
        for pre in choosing:
            if a.name.startswith(pre + " ") and a.name[len(pre) + 1:] in names:
                out.append(error("CS203", f"action {a.name!r} has the label of action {pre!r} on the card "
                                          f"{a.name[len(pre) + 1:]!r}", a.span, "give the action another name"))
                break
    return out


def twice_named(pattern: Sequence[Any]) -> list[Diagnostic]:
    """CS203 for each parameter slot of an effect's pattern named as an earlier one
    (``effect foo {N: number} and {N: number}``: the body could read only one of the two)."""
    from cardscript.dsl.front import ast as A

    out: list[Diagnostic] = []
    named: set[str] = set()
    for it in pattern:
        if isinstance(it, A.Slot):
            if it.name in named:
                out.append(error("CS203", f"parameter {it.name!r} is named twice in this effect", it.span,
                                 "give each parameter its own name"))
            named.add(it.name)
    return out

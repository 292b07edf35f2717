"""Lowering of passive abilities (``passive ongoing in played``): counter bonuses and the
static rules of issue 12 (cards2 area) — static triggers, attribute modifiers and marks
held while the card lies in the passive zone — into
:class:`~cardscript.runtime.definition.StaticRules`."""

from __future__ import annotations

from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.lower.bodies import BodyLowerer
from cardscript.runtime import effects as E
from cardscript.runtime.definition import CardType, StaticRules, TriggerDef

_HINT = ("a passive ability holds '+N counter', 'when you VERB a TYPE: ...', "
         "'cards [with TYPE] ATTR N less for PLAYERS' or 'mark PLAYERS \"MARK\"'")


class StaticLowerer(BodyLowerer):
    """Splits a passive ability into its parts; see :meth:`passive_ability`."""

    def passive_ability(self, ab: A.Ability) -> tuple[dict[int, int], StaticRules | None, A.Body]:
        """The counter bonuses, the static rules (None when it has none) and the statements
        left to run when a script says ``resolve LABEL of ...`` (the counter changes).

        Statements of any other kind are CS204 (DC rulebooks, "Ongoing": a passive ability
        states what holds while the card is in play, it does not do something once).
        """
        amounts: dict[int, int] = {}
        triggers: list[TriggerDef] = []
        modifiers: list[tuple[str, tuple[str, ...], int, Any]] = []
        marks: list[tuple[Any, str, bool]] = []
        kept: list[A.Stmt] = []
        for s in ab.body.stmts:
            if isinstance(s, A.CounterAdd) and isinstance(s.amount, A.Num) and s.player is None and s.cards is None:
                idx = self.counter(s.counter, s.span)
                amounts[idx] = amounts.get(idx, 0) + s.sign * s.amount.value
                kept.append(s)
            elif isinstance(s, A.StaticWhen):
                triggers.append(self.static_trigger(s))
            elif isinstance(s, A.AttrModifier) and not s.this_turn:
                mod = self.attr_modifier(s, {}, static=True)
                modifiers.append((mod.attr, mod.types, mod.delta, mod.players))
            elif isinstance(s, A.Mark) and not s.unmark and isinstance(s.target, A.PlayerSel):
                marks.append((self.players(s.target, {}), s.mark, s.this_turn))
            else:
                self.err("CS204", f"a passive '{ab.label}' ability states what holds while the card is in play: "
                         "this statement does something once", s.span, _HINT)
        rules = StaticRules(tuple(triggers), tuple(modifiers), tuple(marks)) if triggers or modifiers or marks else None
        return amounts, rules, A.Body(ab.body.span, tuple(kept))

    def static_trigger(self, s: A.StaticWhen) -> TriggerDef:
        """``when you VERB a TYPE: body``: a trigger on the event VERB, for the card's type words."""
        for t in s.types:
            if t not in self.sym.types:
                self.unknown("card type", t, s.span, self.sym.types)
        self.trigger_uid += 1
        return TriggerDef(self.trigger_uid, s.verb, False, False, self.body(s.body, {}),
                          f"{s.span.file}:{s.span.line}", False, s.types)


def statics_ir(card: CardType, trig: Any) -> dict[str, Any]:
    """The IR of a card's static rules: ``{"statics": {label: ...}}``, or nothing when it
    has none (so the IR of a game without them does not change). ``trig`` writes a trigger."""
    if not card.statics:
        return {}
    return {"statics": {label: {"triggers": [trig(t) | {"kind": list(t.kind)} for t in r.triggers],
                                "modifiers": [[a, list(ts), n, E.to_ir(p)] for a, ts, n, p in r.modifiers],
                                "marks": [[E.to_ir(p), m, turn] for p, m, turn in r.marks]}
                        for label, r in sorted(card.statics.items())}}

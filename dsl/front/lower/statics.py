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

    def computed_attrs(self, cd: A.CardDef) -> dict[str, Any]:
        """A card's computed attributes (``vp = count all cards in your deck with
        equipment``): attribute name -> the lowered expression.

        Diagnostics: CS205 for an undeclared attribute, CS204 for one holding text, CS203
        when the card's line gives the attribute too, CS236 when the expression reads an
        attribute that some card computes (so no computed value ever waits on another: the
        evaluation cannot recurse).
        """
        out: dict[str, Any] = {}
        if not cd.computed:  # most cards: no look at every card (once per card, a set of thousands took minutes)
            return out
        computed_names = {c.attr for card in self.sym.cards.values() for c in card.computed}
        for c in cd.computed:
            if c.attr not in self.sym.attributes:
                self.err("CS205", f"unknown attribute {c.attr!r} on card {cd.name!r}", c.span,
                         f"declare it: attribute {c.attr} = 0")
            else:
                self.attr(c.attr, c.span, number=True)
            if c.attr in out or any(name == c.attr for name, _, _ in cd.attrs):
                self.err("CS203", f"card {cd.name!r} gives {c.attr!r} twice", c.span,
                         f"a computed {c.attr} is printed '*': drop '{c.attr} N' from the card's line")
            for node in _walk(c.value):
                read = getattr(node, "attr", None)
                if isinstance(node, (A.AttrOf, A.SumAttr)) and read in computed_names:
                    self.err("CS236", f"the computed {c.attr!r} of {cd.name!r} reads {read!r}, which a card "
                             "computes", node.span, "compute it from counts, counters and printed attributes")
            out[c.attr] = self.expr(c.value, {})
        return out

    def entered_zone(self, ev: A.Event) -> int:
        """The zone of ``when a TYPE enters ZONE`` (its index): ``your Z`` for a per-player
        zone, ``the Z`` for a shared one (CS204 for another reference; CS201 for an unknown
        zone or type)."""
        assert ev.enters is not None
        for t in ev.types:
            if t not in self.sym.types:
                self.unknown("card type", t, ev.span, self.sym.types)
        if ev.enters.owner not in ("you", "shared"):
            self.err("CS204", "a zone-entry trigger names 'your ZONE' or 'the ZONE'", ev.enters.span,
                     "when a card enters your discard: ... (a per-player zone), "
                     "when a card enters the ZONE: ... (a shared one)")
        return int(self.zone_ref(ev.enters, {}).zone)

    def static_trigger(self, s: A.StaticWhen) -> TriggerDef:
        """``when you VERB a TYPE: body``: a trigger on the event VERB, for the card's type words;
        ``the first time you VERB a TYPE each turn``: once per turn per card (the type is
        tested first, so a card of another type does not use the turn's time up), and
        ``... during each of your turns`` only while the player is the active player."""
        for t in s.types:
            if t not in self.sym.types:
                self.unknown("card type", t, s.span, self.sym.types)
        where = self.cond(s.where, {}) if s.where is not None else None
        self.trigger_uid += 1
        return TriggerDef(self.trigger_uid, s.verb, bool(s.once), s.once == "your turns", self.body(s.body, {}),
                          f"{s.span.file}:{s.span.line}", False, s.types, where=where)


def statics_ir(card: CardType, trig: Any) -> dict[str, Any]:
    """The IR of a card's static rules and computed attributes: ``{"statics": {label: ...},
    "computed": {attribute: expression}}``, each left out when empty (so the IR of a game
    without them does not change). ``trig`` writes a trigger."""
    out: dict[str, Any] = {"computed": E.to_ir(card.computed)} if card.computed else {}
    if not card.statics:
        return out
    return out | {"statics": {label: {"triggers": [trig(t) | {"kind": list(t.kind)} | _where_ir(t) for t in r.triggers],
                                "modifiers": [[a, list(ts), n, E.to_ir(p)] for a, ts, n, p in r.modifiers],
                                "marks": [[E.to_ir(p), m, turn] for p, m, turn in r.marks]}
                        for label, r in sorted(card.statics.items())}}


def _where_ir(t: TriggerDef) -> dict[str, Any]:
    """A static trigger's ``where`` condition, left out when it has none (so the IR of a
    game without one does not change)."""
    return {"where": E.to_ir(t.where)} if t.where is not None else {}


def _walk(node: Any) -> list[A.Node]:
    """Every AST node under ``node`` (itself included)."""
    out: list[A.Node] = []
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Node):
            out.append(x)
            stack.extend(getattr(x, f) for f in x._fields)
        elif isinstance(x, (tuple, list)):
            stack.extend(x)
    return out

"""Lowering of declarations: script effects, cards, triggers, zones, counters and the
rules of a game become one :class:`~cardscript.runtime.definition.GameDefinition`."""

from __future__ import annotations

from typing import Any

from cardscript.dsl.diagnostics import Span, did_you_mean, warning
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.lower import bounds, recursion, timing
from cardscript.dsl.front.lower.statics import StaticLowerer, _walk
from cardscript.dsl.front.lower.zones import ZoneLowerer
from cardscript.dsl.front.sets import printed
from cardscript.runtime import effects as E
from cardscript.runtime.definition import (
    ActionDef,
    CardType,
    CounterDef,
    EndCondition,
    GameDefinition,
    Printing,
    StaticRules,
    TriggerDef,
    ZoneDef,
)


class Lowerer(ZoneLowerer, StaticLowerer):
    """Walks the AST once, building runtime objects and collecting diagnostics:
    :meth:`definition` lowers a whole game."""

    # ------------------------------------------------------------ definitions
    def effects(self) -> None:
        for sig in self.sym.effects:
            key = sig.full_key
            self.user[key] = E.UserEffect(sig.display, list(sig.params))
        for sig in self.sym.effects:
            key = sig.full_key
            ue = self.user[key]
            assert sig.defn is not None
            self._calls_from = self.calls.setdefault(sig.key, set())
            self._lowering_effect, self._effect_verb = sig.key, sig.name
            body: Any = self.body(sig.defn.body, dict(sig.params))  # UserEffect.body is declared as None
            ue.body = body
            self._calls_from = self._lowering_effect = self._effect_verb = None
        timing.between_calls_done(self)

    def printed_forms(self) -> None:
        """CS201 for a ``printed counter`` of no declared counter, a ``printed zone`` of no
        declared zone, a ``printed event`` of an event that no script emits, listens to
        or waits for, and a ``printed mark`` of a mark no script sets or reads (with a
        did-you-mean hint)."""
        sym = self.sym
        for pf in sym.printed_counters.values():
            if pf.name not in sym.counters:
                self.unknown("counter", pf.name, pf.span, sym.counters)
        for pf in sym.printed_zones.values():
            if pf.name not in sym.zones:
                self.unknown("zone", pf.name, pf.span, sym.zones)
        if not sym.printed_events and not sym.printed_marks:
            return
        roots: list[Any] = [sig.defn for sig in sym.effects if sig.defn is not None]
        roots += [*sym.cards.values(), *sym.rules, *sym.setups, *sym.actions, sym.turn, sym.score]
        events = {"play"}
        marks: set[str] = set()
        for n in _walk(roots):
            if isinstance(n, (A.Emit, A.Delayed, A.Emitted)):
                events.add(n.event)
            elif isinstance(n, A.Event):
                events.add(n.name)
            mark = getattr(n, "mark", None)  # set (Mark) or read (conditions, 'marked' filters)
            if isinstance(mark, str):
                marks.add(mark)
        for pf in sym.printed_events.values():
            if pf.name not in events:
                self.unknown("event", pf.name, pf.span, sorted(events))
        for pf in sym.printed_marks.values():
            if pf.name not in marks:
                self.err("CS201", f"unknown mark {pf.name!r}: no script marks a player or a card with it, or reads it",
                         pf.span, did_you_mean(pf.name, sorted(marks))
                         or "name a mark as a script sets it: 'mark you \"MARK\"', 'you are marked \"MARK\"'")

    def keyword_closure(self, direct: set[str]) -> set[str]:
        names = {s.key: s.name for s in self.sym.effects}
        out: set[str] = set()
        todo = list(direct)
        seen: set[str] = set()
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            if k in names:
                out.add(names[k])
            todo.extend(self.calls.get(k, ()))
        return out

    def card(self, cd: A.CardDef, index: int) -> tuple[CardType, list[Printing]]:
        sym = self.sym
        types = set()
        for w, span in cd.words:
            if w in sym.types:
                types.add(w)
            else:
                self.unknown("card type", w, span, sym.types)
        attrs: dict[str, Any] = {a.name: a.default for a in sym.attributes.values()}
        given: set[str] = set()
        if not printed(cd).strip():
            self.err("CS209", "a card's name is empty", cd.span, 'give the card its printed name: card "NAME": ...')
        for name, value, span in cd.attrs:
            if name in given:  # 'cost 1, cost 2': the last would win without a word
                self.err("CS203", f"card {cd.name!r} gives {name!r} twice", span, f"give {name} once")
            given.add(name)
            if name not in sym.attributes:
                # 'copies' is the card line's own word, not an attribute: suggest it too (copeis 3)
                self.err("CS205", f"unknown attribute {name!r} on card {cd.name!r}", span,
                         did_you_mean(name, [*sym.attributes, "copies"]) or f"declare it: attribute {name} = 0")
            else:
                self.attr_value(name, value, span)
            attrs[name] = value
        home = self.zone(cd.home, cd.span) if cd.home else -1
        abilities: dict[str, Any] = {}
        passive: dict[str, dict[int, int]] = {}
        statics: dict[str, StaticRules] = {}
        passive_labels = {p.label for p in sym.passives}
        direct: set[str] = set()
        for ab in cd.abilities:
            if ab.label not in sym.labels:
                self.unknown("ability label", ab.label, ab.span, sym.labels)
            self._calls_from = direct
            body = ab.body
            if ab.label in passive_labels:
                passive[ab.label], rules, body = self.passive_ability(ab)
                if rules is not None:
                    statics[ab.label] = rules
            abilities[ab.label] = self.body(body, {})
            self._calls_from = None
        triggers = []
        for tr in cd.triggers:
            self._calls_from = direct
            triggers.append(self.trigger(tr.event, tr.body))
            self._calls_from = None
        self._calls_from = direct
        replacements = tuple(r for r in (self.replacement(rp, index) for rp in cd.replacements) if r is not None)
        self._calls_from = None
        keywords = frozenset(self.keyword_closure(direct) | set(abilities))
        ct = CardType(cd.name, index, frozenset(types), keywords, attrs, abilities, passive, tuple(triggers), home,
                      source=f"{cd.span.file}:{cd.span.line}", faces=cd.faces, replacements=replacements,
                      statics=statics, computed=self.computed_attrs(cd), printed=cd.printed,
                      subtypes=frozenset(t for t in types if t in sym.subtypes))
        printings = []
        for pr in cd.printings or (A.Printing(cd.span, 1, ()),):
            pattrs = dict(attrs)
            for name, value in pr.overrides:
                if name not in sym.attributes:
                    self.err("CS205", f"unknown attribute {name!r} on card {cd.name!r}", pr.span,
                             did_you_mean(name, sym.attributes))
                else:
                    self.attr_value(name, value, pr.span)
                pattrs[name] = value
            printings.append(Printing(ct, pr.copies, pattrs))
        return ct, printings

    def attr_value(self, name: str, value: int | str, span: Any) -> None:
        """CS204 when a card gives an attribute a value of the other kind than its declaration."""
        want = self.attr_kind(name)
        if want != ("text" if isinstance(value, str) else "number"):
            decl = self.sym.attributes[name]
            shown = f'"{value}"' if isinstance(value, str) else str(value)
            default = f'"{decl.default}"' if isinstance(decl.default, str) else str(decl.default)
            self.err("CS204", f"attribute {name!r} holds {'text' if want == 'text' else 'numbers'}, not {shown}",
                     span, f"it is declared at {decl.span.file}:{decl.span.line} as 'attribute {name} = {default}'")

    def repeats(self, cards: list[CardType]) -> None:
        """Bound the nested constant loops of every body the game runs (:class:`.bounds.Repeats`)."""
        sym = self.sym
        walk = bounds.Repeats(sym)
        for sig in sym.effects:
            walk.root(sig.defn.body if sig.defn is not None else None, dict(sig.params))
        kept = {ct.name for ct in cards}
        for cd in sym.cards.values():
            if cd.name in kept:
                for ab in cd.abilities:
                    walk.root(ab.body)
                for tr in cd.triggers:
                    walk.root(tr.body)
                for rp in cd.replacements:
                    walk.root(rp.body)
        for item in [*sym.rules, *sym.setups, *sym.actions, sym.turn, sym.score]:
            walk.root(item.body if item is not None else None)
        for st in sym.scenario_steps:
            if isinstance(st, A.DoStep):
                walk.root(st.body)
        self.diags.extend(walk.diags)

    def trigger(self, ev: A.Event, body: A.Body) -> TriggerDef:
        self.trigger_uid += 1
        enters = self.entered_zone(ev) if ev.enters is not None else -1
        return TriggerDef(self.trigger_uid, ev.name, ev.first_time, ev.your_turn, self.body(body, {}),
                          f"{ev.span.file}:{ev.span.line}", ev.of_this_card, ev.types, enters)

    def definition(self, sources: dict[str, str]) -> GameDefinition:
        sym = self.sym
        self.effects()
        zones = [ZoneDef(z.name, i, z.per_player, z.visibility, z.face_down, z.stack, z.active, z.play_zone,
                         self.zone(z.refill_from, z.span) if z.refill_from else -1, z.per_card)
                 for i, z in enumerate(sym.zones.values())]
        counters = [CounterDef(c.name, i, c.per_player, c.initial, c.low, c.high, c.per_card)
                    for i, c in enumerate(sym.counters.values())]
        cards: list[CardType] = []
        printings: list[Printing] = []
        for cd in sym.cards.values():
            mark = len(self.diags)
            ct, prs = self.card(cd, len(cards))
            if cd.span.file in self.lenient and any(d.severity == "error" for d in self.diags[mark:]):
                # A card mixed in from another set that needs rules this game lacks.
                first = next(d for d in self.diags[mark:] if d.severity == "error")
                del self.diags[mark:]
                self.diags.append(warning("CS220", f"card {cd.name!r} is left out: it needs what "
                                          f"{sym.header.name if sym.header else 'the game'} does not have "
                                          f"({first.message})", cd.span, first.hint))
                continue
            cards.append(ct)
            printings.extend(prs)
        for cd in sym.duplicate_cards:  # CS203 is an error already: only their diagnostics are kept
            self.card(cd, len(cards))
        self.arm_replacements(cards)
        kept = {ct.name for ct in cards}
        self.diags.extend(bounds.components([cd for cd in sym.cards.values() if cd.name in kept]))
        self.diags.extend(bounds.slots(sym, sum(p.copies for p in printings)))
        rules: dict[str, list[TriggerDef]] = {}
        for r in sym.rules:
            rules.setdefault(r.event.name, []).append(self.trigger(r.event, r.body))
        setup = E.Seq([self.body(s.body, {}) for s in sym.setups])
        turn: Any
        if sym.header is None and sym.turn is None:  # an empty script, or one of cards only, played as a game
            main = next(iter(sources), "")
            self.err("CS207", f"{main or 'the script'} has no 'game' header, so it is no game to play",
                     Span(main, 1, 1) if main else None,
                     'a game starts with: game "NAME", then its zones, setup: and turn:; '
                     "cards for a game go in an expansion: play GAME --with FILE")
            turn = E.Seq([])
        elif sym.turn is None:
            self.err("CS207", "the game has no 'turn:' block", sym.header.span if sym.header else None,
                     "write the turn structure: turn: ... take actions ...")
            turn = E.Seq([])
        else:
            turn = self.body(sym.turn.body, {})
        actions = []
        for a in sym.actions:
            choose = self.cards(a.choose, {}, "action") if a.choose is not None else None
            cond = self.cond(a.cond, {}) if a.cond is not None else None
            prefer = self.expr(a.prefer, {}) if a.prefer is not None else None
            actions.append(ActionDef(a.name, choose, cond, self.body(a.body, {}), prefer))
        ends = [EndCondition(e.timing, self.cond(e.cond, {}), e.reason or "end condition") for e in sym.end_whens]
        score = self.body(sym.score.body, {}) if sym.score is not None else None
        ties = [self.expr(x, {}) for x in sym.tie_break.exprs] if sym.tie_break is not None else []
        outcomes = [(o.text, self.cond(o.cond, {})) for o in sym.outcomes]
        for pl in sym.printed_labels.values():
            if pl.label not in sym.labels:
                self.unknown("ability label", pl.label, pl.span, sym.labels)
        self.printed_forms()
        warns = [(w.text, self.cond(w.cond, {})) for w in sym.warns]
        self.repeats(cards)  # after the bodies are lowered: their calls are matched (and memoized) already
        self.diags.extend(recursion.always_recursing(sym))
        passives = [(p.label, self.zone(p.zone, p.span)) for p in sym.passives]
        passive_counters = frozenset(k for ct in cards for amounts in ct.passive.values() for k in amounts)
        players = (sym.players.low, sym.players.high) if sym.players else (1, 1)
        if sym.players is None and sym.header is not None and sym.header.kind == "game":
            self.err("CS207", "the game does not say how many play: add 'players 2 to 4'", sym.header.span)
        attributes: dict[str, Any] = {k: v.default for k, v in sym.attributes.items()}  # numbers or texts
        return GameDefinition(
            name=sym.header.name if sym.header else "game", players=players, zones=zones, counters=counters,
            cards=cards, printings=printings, setup=setup, turn=turn, actions=actions, rules=rules,
            end_conditions=ends, score=score, score_counter=self.counter_index.get("score", -1), tie_breaks=ties,
            passives=passives, passive_counters=passive_counters, box_zone=self.zone_index["box"],
            attributes=attributes, types=tuple(sym.types),
            labels=tuple(sym.labels), sources=sources, quiet_events=frozenset(sym.quiet_events),
            quiet_counters=frozenset(self.counter(n, sp) for n, sp in sym.quiet_counters), outcomes=outcomes,
            warnings=warns, triggers_in_chosen_order=sym.trigger_order is not None,
            triggers_wait_for_play=sym.trigger_wait is not None, subtypes=tuple(sym.subtypes))

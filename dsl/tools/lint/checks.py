"""The static checks (CS501 to CS508, listed in :mod:`cardscript.dsl.tools.lint`): the
:class:`Linter` reads the facts gathered by :class:`~cardscript.dsl.tools.lint.facts.ProgramFacts`
and warns about what is certain from the text.
"""

from __future__ import annotations

import re
from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, Span, did_you_mean, warning
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Symbols, _flatten
from cardscript.dsl.front.loader import Program
from cardscript.dsl.front.sets import printed
from cardscript.dsl.tools.lint.facts import ProgramFacts, walk
from cardscript.dsl.tools.lint.values import Interval, show
from cardscript.runtime.definition import GameDefinition

#: Scripts whose definitions are a vocabulary for others: nothing in them is "unused".
LIBRARY_KINDS = ("ruleset",)
#: A game's effects are its keywords, the vocabulary its expansions build on (a
#: rulebook's "heal" may have no card in the base set), so only expansions, variants
#: and scenarios are told that an effect of theirs is never called.
EFFECT_LIBRARY_KINDS = ("ruleset", "game")


class Linter(ProgramFacts):
    """Collects what every body of a program does, then runs each check."""

    def __init__(self, program: Program, sym: Symbols, d: GameDefinition):
        super().__init__(program, sym, d)
        self.diags: list[Diagnostic] = []
        self.kind_of = {s.file: next((i.kind for i in s.items if isinstance(i, A.Header)), "") for s in program.scripts}

    # ------------------------------------------------------------ helpers
    def warn(self, code: str, message: str, span: Span | None, hint: str = "") -> None:
        self.diags.append(warning(code, message, span, hint))

    def library(self, span: Span, kinds: tuple[str, ...] = LIBRARY_KINDS) -> bool:
        return self.kind_of.get(span.file, "") in kinds

    def excerpt(self, span: Span) -> str:
        lines = self.sources.get(span.file, "").splitlines()
        if not 1 <= span.line <= len(lines):
            return ""
        line = lines[span.line - 1]
        end = span.end_column - 1 if span.end_line == span.line and span.end_column > span.column else len(line)
        return line[span.column - 1:end].strip()

    def word_span(self, span: Span, word: str) -> Span:
        """The span of ``word`` on the line of ``span`` (at or after its column)."""
        lines = self.sources.get(span.file, "").splitlines()
        if 1 <= span.line <= len(lines):
            pattern = r"(?<![\w'-])" + re.escape(word) + r"(?![\w'-])"
            m = re.compile(pattern).search(lines[span.line - 1], max(0, span.column - 1))
            if m:
                return Span(span.file, span.line, m.start() + 1, span.line, m.end() + 1)
        return span

    # ------------------------------------------------------------ the checks
    def run(self) -> list[Diagnostic]:
        self.check_triggers_fire()
        self.check_loops()
        self.check_choices()
        self.check_costs()
        self.check_unused()
        self.check_cards_leave_box()
        self.check_constant_zero()  # fixb area (issue 12 review, E)
        self.diags.sort(key=lambda d: (d.span.file, d.span.line, d.span.column, d.code) if d.span
                        else ("", 0, 0, d.code))
        return self.diags

    def check_triggers_fire(self) -> None:
        """CS501: a trigger (``when "E"``, an ongoing ``when you VERB ...`` or ``the first time
        you VERB ...``) or a delayed effect (``at the next "E"``) on an event nothing emits."""
        emitted = {"play"}.union(*(i.events for i in self.info.values()))
        for h in self.handlers():
            if h.event.name not in emitted and h.event.enters is None:  # a zone entry: every move emits it
                self._never_emitted(h.event.name, "this trigger never fires", h.event.span, emitted)
        for n in self.all_nodes():  # a delayed effect waits for an event the same way (issue 12)
            if isinstance(n, A.Delayed) and n.event not in emitted:
                self._never_emitted(n.event, "this delayed effect never runs", n.span, emitted)
            elif isinstance(n, A.StaticWhen) and n.verb not in emitted:
                # 'ongoing: when you gian a hero' names its event by a bare verb: a typo there
                # is as silent at run time as one in 'when "gian"', so it is told the same way
                you = self.word_span(n.span, "you")  # the verb follows 'you' (it may be 'time')
                at = self.word_span(Span(n.span.file, you.line, you.end_column or you.column), n.verb)
                self._never_emitted(n.verb, "this trigger never fires", at, emitted)

    def _never_emitted(self, event: str, what: str, span: Span, emitted: set[str]) -> None:
        near = [e for e in sorted(emitted) if e.lower() == event.lower()] or sorted(emitted)
        self.warn("CS501", f"no rule or effect emits {event!r}: {what}", span,
                  did_you_mean(event, near) or "emit the event from a rule or an effect")

    def check_constant_zero(self) -> None:
        """CS506: ``E / 0`` (always 0) and ``E mod 0`` (always E); CS507: a modifier of 0
        (``cards cost 0 less``), which changes nothing; CS508: ``repeat 0``, which runs nothing."""
        for n in self.all_nodes():
            if isinstance(n, A.BinOp) and n.op in ("/", "mod") and isinstance(n.right, A.Num) and n.right.value == 0:
                always = "0" if n.op == "/" else "the left side"
                self.warn("CS506", f"'{self.excerpt(n.span)}' divides by 0: it is always {always}", n.span,
                          "divide by a number other than 0, or write the value it stands for")
            elif isinstance(n, A.Repeat) and isinstance(n.times, A.Num) and n.times.value == 0:
                self.warn("CS508", "'repeat 0' never runs its block", n.times.span,
                          "write how many times it repeats (1 or more), or remove the loop")
            elif isinstance(n, A.AttrModifier) and n.amount == 0:
                self.warn("CS507", f"'{self.excerpt(n.span)}' changes the {n.word} by 0: it does nothing", n.span,
                          "write the amount it changes by (1 or more), or remove the line")

    def check_loops(self) -> None:
        hs = [(h, *self.body_emits(h.body)) for h in self.handlers() if not h.event.first_time]
        graph: dict[str, set[str]] = {}
        for h, events, _ in hs:
            graph.setdefault(h.event.name, set()).update(events)
        reported: set[frozenset[str]] = set()
        for h, events, via in hs:
            path = _path_back(graph, events, h.event.name)
            if path is None:
                continue
            cycle = frozenset(path)
            if cycle in reported:
                continue
            reported.add(cycle)
            chain = " -> ".join(f'"{e}"' for e in [h.event.name, *path])
            how = f" (through '{via[path[0]]}')" if via.get(path[0]) else ""
            self.warn("CS505", f"trigger chain can loop without bound: {chain}{how}", h.event.span,
                      f"add 'first time each turn' to this trigger, or stop its body from emitting {path[0]!r}")

    def _has_any(self, words: tuple[str, ...]) -> bool:
        return any(set(words) & w for w in self.values.words.values())

    def check_choices(self) -> None:
        for n in self.all_nodes():
            if isinstance(n, A.CardSel) and _flatten(n) is None:  # not 'a wound' spelt as words
                if n.types and not self._has_any(n.types):
                    self.warn("CS502", f"no card is {' or '.join(repr(t) for t in n.types)}: "
                              "this selects nothing and can never be chosen", n.span, self._give_hint(n.types))
                for f in n.filters:
                    if f.kind == "has" and not self._has_any(f.words):
                        self.warn("CS502", f"no card has {' or '.join(repr(w) for w in f.words)}: "
                                  "this selects nothing and can never be chosen", f.span, self._give_hint(f.words))
            elif isinstance(n, A.Has) and not self._has_any((n.words,)):
                self.warn("CS502", f"no card has {n.words!r}: this condition is never true", n.span,
                          self._give_hint((n.words,)))
        self._check_type_args()

    def _give_hint(self, words: tuple[str, ...]) -> str:
        return f"give {words[0]!r} to a card, or choose by a type or keyword some card has"

    def _check_type_args(self) -> None:
        for body, params in self.roots:
            for call, match in self._scan(body, params).calls:
                for _, kind, tok in match.bound:
                    if kind == "type" and tok is not None and tok[0] == "str" and not self._has_any((tok[1],)):
                        self.warn("CS502", f"no card has {tok[1]!r}: '{self.excerpt(call.span)}' can never "
                                  "find a card", call.span, self._give_hint((tok[1],)))

    def check_costs(self) -> None:
        """A counter compared with a value it can never reach, directly or through the
        numbers a call passes to an effect (``burn 9`` with a charge of 0..8)."""
        for n in self.all_nodes():
            cond = getattr(n, "cond", None) if isinstance(n, (A.If, A.Action, A.EndWhen, A.CardFilter)) else None
            if cond is not None and _mentions_counter(cond) and self.values.cond(cond, {}) is False:
                self.warn("CS502", f"'{self.excerpt(cond.span)}' is never true: {self._bounds_of(cond)}", cond.span,
                          "compare the counter with a value inside its bounds")
        for body, params in self.roots:
            for call, match in self._scan(body, params).calls:
                self._check_call_cost(call, match)

    def _check_call_cost(self, call: A.Call, match: Any) -> None:
        if match.sig.defn is None:
            return
        env: dict[str, Interval] = {}
        for name, kind, tok in match.bound:
            if kind == "number" and tok is not None and tok[0] == "num":
                v = self.values.expr(tok[1], {})
                if v is not None and v[0] == "n":
                    env[name] = (v[1], v[2])
        if not env:
            return
        for n in walk(match.sig.defn.body):
            if not (isinstance(n, A.If) and _mentions_counter(n.cond) and _mentions_params(n.cond, env)):
                continue
            if self.values.cond(n.cond, env) is False:
                given = ", ".join(f"{k} = {show(v)}" for k, v in env.items())
                self.warn("CS502", f"'{self.excerpt(call.span)}' can never be met: "
                          f"'{self.excerpt(n.cond.span)}' is never true with {given} "
                          f"({self._bounds_of(n.cond)})", call.span, "pass a value the counter can reach")
                return

    def _bounds_of(self, cond: Any) -> str:
        parts = []
        for n in walk(cond):
            if isinstance(n, A.CounterOf) and n.name in self.sym.counters:
                decl = self.sym.counters[n.name]
                parts.append(f"{n.name} is {show((decl.low, decl.high))}")
        return ", ".join(dict.fromkeys(parts)) or "its bounds exclude it"

    # ------------------------------------------------------------ unused definitions
    def check_unused(self) -> None:
        used = self._used_names()
        sym = self.sym
        for key, sig in self.effects.items():
            if key not in used["effect"] and sig.defn is not None and not self.library(sig.defn.span,
                                                                                      EFFECT_LIBRARY_KINDS):
                self._unused("effect", sig.display, sig.defn.span, "call it from a card or a rule, or remove it")
        for kind, table in (("counter", sym.counters), ("zone", sym.zones), ("attribute", sym.attributes)):
            for name, decl in table.items():
                if decl.span.file != "<built-in>" and name not in used[kind] and not self.library(decl.span):
                    self._unused(kind, name, decl.span, f"use the {kind}, or remove it")
        for kind, table2 in (("type", sym.types), ("label", sym.labels)):
            for name, span in table2.items():
                if name not in used[kind] and not self.library(span):
                    self._unused(kind, name, self.word_span(span, name), f"give the {kind} to a card, or remove it")

    def _unused(self, kind: str, name: str, span: Span, hint: str) -> None:
        what = {"label": "ability label"}.get(kind, kind)
        self.warn("CS503", f"{what} {name!r} is never used", span, hint)

    def _used_names(self) -> dict[str, set[str]]:
        used: dict[str, set[str]] = {k: set() for k in ("effect", "counter", "zone", "type", "label", "attribute")}
        used["counter"].add("score")  # read by the scoring
        for n in self.all_nodes():
            self._use(n, used)
        for body, params in self.roots:
            for _, match in self._scan(body, params).calls:
                if not match.sig.builtin:
                    used["effect"].add(self._key(match.sig))
                used["type"].update(tok[1] for _, kind, tok in match.bound
                                    if kind == "type" and tok and tok[0] == "str")
        for cd in self.sym.cards.values():
            used["type"].update(w for w, _ in cd.words)
            used["label"].update(ab.label for ab in cd.abilities)
            used["attribute"].update(name for name, _, _ in cd.attrs)
            used["attribute"].update(name for p in cd.printings for name, _ in p.overrides)
            if cd.home:
                used["zone"].add(cd.home)
        used["zone"].update(z.refill_from for z in self.sym.zones.values() if z.refill_from)
        used["zone"].update(z.name for z in self.sym.zones.values() if z.play_zone)  # the built-in 'play' uses it
        used["zone"].update(p.zone for p in self.sym.passives)
        used["label"].update(p.label for p in self.sym.passives)
        return used

    def _use(self, n: A.Node, used: dict[str, set[str]]) -> None:
        if isinstance(n, A.ZoneRef):
            used["zone"].add(n.name)
        elif isinstance(n, (A.CounterAdd, A.CounterSet)):
            used["counter"].add(n.counter)
        elif isinstance(n, A.CounterOf):
            used["counter"].add(n.name)
        elif isinstance(n, (A.AttrOf, A.SumAttr)):
            used["attribute"].add(n.attr)
            used["counter"].add(n.attr)
        elif isinstance(n, A.CardSel):
            used["type"].update(n.types)
        elif isinstance(n, A.CardFilter) and n.kind in ("has", "has_not"):
            for key in ("type", "label"):
                used[key].update(n.words)
        elif isinstance(n, A.Has):
            used["type"].add(n.words)
            used["label"].add(n.words)
        elif isinstance(n, A.Resolve):
            used["label"].add(n.label)

    # ------------------------------------------------------------ cards that stay in the box
    def box_selectors(self) -> list[A.CardSel]:
        """Selectors that take cards from the box: the arguments of calls, 'choose',
        'for each card' and card actions (counting is not taking)."""
        out = []
        for n in self.all_nodes():
            sels: list[Any] = []
            if isinstance(n, A.Call):
                sels = [i.sel for i in n.items if isinstance(i, A.CardsArg)]
            elif isinstance(n, (A.Choose, A.ForCards)):
                sels = [n.cards]
            elif isinstance(n, A.Action) and n.choose is not None:
                sels = [n.choose]
            out += [s for s in sels if any(z.name == "box" for z in s.zones)]
        return out

    def may_take(self, sel: A.CardSel, name: str, words: frozenset[str], printings: list[dict[str, Any]]) -> bool:
        """Whether the selector may select a card with this name, words and printings."""
        card = self.sym.cards.get(name)  # none: a card that may be written (cardscript new)
        if sel.name and sel.name != name and (card is None or sel.name != printed(card)):
            return False
        if sel.types and not set(sel.types) & words:
            return False
        for f in sel.filters:
            if f.kind == "has" and not set(f.words) & words:
                return False
            if f.kind == "has_not" and set(f.words) & words:
                return False
            if f.kind == "where" and all(self.values.cond(f.cond, {}, (name, p)) is False for p in printings):
                return False
        return True

    def check_cards_leave_box(self) -> None:
        sels = self.box_selectors()
        prints: dict[str, list[dict[str, Any]]] = {}
        for p in self.d.printings:
            prints.setdefault(p.card.name, []).append(dict(p.attrs))
        for cd in self.sym.cards.values():
            words = self.values.words.get(cd.name, frozenset())
            if not any(self.may_take(s, cd.name, words, prints.get(cd.name, [{}])) for s in sels):
                self.warn("CS504", f"card {cd.name!r} never leaves the box: no setup or effect takes it out",
                          cd.span, f"move it out in setup: move all {_quote(cd.name)} from the box to ...")


def _quote(name: str) -> str:
    return f'"{name}"'


def _mentions_counter(c: Any) -> bool:
    return any(isinstance(n, A.CounterOf) for n in walk(c))


def _mentions_params(c: Any, env: dict[str, Interval]) -> bool:
    return any(isinstance(n, A.Param) and n.name in env for n in walk(c))


def _path_back(graph: dict[str, set[str]], start: set[str], target: str) -> list[str] | None:
    """The shortest list of events from one of ``start`` to ``target`` (inclusive), or None."""
    frontier = [[e] for e in sorted(start)]
    seen = set(start)
    while frontier:
        nxt = []
        for path in frontier:
            if path[-1] == target:
                return path
            for e in sorted(graph.get(path[-1], ())):
                if e not in seen:
                    seen.add(e)
                    nxt.append([*path, e])
        frontier = nxt
    return None

"""Static checks beyond syntax: warnings about a game that compiles (``cardscript check``).

Run after lowering, on a program without errors (:func:`lint`). Every finding is a
warning with its own stable code:

* ``CS501`` a trigger that never fires: no rule or effect emits its event;
* ``CS502`` a choice, condition or cost that can never be met: a card selector or a
  ``has`` test naming a type or keyword no card has, a type argument no card has, a
  counter compared with a value outside the counter's bounds (``burn 9`` when the
  burn effect needs ``your charge >= N`` and charge is 0..8);
* ``CS503`` a definition nothing uses: an effect never called, a counter, zone, type,
  ability label or attribute never named (libraries — ``ruleset`` scripts — are exempt:
  a game uses what it needs of them);
* ``CS504`` a card that never leaves the box: no setup or effect takes it out;
* ``CS505`` a trigger chain that can loop without bound: a ``when "E"`` rule or card
  trigger whose body, through the effects it calls, emits ``"E"`` again, with no
  ``first time each turn`` on the way.

The analysis is conservative where it cannot decide (a ``where`` it cannot evaluate
may hold; a ``resolve LABEL`` may run the LABEL ability of any card), so it warns only
about what is certain from the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, Span, did_you_mean, warning
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import EffectSig, Symbols, _flatten, match_call
from cardscript.dsl.front.loader import Program
from cardscript.runtime.definition import GameDefinition

#: Scripts whose definitions are a vocabulary for others: nothing in them is "unused".
LIBRARY_KINDS = ("ruleset",)
#: A game's effects are its keywords, the vocabulary its expansions build on (a
#: rulebook's "heal" may have no card in the base set), so only expansions, variants
#: and scenarios are told that an effect of theirs is never called.
EFFECT_LIBRARY_KINDS = ("ruleset", "game")
_OPS_NEVER = {"<": lambda a, b: _ge(a[0], b[1]), "<=": lambda a, b: _gt(a[0], b[1]),
              ">": lambda a, b: _ge(b[0], a[1]), ">=": lambda a, b: _gt(b[0], a[1])}
_OPS_ALWAYS = {"<": lambda a, b: _gt(b[0], a[1]), "<=": lambda a, b: _ge(b[0], a[1]),
               ">": lambda a, b: _gt(a[0], b[1]), ">=": lambda a, b: _ge(a[0], b[1])}

Interval = tuple[int | None, int | None]  # inclusive bounds; None is open
Node = tuple[str, str]  # ("effect", key) | ("label", label): something a body may run


def _gt(x: int | None, y: int | None) -> bool:
    return x is not None and y is not None and x > y


def _ge(x: int | None, y: int | None) -> bool:
    return x is not None and y is not None and x >= y


def walk(node: Any) -> Iterator[A.Node]:
    """Every AST node under ``node`` (itself included), depth first, in source order."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    node_type, seq_types = A.Node, (tuple, list)
    while stack:
        x = pop()
        if isinstance(x, node_type):
            yield x
            d = x.__dict__
            push([d[f] for f in reversed(x._fields) if isinstance(d[f], (node_type, tuple, list))])
        elif isinstance(x, seq_types):
            push(reversed(x))


@dataclass
class Handler:
    """A rule or a card trigger: what fires on an event."""

    event: A.Event
    body: A.Body
    span: Span
    who: str  # "rule" or the card's name


@dataclass
class BodyInfo:
    """What one body does: events it emits itself, effects and abilities it runs, calls."""

    events: set[str] = field(default_factory=set)
    runs: set[Node] = field(default_factory=set)
    calls: list[tuple[A.Call, Any]] = field(default_factory=list)


# ---------------------------------------------------------------- abstract values
class Values:
    """Three-valued evaluation of conditions, with numbers as intervals and texts as sets.

    ``None`` means "cannot tell". A card context (name, attributes of one printing)
    makes ``it`` known, for ``where`` filters tested against a card.
    """

    def __init__(self, sym: Symbols, d: GameDefinition, passive_counters: set[str]):
        self.sym, self.d = sym, d
        self.passive = passive_counters
        self.names = frozenset(c.name for c in d.cards)
        self.words = {c.name: frozenset(c.types) | frozenset(c.keywords) for c in d.cards}

    def expr(self, e: Any, env: dict[str, Interval], card: tuple[str, dict[str, Any]] | None = None) -> Any:
        """An interval ``("n", lo, hi)``, a text set ``("t", frozenset)``, or None."""
        if isinstance(e, A.Num):
            return ("n", e.value, e.value)
        if isinstance(e, A.Param):
            return ("n", *env[e.name]) if e.name in env else None
        if isinstance(e, A.CounterOf):
            return self._counter(e.name)
        if isinstance(e, A.CountPlayers):
            return ("n", *self.d.players)
        if isinstance(e, A.Count):
            return ("n", 0, None)
        if isinstance(e, A.AttrOf):
            return self._attr(e, card)
        if isinstance(e, A.BinOp):
            return _arith(e.op, self.expr(e.left, env, card), self.expr(e.right, env, card))
        return None

    def _counter(self, name: str) -> Any:
        if name == "seat":
            return ("n", 1, self.d.players[1])
        decl = self.sym.counters.get(name)
        if decl is None or name in self.passive:
            return None
        return ("n", decl.low, decl.high)

    def _attr(self, e: A.AttrOf, card: tuple[str, dict[str, Any]] | None) -> Any:
        decl = self.sym.counters.get(e.attr)
        if decl is not None and decl.per_card:
            return self._counter(e.attr)
        if card is not None and e.card.kind == "it":
            value = card[0] if e.attr == "name" else card[1].get(e.attr)
            return ("t", frozenset([value])) if isinstance(value, str) else ("n", value, value)
        if e.attr == "name":
            return ("t", self.names)
        values = [p.attrs.get(e.attr) for p in self.d.printings]
        if values and all(isinstance(v, str) for v in values):
            return ("t", frozenset(values))
        if values and all(isinstance(v, int) for v in values):
            return ("n", min(values), max(values))
        return None

    def cond(self, c: Any, env: dict[str, Interval], card: tuple[str, dict[str, Any]] | None = None) -> bool | None:
        """True (always), False (never) or None (cannot tell)."""
        if isinstance(c, A.Compare):
            return _compare(c.op, self.expr(c.left, env, card), self.expr(c.right, env, card))
        if isinstance(c, A.BoolOp):
            vals = [self.cond(a, env, card) for a in c.args]
            if c.op == "not":
                return None if vals[0] is None else not vals[0]
            stop = c.op == "or"  # 'or' is decided by a True, 'and' by a False
            if stop in vals:
                return stop
            return None if None in vals else not stop
        if isinstance(c, A.Has) and card is not None and c.card.kind == "it":
            return c.words in self.words.get(card[0], frozenset())
        return None


def _arith(op: str, a: Any, b: Any) -> Any:
    if a is None or b is None or a[0] != "n" or b[0] != "n":
        return None

    def add(x: int | None, y: int | None) -> int | None:
        return None if x is None or y is None else x + y

    def neg(x: int | None) -> int | None:
        return None if x is None else -x

    if op == "+":
        return ("n", add(a[1], b[1]), add(a[2], b[2]))
    if op == "-":
        return ("n", add(a[1], neg(b[2])), add(a[2], neg(b[1])))
    if None in (a[1], a[2], b[1], b[2]):
        return None
    products = [x * y for x in (a[1], a[2]) for y in (b[1], b[2])]
    return ("n", min(products), max(products))


def _compare(op: str, a: Any, b: Any) -> bool | None:
    if a is None or b is None or a[0] != b[0]:
        return None
    if a[0] == "t":
        if op not in ("==", "!="):
            return None
        same = len(a[1]) == 1 and a[1] == b[1]
        apart = not (a[1] & b[1])
        return (True if same else False if apart else None) if op == "==" else (
            False if same else True if apart else None)
    x, y = (a[1], a[2]), (b[1], b[2])
    if op in ("==", "!="):
        apart = _gt(x[0], y[1]) or _gt(y[0], x[1])
        same = x[0] == x[1] == y[0] == y[1] and x[0] is not None
        return (True if same else False if apart else None) if op == "==" else (
            False if same else True if apart else None)
    if _OPS_NEVER[op](x, y):
        return False
    return True if _OPS_ALWAYS[op](x, y) else None


# ---------------------------------------------------------------- the linter
class Linter:
    """Collects what every body of a program does, then runs each check."""

    def __init__(self, program: Program, sym: Symbols, d: GameDefinition):
        self.program, self.sym, self.d = program, sym, d
        self.sources = program.sources
        self.diags: list[Diagnostic] = []
        self.kind_of = {s.file: next((i.kind for i in s.items if isinstance(i, A.Header)), "") for s in program.scripts}
        self.effects = self._winning_effects()
        passive_labels = {p.label for p in sym.passives}
        passive_counters = {n.counter for cd in sym.cards.values() for ab in cd.abilities
                            if ab.label in passive_labels for n in walk(ab.body) if isinstance(n, A.CounterAdd)}
        self.values = Values(sym, d, passive_counters)
        self.info: dict[Node, BodyInfo] = {}
        self.roots: list[tuple[Any, dict[str, str]]] = []
        self._scan_all()
        self.emits = self._emit_closure()

    # ------------------------------------------------------------ gathering
    def _winning_effects(self) -> dict[str, EffectSig]:
        out: dict[str, EffectSig] = {}
        for sig in self.sym.effects:
            out[self._key(sig)] = sig  # the last definition of a pattern wins
        return out

    @staticmethod
    def _key(sig: EffectSig) -> str:
        return sig.key + ("{block}" if sig.has_block else "")

    def handlers(self) -> list[Handler]:
        out = [Handler(r.event, r.body, r.span, "rule") for r in self.sym.rules]
        for cd in self.sym.cards.values():
            out += [Handler(t.event, t.body, t.span, cd.name) for t in cd.triggers]
        return out

    def _root_items(self) -> Iterator[tuple[Node | None, Any, dict[str, str]]]:
        sym = self.sym
        for key, sig in self.effects.items():
            assert sig.defn is not None
            yield ("effect", key), sig.defn.body, dict(sig.params)
        for sig in sym.effects:  # replaced definitions still count as using what they name
            if sig is not self.effects[self._key(sig)] and sig.defn is not None:
                yield None, sig.defn.body, dict(sig.params)
        for cd in sym.cards.values():
            for ab in cd.abilities:
                yield ("label", ab.label), ab.body, {}
        for h in self.handlers():
            yield None, h.body, {}
        extra: list[Any] = [s.body for s in sym.setups] + [a for a in sym.actions] + [e.cond for e in sym.end_whens]
        extra += [o.cond for o in sym.outcomes]
        extra += [x for x in (sym.turn, sym.score, sym.tie_break) if x is not None]
        for x in extra:
            yield None, x, {}

    def _scan_all(self) -> None:
        for node, body, params in self._root_items():
            info = self._scan(body, params)
            self.roots.append((body, params))
            if node is None:
                self.info.setdefault(("root", str(len(self.info))), info)
                continue
            mine = self.info.setdefault(node, BodyInfo())
            mine.events |= info.events
            mine.runs |= info.runs
            mine.calls += info.calls

    def _scan(self, body: Any, params: dict[str, str]) -> BodyInfo:
        params = dict(params)
        nodes = list(walk(body))
        params.update({n.name: "number" for n in nodes if isinstance(n, A.Let)})
        info = BodyInfo()
        for n in nodes:
            if isinstance(n, A.Emit):
                info.events.add(n.event)
            elif isinstance(n, A.Resolve):
                info.runs.add(("label", n.label))
            elif isinstance(n, A.Call):
                match, _ = match_call(n, self.sym, params)
                if match is None:
                    continue
                info.calls.append((n, match))
                if match.sig.builtin == "play":
                    info.events.add("play")
                    info.runs.add(("label", "play"))
                elif not match.sig.builtin:
                    info.runs.add(("effect", self._key(match.sig)))
        return info

    def _emit_closure(self) -> dict[Node, set[str]]:
        """Every event a node may emit, through what it runs (a fixed point)."""
        emits = {k: set(v.events) for k, v in self.info.items()}
        changed = True
        while changed:
            changed = False
            for k, v in self.info.items():
                more = set().union(*(emits.get(r, set()) for r in v.runs)) - emits[k]
                if more:
                    emits[k] |= more
                    changed = True
        return emits

    def body_emits(self, body: A.Body) -> tuple[set[str], dict[str, str]]:
        """Events a handler's body may emit, and for each the first call it comes through."""
        info = self._scan(body, {})
        via: dict[str, str] = {e: "" for e in info.events}
        for call, match in info.calls:
            node: Node = ("label", "play") if match.sig.builtin == "play" else ("effect", self._key(match.sig))
            for e in self.emits.get(node, set()) | ({"play"} if match.sig.builtin == "play" else set()):
                via.setdefault(e, match.sig.display)
        for r in info.runs:
            for e in self.emits.get(r, set()):
                via.setdefault(e, r[1])
        return set(via), via

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

    def all_nodes(self) -> list[A.Node]:
        """Every node of every root (walked once; several checks read it)."""
        cached = self.__dict__.get("_all_nodes")
        if cached is None:
            cached = [n for body, _ in self.roots for n in walk(body)]
            self.__dict__["_all_nodes"] = cached
        return cached

    # ------------------------------------------------------------ the checks
    def run(self) -> list[Diagnostic]:
        self.check_triggers_fire()
        self.check_loops()
        self.check_choices()
        self.check_costs()
        self.check_unused()
        self.check_cards_leave_box()
        self.diags.sort(key=lambda d: (d.span.file, d.span.line, d.span.column, d.code) if d.span else ("", 0, 0, d.code))
        return self.diags

    def check_triggers_fire(self) -> None:
        emitted = {"play"}.union(*(i.events for i in self.info.values()))
        for h in self.handlers():
            if h.event.name not in emitted:
                near = [e for e in sorted(emitted) if e.lower() == h.event.name.lower()] or sorted(emitted)
                self.warn("CS501", f"no rule or effect emits {h.event.name!r}: this trigger never fires",
                          h.event.span, did_you_mean(h.event.name, near) or "emit the event from a rule or an effect")

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
                given = ", ".join(f"{k} = {_show(v)}" for k, v in env.items())
                self.warn("CS502", f"'{self.excerpt(call.span)}' can never be met: "
                          f"'{self.excerpt(n.cond.span)}' is never true with {given} "
                          f"({self._bounds_of(n.cond)})", call.span, "pass a value the counter can reach")
                return

    def _bounds_of(self, cond: Any) -> str:
        parts = []
        for n in walk(cond):
            if isinstance(n, A.CounterOf) and n.name in self.sym.counters:
                decl = self.sym.counters[n.name]
                parts.append(f"{n.name} is {_show((decl.low, decl.high))}")
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
                used["type"].update(tok[1] for _, kind, tok in match.bound if kind == "type" and tok and tok[0] == "str")
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
        if sel.name and sel.name != name:
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


def _show(iv: Interval) -> str:
    lo, hi = iv
    if lo == hi and lo is not None:
        return str(lo)
    return f"{'' if lo is None else lo}..{'' if hi is None else hi}"


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
                    nxt.append(path + [e])
        frontier = nxt
    return None


def lint(program: Program, sym: Symbols, definition: GameDefinition) -> list[Diagnostic]:
    """Static checks of a compiled program; warnings only, sorted by place.

    Args:
        program: the loaded scripts (for the sources and which are libraries).
        sym: the program's declarations (:func:`cardscript.dsl.front.check.collect`).
        definition: the compiled game (for the cards' types, keywords and printings).
    """
    return Linter(program, sym, definition).run()

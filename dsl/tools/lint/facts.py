"""What the bodies of a program do, gathered once for the static checks: the events each
emits, the effects and abilities it runs and its calls (:class:`ProgramFacts`), with the
events each may emit through what it runs; and :func:`walk` over AST nodes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cardscript.dsl.diagnostics import Span
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import EffectSig, Symbols, match_call
from cardscript.dsl.front.loader import Program
from cardscript.dsl.tools.lint.values import Values
from cardscript.runtime.definition import GameDefinition

Node = tuple[str, str]  # ("effect", key) | ("label", label): something a body may run


#: id -> (node, every node under it): the walks of immutable AST parts (nodes, tuples), kept
#: for the process. A game's variants and expansions share its scripts' ASTs (the AST cache
#: builds each once), so checking them walks the same bodies again and again.
_WALKS: dict[int, tuple[Any, tuple[A.Node, ...]]] = {}


def walk(node: Any) -> Iterator[A.Node]:
    """Every AST node under ``node`` (itself included), depth first, in source order."""
    if not isinstance(node, (A.Node, tuple)):  # a list may change: walked each time
        return _walk(node)
    held = _WALKS.get(id(node))
    if held is None or held[0] is not node:
        if len(_WALKS) > 50_000:
            _WALKS.clear()
        held = _WALKS[id(node)] = (node, tuple(_walk(node)))
    return iter(held[1])


def _walk(node: Any) -> Iterator[A.Node]:
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


class ProgramFacts:
    """What every body of a program does (rules, triggers, effects, abilities, setup, ...)."""

    def __init__(self, program: Program, sym: Symbols, d: GameDefinition):
        self.program, self.sym, self.d = program, sym, d
        self.sources = program.sources
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
        return sig.full_key

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
        # a worklist over who runs whom: each node is looked at again only when what it runs
        # grew (sweeping every node until nothing changed took a sweep per link of a chain of
        # effects: quadratic, 7 s for 1,500 effects calling one another)
        runners: dict[Node, list[Node]] = {}
        for k, v in self.info.items():
            for r in v.runs:
                runners.setdefault(r, []).append(k)
        todo = [k for k, e in emits.items() if e]
        while todo:
            r = todo.pop()
            for k in runners.get(r, ()):
                more = emits[r] - emits[k]
                if more:
                    emits[k] |= more
                    todo.append(k)
        return emits

    def body_emits(self, body: A.Body) -> tuple[set[str], dict[str, str]]:
        """Events a handler's body may emit, and for each the first call it comes through."""
        info = self._scan(body, {})
        via: dict[str, str] = {e: "" for e in info.events}
        for _call, match in info.calls:
            node: Node = ("label", "play") if match.sig.builtin == "play" else ("effect", self._key(match.sig))
            for e in self.emits.get(node, set()) | ({"play"} if match.sig.builtin == "play" else set()):
                via.setdefault(e, match.sig.display)
        for r in info.runs:
            for e in self.emits.get(r, set()):
                via.setdefault(e, r[1])
        return set(via), via

    def all_nodes(self) -> list[A.Node]:
        """Every node of every root (walked once; several checks read it)."""
        cached = self.__dict__.get("_all_nodes")
        if cached is None:
            cached = [n for body, _ in self.roots for n in walk(body)]
            self.__dict__["_all_nodes"] = cached
        return cached


"""The compiler of effect objects to closures (see :mod:`cardscript.runtime.compiled`):
one :class:`Compiler` per compile, rules registered per node class by the modules
:mod:`.statements`, :mod:`.conditions` and :mod:`.expressions`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardscript.runtime.compiled import Fn

#: the value of :meth:`Compiler.const` for an expression that is not a constant
NOT_CONST = object()

#: node class -> its rule, per protocol: ``rule(compiler, node) -> closure``
STATEMENTS: dict[type, Callable[[Compiler, Any], Fn]] = {}
CONDITIONS: dict[type, Callable[[Compiler, Any], Fn]] = {}
EXPRESSIONS: dict[type, Callable[[Compiler, Any], Fn]] = {}
CARDS: dict[type, Callable[[Compiler, Any], Fn]] = {}
PLAYERS: dict[type, Callable[[Compiler, Any], Fn]] = {}
ZONES: dict[type, Callable[[Compiler, Any], Fn]] = {}


def rule(table: dict[type, Callable[[Compiler, Any], Fn]], *classes: type) -> Callable[[Any], Any]:
    """Register the decorated function as the rule of ``classes`` in ``table``."""
    def register(fn: Callable[[Compiler, Any], Fn]) -> Callable[[Compiler, Any], Fn]:
        for cls in classes:
            table[cls] = fn
        return fn
    return register


def _lookup(table: dict[type, Callable[[Compiler, Any], Fn]], node: Any) -> Callable[[Compiler, Any], Fn] | None:
    """The rule for ``node``: its class's, else its generic class's (a specialised variant
    without a rule of its own behaves as the generic class)."""
    found = table.get(type(node))
    if found is None:
        generic = getattr(type(node), "_generic", None)
        if generic is not None:
            found = table.get(generic)
    return found


class Compiler:
    """Compiles the effect objects of one definition (that of the game ``g``, whose
    definition-wide data the rules read: zones, counters, card types) to closures.

    Attributes:
        g: a game of the definition (read for its definition and layout only).
        d: the definition.
        memo: shared analysis results (:func:`~.analysis.reads_previous`).
        compiling: ids of the blocks being compiled now (a script effect that calls itself).
        level: how many bodies compiled for constant arguments (:mod:`~.inline`) enclose what
            this compiler compiles; 0 outside any.
        env: the constant arguments of the innermost of them, by parameter name (those the
            body binds again left out).
        inlined: the script effects whose bodies are being compiled so (none in itself).
        local: id(block) -> (closure, its one statement's closure) of the blocks compiled at
            a level above 0 (never kept on the block: they are for those arguments only).
    """

    def __init__(self, g: Any, level: int = 0, env: dict[str, Any] | None = None,
                 inlined: tuple[Any, ...] = ()):
        from cardscript.runtime.compiled import blocks, calls, cards, changes, conditions, expressions, shapes  # noqa: F401 - the rules

        self.g = g
        self.d = g.d
        self.memo: dict[int, bool] = {}
        self.compiling: set[int] = set()
        self.level = level
        self.env = env
        self.inlined = inlined
        self.local: dict[int, tuple[Fn, Fn | None]] = {}

    def inside(self, env: dict[str, Any], effect: Any) -> Compiler:
        """A compiler for the body of ``effect`` compiled for the constant arguments ``env``."""
        sub = Compiler(self.g, self.level + 1, env, (*self.inlined, effect))
        sub.memo = self.memo
        return sub

    # ------------------------------------------------------------ blocks
    def block(self, seq: Any) -> Fn:
        """The closure of a block, kept on it for this definition (``Seq._fn``); inside a
        body compiled for constant arguments (:attr:`level` above 0), kept by this compiler only."""
        if self.level:
            found = self.local.get(id(seq))
            if found is None:
                from cardscript.runtime.compiled.blocks import compile_block

                found = self.local[id(seq)] = compile_block(self, seq)
            return found[0]
        entry = seq._fn
        if entry is not None and entry[0] is self.d:
            return entry[1]
        key = id(seq)
        if key in self.compiling:  # a block that runs itself (a recursive effect): found when run
            def later(g: Any, ctx: Any) -> int:
                return seq._fn[1](g, ctx)
            return later
        self.compiling.add(key)
        try:
            from cardscript.runtime.compiled.blocks import compile_block

            fn, first = compile_block(self, seq)
        finally:
            self.compiling.discard(key)
        seq._fn = (self.d, fn, first)
        return fn

    # ------------------------------------------------------------ the protocols
    def stmt(self, node: Any) -> Fn:
        """``fn(g, ctx) -> int``: what ``node.run`` does."""
        from cardscript.runtime.effects.flow import Seq

        if isinstance(node, Seq):
            return self.block(node)
        found = _lookup(STATEMENTS, node)
        return found(self, node) if found is not None else node.run

    def cond(self, node: Any) -> Fn:
        """``fn(g, ctx) -> bool``: what ``node.test`` does."""
        found = _lookup(CONDITIONS, node)
        return found(self, node) if found is not None else node.test

    def expr(self, node: Any) -> Fn:
        """``fn(g, ctx) -> value``: what ``node.evaluate`` does."""
        node = self._planned(node)
        found = _lookup(EXPRESSIONS, node)
        return found(self, node) if found is not None else node.evaluate

    def const(self, node: Any) -> Any:
        """The value of an expression written as a constant (a number or a text of the
        script, or a parameter of a call run inline bound to one), else :data:`NOT_CONST`."""
        from cardscript.runtime.effects.expressions import Const, Text, Var

        t = type(node)
        if t is Const:
            return node.value
        if t is Text:
            return node.text
        if t is Var and self.env is not None and node.name in self.env:
            value = self.env[node.name]
            if isinstance(value, (int, str)):
                return value
        return NOT_CONST

    def cards(self, sel: Any) -> Fn:
        """``fn(g, ctx) -> list[int]``: what ``sel.cards`` does."""
        sel = self._planned(sel)
        found = _lookup(CARDS, sel)
        return found(self, sel) if found is not None else sel.cards

    def candidates(self, sel: Any) -> Fn | None:
        """``fn(g, ctx) -> list[int]``: what ``sel.candidates`` does (the cards a choice is
        among), for a selector of a shape with one source and fused tests; else None."""
        from cardscript.runtime.compiled.shapes import shaped_candidates

        return shaped_candidates(self, self._planned(sel))

    def players(self, sel: Any) -> Fn:
        """``fn(g, ctx) -> list[int]``: what ``sel.players`` does."""
        found = _lookup(PLAYERS, sel)
        return found(self, sel) if found is not None else sel.players

    def slots(self, zone: Any) -> Fn:
        """``fn(g, ctx) -> list[int]``: what ``zone.slots`` does (a zone reference or parameter)."""
        found = _lookup(ZONES, zone)
        return found(self, zone) if found is not None else zone.slots

    def _planned(self, node: Any) -> Any:
        """``node`` with the plan it makes at its first use made now: a selector and a count
        switch to the variant of their shape then (:mod:`~cardscript.runtime.effects.counting`),
        and the closure must be the variant's method, not the generic one."""
        from cardscript.runtime.effects import counting
        from cardscript.runtime.effects import expressions as X
        from cardscript.runtime.effects import selectors as S

        if isinstance(node, S.Cards) and node._source is S._UNPLANNED:
            node._plan_source(self.g)
        elif isinstance(node, X.CountCards) and node._zone is None:
            counting.adopt_count(node, self.g)
        return node

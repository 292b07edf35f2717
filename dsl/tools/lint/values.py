"""Abstract values for the static checks: :class:`Values` evaluates an expression to an
interval of numbers or a set of texts, and a condition to always, never or "cannot tell"
(a counter of 0..8 is never ``>= 9``).
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Symbols
from cardscript.runtime.definition import GameDefinition

_OPS_NEVER = {"<": lambda a, b: _ge(a[0], b[1]), "<=": lambda a, b: _gt(a[0], b[1]),
              ">": lambda a, b: _ge(b[0], a[1]), ">=": lambda a, b: _gt(b[0], a[1])}
_OPS_ALWAYS = {"<": lambda a, b: _gt(b[0], a[1]), "<=": lambda a, b: _ge(b[0], a[1]),
               ">": lambda a, b: _gt(a[0], b[1]), ">=": lambda a, b: _ge(a[0], b[1])}

Interval = tuple[int | None, int | None]  # inclusive bounds; None is open


def _gt(x: int | None, y: int | None) -> bool:
    return x is not None and y is not None and x > y


def _ge(x: int | None, y: int | None) -> bool:
    return x is not None and y is not None and x >= y


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
        if name in ("seat", "turn order"):
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
        numbers = [v for v in values if isinstance(v, int)]
        if values and len(numbers) == len(values):
            return ("n", min(numbers), max(numbers))
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
    if op in ("/", "mod"):
        return _divide(op, a, b)
    if None in (a[1], a[2], b[1], b[2]):
        return None
    products = [x * y for x in (a[1], a[2]) for y in (b[1], b[2])]
    return ("n", min(products), max(products))


def _divide(op: str, a: Any, b: Any) -> Any:
    """Division and remainder by a known positive divisor (else unknown): ``a / d`` rounds
    down, so it is monotonic in ``a``; ``a mod d`` lies in 0..d-1."""
    if b[1] is None or b[1] != b[2] or b[1] <= 0:
        return None
    d = b[1]
    if op == "mod":
        return ("n", 0, d - 1)
    return ("n", None if a[1] is None else a[1] // d, None if a[2] is None else a[2] // d)


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


def show(iv: Interval) -> str:
    """An interval as the messages print it: '3', '0..8', '1..' (open above)."""
    lo, hi = iv
    if lo == hi and lo is not None:
        return str(lo)
    return f"{'' if lo is None else lo}..{'' if hi is None else hi}"

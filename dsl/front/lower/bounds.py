"""Static bounds of a whole game (docs/language.md, "Limits"), checked once it is lowered:
how many components it has, how many zone slots and counter values they need at the
most players, and how many times nested constant ``repeat`` loops run, through the
effects they call (``repeat 1000: draw 1000`` runs ``draw``'s own loop a million times).

A loop whose count is not a constant (a parameter bound to a count of cards, a counter)
is not bounded here: the runtime's step budget (:data:`cardscript.runtime.errors.MAX_STEPS`)
stops it. Each excess is a diagnostic at the number, or the call, that makes it (``draw
5000`` runs ``draw``'s loop 5,000 times), and so is a constant count below 0 (``repeat -2``).
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, Span, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.limits import MAX_COMPONENTS, MAX_REPEAT_PRODUCT, MAX_SLOTS
from cardscript.dsl.front.check import EffectSig, Symbols, display, match_call, tokens_of
from cardscript.runtime.errors import MAX_CALL_DEPTH, MAX_REPEAT

_OVER = MAX_REPEAT_PRODUCT + 1  # products are kept at most this, so that they stay small numbers
_MAX_WALKS = 10_000  # effects walked with distinct constant arguments, at most


def components(cards: list[A.CardDef]) -> list[Diagnostic]:
    """CS211 at the ``copies`` number that takes the game past :data:`MAX_COMPONENTS`."""
    total = 0
    for cd in cards:
        for pr in cd.printings or (A.Printing(cd.span, 1, ()),):
            total += pr.copies
            if total > MAX_COMPONENTS:
                return [error("CS211", f"with these copies the game has {total:,} components: at most "
                              f"{MAX_COMPONENTS:,}", pr.span,
                              "components are the copies of every card, token and die together")]
    return []


def slots(sym: Symbols, components: int) -> list[Diagnostic]:
    """CS211 at the zone or counter that takes the game past :data:`MAX_SLOTS` slots and
    values at its most players (a per-card zone needs one slot per component)."""
    seats = sym.players.high if sym.players is not None else 1
    total = 0
    decls: list[A.ZoneDecl | A.CounterDecl] = [*sym.zones.values(), *sym.counters.values()]
    for decl in decls:
        total += seats if decl.per_player else components if decl.per_card else 1
        if total > MAX_SLOTS:
            what = "zone" if isinstance(decl, A.ZoneDecl) else "counter"
            return [error("CS211", f"{what} {decl.name!r} takes the game past {MAX_SLOTS:,} zone slots and counter "
                          f"values ({components:,} components, {seats} players)", decl.span,
                          "a zone or counter 'per card' has one slot per component: declare fewer of them")]
    return []


class Repeats:
    """The iterations of nested constant ``repeat`` loops: every body of the game is walked
    (iteratively; only a call goes deeper, at most :data:`MAX_CALL_DEPTH` calls deep) with the
    product of the loops around each statement; an effect called with constant numbers is
    walked with them (memoized), and its own product multiplies the caller's."""

    def __init__(self, sym: Symbols):
        self.sym = sym
        self.diags: list[Diagnostic] = []
        self._factor: dict[tuple[str, tuple[int | None, ...]], tuple[int, int]] = {}  # (product, largest loop)
        self._largest = 0  # the largest constant loop of the effects being walked
        self._open: set[tuple[str, tuple[int | None, ...]]] = set()
        self._seen: set[Span] = set()

    def root(self, body: A.Body | None, kinds: dict[str, str] | None = None) -> None:
        """Check one body that the game runs (an ability, a rule, an action, an effect)."""
        if body is not None:
            self._walk(body, {}, dict(kinds or {}), report=True)

    def _walk(self, body: A.Body, env: dict[str, int], kinds: dict[str, str], report: bool) -> int:
        """The highest product of loops in ``body`` (1 when it has none), at most ``_OVER``."""
        best = 1
        todo: list[tuple[A.Body, int, dict[str, int], dict[str, str]]] = [(body, 1, env, kinds)]
        while todo:
            b, m, env, kinds = todo.pop()  # env and kinds are this body's own: pushed as copies
            best = max(best, m)
            for s in b.stmts:
                if isinstance(s, A.Let):
                    kinds[s.name] = "number"
                    v = _const(s.value, env)
                    if v is None:
                        env.pop(s.name, None)
                    else:
                        env[s.name] = v
                elif isinstance(s, A.Repeat):
                    n = _const(s.times, env)
                    inner = m
                    if n is not None:
                        if n > MAX_REPEAT and report:
                            self._say("CS209", f"repeat {n:,}: a loop repeats at most {MAX_REPEAT:,} times",
                                      s.times.span, "loop over cards instead ('for each card in ...')")
                        elif n > MAX_REPEAT:
                            self._largest = max(self._largest, n)
                        elif n < 0 and report:  # a computed count below 0 runs no times; a constant one is a slip
                            self._say("CS209", f"a count cannot be negative: 'repeat {n}'", s.times.span,
                                      f"write how many times, from 0 up ('repeat {-n}'); to take something away, "
                                      f"use an effect that does (discard, or '-{-n} COUNTER' for a counter)")
                        inner = min(_OVER, m * max(n, 0))
                        if report and m <= MAX_REPEAT_PRODUCT < inner:
                            self._say("CS211", f"nested repeat loops run {m:,} x {n:,} times here: at most "
                                      f"{MAX_REPEAT_PRODUCT:,}", s.times.span, _HINT)
                    best = max(best, inner)
                    todo.append((s.body, inner, dict(env), dict(kinds)))
                elif isinstance(s, A.Call):
                    f, largest = self._call(s, env, kinds)
                    if report and largest > MAX_REPEAT:  # 'draw 5000': the runtime would stop it (CS401)
                        self._say("CS209", f"'{display(tokens_of(s.items))}' runs a loop {largest:,} times: a loop "
                                  f"repeats at most {MAX_REPEAT:,} times", s.span,
                                  "pass a smaller number: the game would stop at this call (CS401)")
                    elif largest > MAX_REPEAT:
                        self._largest = max(self._largest, largest)
                    inner = m * f
                    # an effect whose loops go over the limit whatever it is passed says so in its
                    # own body: each of its callers saying it too made one cause hundreds of errors
                    if report and m <= MAX_REPEAT_PRODUCT < inner and not self._over_by_itself(s, kinds):
                        times = f"more than {MAX_REPEAT_PRODUCT:,}" if f >= _OVER else f"{f:,}"
                        around = f", inside loops that run {m:,} times," if m > 1 else ""
                        self._say("CS211", f"the loops of this effect run {times} times{around} here: at most "
                                  f"{MAX_REPEAT_PRODUCT:,}", s.span, _HINT)
                    inner = min(_OVER, inner)
                    best = max(best, inner)
                    if s.block is not None:  # the effect may run its block as often as its own loops
                        todo.append((s.block, inner, dict(env), dict(kinds)))
                else:
                    todo.extend((sub, m, dict(env), dict(kinds)) for sub in _bodies(s))
        return best

    def _over_by_itself(self, call: A.Call, kinds: dict[str, str]) -> bool:
        """Whether the effect ``call`` runs goes over :data:`MAX_REPEAT_PRODUCT` with none of
        its numbers known: its own body (checked as a root) reports that."""
        match, _ = match_call(call, self.sym, kinds)
        if match is None or match.sig.defn is None:
            return False
        return self._effect(match.sig, (None,) * len(match.bound))[0] > MAX_REPEAT_PRODUCT

    def _call(self, call: A.Call, env: dict[str, int], kinds: dict[str, str]) -> tuple[int, int]:
        """The product of loops the effect a call runs reaches with the call's constant numbers,
        and its largest loop over :data:`MAX_REPEAT` (else 0)."""
        match, _ = match_call(call, self.sym, kinds)
        if match is None or match.sig.defn is None:
            return 1, 0
        args = tuple(_const(tok[1], env) if kind == "number" and tok is not None and tok[0] == "num"
                     else env.get(tok[1]) if kind == "number" and tok is not None and tok[0] == "param" else None
                     for _, kind, tok in match.bound)
        return self._effect(match.sig, args)

    def _effect(self, sig: EffectSig, args: tuple[int | None, ...]) -> tuple[int, int]:
        key = (sig.full_key, args)
        if key in self._factor:
            return self._factor[key]
        if key in self._open or len(self._open) >= MAX_CALL_DEPTH or len(self._factor) >= _MAX_WALKS:
            return 1, 0  # recursion, or too many to follow: the runtime's bounds stop what is left
        assert sig.defn is not None
        env = {name: v for (name, _), v in zip(sig.params, args, strict=False) if v is not None}
        self._open.add(key)
        outer, self._largest = self._largest, 0
        try:
            out = (self._walk(sig.defn.body, env, dict(sig.params), report=False), self._largest)
        finally:
            self._open.discard(key)
            self._largest = outer
        self._factor[key] = out
        return out

    def _say(self, code: str, msg: str, span: Span, hint: str) -> None:
        if span not in self._seen:
            self._seen.add(span)
            self.diags.append(error(code, msg, span, hint))


_HINT = "every loop of a game is bounded: repeat fewer times, or loop over cards ('for each card in ...')"


def _bodies(s: Any) -> list[A.Body]:
    """The bodies a statement holds (other than a repeat's and a call's)."""
    if isinstance(s, A.If):
        return [b for b in (s.then, s.otherwise) if b is not None]
    if isinstance(s, (A.ForPlayers, A.ForCards, A.Otherwise)):
        return [s.body]
    if isinstance(s, A.Choose) and s.body is not None:
        return [s.body]
    if isinstance(s, A.ChooseOne):
        return list(s.modes)
    if isinstance(s, A.StaticWhen):
        return [s.body]
    return []


def _const(e: Any, env: dict[str, int]) -> int | None:
    """The value of a constant number expression (numbers, known parameters, arithmetic,
    max and min), kept within ±10^18; None when it depends on the game."""
    if isinstance(e, A.Num):
        return e.value
    if isinstance(e, A.Param):
        return env.get(e.name)
    if isinstance(e, (A.BinOp, A.MinMax)):
        a, b = _const(e.left, env), _const(e.right, env)
        if a is None or b is None:
            return None
        if isinstance(e, A.MinMax):
            return max(a, b) if e.op == "max" else min(a, b)
        if e.op == "/":  # as the runtime's Arith: rounding down, by zero 0; 'mod 0' keeps a
            return a // b if b else 0
        if e.op == "mod":
            return a % b if b else a
        v = a + b if e.op == "+" else a - b if e.op == "-" else a * b
        return max(-10**18, min(10**18, v))
    return None

"""Who a keyword's block runs for: :meth:`BlockBindings.binding` reads an effect's own
definition for the players it runs its block once for each of (``for each foe in T: ...
B``), so that the renderer can say "they" for them inside the block.
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import EffectSig, Symbols, match_call


class BlockBindings:
    """The players each effect of one program runs its block for (worked out once per effect)."""

    def __init__(self, sym: Symbols):
        self.sym = sym
        self._bindings: dict[str, tuple[str, Any] | None] = {}

    def binding(self, sig: EffectSig) -> tuple[str, Any] | None:
        """('param', T) when the effect runs its block for each player of parameter T,
        ('sel', PLAYERS) for fixed players, None otherwise (or when it varies)."""
        if sig.defn is None or not sig.has_block:
            return None
        if sig.key in self._bindings:
            return self._bindings[sig.key]
        self._bindings[sig.key] = None  # recursion guard
        block = sig.params[-1][0]
        params = dict(sig.params)
        found = {repr(b): b for b in self._find_block(sig.defn.body, block, params, None)}
        result = next(iter(found.values())) if len(found) == 1 else None
        self._bindings[sig.key] = result
        return result

    def _find_block(self, body: A.Body, block: str, params: dict[str, str], bound: Any) -> list[Any]:
        out: list[Any] = []
        for s in body.stmts:
            if isinstance(s, A.RunBlock) and s.name == block:
                out.append(bound)
            elif isinstance(s, A.ForPlayers):
                sel = s.players
                here = ("param", sel.param) if sel.kind == "foe in" else ("sel", sel)
                out += self._find_block(s.body, block, params, here)
            elif isinstance(s, A.Call) and s.block is not None and _runs_only(s.block, block):
                out.append(self._passed(s, params))
            else:
                for sub in _bodies(s):
                    out += self._find_block(sub, block, params, bound)
        return out

    def _passed(self, call: A.Call, params: dict[str, str]) -> Any:
        match, _ = match_call(call, self.sym, params)
        if match is None:
            return None
        inner = self.binding(match.sig)
        if inner is None or inner[0] == "sel":
            return inner
        for name, _kind, tok in match.bound:
            if name == inner[1] and tok is not None:
                if tok[0] == "players":
                    return ("sel", tok[1])
                if tok[0] == "param":
                    return ("param", tok[1])
        return None


def _runs_only(body: A.Body, block: str) -> bool:
    return len(body.stmts) == 1 and isinstance(body.stmts[0], A.RunBlock) and body.stmts[0].name == block


def _bodies(s: Any) -> list[A.Body]:
    out = [getattr(s, f, None) for f in ("then", "otherwise", "body", "block")]
    return [b for b in out if isinstance(b, A.Body)]

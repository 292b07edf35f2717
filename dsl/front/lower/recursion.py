"""CS214: an effect that calls itself on every path can never finish.

``effect foo: foo`` (or ``effect a: b`` with ``effect b: a``) passes every other check and
would only be stopped at run time by the call-depth bound (CS401). Here the checker follows,
for each effect a script defines, the calls its body makes on *every* path: statements of
the body itself, of a ``between turns:`` block and of a ``repeat N:`` with a constant N of
at least 1. A call under ``if``, ``otherwise``, a choice, ``you may``, ``for each`` (which may
meet nothing) or an effect's block may not run, so recursion there stays allowed: it may be
bounded by the game. A call after an ``end game`` never runs, so the walk of a body stops there.
"""

from __future__ import annotations

from cardscript.dsl.diagnostics import Diagnostic, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import EffectSig, Symbols, match_call
from cardscript.dsl.front.lower.bounds import _const

_HINT = ("make some path end: call it under a condition ('if ...:'), a choice or 'you may', "
         "or drop the call")


def _key(sig: EffectSig) -> str:
    return sig.full_key


def _sure_calls(body: A.Body, sym: Symbols, params: dict[str, str]) -> list[tuple[str, A.Call]]:
    """The effect calls ``body`` makes whatever happens, in order: (effect key, call)."""
    out: list[tuple[str, A.Call]] = []
    for s in body.stmts:
        if isinstance(s, A.EndGame):
            break  # the game is over: nothing after it runs
        if isinstance(s, A.Call) and not s.may and s.subject is None:
            match, _ = match_call(s, sym, params)
            if match is not None and match.sig.defn is not None:
                out.append((_key(match.sig), s))
        elif isinstance(s, A.BetweenTurns) or (isinstance(s, A.Repeat) and (_const(s.times, {}) or 0) >= 1):
            out.extend(_sure_calls(s.body, sym, params))  # blocks that always run
    return out


def always_recursing(sym: Symbols) -> list[Diagnostic]:
    """CS214 for each cycle of effects that call one another on every path.

    Args:
        sym: the program's declarations; its effects' calls are resolved as lowering does.

    Returns:
        One error per cycle, at the call in the first-defined effect of the cycle that
        closes it (the one it names as ``a -> b -> a``).
    """
    final: dict[str, EffectSig] = {}
    for sig in sym.effects:  # the last definition of a key is the one calls reach
        if sig.defn is not None:
            final[_key(sig)] = sig
    edges = {k: _sure_calls(sig.defn.body, sym, dict(sig.params)) for k, sig in final.items() if sig.defn}
    reported: set[str] = set()
    diags = []
    cyclic = _on_cycles(edges)  # a search from every effect of a long chain was cubic
    for start in final:
        if start in reported or start not in cyclic:
            continue
        path = _cycle(start, edges)
        if path is None:
            continue
        reported.update(k for k, _ in path)
        names = [final[k].display for k, _ in path] + [final[start].display]
        call = path[0][1]
        if len(path) == 1:
            msg = f"effect '{names[0]}' calls itself on every path: it can never finish"
        else:
            msg = f"effect '{names[0]}' calls itself on every path ({' -> '.join(names)}): it can never finish"
        diags.append(error("CS214", msg, call.span, _HINT))
    return diags


def _on_cycles(edges: dict[str, list[tuple[str, A.Call]]]) -> set[str]:
    """The effects on some cycle of sure calls: the strongly connected components of more
    than one effect, and the effects that call themselves (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: set[str] = set()
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges.get(root, [])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            step = next(targets, None)
            if step is not None:
                target = step[0]
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(edges.get(target, []))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1 or any(t == node for t, _ in edges.get(node, [])):
                    out.update(component)
    return out


def _cycle(start: str, edges: dict[str, list[tuple[str, A.Call]]]) -> list[tuple[str, A.Call]] | None:
    """A path of sure calls from ``start`` back to it, as (effect, its call to the next), or None."""
    seen: set[str] = set()
    stack: list[tuple[str, list[tuple[str, A.Call]]]] = [(start, [])]
    while stack:  # iterative depth-first search: a long chain of effects may not overflow
        key, path = stack.pop()
        for target, call in reversed(edges.get(key, [])):
            step = [*path, (key, call)]
            if target == start:
                return step
            if target not in seen:
                seen.add(target)
                stack.append((target, step))
    return None

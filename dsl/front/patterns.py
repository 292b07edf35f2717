"""Effect patterns: the built-in primitives, the signature of an effect (:class:`EffectSig`),
call phrases normalised for matching (:func:`tokens_of`) and read back for messages
(:func:`display`), and the rule that a script replaces a less specific script's effect
only on purpose (``effect ... replaces:``). The checker (:mod:`cardscript.dsl.front.check`)
matches calls against these."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, Span, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.cache import build_cached

#: Built-in primitives of the runtime, written as effect patterns. Their bodies are
#: supplied by :mod:`cardscript.runtime.effects` (Move, Take, Shuffle, Flip, Reveal, Play, TakeActions).
BUILTINS = {
    "move": "move {C: cards} to {Z: zone}",
    "take": "take {C: cards} into {Z: zone}",
    "shuffle": "shuffle {Z: zone}",
    "flip": "flip {C: cards}",
    "reveal": "reveal {C: cards}",
    "play": "play {C: cards}",
    "take actions": "take actions",
    "take control": "take control of {C: cards}",
    "roll": "roll {C: cards}",
    "put under": "put {C: cards} under {Z: zone}",
    "use modifiers": "use modifiers of {C: cards}",
    "go first": "go first",  # cards area (issue 12): who takes the first turn
    "goes first": "goes first",  # cards area (issue 12): "the next ... costs 2 less", used up
}

SLOT_KINDS = ("number", "players", "cards", "zone", "type", "block")


@dataclass
class EffectSig:
    """A callable effect: its pattern tokens, parameters, and definition (None for built-ins)."""

    key: str
    tokens: tuple[tuple[Any, ...], ...]
    params: list[tuple[str, str]]
    has_block: bool
    defn: A.EffectDef | None
    display: str
    builtin: str = ""

    @property
    def full_key(self) -> str:
        """``key`` with ``{block}`` for an effect that takes a block: what tells two effects
        apart (``attack {T}`` and ``attack {T} {B: block}`` are two effects)."""
        return self.key + ("{block}" if self.has_block else "")

    @property
    def name(self) -> str:
        """The leading words of the pattern ('attack', 'surge'): the keyword a card 'has'."""
        words = []
        for t in self.tokens:
            if t[0] != "w":
                break
            words.append(t[1])
        return " ".join(words)

def tokens_of(items: tuple[A.CallItem, ...]) -> list[tuple[Any, ...]]:
    """Normalise call or pattern items for matching. A selector with no place
    ('a wound', '2 cards') is flattened into words, so patterns may spell it."""
    out: list[tuple[Any, ...]] = []
    for it in items:
        if isinstance(it, A.Word):
            out.append(("w", it.text))
        elif isinstance(it, A.Slot):
            out.append(("slot", it.name, it.type, it.span))
        elif isinstance(it, A.StrArg):
            out.append(("str", it.text, it))
        elif isinstance(it, A.NumArg):
            out.append(("num", it.expr, it))
        elif isinstance(it, A.ParamArg):
            out.append(("param", it.name, it))
        elif isinstance(it, A.PlayersArg):
            out.append(("players", it.sel, it))
        elif isinstance(it, A.ZoneArg):
            out.append(("zone", it.zone, it))
        elif isinstance(it, A.CardsArg):
            flat = _flatten(it.sel)
            out.extend(flat if flat is not None else [("cards", it.sel, it)])
    return out


def _flatten(sel: A.CardSel) -> list[tuple[Any, ...]] | None:
    if sel.kind != "pick" or sel.zones or sel.in_param or sel.played or sel.control or sel.filters or sel.name \
            or sel.gained:
        return None
    words: list[tuple[Any, ...]] = []
    q = sel.quantity
    if q == "one":
        words.append(("w", "a"))
    elif q == "random":
        words += [("w", "a"), ("w", "random")]
    elif q in ("all", "each"):
        words.append(("w", q))
    elif q == "up to":
        words += [("w", "up"), ("w", "to"), ("num", sel.count, None)]
    elif q in ("n", "random n"):
        words.append(("num", sel.count, None))
        if q == "random n":
            words.append(("w", "random"))
    for t in sel.types:
        words.extend(("w", w) for w in t.split())
    if sel.card_word:
        words.append(("w", sel.card_word))
    return words


def display(tokens: list[tuple[Any, ...]] | tuple[tuple[Any, ...], ...]) -> str:
    """A readable rendering of a pattern or call for messages."""
    parts = []
    for t in tokens:
        k = t[0]
        if k == "w":
            parts.append(t[1])
        elif k == "slot":
            parts.append("{" + f"{t[1]}: {t[2]}" + "}")
        elif k == "str":
            parts.append(f'"{t[1]}"')
        elif k == "num":
            e = t[1]
            parts.append(str(e.value) if isinstance(e, A.Num) else "(...)")
        elif k == "param":
            parts.append(t[1])
        elif k == "players":
            parts.append(t[1].kind if t[1].kind != "param" else t[1].param)
        elif k == "zone":
            z = t[1]
            parts.append({"you": "your ", "them": "their ", "shared": "the "}.get(z.owner, "") + z.name)
        else:
            parts.append(_describe_cards(t[1]))
    return " ".join(parts)


def _describe_zone(z: A.ZoneRef | A.CardSel) -> str:
    if isinstance(z, A.CardSel):  # 'from the top 3 cards of your deck'
        return _describe_cards(z)
    own = {"you": "your ", "them": "their ", "shared": "the ", "owner": "its owner's "}.get(z.owner, "the ")
    return "its home" if z.owner == "home" else own + z.name


def _describe_cards(sel: A.CardSel) -> str:
    """A short reading of a card selector for prompts and messages ('a card from your hand')."""
    if sel.kind in ("this", "it"):
        return sel.kind
    if sel.kind in ("top", "bottom"):
        n = sel.count.value if isinstance(sel.count, A.Num) else "N"
        what = "card" if n == 1 else f"{n} cards"
        return f"the {sel.kind} {what} of {' and '.join(_describe_zone(z) for z in sel.zones)}"
    q = {"one": "a", "up to": "up to N", "random": "a random", "all": "all", "each": "each", "n": "N",
         "random n": "N random"}.get(sel.quantity, sel.quantity)
    kind = f'"{sel.name}"' if sel.name else " ".join(sel.types) or sel.card_word or "card"
    where = f" from {' and '.join(_describe_zone(z) for z in sel.zones)}" if sel.zones else ""
    return f"{q} {kind}{where}".strip()


@functools.lru_cache(maxsize=1)
def builtin_sigs() -> tuple[EffectSig, ...]:
    out = []
    for key, text in BUILTINS.items():
        script = build_cached(f"effect {text}:\n  nothing\n", "<built-in>")
        d = script.items[0]
        assert isinstance(d, A.EffectDef)
        out.append(_sig(d, key))
    return tuple(out)


def _sig(d: A.EffectDef, builtin: str = "") -> EffectSig:
    toks = tokens_of(d.pattern)
    params = [(t[1], t[2]) for t in toks if t[0] == "slot"]
    has_block = bool(params) and params[-1][1] == "block"
    body_toks = tuple(t for t in toks if not (t[0] == "slot" and t[2] == "block"))
    key = builtin or " ".join(t[1] if t[0] == "w" else "{" + t[2] + "}" if t[0] == "slot" else display([t])
                              for t in body_toks)
    return EffectSig(key, body_toks, params, has_block, None if builtin else d, display(toks), builtin)


_BUILTIN_SPAN = Span("<built-in>", 1, 1)


@functools.lru_cache(maxsize=1)
def _builtin_keys() -> tuple[str, ...]:
    """The built-in primitives' patterns, keyed as a script's effects are."""
    out = []
    for text in BUILTINS.values():
        d = build_cached(f"effect {text}:\n  nothing\n", "<built-in>").items[0]
        assert isinstance(d, A.EffectDef)
        sig = _sig(d)
        out.append(sig.full_key)
    return tuple(out)


def _replacing(item: A.EffectDef, sig: EffectSig, prev: tuple[int, Span] | None, rank: int) -> list[Diagnostic]:
    """An effect replacing one of a less specific script (a shared library, its game, the
    runtime) must say 'replaces'; one saying it must replace something (CS203, CS201)."""
    if prev is not None and prev[0] < rank and not item.replaces:
        where = "the built-in effect" if prev[1] is _BUILTIN_SPAN else \
            f"the shared effect from {prev[1].file}:{prev[1].line}"
        return [error("CS203", f"effect '{sig.display}' redefines {where}", item.span,
                      f"to replace it on purpose, write 'effect {sig.display} replaces: ...'; "
                      "else give the new effect other words")]
    if prev is None and item.replaces:
        return [error("CS201", f"effect '{sig.display}' replaces nothing: no script it uses defines this pattern",
                      item.span, "remove 'replaces', or write the pattern of the effect to replace")]
    return []


#: the signatures (built-ins, then the table's effects, in that order) by their number of
#: tokens and first word (None: a signature that starts with a parameter), for the table
#: held (as check._MATCHES_FOR holds its own) and its number of effects. A call then
#: tries the few signatures that can match it, not every one: a program of 4,000 effects
#: chained one to the next took 4 s to check, most of it in the scan of every signature
#: per call.
_SIG_INDEX: list[Any] = [None, -1, {}]


def candidates(sym: Any, n: int, word: str | None) -> list[EffectSig]:
    """The signatures of ``n`` tokens that start with ``word`` or with a parameter, in the
    order of ``builtin_sigs() + sym.effects`` (the last that matches wins); ``sym`` is a
    symbol table (:class:`cardscript.dsl.front.check.Symbols`), of which only ``effects``
    (its :class:`EffectSig` list) is read."""
    if _SIG_INDEX[0] is not sym or _SIG_INDEX[1] != len(sym.effects):
        index: dict[tuple[int, str | None], list[tuple[int, EffectSig]]] = {}
        for i, sig in enumerate((*builtin_sigs(), *sym.effects)):
            word_ = sig.tokens[0][1] if sig.tokens and sig.tokens[0][0] == "w" else None
            index.setdefault((len(sig.tokens), word_), []).append((i, sig))
        _SIG_INDEX[:] = [sym, len(sym.effects), index]
    index = _SIG_INDEX[2]
    named = index.get((n, word), []) if word is not None else []
    open_ = index.get((n, None), [])
    if not open_ or not named:
        return [sig for _, sig in (named or open_)]
    return [sig for _, sig in sorted(named + open_, key=lambda pair: pair[0])]

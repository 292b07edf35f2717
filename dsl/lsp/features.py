"""What the language server answers, from one :class:`~cardscript.dsl.lsp.analysis.Analysis`:
completion, hover, go-to-definition and document symbols. Plain data here (positions are
0-based lines and code-point columns); :mod:`cardscript.dsl.lsp.server` speaks LSP.

What a position names is found in the file's AST: the innermost call phrase around it
(resolved as the checker resolves it, :func:`cardscript.dsl.front.check.match_call`), else
the quoted card name (or event with a printed form) or the declared word (zone, counter,
attribute, type, ability label) under it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from cardscript.dsl.diagnostics import Span
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Symbols, match_call
from cardscript.dsl.front.patterns import BUILTINS, EffectSig, builtin_sigs
from cardscript.dsl.lsp.analysis import Analysis

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Item:
    """A completion: its label, kind (card, effect, keyword, zone, counter, attribute, type,
    label), a one-line detail, and the text to insert (LSP snippet syntax for an effect)."""

    label: str
    kind: str
    detail: str
    insert: str
    snippet: bool = False


@dataclass(frozen=True)
class Target:
    """What a position names: its kind, name, markdown documentation and where it is defined
    (None for a built-in primitive)."""

    kind: str
    name: str
    doc: str
    span: Span | None


@functools.lru_cache(maxsize=1)
def grammar_keywords() -> tuple[str, ...]:
    """The words the grammar reserves (its quoted literals), sorted."""
    from cardscript.dsl.front.cache import grammar_code

    words = set()
    for lit in re.findall(r'"([^"\\]+)"', grammar_code()):
        if _WORD.fullmatch(lit) and lit.islower():
            words.add(lit)
    return tuple(sorted(words))


# ---------------------------------------------------------------- completion
def in_string(line: str, col: int) -> bool:
    """Whether the column lies inside a double-quoted string of the line (comments aside)."""
    return line[:col].count('"') % 2 == 1


def completions(an: Analysis, line: int, col: int) -> list[Item]:
    """What may be typed at the position: inside a string, the program's card names; else
    effect phrases in scope (built-in primitives and the scripts' effects), card names,
    keywords, zones, counters, attributes, types and ability labels."""
    text = _line(an.text, line)
    sym = an.symbols
    cards = [Item(c.name, "card", _card_detail(c), c.name) for c in sym.cards.values()]
    if in_string(text, col):
        return cards
    out = [Item(c.label, c.kind, c.detail, f'"{c.insert}"') for c in cards]
    seen = set()
    for sig in [*builtin_sigs(), *sym.effects]:
        if sig.display in seen:
            continue
        seen.add(sig.display)
        out.append(Item(sig.display, "effect", _where(sig), _snippet(sig), snippet=True))
    out += [Item(w, "keyword", "keyword", w) for w in grammar_keywords()]
    out += [Item(n, "zone", _zone_detail(z), n) for n, z in sym.zones.items()]
    out += [Item(n, "counter", "counter" + (" per player" if c.per_player else ""), n) for n, c in sym.counters.items()]
    out += [Item(n, "attribute", f"attribute = {a.default}", n) for n, a in sym.attributes.items()]
    out += [Item(n, "type", "card subtype" if n in sym.subtypes else "card type", n) for n in sym.types]
    out += [Item(n, "label", "ability label", n) for n in sym.labels]
    return out


def _snippet(sig: EffectSig) -> str:
    """The pattern as a snippet: each slot a tab stop holding its parameter's name."""
    parts, n = [], 0
    for t in sig.tokens:
        if t[0] == "slot":
            n += 1
            parts.append(f"${{{n}:{t[1]}}}")
        else:
            parts.append(str(t[1]) if t[0] == "w" else _esc(str(t[1])))
    text = " ".join(parts)
    return text + ":" if sig.has_block else text


def _esc(text: str) -> str:
    return text.replace("$", "\\$").replace("}", "\\}")


def _where(sig: EffectSig) -> str:
    if sig.defn is None:
        return "built-in primitive"
    return f"effect, {sig.defn.span.file}:{sig.defn.span.line}"


def _card_detail(c: A.CardDef) -> str:
    attrs = ", ".join(f"{n} {v}" for n, v, _ in c.attrs)
    return ", ".join(x for x in (" ".join(w for w, _ in c.words), attrs) if x)


def _zone_detail(z: A.ZoneDecl) -> str:
    return "zone" + (", per player" if z.per_player else "") + (f", {z.visibility}" if z.visibility else "")


# ---------------------------------------------------------------- what a position names
def target_at(an: Analysis, line: int, col: int) -> Target | None:
    """The card, effect or declared word at a position (see the module docstring)."""
    text = _line(an.text, line)
    sym = an.symbols
    name = _string_at(text, col)
    if name is not None:
        card = sym.cards.get(name) or next((c for c in sym.cards.values() if c.name == name), None)
        if card is not None:
            return _card_target(an, card)
        # an event or a mark with a printed form: how a trigger on it, or the mark, reads
        form = sym.printed_events.get(name) or sym.printed_marks.get(name)
        if form is None:
            return None
        return Target(form.kind, name, f"{form.kind} “{name}”\n\nprinted as: {form.template}",
                      None if form.span.file == "<built-in>" else form.span)
    item, call = _call_at(an.script, line + 1, col + 1)
    if isinstance(item, A.EffectDef) and item.span.line == line + 1:
        sig = next((s for s in sym.effects if s.defn is item), None)
        if sig is not None:
            return _effect_target(an, sig)
    if call is not None:
        params = {}
        if isinstance(item, A.EffectDef):
            params = {i.name: i.type for i in item.pattern if isinstance(i, A.Slot)}
        match, _ = match_call(call, sym, params)
        if match is not None:
            return _effect_target(an, match.sig)
    word = _word_at(text, col)
    return _declared(an, sym, word) if word else None


def _declared(an: Analysis, sym: Symbols, word: str) -> Target | None:
    found: tuple[str, Span] | None = None
    if word in sym.zones:
        found = ("zone", sym.zones[word].span)
    elif word in sym.counters:
        found = ("counter", sym.counters[word].span)
    elif word in sym.attributes:
        found = ("attribute", sym.attributes[word].span)
    elif word in sym.types:
        found = ("card subtype" if word in sym.subtypes else "card type", sym.types[word])
    elif word in sym.labels:
        found = ("ability label", sym.labels[word])
    if found is None:
        return None
    what, span = found
    doc = _declaration_doc(an, span, what)
    printed: A.PrintedLabel | A.PrintedForm | None = sym.printed_labels.get(word) if what == "ability label" \
        else sym.printed_counters.get(word) if what == "counter" else sym.printed_zones.get(word) if what == "zone" \
        else None
    if printed is not None:
        doc += f"\n\nprinted as: {printed.template}"
    return Target(what, word, doc, None if span.file == "<built-in>" else span)


def _card_target(an: Analysis, card: A.CardDef) -> Target:
    return Target("card", card.name, card_markdown(an, card), card.span)


def card_markdown(an: Analysis, card: A.CardDef) -> str:
    """A card as ``cardscript render`` prints it: name, types and attributes, rules text."""
    head = f"**{card.name}**"
    try:
        from cardscript.dsl.tools.render import Renderer

        assert an.program is not None
        shown = Renderer(an.program).card(card)
    except Exception:  # noqa: BLE001 - a hover shows the script's words when a broken card cannot render
        return f"{head}\n\n{_card_detail(card)}"
    plain = {n: a.default for n, a in an.symbols.attributes.items()}  # as render shows a card: what it changes
    facts = [", ".join(shown.types)] + [f"{k} {v}" for k, v in shown.attributes.items()
                                        if v != plain.get(k) and v != ""] + [f"copies {shown.copies}"]
    body = "\n\n".join(shown.paragraphs) or "(no rules text)"
    return f"{head} — {' · '.join(f for f in facts if f)}\n\n{body}"


def _effect_target(an: Analysis, sig: EffectSig) -> Target:
    if sig.defn is None:
        doc = f"```cardscript\neffect {BUILTINS.get(sig.builtin, sig.display)}\n```\n\n" \
              "A built-in primitive of the runtime (docs/primitives.md)."
        return Target("effect", sig.display, doc, None)
    d = sig.defn
    source = _source(an, d.span.file)
    head = source[d.span.line - 1] if 0 < d.span.line <= len(source) else f"effect {sig.display}:"
    notes = _comments_above(source, d.span.line)
    printed = f"\n\nprinted: “{d.printed}”" if d.printed else ""
    doc = f"```cardscript\n{head.strip()}\n```\n\n" + (notes + "\n\n" if notes else "") + \
        f"defined at {d.span.file}:{d.span.line}{printed}"
    return Target("effect", sig.display, doc, d.span)


def _declaration_doc(an: Analysis, span: Span, what: str) -> str:
    source = _source(an, span.file)
    if not 0 < span.line <= len(source):
        return f"{what} (built-in)"
    notes = _comments_above(source, span.line)
    return f"```cardscript\n{source[span.line - 1].strip()}\n```\n\n" + (notes + "\n\n" if notes else "") + \
        f"{what}, {span.file}:{span.line}"


def _comments_above(lines: list[str], line: int) -> str:
    """The comment lines right above a declaration: its documentation."""
    out: list[str] = []
    n = line - 2
    while n >= 0 and lines[n].startswith("#"):
        out.append(lines[n].lstrip("#").strip())
        n -= 1
    return " ".join(reversed(out)).strip()


def _source(an: Analysis, file: str) -> list[str]:
    if an.program is None:
        return []
    return an.program.sources.get(file, "").splitlines()


def _line(text: str, line: int) -> str:
    lines = text.splitlines()
    return lines[line] if 0 <= line < len(lines) else ""


def _string_at(text: str, col: int) -> str | None:
    for m in re.finditer(r'"([^"]*)"', text):
        if m.start() <= col < m.end():
            return m.group(1)
    return None


def _word_at(text: str, col: int) -> str:
    for m in _WORD.finditer(text):
        if m.start() <= col <= m.end():
            return m.group(0)
    return ""


def _contains(span: Span, line: int, col: int) -> bool:
    end_line = span.end_line or span.line
    if line < span.line or line > end_line:
        return False
    if line == span.line and col < span.column:
        return False
    return not (span.end_line and line == end_line and col > span.end_column)


def _call_at(script: A.Script | None, line: int, col: int) -> tuple[Any, A.Call | None]:
    """The top-level item around a 1-based position, and the innermost call around it."""
    if script is None:
        return None, None
    item = next((i for i in script.items if _contains(i.span, line, col)), None)
    if item is None:
        return None, None
    best: list[A.Call] = []

    def walk(value: Any) -> None:
        if type(value) is tuple:
            for x in value:
                walk(x)
        elif isinstance(value, A.Node):
            if isinstance(value, A.Call) and _contains(value.span, line, col):
                best.append(value)
            for f in type(value)._fields:
                walk(value.__dict__[f])

    walk(item)
    return item, best[-1] if best else None


# ---------------------------------------------------------------- document symbols
@dataclass(frozen=True)
class Symbol:
    """A declaration of the file: its name, kind (card, effect, action) and span."""

    name: str
    kind: str
    span: Span
    detail: str = ""


def symbols(an: Analysis) -> list[Symbol]:
    """The cards, effects and actions the file declares, in file order."""
    if an.script is None:
        return []
    out = []
    for item in an.script.items:
        if isinstance(item, A.CardDef):
            out.append(Symbol(item.name, "card", item.span, _card_detail(item)))
        elif isinstance(item, A.EffectDef):
            from cardscript.dsl.front.patterns import display, tokens_of

            out.append(Symbol(display(tokens_of(item.pattern)), "effect", item.span))
        elif isinstance(item, A.Action):
            out.append(Symbol(item.name, "action", item.span))
    return out

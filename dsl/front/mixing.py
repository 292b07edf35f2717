"""Mixing sets: a mixed-in card brings what it needs from its own set's rules (issue 12).

``--mix OTHER`` adds another set's cards to the game being played (docs/variants.md,
"Mixing sets"). A card whose text needs a name the game lacks takes that name's
declaration from the rules of its own set, generally, whatever the name is:

* an ability label (and how it is printed), a card type, an attribute (with its default),
  an effect — whose own needs are taken the same way, transitively;
* never a zone or a counter: they are part of the other set's board, which the game's
  setup, turn and score do not know (a Seal into a score pile that is never scored);
* an ability label is taken only if something in the game resolves it (the game's own
  rules, or its ``variants/mixing.variant``); else the card's text would do nothing.

A card that still needs something is left out (``CS220``), and the warning says
precisely what is missing, where it is defined and why it cannot come, following the
chain (an effect that needs a zone...). Each round compiles the game with what was taken
so far; rounds stop when nothing more can be taken (at most :data:`MAX_ROUNDS`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardscript.dsl.diagnostics import CompileError, Diagnostic, Span, warning
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Symbols, collect, display, match_call, tokens_of
from cardscript.dsl.front.loader import Program, _folder_kind, load_program, resolve_game
from cardscript.dsl.front.lower.declarations import Lowerer
from cardscript.runtime.definition import GameDefinition

#: At most this many compiles: each round takes at least one declaration or gives one up.
MAX_ROUNDS = 24

#: What a need's kind is called in lowering's diagnostics -> the kind of declaration.
_KINDS = {"ability label": "label", "card type": "type", "attribute": "attribute", "zone": "zone",
          "counter": "counter", "card": "card", "type, keyword or label": "word", "effect": "effect"}


@dataclass(frozen=True)
class Need:
    """A name a body needs and the game lacks.

    Attributes:
        kind: label, type, attribute, effect, zone, counter, card or word.
        name: the name (an effect: its phrase as called).
        span: where it is named.
        call: for an effect, the call (matched against the other set's effects).
        params: for an effect, the parameter kinds in scope at the call.
    """

    kind: str
    name: str
    span: Span | None
    call: A.Call | None = None
    params: tuple[tuple[str, str], ...] = ()


class _Recording(Lowerer):
    """The lowerer, also recording what each mixed-in card and each taken effect needs,
    which labels are resolved and which types and labels the game's own rules name."""

    def __init__(self, sym: Symbols, lenient: frozenset[str]):
        super().__init__(sym, lenient)
        self.needs: list[tuple[str, Need]] = []  # (owner: card name or "", need)
        self.resolved: set[str] = set()  # labels some body resolves
        self.named: set[str] = set()  # types and labels the game's rules (not a mixed card) name
        self._owner = ""

    def unknown(self, what: str, name: str, span: Any, pool: Any, hint: str = "") -> None:
        super().unknown(what, name, span, pool, hint)
        self.needs.append((self._owner, Need(_KINDS.get(what, what), name, span)))

    def call(self, c: A.Call, params: dict[str, str]) -> Any:
        mark = len(self.diags)
        out = super().call(c, params)
        if len(self.diags) > mark and self.diags[mark].code == "CS202":
            self.needs.append((self._owner, Need("effect", display(tokens_of(c.items)), c.span, c,
                                                 tuple(sorted(params.items())))))
        return out

    def cards(self, sel: A.CardSel, params: dict[str, str], purpose: str = "") -> Any:
        if not self._owner:
            self.named.update(sel.types)
        return super().cards(sel, params, purpose)

    def check_words(self, words: tuple[str, ...], span: Any, allow_keywords: bool = True) -> None:
        if not self._owner:
            self.named.update(words)
        super().check_words(words, span, allow_keywords)

    def stmt(self, s: Any, params: dict[str, str]) -> Any:
        if isinstance(s, A.Resolve):
            self.resolved.add(s.label)
        return super().stmt(s, params)

    def card(self, cd: A.CardDef, index: int) -> Any:
        self._owner = cd.name
        for name, _, span in cd.attrs:
            if name not in self.sym.attributes:
                self.needs.append((cd.name, Need("attribute", name, span)))
        try:
            return super().card(cd, index)
        finally:
            self._owner = ""


@dataclass
class _Donor:
    """Another set: its name and declarations."""

    name: str
    sym: Symbols
    sources: dict[str, str]


def _donors(program: Program) -> list[_Donor]:
    """The sets the mixed-in files come from (each folder's game, loaded once)."""
    out: list[_Donor] = []
    seen: set[Path] = set()
    for name in sorted(program.mixed):
        folder = Path(name).resolve().parent
        if folder in seen or _folder_kind(folder) != "game":
            continue
        seen.add(folder)
        try:
            other = load_program(resolve_game(str(folder)))
        except CompileError:
            continue  # its own errors are reported when it is played or checked
        sym, _ = collect(other.scripts)
        title = sym.header.name if sym.header is not None else folder.name
        out.append(_Donor(title, sym, other.sources))
    return out


def _where(span: Span | None) -> str:
    return f"{span.file}:{span.line}" if span is not None else "?"


class _Taking:
    """The declarations taken from other sets so far, and those refused (with why)."""

    def __init__(self, game: str, donors: list[_Donor]):
        self.game = game
        self.donors = donors
        self.taken: dict[tuple[str, str], tuple[A.Item, ...]] = {}
        self.refused: dict[tuple[str, str], str] = {}
        self.effect_keys: dict[tuple[str, str], tuple[str, str]] = {}  # call key -> taken effect key

    def key(self, need: Need) -> tuple[str, str]:
        return (need.kind, need.name)

    def why(self, need: Need) -> str | None:
        """The reason a need cannot be met, if it is refused (following a taken effect)."""
        k = self.effect_keys.get(self.key(need), self.key(need))
        return self.refused.get(k)

    def offer(self, need: Need) -> bool:
        """Take what a need names from another set, or refuse it; True when something changed."""
        k = self.key(need)
        if k in self.taken or k in self.refused or k in self.effect_keys:
            return False
        for donor in self.donors:
            found = self._find(donor, need)
            if found is None:
                continue
            if isinstance(found, str):
                self.refused[k] = found
                return True
            items, effect_key = found
            if effect_key is not None:
                self.effect_keys[k] = effect_key
                if effect_key in self.taken or effect_key in self.refused:
                    return True
                k = effect_key
            self.taken[k] = items
            return True
        self.refused[k] = f"{_shown(need)}, which no mixed-in set defines"
        return True

    def _find(self, donor: _Donor, need: Need) -> tuple[tuple[A.Item, ...], tuple[str, str] | None] | str | None:
        sym, name = donor.sym, need.name
        kind = need.kind
        if kind == "word":  # a type, a label or an effect's name in 'with WORD'
            kind = "type" if name in sym.types else "label" if name in sym.labels else "word"
        if kind == "label" and name in sym.labels:
            items: tuple[A.Item, ...] = (A.Abilities(sym.labels[name], (name,)),)
            printed = sym.printed_labels.get(name)
            return (items + ((printed,) if printed is not None else ())), None
        if kind == "type" and name in sym.types:
            return (A.Types(sym.types[name], (name,), name in sym.subtypes),), None
        if kind == "attribute" and name in sym.attributes:
            return (sym.attributes[name],), None
        if kind in ("zone", "counter"):
            decl = sym.zones.get(name) if kind == "zone" else sym.counters.get(name)
            if decl is None:
                return None
            return (f"{kind} '{name}' ({donor.name}, {_where(decl.span)}), which {self.game} does not have: "
                    f"a {kind} is never taken from another set, the game's setup, turn and score would not know it")
        if kind == "card" and name in sym.cards:
            return f"card '{name}' ({donor.name}, {_where(sym.cards[name].span)}), which is left out itself"
        if kind == "effect" and need.call is not None:
            match, _ = match_call(need.call, sym, dict(need.params))
            if match is None or match.sig.defn is None:
                return None
            defn = match.sig.defn
            # taken as a new effect: what it replaced in its own set is not the game's
            taken = A.EffectDef(defn.span, defn.pattern, defn.body, defn.printed, False)
            return (taken,), ("effect", match.sig.display)
        return None

    def shown(self, k: tuple[str, str]) -> str:
        """A taken declaration as a reason names it: kind, name and where it is written."""
        items = self.taken.get(k, ())
        return f"{k[0]} '{k[1]}' ({_where(items[0].span) if items else '?'})"

    def refuse_taken(self, k: tuple[str, str], why: str) -> None:
        self.taken.pop(k, None)
        self.refused[k] = why

    def scripts(self) -> list[A.Script]:
        """The taken declarations, as scripts of the files they are written in (ranked below
        the game: they never replace what it declares)."""
        by_file: dict[str, list[A.Item]] = {}
        for items in self.taken.values():
            for item in items:
                by_file.setdefault(item.span.file, []).append(item)
        return [A.Script(Span(f, 1, 1), f, tuple(items), "ruleset") for f, items in sorted(by_file.items())]


def _shown(need: Need) -> str:
    shown = {"label": "ability label", "word": "type, keyword or label"}.get(need.kind, need.kind)
    return f"{shown} '{need.name}'"


def _inside(span: Span | None, item: A.Item) -> bool:
    s = item.span
    return (span is not None and span.file == s.file
            and s.line <= span.line <= max(s.end_line, s.line))


def _with(program: Program, extra: list[A.Script], sources: dict[str, str]) -> Program:
    """The program with the taken declarations before the first mixed-in file."""
    first = next((i for i, s in enumerate(program.scripts) if s.file in program.mixed), len(program.scripts))
    scripts = [*program.scripts[:first], *extra, *program.scripts[first:]]
    return dataclasses.replace(program, scripts=scripts, sources={**sources, **program.sources})


def _compile(program: Program) -> tuple[GameDefinition | None, list[Diagnostic], _Recording]:
    sym, diags = collect(program.scripts, program.mixed)
    low = _Recording(sym, program.mixed)
    definition: GameDefinition | None
    try:
        definition = low.definition(program.sources)
    except CompileError as exc:
        diags.extend(exc.diagnostics)
        definition = None
    return definition, diags + low.diags, low


def _rounds(program: Program) -> tuple[Program, GameDefinition | None, list[Diagnostic], _Recording, _Taking]:
    """Compile, take what is missing, compile again... until nothing more can be taken."""
    donors = _donors(program)
    sources = {k: v for d in donors for k, v in d.sources.items()}
    head = _header(program)
    taking = _Taking(head.name if head is not None else "the game", donors)
    for _ in range(MAX_ROUNDS):
        mixed = _with(program, taking.scripts(), sources)
        definition, diags, low = _compile(mixed)
        if not _next_round(taking, diags, low):
            break
    return mixed, definition, diags, low, taking


def compile_mixed(program: Program) -> tuple[GameDefinition | None, list[Diagnostic]]:
    """Check and lower a program with mixed-in files, taking from the other sets' rules
    what their cards need (see the module docstring).

    Returns:
        (definition, diagnostics), as :func:`cardscript.dsl.front.lower.compile_program`:
        the definition is None when any diagnostic is an error. A card left out is a
        ``CS220`` warning naming what it needs, where that is defined and why it cannot come.
    """
    _, definition, diags, low, taking = _rounds(program)
    return _finish(definition, diags, low, taking)


def with_taken(program: Program) -> Program:
    """The program with what its mixed-in cards take from their sets' rules, for a stage
    that lowers more than the game (a scenario's steps); unchanged when nothing is mixed in."""
    return _rounds(program)[0] if program.mixed else program


def _header(program: Program) -> A.Header | None:
    for s in program.scripts:
        for i in s.items:
            if isinstance(i, A.Header) and i.kind == "game":
                return i
    return None


def _taken_owner(taking: _Taking, span: Span | None) -> tuple[str, str] | None:
    for k, items in taking.taken.items():
        if any(_inside(span, it) for it in items if isinstance(it, A.EffectDef)):
            return k
    return None


def _next_round(taking: _Taking, diags: list[Diagnostic], low: _Recording) -> bool:
    """Take or refuse what this round's compile showed missing; False when nothing changed."""
    changed = False
    for owner, need in low.needs:
        holder = _taken_owner(taking, need.span)
        if not owner and holder is None:
            continue  # the game's own mistake: reported as it is
        if holder is not None and (why := taking.why(need)) is not None:
            taking.refuse_taken(holder, f"{taking.shown(holder)}, which needs {why}")
            changed = True
            continue
        changed = taking.offer(need) or changed
    for d in diags:  # a taken effect that does not fit the game, for another reason than a name
        holder = _taken_owner(taking, d.span) if d.severity == "error" else None
        if holder is not None and not any(_taken_owner(taking, n.span) == holder for _, n in low.needs):
            taking.refuse_taken(holder, f"{taking.shown(holder)}, which does not fit: {d.message}")
            changed = True
    resolved = low.resolved | {p.label for p in low.sym.passives}
    for (kind, name), items in list(taking.taken.items()):
        if kind == "label" and name not in resolved:
            taking.refuse_taken((kind, name), (
                f"ability label '{name}' ({_where(items[0].span)}), which nothing in {taking.game} "
                f"resolves: its rules, or its mixing rules (variants/mixing.variant), must say "
                f"what a '{name}' ability does"))
            changed = True
        if kind == "type" and name not in low.named:
            taking.refuse_taken((kind, name), (
                f"card type '{name}' ({_where(items[0].span)}), which nothing in {taking.game} names: "
                f"its rules, or its mixing rules, must say how a '{name}' card is used (else it would be "
                f"dealt as any other card)"))
            changed = True
    return changed


def _finish(definition: GameDefinition | None, diags: list[Diagnostic], low: _Recording,
            taking: _Taking) -> tuple[GameDefinition | None, list[Diagnostic]]:
    first_need: dict[Span, tuple[str, Need]] = {}
    for owner, need in low.needs:
        if owner in low.sym.cards and taking.why(need) is not None:
            first_need.setdefault(low.sym.cards[owner].span, (owner, need))
    out = []
    for d in diags:
        if d.code == "CS220" and d.span in first_need:
            name, need = first_need[d.span]
            d = warning("CS220", f"card {name!r} is left out: it needs {taking.why(need)}", d.span,
                        "a mixed-in card may come with its set's labels, types, attributes and effects, "
                        "never with its zones or counters")
        out.append(d)
    out.sort(key=lambda d: (d.span.file if d.span else "", d.span.line if d.span else 0,
                            d.span.column if d.span else 0, d.code))
    if any(d.severity == "error" for d in out):
        definition = None
    return definition, out

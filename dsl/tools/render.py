"""``cardscript render``: a card's rules text in English, generated from its script.

Game-agnostic: nothing here knows a game. Every phrase comes from the scripts or from
a generic rule of English:

* a call is written in its own words, with its arguments in place (``draw a card`` ->
  "Draw a card."); the verb agrees with its subject (``target foe draws a card``);
* a call with a block is a keyword ability: its words title-cased, a number in
  parentheses, then the block (``surge 2: draw a card`` -> "Surge (2): Draw a card.");
  when the effect's own definition runs the block once for each player of one of its
  parameters (``for each foe in T: ... B``), that argument moves into the block, where
  it stands for "they"/"them" (``attack target foe: they discard a card`` -> "Attack:
  Target foe discards a card.");
* ``choose CARDS: ... it ...`` and ``for each ...: they ...`` put the chosen cards or
  players in place of the first "it" / "they" (``choose the top card of your deck:
  reveal it`` -> "Reveal the top card of your deck.");
* a count as an amount reads "1 ... for each ..." (``+(count all cards you control with
  hero) power`` -> "+1 Power for each Hero you control"), another expression "equal to";
* names are printed as the game prints them: card names as declared, types, counters
  and shared zones title-cased (hyphens read as spaces), per-player zones in lower case.

The scripts may say how their words read on a card (see :func:`fill`):

* ``effect PATTERN printed "TEMPLATE":`` — a call of the effect is the template, each
  ``{PARAM}`` replaced by the rendered argument (``{B}``, the block parameter, by the
  block's clauses joined with ", then "); a subject still agrees with the first word;
* ``printed LABEL as "TEMPLATE"`` — an ability with that label is the template, ``{text}``
  replaced by the ability's own text: its sentences where ``{text}`` starts a sentence,
  else its statements as one clause list ("a, b, and c");
* a placeholder that names an attribute of the card being rendered is its value
  (``{cost}``: its cost);
* a sentence of a template whose block or text is empty is left out; "a" before a
  value that starts with a vowel reads "an".

:func:`render_program` gives a :class:`RenderedCard` per card; the gallery page and
print-and-play card faces are written by :mod:`cardscript.dsl.tools.render_html`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import EffectSig, Symbols, _flatten, collect, match_call
from cardscript.dsl.front.loader import Program

Phrase = Callable[[bool], str]  # a selector waiting to be rendered (argument: 'moving', for from/in)


@dataclass(frozen=True)
class RenderedCard:
    """A card as printed: name, types, attributes of its first printing, copies, and its
    rules text, one paragraph per ability or trigger."""

    name: str
    types: tuple[str, ...]
    attributes: dict[str, int | str]
    copies: int
    paragraphs: tuple[str, ...]
    faces: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return " ".join(self.paragraphs)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "types": list(self.types), "attributes": self.attributes,
                "copies": self.copies, "text": self.text, "paragraphs": list(self.paragraphs),
                "faces": list(self.faces)}


# ---------------------------------------------------------------- English helpers
def title(words: str) -> str:
    """'super power' -> 'Super Power', 'main-deck' -> 'Main Deck' (hyphens read as spaces)."""
    return " ".join(w[:1].upper() + w[1:] for w in words.replace("-", " ").split())


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def third_person(verb: str) -> str:
    """The verb after a singular subject: draw -> draws, reach -> reaches, carry -> carries."""
    if verb == "have":
        return "has"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def capitalise_sentences(text: str) -> str:
    """A capital after '. ' and ': ' ("Keyword: Draw a card. If you do, ...")."""
    return re.sub(r"([.!?:]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


def and_list(parts: list[str]) -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def quoted(text: str) -> str:
    return f"\u201c{text}\u201d"


def listed(parts: list[str]) -> str:
    """Clauses as one list: "a, b, and c"; "a, then you may b" when a later clause is optional."""
    parts = [p for p in parts if p]
    if any(_MAY.match(p) for p in parts[1:]):
        return ", then ".join(parts)
    return and_list(parts)


_MAY = re.compile(r"^(\S+ ){0,2}may ")
_PLACEHOLDER = re.compile(r"\{(\w[\w ]*)\}")
_PREPOSITIONS = {"to", "into", "of", "on", "at", "by", "from", "for", "with", "in", "under"}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class _Arg:
    """A template value: its text, words to add at the end of its sentence ('for each X'),
    or, for a computed number, the phrase that follows the noun it counts ('equal to X')."""

    text: str
    tail: str = ""
    equal: str = ""
    block: bool = False  # a block or an ability's text: its sentence is left out when empty


def _equal_to(sentence_text: str, placeholder: str, phrase: str) -> str:
    """'take {N} damage' -> 'take damage equal to X': the number leaves its place and the
    phrase follows the words after it (up to a preposition, a placeholder or punctuation)."""
    toks = sentence_text.split(" ")
    i = next((k for k, t in enumerate(toks) if t == placeholder), None)
    if i is None:
        return sentence_text.replace(placeholder, phrase)
    del toks[i]
    j = i
    while j < len(toks) and "{" not in toks[j] and toks[j].lower() not in _PREPOSITIONS:
        if toks[j][-1:] in ".,;:!?":
            toks[j] = f"{toks[j][:-1]} {phrase}{toks[j][-1]}"
            return " ".join(toks)
        j += 1
    toks.insert(j, phrase)
    return " ".join(toks)


def fill(template: str, values: dict[str, _Arg]) -> str:
    """A template with its placeholders replaced (see the module docstring). A placeholder
    with no value stays as written."""
    out = []
    for part in _SENTENCE_END.split(template.strip()):
        names = [n for n in _PLACEHOLDER.findall(part) if n in values]
        if any(values[n].block and not values[n].text.strip() for n in names):
            continue
        for n in names:
            v, ph = values[n], "{" + n + "}"
            if v.equal:
                part = _equal_to(part, ph, v.equal)
                continue
            if v.text and v.text[0].lower() in "aeiou":
                part = re.sub(r"\b([Aa]) (?=" + re.escape(ph) + ")", r"\1n ", part)
            part = part.replace(ph, v.text)
            if v.tail:
                end = len(part.rstrip(".!?"))
                part = f"{part[:end]} {v.tail}{part[end:]}"
        out.append(part)
    return " ".join(out)


# ---------------------------------------------------------------- rendering context
@dataclass
class _Holder:
    """A phrase standing for the first 'it' or 'they' of a block; ``used`` once taken."""

    phrase: Phrase | None = None
    singular: bool = True
    used: bool = False

    def take(self) -> Phrase | None:
        if self.phrase is None or self.used:
            return None
        self.used = True
        return self.phrase


@dataclass
class _Ctx:
    them: _Holder = field(default_factory=_Holder)
    it: _Holder = field(default_factory=_Holder)
    subject: A.PlayerSel | None = None  # a subject handed to the first statement (choose ...: X)
    may: bool = False
    top: bool = False  # a statement of an ability's own body (one sentence each)
    prev: Any = None  # the statement before this one in its body ('if you don't' after 'you may')


_OPS = {"==": "is", "!=": "is not", ">": "is more than", "<": "is less than", ">=": "is at least",
        "<=": "is at most"}
_PLURAL_PLAYERS = {"you", "them", "param"}


class Renderer:
    """Renders the cards of one program; built from its declarations (:func:`collect`)."""

    def __init__(self, program: Program):
        self.program = program
        self.sym: Symbols = collect(program.scripts)[0]
        self.names = self._names()
        self._bindings: dict[str, Any] = {}
        self._card: A.CardDef | None = None

    def _names(self) -> dict[str, str]:
        names = {t: title(t) for t in self.sym.types}
        names.update({c: title(c) for c in self.sym.counters})
        names.update({n.lower(): n for n in self.sym.cards})
        return names

    # ------------------------------------------------------------ cards
    def card(self, card: A.CardDef) -> RenderedCard:
        self._card = card
        parts: list[A.Ability | A.Trigger] = sorted([*card.abilities, *card.triggers],
                                                    key=lambda a: (a.span.line, a.span.column))
        paragraphs = [self.ability(a) if isinstance(a, A.Ability) else self.trigger(a) for a in parts]
        attrs: dict[str, int | str] = {n: a.default for n, a in self.sym.attributes.items()}
        attrs.update({n: v for n, v, _ in card.attrs})
        copies = sum(p.copies for p in card.printings) or 1
        return RenderedCard(card.name, tuple(w for w, _ in card.words), attrs, copies,
                            tuple(capitalise_sentences(p) for p in paragraphs if p), card.faces)

    def ability(self, ab: A.Ability) -> str:
        printed = self.sym.printed_labels.get(ab.label)
        if printed is not None:
            return self.labelled(printed.template, ab.body)
        body = self.sentences(ab.body, _Ctx())
        if ab.label == "play":
            return body
        return f"{title(ab.label)}: {body}" if body else f"{title(ab.label)}."

    def labelled(self, template: str, body: A.Body) -> str:
        """An ability through its label's printed template: ``{text}`` starting a sentence is
        the ability's sentences, inside one its statements as one clause list."""
        at = template.find("{text}")
        if at < 0:
            return sentence(fill(template, {}))
        before = template[:at].rstrip()
        if not before or before.endswith((".", "!", "?", ":")):
            text = self.sentences(body, _Ctx())
        else:
            text = listed(self.clauses(body, _Ctx()))
        return sentence(fill(template, {"text": _Arg(text, block=True)}))

    def trigger(self, tr: A.Trigger) -> str:
        ev = tr.event
        head = "the first time each turn" if ev.first_time else "when"
        clause = self.event(ev.name, ev.of_this_card)
        turn = " during your turn" if ev.your_turn else ""
        return sentence(f"{head} {clause}{turn}, {self.joined(tr.body, _Ctx(), ', then ')}")

    def event(self, name: str, of_this_card: bool) -> str:
        verbs = {s.name for s in self.sym.effects} | {"play", "move", "take", "reveal", "flip", "roll", "shuffle"}
        if name in verbs:
            return f"you {name} {'this card' if of_this_card else 'a card'}"
        if " " not in name and name.endswith("ed"):
            return f"{'this card is' if of_this_card else 'you are'} {name}"
        if name.split()[0].endswith("ed"):
            return f"you {name}"
        return f"{quoted(name)} happens" + (" to this card" if of_this_card else "")

    # ------------------------------------------------------------ bodies
    def sentences(self, body: A.Body, ctx: _Ctx) -> str:
        """A top-level body: one sentence per statement."""
        return " ".join(filter(None, (sentence(self.stmt(s, replace(self._nth(body, i, ctx), top=True)))
                                      for i, s in enumerate(body.stmts))))

    def clauses(self, body: A.Body, ctx: _Ctx) -> list[str]:
        return [c for i, s in enumerate(body.stmts) if (c := self.stmt(s, self._nth(body, i, ctx)))]

    def _nth(self, body: A.Body, i: int, ctx: _Ctx) -> _Ctx:
        """The context of a body's statement i: the first gets the handed-down subject."""
        return replace(ctx if i == 0 else self._rest(ctx), prev=body.stmts[i - 1] if i else None)

    def joined(self, body: A.Body, ctx: _Ctx, sep: str) -> str:
        return sep.join(self.clauses(body, ctx))

    @staticmethod
    def _rest(ctx: _Ctx) -> _Ctx:
        """The context of the statements after the first: the handed-down subject is used up."""
        return _Ctx(ctx.them, ctx.it)

    def stmt(self, s: Any, ctx: _Ctx) -> str:
        method = getattr(self, f"s_{type(s).__name__.lower()}", None)
        return method(s, ctx) if method else type(s).__name__.lower()

    # ------------------------------------------------------------ statements
    def s_nothing(self, s: A.Nothing, ctx: _Ctx) -> str:
        return ""

    def s_runblock(self, s: A.RunBlock, ctx: _Ctx) -> str:
        return s.name

    def s_if(self, s: A.If, ctx: _Ctx) -> str:
        if isinstance(s.cond, A.Did) and s.cond.negate and s.otherwise is None:
            # after 'you may X', "if you choose not to"; after a statement that is not
            # optional itself (a keyword that offers the choice), "otherwise"
            if not getattr(ctx.prev, "may", False):
                return f"otherwise, {and_list(self.clauses(s.then, ctx))}"
            who = self.source(s.cond.span).split(" ")[0] or "you"
            return f"if {who} choose not to, {and_list(self.clauses(s.then, ctx))}"
        text = f"if {self.cond(s.cond, ctx)}, {and_list(self.clauses(s.then, ctx))}"
        if s.otherwise is not None:
            text += ". " + sentence(f"otherwise, {and_list(self.clauses(s.otherwise, ctx))}")
        return text

    def s_otherwise(self, s: A.Otherwise, ctx: _Ctx) -> str:
        return f"otherwise, {and_list(self.clauses(s.body, ctx))}"

    def bound(self, body: A.Body, ctx: _Ctx, holder: _Holder, sep: str) -> str:
        """A body whose first statement takes the holder's phrase for its first 'it'/'they';
        the statements after it say 'it'/'they' as written."""
        first = self.stmt(body.stmts[0], ctx)
        holder.used = True
        rest = [self.stmt(s, self._nth(body, i, ctx)) for i, s in enumerate(body.stmts) if i]
        return sep.join(c for c in [first, *rest] if c)

    def s_forplayers(self, s: A.ForPlayers, ctx: _Ctx) -> str:
        sel = s.players
        who = self.players(sel, ctx) if sel.kind != "foe in" else f"each foe in {sel.param}"
        if s.body.stmts and _mentions(s.body.stmts[0], "them"):
            holder = _Holder(lambda _moving: who, True)
            return self.bound(s.body, _Ctx(holder, ctx.it), holder, ". ")
        return f"for {who}: {self.joined(s.body, _Ctx(_Holder(), ctx.it), ', then ')}"

    def s_forcards(self, s: A.ForCards, ctx: _Ctx) -> str:
        sel = s.cards
        if s.body.stmts and _mentions(s.body.stmts[0], "it"):
            holder = _Holder(lambda moving: self.each_of(sel, ctx, moving))
            return self.bound(s.body, _Ctx(ctx.them, holder), holder, ". " if ctx.top else ", then ")
        return f"for {self.each_of(sel, ctx, False)}: {self.joined(s.body, _Ctx(ctx.them), ', then ')}"

    def s_repeat(self, s: A.Repeat, ctx: _Ctx) -> str:
        times = "twice" if isinstance(s.times, A.Num) and s.times.value == 2 else f"{self.expr(s.times, ctx)} times"
        return f"{self.joined(s.body, ctx, ', then ')} {times}"

    def s_choose(self, s: A.Choose, ctx: _Ctx) -> str:
        """'choose CARDS: verb it ...' reads 'verb CARDS ...' when the first statement can
        carry the chooser ('you may', 'they') and says 'it'."""
        sel = s.cards

        def head() -> str:  # not before it is needed: it may take the 'they' of an enclosing 'for'
            return f"{self.who(s.subject, s.may, ctx, 'choose')} {self.cards(sel, ctx, False)}"

        if s.body is None or not s.body.stmts:
            return head()
        first = s.body.stmts[0]
        carries = (s.subject is None and not s.may) or (isinstance(first, A.Call) and first.subject is None
                                                        and not first.may and first.block is None)
        if carries and _mentions(first, "it"):
            holder = _Holder(lambda moving: self.cards(sel, ctx, moving))
            sep = ". " if ctx.top else ", then "  # an ability's own statement: one sentence each
            return self.bound(s.body, _Ctx(ctx.them, holder, s.subject, s.may), holder, sep)
        return f"{head()}: {self.joined(s.body, _Ctx(ctx.them), ', then ')}"

    def s_counteradd(self, s: A.CounterAdd, ctx: _Ctx) -> str:
        sign = "+" if s.sign > 0 else "-"
        amount, tail = self.amount(s.amount, ctx)
        text = f"{sign}{amount} {self.counter(s.counter)}{tail}"
        if s.player is not None:
            text += f" for {self.players(s.player, ctx)}"
        if s.cards is not None:
            text += f" on {self.cards(s.cards, ctx, False)}"
        return text

    def s_counterset(self, s: A.CounterSet, ctx: _Ctx) -> str:
        owner = {"you": "your ", "them": "their ", "shared": "the "}.get(s.owner, "")
        target = f"{owner}{self.counter(s.counter)}"
        if s.cards is not None:
            target = f"the {self.counter(s.counter)} of {self.cards(s.cards, ctx, False)}"
        return f"set {target} to {self.expr(s.value, ctx)}"

    def s_mark(self, s: A.Mark, ctx: _Ctx) -> str:
        target = self.target(s.target, ctx)
        turn = " this turn" if s.this_turn else ""
        if s.unmark:
            return f"remove the mark {quoted(s.mark)} from {target}{turn}"
        return f"mark {target} {quoted(s.mark)}{turn}"

    def s_resolve(self, s: A.Resolve, ctx: _Ctx) -> str:
        card = s.card if isinstance(s.card, str) else self.cards(s.card, ctx, False)
        who = f" for {self.players(s.player, ctx)}" if s.player is not None else ""
        return f"resolve the {title(s.label)} ability of {card}{who}"

    def s_emit(self, s: A.Emit, ctx: _Ctx) -> str:
        who = f" for {self.players(s.player, ctx)}" if s.player is not None else ""
        return f"{quoted(s.event)} happens{who}"

    def s_endgame(self, s: A.EndGame, ctx: _Ctx) -> str:
        return f"the game ends ({s.reason})" if s.reason else "the game ends"

    def s_let(self, s: A.Let, ctx: _Ctx) -> str:
        return f"let {s.name} be {self.expr(s.value, ctx)}"

    # ------------------------------------------------------------ calls
    def s_call(self, c: A.Call, ctx: _Ctx) -> str:
        match, _ = match_call(c, self.sym, {})
        subject, may = (c.subject, c.may) if c.subject is not None or c.may else (ctx.subject, ctx.may)
        template = _printed(match)
        if template:
            return self.templated(c, match, ctx, template, subject, may)
        if c.block is not None:
            return self.keyword(c, match, ctx)
        words = self.call_words(c, match, ctx)
        verb, rest = words[0], words[1:]
        return " ".join([self.who(subject, may, ctx, verb)] + rest)

    def who(self, subject: A.PlayerSel | None, may: bool, ctx: _Ctx, verb: str) -> str:
        """Subject, 'may' and the verb, agreeing: 'draw', 'you may draw', 'target foe draws'."""
        if subject is None:
            return f"you may {verb}" if may else verb
        singular = subject.kind not in _PLURAL_PLAYERS
        if subject.kind == "them" and ctx.them.phrase is not None and not ctx.them.used:
            singular = ctx.them.singular
        name = self.players(subject, ctx)
        name = "they" if name == "them" else name
        if may:
            return f"{name} may {verb}"
        return f"{name} {third_person(verb) if singular else verb}"

    def call_words(self, c: A.Call, match: Any, ctx: _Ctx) -> list[str]:
        """The words of a call, arguments rendered, the verb first in its base form. A count
        goes to the end ('deal 1 damage to each foe for each X'), another computed number
        after the noun it counts ('take damage equal to its cost')."""
        moving = any(isinstance(i, A.ZoneArg) for i in c.items)
        out, tail, pending = [self.verb(c, match)], [], ""
        for item in c.items[1:]:
            if pending and not isinstance(item, A.Word):
                out.append(pending)
                pending = ""
            if isinstance(item, A.NumArg) and isinstance(item.expr, (A.Count, A.CountTypes)):
                amount, more = self.amount(item.expr, ctx)
                out.append(amount)
                tail.append(more.strip())
            elif isinstance(item, A.NumArg) and not isinstance(item.expr, (A.Num, A.Param)):
                pending = f"equal to {self.expr(item.expr, ctx)}"
            else:
                out.extend(self.item_words(item, match, ctx, moving))
        return self.capitalise_names(out + ([pending] if pending else [])) + tail

    def item_words(self, item: Any, match: Any, ctx: _Ctx, moving: bool) -> list[str]:
        if isinstance(item, A.Word):
            return [item.text]
        if isinstance(item, A.CardsArg) and not item.sel.control and (flat := _flatten(item.sel)) is not None:
            return [t[1] if t[0] == "w" else self.expr(t[1], ctx) for t in flat]  # 'a spark': words of a pattern
        return [self.arg(item, match, ctx, moving)]

    def verb(self, c: A.Call, match: Any) -> str:
        first = match.sig.tokens[0] if match is not None and match.sig.tokens else None
        return first[1] if first is not None and first[0] == "w" else c.items[0].text  # type: ignore[union-attr]

    def arg(self, item: Any, match: Any, ctx: _Ctx, moving: bool) -> str:
        if isinstance(item, A.NumArg):
            return self.expr(item.expr, ctx)
        if isinstance(item, A.StrArg):
            return self.names.get(item.text.lower(), quoted(item.text))
        if isinstance(item, A.ParamArg):
            return item.name
        if isinstance(item, A.PlayersArg):
            return self.players(item.sel, ctx)
        if isinstance(item, A.CardsArg):
            return self.cards(item.sel, ctx, moving)
        if isinstance(item, A.ZoneArg):
            return self.zone(item.zone, ctx)
        return getattr(item, "text", "")

    def capitalise_names(self, words: list[str]) -> list[str]:
        """Words that spell a card, type or counter name, printed as the game prints it."""
        out: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(4, len(words) - i), 0, -1):
                key = " ".join(words[i:i + n])
                if key in self.names:
                    out.append(self.names[key])
                    i += n
                    break
            else:
                out.append(words[i])
                i += 1
        return out

    def keyword(self, c: A.Call, match: Any, ctx: _Ctx) -> str:
        """'surge 2: draw a card' -> 'Surge (2): Draw a card' (see the module docstring)."""
        them, drop = self.block_subject(c, match, ctx)
        inner = _Ctx(them or ctx.them, ctx.it)
        body = self.joined(c.block, inner, ", then ")  # type: ignore[arg-type]
        if them is None or not inner.them.used:
            drop = None
        head = []
        for item in c.items:
            if item is drop:
                continue
            if isinstance(item, A.Word):
                head.append(title(item.text))
            elif isinstance(item, A.NumArg):
                head.append(f"({self.expr(item.expr, ctx)})")
            else:
                head.append(self.arg(item, match, ctx, False))
        prefix = self.who(c.subject, c.may, ctx, "").strip() if c.subject is not None or c.may else ""
        text = " ".join(head) + ": " + sentence(body).rstrip(".")
        return f"{prefix} {text}" if prefix else text

    def templated(self, c: A.Call, match: Any, ctx: _Ctx, template: str, subject: A.PlayerSel | None,
                  may: bool) -> str:
        """A call through its effect's printed template. The block is rendered first, as for
        a keyword: the players it runs for stand in its "they" unless the template names them."""
        moving = any(isinstance(i, A.ZoneArg) for i in c.items)
        values: dict[str, _Arg] = {}
        held = ""
        if c.block is not None:
            them = None
            binding = self.binding(match.sig)
            if binding is not None and binding[0] == "sel":
                them = self._players_holder(binding[1], ctx)
            elif binding is not None and "{" + binding[1] + "}" not in template:
                for name, _kind, tok in match.bound:
                    if name == binding[1] and tok is not None and tok[0] == "players":
                        them, held = self._players_holder(tok[1], ctx), name
            block = self.joined(c.block, _Ctx(them or ctx.them, ctx.it), ", then ")
            values[match.sig.params[-1][0]] = _Arg(block, block=True)
        for name, _kind, tok in match.bound:
            if tok is not None and name != held:
                values[name] = self.template_arg(tok, ctx, moving)
        values.update(self.attributes(template, values))
        text = fill(template, values)
        if c.block is not None:
            prefix = self.who(c.subject, c.may, ctx, "").strip() if c.subject is not None or c.may else ""
            return f"{prefix} {text}" if prefix else text
        if subject is None and not may:
            return text
        verb, _, rest = text.partition(" ")
        return " ".join(filter(None, [self.who(subject, may, ctx, verb), rest]))

    def attributes(self, template: str, taken: dict[str, _Arg]) -> dict[str, _Arg]:
        """Placeholders that name an attribute of the card being rendered, with its value
        (a card's name as the card is named)."""
        out: dict[str, _Arg] = {}
        card = self._card
        for name in _PLACEHOLDER.findall(template):
            if name in taken or name not in self.sym.attributes or card is None:
                continue
            value: int | str = self.sym.attributes[name].default
            value = next((v for n, v, _ in card.attrs if n == name), value)
            out[name] = _Arg(self.names.get(value.lower(), value) if isinstance(value, str) else str(value))
        return out

    def template_arg(self, tok: tuple[Any, ...], ctx: _Ctx, moving: bool) -> _Arg:
        """A call argument as a template value (a count reads '1 ... for each X')."""
        kind, value = tok[0], tok[1]
        if kind == "num":
            if isinstance(value, (A.Count, A.CountTypes)):
                amount, more = self.amount(value, ctx)
                return _Arg(amount, tail=more.strip())
            if isinstance(value, (A.Num, A.Param)):
                return _Arg(self.expr(value, ctx))
            return _Arg("", equal=f"equal to {self.expr(value, ctx)}")
        if kind == "players":
            return _Arg(self.players(value, ctx))
        if kind == "cards":
            return _Arg(self.cards(value, ctx, moving))
        if kind == "zone":
            return _Arg(self.zone(value, ctx))
        if kind == "str":
            return _Arg(self.names.get(value.lower(), quoted(value)))
        return _Arg(str(value))

    def block_subject(self, c: A.Call, match: Any, ctx: _Ctx) -> tuple[_Holder | None, Any]:
        """Who 'they' are in a keyword's block, and the call argument that says so."""
        if match is None:
            return None, None
        binding = self.binding(match.sig)
        if binding is None:
            return None, None
        kind, value = binding
        if kind == "sel":
            return self._players_holder(value, ctx), None
        for name, _kind, tok in match.bound:
            if name == value and tok is not None and tok[0] == "players":
                return self._players_holder(tok[1], ctx), tok[2]
        return None, None

    def _players_holder(self, sel: A.PlayerSel, ctx: _Ctx) -> _Holder:
        def phrase(_moving: bool) -> str:
            return self.players(sel, ctx)

        return _Holder(phrase, sel.kind not in _PLURAL_PLAYERS)

    def binding(self, sig: EffectSig) -> tuple[str, Any] | None:
        """('param', T) when the effect runs its block for each player of parameter T,
        ('sel', PLAYERS) for fixed players, None otherwise (or when it varies)."""
        if sig.defn is None or not sig.has_block:
            return None
        if sig.key in self._bindings:
            return self._bindings[sig.key]  # type: ignore[no-any-return]
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
        inner = self.binding(match.sig) if match is not None else None
        if inner is None or inner[0] == "sel":
            return inner
        for name, _kind, tok in match.bound:  # type: ignore[union-attr]
            if name == inner[1] and tok is not None:
                if tok[0] == "players":
                    return ("sel", tok[1])
                if tok[0] == "param":
                    return ("param", tok[1])
        return None

    # ------------------------------------------------------------ selectors
    def players(self, sel: A.PlayerSel, ctx: _Ctx) -> str:
        if sel.kind == "them":
            phrase = ctx.them.take()
            return phrase(False) if phrase else "them"
        base = {"you": "you", "target foe": "target foe", "each foe": "each foe", "each player": "each player",
                "left": "the foe to your left", "right": "the foe to your right", "param": sel.param,
                "foe in": f"each foe in {sel.param}"}.get(sel.kind, sel.kind)
        marks = [f"{'not ' if f.negate else ''}marked {quoted(f.mark)}{' this turn' if f.this_turn else ''}"
                 for f in sel.filters]
        return " ".join([base, and_list(marks)]).strip()

    def target(self, t: Any, ctx: _Ctx) -> str:
        return self.players(t, ctx) if isinstance(t, A.PlayerSel) else self.cards(t, ctx, False)

    def counter(self, name: str) -> str:
        return self.names.get(name, title(name))

    def zone_name(self, name: str) -> str:
        if name in self.sym.counters:
            return self.counter(name)
        decl = self.sym.zones.get(name)
        return name.replace("-", " ") if decl is not None and decl.per_player else title(name)

    def zone(self, z: A.ZoneRef, ctx: _Ctx) -> str:
        name = self.zone_name(z.name)
        if z.owner == "you":
            return f"your {name}"
        if z.owner == "them":
            return f"their {name}"
        if z.owner == "of" and z.player is not None:
            return f"the {name} of {self.players(z.player, ctx)}"
        if z.owner == "card" and z.card is not None:
            return f"the {name} of {self.cards(z.card, ctx, False)}"
        if z.owner == "owner":
            return f"its owner's {name}"
        if z.owner == "home":
            return "its home"
        return f"the {name}"

    def noun(self, sel: A.CardSel, plural: bool) -> str:
        """What kind of card: 'card', 'Hero', 'Defense card' (labels and keywords qualify 'card')."""
        kinds = [t for t in sel.types] + [w for f in sel.filters if f.kind in ("has", "has_param") for w in f.words]
        types = [k for k in kinds if k in self.sym.types]
        others = [k for k in kinds if k not in self.sym.types]
        word = "cards" if plural else "card"
        if types and not others:
            names = " or ".join(self.names.get(t, title(t)) for t in types)
            return f"{names} {word}" if plural else names
        quals = " or ".join(self.names.get(k, title(k)) for k in others + types)
        return f"{quals} {word}".strip()

    def cards(self, sel: A.CardSel, ctx: _Ctx, moving: bool) -> str:
        if sel.kind == "this":
            return "this card"
        if sel.kind == "it":
            phrase = ctx.it.take()
            return phrase(moving) if phrase else "it"
        if sel.kind in ("top", "bottom"):
            n = sel.count.value if isinstance(sel.count, A.Num) else 1
            what = "card" if n == 1 else f"{n} cards"
            return f"the {sel.kind} {what} of {self.zone(sel.zones[0], ctx)}"
        head = self.quantity(sel, ctx)
        pre, post = self.filters(sel, ctx)
        return " ".join(filter(None, [head, pre, self.place(sel, ctx, moving), post]))

    def quantity(self, sel: A.CardSel, ctx: _Ctx) -> str:
        q = sel.quantity
        count = self.expr(sel.count, ctx) if sel.count is not None else ""
        if sel.name:
            return f"{count} {sel.name}" if q == "n" else f"all {sel.name}"
        plural = q in ("all", "up to", "random n") or (q == "n" and count != "1")
        noun = self.noun(sel, plural)
        return {"one": article(noun), "random": article("random " + noun), "all": f"all {noun}",
                "each": f"each {noun}", "up to": f"up to {count} {noun}", "n": f"{count} {noun}",
                "random n": f"{count} random {noun}"}.get(q, noun)

    def place(self, sel: A.CardSel, ctx: _Ctx, moving: bool) -> str:
        if sel.zones:
            one = sel.quantity in ("one", "random", "up to") or (sel.quantity == "n" and _is_one(sel.count))
            joiner = " or " if one else " and "  # one card: from one place or another
            where = "from " if moving else "in "
            if moving or not any(self.controlled(z) for z in sel.zones):
                return where + joiner.join(self.zone(z, ctx) for z in sel.zones)
            # your play zone reads "you control": 'you control and in your discard'
            return joiner.join("you control" if self.controlled(z) else where + self.zone(z, ctx) for z in sel.zones)
        if sel.in_param:
            return f"in {sel.in_param}"
        if sel.played:
            return "you played this turn"
        if sel.control:
            return "you control"
        return ""

    def controlled(self, z: A.ZoneRef) -> bool:
        """Your play zone: the cards in it are the cards you control."""
        decl = self.sym.zones.get(z.name)
        return z.owner == "you" and decl is not None and decl.play_zone

    def filters(self, sel: A.CardSel, ctx: _Ctx) -> tuple[str, str]:
        """The filters of a selector: those read "with ATTR N or less" go before its place
        ('a card with cost 4 or less from your discard'), the others after it."""
        pre: list[str] = []
        post: list[str] = []
        for f in sel.filters:
            if f.kind == "has_not":
                post.append("without " + " or ".join(self.names.get(w, title(w)) for w in f.words))
            elif f.kind == "where":
                text = self.where(f.cond, ctx)
                (pre if text.startswith("with ") else post).append(text)
        return " ".join(pre), " ".join(post)

    def where(self, cond: Any, ctx: _Ctx) -> str:
        """'where cost of it <= 4' -> 'with cost 4 or less'; other conditions as they are."""
        if isinstance(cond, A.Compare) and isinstance(cond.left, A.AttrOf) and cond.left.card.kind == "it" \
                and isinstance(cond.right, A.Num):
            bound = {"<=": " or less", ">=": " or more", "==": ""}.get(cond.op)
            if bound is not None:
                return f"with {cond.left.attr} {cond.right.value}{bound}"
        return f"where {self.cond(cond, _Ctx(ctx.them))}"

    def each_of(self, sel: A.CardSel, ctx: _Ctx, moving: bool) -> str:
        text = self.cards(sel, ctx, moving)
        return f"each of {text}" if text.startswith("the ") else re.sub(r"^all ", "each ", text)

    def singular(self, sel: A.CardSel, ctx: _Ctx) -> str:
        """'all cards in your hand with hero' -> 'Hero in your hand' (after 'for each')."""
        if sel.kind != "pick" or sel.name:
            return self.cards(sel, ctx, False)
        pre, post = self.filters(sel, ctx)
        return " ".join(filter(None, [self.noun(sel, False), pre, self.place(sel, ctx, False), post]))

    # ------------------------------------------------------------ expressions and conditions
    def amount(self, e: Any, ctx: _Ctx) -> tuple[str, str]:
        """An amount and what follows the noun: (count X) -> ('1', ' for each X')."""
        if isinstance(e, A.Count):
            return "1", f" for each {self.singular(e.cards, ctx)}"
        if isinstance(e, A.CountTypes):
            among = re.sub(r"^all ", "", self.cards(e.cards, ctx, False))
            return "1", f" for each different card type among {among}"
        if isinstance(e, (A.Num, A.Param)):
            return self.expr(e, ctx), ""
        return "X", f", where X is {self.expr(e, ctx)}"

    def expr(self, e: Any, ctx: _Ctx) -> str:
        if isinstance(e, A.Num):
            return str(e.value)
        if isinstance(e, A.Param):
            return e.name
        if isinstance(e, A.Count):
            return f"the number of {re.sub(r'^all ', '', self.cards(e.cards, ctx, False))}"
        if isinstance(e, A.CountPlayers):
            return "the number of players"
        if isinstance(e, A.CountTypes):
            return f"the number of different card types among {re.sub(r'^all ', '', self.cards(e.cards, ctx, False))}"
        if isinstance(e, A.SumAttr):
            return f"the total {e.attr} of {self.cards(e.cards, ctx, False)}"
        if isinstance(e, A.Highest):
            among = f" among {self.players(e.players, ctx)}" if e.players is not None else ""
            return f"the highest {re.sub(r'^the ', '', self.expr(e.expr, ctx))}{among}"
        if isinstance(e, A.MinMax):
            word = "greater" if e.op == "max" else "lesser"
            return f"the {word} of {self.expr(e.left, ctx)} and {self.expr(e.right, ctx)}"
        if isinstance(e, A.AttrOf):
            return self.attr_of(e.attr, e.card, ctx)
        if isinstance(e, A.CounterOf):
            owner = {"you": "your ", "them": "their ", "shared": "the "}.get(e.owner, "")
            if e.cards is not None:
                return f"the {self.counter(e.name)} of {self.cards(e.cards, ctx, False)}"
            return f"{owner}{self.counter(e.name)}"
        if isinstance(e, A.BinOp):
            return f"{self.expr(e.left, ctx)} {e.op} {self.expr(e.right, ctx)}"
        return type(e).__name__.lower()

    def attr_of(self, attr: str, card: A.CardSel, ctx: _Ctx) -> str:
        if card.kind == "it" and (ctx.it.phrase is None or ctx.it.used):
            return f"its {attr}"
        if card.kind == "this":
            return f"this card's {attr}"
        return f"the {attr} of {self.cards(card, ctx, False)}"

    def cond(self, c: Any, ctx: _Ctx) -> str:
        method = getattr(self, f"c_{type(c).__name__.lower()}", None)
        return method(c, ctx) if method else type(c).__name__.lower()

    def c_compare(self, c: A.Compare, ctx: _Ctx) -> str:
        left, right = self.expr(c.left, ctx), self.expr(c.right, ctx)
        if isinstance(c.right, A.Num) and c.op in (">=", "<="):
            return f"{left} is {right} or {'more' if c.op == '>=' else 'less'}"
        return f"{left} {_OPS.get(c.op, c.op)} {right}"

    def c_is(self, c: A.Is, ctx: _Ctx) -> str:
        subj = c.subject
        who = self.target(subj, ctx)
        verb = "are" if isinstance(subj, A.PlayerSel) and subj.kind in ("you", "them") and who in ("you", "them") \
            else "is"
        who = "they" if who == "them" else who
        turn = " this turn" if c.this_turn else ""
        pred = {"marked": f"marked {quoted(c.mark)}{turn}", "not marked": f"not marked {quoted(c.mark)}{turn}",
                "showing": f"showing {quoted(c.mark)}"}.get(c.pred, c.pred)
        return f"{who} {verb} {pred}"

    def c_anymarked(self, c: A.AnyMarked, ctx: _Ctx) -> str:
        return f"any foe is marked {quoted(c.mark)}{' this turn' if c.this_turn else ''}"

    def c_did(self, c: A.Did, ctx: _Ctx) -> str:
        who = self.source(c.span).split(" ")[0] or "you"
        return f"{who} {'don' + chr(39) + 't' if c.negate else 'do'}"

    def c_zoneempty(self, c: A.ZoneEmpty, ctx: _Ctx) -> str:
        return f"{self.zone(c.zone, ctx)} is empty"

    def c_has(self, c: A.Has, ctx: _Ctx) -> str:
        return f"{self.cards(c.card, ctx, False)} has {self.names.get(c.words, title(c.words))}"

    def c_hashome(self, c: A.HasHome, ctx: _Ctx) -> str:
        return f"{self.cards(c.card, ctx, False)} has a home"

    def c_boolop(self, c: A.BoolOp, ctx: _Ctx) -> str:
        if c.op == "not":
            inner = c.args[0]
            if isinstance(inner, A.ZoneEmpty):
                return f"{self.zone(inner.zone, ctx)} is not empty"
            return f"not {self.cond(inner, ctx)}"
        return f" {c.op} ".join(self.cond(a, ctx) for a in c.args)

    def c_emitted(self, c: A.Emitted, ctx: _Ctx) -> str:
        who = f" for {self.players(c.player, ctx)}" if c.player is not None else ""
        return f"{quoted(c.event)} happened{who} this turn"

    def source(self, span: Any) -> str:
        """The script text of a span on one line (for words the AST does not keep)."""
        lines = self.program.sources.get(span.file, "").splitlines()
        if not 0 < span.line <= len(lines):
            return ""
        line = lines[span.line - 1]
        end = span.end_column - 1 if span.end_line == span.line else len(line)
        return line[span.column - 1:end]


def _mentions(node: Any, what: str) -> bool:
    """Whether a statement says 'it' (what='it') or 'they'/'them' (what='them') of the
    enclosing binding; nested bindings ('choose ...:', 'for ...:', 'where ...') are skipped."""
    if isinstance(node, A.CardSel) and what == "it" and node.kind == "it":
        return True
    if isinstance(node, A.PlayerSel) and what == "them" and node.kind == "them":
        return True
    if isinstance(node, A.CardFilter) and what == "it" and node.kind == "where":
        return False
    if isinstance(node, (tuple, list)):
        return any(_mentions(x, what) for x in node)
    if not isinstance(node, A.Node):
        return False
    rebinds = (A.Choose, A.ForCards) if what == "it" else (A.ForPlayers,)
    fields = [f for f in node._fields if not (isinstance(node, rebinds) and f in ("body", "block"))]
    return any(_mentions(getattr(node, f), what) for f in fields)


def _printed(match: Any) -> str:
    """The printed template of a matched call's effect ('' for none, or for a built-in)."""
    sig: EffectSig | None = match.sig if match is not None else None
    return sig.defn.printed if sig is not None and sig.defn is not None else ""


def _runs_only(body: A.Body, block: str) -> bool:
    return len(body.stmts) == 1 and isinstance(body.stmts[0], A.RunBlock) and body.stmts[0].name == block


def _is_one(e: Any) -> bool:
    return isinstance(e, A.Num) and e.value == 1


def _bodies(s: Any) -> list[A.Body]:
    out = [getattr(s, f, None) for f in ("then", "otherwise", "body", "block")]
    return [b for b in out if isinstance(b, A.Body)]


# ---------------------------------------------------------------- entry points
def render_program(program: Program) -> list[RenderedCard]:
    """Every card of a program (in declaration order), with its rules text."""
    r = Renderer(program)
    return [r.card(c) for c in r.sym.cards.values()]


def load(target: str) -> Program:
    """The program of a GAME argument: a built-in game, a folder or a script; a folder
    without a game header is read as a library (every script in it).

    Raises:
        CompileError: unknown game, missing file, syntax errors.
    """
    from cardscript.dsl.diagnostics import CompileError
    from cardscript.dsl.front.loader import SCRIPT_SUFFIXES, load_program, resolve_game

    p = Path(target)
    if p.is_dir():
        scripts = sorted(f for f in p.iterdir() if f.suffix in SCRIPT_SUFFIXES and f.suffix != ".scenario")
        try:
            return load_program(resolve_game(target))
        except CompileError:
            if not scripts:
                raise
            return load_program(scripts[0], scripts[1:])
    return load_program(resolve_game(target))


def defaults(program: Program) -> dict[str, Any]:
    """The declared attributes' default values (a card shows only the ones it changes)."""
    sym = collect(program.scripts)[0]
    return {n: a.default for n, a in sym.attributes.items()}


def game_name(program: Program, fallback: str) -> str:
    sym = collect(program.scripts)[0]
    return sym.header.name if sym.header is not None else fallback


_PAGES = ("gallery_html", "card_svg", "slug", "write_html", "write_svg")


def __getattr__(name: str) -> Any:
    """The gallery and card faces live in :mod:`cardscript.dsl.tools.render_html` (loaded when first asked for)."""
    if name in _PAGES:
        from cardscript.dsl.tools import render_html

        return getattr(render_html, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Noun phrases and conditions in words: players, cards, zones, counters, amounts,
expressions and conditions (``target foe``, ``a Hero card from your discard``, ``the
number of cards in your hand``, ``your Power is 3 or more``), and a subject agreeing
with its verb.

:class:`Ctx` is what a statement is rendered in: the :class:`Holder` phrases that stand
for the first "it" / "they" of a block (``choose ...: reveal it`` -> "Reveal the top card
of your deck"), a subject handed down, and where the statement stands. :class:`Phrases`
is the base of the renderer (:mod:`cardscript.dsl.tools.render.statements` renders
bodies with it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Symbols, collect
from cardscript.dsl.front.loader import Program
from cardscript.dsl.tools.render.english import and_list, article, quoted, third_person, title
from cardscript.dsl.tools.render.english import plural as english_plural
from cardscript.dsl.tools.render.templates import Arg, fill

Phrase = Callable[[bool], str]  # a selector waiting to be rendered (argument: 'moving', for from/in)


@dataclass
class Holder:
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
class Ctx:
    """What a statement is rendered in (see the module docstring)."""

    them: Holder = field(default_factory=Holder)
    it: Holder = field(default_factory=Holder)
    subject: A.PlayerSel | None = None  # a subject handed to the first statement (choose ...: X)
    may: bool = False
    top: bool = False  # a statement of an ability's own body (one sentence each)
    prev: Any = None  # the statement before this one in its body ('if you don't' after 'you may')


_OPS = {"==": "is", "!=": "is not", ">": "is more than", "<": "is less than", ">=": "is at least",
        "<=": "is at most"}
PLURAL_PLAYERS = {"you", "them", "param"}
_ARITH = {"+": "plus", "-": "minus", "*": "times"}


class Phrases:
    """The words of one program's selectors, expressions and conditions; built from its
    declarations (:func:`collect`)."""

    def __init__(self, program: Program):
        self.program = program
        self.sym: Symbols = collect(program.scripts)[0]
        self.names = self._names()
        #: While a call is rendered: the clauses that go at the end of its sentence (", where X is ...").
        self.tails: list[str] | None = None

    def _names(self) -> dict[str, str]:
        names = {t: title(t) for t in self.sym.types}
        names.update({c: title(c) for c in self.sym.counters})
        names.update({n.lower(): n for n in self.sym.cards})
        return names

    # ------------------------------------------------------------ subjects
    def who(self, subject: A.PlayerSel | None, may: bool, ctx: Ctx, verb: str) -> str:
        """Subject, 'may' and the verb, agreeing: 'draw', 'you may draw', 'target foe draws'."""
        if subject is None:
            return f"you may {verb}" if may else verb
        singular = subject.kind not in PLURAL_PLAYERS
        if subject.kind == "them" and ctx.them.phrase is not None and not ctx.them.used:
            singular = ctx.them.singular
        name = self.players(subject, ctx)
        name = "they" if name == "them" else name
        if may:
            return f"{name} may {verb}"
        return f"{name} {third_person(verb) if singular else verb}"

    # ------------------------------------------------------------ selectors
    def players(self, sel: A.PlayerSel, ctx: Ctx) -> str:
        if sel.kind == "them":
            phrase = ctx.them.take()
            return phrase(False) if phrase else "them"
        base = {"you": "you", "target foe": "target foe", "each foe": "each foe", "each player": "each player",
                "left": "the foe to your left", "right": "the foe to your right", "param": sel.param,
                "their left": "the player on their left", "their right": "the player on their right",
                "foe in": f"each foe in {sel.param}"}.get(sel.kind, sel.kind)
        marks = [f"{'not ' if f.negate else ''}marked {quoted(f.mark)}{' this turn' if f.this_turn else ''}"
                 for f in sel.filters]
        return " ".join([base, and_list(marks)]).strip()

    def target(self, t: Any, ctx: Ctx) -> str:
        return self.players(t, ctx) if isinstance(t, A.PlayerSel) else self.cards(t, ctx, False)

    def counter(self, name: str) -> str:
        return self.names.get(name, title(name))

    def event_form(self, printed: A.PrintedForm, of_this_card: bool) -> str:
        """An event through its printed form (``printed event "NAME" as "TEMPLATE"``): the
        clause after "when", ``{C}`` "this card" for a trigger 'of this card', else "a card"."""
        return fill(printed.template, {"C": Arg("this card" if of_this_card else "a card")})

    def zone_name(self, name: str) -> str:
        """How zone ``name`` reads on a card: its printed form (``printed zone NAME as
        "TEXT"``), else a per-player zone's name in words ("discard"), a shared one's in
        title case ("Line Up")."""
        if name in self.sym.counters:
            return self.counter(name)
        printed = self.sym.printed_zones.get(name)
        if printed is not None:
            return printed.template
        decl = self.sym.zones.get(name)
        return name.replace("-", " ") if decl is not None and decl.per_player else title(name)

    def zone(self, z: A.ZoneRef | A.CardSel, ctx: Ctx) -> str:
        if isinstance(z, A.CardSel):  # a selector's place 'from the top 3 cards of your deck'
            return self.cards(z, ctx, False)
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
            if plural:  # a type's printed plural ("Locations"; an uncountable noun stays as it is)
                return " or ".join(english_plural(self.names.get(t, title(t))) for t in types)
            return " or ".join(self.names.get(t, title(t)) for t in types)
        quals = " or ".join(self.names.get(k, title(k)) for k in others + types)
        return f"{quals} {word}".strip()

    def cards(self, sel: A.CardSel, ctx: Ctx, moving: bool) -> str:
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
        text = " ".join(filter(None, [head, pre, self.place(sel, ctx, moving), post]))
        if sel.quantity == "up to" and sel.count is not None and not isinstance(sel.count, (A.Num, A.Param)):
            where = f", where X is {self.expr(sel.count, ctx)}"  # a computed count: "up to X cards ..."
            if self.tails is not None:
                self.tails.append(where)  # the call puts it at the end of its sentence
            else:
                text += where
        return text

    def quantity(self, sel: A.CardSel, ctx: Ctx) -> str:
        q = sel.quantity
        count = self.expr(sel.count, ctx) if sel.count is not None else ""
        if q == "up to" and sel.count is not None and not isinstance(sel.count, (A.Num, A.Param)):
            count = "X"
        if sel.name:
            return f"{count} {sel.name}" if q == "n" else f"all {sel.name}"
        plural = q in ("all", "up to", "random n") or (q == "n" and count != "1")
        noun = self.noun(sel, plural)
        if q == "up to" and isinstance(sel.count, A.Num) and sel.count.value == A.ANY_NUMBER:
            return f"any number of {noun}"
        return {"one": article(noun), "random": article("random " + noun), "all": f"all {noun}",
                "each": f"each {noun}", "up to": f"up to {count} {noun}", "n": f"{count} {noun}",
                "random n": f"{count} random {noun}"}.get(q, noun)

    def place(self, sel: A.CardSel, ctx: Ctx, moving: bool) -> str:
        if sel.zones:
            one = sel.quantity in ("one", "random", "up to") or (sel.quantity == "n" and _is_one(sel.count))
            joiner = " or " if one else " and "  # one card: from one place or another
            where = "from " if moving else "in "
            if any(isinstance(z, A.CardSel) for z in sel.zones):  # "from among the top 3 cards of your deck"
                return where + "among " + joiner.join(self.zone(z, ctx) for z in sel.zones)
            if moving or not any(self.controlled(z) for z in sel.zones):
                zones = [self.zone(z, ctx) for z in sel.zones]
                owners = {z.owner for z in sel.zones if isinstance(z, A.ZoneRef)}  # every one is, here
                owner = owners.pop() if len(owners) == 1 else ""
                if len(zones) > 1 and owner in ("you", "them"):
                    # one possessive for the list, as cards print it: "your hand or discard pile"
                    mine = "your " if owner == "you" else "their "
                    zones = [zones[0]] + [z.removeprefix(mine) for z in zones[1:]]
                return where + joiner.join(zones)
            # your play zone reads "you control": 'you control and in your discard'
            return joiner.join("you control" if self.controlled(z) else where + self.zone(z, ctx) for z in sel.zones)
        if sel.in_param:
            return f"in {sel.in_param}"
        if sel.played:
            return "you played this turn"
        if sel.control:
            return "you control"
        if sel.gained:
            return "you gained this turn"
        return ""

    def controlled(self, z: A.ZoneRef | A.CardSel) -> bool:
        """Your play zone: the cards in it are the cards you control."""
        if isinstance(z, A.CardSel):  # 'from the top 3 cards of your deck'
            return False
        decl = self.sym.zones.get(z.name)
        return z.owner == "you" and decl is not None and decl.play_zone

    def filters(self, sel: A.CardSel, ctx: Ctx) -> tuple[str, str]:
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
            elif f.kind == "other_name" and f.card is not None:
                post.append(f"with a different name from {self.cards(f.card, ctx, False)}")
        return " ".join(pre), " ".join(post)

    def where(self, cond: Any, ctx: Ctx) -> str:
        """'where cost of it <= 4' -> 'with cost 4 or less'; other conditions as they are."""
        if isinstance(cond, A.Compare) and isinstance(cond.left, A.AttrOf) and cond.left.card.kind == "it" \
                and isinstance(cond.right, A.Num):
            bound = {"<=": " or less", ">=": " or more", "==": ""}.get(cond.op)
            if bound is not None:
                return f"with {cond.left.attr} {cond.right.value}{bound}"
        if isinstance(cond, A.Is) and cond.pred == "not this" and isinstance(cond.subject, A.CardSel) \
                and cond.subject.kind == "it":
            return "other than this card"
        span = _between(cond)
        if span is not None:  # 'cost of it >= 2 and cost of it <= 3': "with cost 2 or 3"
            attr, low, high = span
            return f"with {attr} {low} or {high}" if high == low + 1 else f"with {attr} {low} to {high}"
        return f"where {self.cond(cond, Ctx(ctx.them))}"

    def each_of(self, sel: A.CardSel, ctx: Ctx, moving: bool) -> str:
        text = self.cards(sel, ctx, moving)
        return f"each of {text}" if text.startswith("the ") else re.sub(r"^all ", "each ", text)

    def singular(self, sel: A.CardSel, ctx: Ctx) -> str:
        """'all cards in your hand with hero' -> 'Hero in your hand' (after 'for each')."""
        if sel.kind != "pick" or sel.name:
            return self.cards(sel, ctx, False)
        pre, post = self.filters(sel, ctx)
        return " ".join(filter(None, [self.noun(sel, False), pre, self.place(sel, ctx, False), post]))

    # ------------------------------------------------------------ expressions and conditions
    def single_test(self, sel: A.CardSel, ctx: Ctx) -> str:
        """The filters of a one-card count ('count it where cost of it >= 1', 'count this
        where ...') as a condition: "its cost is 1 or more", "it is a Hero"."""
        who = self.cards(A.CardSel(sel.span, sel.kind, sel.quantity, sel.count, zones=sel.zones), ctx, False)
        parts = []
        for f in sel.filters:
            if f.kind in ("has", "has_not"):
                names = " or ".join(article(self.names.get(w, title(w))) for w in f.words)
                parts.append(f"{who} is {'not ' if f.kind == 'has_not' else ''}{names}")
            elif f.kind == "where":
                parts.append(self.cond(f.cond, Ctx(ctx.them)))  # 'it' there is the card: "its cost"
        return " and ".join(parts)

    def amount(self, e: Any, ctx: Ctx) -> tuple[str, str]:
        """An amount and what follows the noun: (count X) -> ('1', ' for each X'); a one-card
        count (count it where ...) -> ('1', ' if ITS TEST')."""
        if isinstance(e, A.Count) and is_single(e.cards):
            return "1", f" if {self.single_test(e.cards, ctx)}"
        if isinstance(e, A.Count):
            return "1", f" for each {self.singular(e.cards, ctx)}"
        if isinstance(e, A.CountTypes):
            among = re.sub(r"^all ", "", self.cards(e.cards, ctx, False))
            return "1", f" for each different card type among {among}"
        if isinstance(e, (A.Num, A.Param)):
            return self.expr(e, ctx), ""
        return "X", f", where X is {self.expr(e, ctx)}"

    def expr(self, e: Any, ctx: Ctx) -> str:
        if isinstance(e, A.Num):
            return str(e.value)
        if isinstance(e, A.Param):
            return e.name
        if isinstance(e, A.Count) and is_single(e.cards):
            return f"1 if {self.single_test(e.cards, ctx)}, otherwise 0"
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
        if isinstance(e, A.AttrOf) and e.player is not None:
            return f"{self.attr_of(e.attr, e.card, ctx)} for {self.players(e.player, ctx)}"
        if isinstance(e, A.AttrOf):
            return self.attr_of(e.attr, e.card, ctx)
        if isinstance(e, A.CounterOf):
            owner = {"you": "your ", "them": "their ", "shared": "the "}.get(e.owner, "")
            if e.cards is not None:
                return f"the {self.counter(e.name)} of {self.cards(e.cards, ctx, False)}"
            return f"{owner}{self.counter(e.name)}"
        if isinstance(e, A.BinOp):
            return self.arith(e, ctx)
        return type(e).__name__.lower()

    def arith(self, e: A.BinOp, ctx: Ctx) -> str:
        """'E / F' and 'E mod F' read as printed cards say them ("half ..., rounded down")."""
        left, right = self.expr(e.left, ctx), self.expr(e.right, ctx)
        if e.op == "/":
            if isinstance(e.right, A.Num) and e.right.value == 2:
                return f"half {left}, rounded down"
            return f"{left} divided by {right}, rounded down"
        if e.op == "mod":
            return f"the remainder of {left} divided by {right}"
        if e.op == "-" and isinstance(e.left, A.CountPlayers) and isinstance(e.right, A.Num) and e.right.value == 1:
            return "the number of your foes"  # every player but you
        return f"{left} {_ARITH.get(e.op, e.op)} {right}"

    def attr_of(self, attr: str, card: A.CardSel, ctx: Ctx) -> str:
        if card.kind == "it" and (ctx.it.phrase is None or ctx.it.used):
            return f"its {attr}"
        if card.kind == "this":
            return f"this card's {attr}"
        return f"the {attr} of {self.cards(card, ctx, False)}"

    def cond(self, c: Any, ctx: Ctx) -> str:
        method = getattr(self, f"c_{type(c).__name__.lower()}", None)
        return method(c, ctx) if method else type(c).__name__.lower()

    def c_compare(self, c: A.Compare, ctx: Ctx) -> str:
        parity = _parity(c)
        if parity:
            return f"{self.expr(c.left.left, ctx)} is {parity}"  # type: ignore[union-attr]
        some = _some(c)
        if some is not None:  # 'count X >= 1': "you played a Super Power this turn", "there is ..."
            sel, yes = some
            noun = self.noun(sel, False)
            if sel.played and all(f.kind == "has" for f in sel.filters) and not sel.name:
                return f"you played {article(noun) if yes else 'no ' + noun} this turn"
        left, right = self.expr(c.left, ctx), self.expr(c.right, ctx)
        if isinstance(c.right, A.Num) and c.op in (">=", "<="):
            return f"{left} is {right} or {'more' if c.op == '>=' else 'less'}"
        return f"{left} {_OPS.get(c.op, c.op)} {right}"

    def c_is(self, c: A.Is, ctx: Ctx) -> str:
        subj = c.subject
        who = self.target(subj, ctx)
        verb = "are" if isinstance(subj, A.PlayerSel) and subj.kind in ("you", "them") and who in ("you", "them") \
            else "is"
        who = "they" if who == "them" else who
        turn = " this turn" if c.this_turn else ""
        pred = {"marked": f"marked {quoted(c.mark)}{turn}", "not marked": f"not marked {quoted(c.mark)}{turn}",
                "showing": f"showing {quoted(c.mark)}", "this": "this card",
                "not this": "not this card"}.get(c.pred, c.pred)
        return f"{who} {verb} {pred}"

    def c_anymarked(self, c: A.AnyMarked, ctx: Ctx) -> str:
        return f"any foe is marked {quoted(c.mark)}{' this turn' if c.this_turn else ''}"

    def c_did(self, c: A.Did, ctx: Ctx) -> str:
        who = self.source(c.span).split(" ")[0] or "you"
        return f"{who} {'don' + chr(39) + 't' if c.negate else 'do'}"

    def c_affected(self, c: A.Affected, ctx: Ctx) -> str:
        who = self.target(c.players, ctx)
        who = "they" if who == "them" else who
        # the printed cards' "if they do" (docs/language.md, "Who was affected")
        if who in ("they", "you"):
            return f"{who} {'don' + chr(39) + 't' if c.negate else 'do'}"
        return f"{who} {'doesn' + chr(39) + 't' if c.negate else 'does'}"

    def c_zoneempty(self, c: A.ZoneEmpty, ctx: Ctx) -> str:
        return f"{self.zone(c.zone, ctx)} is empty"

    def c_has(self, c: A.Has, ctx: Ctx) -> str:
        """"it is a Hero" for a card type (the DC sets' "If it's a Hero"), "it has Attack" for
        a keyword or an ability label."""
        name = self.names.get(c.words, title(c.words))
        if c.words in self.sym.types:
            return f"{self.cards(c.card, ctx, False)} is {article(name)}"
        return f"{self.cards(c.card, ctx, False)} has {name}"

    def c_camefrom(self, c: A.CameFrom, ctx: Ctx) -> str:
        return f"{self.cards(c.cards, ctx, False)} came from {self.zone(c.zone, ctx)}"

    def c_hashome(self, c: A.HasHome, ctx: Ctx) -> str:
        return f"{self.cards(c.card, ctx, False)} has a home"

    def c_boolop(self, c: A.BoolOp, ctx: Ctx) -> str:
        if c.op == "not":
            inner = c.args[0]
            if isinstance(inner, A.ZoneEmpty):
                return f"{self.zone(inner.zone, ctx)} is not empty"
            return f"not {self.cond(inner, ctx)}"
        return f" {c.op} ".join(self.cond(a, ctx) for a in c.args)

    def c_emitted(self, c: A.Emitted, ctx: Ctx) -> str:
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


def _parity(c: A.Compare) -> str:
    """'even' / 'odd' for 'E mod 2 == 0' ('!= 1'), 'E mod 2 == 1' ('!= 0'); else ''."""
    left, right = c.left, c.right
    if not (isinstance(left, A.BinOp) and left.op == "mod" and isinstance(left.right, A.Num)
            and left.right.value == 2 and isinstance(right, A.Num) and right.value in (0, 1)
            and c.op in ("==", "!=")):
        return ""
    return "even" if (right.value == 0) == (c.op == "==") else "odd"


def _is_one(e: Any) -> bool:
    return isinstance(e, A.Num) and e.value == 1


def is_single(sel: A.CardSel) -> bool:
    """A one-card selector with filters: 'count it where ...', 'count the top card of ZONE with
    hero' (1 when the card passes them, 0 when not)."""
    return sel.kind in ("it", "this", "top", "bottom") and bool(sel.filters)


def _between(cond: Any) -> tuple[str, int, int] | None:
    """(attribute, low, high) for 'ATTR of it >= LOW and ATTR of it <= HIGH' (either order)."""
    if not isinstance(cond, A.BoolOp) or cond.op != "and" or len(cond.args) != 2:
        return None
    bounds: dict[str, int] = {}
    attrs = set()
    for c in cond.args:
        if not (isinstance(c, A.Compare) and isinstance(c.left, A.AttrOf) and c.left.card.kind == "it"
                and c.left.player is None and isinstance(c.right, A.Num) and c.op in (">=", "<=")):
            return None
        attrs.add(c.left.attr)
        bounds[c.op] = c.right.value
    if len(attrs) != 1 or len(bounds) != 2 or bounds[">="] > bounds["<="]:
        return None
    return attrs.pop(), bounds[">="], bounds["<="]


def _some(c: A.Compare) -> tuple[A.CardSel, bool] | None:
    """(the cards, whether some are wanted) for 'count CARDS >= 1' / '> 0' (True) and
    'count CARDS == 0' / '< 1' (False), or None for another comparison."""
    if not (isinstance(c.left, A.Count) and isinstance(c.right, A.Num)) or c.left.cards.kind != "pick":
        return None
    n = c.right.value
    if (c.op, n) in ((">=", 1), (">", 0)):
        return c.left.cards, True
    if (c.op, n) in (("==", 0), ("<", 1)):
        return c.left.cards, False
    return None

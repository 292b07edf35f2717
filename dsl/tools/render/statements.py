"""Bodies and statements in words: a body as sentences or as clauses, and each kind of
statement (``if``, ``for each``, ``choose``, counters, marks, ...) as its clause.

:class:`Statements` adds them to :class:`~cardscript.dsl.tools.render.phrases.Phrases`;
a call, the one statement of a script's own words, is rendered by its subclass
:class:`~cardscript.dsl.tools.render.calls.Calls`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.tools.render.english import and_list, listed, plural, quoted, sentence, title
from cardscript.dsl.tools.render.phrases import Ctx, Holder, Phrases
from cardscript.dsl.tools.render.templates import Arg, fill


class Statements(Phrases):
    """Renders bodies: each statement by its ``s_KIND`` method."""

    # ------------------------------------------------------------ bodies
    def sentences(self, body: A.Body, ctx: Ctx) -> str:
        """A top-level body: one sentence per statement."""
        return " ".join(filter(None, (sentence(self.stmt(s, replace(self._nth(body, i, ctx), top=True)))
                                      for i, s in enumerate(body.stmts))))

    def clauses(self, body: A.Body, ctx: Ctx) -> list[str]:
        return [c for i, s in enumerate(body.stmts) if (c := self.stmt(s, self._nth(body, i, ctx)))]

    def _nth(self, body: A.Body, i: int, ctx: Ctx) -> Ctx:
        """The context of a body's statement i: the first gets the handed-down subject."""
        return replace(ctx if i == 0 else self._rest(ctx), prev=body.stmts[i - 1] if i else None)

    def joined(self, body: A.Body, ctx: Ctx, sep: str) -> str:
        return sep.join(self.clauses(body, ctx))

    @staticmethod
    def _rest(ctx: Ctx) -> Ctx:
        """The context of the statements after the first: the handed-down subject is used up."""
        return Ctx(ctx.them, ctx.it)

    def stmt(self, s: Any, ctx: Ctx) -> str:
        method = getattr(self, f"s_{type(s).__name__.lower()}", None)
        return method(s, ctx) if method else type(s).__name__.lower()

    # ------------------------------------------------------------ statements
    def s_nothing(self, s: A.Nothing, ctx: Ctx) -> str:
        return ""

    def s_runblock(self, s: A.RunBlock, ctx: Ctx) -> str:
        words = getattr(self, "block_words", {}).get(s.name)  # in a replacement (issue 12)
        return f"resolve {words}" if words else s.name

    def s_if(self, s: A.If, ctx: Ctx) -> str:
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

    def s_otherwise(self, s: A.Otherwise, ctx: Ctx) -> str:
        return f"otherwise, {and_list(self.clauses(s.body, ctx))}"

    def bound(self, body: A.Body, ctx: Ctx, holder: Holder, sep: str) -> str:
        """A body whose first statement takes the holder's phrase for its first 'it'/'they';
        the statements after it say 'it'/'they' as written."""
        first = self.stmt(body.stmts[0], ctx)
        holder.used = True
        rest = [self.stmt(s, self._nth(body, i, ctx)) for i, s in enumerate(body.stmts) if i]
        return sep.join(c for c in [first, *rest] if c)

    def s_forplayers(self, s: A.ForPlayers, ctx: Ctx) -> str:
        sel = s.players
        who = self.players(sel, ctx) if sel.kind != "foe in" else f"each foe in {sel.param}"
        if s.body.stmts and _mentions(s.body.stmts[0], "them"):
            holder = Holder(lambda _moving: who, True)
            last = s.body.stmts[-1]
            if len(s.body.stmts) > 1 and sel.kind in ("each foe", "each player", "foe in") and _if_they_did(last):
                # "Each foe discards a card. Draw a card for each foe who did." (the printed wording)
                body = A.Body(s.body.span, s.body.stmts[:-1])
                done = self.bound(body, Ctx(holder, ctx.it), holder, ". ")
                gain = and_list(self.clauses(last.then, Ctx(Holder(), ctx.it)))  # type: ignore[union-attr]  # an If
                return f"{done}. {sentence(f'{gain} for {who} who did')}".rstrip(".")
            return self.bound(s.body, Ctx(holder, ctx.it), holder, ". ")
        return f"for {who}: {self.joined(s.body, Ctx(Holder(), ctx.it), ', then ')}"

    def s_forcards(self, s: A.ForCards, ctx: Ctx) -> str:
        sel = s.cards
        if s.body.stmts and _mentions(s.body.stmts[0], "it"):
            holder = Holder(lambda moving: self.each_of(sel, ctx, moving))
            return self.bound(s.body, Ctx(ctx.them, holder), holder, ". " if ctx.top else ", then ")
        return f"for {self.each_of(sel, ctx, False)}: {self.joined(s.body, Ctx(ctx.them), ', then ')}"

    def s_repeat(self, s: A.Repeat, ctx: Ctx) -> str:
        if isinstance(s.times, A.Count):  # "draw a card for each Hero in your hand"
            _, each = self.amount(s.times, ctx)
            return f"{self.joined(s.body, ctx, ', then ')}{each}"
        times = "twice" if isinstance(s.times, A.Num) and s.times.value == 2 else f"{self.expr(s.times, ctx)} times"
        return f"{self.joined(s.body, ctx, ', then ')} {times}"

    def s_betweenturns(self, s: A.BetweenTurns, ctx: Ctx) -> str:
        return f"between turns, {self.joined(s.body, ctx, ', then ')}"

    def s_choose(self, s: A.Choose, ctx: Ctx) -> str:
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
            holder = Holder(lambda moving: self.cards(sel, ctx, moving))
            sep = ". " if ctx.top else ", then "  # an ability's own statement: one sentence each
            return self.bound(s.body, Ctx(ctx.them, holder, s.subject, s.may), holder, sep)
        return f"{head()}: {self.joined(s.body, Ctx(ctx.them), ', then ')}"

    def s_chooseone(self, s: A.ChooseOne, ctx: Ctx) -> str:
        """"Choose one: +2 Power; or draw a card" (the DC sets' wording of a modal choice)."""
        who = f"{self.players(s.subject, ctx)} chooses" if s.subject is not None else "choose"
        modes = [listed(self.clauses(m, Ctx(ctx.them, ctx.it))) for m in s.modes]
        return f"{who} one: " + "; or ".join(modes)

    def s_attrmodifier(self, s: A.AttrModifier, ctx: Ctx) -> str:
        """"Cards cost 1 less for you this turn", "The next Super Power you buy this turn
        costs 2 less", "Heroes cost 1 more for your foes this turn"."""
        amount = f"{abs(s.amount)} {'less' if s.amount < 0 else 'more'}"
        attr = s.word[:-1] if s.verb and s.word.endswith("s") else s.word
        if s.verb:
            kind = title(s.types[0]) if s.types else "card"
            return f"the next {kind} you {s.verb} this turn {attr}s {amount}"
        kind = _plural(title(s.types[0])) if s.types else "cards"
        who = "your foes" if s.players is not None and s.players.kind == "each foe" and not s.players.filters \
            else self.players(s.players, ctx) if s.players is not None else "you"
        return f"{kind} {attr} {amount} for {who}" + (" this turn" if s.this_turn else "")  # cards2: static

    def s_counteradd(self, s: A.CounterAdd, ctx: Ctx) -> str:
        """"+1 Power"; through the counter's printed form when the scripts give one
        (``printed counter NAME as "TEMPLATE"``, ``{N}`` the amount, "-1" when taken away)."""
        sign = "+" if s.sign > 0 else "-"
        amount, tail = self.amount(s.amount, ctx)
        printed = self.sym.printed_counters.get(s.counter)
        if printed is not None:
            text = fill(printed.template, {"N": Arg(amount if s.sign > 0 else f"-{amount}")}) + tail
        else:
            text = f"{sign}{amount} {self.counter(s.counter)}{tail}"
        if s.player is not None:
            who = self.players(s.player, ctx)
            if who.startswith(("each ", "all ")):
                # "+1 Power for each foe" is the printed wording of +1 Power for *you*, once per
                # foe; a change to each of several players reads as theirs
                on = "" if s.cards is None else f" on {self.cards(s.cards, ctx, False)}"
                return f"{who} gets {text}{on}"
            text += f" for {who}"
        if s.cards is not None:
            text += f" on {self.cards(s.cards, ctx, False)}"
        return text

    def s_counterset(self, s: A.CounterSet, ctx: Ctx) -> str:
        owner = {"you": "your ", "them": "their ", "shared": "the "}.get(s.owner, "")
        target = f"{owner}{self.counter(s.counter)}"
        if s.cards is not None:
            target = f"the {self.counter(s.counter)} of {self.cards(s.cards, ctx, False)}"
        return f"set {target} to {self.expr(s.value, ctx)}"

    def s_mark(self, s: A.Mark, ctx: Ctx) -> str:
        target = self.target(s.target, ctx)
        turn = " this turn" if s.this_turn else ""
        if s.unmark:
            return f"remove the mark {quoted(s.mark)} from {target}{turn}"
        printed = self.sym.printed_marks.get(s.mark)
        if printed is not None and target == "you":  # 'printed mark "M" as "TEXT"': "TEXT this turn"
            return f"{printed.template}{turn}"
        return f"mark {target} {quoted(s.mark)}{turn}"

    def s_resolve(self, s: A.Resolve, ctx: Ctx) -> str:
        card = s.card if isinstance(s.card, str) else self.cards(s.card, ctx, False)
        who = f" for {self.players(s.player, ctx)}" if s.player is not None else ""
        return f"resolve the {title(s.label)} ability of {card}{who}"

    def s_emit(self, s: A.Emit, ctx: Ctx) -> str:
        who = f" for {self.players(s.player, ctx)}" if s.player is not None else ""
        return f"{quoted(s.event)} happens{who}"

    def s_endgame(self, s: A.EndGame, ctx: Ctx) -> str:
        return f"the game ends ({s.reason})" if s.reason else "the game ends"

    def s_let(self, s: A.Let, ctx: Ctx) -> str:
        return f"let {s.name} be {self.expr(s.value, ctx)}"

    # ------------------------------------------------------------ the timing area (issue 12)
    def s_delayed(self, s: A.Delayed, ctx: Ctx) -> str:
        """'At the end of this turn, ...' for ``at the next "end of turn"`` (see :func:`_when_next`)."""
        printed = self.sym.printed_events.get(s.event)
        when = f"the next time {self.event_form(printed, False)}" if printed is not None \
            else _when_next(s.event, s.yours)
        return f"{when}, {and_list(self.clauses(s.body, ctx))}"

    def s_grant(self, s: A.Grant, ctx: Ctx) -> str:
        """'Once this turn, you may LABEL': the label is the printed text of the ability."""
        times = "once" if s.uses == 1 else "twice" if s.uses == 2 else "any number of times" if s.uses == 0 \
            else f"{s.uses} times"
        return f"{times} this turn, you may {self.printed_words(s.label)}"

    def printed_words(self, text: str) -> str:
        """Text written as printed words (a grant's label): the names in it as the game
        prints them ("pay 3 power: gain the top card of the main deck" -> "pay 3 Power: gain
        the top card of the Main Deck"), the rest as written."""
        names = {t: title(t) for t in (*self.sym.types, *self.sym.counters)}  # not card names: plain words
        names.update({z.replace("-", " "): title(z) for z, d in self.sym.zones.items() if not d.per_player})
        if not names:
            return text
        words = sorted(names, key=len, reverse=True)
        pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b", re.IGNORECASE)
        return pattern.sub(lambda m: names.get(m.group(1).lower(), m.group(1)), text)

    def s_call(self, c: A.Call, ctx: Ctx) -> str:
        """A call: in its own words, as a keyword or through a printed template (:class:`Calls`)."""
        raise NotImplementedError


def _plural(noun: str) -> str:
    """'Card' -> 'Cards', 'Hero' -> 'Heroes', 'Equipment' -> 'Equipment' (a type's name, in English)."""
    return plural(noun)


def _if_they_did(s: Any) -> bool:
    """``if they were affected: BODY`` (no otherwise), BODY not saying 'they'."""
    return (isinstance(s, A.If) and isinstance(s.cond, A.Affected) and not s.cond.negate
            and s.cond.players.kind == "them" and s.otherwise is None and not _mentions(s.then, "them"))


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


def _when_next(event: str, yours: bool) -> str:
    """When a delayed effect runs, in words: an event named 'end of X' / 'start of X' reads
    as the printed cards say it ("at the end of this turn", "at the start of your next
    turn"); any other event as 'the next time "EVENT" happens'."""
    edge, _, what = event.partition(" of ")
    if edge in ("start", "end") and what and " " not in what:
        if yours:
            return f"at the {edge} of your {'next ' if edge == 'start' else ''}{what}"
        return f"at the {edge} of {'this' if edge == 'end' else 'the next'} {what}"
    return f"the next time {quoted(event)} happens{' to you' if yours else ''}"

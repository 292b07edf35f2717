"""Lowering of bodies: statements, calls, selectors, conditions and expressions become
runtime effect objects (:mod:`cardscript.runtime.effects`)."""

from __future__ import annotations

from typing import Any

from cardscript.dsl.diagnostics import CODES, Diagnostic, did_you_mean, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Match, match_call
from cardscript.dsl.front.lower.names import _TEXT_HINT, NameLowerer
from cardscript.dsl.front.lower.prompts import may_prompt
from cardscript.dsl.front.lower.timing import between_call, lower_timing
from cardscript.runtime import effects as E


class BodyLowerer(NameLowerer):
    """Lowers one body, selector, condition or expression at a time; ``params`` maps the
    parameters in scope to their kinds (number, players, cards, zone, type, block)."""

    #: the statement being lowered has one before it in its block ('they were affected' tests it)
    _after_statement = False
    #: how many 'between turns:' blocks enclose the statement being lowered
    _between = 0

    # ------------------------------------------------------------ selectors
    def players(self, sel: A.PlayerSel, params: dict[str, str]) -> E.Players:
        if sel.kind in ("param", "foe in") and params.get(sel.param) != "players":
            self.err("CS206", f"{sel.param} is not a players parameter here", sel.span,
                     "name it in the effect pattern as {" + sel.param + ": players}")
        filters = tuple((f.mark, f.this_turn, f.negate) for f in sel.filters)
        return E.Players(sel.kind, sel.param, filters)

    def zone_ref(self, z: A.ZoneRef, params: dict[str, str]) -> E.ZoneRef:
        if z.owner == "home":
            return E.ZoneRef("home", -1)
        idx = self.zone(z.name, z.span)
        zd = list(self.sym.zones.values())[idx] if self.zone_index else None
        card_param = z.owner == "of" and z.player is not None and z.player.kind == "param" \
            and params.get(z.player.param) == "cards"
        if zd is not None and z.name in self.zone_index and (z.owner == "card" or card_param) != zd.per_card:
            if zd.per_card:
                self.err("CS204", f"zone {z.name!r} is one per card: say 'the {z.name} of CARD'", z.span)
            else:
                self.err("CS204", f"zone {z.name!r} is not one per card", z.span)
            return E.ZoneRef("shared", idx)
        if z.owner == "card":
            assert z.card is not None  # the builder sets it for 'the ZONE of CARD'
            return E.ZoneRef("card", idx, self.cards(z.card, params))
        if card_param and zd is not None and zd.per_card:
            assert z.player is not None  # card_param says so
            return E.ZoneRef("card", idx, E.Cards("param", param=z.player.param))
        if zd is not None and z.owner in ("you", "them", "owner", "of") and not zd.per_player \
                and z.name in self.zone_index:
            self.err("CS204", f"zone {z.name!r} is shared: say 'the {z.name}'", z.span)
        if zd is not None and z.owner == "shared" and zd.per_player:
            self.err("CS204", f"zone {z.name!r} belongs to each player: say 'your {z.name}' or 'their {z.name}'",
                     z.span)
        players = self.players(z.player, params) if z.player is not None else None
        return E.ZoneRef(z.owner, idx, players)

    def cards(self, sel: A.CardSel, params: dict[str, str], purpose: str = "") -> E.Cards:
        if sel.kind in ("this", "it") and not sel.filters:
            return E.Cards(sel.kind, purpose=purpose)
        count = self.expr(sel.count, params) if sel.count is not None else None
        zones = tuple(self.cards(z, params) if isinstance(z, A.CardSel) else self.zone_ref(z, params)
                      for z in sel.zones)
        if sel.types:
            for t in sel.types:
                if t not in self.sym.types:
                    self.unknown("card type", t, sel.span, self.sym.types)
        name = self.card_key(sel.name, sel.span) if sel.name else sel.name  # the card of the script's set first
        filters: list[tuple[str, Any]] = []
        prefer = None
        for f in sel.filters:
            if f.kind in ("has", "has_not"):
                self.check_words(f.words, f.span)
                filters.append((f.kind, f.words))
            elif f.kind == "has_param":
                if params.get(f.words[0]) != "type":
                    self.err("CS206", f"{f.words[0]} is not a type parameter here", f.span)
                filters.append(("has_param", f.words[0]))
            elif f.kind == "other_name" and f.card is not None:
                filters.append(("other_name", self.cards(f.card, params)))
            elif f.kind == "prefer":
                if sel.kind != "pick":  # 'count it prefer ...': nothing is chosen
                    self.err("CS204", "'prefer' ranks the cards a choice offers: a count of one card chooses "
                             "nothing", f.span, "test the card with 'where CONDITION', 'with TYPE' or 'without TYPE'")
                prefer = (1 if f.words[0] == "highest" else -1, self.expr(f.cond, params))
            else:
                filters.append(("where", self.cond(f.cond, params)))
        kind = sel.kind
        if sel.in_param:
            if params.get(sel.in_param) != "cards":
                self.err("CS206", f"{sel.in_param} is not a cards parameter here", sel.span)
            kind = "param"
        elif sel.played:
            kind = "played"
        elif sel.control:
            kind = "control"
        elif sel.gained:
            kind = "gained"
        elif kind == "pick" and not zones:
            self.err("CS204", "say where the cards come from (e.g. 'from your hand')", sel.span)
        return E.Cards(kind, sel.quantity, count, zones, sel.types, name, tuple(filters), sel.in_param, purpose,
                       prefer)

    # ------------------------------------------------------------ expressions and conditions
    def expr(self, e: Any, params: dict[str, str]) -> Any:
        """A number (a count, an amount, an argument, a bot's value): CS204 when ``e`` is text."""
        out = self.value(e, params)
        if self.kind(e) == "text":
            what = f"'{e.attr} of ...'" if isinstance(e, A.AttrOf) else f'"{e.text}"' if isinstance(e, A.Text) \
                else "this"
            self.err("CS204", f"{what} is text: a number is needed here", e.span, _TEXT_HINT)
        return out

    def value(self, e: Any, params: dict[str, str]) -> Any:
        """A number or a text (the sides of a comparison)."""
        if isinstance(e, A.Num):
            return E.Const(e.value)
        if isinstance(e, A.Text):
            return E.Text(e.text)
        if isinstance(e, A.Param):
            if e.name not in params:
                self.err("CS206", f"{e.name} is not defined here", e.span, did_you_mean(e.name, params))
            elif params[e.name] != "number":
                self.err("CS204", f"{e.name} is a {params[e.name]} parameter, not a number", e.span)
            return E.Var(e.name)
        if isinstance(e, A.BinOp):
            return E.Arith(e.op, self.expr(e.left, params), self.expr(e.right, params))
        if isinstance(e, A.Count):
            return E.CountCards(self.cards(e.cards, params))
        if isinstance(e, A.CountPlayers):
            return E.CountSeats()
        if isinstance(e, A.CountTypes):
            return E.CountTypes(self.cards(e.cards, params))
        if isinstance(e, A.SumAttr):
            return E.SumAttr(self.attr(e.attr, e.span, number=True), self.cards(e.cards, params))
        if isinstance(e, A.Highest):
            if e.players is not None:
                return E.Highest(self.expr(e.expr, params), self.players(e.players, params), e.lowest)
            if not isinstance(e.expr, A.AttrOf):
                self.err("CS204", "write 'highest ATTRIBUTE of CARDS' or 'highest EXPRESSION among PLAYERS'", e.span)
                return E.Const(0)
            return E.HighestAttr(self.attr(e.expr.attr, e.span, number=True), self.cards(e.expr.card, params),
                                 e.lowest)
        if isinstance(e, A.MinMax):
            return E.MinMax(e.op, self.expr(e.left, params), self.expr(e.right, params))
        if isinstance(e, A.AttrOf) and e.player is not None:
            return E.AttrFor(self.attr(e.attr, e.span, number=True), self.cards(e.card, params),
                             self.players(e.player, params))
        if isinstance(e, A.AttrOf):
            decl = self.sym.counters.get(e.attr)
            if decl is not None and decl.per_card:
                return E.CardCounter(self.counter_index[e.attr], self.cards(e.card, params))
            return E.AttrOf(self.attr(e.attr, e.span), self.cards(e.card, params))
        if isinstance(e, A.CounterOf):
            return E.CounterValue(e.owner, self.counter_owned(e.owner, e.name, e.span))
        raise AssertionError(f"unknown expression {e!r}")

    def cond(self, c: Any, params: dict[str, str]) -> Any:
        if isinstance(c, A.Compare):
            left, right = self.kind(c.left), self.kind(c.right)
            if left != right:
                self.err("CS204", "this compares a text with a number", c.span, _TEXT_HINT)
            elif left == "text" and c.op not in ("==", "!="):
                self.err("CS204", f"texts compare only with == and !=, not {c.op}", c.span)
            return E.Compare(c.op, self.value(c.left, params), self.value(c.right, params))
        if isinstance(c, A.BoolOp):
            args = [self.cond(a, params) for a in c.args]
            return E.And(args) if c.op == "and" else E.Or(args) if c.op == "or" else E.Not(args[0])
        if isinstance(c, A.Is):
            if isinstance(c.subject, A.PlayerSel):
                if c.pred in ("face down", "face up", "yours", "not yours", "showing", "this", "not this"):
                    what = "is (not) this card" if c.pred in ("this", "not this") else c.pred
                    self.err("CS204", f"a player is not '{what}': that is said of cards", c.span)
                    return E.Did(False)
                test: E.Node = E.PlayerMarked(self.players(c.subject, params), c.mark, c.this_turn)
            elif c.pred in ("face down", "face up"):
                return E.FaceDown(self.cards(c.subject, params), c.pred == "face down")
            elif c.pred == "showing":
                return E.Showing(self.cards(c.subject, params), c.mark)
            elif c.pred in ("yours", "not yours"):
                test = E.Owned(self.cards(c.subject, params))
                return E.Not(test) if c.pred == "not yours" else test
            elif c.pred in ("this", "not this"):
                test = E.IsThis(self.cards(c.subject, params))
                return E.Not(test) if c.pred == "not this" else test
            else:
                test = E.CardMarked(self.cards(c.subject, params), c.mark, c.this_turn)
            return E.Not(test) if c.pred == "not marked" else test
        if isinstance(c, A.AnyMarked):
            return E.AnyFoeMarked(c.mark, c.this_turn)
        if isinstance(c, A.Did):
            return E.Did(c.negate)
        if isinstance(c, A.Affected):
            if not self._after_statement:
                self.err("CS212", "'were affected' tests the statement just before it in the same block, and "
                         "there is none here", c.span, CODES["CS212"][2])
            return E.Affected(self.players(c.players, params), c.negate)
        if isinstance(c, A.ZoneEmpty):
            return E.ZoneEmpty(self.zone_ref(c.zone, params))
        if isinstance(c, A.CameFrom):
            return E.CameFrom(self.cards(c.cards, params), self.zone_ref(c.zone, params))
        if isinstance(c, A.Has):
            words = (c.words,)
            self.check_words(words, c.span)
            return E.HasWord(self.cards(c.card, params), words)
        if isinstance(c, A.HasHome):
            return E.HasHome(self.cards(c.card, params))
        if isinstance(c, A.Emitted):
            return E.Emitted(c.event, self.players(c.player, params) if c.player is not None else None)
        if isinstance(c, A.GameOverCond):
            return E.IsOver()
        if isinstance(c, A.OutcomeIs):
            if c.text not in {o.text for o in self.sym.outcomes}:
                self.unknown("outcome", c.text, c.span, [o.text for o in self.sym.outcomes])
            return E.OutcomeIs(c.text)
        if isinstance(c, A.WinnerIs):
            return E.WinnerIs(self.players(c.players, params))
        raise AssertionError(f"unknown condition {c!r}")

    # ------------------------------------------------------------ statements
    def body(self, b: A.Body | None, params: dict[str, str]) -> E.Seq:
        if b is None:
            return E.Seq([])
        params = dict(params)
        out = []
        outer = self._after_statement
        for i, s in enumerate(b.stmts):
            if isinstance(s, A.Let):
                params[s.name] = "number"
            self._after_statement = i > 0
            out.append(self.stmt(s, params))
        self._after_statement = outer
        # where each statement is written, for traced logs ('cardscript test -v')
        return E.Seq(out, tuple(f"{s.span.file}:{s.span.line}:{s.span.column}" if s.span else "" for s in b.stmts))

    def stmt(self, s: Any, params: dict[str, str]) -> Any:
        if isinstance(s, A.Call):
            return self.call(s, params)
        if isinstance(s, A.Choose):
            inner: Any = E.Choose(self.cards(s.cards, params, self._effect_verb or "choose"),
                                  self.body(s.body, params) if s.body is not None else None, s.may)
            return E.AsPlayers(self.players(s.subject, params), inner) if s.subject is not None else inner
        if isinstance(s, A.ChooseOne):
            if len(s.modes) < 2:
                self.err("CS235", "'choose one' offers a single mode", s.span,
                         "write the other modes after '; or': choose one: +2 power; or draw a card")
            modes: Any = E.ChooseOne([self.body(m, params) for m in s.modes], list(s.labels))
            return E.AsPlayers(self.players(s.subject, params), modes) if s.subject is not None else modes
        if isinstance(s, A.AttrModifier):
            return self.attr_modifier(s, params)
        if isinstance(s, A.StaticWhen):  # cards2 area: lowered by .statics, in a passive ability only
            head, hint = ("'the first time you ...'", "a trigger of the card itself is a line of its own: "
                          "when \"play\" first time each turn: ...") if s.once else \
                ("'when you ...'", "a trigger of the card itself is a line of its own: when \"play\": ...")
            self.err("CS204", f"{head} inside an ability is a static rule: it holds only in a passive "
                     "ability ('ongoing:' with 'passive ongoing in played')", s.span, hint)
            return E.Nothing()
        if isinstance(s, A.If):
            other = self.body(s.otherwise, params) if s.otherwise is not None else None
            return E.If(self.cond(s.cond, params), self.body(s.then, params), other)
        if isinstance(s, A.Otherwise):
            self.err("CS208", "'otherwise' must follow an 'if' statement", s.span)
            return E.Nothing()
        if isinstance(s, A.ForPlayers):
            return E.ForPlayers(self.players(s.players, params), self.body(s.body, params))
        if isinstance(s, A.ForCards):
            return E.ForCards(self.cards(s.cards, params), self.body(s.body, params))
        if isinstance(s, A.Repeat):
            return E.Repeat(self.expr(s.times, params), self.body(s.body, params))
        if isinstance(s, A.BetweenTurns):
            self._between += 1
            try:
                return E.BetweenTurns(self.body(s.body, params))
            finally:
                self._between -= 1
        if isinstance(s, A.CounterAdd):
            idx = self.counter(s.counter, s.span)
            if idx < 0:
                self.err("CS204", f"{s.counter!r} is read-only", s.span)
            decl = self.sym.counters.get(s.counter)
            if decl is not None and decl.per_card != (s.cards is not None):
                self.err("CS204", f"counter {s.counter!r} is one per card: write '+N {s.counter} on CARDS'"
                         if decl.per_card else f"counter {s.counter!r} is not one per card", s.span)
            players = self.players(s.player, params) if s.player is not None else None
            cards = self.cards(s.cards, params) if s.cards is not None else None
            return E.CounterAdd(idx, s.sign, self.expr(s.amount, params), players, cards)
        if isinstance(s, A.CounterSet):
            cards = self.cards(s.cards, params) if s.cards is not None else None
            return E.CounterSet(self.counter_owned(s.owner, s.counter, s.span, write=True), s.owner,
                                self.expr(s.value, params), cards)
        if isinstance(s, A.Mark):
            if isinstance(s.target, A.PlayerSel):
                return E.MarkPlayers(self.players(s.target, params), s.mark, s.this_turn, not s.unmark)
            return E.MarkCards(self.cards(s.target, params), s.mark, s.this_turn, not s.unmark)
        if isinstance(s, A.Resolve):
            if s.label not in self.sym.labels:
                self.unknown("ability label", s.label, s.span, self.sym.labels)
            if isinstance(s.card, str):
                if params.get(s.card) != "cards":
                    self.err("CS206", f"{s.card} is not a cards parameter here", s.span)
                cards = E.Cards("param", param=s.card)
            else:
                cards = self.cards(s.card, params)
            players = self.players(s.player, params) if s.player is not None else None
            return E.Resolve(s.label, cards, players)
        if isinstance(s, A.Emit):
            return E.Emit(s.event, self.players(s.player, params) if s.player is not None else None)
        if isinstance(s, A.EndGame):
            return E.EndGame(s.reason)
        if isinstance(s, A.Let):
            return E.Let(s.name, self.expr(s.value, params))
        if isinstance(s, A.Nothing):
            return E.Nothing()
        if isinstance(s, A.RunBlock):
            if params.get(s.name) != "block":
                self.err("CS206", f"{s.name} is not a block parameter here", s.span,
                         "a statement that is a single PARAMETER runs a {B: block} parameter")
            return E.RunBlock(s.name)
        return lower_timing(self, s, params)  # the timing area's statements (issue 12), or an AssertionError

    def attr_modifier(self, s: A.AttrModifier, params: dict[str, str], static: bool = False) -> Any:
        """``cards with T cost 1 less for you this turn`` / ``the next T you VERB this turn
        costs 2 less``: the attribute may be written with a plural 's' ('costs')."""
        word = s.word
        if word not in self.sym.attributes and word.endswith("s") and word[:-1] in self.sym.attributes:
            word = word[:-1]
        attr = self.attr(word, s.span, number=True)
        for t in s.types:
            if t not in self.sym.types:
                self.unknown("card type", t, s.span, self.sym.types)
        if s.verb and s.verb not in {a.name for a in self.sym.actions}:
            self.err("CS201", f"no action {s.verb!r} uses the next card: 'the next ... you {s.verb}' names an action",
                     s.span, did_you_mean(s.verb, [a.name for a in self.sym.actions]))
        if not s.this_turn and not static:
            self.err("CS204", "a modifier without 'this turn' is a static rule: it holds only in a passive ability "
                     "('ongoing:' with 'passive ongoing in played')", s.span, "add 'this turn'")
        players = self.players(s.players, params) if s.players is not None else None
        return E.AddModifier(attr, s.types, s.amount, players, s.verb)

    def call(self, c: A.Call, params: dict[str, str]) -> Any:
        match, diag = match_call(c, self.sym, params)
        if diag is not None:
            self.diags.append(_inline_otherwise(c) or diag)
            return E.Nothing()
        assert match is not None
        inner = self._build_call(match, c, params)
        if c.may:
            inner = E.May(inner, may_prompt(c, params))
        if c.subject is not None:
            inner = E.AsPlayers(self.players(c.subject, params), inner)
        return inner

    def _arg(self, kind: str, tok: tuple[Any, ...] | None, c: A.Call, params: dict[str, str], purpose: str) -> Any:
        if kind == "block":
            return self.body(c.block, params)
        assert tok is not None
        if tok[0] == "param":
            name = tok[1]
            if kind == "number":
                return E.Var(name)
            if kind == "players":
                return E.Players("param", name)
            if kind == "cards":
                return E.Cards("param", param=name, purpose=purpose)
            if kind == "zone":
                return E.ZoneParam(name)
            return E.Var(name)
        if kind == "number":
            return self.expr(tok[1], params)
        if kind == "players":
            return self.players(tok[1], params)
        if kind == "cards":
            return self.cards(tok[1], params, purpose)
        if kind == "zone":
            return self.zone_ref(tok[1], params)
        if kind == "type":
            if tok[1] not in self.sym.types:
                self.unknown("card type", tok[1], tok[2].span if tok[2] is not None else c.span, self.sym.types)
            return tok[1]
        return tok[1]

    def _build_call(self, m: Match, c: A.Call, params: dict[str, str]) -> Any:
        sig = m.sig
        purpose = sig.name
        args = {name: self._arg(kind, tok, c, params, purpose) for name, kind, tok in m.bound}
        b = sig.builtin
        if self._calls_from is not None:
            self._calls_from.add(sig.key)
        if b == "move":
            return E.Move(args["C"], args["Z"])
        if b == "take":
            return E.Take(args["C"], args["Z"])
        if b == "shuffle":
            return E.Shuffle(args["Z"])
        if b == "flip":
            return E.Flip(args["C"])
        if b == "reveal":
            return E.Reveal(args["C"])
        if b == "play":
            if self.play_zone < 0:
                self.err("CS207", "'play' needs a zone declared with 'play zone'", c.span)
            return E.Play(args["C"], self.play_zone)
        if b == "take actions":
            if self._between:
                self.err("CS213", "'take actions' between turns: no player is active to take them", c.span,
                         CODES["CS213"][2])
            if self._lowering_effect is not None:
                self.takes_actions.add(self._lowering_effect)
            return E.TakeActions()
        if b == "take control":
            return E.TakeControl(args["C"])
        if b == "roll":
            return E.Roll(args["C"])
        if b == "put under":
            return E.Move(args["C"], args["Z"], bottom=True)
        if b in ("go first", "goes first"):
            return E.GoFirst()
        if b == "use modifiers":
            return E.UseUpModifiers(args["C"])
        if self._between:
            between_call(self, sig.key, c.span)
        ue = self.user[sig.full_key]
        return E.Call(ue, [(kind, args[name]) for name, kind, _ in m.bound])


def _inline_otherwise(c: A.Call) -> Diagnostic | None:
    """CS208 for an 'otherwise' written on the line of its 'if' ('if C: draw a card otherwise: ...'):
    the parser reads it as a word of the effect before it, and 'no effect matches' misleads."""
    word = next((w for w in c.items if isinstance(w, A.Word) and w.text == "otherwise"), None)
    if word is None:
        return None
    return error("CS208", "'otherwise' must start a line of its own, right after its 'if'", word.span,
                 "end the 'if' line after its statements and write 'otherwise: ...' on the next line, at the "
                 "indent of the 'if' (docs/language.md, \"if ... otherwise\")")

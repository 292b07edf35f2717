"""Stage 4: lowering — checked AST -> runtime effect objects and a GameDefinition.

Every name is resolved here against :class:`cardscript.dsl.front.check.Symbols`; each failure is a
Diagnostic (never an exception). :func:`compile_program` is the entry point.
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.diagnostics import CompileError, Diagnostic, did_you_mean, error, warning
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Match, Symbols, collect, display, match_call, tokens_of
from cardscript.dsl.front.loader import Program
from cardscript.runtime import effects as E
from cardscript.runtime.definition import (
    ActionDef,
    CardType,
    CounterDef,
    EndCondition,
    GameDefinition,
    Printing,
    TriggerDef,
    ZoneDef,
)

_BUILTIN_COUNTERS = {"seat": -1}


class Lowerer:
    """Walks the AST once, building runtime objects and collecting diagnostics."""

    def __init__(self, sym: Symbols, lenient: frozenset[str] = frozenset()):
        self.sym = sym
        self.lenient = lenient  # files of mixed-in sets: their cards may be left out, with a warning
        self.diags: list[Diagnostic] = []
        self.zone_index = {name: i for i, name in enumerate(sym.zones)}
        self.counter_index = {name: i for i, name in enumerate(sym.counters)}
        self.user: dict[str, E.UserEffect] = {}
        self.calls: dict[str, set[str]] = {}  # effect key -> effect keys it calls
        self._calls_from: set[str] | None = None
        self.trigger_uid = 0
        self.play_zone = next((i for i, z in enumerate(sym.zones.values()) if z.play_zone), -1)

    # ------------------------------------------------------------ diagnostics
    def err(self, code: str, msg: str, span: Any, hint: str = "") -> None:
        self.diags.append(error(code, msg, span, hint))

    def unknown(self, what: str, name: str, span: Any, pool: Any) -> None:
        self.err("CS201", f"unknown {what} {name!r}", span, did_you_mean(name, list(pool)))

    # ------------------------------------------------------------ names
    def zone(self, name: str, span: Any) -> int:
        if name not in self.zone_index:
            self.unknown("zone", name, span, self.zone_index)
            return 0
        return self.zone_index[name]

    def counter(self, name: str, span: Any) -> int:
        if name in _BUILTIN_COUNTERS:
            return _BUILTIN_COUNTERS[name]
        if name not in self.counter_index:
            self.unknown("counter", name, span, list(self.counter_index) + list(_BUILTIN_COUNTERS))
            return 0
        return self.counter_index[name]

    def counter_owned(self, owner: str, name: str, span: Any, write: bool = False) -> int:
        """A counter read or set as 'your X' / 'their X' (per player), 'the X' (shared) or
        'X of CARD' (per card)."""
        idx = self.counter(name, span)
        if write and idx < 0:
            self.err("CS204", f"{name!r} is read-only", span)
        decl = self.sym.counters.get(name)
        if decl is not None and (owner == "card") != decl.per_card:
            self.err("CS204", f"counter {name!r} is one per card: say '{name} of CARD'" if decl.per_card
                     else f"counter {name!r} is not one per card", span)
        elif decl is not None and owner != "card":
            if owner == "shared" and decl.per_player:
                self.err("CS204", f"counter {name!r} belongs to each player: say 'your {name}' or 'their {name}'", span)
            elif owner != "shared" and not decl.per_player:
                self.err("CS204", f"counter {name!r} is shared: say 'the {name}'", span)
        return idx

    def check_words(self, words: tuple[str, ...], span: Any, allow_keywords: bool = True) -> None:
        known = set(self.sym.types) | set(self.sym.labels)
        if allow_keywords:
            known |= {s.name for s in self.sym.effects}
        for w in words:
            if w not in known:
                self.unknown("type, keyword or label", w, span, known)

    def attr(self, name: str, span: Any) -> str:
        if name not in ("name", "face") and name not in self.sym.attributes:
            self.unknown("attribute", name, span, list(self.sym.attributes) + ["name", "face"])
        return name

    # ------------------------------------------------------------ selectors
    def players(self, sel: A.PlayerSel, params: dict[str, str]) -> E.Players:
        if sel.kind in ("param", "foe in"):
            if params.get(sel.param) != "players":
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
            return E.ZoneRef("card", idx, self.cards(z.card, params))
        if z.owner == "of" and zd is not None and zd.per_card and z.player is not None \
                and z.player.kind == "param" and params.get(z.player.param) == "cards":
            return E.ZoneRef("card", idx, E.Cards("param", param=z.player.param))
        if zd is not None and z.owner in ("you", "them", "owner", "of") and not zd.per_player and z.name in self.zone_index:
            self.err("CS204", f"zone {z.name!r} is shared: say 'the {z.name}'", z.span)
        if zd is not None and z.owner == "shared" and zd.per_player:
            self.err("CS204", f"zone {z.name!r} belongs to each player: say 'your {z.name}' or 'their {z.name}'", z.span)
        players = self.players(z.player, params) if z.player is not None else None
        return E.ZoneRef(z.owner, idx, players)

    def cards(self, sel: A.CardSel, params: dict[str, str], purpose: str = "") -> E.Cards:
        if sel.kind in ("this", "it"):
            return E.Cards(sel.kind, purpose=purpose)
        count = self.expr(sel.count, params) if sel.count is not None else None
        zones = tuple(self.zone_ref(z, params) for z in sel.zones)
        if sel.types:
            for t in sel.types:
                if t not in self.sym.types:
                    self.unknown("card type", t, sel.span, self.sym.types)
        if sel.name and sel.name not in self.sym.cards:
            self.unknown("card", sel.name, sel.span, self.sym.cards)
        filters = []
        prefer = None
        for f in sel.filters:
            if f.kind in ("has", "has_not"):
                self.check_words(f.words, f.span)
                filters.append((f.kind, f.words))
            elif f.kind == "has_param":
                if params.get(f.words[0]) != "type":
                    self.err("CS206", f"{f.words[0]} is not a type parameter here", f.span)
                filters.append(("has_param", f.words[0]))
            elif f.kind == "prefer":
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
        elif kind == "pick" and not zones:
            self.err("CS204", "say where the cards come from (e.g. 'from your hand')", sel.span)
        return E.Cards(kind, sel.quantity, count, zones, sel.types, sel.name, tuple(filters), sel.in_param, purpose,
                       prefer)

    # ------------------------------------------------------------ expressions and conditions
    def expr(self, e: Any, params: dict[str, str]) -> Any:
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
            return E.SumAttr(self.attr(e.attr, e.span), self.cards(e.cards, params))
        if isinstance(e, A.Highest):
            if e.players is not None:
                return E.Highest(self.expr(e.expr, params), self.players(e.players, params), e.lowest)
            if not isinstance(e.expr, A.AttrOf):
                self.err("CS204", "write 'highest ATTRIBUTE of CARDS' or 'highest EXPRESSION among PLAYERS'", e.span)
                return E.Const(0)
            return E.HighestAttr(self.attr(e.expr.attr, e.span), self.cards(e.expr.card, params), e.lowest)
        if isinstance(e, A.MinMax):
            return E.MinMax(e.op, self.expr(e.left, params), self.expr(e.right, params))
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
            return E.Compare(c.op, self.expr(c.left, params), self.expr(c.right, params))
        if isinstance(c, A.BoolOp):
            args = [self.cond(a, params) for a in c.args]
            return E.And(args) if c.op == "and" else E.Or(args) if c.op == "or" else E.Not(args[0])
        if isinstance(c, A.Is):
            if isinstance(c.subject, A.PlayerSel):
                if c.pred in ("face down", "face up", "yours", "not yours", "showing"):
                    self.err("CS204", f"a player is not '{c.pred}': that is said of cards", c.span)
                    return E.Did(False)
                test = E.PlayerMarked(self.players(c.subject, params), c.mark, c.this_turn)
            elif c.pred in ("face down", "face up"):
                return E.FaceDown(self.cards(c.subject, params), c.pred == "face down")
            elif c.pred == "showing":
                return E.Showing(self.cards(c.subject, params), c.mark)
            elif c.pred in ("yours", "not yours"):
                test = E.Owned(self.cards(c.subject, params))
                return E.Not(test) if c.pred == "not yours" else test
            else:
                test = E.CardMarked(self.cards(c.subject, params), c.mark, c.this_turn)
            return E.Not(test) if c.pred == "not marked" else test
        if isinstance(c, A.AnyMarked):
            return E.AnyFoeMarked(c.mark, c.this_turn)
        if isinstance(c, A.Did):
            return E.Did(c.negate)
        if isinstance(c, A.ZoneEmpty):
            return E.ZoneEmpty(self.zone_ref(c.zone, params))
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
        for s in b.stmts:
            if isinstance(s, A.Let):
                params[s.name] = "number"
            out.append(self.stmt(s, params))
        return E.Seq(out)

    def stmt(self, s: Any, params: dict[str, str]) -> Any:
        if isinstance(s, A.Call):
            return self.call(s, params)
        if isinstance(s, A.Choose):
            inner: Any = E.Choose(self.cards(s.cards, params, "choose"),
                                  self.body(s.body, params) if s.body is not None else None, s.may)
            return E.AsPlayers(self.players(s.subject, params), inner) if s.subject is not None else inner
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
        raise AssertionError(f"unknown statement {s!r}")

    def call(self, c: A.Call, params: dict[str, str]) -> Any:
        match, diag = match_call(c, self.sym, params)
        if diag is not None:
            self.diags.append(diag)
            return E.Nothing()
        assert match is not None
        inner = self._build_call(match, c, params)
        if c.may:
            inner = E.May(inner, display(tokens_of(c.items)))
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
            return E.TakeActions()
        if b == "take control":
            return E.TakeControl(args["C"])
        if b == "roll":
            return E.Roll(args["C"])
        if b == "put under":
            return E.Move(args["C"], args["Z"], bottom=True)
        ue = self.user[sig.key + ("{block}" if sig.has_block else "")]
        return E.Call(ue, [(kind, args[name]) for name, kind, _ in m.bound])

    # ------------------------------------------------------------ definitions
    def effects(self) -> None:
        for sig in self.sym.effects:
            key = sig.key + ("{block}" if sig.has_block else "")
            self.user[key] = E.UserEffect(sig.display, list(sig.params))
        for sig in self.sym.effects:
            key = sig.key + ("{block}" if sig.has_block else "")
            ue = self.user[key]
            assert sig.defn is not None
            self._calls_from = self.calls.setdefault(sig.key, set())
            ue.body = self.body(sig.defn.body, dict(sig.params))
            self._calls_from = None

    def keyword_closure(self, direct: set[str]) -> set[str]:
        names = {s.key: s.name for s in self.sym.effects}
        out: set[str] = set()
        todo = list(direct)
        seen: set[str] = set()
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            if k in names:
                out.add(names[k])
            todo.extend(self.calls.get(k, ()))
        return out

    def card(self, cd: A.CardDef, index: int) -> tuple[CardType, list[Printing]]:
        sym = self.sym
        types = set()
        for w, span in cd.words:
            if w in sym.types:
                types.add(w)
            else:
                self.unknown("card type", w, span, sym.types)
        attrs: dict[str, Any] = {a.name: a.default for a in sym.attributes.values()}
        for name, value, span in cd.attrs:
            if name not in sym.attributes:
                self.err("CS205", f"unknown attribute {name!r} on card {cd.name!r}", span,
                         did_you_mean(name, sym.attributes) or f"declare it: attribute {name} = 0")
            attrs[name] = value
        home = self.zone(cd.home, cd.span) if cd.home else -1
        abilities: dict[str, Any] = {}
        passive: dict[str, dict[int, int]] = {}
        passive_labels = {p.label for p in sym.passives}
        direct: set[str] = set()
        for ab in cd.abilities:
            if ab.label not in sym.labels:
                self.unknown("ability label", ab.label, ab.span, sym.labels)
            if ab.label in passive_labels:
                passive[ab.label] = self.passive_amounts(ab)
            self._calls_from = direct
            abilities[ab.label] = self.body(ab.body, {})
            self._calls_from = None
        triggers = []
        for tr in cd.triggers:
            self._calls_from = direct
            triggers.append(self.trigger(tr.event, tr.body))
            self._calls_from = None
        keywords = frozenset(self.keyword_closure(direct) | set(abilities))
        ct = CardType(cd.name, index, frozenset(types), keywords, attrs, abilities, passive, tuple(triggers), home,
                      source=f"{cd.span.file}:{cd.span.line}", faces=cd.faces)
        printings = []
        for pr in cd.printings or (A.Printing(cd.span, 1, ()),):
            pattrs = dict(attrs)
            for name, value in pr.overrides:
                if name not in sym.attributes:
                    self.err("CS205", f"unknown attribute {name!r} on card {cd.name!r}", pr.span,
                             did_you_mean(name, sym.attributes))
                pattrs[name] = value
            printings.append(Printing(ct, pr.copies, pattrs))
        return ct, printings

    def passive_amounts(self, ab: A.Ability) -> dict[int, int]:
        out: dict[int, int] = {}
        for s in ab.body.stmts:
            if isinstance(s, A.CounterAdd) and isinstance(s.amount, A.Num) and s.player is None:
                idx = self.counter(s.counter, s.span)
                out[idx] = out.get(idx, 0) + s.sign * s.amount.value
            else:
                self.err("CS204", f"a passive '{ab.label}' ability may only raise or lower counters by a number",
                         s.span, "write e.g. '+1 damage-bonus'")
        return out

    def trigger(self, ev: A.Event, body: A.Body) -> TriggerDef:
        self.trigger_uid += 1
        return TriggerDef(self.trigger_uid, ev.name, ev.first_time, ev.your_turn, self.body(body, {}),
                          f"{ev.span.file}:{ev.span.line}", ev.of_this_card)

    def definition(self, sources: dict[str, str]) -> GameDefinition:
        sym = self.sym
        self.effects()
        zones = [ZoneDef(z.name, i, z.per_player, z.visibility, z.face_down, z.stack, z.active, z.play_zone,
                         self.zone(z.refill_from, z.span) if z.refill_from else -1, z.per_card)
                 for i, z in enumerate(sym.zones.values())]
        counters = [CounterDef(c.name, i, c.per_player, c.initial, c.low, c.high, c.per_card)
                    for i, c in enumerate(sym.counters.values())]
        cards, printings = [], []
        for cd in sym.cards.values():
            mark = len(self.diags)
            ct, prs = self.card(cd, len(cards))
            if cd.span.file in self.lenient and any(d.severity == "error" for d in self.diags[mark:]):
                # A card mixed in from another set that needs rules this game lacks.
                first = next(d for d in self.diags[mark:] if d.severity == "error")
                del self.diags[mark:]
                self.diags.append(warning("CS220", f"card {cd.name!r} is left out: it needs what "
                                          f"{sym.header.name if sym.header else 'the game'} does not have "
                                          f"({first.message})", cd.span, first.hint))
                continue
            cards.append(ct)
            printings.extend(prs)
        rules: dict[str, list[TriggerDef]] = {}
        for r in sym.rules:
            rules.setdefault(r.event.name, []).append(self.trigger(r.event, r.body))
        setup = E.Seq([self.body(s.body, {}) for s in sym.setups])
        if sym.turn is None:
            self.err("CS207", "the game has no 'turn:' block", sym.header.span if sym.header else None,
                     "write the turn structure: turn: ... take actions ...")
            turn: Any = E.Seq([])
        else:
            turn = self.body(sym.turn.body, {})
        actions = []
        for a in sym.actions:
            choose = self.cards(a.choose, {}, "action") if a.choose is not None else None
            cond = self.cond(a.cond, {}) if a.cond is not None else None
            prefer = self.expr(a.prefer, {}) if a.prefer is not None else None
            actions.append(ActionDef(a.name, choose, cond, self.body(a.body, {}), prefer))
        ends = [EndCondition(e.timing, self.cond(e.cond, {}), e.reason or "end condition") for e in sym.end_whens]
        score = self.body(sym.score.body, {}) if sym.score is not None else None
        ties = [self.expr(x, {}) for x in sym.tie_break.exprs] if sym.tie_break is not None else []
        outcomes = [(o.text, self.cond(o.cond, {})) for o in sym.outcomes]
        for pl in sym.printed_labels.values():
            if pl.label not in sym.labels:
                self.unknown("ability label", pl.label, pl.span, sym.labels)
        warns = [(w.text, self.cond(w.cond, {})) for w in sym.warns]
        passives = [(p.label, self.zone(p.zone, p.span)) for p in sym.passives]
        passive_counters = frozenset(k for ct in cards for amounts in ct.passive.values() for k in amounts)
        players = (sym.players.low, sym.players.high) if sym.players else (1, 1)
        if sym.players is None and sym.header is not None and sym.header.kind == "game":
            self.err("CS207", "the game does not say how many play: add 'players 2 to 4'", sym.header.span)
        return GameDefinition(
            name=sym.header.name if sym.header else "game", players=players, zones=zones, counters=counters,
            cards=cards, printings=printings, setup=setup, turn=turn, actions=actions, rules=rules,
            end_conditions=ends, score=score, score_counter=self.counter_index.get("score", -1), tie_breaks=ties,
            passives=passives, passive_counters=passive_counters, box_zone=self.zone_index["box"],
            attributes={k: v.default for k, v in sym.attributes.items()}, types=tuple(sym.types),
            labels=tuple(sym.labels), sources=sources, quiet_events=frozenset(sym.quiet_events),
            quiet_counters=frozenset(self.counter(n, sp) for n, sp in sym.quiet_counters), outcomes=outcomes,
            warnings=warns)


def compile_program(program: Program, with_symbols: bool = False) -> Any:
    """Check and lower a loaded program.

    Returns:
        (definition, diagnostics): the definition is None when any diagnostic is an error;
        with ``with_symbols``, (definition, diagnostics, symbols).
    """
    sym, diags = collect(program.scripts, program.mixed)
    low = Lowerer(sym, program.mixed)
    try:
        definition = low.definition(program.sources)
    except CompileError as exc:
        diags.extend(exc.diagnostics)
        definition = None
    diags.extend(low.diags)
    diags.sort(key=lambda d: (d.span.file if d.span else "", d.span.line if d.span else 0,
                              d.span.column if d.span else 0, d.code))
    if any(d.severity == "error" for d in diags):
        definition = None
    return (definition, diags, sym) if with_symbols else (definition, diags)

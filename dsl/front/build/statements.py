"""Builder for bodies, statements and calls (grammar section 'statements')."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase, _s


@v_args(meta=True)
class StatementBuilder(BuilderBase):
    """Bodies and blocks, each statement, and the calls (effect phrases) with their items."""

    # ------------------------------------------------------------ statements
    def body(self, meta, c):
        stmts = c[0] if isinstance(c[0], list) else c[0].stmts
        return A.Body(self._sp(meta), _attach_otherwise(tuple(stmts)))

    def block(self, meta, c):
        out: list[Any] = []
        for s in c:
            out.extend(s if isinstance(s, list) else [s])
        return A.Body(self._sp(meta), _attach_otherwise(tuple(out)))

    def line(self, meta, c):
        return list(c)

    def _body_of(self, meta, x):
        return x if isinstance(x, A.Body) else A.Body(self._sp(meta), tuple(x))

    def if_stmt(self, meta, c):
        return A.If(self._sp(meta), c[0], self._body_of(meta, c[1]))

    def otherwise(self, meta, c):
        return A.Otherwise(self._sp(meta), c[0])

    def for_players(self, meta, c):
        return A.ForPlayers(self._sp(meta), c[0], self._body_of(meta, c[1]))

    def for_cards(self, meta, c):
        return A.ForCards(self._sp(meta), c[0], self._body_of(meta, c[1]))

    def repeat(self, meta, c):
        return A.Repeat(self._sp(meta), c[0], self._body_of(meta, c[1]))

    def between_turns(self, meta, c):
        return A.BetweenTurns(self._sp(meta), self._body_of(meta, c[0]))

    def _prefix(self, c):
        subject, may, rest = None, False, list(c)
        if rest and isinstance(rest[0], A.PlayerSel):
            subject = rest.pop(0)
        if rest and isinstance(rest[0], Token) and rest[0].type == "MAY":
            may = True
            rest.pop(0)
        return subject, may, rest

    def call_block(self, meta, c):
        subject, may, rest = self._prefix(c)
        call: A.Call = rest[0]
        return A.Call(self._sp(meta), call.items, self._body_of(meta, rest[1]), subject, may)

    def call_stmt(self, meta, c):
        subject, may, rest = self._prefix(c)
        call: A.Call = rest[0]
        return A.Call(self._sp(meta), call.items, None, subject, may)

    def choose(self, meta, c):
        subject, may, rest = self._prefix(c)
        body = self._body_of(meta, rest[1]) if len(rest) > 1 else None
        return A.Choose(self._sp(meta), rest[0], body, subject, may)

    def counter_add(self, meta, c):
        sign = -1 if c[0] == "-" else 1
        player = c[3] if len(c) > 3 else None
        return A.CounterAdd(self._sp(meta), sign, c[1], c[2], player)

    def counter_set(self, meta, c):
        ref: A.CounterOf = c[0]
        return A.CounterSet(self._sp(meta), ref.owner, ref.name, c[1], ref.cards)

    def card_counter_add(self, meta, c):
        sign = -1 if c[0] == "-" else 1
        return A.CounterAdd(self._sp(meta), sign, c[1], c[2], None, c[3])

    def card_counter(self, meta, c):
        return A.CounterOf(self._sp(meta), "card", c[0], c[1])

    def mark(self, meta, c):
        return A.Mark(self._sp(meta), c[0], _s(c[1]), len(c) > 2)

    def unmark(self, meta, c):
        return A.Mark(self._sp(meta), c[0], _s(c[1]), len(c) > 2, unmark=True)

    def resolve(self, meta, c):
        card = str(c[1]) if isinstance(c[1], Token) else c[1]
        return A.Resolve(self._sp(meta), c[0], card, c[2] if len(c) > 2 else None)

    def emit(self, meta, c):
        return A.Emit(self._sp(meta), _s(c[0]), c[1] if len(c) > 1 else None)

    def end_game(self, meta, c):
        return A.EndGame(self._sp(meta), _s(c[0]) if c else "")

    def let(self, meta, c):
        return A.Let(self._sp(meta), str(c[0]), c[1])

    def nothing(self, meta, c):
        return A.Nothing(self._sp(meta))

    def run_block(self, meta, c):
        return A.RunBlock(self._sp(meta), str(c[0]))

    def subject(self, meta, c):
        return c[0]

    def s_they(self, meta, c):
        return A.PlayerSel(self._sp(meta), "them")

    def s_param(self, meta, c):
        return A.PlayerSel(self._sp(meta), "param", str(c[0]))

    # ------------------------------------------------------------ calls
    def call(self, meta, c):
        items = [A.Word(self._sp(meta), str(c[0])), *c[1:]]
        return A.Call(self._sp(meta), tuple(items))

    def cword(self, meta, c):
        return A.Word(self._sp(meta), str(c[0]))

    def carg_num(self, meta, c):
        return A.NumArg(self._sp(meta), A.Num(self._sp(meta), int(c[0])))

    def carg_str(self, meta, c):
        return A.StrArg(self._sp(meta), _s(c[0]))

    def carg_expr(self, meta, c):
        return A.NumArg(self._sp(meta), c[0])

    def carg_param(self, meta, c):
        return A.ParamArg(self._sp(meta), str(c[0]))

    def cslot(self, meta, c):
        return A.Slot(self._sp(meta), str(c[0]), str(c[1]))

    def carg_cards(self, meta, c):
        return A.CardsArg(self._sp(meta), c[0])

    def carg_players(self, meta, c):
        return A.PlayersArg(self._sp(meta), c[0])

    def carg_zone(self, meta, c):
        return A.ZoneArg(self._sp(meta), c[0])


def _attach_otherwise(stmts: tuple[Any, ...]) -> tuple[Any, ...]:
    """Fold each 'otherwise:' into the 'if' just before it; a stray one stays for the checker."""
    out: list[Any] = []
    for s in stmts:
        if isinstance(s, A.Otherwise) and out and isinstance(out[-1], A.If) and out[-1].otherwise is None:
            prev = out.pop()
            out.append(A.If(prev.span, prev.cond, prev.then, s.body))
        else:
            out.append(s)
    return tuple(out)


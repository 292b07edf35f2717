"""Builder for conditions and expressions (grammar sections 'conditions' and 'expressions')."""

from __future__ import annotations

from lark import v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase, _s


@v_args(meta=True)
class ExpressionBuilder(BuilderBase):
    """Conditions (comparisons, 'is' tests, events, boolean operators) and expressions."""

    # ------------------------------------------------------------ conditions
    def or_(self, meta, c):
        return A.BoolOp(self._sp(meta), "or", (c[0], c[1]))

    def and_(self, meta, c):
        return A.BoolOp(self._sp(meta), "and", (c[0], c[1]))

    def not_(self, meta, c):
        return A.BoolOp(self._sp(meta), "not", (c[0],))

    def compare(self, meta, c):
        return A.Compare(self._sp(meta), str(c[1]), c[0], c[2])

    def is_(self, meta, c):
        subject, _verb, (pred, mark, this_turn) = c
        return A.Is(self._sp(meta), subject, pred, mark, this_turn)

    def pr_marked(self, meta, c):
        return ("marked", _s(c[0]), len(c) > 1)

    def pr_not_marked(self, meta, c):
        return ("not marked", _s(c[0]), len(c) > 1)

    def pr_face_down(self, meta, c):
        return ("face down", "", False)

    def pr_face_up(self, meta, c):
        return ("face up", "", False)

    def pr_yours(self, meta, c):
        return ("yours", "", False)

    def pr_not_yours(self, meta, c):
        return ("not yours", "", False)

    def pr_this(self, meta, c):
        return ("this", "", False)

    def pr_not_this(self, meta, c):
        return ("not this", "", False)

    def pr_showing(self, meta, c):
        return ("showing", _s(c[0]), False)

    def any_marked(self, meta, c):
        return A.AnyMarked(self._sp(meta), _s(c[0]), len(c) > 1)

    def did(self, meta, c):
        return A.Did(self._sp(meta), False)

    def did_not(self, meta, c):
        return A.Did(self._sp(meta), True)

    def affected(self, meta, c):
        return A.Affected(self._sp(meta), c[0], False)

    def not_affected(self, meta, c):
        return A.Affected(self._sp(meta), c[0], True)

    def zone_empty(self, meta, c):
        return A.ZoneEmpty(self._sp(meta), c[0])

    def has(self, meta, c):
        return A.Has(self._sp(meta), c[0], c[1])

    def has_home(self, meta, c):
        return A.HasHome(self._sp(meta), c[0])

    def emitted(self, meta, c):
        return A.Emitted(self._sp(meta), _s(c[0]), c[1] if len(c) > 1 else None)

    def outcome_is(self, meta, c):
        return A.OutcomeIs(self._sp(meta), _s(c[0]))

    def game_over(self, meta, c):
        return A.GameOverCond(self._sp(meta))

    def winner_is(self, meta, c):
        return A.WinnerIs(self._sp(meta), c[0])

    # ------------------------------------------------------------ expressions
    def binop(self, meta, c):
        return A.BinOp(self._sp(meta), str(c[1]), c[0], c[2])

    def text(self, meta, c):
        return A.Text(self._sp(meta), _s(c[0]))

    def neg(self, meta, c):
        return A.BinOp(self._sp(meta), "-", A.Num(self._sp(meta), 0), c[-1])

    def mul(self, meta, c):
        return A.BinOp(self._sp(meta), "*", c[0], c[1])

    def div(self, meta, c):
        return A.BinOp(self._sp(meta), "/", c[0], c[1])

    def mod(self, meta, c):
        return A.BinOp(self._sp(meta), "mod", c[0], c[1])

    def num(self, meta, c):
        return A.Num(self._sp(meta), int(c[0]))

    def param(self, meta, c):
        return A.Param(self._sp(meta), str(c[0]))

    def count(self, meta, c):
        return A.Count(self._sp(meta), c[0])

    def count_players(self, meta, c):
        return A.CountPlayers(self._sp(meta))

    def count_types(self, meta, c):
        return A.CountTypes(self._sp(meta), c[0])

    def sum_attr(self, meta, c):
        return A.SumAttr(self._sp(meta), c[0], c[1])

    def highest(self, meta, c):
        return A.Highest(self._sp(meta), c[0], c[1])

    def highest_of_cards(self, meta, c):
        return A.Highest(self._sp(meta), c[0], None)

    def lowest(self, meta, c):
        return A.Highest(self._sp(meta), c[0], c[1], True)

    def lowest_of_cards(self, meta, c):
        return A.Highest(self._sp(meta), c[0], None, True)

    def max_(self, meta, c):
        return A.MinMax(self._sp(meta), "max", c[0], c[1])

    def min_(self, meta, c):
        return A.MinMax(self._sp(meta), "min", c[0], c[1])

    def attr_of(self, meta, c):
        return A.AttrOf(self._sp(meta), c[0], c[1])

    def attr_for(self, meta, c):
        return A.AttrOf(self._sp(meta), c[0], c[1], c[2])

    def your_counter(self, meta, c):
        return A.CounterOf(self._sp(meta), "you", c[0])

    def their_counter(self, meta, c):
        return A.CounterOf(self._sp(meta), "them", c[0])

    def shared_counter(self, meta, c):
        return A.CounterOf(self._sp(meta), "shared", c[0])

"""Issue 11, part A: the specialised effect classes behave exactly as the generic ones.

Each specialised variant is checked against a reference written here from the language's
definition (docs/language.md), on the same inputs, so that a wrong fold, a wrong mirrored
operator or a wrong short cut fails."""

from __future__ import annotations

import operator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardscript.runtime import effects as E
from cardscript.runtime.context import Ctx
from cardscript.runtime.effects import conditions as C
from cardscript.runtime.effects import hoist

OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt, "==": operator.eq,
       "!=": operator.ne}


class _Probe(E.Node):
    """A condition or expression with a known value that records each time it runs."""

    __slots__ = ("log", "name", "value")

    def __init__(self, name: str, value: Any, log: list[str]):
        self.name, self.value, self.log = name, value, log

    def evaluate(self, g: Any, ctx: Ctx) -> Any:
        self.log.append(self.name)
        return self.value

    def test(self, g: Any, ctx: Ctx) -> bool:
        self.log.append(self.name)
        return bool(self.value)


def _side(kind: str, value: int, log: list[str], name: str) -> Any:
    return E.Const(value) if kind == "const" else E.Var("v" + name) if kind == "var" else _Probe(name, value, log)


@given(op=st.sampled_from(sorted(OPS)), a=st.integers(-3, 3), b=st.integers(-3, 3),
       left=st.sampled_from(["const", "var", "probe"]), right=st.sampled_from(["const", "var", "probe"]))
def test_compare_matches_the_operator_with_a_constant_on_either_side(op: str, a: int, b: int, left: str,
                                                                      right: str) -> None:
    log: list[str] = []
    c = E.Compare(op, _side(left, a, log, "l"), _side(right, b, log, "r"))
    ctx = Ctx(0, vars={"vl": a, "vr": b})
    assert c.test(None, ctx) is OPS[op](a, b)  # type: ignore[arg-type]
    # only the non-constant sides run, each once, left before right
    assert log == [n for n, k in (("l", left), ("r", right)) if k == "probe"]
    assert isinstance(c, E.Compare)
    assert c.ir() == {"Compare": {"comparison": op, "left": c.left.ir(), "right": c.right.ir()}}


@pytest.mark.parametrize("op", ["==", "!="])
@pytest.mark.parametrize("text", ["Rare Card", "other"])
def test_compare_folds_texts(op: str, text: str) -> None:
    ctx = Ctx(0, vars={"t": "Rare Card"})
    for c in (E.Compare(op, E.Var("t"), E.Text(text)), E.Compare(op, E.Text(text), E.Var("t"))):
        assert c.test(None, ctx) is OPS[op]("Rare Card", text)  # type: ignore[arg-type]


@given(values=st.lists(st.booleans(), max_size=4), use_or=st.booleans())
def test_and_or_match_all_any_and_stop_at_the_same_condition(values: list[bool], use_or: bool) -> None:
    log: list[str] = []
    args = [_Probe(str(i), v, log) for i, v in enumerate(values)]
    node = (E.Or if use_or else E.And)(args)
    result = node.test(None, Ctx(0))  # type: ignore[arg-type]
    assert result is (any(values) if use_or else all(values))
    stop = next((i for i, v in enumerate(values) if v == use_or), len(values) - 1)
    assert log == [str(i) for i in range(stop + 1)] if values else log == []
    assert node.ir() == {("Or" if use_or else "And"): {"args": [a.ir() for a in args]}}


def test_specialised_variants_keep_the_generic_fields() -> None:
    """The IR walk, nest_depth and hoisting read ``__slots__``: a variant lists its base's."""
    for node in (E.Compare("<", E.Var("x"), E.Const(1)), E.Compare("<", E.Var("x"), E.Var("y")),
                 E.And([E.Did(False)]), E.And([E.Did(False), E.Did(True)]), E.Or([E.Did(False), E.Did(True)])):
        generic = type(node)._generic
        assert generic is not None and type(node) is not generic and node.__slots__ == generic.__slots__


def test_hoisting_a_side_of_a_folded_compare_rederives_it() -> None:
    """A hoisted rewrite copies a variant and sets its private fields from the new sides."""
    count = E.CountCards(E.Cards("pick", "all", zones=(E.ZoneRef("you", 0),)))
    cost = E.AttrOf("cost", E.Cards("it"))
    # '2 < cost of it and 0 < count ... - cost of it': the count is hoisted out of the second test
    cond = E.And([E.Compare("<", E.Const(2), cost), E.Compare("<", E.Const(0), E.Arith("-", count, cost))])
    prefix, rest, hoisted = hoist.plan_filter(cond)
    assert prefix == () and len(hoisted) == 1 and isinstance(rest, C.And)
    folded = rest.args[1]
    assert folded is not cond.args[1] and folded._k == 0 and folded._x is folded.right
    assert isinstance(folded._x.left, hoist.Hoisted) and rest._b is folded

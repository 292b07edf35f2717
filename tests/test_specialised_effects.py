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


# ---------------------------------------------------------------- on a real game's state
def _game_mid_way(game: str = "injustice", seed: int = 3) -> Any:
    """A game played to its end: its zones hold cards of every kind (stacks, face down)."""
    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine

    definition, _w, _p = compile_game(game)
    e = Engine(definition, 2, make_agents(["random"], 2), seed, log=False)
    e.run()
    return e.game


def _generic_cards(*args: Any, **kw: Any) -> E.Cards:
    """The generic selector (no variant, the general code for its pool), for reference."""
    sel = object.__new__(E.Cards)
    sel.__init__(*args, **kw)  # type: ignore[misc]
    sel._source = None
    return sel


@pytest.mark.parametrize("game", ["injustice", "hero-dice-batman"])
def test_planned_pools_match_the_general_code_in_every_zone(game: str) -> None:
    """'your ZONE' and shared zones found by index: the same cards in the same order, the
    top card only of a stack for a choice, and the same steps, in every zone of the game."""
    g = _game_mid_way(game)
    for z in g.d.zones:
        owner = "you" if z.per_player else "shared"
        for quantity in ("all", "", "one", "up to", "n"):
            for zones in ((E.ZoneRef(owner, z.index),), (E.ZoneRef(owner, z.index), E.ZoneRef("shared", 0))):
                fast = E.Cards("pick", quantity, E.Const(2), zones)
                slow = _generic_cards("pick", quantity, E.Const(2), zones)
                for you in (0, 1):
                    before = g.steps
                    got = fast.candidates(g, Ctx(you))
                    spent = g.steps - before
                    assert got == slow.candidates(g, Ctx(you)) and g.steps - before == 2 * spent, (z.name, quantity)
                    if z.stack and quantity in ("one", "up to") and g.slots[g.slot(z.index, you)]:
                        assert got[0] == g.slots[g.slot(z.index, you)][-1] and len(got) <= 1 + len(g.slots[0])


def test_planned_pools_apply_types_and_has_filters_as_card_has() -> None:
    g = _game_mid_way()
    words = sorted({w for ws in g.card_words for w in ws})[:6]
    zones = (E.ZoneRef("shared", 0),)  # the box: every card
    for w in words:
        for filters in ((("has", (w,)),), (("has_not", (w, words[0])),)):
            fast = E.Cards("pick", "all", None, zones, (w,), filters=filters)
            slow = _generic_cards("pick", "all", None, zones, (w,), filters=filters)
            assert fast.cards(g, Ctx(0)) == slow.cards(g, Ctx(0))
            assert fast.cards(g, Ctx(0)) == [c for c in slow.candidates(g, Ctx(0)) if c >= 0]


def test_cards_variants_select_as_the_generic_selector() -> None:
    g = _game_mid_way()
    for kind in ("it", "this"):
        sel = E.Cards(kind)
        assert type(sel) is not E.Cards and sel.ir() == _generic_cards(kind).ir()
        for bound in (None, 0, 7):
            ctx = Ctx(0, it=bound, this=bound)
            assert sel.cards(g, ctx) == _generic_cards(kind).cards(g, ctx) == ([] if bound is None else [bound])
    hand = (E.ZoneRef("you", 2),)
    assert type(E.Cards("pick", "all", None, hand)) is not E.Cards
    assert type(E.Cards("pick", "up to", E.Const(2), hand)) is E.Cards  # a choice: the general code


def test_blocks_of_none_and_one_statement_count_steps_and_did_as_a_block() -> None:
    g = _game_mid_way()
    log: list[str] = []

    class Stmt(E.Node):
        __slots__ = ()

        def run(self, g: Any, ctx: Ctx) -> int:
            log.append("ran")
            g.clock += 5  # a change: 'since' is the clock before the statement
            return 3

    for stmts in ([], [Stmt()]):
        fast, slow = E.Seq(stmts), object.__new__(E.Seq)
        slow.__init__(stmts)  # type: ignore[misc]
        assert type(fast) is not E.Seq and fast.ir() == slow.ir()
        results = []
        for seq in (fast, slow):
            ctx, before, clock = Ctx(0), g.steps, g.clock
            r = seq.run(g, ctx)
            results.append((r, type(r), g.steps - before, ctx.did, ctx.since - clock if stmts else ctx.since))
        assert results[0] == results[1]
    assert log == ["ran", "ran"]
    g.steps = g.step_limit + 1  # past the budget: an empty block stops the game too
    with pytest.raises(Exception, match="budget"):
        E.Seq([]).run(g, Ctx(0))


def test_your_counter_read_by_index_matches_get_with_passive_bonuses() -> None:
    """Injustice's damage-bonus counter has passive bonuses: it is not read by index."""
    g = _game_mid_way()
    for c in g.d.counters:
        for you in (0, 1):
            v = E.CounterValue("you", c.index)
            assert v.evaluate(g, Ctx(you)) == g.get(c.index, you)
            assert v._plain == (c.per_player and c.index not in g.d.passive_counters)
    assert any(c.index in g.d.passive_counters for c in g.d.counters)


def test_attribute_for_you_without_modifiers_matches_modified() -> None:
    from cardscript.runtime.effects.cardrules import modified

    g = _game_mid_way()
    attrs = sorted({a for at in g.card_attrs for a in at})
    for attr in attrs:
        node = E.AttrFor(attr, E.Cards("it"), E.Players("you"))
        for card in range(len(g.card_type)):
            assert node.evaluate(g, Ctx(1, it=card)) == modified(g, attr, 1, card)
        g.attr_mods.append([attr, 1, (), -1, "", False])  # a modifier: the general code, which sees it
        assert all(node.evaluate(g, Ctx(1, it=c)) == modified(g, attr, 1, c) for c in range(len(g.card_type)))
        g.attr_mods.clear()


def test_zone_variants_name_the_slots_the_generic_reference_names() -> None:
    g = _game_mid_way()
    for z in g.d.zones:
        owner = "you" if z.per_player else "shared"
        fast = E.ZoneRef(owner, z.index)
        slow = object.__new__(E.ZoneRef)
        slow.__init__(owner, z.index)  # type: ignore[misc]
        assert type(fast) is not E.ZoneRef and fast.ir() == slow.ir()
        for you in (0, 1):
            assert fast.slots(g, Ctx(you)) == slow.slots(g, Ctx(you)) == [g.slot(z.index, you)]


@pytest.mark.parametrize("game", ["injustice", "justice-league-dark", "hero-dice-batman"])
def test_triggers_indexed_by_event_are_those_a_scan_finds_in_order(game: str) -> None:
    g = _game_mid_way(game)
    listening = 0
    for event in sorted(g.trigger_events):
        index = g._listening(event)
        assert index is g._listening(event)  # made once
        for ct, found in zip(g.d.cards, index, strict=True):
            assert found == tuple(t for t in ct.triggers if t.event == event and not t.of_this_card)
            listening += len(found)
    assert listening > 0 or game != "injustice"  # the others have no trigger of a card in play


@pytest.mark.parametrize("game", ["injustice", "hero-dice-batman"])
def test_top_cards_match_the_general_code_refills_included(game: str) -> None:
    """'the top N cards of ZONE' by index: the same cards, and the same refills (shuffles,
    steps, the RNG) as the general code, on two games in the same state."""
    fast_g, slow_g = _game_mid_way(game), _game_mid_way(game)
    for z in fast_g.d.zones:
        owner = "you" if z.per_player else "shared"
        for n in (0, 1, 3, 60, -1):
            fast = E.Cards("top", count=E.Const(n), zones=(E.ZoneRef(owner, z.index),))
            slow = _generic_cards("top", count=E.Const(n), zones=(E.ZoneRef(owner, z.index),))
            assert type(fast) is not E.Cards
            for you in (0, 1):
                got = fast.cards(fast_g, Ctx(you))
                assert got == slow.cards(slow_g, Ctx(you)), (z.name, n)
                assert len(got) == min(max(n, 0), len(fast_g.slots[fast_g.slot(z.index, you)]))
                assert fast_g.slots == slow_g.slots and fast_g.steps == slow_g.steps
                assert fast_g.rng.getstate() == slow_g.rng.getstate()
    assert any(fast_g.d.zones[z].refill_from >= 0 for z in range(len(fast_g.d.zones))) or game != "injustice"


def test_player_variants_select_as_the_generic_selector() -> None:
    g = _game_mid_way()
    for kind in ("you", "each foe", "each player"):
        fast = E.Players(kind)
        slow = object.__new__(E.Players)
        slow.__init__(kind)  # type: ignore[misc]
        assert type(fast) is not E.Players and fast.ir() == slow.ir()
        for you in (0, 1):
            assert fast.players(g, Ctx(you)) == slow.players(g, Ctx(you))
    assert type(E.Players("you", filters=(("m", False, False),))) is E.Players  # a filter: the general code


def test_a_card_name_filter_by_card_type_matches_the_names() -> None:
    g = _game_mid_way()
    zones = tuple(E.ZoneRef("you" if z.per_player else "shared", z.index) for z in g.d.zones)
    every = _generic_cards("pick", "all", None, zones).cards(g, Ctx(0))
    names = sorted({g.card_name(c) for c in every})
    for name in [*names[:8], "No Such Card"]:
        got = E.Cards("pick", "all", None, zones, name=name).cards(g, Ctx(0))
        assert got == [c for c in every if g.card_name(c) == name]
        assert got or name == "No Such Card"


@pytest.mark.parametrize("game", ["justice-league-dark", "injustice"])
def test_filters_tested_for_the_whole_pool_keep_the_cards_and_steps_of_the_per_card_test(game: str) -> None:
    """'cost of it for you <= your power', 'it is face up and ...': the pool test keeps the
    same cards, in order, for the same steps as testing each card; with an attribute
    modifier it hands the pass to the per-card test."""
    from cardscript.runtime.effects.pools import PoolFilter

    g = _game_mid_way(game)
    pooled = 0
    for act in g.d.actions:
        sel = act.choose
        if not isinstance(sel, E.Cards) or not any(fk == "where" for fk, _ in sel.filters):
            continue
        per_card = object.__new__(type(sel))
        for slot in E.Cards.__slots__:
            object.__setattr__(per_card, slot, getattr(sel, slot))
        plan = sel._plan(g)
        pooled += sum(isinstance(rest, PoolFilter) for _fk, _p, rest, _h in plan)
        # the same plan, each pool test replaced by the condition it stands for
        per_card._filters = tuple((fk, p, rest.cond if isinstance(rest, PoolFilter) else rest, h)
                                  for fk, p, rest, h in sel._plan(g))
        for mods in ([], [["cost", 0, (), -2, "", False], ["cost", 1, (), 1, "", False]]):
            g.attr_mods[:] = mods
            for you in (0, 1):
                for power in (0, 3, 8):
                    g.values[g.counter_base[0] + you] = power
                    before = g.steps
                    got = sel.candidates(g, Ctx(you))
                    spent = g.steps - before
                    assert got == per_card.candidates(g, Ctx(you)), (act.name, mods, power)
                    assert g.steps - before == 2 * spent
        g.attr_mods.clear()
    assert pooled >= 1

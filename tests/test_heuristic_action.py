"""The heuristic bot's action decision picked in one pass (issue 11, "agents drop the
per-option churn"): :func:`~cardscript.runtime.effects.choices.heuristic_action` answers as
``HeuristicAgent.pick_action`` does with the kinds and values
:func:`~cardscript.runtime.effects.choices.kinds_and_values` hands it, and a bot that answers
its own way is still asked."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime.agents import HeuristicAgent, make_agents
from cardscript.runtime.context import Ctx
from cardscript.runtime.effects.choices import heuristic_action, option_values
from cardscript.runtime.engine import Engine


class _Value:
    """A ``prefer`` expression whose value depends on the card bound to 'it' (as a hint
    such as ``cost of it`` does), so that the order the values are worked out in shows."""

    def __init__(self, table: list[int]):
        self.table = table

    def evaluate(self, g: Any, ctx: Ctx) -> int:
        return self.table[ctx.it if ctx.it is not None else 0]


_action = st.fixed_dictionaries({
    "order": st.integers(0, 4),
    "hinted": st.booleans(),
    "granted": st.booleans(),
    "prefer": st.one_of(st.none(), st.lists(st.integers(-3, 3), min_size=6, max_size=6)),
    "card_prefer": st.one_of(st.none(), st.tuples(st.sampled_from([1, -1]),
                                                  st.lists(st.integers(-3, 3), min_size=6, max_size=6))),
    "chooses": st.booleans(),
})


@settings(max_examples=300, deadline=None)
@given(actions=st.lists(_action, min_size=1, max_size=4),
       picks=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=10),
       costs=st.lists(st.one_of(st.integers(-2, 6), st.just("X")), min_size=5, max_size=5),
       it=st.one_of(st.none(), st.integers(0, 4)))
def test_heuristic_action_is_pick_action_of_kinds_and_values(actions: list[dict[str, Any]], picks: list[tuple[int, int]],
                                                           costs: list[Any], it: int | None) -> None:
    acts = []
    kinds: dict[int, Any] = {id(None): None}
    for a in actions:
        choose = SimpleNamespace(prefer=None if a["card_prefer"] is None else
                                 (a["card_prefer"][0], _Value(a["card_prefer"][1])))
        act = SimpleNamespace(prefer=None if a["prefer"] is None else _Value(a["prefer"]), choose=choose)
        acts.append((act, a["chooses"]))
        kinds[id(act)] = (a["order"], a["hinted"], a["granted"])
    # grouped in declaration order, as a window lists them, then 'end turn'
    options: list[Any] = []
    for n, (act, chooses) in enumerate(acts):
        options += [(act, c if chooses else None) for k, c in picks if k == n]
    options.append((None, None))
    g: Any = SimpleNamespace(card_attrs=[{"cost": x} for x in costs])
    plan: Any = SimpleNamespace(plain={}, card={})
    ctx = Ctx(0)
    ctx.it = it
    expected = HeuristicAgent().pick_action([kinds[id(a)] for a, _ in options],
                                            option_values(g, options, ctx, {}, {}))
    assert ctx.it == it
    assert heuristic_action(g, options, ctx, plan, kinds) == expected
    assert ctx.it == it


class _Counting(HeuristicAgent):
    """A heuristic bot with a pick_action of its own (the heuristic's, counted)."""

    calls = 0

    def pick_action(self, actions: Any, values: Any) -> int:
        _Counting.calls += 1
        return super().pick_action(actions, values)


def _play(agents: list[Any]) -> Any:
    d, _, _ = compile_game("injustice")
    return Engine(d, 2, agents, 3, log=False).run()  # unlogged: the one-pass pick's case


def test_a_bot_with_its_own_pick_action_is_asked() -> None:
    plain = _play(make_agents(["heuristic", "heuristic"], 2))
    _Counting.calls = 0
    own = _play([_Counting(), _Counting()])
    assert _Counting.calls > 100
    assert own.scores == plain.scores and own.decisions == plain.decisions  # the same policy
    asked = []
    mine = make_agents(["heuristic", "heuristic"], 2)
    for agent in mine:  # an instance's own answer
        agent.pick_action = lambda actions, values: asked.append(1) or len(actions) - 1  # type: ignore[method-assign]
    _play(mine)
    assert len(asked) > 10

"""Hostile scripts against the issue-12 primitives (review findings A1-A5, B1, B3, B6):
each must stop with a diagnostic within seconds — CS401 at run time, counted in steps,
or a check-time error — never hang or eat memory. The reproducers are in tests/hostile/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardscript.dsl.front.pipeline import compile_game
from cardscript.dsl.harness.scenario import run_scenario
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import MAX_DELAYED, MAX_GRANTED, MAX_MODIFIERS, MAX_PENDING_TRIGGERS, RunawayError

HOSTILE = Path(__file__).resolve().parent / "hostile"

#: reproducer -> what its CS401 must say (the bound it passed, not just any runaway)
RUNAWAYS = {
    "delayed-effect-that-sets-up-two-more.scenario": f"more than {MAX_DELAYED:,} delayed effects pending",
    "delayed-effects-that-never-come-due.scenario": f"more than {MAX_DELAYED:,} delayed effects pending",
    "grants-that-grant-grants.scenario": f"more than {MAX_GRANTED:,} actions granted in one turn",
    "cost-modifiers-piled-deep.scenario": f"more than {MAX_MODIFIERS:,} attribute modifiers in one turn",
    "take-actions-between-turns-in-a-trigger.scenario": "'take actions' between turns",
}


def _errors(path: Path) -> list[tuple[str, str]]:
    res = run_scenario(path)
    return [(d.code, d.message) for d in res.diagnostics if d.severity == "error"]


@pytest.mark.parametrize("name", sorted(RUNAWAYS))
def test_a_runaway_reproducer_stops_with_cs401(name: str) -> None:
    """The reproducer as written expects CS401 at its last step, and passes."""
    assert _errors(HOSTILE / name) == []


@pytest.mark.parametrize("name", sorted(RUNAWAYS))
def test_the_cs401_names_the_bound_passed(name: str, tmp_path: Path) -> None:
    """Without its 'expect error', the step fails with CS401 saying which bound it passed
    (not the step budget after a long run, nor another error)."""
    text = (HOSTILE / name).read_text().replace("expect error CS401\n", "")
    path = tmp_path / name
    path.write_text(text)
    errors = _errors(path)
    assert len(errors) == 1 and errors[0][0] == "CS401", errors
    assert RUNAWAYS[name] in errors[0][1], errors


def _error_scenario(name: str, tmp_path: Path) -> list[tuple[str, str]]:
    """Run a reproducer that must fail its check (kept as .error-scenario, see its header)."""
    path = tmp_path / f"{name}.scenario"
    path.write_text((HOSTILE / f"{name}.error-scenario").read_text())
    return _errors(path)


def test_take_actions_between_turns_through_effects_is_cs213(tmp_path: Path) -> None:
    errors = _error_scenario("take-actions-between-turns-through-an-effect", tmp_path)
    assert errors == [("CS213", "'take actions' between turns, through 'outer' -> 'act': "
                                "no player is active to take them")]


def test_take_actions_between_turns_through_an_effect_defined_later(tmp_path: Path) -> None:
    """An effect lowered before the one it calls still sees that one take actions."""
    path = tmp_path / "t.scenario"
    path.write_text('scenario "t"\nuses "injustice"\nplayers 2\n\n'
                    "effect early: between turns: late\neffect late: take actions\ndo: early\n")
    assert [c for c, _ in _errors(path)] == ["CS213"]


def test_take_actions_outside_between_turns_through_effects_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "t.scenario"
    path.write_text('scenario "t"\nuses "injustice"\nplayers 2\n\n'
                    "effect act: take actions\neffect outer: act\ndo: between turns: draw a card\n"
                    'answer "end turn"\ndo: outer\n')
    assert _errors(path) == []


def test_a_grant_named_like_an_action_of_the_game_is_cs216(tmp_path: Path) -> None:
    errors = _error_scenario("a-grant-named-end-turn", tmp_path)
    assert [c for c, _ in errors] == ["CS216", "CS216"]
    assert '"end turn" has the name of End Turn' in errors[0][1]
    assert '"buy" has the name of an action of the game' in errors[1][1]


NESTED = {
    "delayed": 'at the next "tick":',
    "grant": 'once this turn, you may "x":',
    "between turns": "between turns:",
}


@pytest.mark.parametrize("kind", sorted(NESTED))
@pytest.mark.parametrize("depth, code", [(32, None), (33, "CS104")])
def test_new_block_statements_count_toward_the_nesting_limit(kind: str, depth: int, code: str | None,
                                                              tmp_path: Path) -> None:
    lines = [f"{'  ' * (i + 1)}{NESTED[kind]}" for i in range(depth)]
    body = "\n".join(lines) + f"\n{'  ' * (depth + 1)}nothing\n"
    path = tmp_path / "t.scenario"
    path.write_text(f'scenario "t"\nuses "injustice"\nplayers 2\n\ndo:\n{body}')
    codes = [c for c, _ in _errors(path)]
    assert ("CS104" in codes) == (code == "CS104"), codes


# ---------------------------------------------------------------- steps counted
def _game(tmp_path: Path, cards: str, game: str = "injustice", agent: str = "heuristic", log: bool = False) -> Engine:
    path = tmp_path / "x.cards"
    path.write_text(f'expansion "X"\nuses "{game}"\n{cards}')
    d, _, _ = compile_game(str(path))
    return Engine(d, 2, make_agents([agent], 2), 1, log=log)


def test_granted_actions_looked_at_are_steps(tmp_path: Path) -> None:
    from cardscript.runtime.context import Ctx
    from cardscript.runtime.game.timing import GrantedAction

    g = _game(tmp_path, "").game
    for n in (10, 500):
        g.granted = [GrantedAction("x", None, None, None, 0, 1, Ctx(0)) for _ in range(n)]
        before = g.steps
        assert len(g.offered_grants(0)) == n
        assert g.steps - before == n


def test_modifiers_looked_at_are_steps(tmp_path: Path) -> None:
    from cardscript.runtime.effects.cardrules import modified

    g = _game(tmp_path, "").game
    g.attr_mods = [["cost", 1, (), -1, "", False] for _ in range(300)]
    before = g.steps
    assert modified(g, "cost", 0, 0) == modified(g, "cost", 0, 0)  # another seat's modifiers: none apply
    assert g.steps - before == 600


def test_delayed_effects_are_filed_by_event(tmp_path: Path) -> None:
    """An emit takes only the delayed effects of its event and seat, in the order set up."""
    from cardscript.runtime.context import Ctx
    from cardscript.runtime.game.timing import DelayedEffect

    class Node:
        def __init__(self, event: str) -> None:
            self.event = event

    g = _game(tmp_path, "").game
    a, b, c, d = (DelayedEffect(Node(e), p, Ctx(0)) for e, p in
                  (("tick", 0), ("never", -1), ("tick", -1), ("tick", 1)))
    for x in (a, b, c, d):
        g.add_delayed(x)
    before = g.steps
    assert g.due_delayed("tick", 0) == [a, c]
    assert g.steps - before == 2 and g.delayed_count == 2
    assert g.due_delayed("tick", 0) == []
    assert g.due_delayed("tick", 1) == [d]


def test_trigger_order_decisions_are_steps_and_share_their_labels(tmp_path: Path) -> None:
    n = 60
    cards = "types trig\n" + "".join(f'card "T{i}": trig\n  when "ping": +1 power\n' for i in range(n)) + \
        'setup:\n  move all cards from the box with trig to your played\n  repeat 2: emit "ping"\n'
    engine = _game(tmp_path, cards, "justice-league-dark", "random", log=True)
    before = engine.game.steps
    engine.setup()
    asked = [e for e in engine.game.log if e.get("t") == "decision" and e.get("kind") == "trigger"]
    assert len(asked) == 2 * (n - 1)
    assert engine.game.steps - before >= 2 * n * (n + 1) // 2
    first = {id(x) for x in asked[0]["options"]}
    assert all(id(x) in first for e in asked[1:] for x in e["options"])


def test_more_pending_triggers_than_the_bound_is_cs401(tmp_path: Path) -> None:
    engine = _game(tmp_path, (HOSTILE / "triggers-in-the-order-you-choose-201-pending.cards").read_text()
                   .split('uses "justice-league-dark"\n', 1)[1], "justice-league-dark")
    with pytest.raises(RunawayError, match=f"more than {MAX_PENDING_TRIGGERS} abilities pending"):
        engine.setup()


@pytest.mark.parametrize("name, bound", [("a-delayed-effect-that-breeds-each-turn.cards", "delayed effects pending"),
                                         ("a-grant-that-grants-a-hundred.cards", "actions granted in one turn")])
def test_the_played_reproducers_stop_with_their_bound(name: str, bound: str) -> None:
    d, _, _ = compile_game(str(HOSTILE / name))
    agents = ["heuristic"] if "breeds" in name else ["random"]
    engine = Engine(d, 2, make_agents(agents, 2), 1, log=False)
    engine.setup()
    with pytest.raises(RunawayError, match=bound):
        engine.play_turns(40)

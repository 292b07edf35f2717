"""The compiled effects (runtime/compiled, issue 11: "lowering produces specialised
callables") do exactly what the effect objects do: the same games, logs, step counts and
errors, with every block compiled to closures or with compiling turned off
(``compiled.ENABLED``, ``CARDSCRIPT_COMPILED=0``)."""

from __future__ import annotations

import contextlib
import inspect
import json
import operator
import sys
import types
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardscript
from cardscript.dsl.harness.scenario import run_scenario, scenario_files
from cardscript.runtime import compiled
from cardscript.runtime import effects as E
from cardscript.runtime.agents import make_agents
from cardscript.runtime.compiled.compiler import Compiler
from cardscript.runtime.context import Ctx
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import RunawayError

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def objects() -> Iterator[None]:
    """Run the effect objects (compiling off) inside the block."""
    was = compiled.ENABLED
    compiled.ENABLED = False
    try:
        yield
    finally:
        compiled.ENABLED = was


_DEFS: dict[tuple[str, bool], Any] = {}


def _definition(game: str) -> Any:
    """The game compiled once for each way of running it: a definition's effect objects
    keep what their first runs planned (a call's depth, a selector's shape), and one run
    must not hand that to the other (tests/test_compiled.py of a new user's review)."""
    key = (game, compiled.ENABLED)
    if key not in _DEFS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _DEFS[key] = cardscript.compile_game(game)
    return _DEFS[key]


def _play(game: str, seats: int, bots: str, seed: int, log: bool, step_limit: int | None = None) -> Any:
    """Everything a game ends with: its result (and log), steps, change clock, nesting, or its runaway."""
    d = _definition(game)
    kw = {} if step_limit is None else {"step_limit": step_limit}
    engine = Engine(d, seats, make_agents(bots.split(","), seats), seed, log=log, **kw)
    try:
        r = engine.run()
    except RunawayError as exc:
        return ("runaway", str(exc), exc.chain, exc.ats, engine.game.steps)
    g = engine.game
    return (r.scores, r.winners, r.reason, r.turns, r.decisions, r.tie_values, r.outcome, r.log, g.steps, g.clock,
            g.nesting, g.trigger_depth)


def _both(*args: Any, **kw: Any) -> tuple[Any, Any]:
    fast = _play(*args, **kw)
    with objects():
        plain = _play(*args, **kw)
    return fast, plain


GAMES = [
    ("injustice", 2, "random"), ("injustice", 3, "heuristic,random"), ("injustice", 4, "heuristic"),
    ("justice-league-dark", 2, "random"), ("justice-league-dark", 3, "heuristic"),
    ("hero-dice-batman", 1, "random"), ("hero-dice-batman", 3, "heuristic,random"),
    ("bench/minideck", 2, "random"), ("bench/minideck", 4, "heuristic"),
]


@pytest.mark.parametrize(("game", "seats", "bots"), GAMES)
def test_logged_games_are_the_same_both_ways(game: str, seats: int, bots: str) -> None:
    for seed in (1, 2):
        fast, plain = _both(str(ROOT / game) if game.startswith("bench") else game, seats, bots, seed, True)
        assert fast == plain


@pytest.mark.parametrize(("game", "seats", "bots"), GAMES)
def test_unlogged_games_are_the_same_both_ways(game: str, seats: int, bots: str) -> None:
    for seed in (3, 4, 5):
        fast, plain = _both(str(ROOT / game) if game.startswith("bench") else game, seats, bots, seed, False)
        assert fast == plain


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(["injustice", "justice-league-dark", "hero-dice-batman"]),
       seed=st.integers(1, 10_000), limit=st.integers(50, 60_000))
def test_a_step_budget_runs_out_at_the_same_statement_both_ways(game: str, seed: int, limit: int) -> None:
    """The step budget stops a game at the same step, in the same statement, with the same
    chain: every closure counts the steps its object counts."""
    fast, plain = _both(game, 2 if game != "hero-dice-batman" else 1, "random", seed, False, step_limit=limit)
    assert fast == plain


def test_a_recursion_stops_the_same_way_both_ways(tmp_path: Path) -> None:
    pack = tmp_path / "loops"
    pack.mkdir()
    (pack / "cards.cards").write_text('expansion "loops"\nuses "injustice"\n\neffect ping:\n'
                                      '  if count all cards in your hand >= 0: ping\n\n'
                                      'card "Looper": hero, cost 1, copies 30\n  play: ping\n', encoding="utf-8")
    (pack / "cardscript.toml").write_text('name = "loops"\nversion = "1.0.0"\ngame = "injustice"\n', encoding="utf-8")
    fast = _runaway_both_ways(pack, "heuristic")
    assert "levels deep" in fast[0] and fast[2]


def _runaway_both_ways(pack: Path, bots: str) -> tuple[Any, ...]:
    """Play Injustice with the expansion ``pack`` (seed 1, 2 players) until it runs away,
    compiled and as objects; assert both stop alike, and return (message, chain, trail, steps)."""
    d = cardscript.compile_game("injustice", expansions=[str(pack)])

    def once() -> tuple[Any, ...]:
        engine = Engine(d, 2, make_agents([bots], 2), 1, log=False)
        with pytest.raises(RunawayError) as info:
            engine.run()
        return str(info.value), info.value.chain, info.value.ats, engine.game.steps

    fast = once()
    with objects():
        plain = once()
    assert fast == plain
    return fast


def test_a_runaway_in_an_action_of_one_statement_names_it_both_ways(tmp_path: Path) -> None:
    """An action whose body is one statement runs that statement's closure inline: its step,
    and the statement's place in the runaway's trail, as its block gives them."""
    pack = tmp_path / "pinger"
    pack.mkdir()
    (pack / "cards.cards").write_text('expansion "pinger"\nuses "injustice"\n\n'
                                      'action "ping": repeat 300: repeat 300: +1 power\n', encoding="utf-8")
    (pack / "cardscript.toml").write_text('name = "pinger"\nversion = "1.0.0"\ngame = "injustice"\n', encoding="utf-8")
    fast = _runaway_both_ways(pack, "random")
    assert "steps" in fast[0] and fast[2][0].endswith("cards.cards:4:16"), fast[2]


def _scenario_outcomes() -> Iterator[tuple[str, Any]]:
    for f in scenario_files([str(ROOT / "tests" / "scenarios"), str(ROOT / "tests" / "hostile"),
                             str(ROOT / "examples")]):
        res = run_scenario(f)
        yield f, (res.passed, [(d.code, d.message, d.span and (d.span.line, d.span.column)) for d in res.diagnostics],
                  json.dumps(res.log, sort_keys=True, default=str))


def test_every_scenario_runs_the_same_both_ways() -> None:
    """Each rulebook scenario, hostile script and example plays the same game (its log),
    and passes or fails with the same diagnostics, compiled or not."""
    fast = dict(_scenario_outcomes())
    with objects():
        plain = dict(_scenario_outcomes())
    assert fast.keys() == plain.keys() and len(fast) > 300
    differ = [f for f in fast if fast[f] != plain[f]]
    assert not differ, differ


def test_blocks_are_compiled_once_per_definition() -> None:
    d = _definition("injustice")
    Engine(d, 2, make_agents(["random"], 2), 1, log=False).run()
    entry = d.turn._fn
    assert entry is not None and entry[0] is d and callable(entry[1])
    fn = entry[1]
    Engine(d, 3, make_agents(["random"], 3), 2, log=False).run()
    assert d.turn._fn[1] is fn  # every game of the definition, at any number of seats


# ---------------------------------------------------------------- closures against references
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

    def run(self, g: Any, ctx: Ctx) -> int:
        self.log.append(self.name)
        return int(self.value)


def _game() -> Any:
    return Engine(_definition(str(ROOT / "bench" / "minideck")), 2, make_agents(["random"], 2), 1).game


def _side(kind: str, value: int, log: list[str], name: str) -> Any:
    return E.Const(value) if kind == "const" else E.Var("v" + name) if kind == "var" else _Probe(name, value, log)


@given(op=st.sampled_from(sorted(OPS)), a=st.integers(-3, 3), b=st.integers(-3, 3),
       left=st.sampled_from(["const", "var", "probe"]), right=st.sampled_from(["const", "var", "probe"]))
def test_a_compiled_comparison_is_the_operator_whichever_side_is_written(op: str, a: int, b: int, left: str,
                                                                        right: str) -> None:
    log: list[str] = []
    node = E.Compare(op, _side(left, a, log, "l"), _side(right, b, log, "r"))
    g = _game()
    test = Compiler(g).cond(node)
    assert test(g, Ctx(0, vars={"vl": a, "vr": b})) == OPS[op](a, b)
    assert log == [name for name, kind in (("l", left), ("r", right)) if kind == "probe"]  # each side once, in order


@given(values=st.lists(st.booleans(), min_size=1, max_size=5), use_or=st.booleans())
def test_compiled_and_or_stop_at_the_condition_the_objects_stop_at(values: list[bool], use_or: bool) -> None:
    g = _game()
    runs = []
    for compile_it in (True, False):
        log: list[str] = []
        node = (E.Or if use_or else E.And)([_Probe(str(i), v, log) for i, v in enumerate(values)])
        got = Compiler(g).cond(node)(g, Ctx(0)) if compile_it else node.test(g, Ctx(0))
        runs.append((got, log))
    assert runs[0] == runs[1]
    assert runs[0][0] is (any(values) if use_or else all(values))


@given(results=st.lists(st.integers(0, 3), max_size=5), did=st.integers(0, 2))
def test_a_compiled_block_counts_steps_and_results_as_its_objects(results: list[int], did: int) -> None:
    """A block's closure charges its statements, sums their results and leaves the last
    one's result and start clock in the context, as ``Seq.run_objects``; a statement that
    reads 'if you do' sees the statement before it."""
    g = _game()
    runs = []
    for compile_it in (True, False):
        log: list[str] = []
        stmts: list[Any] = [_Probe(f"s{i}", r, log) for i, r in enumerate(results)]
        if stmts:  # one more statement that reads 'you do', whose 'then' records it
            stmts.append(E.If(E.Did(False), E.Seq([_Probe("then", 0, log)])))
        block = E.Seq(stmts)
        ctx = Ctx(0)
        ctx.did = did
        start = g.steps
        total = Compiler(g).block(block)(g, ctx) if compile_it else block.run_objects(g, ctx)
        runs.append((total, g.steps - start, ctx.did, ctx.since == g.clock or ctx.since, log))
    assert runs[0] == runs[1]


_DRAWS = '''game "Draws"
players 1 to 2
types thing
zone deck: per player, hidden, refill from discard
zone discard: per player, public
zone pile: shared, hidden
zone hand: per player, public
counter score: per player, 0
card "Chip": thing, copies 12
setup:
  move all cards from the box to the pile
turn:
  repeat 7: move the top card of the pile to your discard
  repeat 5: move the top card of your deck to your hand
  move the top card of the pile to your hand
  move all cards from your hand to the pile
  end game "drawn"
score:
  +(count all cards in your hand) score
'''


@pytest.mark.parametrize("log", [True, False])
@pytest.mark.parametrize("limit", [None, *range(1, 60, 3)])
def test_the_compiled_top_card_move_stops_where_the_object_does(limit: int | None, log: bool,
                                                                tmp_path: Path) -> None:
    """'move the top card of ZONE to ZONE' refills an empty deck from its discard, does
    nothing on an empty pile, and stops at the step limit, compiled as its object does;
    unlogged, a 'repeat' of it moves the cards already there at once, with the same
    bookkeeping (the change clock, the seats touched, owners, faces, where cards came from)."""
    (tmp_path / "game.rules").write_text(_DRAWS)
    d = cardscript.compile_game(str(tmp_path))

    def play() -> Any:
        e = Engine(d, 2, make_agents(["random"], 2), 4, log=log, **({} if limit is None else {"step_limit": limit}))
        try:
            r = e.run()
            out: Any = (r.scores, r.turns)
        except RunawayError as exc:
            out = (str(exc), exc.ats)
        g = e.game
        return (out, g.steps, g.slots, g.log, g.clock, list(g.touched), list(g.owner), list(g.came_from),
                list(g.face_up), list(g.loc))

    fast = play()
    with objects():
        assert play() == fast


def test_a_block_compiled_where_the_stack_is_deep_runs_as_its_objects() -> None:
    """Compiling where Python's stack is nearly full (RecursionError) leaves the block to its
    objects: the same game, no traceback."""
    d = cardscript.compile_game(str(ROOT / "bench" / "minideck"))
    e = Engine(d, 2, make_agents(["random"], 2), 7, log=False)
    g = e.game

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 10)  # the turn's compile needs about 20 more frames
    try:
        fn = compiled.block(d.turn, g)
    finally:
        sys.setrecursionlimit(limit)
    assert fn == d.turn.run_objects and d.turn._fn[1] == d.turn.run_objects
    r = e.run()
    with objects():
        again = Engine(d, 2, make_agents(["random"], 2), 7, log=False).run()
    assert (r.scores, r.turns, r.decisions) == (again.scores, again.turns, again.decisions)


@pytest.mark.parametrize(("game", "seats"), [("hero-dice-batman", 1), ("hero-dice-batman", 3), ("injustice", 2),
                                             ("justice-league-dark", 2)])
def test_compiled_selectors_of_a_shape_match_the_shape_functions(game: str, seats: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call of a compiled selector or count of a shape (compiled/shapes.py: ``_shaped``
    and ``_tested``) gives, on the same state, the cards (the count) and the steps of
    ``counting.select_cards`` (``count_cards``), which tests/test_hd_counting.py checks
    against the generic selector."""
    from cardscript.runtime.compiled import shapes as CE
    from cardscript.runtime.effects import counting as K

    checked = {"cards": 0, "count": 0, "where": 0}

    def checking(real: Any) -> Any:
        return lambda cx, shape, count: checked_fn(real(cx, shape, count), shape, count)

    def checked_fn(fn: Any, shape: Any, count: bool) -> Any:
        if fn is None:
            return None
        holder = K._Holder()
        holder._shape = shape
        node = types.SimpleNamespace(_zone=shape)

        def run(g: Any, ctx: Any) -> Any:
            start, it = g.steps, ctx.it
            got = fn(g, ctx)
            steps = g.steps
            if all(_pure_test(t) for t in shape.tests):  # pure: it may run twice on one state
                g.steps = start
                ctx.it = it
                want = K.count_cards(node, g, ctx) if count else K.select_cards(holder, g, ctx)
                assert (want, g.steps) == (got, steps)
                checked["count" if count else "cards"] += 1
                checked["where"] += any(t[0] == K._WHERE for t in shape.tests)
            return got
        return run

    def _pure_test(test: tuple[int, Any]) -> bool:
        from cardscript.runtime.effects.hoist import Hoisted, _scan
        from cardscript.runtime.effects.pools import PoolFilter

        if test[0] != K._WHERE:
            return test[0] < K._WHERE
        prefix, rest, hoisted = test[1]
        rest = rest.cond if type(rest) is PoolFilter else rest
        return not hoisted and not isinstance(rest, Hoisted) and all(_scan(c) is not None for c in (*prefix, rest))

    monkeypatch.setattr(CE, "_shaped", checking(CE._shaped))  # fused field tests
    monkeypatch.setattr(CE, "_tested", checking(CE._tested))  # other tests, 'where' filters compiled
    d = cardscript.compile_game(game)  # new effect objects: compiled with the check
    for seed in (1, 2):
        Engine(d, seats, make_agents(["random"], seats), seed, log=False).run()
    assert checked["cards"] + checked["count"] > 20, checked
    assert checked["where"] > 0 or game == "injustice", checked  # compiled 'where' filters were checked


@pytest.mark.parametrize(("game", "seats"), [("hero-dice-batman", 1), ("hero-dice-batman", 3), ("injustice", 2),
                                             ("justice-league-dark", 2)])
def test_a_count_compared_with_0_is_the_count_compared(game: str, seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """'count CARDS > 0' (and == 0, >= 1, ...) of one slot with fused field tests is
    compiled to a test that stops at the first card that passes (compiled/shapes.py:
    ``any_in_slot``): on every state it is asked, it answers as the count compared with 0,
    and charges the same steps."""
    from cardscript.runtime.compiled import conditions as CC
    from cardscript.runtime.effects import counting as K

    seen: dict[bool, int] = {True: 0, False: 0}
    real = CC.any_in_slot

    def checking(cx: Any, node: Any, none: bool) -> Any:
        fn = real(cx, node, none)
        if fn is None:
            return None

        def run(g: Any, ctx: Any) -> bool:
            start = g.steps
            got = fn(g, ctx)
            steps, g.steps = g.steps, start
            want = (K.count_cards(node, g, ctx) == 0) is none
            assert (got, steps) == (want, g.steps)
            seen[got] += 1
            return got
        return run

    monkeypatch.setattr(CC, "any_in_slot", checking)
    d = cardscript.compile_game(game)  # new effect objects: compiled with the check
    for seed in (1, 2):
        Engine(d, seats, make_agents(["random"], seats), seed, log=False).run()
    if game == "hero-dice-batman":
        assert seen[True] > 20 and seen[False] > 20, seen


INLINE = '''expansion "inline"
uses "injustice"

effect bump {N: number}:
  +N power
  if you do: lose N health

effect twice {N: number}:
  bump N
  bump N

effect dive:
  twice 1
  if count all cards in your hand >= 0: dive

card "Diver": hero, cost 1, copies 30
  play: twice 2; dive
'''


@pytest.mark.parametrize("limit", [None, 3000, 20_000])
def test_calls_run_inline_stop_and_report_as_calls(tmp_path: Path, limit: int | None) -> None:
    """Effects called with constant arguments run inline ('twice 1', 'bump N' inside it,
    compiled/inline.py), inside a recursion that runs away: the same game, the same error,
    chain, positions and steps as the objects' calls, at the nesting bound or at a step limit."""
    pack = tmp_path / "inline"
    pack.mkdir()
    (pack / "cards.cards").write_text(INLINE, encoding="utf-8")
    (pack / "cardscript.toml").write_text('name = "inline"\nversion = "1.0.0"\ngame = "injustice"\n', encoding="utf-8")
    d = cardscript.compile_game("injustice", expansions=[str(pack)])

    def once() -> Any:
        engine = Engine(d, 2, make_agents(["heuristic"], 2), 3, log=True,
                        **({} if limit is None else {"step_limit": limit}))
        try:
            engine.run()
        except RunawayError as exc:
            return str(exc), exc.chain, exc.ats, engine.game.steps, engine.game.log
        raise AssertionError("the recursion did not run away")

    fast = once()
    with objects():
        plain = once()
    assert fast == plain


# ---------------------------------------------------------------- a review's reproducers
_NESTED_IFS = "\n".join("  " * (i + 1) + "if your power > 100:" for i in range(26))
REVIEWED = {
    # the depth of a block whose calls had run (or been compiled) before it was measured
    "climb": ('effect climb:\n  if your power < 40:\n    +1 power\n    climb\n\n'
              'card "Climber": hero, cost 1, copies 30\n  play: set your power to 0; climb\n',
              "Climber", "your power == 40"),
    # a parameter bound again by 'let' in an effect called with a constant
    "shadow": ('effect gain power {N: number}:\n  let N = N + 5\n  +N power\n\n'
               'card "Shadow": hero, cost 1, copies 30\n  play: gain power 1\n',
               "Shadow", "your power == 6"),
    # a delayed block argument run by an emit inside a call with constant arguments
    "zap": ('effect later do {B: block}:\n  at the next "zap": B\n\neffect zap with {N: number}:\n  emit "zap"\n\n'
            'card "Zapper": hero, cost 1, copies 30\n  play:\n    let N = 3\n    later do: +N power\n'
            '    zap with 7\n', "Zapper", "your power == 3"),
    # a type parameter passed on to another effect
    "collect": ('effect keep {T: type}:\n  move all cards from your hand with T to the destroyed\n\n'
                'effect keep twice {T: type}:\n  keep T\n\n'
                'card "Collector": hero, cost 1, copies 30\n  play: keep twice "starter"\n',
                "Collector", "count all cards in your hand == 0"),
    # calls nested deep in deep bodies: compiled where Python's stack is deep
    "deep": ("".join(f"effect deep{i}:\n{_NESTED_IFS}\n{'  ' * 27}{f'deep{i + 1}' if i < 6 else 'draw a card'}\n\n"
                     for i in range(1, 7)) + 'card "Deep": hero, cost 1, copies 30\n  play: deep1\n', None, None),
    # calls fanning out: each body compiled for its arguments once
    "fan": ("".join(f"effect fan{i}:\n" + "".join(f"  if your power > 100: fan{i + 1}\n" for _ in range(8)) + "\n"
                    for i in range(1, 7)) + 'effect fan7:\n  +1 power\n\ncard "Fan": hero, cost 1, copies 30\n'
            '  play: fan1\n', None, None),
}


@pytest.mark.parametrize("name", sorted(REVIEWED))
def test_what_a_review_found_plays_the_same_both_ways(name: str, tmp_path: Path) -> None:
    """Scripts a review wrote against the compiled effects: each plays the same games
    compiled and as objects (a definition compiled for each), and the ones with a scenario
    play what the rules say."""
    cards, card, expect = REVIEWED[name]
    pack = tmp_path / name
    pack.mkdir()
    (pack / "cards.cards").write_text(f'expansion "{name}"\nuses "injustice"\n\n' + cards, encoding="utf-8")
    (pack / "cardscript.toml").write_text(f'name = "{name}"\nversion = "1.0.0"\ngame = "injustice"\n',
                                          encoding="utf-8")
    if card is not None:
        (pack / "t.scenario").write_text(
            f'scenario "{name}"\nuses "injustice", "./cards.cards"\nplayers 2\nseed 1\n\ndo:\n'
            '  for each player: move all cards from their character to the box\n'
            '  move all cards from your hand to the box\n'
            f'  move 1 "{card}" from the main-deck to your hand\n'
            + ('  move 2 "Light Punch" from the box to your hand\n' if name == "collect" else "")
            + f'answer "play {card}", "end turn"\ndo:\n  take actions\nexpect {expect}\n', encoding="utf-8")

    def once() -> Any:
        d = cardscript.compile_game("injustice", expansions=[str(pack)])
        games = []
        for seed in (1, 2):
            engine = Engine(d, 2, make_agents(["heuristic"], 2), seed, log=True)
            try:
                r = engine.run()
                games.append((r.scores, r.turns, r.log, engine.game.steps))
            except RunawayError as exc:
                games.append((str(exc), exc.chain, exc.ats, engine.game.steps))
        if name == "fan" and compiled.ENABLED:  # one compiled body per effect and arguments, not per call site
            bodies = {id(n.effect.body) for n in _calls(next(c for c in d.cards if c.name == "Fan").abilities["play"])}
            assert len([key for key in d.__dict__.get("_inlined", {}) if key[0] in bodies]) <= 7
        scenario = run_scenario(str(pack / "t.scenario")) if card is not None else None
        return games, scenario and (scenario.passed, [d.message for d in scenario.diagnostics])

    fast = once()
    with objects():
        plain = once()
    assert fast == plain
    if card is not None:
        assert fast[1][0], fast[1]


def _calls(root: Any) -> list[Any]:
    """Every call reachable from ``root``, through the bodies of the effects called."""
    out, todo, seen = [], [root], set()
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, E.Call):
            out.append(obj)
            todo.append(obj.effect.body)
        if isinstance(obj, E.Node):
            todo.extend(getattr(obj, n) for n in obj.__slots__ if not n.startswith("_"))
        elif isinstance(obj, (list, tuple)):
            todo.extend(obj)
    return out


@pytest.mark.parametrize(("value", "enabled"), [("0", False), ("off", False), ("False", False), (" no ", False),
                                                ("1", True), ("on", True)])
def test_the_environment_turns_compiling_off_with_any_usual_word(value: str, enabled: bool) -> None:
    import os
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "from cardscript.runtime import compiled; print(compiled.ENABLED)"],
                         env={**os.environ, "CARDSCRIPT_COMPILED": value}, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(enabled)


_HEARD = [
    ("", '  when "ping": +1 power\n'),
    ("your triggers wait until the card you are playing resolves\n",
     '  when "play" first time each turn: +1 power\n  when "ping": at the next "pong": +1 score\n'),
    ("", '  when "ping": if your power < 6: emit "ping"\n'),  # a chain: the trigger bound, compiled as not
    ("your triggers wait until the card you are playing resolves\n", '  when "play": at the next "play": +1 power\n'),
]


@pytest.mark.parametrize(("rule", "trigger"), _HEARD)
def test_events_cards_listen_to_are_dispatched_the_same_unlogged(rule: str, trigger: str, tmp_path: Path) -> None:
    """An event a card trigger listens to, emitted by a compiled block in a game that does not
    log, is dispatched by its plan known when compiled (``compiled.calls.heard``): the same
    triggers, waiting ones and delayed effects, steps and runaways as ``EventOps.emit``."""
    for f in (ROOT / "bench" / "minideck").iterdir():
        (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    rules = (tmp_path / "game.rules").read_text(encoding="utf-8")
    rules = rules.replace("zone played: per player, public, play zone", "zone played: per player, public, play zone, active")
    (tmp_path / "game.rules").write_text(rules.replace("abilities play\n", "abilities play\n" + rule), encoding="utf-8")
    cards = (tmp_path / "cards.cards").read_text(encoding="utf-8")
    cards = cards.replace('card "Silver": market, cost 3, copies 10\n  play: +2 power\n',
                          'card "Silver": market, cost 3, copies 10\n  play: +2 power; emit "ping"\n' + trigger)
    cards = cards.replace('card "Lab": market, cost 4, copies 8\n  play: draw 2\n',
                          'card "Lab": market, cost 4, copies 8\n  play: draw 2; emit "pong"\n' + trigger.replace("ping", "pong"))
    (tmp_path / "cards.cards").write_text(cards, encoding="utf-8")

    def games() -> list[Any]:
        d = cardscript.compile_game(str(tmp_path))
        out = []
        for seed in (1, 2, 3):
            engine = Engine(d, 2, make_agents(["heuristic", "random"], 2), seed, log=False)
            try:
                r = engine.run()
                out.append((r.scores, r.turns, r.decisions, engine.game.steps, engine.game.clock))
            except RunawayError as exc:
                out.append((str(exc), exc.chain, engine.game.steps))
        return out

    fast = games()
    with objects():
        assert games() == fast


def test_a_compiled_roll_asks_an_rng_of_another_kind_its_own_choice() -> None:
    """A compiled 'roll' draws its faces as ``Random.choice`` does, written out; a game whose
    RNG its user replaced with another kind (here one that always shows the first face) is
    rolled by that RNG's own ``choice``, as the objects roll it."""
    import random

    class FirstFace(random.Random):
        def choice(self, seq: Any) -> Any:
            return seq[0]

    def faces(compiling: bool) -> list[Any]:
        d = _definition("hero-dice-batman")
        with (contextlib.nullcontext() if compiling else objects()):
            e = Engine(d, 1, make_agents(["random"], 1), 3, log=False)
            e.game.rng = FirstFace(3)
            e.run()
        g = e.game
        return [g.face_value[c] for c in range(len(g.card_type)) if d.cards[g.card_type[c]].faces]

    fast, plain = faces(True), faces(False)
    assert fast == plain
    firsts = {tuple(ct.faces)[0] for ct in _definition("hero-dice-batman").cards if ct.faces}
    assert set(fast) <= firsts | {None, ""}


def _scenario_runs(trace: bool) -> dict[str, Any]:
    out = {}
    for f in scenario_files([str(ROOT / "tests" / "scenarios"), str(ROOT / "examples")]):
        res = run_scenario(f, trace=trace)
        log = [{k: v for k, v in e.items() if k != "at"} for e in res.log]
        out[f] = (res.passed, [(d.code, d.message) for d in res.diagnostics], json.dumps(log, sort_keys=True, default=str))
    return out


def test_a_traced_scenario_plays_the_game_an_untraced_one_plays() -> None:
    """'cardscript test -v' traces each statement (the log's "at"): the statements run as
    their objects, one at a time. It played another game wherever a script asks 'if they
    were affected' (the traced block never recorded where the previous statement started:
    a Defense with a cost never avoided an Attack under -v). Traced or not, every scenario
    now plays the same game, with the same result."""
    plain, traced = _scenario_runs(False), _scenario_runs(True)
    assert plain.keys() == traced.keys() and len(plain) > 300
    differ = [f for f in plain if plain[f] != traced[f]]
    assert not differ, differ

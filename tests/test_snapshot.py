"""Snapshots, restores, copies and forks of a game (issue 11, "snapshots";
runtime/game/snapshot.py and runtime/game/forks.py).

The games of all three built-in games, with variants, random, heuristic and greedy bots, are played
once with snapshots taken at random decisions (inside an agent's ``choose``, the engine
mid-effect) and at random turn starts; from each, the game is played on again (``fork``
from a decision, ``resume`` from a turn start) with the agents' RNG states of that moment,
and must give the byte-identical log and the same result.
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import cardscript
from cardscript.runtime.agents import GreedyAgent, HeuristicAgent, RandomAgent
from cardscript.runtime.decision import Agent, Decision, EngineAgent
from cardscript.runtime.engine import Engine
from cardscript.runtime.game import Game
from cardscript.runtime.game.forks import fork, resume
from cardscript.runtime.game.snapshot import FIXED, RECORDING, STATE, Snapshot
from cardscript.runtime.observation import ask, bind

#: (game, variants, players, bots, seed). The sensible seats play the heuristic bot: what is
#: tested is the snapshot, not the bot, and greedy's lookahead (issue 13) made these games a
#: minute and a half; Hero Dice's short game keeps greedy seats, so that a fork or a resume
#: with a bot that forecasts (and draws its forecasts' seeds from a stream of its own) is covered.
CONFIGS = [
    ("injustice", [], 2, "random", 3),
    ("injustice", [], 4, "heuristic,random", 4),
    ("injustice", ["advanced"], 3, "random", 2),
    ("injustice", ["impossible"], 2, "heuristic", 1),
    ("justice-league-dark", [], 2, "random", 5),
    ("justice-league-dark", ["extended"], 3, "heuristic,random", 2),
    ("hero-dice-batman", [], 1, "random", 1),
    ("hero-dice-batman", ["hard-fight"], 3, "greedy,random", 2),
]
_BOTS: dict[str, type[Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent, "greedy": GreedyAgent}
_DEFS: dict[tuple[str, tuple[str, ...]], Any] = {}


def definition(game: str, variants: list[str]) -> Any:
    """The compiled game, once per test session."""
    key = (game, tuple(variants))
    if key not in _DEFS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cardscript.CompileWarning)
            _DEFS[key] = cardscript.compile_game(game, variants=variants)
    return _DEFS[key]


def bots(spec: str, seats: int) -> list[Agent]:
    names = spec.split(",")
    return [_BOTS[names[i % len(names)]]() for i in range(seats)]


def rng_states(agents: list[Agent]) -> list[Any]:
    # the greedy bot draws its forecasts' seeds from a stream of its own, too (issue 13)
    return [a.rng.getstate() if isinstance(a, (RandomAgent, GreedyAgent)) else None for a in agents]


def agents_at(spec: str, game: Game, states: list[Any]) -> list[Agent]:
    """Fresh agents bound to ``game``'s seats, with the RNG states ``states``."""
    out = bots(spec, game.n)
    for seat, (agent, state) in enumerate(zip(out, states, strict=True)):
        bind(game, seat, agent)
        if state is not None:
            agent.rng.setstate(state)  # type: ignore[attr-defined]
    return out


class Probe(EngineAgent):
    """Wraps a bot: keeps every seat's RNG states before each decision, and calls ``hook``
    before the bot answers (where a bot of issue 13 would look ahead)."""

    def __init__(self, inner: Agent, run: Run):
        self.inner, self.run = inner, run
        self.name = inner.name

    def attach(self, game: Game, seat: int) -> None:
        bind(game, seat, self.inner)

    def answer(self, game: Game, decision: Decision) -> list[int]:
        self.run.before(game, decision)
        picks = ask(game, self.inner, decision)
        self.run.after(game, decision, picks)
        return picks


class Run:
    """One recorded game with probes: the snapshots at ``at`` (decision numbers, 1-based)."""

    def __init__(self, config: tuple[Any, ...], at: set[int], inside: int = 0):
        self.game_name, variants, self.seats, self.spec, self.seed = config
        self.d = definition(self.game_name, variants)
        self.inner = bots(self.spec, self.seats)
        self.at, self.inside = at, inside
        self.states: list[list[Any]] = []  # states[i]: before decision i + 1
        self.snaps: dict[int, tuple[Snapshot, Decision]] = {}
        self.checks: list[Callable[[Any], None]] = []
        eng = Engine(self.d, self.seats, [Probe(a, self) for a in self.inner], self.seed)
        eng.game.record(eng.first_player)
        self.start = eng.game.snapshot()
        self.game = eng.game
        self.result = eng.run()

    def before(self, game: Game, d: Decision) -> None:
        self.states.append(rng_states(self.inner))
        if game.decisions in self.at:
            self.snaps[game.decisions] = (game.snapshot(), d)

    def after(self, game: Game, d: Decision, picks: list[int]) -> None:
        if game.decisions != self.inside:
            return
        # Look ahead while the engine waits (mid-effect): forking leaves the game as it was.
        before = game.snapshot()
        for k in range(min(len(d.options), 3)):
            f = fork(game, then=[[k]] if d.low <= 1 <= d.high else [list(range(d.low))])
            assert f.decision is not None or f.result is not None
            assert f.game is not game
        assert game.snapshot() == before
        # Forked with the pick the bot made and its RNG states now, the fork is this game.
        f = fork(game, then=[picks], agents=agents_at(self.spec, game, rng_states(self.inner)), log=True)
        self.checks.append(lambda result: same_game(f.result, result))


def same_game(a: Any, b: Any) -> None:
    assert a is not None and b is not None
    assert (a.scores, a.ranking, a.winners, a.reason, a.turns, a.decisions, a.tie_values, a.outcome) == \
        (b.scores, b.ranking, b.winners, b.reason, b.turns, b.decisions, b.tie_values, b.outcome)
    assert json.dumps(a.log, sort_keys=True) == json.dumps(b.log, sort_keys=True)


def reference(config: tuple[Any, ...]) -> Any:
    """The game played without recording nor probes."""
    game, variants, seats, spec, seed = config
    return Engine(definition(game, variants), seats, bots(spec, seats), seed).run()


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda c: f"{c[0]}{'+' + c[1][0] if c[1] else ''}-{c[2]}p-{c[3]}")
def run(request: pytest.FixtureRequest) -> tuple[Run, Any]:
    config = request.param
    ref = reference(config)
    pick = random.Random(config[4])
    at = set(pick.sample(range(1, ref.decisions + 1), min(4, ref.decisions))) | {1}
    return Run(config, at, inside=pick.randint(1, ref.decisions)), ref


def test_recording_does_not_change_the_game(run: tuple[Run, Any]) -> None:
    r, ref = run
    same_game(r.result, ref)
    assert len(r.game.history) == ref.decisions
    assert r.game.checkpoints and all(c.next_player >= 0 for c in r.game.checkpoints)


def test_fork_from_a_decision_continues_identically(run: tuple[Run, Any]) -> None:
    r, _ = run
    assert r.snaps
    for number, (snap, decision) in sorted(r.snaps.items()):
        assert snap.decisions == number and snap.answered == number - 1
        stopped = fork(r.game, at=snap, log=True)  # the log is compared too
        assert stopped.decision is not None and stopped.decision.labels == decision.labels
        assert stopped.game.snapshot() == snap  # the state at the decision, by value
        played = fork(r.game, at=snap, agents=agents_at(r.spec, r.game, r.states[number - 1]), log=True)
        same_game(played.result, r.result)


def test_fork_inside_a_decision_leaves_the_game_alone(run: tuple[Run, Any]) -> None:
    r, _ = run
    assert len(r.checks) == 1
    r.checks[0](r.result)


def test_fork_from_the_start_replays_from_the_seed(run: tuple[Run, Any]) -> None:
    r, _ = run
    played = fork(r.game, at=r.start, agents=agents_at(r.spec, r.game, r.states[0]), log=True)
    assert played.replayed == 0
    same_game(played.result, r.result)


def test_resume_from_a_turn_start_twice(run: tuple[Run, Any]) -> None:
    r, _ = run
    pick = random.Random(r.seed + 1)
    for ck in pick.sample(r.game.checkpoints, min(3, len(r.game.checkpoints))):
        copy = r.game.blank()
        for _ in range(2):  # the checkpoint is not changed by playing on from it
            same_game(resume(copy, ck, agents_at(r.spec, r.game, r.states[ck.answered])), r.result)


def test_restore_gives_back_the_snapshot(run: tuple[Run, Any]) -> None:
    r, _ = run
    snap, _ = r.snaps[min(r.snaps)]
    g = r.game.blank()
    g.restore(snap)
    assert g.snapshot() == snap
    c = g.copy()
    assert c.snapshot() == snap and c.slots is not g.slots and c.rng is not g.rng


def test_a_snapshot_is_not_changed_by_play() -> None:
    d = definition("injustice", [])
    eng = Engine(d, 2, bots("random", 2), 8)
    eng.game.record(0)
    eng.setup()
    for p in (0, 1, 0, 1):
        eng.play_one_turn(p)
    g = eng.game
    snap = g.snapshot(next_player=0)
    text = repr(snap._key())
    states = rng_states(g.agents)
    first = resume(g, snap)
    assert repr(snap._key()) == text
    for a, s in zip(g.agents, states, strict=True):
        a.rng.setstate(s)  # type: ignore[attr-defined]
    same_game(resume(g, snap), first)


def test_restore_into_another_game_is_a_value_error() -> None:
    inj = Engine(definition("injustice", []), 2, bots("random", 2), 1).game
    jld = Engine(definition("justice-league-dark", []), 2, bots("random", 2), 1).game
    with pytest.raises(ValueError, match="cannot be restored into a game of"):
        jld.restore(inj.snapshot())
    three = Engine(definition("injustice", []), 3, bots("random", 3), 1).game
    with pytest.raises(ValueError, match=r"for 2 players cannot be restored into a game of .* for 3 players"):
        three.restore(inj.snapshot())


def test_misuse_is_a_value_error() -> None:
    eng = Engine(definition("injustice", []), 2, bots("random", 2), 1)
    with pytest.raises(ValueError, match="record"):
        fork(eng.game)
    with pytest.raises(ValueError, match="only a snapshot taken between turns"):
        resume(eng.game, eng.game.snapshot())
    eng.run()
    with pytest.raises(ValueError, match="before the game starts"):
        eng.game.record(0)


# ------------------------------------------------------------ completeness guard
PLAYED: list[Game] = []


def played_games() -> list[Game]:
    """A finished game of each built-in game, recorded, and one not recorded."""
    if not PLAYED:
        for game, variants, seats, spec, seed in CONFIGS[::2]:
            eng = Engine(definition(game, variants), seats, bots(spec, seats), seed)
            if seed % 2:
                eng.game.record(0)
            eng.run()
            PLAYED.append(eng.game)
    return PLAYED


def test_every_attribute_of_a_game_is_snapshot_or_fixed() -> None:
    for g in played_games():
        unknown = set(vars(g)) - FIXED - STATE
        assert not unknown, (
            f"Game attributes {sorted(unknown)} are neither copied by a snapshot nor listed as fixed: "
            "add each to a group of runtime/game/snapshot.py (ATOMS, LISTS, SETS, ... or FIXED)")
    fresh = Engine(definition("injustice", []), 2, bots("random", 2), 1).game
    stale = STATE - set(RECORDING) - set(vars(fresh))
    assert not stale, f"runtime/game/snapshot.py names attributes a Game does not have: {sorted(stale)}"
    assert not FIXED & STATE


def test_fixed_attributes_do_not_change_in_play() -> None:
    settings = {"agents", "listeners", "logging", "tracing", "step_limit"}
    for g in played_games():
        fresh = Game(g.d, g.n, g.agents, g.seed)
        for name in FIXED - settings:
            assert getattr(g, name) == getattr(fresh, name), f"{name} changed during play: it is state, not FIXED"


def test_drawing_after_a_snapshot_or_restore_leaves_the_snapshot_as_it_was() -> None:
    # The RNG is shared copy-on-write between a game and its snapshots (GameState.rng): a draw
    # after a snapshot, or after each of several restores, must not advance the snapshot's.
    g = Engine(definition("injustice", []), 4, bots("random", 4), 3).game
    pick = random.Random(11)
    for _ in range(30):
        snap = g.snapshot()
        state = snap.rng.getstate()
        draws = [g.rng.random() for _ in range(pick.randrange(1, 4))]
        assert snap.rng.getstate() == state
        for _ in range(pick.randrange(1, 3)):
            g.restore(snap)
            if pick.random() < 0.5:
                assert g.snapshot() == snap  # a snapshot of a snapshot shares the same Random
            assert [g.rng.random() for _ in draws] == draws
            assert snap.rng.getstate() == state
        c = g.copy()
        assert c.rng is not g.rng and c.rng.getstate() == g.rng.getstate()


def test_changes_after_a_snapshot_or_restore_never_reach_a_snapshot() -> None:
    # Snapshots share equal containers with the game's last snapshot (slots, sets, marks) and
    # a restore keeps the game's own equal containers: random moves, counter changes and marks
    # after each snapshot and each restore must leave every snapshot taken as it was.
    eng = Engine(definition("injustice", []), 4, bots("random", 4), 5)
    eng.setup()
    for p in range(4):
        eng.play_one_turn(p)
    g = eng.game
    pick = random.Random(2)
    cards = [c for s in g.slots for c in s]
    kept: list[tuple[Snapshot, str]] = []

    def mutate() -> None:
        for _ in range(pick.randrange(0, 4)):
            what = pick.randrange(4)
            if what == 0:
                g.move(pick.choice(cards), pick.randrange(len(g.slots)), pick.random() < 0.3)
            elif what == 1:
                g.change(pick.randrange(len(g.d.counters)), pick.randrange(4), pick.randrange(-2, 3))
            elif what == 2:
                g.turn_pmarks.setdefault(pick.choice(["a", "b"]), set()).add(pick.randrange(4))
            else:
                g.fired.add((pick.randrange(9), pick.randrange(9)))

    for _ in range(200):
        if kept and pick.random() < 0.5:
            snap, _ = pick.choice(kept)
            g.restore(snap)
            assert g.snapshot() == snap
        else:
            snap = g.snapshot()
            kept.append((snap, repr(snap._key())))
        mutate()
        for s, text in kept:
            assert repr(s._key()) == text

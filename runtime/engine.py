"""The game-agnostic engine: owns the state and the one seeded RNG, resolves
effects, asks agents for decisions, dispatches events to triggers, and records a log.

Usage::

    result = Engine(definition, seats=2, agents=[RandomAgent(), GreedyAgent()], seed=7).run()

The engine knows zones, counters, cards, marks, events and decisions; every rule
of a particular game comes from the :class:`~cardscript.runtime.definition.GameDefinition`.
The state and its operations are :class:`~cardscript.runtime.game.Game`; this module
runs a game from setup to scoring.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from cardscript.runtime import compiled as _compiled
from cardscript.runtime.context import Ctx, fresh_ctx
from cardscript.runtime.decision import Agent
from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.errors import MAX_STEPS, MAX_TURNS, GameOver, check_seed
from cardscript.runtime.game import Game
from cardscript.runtime.observation import bind
from cardscript.runtime.result import Result


class Engine:
    """Runs one game of a :class:`GameDefinition` to its end.

    Args:
        definition: the compiled game.
        seats: number of players (within ``definition.players``).
        agents: one agent per seat.
        seed: seeds the one RNG stream of the game.
        log: record the event log (off for fast simulation).
        first_player: seat that takes the first turn.
        step_limit: the game's step budget (:data:`~cardscript.runtime.errors.MAX_STEPS`): past
            it, the game stops with a :class:`~cardscript.runtime.errors.RunawayError`.
    """

    #: the end tests run after a turn (:meth:`_end_tests`), made at the first turn (a class
    #: default: an engine made around a game without ``__init__``, as a fork's, has it too)
    _ends: tuple[Any, bool, list[tuple[Any, str]]] | None = None

    def __init__(self, definition: GameDefinition, seats: int, agents: Sequence[Agent], seed: int,
                 log: bool = True, first_player: int = 0, step_limit: int = MAX_STEPS):
        seed = check_seed(seed)
        lo, hi = definition.players
        if not lo <= seats <= hi:
            raise ValueError(f"{definition.name} is for {lo} to {hi} players, not {seats}")
        if len(agents) != seats:
            raise ValueError(f"{seats} seats need {seats} agents, got {len(agents)}")
        forecasts = any(getattr(a, "forecasts", False) or getattr(getattr(a, "fallback", None), "forecasts", False)
                        for a in agents)
        #: the setup template this game was made from (runtime/game/template.py), or None
        self._template: Any = None
        if not log and not forecasts and step_limit >= MAX_STEPS:
            from cardscript.runtime.game import template

            if template.ENABLED:
                self._template = template.setup_template(definition, seats, first_player)
        if self._template is not None:
            self.game = self._template.new_game(list(agents), seed)
        else:
            self.game = Game(definition, seats, agents, seed, log)
        self.game.step_limit = step_limit
        self.first_player = first_player
        if forecasts:
            self.game.record(first_player)  # a forecast forks the game (runtime/forecast.py)

    def setup(self) -> None:
        """Run the setup block (rules 'setup:')."""
        g = self.game
        for seat, agent in enumerate(g.agents):
            bind(g, seat, agent)  # a player gets its seat and stream, never the game (issue 13)
        g.emit_log({"t": "setup", "game": g.d.name, "players": g.n, "seed": g.seed})
        template, self._template = self._template, None
        if template is not None:  # the game is in the state of the setup's first statements
            template.finish(g, Ctx(self.first_player))
        else:
            g.active = g.first_player = self.first_player
            g.d.setup.run(g, Ctx(self.first_player))
        self.first_player = g.first_player  # a setup step may say who goes first
        for text, cond in g.d.warnings:
            if cond.test(g, Ctx(self.first_player)):
                g.warnings.append(text)
                g.emit_log({"t": "warning", "text": text})

    def play_one_turn(self, player: int) -> str:
        """Play one turn of ``player``; returns the end reason if the game ended after it.

        Raises:
            GameOver: an end condition held after the turn ('after the turn', then
                'immediately', each in the order written).
        """
        g = self.game
        g.new_turn(player)
        g.d.turn.run(g, fresh_ctx(player, None, None, 0))
        ends = self._ends
        if ends is None or ends[0] is not g.d.end_conditions or ends[1] != (g.tracing or not _compiled.ENABLED):
            ends = self._ends = self._end_tests(g)
        if ends[2]:
            ctx = Ctx(g.active)
            for test, reason in ends[2]:
                if test(g, ctx):
                    raise GameOver(reason)
        return ""

    @staticmethod
    def _end_tests(g: Game) -> tuple[Any, bool, list[tuple[Any, str]]]:
        """(the end conditions, run as objects, their tests in the order :meth:`check_end`
        runs them after a turn): 'after the turn' then 'immediately', each ``(test, reason)``,
        a test compiled (:mod:`cardscript.runtime.compiled`) unless the game is traced (a
        traced test records where it is written) or compiling is off."""
        conds = g.d.end_conditions
        objects = g.tracing or not _compiled.ENABLED
        tests: list[tuple[Any, str]] = []
        cx = None
        if not objects:
            from cardscript.runtime.compiled.compiler import Compiler

            cx = Compiler(g)
        for timing in ("after the turn", "immediately"):
            for c in conds:
                if c.timing == timing:
                    test = c.cond.test
                    if cx is not None:
                        with contextlib.suppress(RecursionError):  # compiled where the stack is already deep
                            test = cx.cond(c.cond)
                    tests.append((test, c.reason))
        return conds, objects, tests

    def play_turns(self, max_turns: int = MAX_TURNS) -> str:
        """Play turns until an end condition holds; returns the end reason."""
        g = self.game
        player = self.first_player
        try:
            for _ in range(max_turns):
                self.play_one_turn(player)
                player = (player + 1) % g.n
        except GameOver as over:
            return over.reason
        return "turn limit reached"

    def check_end(self, timing: str) -> str:
        g = self.game
        for cond in g.d.end_conditions:
            if cond.timing == timing and cond.cond.test(g, Ctx(g.active)):
                return cond.reason
        return ""

    def run(self) -> Result:
        """Set up, play, score. Returns the :class:`Result`."""
        try:
            self.setup()
        except GameOver as over:
            return self.finish(over.reason)
        return self.finish(self.play_turns())

    def finish(self, reason: str) -> Result:
        g = self.game
        g.over = reason
        g.emit_log({"t": "end", "reason": reason, "turn": g.turn})
        scores = []
        ties: list[list[int]] = []
        for p in range(g.n):
            ctx = Ctx(p)
            if g.d.score is not None:
                g.d.score.run(g, ctx)
            scores.append(g.get(g.d.score_counter, p) if g.d.score_counter >= 0 else 0)
            ties.append([tb.evaluate(g, ctx) for tb in g.d.tie_breaks])
        keys = {p: (scores[p], *ties[p]) for p in range(g.n)}
        ranking = sorted(range(g.n), key=lambda p: tuple(-k for k in keys[p]))
        best = keys[ranking[0]]
        winners = [p for p in ranking if keys[p] == best]
        g.winners = winners
        outcome = next((text for text, cond in g.d.outcomes if cond.test(g, Ctx(g.active))), "")
        g.outcome = outcome
        entry: dict[str, Any] = {"t": "score", "scores": scores, "tie_break": ties, "winners": winners}
        if outcome:
            entry["outcome"] = outcome
        g.emit_log(entry)
        return Result(scores, ranking, winners, reason, g.turn, g.decisions, ties, g.log, outcome)

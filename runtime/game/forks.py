"""Playing on from a snapshot (issue 11, "snapshots"; for issue 13's lookahead and search).

* :func:`resume` plays a game on from a *checkpoint*, a snapshot taken between two turns
  (a recorded game takes one at the start of each turn): nothing of the engine is on the
  Python stack there, so restoring the state is all it takes.
* :func:`fork` answers "what if this decision were answered with option k": on a fresh
  game of the same definition it restores the last checkpoint before the decision and
  replays the recorded picks since then, so the engine reaches the decision again with the
  same Python stack, then answers it (and the next ones) as told. This is always correct,
  wherever the decision lies (mid-effect, in a trigger, during setup); it costs the replay
  of the turn so far.

Both are engine-side: agents are never given the Game (issue 13), a bot asks the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cardscript.runtime.decision import Agent, Decision, EngineAgent
from cardscript.runtime.errors import MAX_TURNS
from cardscript.runtime.game.snapshot import ATOMS, Snapshot
from cardscript.runtime.observation import ask

if TYPE_CHECKING:
    from cardscript.runtime.engine import Engine
    from cardscript.runtime.game import Game
    from cardscript.runtime.result import Result

_SEED = ATOMS.index("seed")


class Fork:
    """Where a :func:`fork` stopped.

    Attributes:
        game: the forked game. Stopped at a decision, its state is the state at that
            decision: read it (evaluate the position), or fork it again; do not play it on.
        decision: the decision it stopped at (its options are the forked game's), or None
            when the game ended.
        result: the game's :class:`~cardscript.runtime.result.Result` when it ended, else None.
        replayed: the recorded decisions replayed to reach the fork point (what it cost).
    """

    __slots__ = ("decision", "game", "replayed", "result")

    def __init__(self, game: Game, decision: Decision | None, result: Result | None, replayed: int):
        self.game, self.decision, self.result, self.replayed = game, decision, result, replayed


class _Stop(BaseException):
    # A BaseException, so that no handler of the effects' errors stops it on its way out.
    def __init__(self, decision: Decision, snapshot: Snapshot):
        super().__init__()
        self.decision, self.snapshot = decision, snapshot


class _ForkAgent(EngineAgent):
    """Every seat of a forked game: the recorded picks first, then ``then``, then ``agents``
    (stopping at a decision ``until`` accepts, or at once when there are no agents)."""

    name = "fork"

    def __init__(self, answers: list[tuple[list[int], int | None]], agents: Sequence[Agent] | None,
                 until: Callable[[Game, Decision], bool] | None,
                 arrive: tuple[int, Callable[[Game, Decision], None]] | None = None):
        self.answers, self.i, self.agents, self.until = answers, 0, agents, until
        #: (recorded answers, hook): the hook runs once, at the fork point, before it is answered
        self.arrive = arrive
        #: the steps the game had taken once the decision being replayed was answered
        self.steps: int | None = None

    def answer(self, game: Game, decision: Decision) -> list[int]:
        if self.arrive is not None and self.i == self.arrive[0]:
            hook, self.arrive = self.arrive[1], None
            hook(game, decision)
        if self.i < len(self.answers):
            picks, self.steps = self.answers[self.i]
            self.i += 1
            return picks
        if self.agents is None or (self.until is not None and self.until(game, decision)):
            # The state at this decision, before leaving it unwinds the effects (their
            # ``finally`` blocks change a few counts): fork() puts it back.
            raise _Stop(decision, game.snapshot())
        return ask(game, self.agents[decision.player], decision)  # a player sees its seat's view


def _replaying(game: Game, agent: _ForkAgent) -> None:
    """Make ``game`` record its decisions as a fork replays them: a replayed decision leaves
    the steps taken as the original did, whatever its agent read (a bot reading the options'
    values spends steps, a replay reads nothing)."""

    def decide(decision: Decision) -> list[int]:
        picks: list[int] = type(game).decide(game, decision)
        if agent.steps is not None:
            game.steps, agent.steps = agent.steps, None
        game.history.append((picks, game.steps))  # type: ignore[union-attr]  # a fork records
        return picks

    game.__dict__["decide"] = decide


def _engine(game: Game, first_player: int) -> Engine:
    """An engine around an existing game, as ``Engine.__init__`` would leave it."""
    from cardscript.runtime.engine import Engine  # the engine imports the game: not at load time

    eng = Engine.__new__(Engine)
    eng.game, eng.first_player = game, first_player
    return eng


def _play_on(eng: Engine) -> Result:
    # Engine.run's loop from a turn boundary: the turns left of the budget, then scoring.
    g = eng.game
    return eng.finish(eng.play_turns(MAX_TURNS - g.turn))


def resume(game: Game, checkpoint: Snapshot, agents: Sequence[Agent] | None = None) -> Result:
    """Restore ``checkpoint`` into ``game`` and play on to the end, as
    :meth:`~cardscript.runtime.engine.Engine.run` would have from there.

    Args:
        game: a game of the checkpoint's definition that no engine is running (finished, a
            ``copy()``, or ``blank()``).
        checkpoint: a snapshot taken between turns (``next_player >= 0``), such as one of a
            recorded game's ``checkpoints``.
        agents: one per seat, used as they are (not bound again); default ``game.agents``.
            Give them the RNG states they had at the checkpoint to replay the same game.

    Raises:
        ValueError: ``checkpoint`` was not taken between turns, or in a game of another
            definition or number of players.
    """
    if checkpoint.next_player < 0:
        raise ValueError("this snapshot was taken during a turn, with effects running: only a snapshot "
                         "taken between turns (a checkpoint) can be resumed; fork() replays to any decision")
    game.restore(checkpoint)
    if agents is not None:
        game.agents = list(agents)
    return _play_on(_engine(game, checkpoint.next_player))


def fork(game: Game, at: Snapshot | None = None, then: Sequence[Sequence[int]] = (),
         agents: Sequence[Agent] | None = None, until: Callable[[Game, Decision], bool] | None = None,
         log: bool = False, arrive: Callable[[Game, Decision], None] | None = None,
         step_limit: int | None = None) -> Fork:
    """Replay a recorded game to a decision on a fresh game, answer it as told, play on.

    The fork point is the decision being asked when ``at`` was taken (or, taken between
    decisions, the next one); ``at`` defaults to the game's state now, so a bot's engine can
    call ``fork(game, then=[[k]])`` while ``game`` waits for an answer. The fork's decisions
    from there are answered by ``then`` (one list of picks each), then by ``agents`` (one
    per seat, used as they are, not bound again): play stops at the first decision after
    ``then`` when there are no agents, at a decision for which ``until(fork_game, decision)``
    is true, or at the end of the game. Forking does not change ``game`` or ``at``.

    Args:
        game: a game on which :meth:`~cardscript.runtime.game.snapshot.SnapshotOps.record`
            was called before it started.
        at: a snapshot of ``game`` (default: now).
        then: picks for the fork point and the decisions after it.
        agents: who answers after ``then``.
        until: where to stop, tested at each decision left to ``agents``.
        log: keep the fork's log (after the last checkpoint's part of the original's).
        arrive: called once with the forked game and decision at the fork point, before it is
            answered (the forecast of :mod:`cardscript.runtime.forecast` resamples the hidden
            cards there).
        step_limit: the fork's step budget (default: the game's), counted from the game's
            start as the game's is: a lookahead bounds what one option may cost with it.

    Returns:
        A :class:`Fork`: the game, the decision it stopped at, the result if it ended.

    Raises:
        ValueError: ``game`` was not recorded, or ``at`` is of another game.
        InvalidDecision: a pick of ``then`` does not fit its decision.
    """
    s = at if at is not None else game.snapshot()
    if s.history is None or s.checkpoints is None:
        raise ValueError("fork() needs a recorded game: call game.record(first_player) before engine.run()")
    if s.definition is not game.d or s.seats != game.n:
        raise ValueError(f"a snapshot of {s.definition.name} for {s.seats} players is not of this game "
                         f"({game.d.name} for {game.n} players)")
    checkpoints, n = s.checkpoints
    start = s if s.next_player >= 0 else checkpoints[n - 1] if n else None
    first = start.answered if start is not None else 0
    answers: list[tuple[list[int], int | None]] = [*s.history[first:s.answered], *((list(p), None) for p in then)]
    agent = _ForkAgent(answers, agents, until, None if arrive is None else (s.answered - first, arrive))
    if start is None:  # a decision of the setup: replay the game from its seed
        from cardscript.runtime.engine import Engine

        assert s.start_first is not None
        eng = Engine(game.d, game.n, [agent] * game.n, s.atoms[_SEED], log, s.start_first,
                     game.step_limit if step_limit is None else step_limit)
        eng.game.record(s.start_first)
        _replaying(eng.game, agent)
        run: Callable[[], Result] = eng.run
    else:
        child = game.blank()
        child.logging = log
        child.agents = [agent] * game.n
        child.restore(start)
        if step_limit is not None:
            child.step_limit = step_limit
        _replaying(child, agent)
        eng = _engine(child, start.next_player)
        run = lambda: _play_on(eng)  # noqa: E731
    try:
        result = run()
    except _Stop as stop:
        eng.game.restore(stop.snapshot)
        return Fork(eng.game, stop.decision, None, s.answered - first)
    return Fork(eng.game, None, result, s.answered - first)


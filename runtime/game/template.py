"""Setup templates (issue 11, "game creation"): the state a game's setup reaches before it
first draws from the RNG or asks a decision is the same for every seed, so it is reached
once per definition, seat count and first player, kept as a
:class:`~cardscript.runtime.game.snapshot.Snapshot`, and restored into each new game,
whose setup then runs on from the first statement that needs the seed.

The template covers the leading statements of the first script's ``setup:`` block (the
definition's setup is a block of one block per script, ``Seq[Seq[...]]``). Building it runs
those statements on a game whose RNG and agents refuse to be used (:class:`_Refusing`): the
template ends before the first statement that touches them, or that leaves a local mark
or a 'let' value in the setup's context, or raises anything. :meth:`SetupTemplate.finish`
then runs the rest exactly as :meth:`Seq.run <cardscript.runtime.effects.flow.Seq.run>`
would have: the same steps, the same 'did' and 'since' for each statement. A game made
from a template is the same game, state for state (tests/test_setup_template.py compares
the snapshots of every built-in game and variant after setup, both ways).

Only a game that logs nothing, forecasts nothing (a forecast replays the setup on a fresh
game) and keeps the default step budget or more is made this way: a logged game's setup
entries come from running its setup.
"""

from __future__ import annotations

import random
from typing import Any

from cardscript.runtime.context import Ctx
from cardscript.runtime.effects.flow import Seq, _Seq1
from cardscript.runtime.errors import RunawayError
from cardscript.runtime.game import Game
from cardscript.runtime.game.snapshot import Snapshot


class _Refused(BaseException):
    """Raised by the template game's RNG and agents: a statement that needs the seed or a
    player ends the template (a BaseException, so no ``except Exception`` of an effect can
    take it for its own)."""


class _Refusing:
    """The template game's RNG and its agents: any use of one (a draw, a shuffle, an agent
    bound or asked) raises :class:`_Refused`."""

    def __getattr__(self, name: str) -> Any:
        raise _Refused


_BLOCKS = (Seq, _Seq1)

#: make unlogged games from setup templates (tests and bench/ turn it off to compare)
ENABLED = True


class SetupTemplate:
    """The state after the first ``k`` statements of the first script's setup block.

    Attributes:
        base: the game it was built on (a new game shares its fixed layout: ``Game.blank``).
        outer: the definition's setup block it was built from (``Seq`` of one block per script).
        snapshot: the state after those statements.
        k: how many statements of the first block it covers (at least 1).
        did, since, total: the setup context's 'did' and 'since' after them, and the sum of
            their results (the block's running total).
        it, them: what they left bound to 'it' and 'them' in the setup context (a card
            chosen there is 'it' for the statements after them).
        outer_start: the game's clock when the first block started.
    """

    __slots__ = ("base", "did", "it", "k", "outer", "outer_start", "since", "snapshot", "them", "total")

    def __init__(self, base: Game, outer: Any, k: int, snapshot: Snapshot, did: int, since: int, total: int,
                 outer_start: int, it: int | None = None, them: int | None = None):
        self.base, self.outer, self.k, self.snapshot = base, outer, k, snapshot
        self.did, self.since, self.total, self.outer_start = did, since, total, outer_start
        self.it, self.them = it, them

    def new_game(self, agents: list[Any], seed: int) -> Game:
        """A game of ``seed`` with ``agents``, in the template's state (its RNG seeded, not drawn)."""
        g: Game = self.base.blank()
        g.agents = list(agents)
        g.restore(self.snapshot)
        g.seed = seed
        g._rng, g._rng_shared = random.Random(seed), False
        return g

    def finish(self, g: Game, ctx: Ctx) -> None:
        """Run the rest of the setup in ``g`` (made by :meth:`new_game`) with ``ctx``, the
        setup's context, as ``Seq.run`` runs the outer block and the first one."""
        ctx.did, ctx.since = self.did, self.since
        ctx.it, ctx.them = self.it, self.them
        outer = self.outer
        total = _run_on(g, ctx, outer.stmts[0], self.k, self.total)
        # the first block is done: the outer block records its total, then runs the others
        ctx.did, ctx.since = total, self.outer_start
        _run_on(g, ctx, outer, 1, 0)


def _run_on(g: Game, ctx: Ctx, block: Any, i: int, total: int) -> int:
    """The statements of ``block`` from the ``i``-th on, as ``Seq.run`` runs them ('did' and
    'since' after each, the position of a runaway's statement); returns ``total`` plus their
    results."""
    stmts = block.stmts
    try:
        while i < len(stmts):
            start = g.clock
            r = stmts[i].run(g, ctx)
            ctx.did = r
            ctx.since = start
            total += r
            i += 1
    except RunawayError as exc:
        exc.leaving(block._at, i)
        raise
    return total


def setup_template(d: Any, seats: int, first_player: int) -> SetupTemplate | None:
    """The :class:`SetupTemplate` of definition ``d`` for ``seats`` and ``first_player``,
    built at its first use and kept on the definition (a cycle through its snapshot, which
    the collector frees with the definition: no global table holds it); None when the
    setup's first statement already needs the seed or a player (or the setup is of another
    shape)."""
    cache: dict[tuple[int, int], tuple[Any, SetupTemplate | None]] = d.__dict__.setdefault("_setup_templates", {})
    key = (seats, first_player)
    found = cache.get(key)
    if found is not None and found[0] is d.setup:  # the same setup block it was built from
        return found[1]
    built = _build(d, seats, first_player)
    cache[key] = (d.setup, built)
    return built


def _build(d: Any, seats: int, first_player: int) -> SetupTemplate | None:
    outer = d.setup
    if type(outer) not in _BLOCKS or not outer.stmts or type(outer.stmts[0]) not in _BLOCKS:
        return None
    inner = outer.stmts[0]
    refusing: list[Any] = [_Refusing() for _ in range(seats)]
    g = Game(d, seats, refusing, 0, log=False)
    g._rng, g._rng_shared = _Refusing(), False  # type: ignore[assignment]  # refuses every draw
    g.active = g.first_player = first_player
    ctx = Ctx(first_player)
    # Seq.run of the outer block, then of the first: each adds its statements to the steps
    g.steps += len(outer.stmts)
    outer_start = g.clock
    g.steps += len(inner.stmts)
    best: SetupTemplate | None = None
    total = 0
    for k, stmt in enumerate(inner.stmts):
        start = g.clock
        try:
            r = stmt.run(g, ctx)
        except (_Refused, Exception):  # noqa: BLE001 -- refused, or anything else: the template ends before it
            break  # (a KeyboardInterrupt is not taken: it stops the program, as anywhere)
        ctx.did, ctx.since = r, start
        total += r
        if g.decisions or ctx.vars or ctx.frames != [{}] or g.steps > g.step_limit or \
                ctx.you != first_player or ctx.this is not None or ctx.depth:
            break
        best = SetupTemplate(g, outer, k + 1, g.snapshot(), ctx.did, ctx.since, total, outer_start, ctx.it, ctx.them)
    return best

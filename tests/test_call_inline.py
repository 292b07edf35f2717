"""``Call.run`` writes out ``Ctx(...)``, ``run_nested`` and a one-statement body's
``_Seq1.run``, and shares the caller's mark tables with a body that marks nothing locally
(runtime/effects/calls.py). This keeps the fast path the same as the plain one: the same
games, logs and step counts with ``Call.run`` replaced by the plain version below. The
same for the loops that write out ``ctx.clone()`` (``ForPlayers``, ``ForCards``,
``AsPlayers``), for :func:`~cardscript.runtime.context.fresh_ctx`, and for the moves
specialised by destination (``_MoveToYours``, ``_MoveToShared``) or by source
(``_MoveTopCard``, 'the top card of') against ``Move.run``. These are the effect objects, which
the compiled closures match (tests/test_compiled.py): the games here run with compiling off."""

from __future__ import annotations

from typing import Any

import pytest

from cardscript.dsl.front.pipeline import compile_game
from cardscript.runtime import compiled
from cardscript.runtime.agents import make_agents
from cardscript.runtime.context import Ctx, fresh_ctx
from cardscript.runtime.effects import calls, cards, flow
from cardscript.runtime.effects.changes import MarkCards
from cardscript.runtime.effects.flow import Seq
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import MAX_CALL_DEPTH, RunawayError
from cardscript.runtime.game import Game


def _plain_run(self: calls.Call, g: Game, ctx: Ctx) -> int:
    """Call.run the plain way: every argument bound, a new context with a mark table of its
    own, the body run through run_nested."""
    if ctx.depth >= MAX_CALL_DEPTH:
        raise RunawayError(f"effect calls nested deeper than {MAX_CALL_DEPTH} at {self.effect.name!r} "
                           f"{g.where(ctx.this)}", [f"effect '{self.effect.name}'"])
    bound: dict[str, Any] = {}
    for name, how, what in self._binders if self._binders is not None else self._plan():
        bound[name] = what(g, ctx) if how == 0 else what if how == 1 else calls.Closure(what, ctx)
    effect = self.effect
    if effect.replacements:
        found = g.replacement(effect.replacements, ctx.you)
        if found is not None:
            return g.run_replacement(found, bound, [k for _, k in effect.params], ctx)
    try:
        return g.run_nested(effect.body, Ctx(ctx.you, ctx.them, ctx.it, ctx.this, bound, [*ctx.frames, {}],
                                             ctx.depth + 1))
    except RunawayError as exc:
        exc.passing(f"effect '{effect.name}'")
        raise


def _plain_for_players(self: flow.ForPlayers, g: Game, ctx: Ctx) -> int:
    return sum(self.body.run(g, ctx.with_them(p)) for p in self.players.players(g, ctx))


def _plain_for_cards(self: flow.ForCards, g: Game, ctx: Ctx) -> int:
    return sum(self.body.run(g, ctx.with_it(c)) for c in self.cards.cards(g, ctx))


def _plain_as_players(self: flow.AsPlayers, g: Game, ctx: Ctx) -> int:
    total = 0
    for p in self.players.players(g, ctx):
        inner = ctx.with_you(p)
        total += self.stmt.run(g, inner)
        ctx.it = inner.it
    return total


def _play(game: str, players: int, seed: int) -> tuple:
    definition, _w, _p = compile_game(game)
    e = Engine(definition, players, make_agents(["random"], players), seed, log=True)
    r = e.run()
    return r.scores, r.turns, r.decisions, e.game.steps, [str(x) for x in r.log]


@pytest.mark.parametrize("game,players,seed", [("injustice", 2, 3), ("justice-league-dark", 2, 5),
                                               ("hero-dice-batman", 1, 7), ("bench/minideck", 2, 2)])
def test_the_written_out_call_plays_the_same_games(game: str, players: int, seed: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "ENABLED", False)  # the objects' run methods, not their closures
    fast = _play(game, players, seed)
    monkeypatch.setattr(calls.Call, "run", _plain_run)
    monkeypatch.setattr(flow.ForPlayers, "run", _plain_for_players)
    monkeypatch.setattr(flow.ForCards, "run", _plain_for_cards)
    monkeypatch.setattr(flow.AsPlayers, "run", _plain_as_players)
    monkeypatch.setattr(cards._MoveToYours, "run", cards.Move.run)  # the specialised moves, generic
    monkeypatch.setattr(cards._MoveToShared, "run", cards.Move.run)
    monkeypatch.setattr(cards._MoveTopCard, "run", cards.Move.run)
    assert _play(game, players, seed) == fast


_DRAWS = '''game "Draws"
players 1 to 2
types thing
zone deck: per player, hidden, refill from discard
zone discard: per player, public
zone pile: shared, hidden
zone hand: per player, public
counter score: per player, 0
card "Chip": thing, copies 3
setup:
  move all cards from the box to the pile
turn:
  repeat 3: move the top card of the pile to your discard
  repeat 5: move the top card of your deck to your hand
  move the top card of the pile to your hand
  move all cards from your hand to the pile
  end game "drawn"
score:
  +(count all cards in your hand) score
'''


@pytest.mark.parametrize("limit", [None, *range(1, 60, 3)])
def test_the_top_card_move_is_move(limit: int | None, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """'move the top card of ZONE to ZONE' (``_MoveTopCard``) takes the same card, refills
    an empty deck from its discard the same way, does nothing on an empty pile, and counts
    and stops at the step limit exactly where ``Move.run`` does."""
    monkeypatch.setattr(compiled, "ENABLED", False)  # the objects' run methods, not their closures
    (tmp_path / "game.rules").write_text(_DRAWS)
    definition, _w, _p = compile_game(str(tmp_path))
    kinds = {type(n).__name__ for n in _nodes(definition.turn)}
    assert "_MoveTopCard" in kinds  # the fast path is the one taken

    def play() -> tuple:
        e = Engine(definition, 2, make_agents(["random"], 2), 4, log=True,
                   **({} if limit is None else {"step_limit": limit}))
        try:
            r = e.run()
            out: Any = (r.scores, r.turns)
        except RunawayError as exc:
            out = str(exc)
        return out, e.game.steps, e.game.slots, [str(x) for x in e.game.log]

    fast = play()
    monkeypatch.setattr(cards._MoveTopCard, "run", cards.Move.run)
    assert play() == fast


def _nodes(x: Any) -> list[Any]:
    out, todo = [], [x]
    while todo:
        obj = todo.pop()
        if isinstance(obj, (list, tuple)):
            todo.extend(obj)
        elif hasattr(obj, "__slots__") and not isinstance(obj, (str, int)):
            out.append(obj)
            todo.extend(getattr(obj, f, None) for f in obj.__slots__ if not f.startswith("_"))
    return out


def _fields(c: Ctx) -> dict[str, Any]:
    return {k: getattr(c, k) for k in Ctx.__slots__}


def test_fresh_ctx_is_ctx() -> None:
    assert _fields(fresh_ctx(1, 5, 7, 3)) == _fields(Ctx(1, it=5, this=7, depth=3))
    assert _fields(fresh_ctx(0, None, None, 0)) == _fields(Ctx(0))
    parent = Ctx(1, 2, 3, 4, {"N": 1}, [{}], 2)
    parent.did, parent.since = 5, 9
    g: Any = None
    seen: list[Ctx] = []

    class _Body:
        def run(self, g: Any, ctx: Ctx) -> int:
            seen.append(ctx)
            return 1

    class _Two:
        def players(self, g: Any, ctx: Ctx) -> list[int]:
            return [0, 1]

        def cards(self, g: Any, ctx: Ctx) -> list[int]:
            return [8, 9]

    for loop, plain in ((flow.ForPlayers(_Two(), _Body()), _plain_for_players),
                        (flow.ForCards(_Two(), _Body()), _plain_for_cards),
                        (flow.AsPlayers(_Two(), _Body()), _plain_as_players)):
        seen.clear()
        assert loop.run(g, parent) == 2
        fast = [_fields(c) for c in seen]
        seen.clear()
        plain(loop, g, parent)  # type: ignore[arg-type]
        assert fast == [_fields(c) for c in seen]


def test_a_body_that_marks_locally_gets_its_own_mark_table() -> None:
    local = MarkCards(None, "m", this_turn=False, on=True)
    turn = MarkCards(None, "m", this_turn=True, on=True)
    assert calls.marks_locally(Seq([Seq([local])]))
    assert not calls.marks_locally(Seq([turn]))
    callee = calls.UserEffect("e", [])
    callee.body = Seq([local])
    # the callee's own call makes its table: the caller needs none for it
    assert not calls.marks_locally(Seq([calls.Call(callee, [])]))

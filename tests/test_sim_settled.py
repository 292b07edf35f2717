"""Batches run with the compiled game out of the garbage collector's sight
(``dsl.sim.pool.settled``, issue 11), and give it back afterwards."""

import gc

import cardscript
from cardscript.dsl.sim.games import play_seed
from cardscript.dsl.sim.pool import play_seeds, settled
from cardscript.dsl.sim.spec import BatchSpec


def test_settled_freezes_for_the_batch_and_gives_everything_back():
    before = gc.get_freeze_count()
    with settled():
        assert gc.get_freeze_count() > before
    assert gc.get_freeze_count() == 0


def test_a_batch_closed_early_unfreezes_too():
    d = cardscript.compile_game("hero-dice-batman")
    spec = BatchSpec(game="hero-dice-batman", players=1, bots="random")
    rows = play_seeds(spec, d, range(1, 4), jobs=1)
    next(rows)
    assert gc.get_freeze_count() > 0
    rows.close()
    assert gc.get_freeze_count() == 0


def test_frozen_batches_play_the_same_games():
    d = cardscript.compile_game("hero-dice-batman")
    spec = BatchSpec(game="hero-dice-batman", players=1, bots="random")
    plain = [play_seed(d, spec, s) for s in range(1, 6)]
    frozen = list(play_seeds(spec, d, range(1, 6), jobs=1))
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("seconds",)} for r in rows]  # noqa: E731
    assert strip(frozen) == strip(plain)


def test_settled_never_undoes_a_freeze_it_did_not_make():
    with settled():
        frozen = gc.get_freeze_count()
        with settled():
            pass
        assert gc.get_freeze_count() == frozen  # the inner batch left the outer's freeze alone
    gc.freeze()
    try:
        with settled():
            pass
        assert gc.get_freeze_count() > 0  # nor the caller's own
    finally:
        gc.unfreeze()

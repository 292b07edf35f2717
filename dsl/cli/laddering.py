"""``cardscript ladder``: the bots against each other (issue 13; dsl/sim/ladder.py)."""

from __future__ import annotations

import json

import click

from cardscript.dsl.cli.common import GAMES, bot_names, capped_jobs, check_seeds, compile_with_options, variant_option
from cardscript.dsl.textsafe import json_text, terminal
from cardscript.runtime.errors import MAX_SEED


@click.command()
@click.argument("game")
@click.option("--games", "-n", type=GAMES, default=40, show_default=True,
              help="games per pair of bots (co-operative games: per bot)")
@click.option("--players", "-p", type=int, help="number of players (default: 2, or the game's minimum)")
@click.option("--bots", default="random,greedy,search", show_default=True, help="the bots, comma-separated")
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="seed of the first game")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="worker processes (default: every core)")
@click.option("--cost-games", type=click.IntRange(min=0), default=2, show_default=True,
              help="games per bot for its µs per decision (0: skip)")
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
@click.option("--with", "with_paths", multiple=True, metavar="PATH", help="add an expansion; repeatable")
@variant_option
def ladder(game: str, games: int, players: int | None, bots: str, seed: int, jobs: int | None, cost_games: int,
           as_json: bool, with_paths: tuple[str, ...], variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """Random vs greedy vs search (or the --bots given): win rates with 95 % Wilson
    intervals, seats alternated, and each bot's µs per decision (docs/bots.md)."""
    from cardscript.dsl.sim.ladder import ladder as run_ladder

    check_seeds(seed, games)
    jobs = capped_jobs(jobs)
    d, _, _ = compile_with_options(game, with_paths, variants, mixes)
    lo, hi = d.players
    n = players if players is not None else max(lo, min(2, hi))
    if not lo <= n <= hi:
        raise click.BadParameter(f"{terminal(d.name)} is for {lo} to {hi} players, not {n}", param_hint="--players")
    names = bot_names(bots)
    try:
        out = run_ladder(game, d, names, games, n, jobs, seed, cost_games, with_paths, variants,
                         mixes)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None
    if as_json:
        click.echo(json_text(json.dumps(out, indent=1)))
        return
    click.echo(terminal(f"{d.name}, {n} players, {games} games each, seats alternated"))
    for p in out.get("pairs", []):
        a, b = p["a_wins"], p["b_wins"]
        click.echo(terminal(f"  {p['a']} vs {p['b']} ({p['games']} games): {p['a']} {_pct(a)}, {p['b']} {_pct(b)}"))
    for bot, per in out.get("outcomes", {}).items():
        click.echo(terminal(f"  {bot} ({per['games']} games):"))
        for tier, r in per["tiers"].items():
            click.echo(terminal(f"    {tier}: {_pct(r)}"))
    for bot, us in out["cost"].items():
        click.echo(terminal(f"  {bot}: {us:,.0f} µs per decision"))
    if out["failed"]:
        click.echo(terminal(f"  {len(out['failed'])} game(s) failed (a runaway script) and count for no one"))


def _pct(r: dict[str, float]) -> str:
    return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"

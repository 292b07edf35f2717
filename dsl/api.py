"""The public Python API, re-exported by the top-level :mod:`cardscript` package.

Everything a notebook, a tournament script or a learning experiment needs, in the same
terms as the command line (docs/api.md has runnable examples):

* :func:`compile_game` — a built-in game name or a folder of scripts, with variants,
  expansions and mixed-in sets, to an immutable :class:`GameDefinition`;
* :func:`play_game` — one game with chosen agents and a seed, to its :class:`Result`;
* :func:`play_games` — many games, one seed each (``seed``, ``seed + 1``, ...), exactly
  the games ``cardscript simulate`` plays;
* :func:`run_scenarios` — scenario files, to one :class:`ScenarioResult` each;
* :func:`check_paths` — parse, check and lint scripts, to a :class:`CheckReport` of
  :class:`Diagnostic` objects;
* :class:`Agent` — subclass it to write your own player.

User mistakes never raise Python errors of other kinds: compiling raises
:class:`CompileError` (its ``diagnostics`` say what and where), checking and scenarios
return diagnostics, and a bad argument (an unknown bot, a player count out of range)
raises :class:`ValueError` with a readable message.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from os import PathLike
from pathlib import Path

from cardscript.dsl.diagnostics import CompileError
from cardscript.dsl.front.pipeline import CheckReport
from cardscript.dsl.front.pipeline import check_paths as _check_paths
from cardscript.dsl.front.pipeline import compile_game as _compile
from cardscript.dsl.front.variants import mix_scripts, resolve_variants
from cardscript.dsl.harness.scenario import ScenarioResult, run_scenario
from cardscript.dsl.tools.manifest import load_expansions
from cardscript.runtime.agents import make_agents
from cardscript.runtime.decision import Agent
from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.engine import Engine
from cardscript.runtime.result import Result

StrPath = str | PathLike[str]
AgentSpec = str | Agent


def compile_game(game: StrPath, *, variants: Iterable[str] = (), expansions: Iterable[StrPath] = (),
                 mix: Iterable[str] = ()) -> GameDefinition:
    """Compile a game to its definition, as ``cardscript play GAME --variant ... --with ... --mix ...`` does.

    Args:
        game: a built-in game name (a folder of the installed cardscripts/, as
            ``cardscript play GAME`` takes) or the path of a folder (or main script) of scripts.
        variants: variant names (file stem ``"short"`` or header name ``"Short Game"``) or
            paths of variant files, applied in order.
        expansions: folders of expansions (each with a ``cardscript.toml`` manifest) or
            script files, added before the variants.
        mix: other built-in sets whose cards are mixed in (a "mixing sets" rule).

    Returns:
        The immutable :class:`GameDefinition` (``.name``, ``.players`` as ``(min, max)``, ...).

    Raises:
        CompileError: the scripts have errors; ``exc.diagnostics`` lists them, each with
            file, line, column and a hint (print one with :func:`render_diagnostic`).
    """
    name = str(game)
    rules, cards = mix_scripts(name, list(mix))
    extra = _expansion_scripts(name, [str(p) for p in expansions]) + resolve_variants(name, list(variants))
    definition, _warnings, _program = _compile(name, extra + rules, cards)
    return definition


def _expansion_scripts(game: str, paths: list[str]) -> list[Path]:
    scripts, diags = load_expansions(game, paths)
    if any(d.severity == "error" for d in diags):
        raise CompileError(diags)
    return scripts


def _agents(agents: Sequence[AgentSpec] | None, seats: int) -> list[Agent]:
    """One agent per seat. Names (made by :func:`make_agents`) are cycled to fill the
    seats; an :class:`Agent` object plays one seat only, since ``bind`` gives it its seat.

    Raises:
        ValueError: an unknown bot name, or an Agent object that would fill two seats.
    """
    specs: Sequence[AgentSpec] = agents or ["greedy"]
    if len(specs) < seats and any(isinstance(s, Agent) for s in specs):
        raise ValueError(f"{seats} seats need {seats} agents when Agent objects are given, got {len(specs)}")
    return [make_agents([s], 1)[0] if isinstance(s, str) else s for s in (specs[i % len(specs)] for i in range(seats))]


def _seats(definition: GameDefinition, players: int | None) -> int:
    lo, hi = definition.players
    n = lo if players is None else players
    if not lo <= n <= hi:
        raise ValueError(f"{definition.name} is for {lo} to {hi} players, not {n}")
    return n


def play_game(definition: GameDefinition, *, players: int | None = None,
              agents: Sequence[AgentSpec] | None = None, seed: int = 1, log: bool = True) -> Result:
    """Play one game to its end, as ``cardscript play`` does.

    Args:
        definition: from :func:`compile_game`.
        players: number of seats (default: the game's minimum).
        agents: per seat, a bot name (``"greedy"``, ``"random"``) or an :class:`Agent`,
            cycled to fill the seats (default: greedy bots).
        seed: the game's one RNG seed; the same seed and agents give the same game.
        log: keep the event log in ``result.log`` (turn it off for speed).

    Returns:
        The :class:`Result`: ``scores`` (per seat), ``ranking``, ``winners`` (0-based
        seats), ``outcome`` (co-operative games), ``reason``, ``turns``, ``decisions``, ``log``.

    Raises:
        ValueError: an unknown bot name, or a player count outside the game's range.
    """
    n = _seats(definition, players)
    return Engine(definition, n, _agents(agents, n), seed, log=log).run()


def play_games(definition: GameDefinition, games: int, *, players: int | None = None,
               agents: Sequence[AgentSpec] | None = None, seed: int = 1) -> Iterator[Result]:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ... (the games of ``cardscript simulate``).

    Each game gets fresh bots for the names in ``agents``; Agent objects are reused and
    re-bound (``Agent.bind``) at each game's start. Logs are off.

    Yields:
        One :class:`Result` per game, in seed order, as each game ends.

    Raises:
        ValueError: as :func:`play_game`, before the first game starts.
    """
    n = _seats(definition, players)
    _agents(agents, n)  # fail on a bad bot name before the first game
    for i in range(games):
        yield Engine(definition, n, _agents(agents, n), seed + i, log=False).run()


def run_scenarios(paths: Iterable[StrPath]) -> list[ScenarioResult]:
    """Run every ``.scenario`` file under ``paths`` (files or folders, searched recursively).

    Returns:
        One :class:`ScenarioResult` per file, in path order: ``.passed``, ``.name``,
        ``.file`` and ``.diagnostics`` (what differed, at the line of the failing step).

    Raises:
        FileNotFoundError: a path does not exist.
    """
    files: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise FileNotFoundError(f"no such file or folder: {raw}")
        files.extend(sorted(p.rglob("*.scenario")) if p.is_dir() else [p])
    return [run_scenario(f) for f in files]


def check_paths(paths: Iterable[StrPath]) -> CheckReport:
    """Parse, check and lint every script under ``paths``, as ``cardscript check`` does.

    Returns:
        A :class:`CheckReport`: ``diagnostics`` (errors and warnings, each a
        :class:`Diagnostic` with ``code``, ``severity``, ``message``, ``span`` and ``hint``),
        the ``files`` covered, and the counts ``errors`` and ``warnings``.
    """
    return _check_paths([str(p) for p in paths])

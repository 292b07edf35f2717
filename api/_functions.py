"""The functions of the public Python API, re-exported by the top-level :mod:`cardscript` package.

Everything a notebook, a tournament script or a learning experiment needs, in the same
terms as the command line (docs/api.md has runnable examples):

* :func:`compile_game` — a built-in game name or a folder of scripts, with variants,
  expansions and mixed-in sets, to a :class:`GameDefinition`;
* :func:`play_game` — one game with chosen agents and a seed, to its :class:`Result`;
* :func:`play_games` — many games, one seed each (``seed``, ``seed + 1``, ...), exactly
  the games ``cardscript simulate`` plays;
* :func:`run_scenarios` — scenario files, to one :class:`ScenarioResult` each;
* :func:`check_paths` — parse, check and lint scripts, to a :class:`CheckReport` of
  :class:`Diagnostic` objects.

A mistake in a script is a :class:`CompileError` (its ``diagnostics`` say what and
where) or a diagnostic in a returned report; a mistake in the arguments is a
:class:`TypeError` or :class:`ValueError` with a readable message, raised before any
game starts.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from os import PathLike

from cardscript.dsl.diagnostics import Diagnostic, render
from cardscript.dsl.front.pipeline import CheckReport
from cardscript.dsl.front.pipeline import check_paths as _check_paths
from cardscript.dsl.front.pipeline import compile_game as _compile
from cardscript.dsl.front.variants import game_scripts
from cardscript.dsl.harness.scenario import ScenarioResult, run_scenario, scenario_files
from cardscript.runtime.agents import make_agents
from cardscript.runtime.decision import Agent
from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import check_seed
from cardscript.runtime.result import Result

StrPath = str | PathLike[str]
AgentSpec = str | Agent


class CompileWarning(UserWarning):
    """A warning diagnostic of :func:`compile_game` (a card left out of a mix, an
    oversized deck, ...), issued through Python's :mod:`warnings`.

    Attributes:
        diagnostic: the :class:`Diagnostic` (code, message, span, hint).
    """

    def __init__(self, diagnostic: Diagnostic, text: str):
        super().__init__(text)
        self.diagnostic = diagnostic


def _names(value: Iterable[StrPath] | StrPath, what: str) -> list[str]:
    """A list of names or paths; one name alone counts as a list of one (``variants="short"``)."""
    if isinstance(value, (str, PathLike)):
        return [str(value)]
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{what} must be a name or a list of names, not {type(value).__name__}") from None
    for item in items:
        if not isinstance(item, (str, PathLike)):
            raise TypeError(f"{what} must hold names or paths, not {type(item).__name__} ({item!r})")
    return [str(item) for item in items]


def compile_game(game: StrPath, *, variants: Iterable[StrPath] | StrPath = (),
                 expansions: Iterable[StrPath] | StrPath = (), mix: Iterable[str] | str = ()) -> GameDefinition:
    """Compile a game to its definition, as ``cardscript play GAME --with ... --variant ... --mix ...`` does.

    Args:
        game: a built-in game name (a folder of the installed cardscripts/, as
            ``cardscript play GAME`` takes) or the path of a folder (or main script) of scripts.
        variants: variant names (file stem ``"short"`` or header name ``"Short Game"``) or
            paths of variant files, applied in order. One name alone is a list of one.
        expansions: folders of expansions (each with a ``cardscript.toml`` manifest) or
            script files, added before the variants.
        mix: other built-in sets whose cards are mixed in (a "mixing sets" rule).

    Returns:
        The :class:`GameDefinition` (``.name``, ``.players`` as ``(min, max)``, ``.cards``, ...).
        Games never change it: compile once and play it as often as you like.

    Warns:
        CompileWarning: one per warning diagnostic (a card of a mixed set left out, ...).

    Raises:
        CompileError: the scripts have errors; ``exc.diagnostics`` lists them, each with
            file, line, column and a hint (print one with :func:`render_diagnostic`).
        TypeError: an argument of the wrong type.
        ValueError: an empty expansion path.
    """
    if not isinstance(game, (str, PathLike)) or not str(game):
        raise TypeError(f"game must be a game name or a path, not {game!r}")
    name = str(game)
    names = _names(expansions, "expansions")
    if any(not n for n in names):  # "" would mean the current folder
        raise ValueError("an empty path names no expansion")
    extra, cards = game_scripts(name, names, _names(variants, "variants"), _names(mix, "mix"))
    definition, diagnostics, program = _compile(name, extra, cards)
    for d in diagnostics:
        if d.severity == "warning":
            warnings.warn(CompileWarning(d, render(d, program.sources)), stacklevel=2)
    return definition


def _agents(agents: Sequence[AgentSpec] | AgentSpec | None, seats: int) -> list[Agent]:
    """One agent per seat. Names (``"greedy"``, ``"random"``) are cycled to fill the seats
    and made afresh for each game; an :class:`Agent` object plays exactly one seat, since
    ``bind`` gives it its seat.

    Raises:
        TypeError: an entry that is neither a bot name nor an Agent object.
        ValueError: an unknown bot name; more agents than seats; an Agent object that
            would fill two seats.
    """
    specs: list[AgentSpec] = ["heuristic"] if agents is None else [agents] if isinstance(agents, (str, Agent)) \
        else list(agents)
    if not specs:
        raise ValueError("agents is empty: give a bot name or an Agent per seat")
    for s in specs:
        if not isinstance(s, (str, Agent)):
            hint = " (an Agent class: pass an instance, e.g. GreedyAgent())" if isinstance(s, type) else ""
            raise TypeError(f"an agent is a bot name or an Agent object, not {s!r}{hint}")
    if len(specs) > seats:
        raise ValueError(f"{len(specs)} agents for {seats} seats")
    objects = [s for s in specs if isinstance(s, Agent)]
    if objects and (len(specs) < seats or len({id(a) for a in objects}) < len(objects)):
        raise ValueError(f"an Agent object plays one seat: give {seats} agents, each object once")
    return [make_agents([s], 1)[0] if isinstance(s, str) else s for s in (specs[i % len(specs)] for i in range(seats))]


def _seats(definition: GameDefinition, players: int | None) -> int:
    if not isinstance(definition, GameDefinition):
        hint = f" (compile it first: cardscript.compile_game({definition!r}))" if isinstance(definition, str) else ""
        raise TypeError(f"a game is a compiled GameDefinition, not {type(definition).__name__}{hint}")
    lo, hi = definition.players
    if players is None:
        return lo
    if not isinstance(players, int) or isinstance(players, bool):
        raise TypeError(f"players must be an int, not {type(players).__name__}")
    if not lo <= players <= hi:
        raise ValueError(f"{definition.name} is for {lo} to {hi} players, not {players}")
    return players


def play_game(definition: GameDefinition, *, players: int | None = None,
              agents: Sequence[AgentSpec] | AgentSpec | None = None, seed: int = 1, log: bool = True) -> Result:
    """Play one game to its end, as ``cardscript play`` does.

    Args:
        definition: from :func:`compile_game`.
        players: number of seats (default: the game's minimum).
        agents: per seat, a bot name (``"greedy"``, ``"random"``) or an :class:`Agent`;
            names are cycled to fill the seats (default: heuristic bots; docs/bots.md).
        seed: the game's one RNG seed; the same seed and agents give the same game.
        log: keep the event log in ``result.log`` (turn it off for speed).

    Returns:
        The :class:`Result`: ``scores`` (per seat), ``ranking``, ``winners`` (0-based
        seats), ``outcome`` (co-operative games), ``reason``, ``turns``, ``decisions``, ``log``.

    Raises:
        TypeError: ``definition`` is not a compiled game, an agent that is neither a bot
            name nor an Agent object, a player count or a seed that is not an int.
        ValueError: an unknown bot name, more agents than seats, an Agent object given
            for two seats, a player count outside the game's range, a seed below 0 or
            above 2**63 - 1.
        RunawayError: a script looped past its bounds (diagnostic CS401 in the CLI).
        InvalidDecision: an Agent answered with an option that is not offered.
        Quit: a :class:`HumanAgent`'s input ended before the game did.
    """
    n = _seats(definition, players)
    seats = _agents(agents, n)
    seed = check_seed(seed)
    if "cardscript.dsl.cli.human" in sys.modules:  # a HumanAgent exists: undo replays the game (issue 15)
        from cardscript.dsl.cli.human import HumanAgent
        from cardscript.dsl.cli.humanplay import play_human

        if any(isinstance(a, HumanAgent) for a in seats):
            return play_human(definition, seats, seed, log=log)
    return Engine(definition, n, seats, seed, log=log).run()


def play_games(definition: GameDefinition, games: int, *, players: int | None = None,
               agents: Sequence[AgentSpec] | AgentSpec | None = None, seed: int = 1,
               log: bool = False) -> Iterator[Result]:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ... (the games of ``cardscript simulate``).

    Each game gets fresh bots for the names in ``agents``; Agent objects are reused and
    re-bound (``Agent.bind``) at each game's start. The arguments are checked at once,
    before the first game; the games are played as the results are read.

    Returns:
        An iterator of one :class:`Result` per game, in seed order.

    Raises:
        TypeError, ValueError: as :func:`play_game`, or ``games`` below 0.
    """
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise ValueError(f"games must be a whole number of games, 0 or more, not {games!r}")
    n = _seats(definition, players)
    _agents(agents, n)
    seed = check_seed(seed)
    if games:
        check_seed(seed + games - 1)

    def run() -> Iterator[Result]:
        for i in range(games):
            yield Engine(definition, n, _agents(agents, n), seed + i, log=log).run()

    return run()


def run_scenarios(paths: Iterable[StrPath] | StrPath) -> list[ScenarioResult]:
    """Run every ``.scenario`` file under ``paths``, as ``cardscript test`` does.

    Returns:
        One :class:`ScenarioResult` per file, in path order: ``.passed``, ``.name``,
        ``.file`` and ``.diagnostics`` (what differed, at the line of the failing step).

    Raises:
        FileNotFoundError, ValueError: as :func:`scenario_files`.
    """
    return [run_scenario(f) for f in scenario_files(_names(paths, "paths"))]


def check_paths(paths: Iterable[StrPath] | StrPath) -> CheckReport:
    """Parse, check and lint every script under ``paths``, as ``cardscript check`` does.

    Returns:
        A :class:`CheckReport`: ``diagnostics`` (errors and warnings, each a
        :class:`Diagnostic` with ``code``, ``severity``, ``message``, ``span`` and ``hint``),
        the ``files`` covered, and the counts ``errors`` and ``warnings``. A missing path
        is a CS001 diagnostic, not an exception.
    """
    return _check_paths(_names(paths, "paths"))

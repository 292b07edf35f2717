"""cardscript: a declarative card-scripting language, its compiler and a game-agnostic runtime.

The public Python API (docs/api.md)::

    import cardscript

    game = cardscript.compile_game("injustice", variants=["short"])
    result = cardscript.play_game(game, players=3, agents=["greedy", "random"], seed=7)
    print(result.winners, result.scores)

Everything not listed in ``__all__`` is internal and may change between releases; the
source folders ``dsl/`` (front end), ``runtime/`` (engine), ``grammar/`` and
``cardscripts/`` (built-in games) are installed as ``cardscript.dsl``,
``cardscript.runtime``, ``cardscript.grammar`` and ``cardscript.cardscripts``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__all__ = [
    "ActionKind",
    "ActionOption",
    "Agent",
    "CheckReport",
    "CompileError",
    "CompileWarning",
    "Decision",
    "DecisionView",
    "Diagnostic",
    "GameDefinition",
    "GreedyAgent",
    "HeuristicAgent",
    "HumanAgent",
    "InvalidDecision",
    "Observation",
    "RandomAgent",
    "Result",
    "RunawayError",
    "ScenarioResult",
    "Span",
    "check_paths",
    "compile_game",
    "play_game",
    "play_games",
    "play_human",
    "render_diagnostic",
    "run_scenarios",
    "scenario_files",
]

# Where each public name lives. Loaded on first use (PEP 562), so that importing any
# part of the package (the CLI, the runtime in a worker process) does not pay for the
# whole front end.
_WHERE = {
    "check_paths": "cardscript._functions",
    "compile_game": "cardscript._functions",
    "play_game": "cardscript._functions",
    "play_games": "cardscript._functions",
    "run_scenarios": "cardscript._functions",
    "scenario_files": "cardscript.dsl.harness.scenario",
    "CompileWarning": "cardscript._functions",
    "CompileError": "cardscript.dsl.diagnostics",
    "Diagnostic": "cardscript.dsl.diagnostics",
    "Span": "cardscript.dsl.diagnostics",
    "render_diagnostic": "cardscript.dsl.diagnostics:render",
    "CheckReport": "cardscript.dsl.front.pipeline",
    "ScenarioResult": "cardscript.dsl.harness.scenario",
    "GreedyAgent": "cardscript.runtime.agents",
    "HeuristicAgent": "cardscript.runtime.agents",
    "HumanAgent": "cardscript.dsl.cli.human",  # issue 15: human play
    "play_human": "cardscript.dsl.cli.humanplay",
    "RandomAgent": "cardscript.runtime.agents",
    "GameDefinition": "cardscript.runtime.definition",
    "Agent": "cardscript.runtime.decision",
    "Decision": "cardscript.runtime.decision",
    "ActionKind": "cardscript.runtime.observation",
    "ActionOption": "cardscript.runtime.observation",
    "DecisionView": "cardscript.runtime.observation",
    "Observation": "cardscript.runtime.observation",
    "InvalidDecision": "cardscript.runtime.errors",
    "RunawayError": "cardscript.runtime.errors",
    "Result": "cardscript.runtime.result",
}

if TYPE_CHECKING:
    from cardscript._functions import (
        CompileWarning,
        check_paths,
        compile_game,
        play_game,
        play_games,
        run_scenarios,
    )
    from cardscript.dsl.cli.human import HumanAgent
    from cardscript.dsl.cli.humanplay import play_human
    from cardscript.dsl.diagnostics import CompileError, Diagnostic, Span
    from cardscript.dsl.diagnostics import render as render_diagnostic
    from cardscript.dsl.front.pipeline import CheckReport
    from cardscript.dsl.harness.scenario import ScenarioResult, scenario_files
    from cardscript.runtime.agents import GreedyAgent, HeuristicAgent, RandomAgent
    from cardscript.runtime.decision import Agent, Decision
    from cardscript.runtime.definition import GameDefinition
    from cardscript.runtime.errors import InvalidDecision, RunawayError
    from cardscript.runtime.observation import ActionKind, ActionOption, DecisionView, Observation
    from cardscript.runtime.result import Result


def __getattr__(name: str) -> Any:
    if name == "__version__":
        # read on first use: importlib.metadata costs about a third of the command line's
        # start-up (60 ms of 170 measured with -X importtime), and most commands never ask
        from importlib.metadata import version

        value = globals()["__version__"] = version("cardscript")
        return value
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'cardscript' has no attribute {name!r}")
    module, _, attr = where.partition(":")
    value = getattr(import_module(module), attr or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


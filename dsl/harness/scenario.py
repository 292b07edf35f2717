"""Scenario tests: a script that names a game, sets a state, forces choices and
states expected results (docs/scenarios.md).

:func:`run_scenario` runs one file and returns a :class:`ScenarioResult` whose
diagnostics say, at the line of the failing step, what differed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from cardscript.dsl.diagnostics import CompileError, Diagnostic, Span, error, internal_message
from cardscript.dsl.files import walk
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import collect
from cardscript.dsl.front.loader import load_program
from cardscript.dsl.front.lower import Lowerer
from cardscript.runtime import effects as E
from cardscript.runtime.agents import BadAnswer, NeedAnswer, ScriptedAgent
from cardscript.runtime.context import Ctx
from cardscript.runtime.decision import Agent, Decision
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import GameOver, InvalidDecision, RigError, RunawayError
from cardscript.runtime.game import Game


@dataclass
class ScenarioResult:
    """Outcome of one scenario file: passed when no diagnostic is an error.

    Attributes:
        internal: the traceback of an internal error (a bug in cardscript, also reported
            as a CS900 diagnostic); "" when there was none.
    """

    name: str
    file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    expectations: int = 0
    internal: str = ""

    @property
    def passed(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


class _FirstOption(Agent):
    """Setup fallback: the first legal answer, so scenarios start from a fixed state."""

    name = "first-option"

    def choose(self, game: Game, d: Decision) -> list[int]:
        return list(range(d.low)) if d.kind != "yes/no" else [1]


def _excerpt(sources: dict[str, str], span: Span) -> str:
    lines = sources.get(span.file, "").splitlines()
    return lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""


def run_scenario(path: str | Path) -> ScenarioResult:
    """Run a ``.scenario`` file.

    Returns:
        The result. Never raises: a mistake in the scenario or the scripts is a
        diagnostic. So is an internal error, so that the other scenarios still run: a
        CS900 whose message is :func:`cardscript.dsl.diagnostics.internal_message`, with
        the traceback in ``internal`` (``cardscript test`` then exits 3).
    """
    path = Path(path)
    res = ScenarioResult(path.stem, str(path))
    try:
        return _run(path, res)
    except Exception as exc:  # noqa: BLE001 -- an internal error: report it as one, keep the run going
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        res.internal = "".join(traceback.format_exception(exc))
        res.diagnostics.append(error("CS900", internal_message(exc), None,
                                     f"raised at {Path(where.filename).name}:{where.lineno}"))
        return res


def scenario_variants(program: Any) -> list[str]:
    """The variants a scenario names with 'variant "NAME"' lines (after its own header)."""
    return [h.name for h in scenario_variant_headers(program)]


def scenario_variant_headers(program: Any) -> list[A.Header]:
    """The 'variant "NAME"' lines of a scenario (after its own header), with their spans."""
    own = next((s for s in program.scripts if s.file == program.main), None)
    if own is None:
        return []
    heads = [i for i in own.items if isinstance(i, A.Header)]
    return [h for h in heads[1:] if h.kind == "variant"]


def _run(path: Path, res: ScenarioResult) -> ScenarioResult:
    try:
        # 'variant "short"' and 'mix "GAME"' in a scenario play the game with that variant
        # and that set's cards; a path is relative to the scenario and stays inside its package
        from cardscript.dsl.front.variants import scenario_program

        program = scenario_program(path, load_program(path))
    except CompileError as exc:
        res.diagnostics = exc.diagnostics
        return res
    res.sources = program.sources
    sym, diags = collect(program.scripts, program.mixed)
    res.diagnostics.extend(diags)
    if sym.header is not None:
        own = [s for s in program.scripts if s.file == program.main]
        heads = [i for s in own for i in s.items if isinstance(i, A.Header)]
        if heads:
            res.name = heads[0].name
    low = Lowerer(sym, program.mixed)
    definition = low.definition(program.sources)
    steps: list[tuple[Any, Any]] = []
    seed = 1
    for st in sym.scenario_steps:
        if isinstance(st, A.Expect):
            who = low.players(st.players, {}) if st.players is not None else None
            steps.append((st, (who, low.cond(st.cond, {}))))
        elif isinstance(st, A.DoStep):
            steps.append((st, low.body(st.body, {})))
        elif isinstance(st, A.Seed):
            seed = st.value
        else:
            steps.append((st, None))
    res.diagnostics.extend(d for d in low.diags if d.code != "CS220")  # a mixed-in set's cards, not the scenario
    if not res.passed:
        return res
    seats = definition.players[0]
    queue: list[Any] = []
    agent = ScriptedAgent(queue, fallback=_FirstOption())
    engine = Engine(definition, seats, [agent] * seats, seed)
    g = engine.game
    try:
        engine.setup()
    except (GameOver, RunawayError, InvalidDecision, BadAnswer) as exc:
        res.diagnostics.append(error("CS301", f"the game's setup failed: {exc}", None,
                                     "the game cannot start as the scenario sets it up: check its 'players' line, "
                                     "its variants and the game's setup"))
        return res
    agent.strict = True
    turns = _Turns()
    for st, compiled in steps:
        if not _step(engine, g, st, compiled, queue, res, turns):
            break
    if g.rigged:
        sp = next((s.span for s, _ in reversed(steps) if isinstance(s, A.Rig)), None)
        res.diagnostics.append(error("CS302", f"rigged outcomes left over: {g.rigged}", sp,
                                     "remove the 'rig' line, or add the step that shuffles or picks at random"))
    if queue:
        sp = next((s.span for s, _ in reversed(steps) if isinstance(s, A.Answers)), None)
        res.diagnostics.append(error("CS302", f"{len(queue)} answer(s) left over: {queue}", sp,
                                     "remove the answers no decision used, or add the step that uses them"))
    return res


@dataclass
class _Turns:
    """Whether the next 'next turn' passes to the next seat first: not the first one, nor
    the first after 'active seat N'."""

    advance: bool = False


def _step(engine: Engine, g: Game, st: Any, compiled: Any, queue: list[Any], res: ScenarioResult,
          turns: _Turns) -> bool:
    try:
        if isinstance(st, A.Answers):
            queue.extend(st.answers)
        elif isinstance(st, A.DoStep):
            g.event_counts.clear()
            compiled.run(g, Ctx(g.active, frames=[{}]))
        elif isinstance(st, A.NextTurn):
            g.event_counts.clear()
            if g.over:
                raise GameOver(g.over)
            # The first 'next turn' (or the first after 'active seat N') plays the active
            # player's turn; later ones pass to the next seat first.
            if turns.advance:
                g.active = (g.active + 1) % g.n
            turns.advance = True
            engine.play_one_turn(g.active)
        elif isinstance(st, A.Rig):
            g.rigged.append((st.kind, list(st.values)))
        elif isinstance(st, A.ActiveSeat):
            if not 1 <= st.seat <= g.n:
                res.diagnostics.append(error("CS301", f"there is no seat {st.seat} in a {g.n}-player game", st.span,
                                             f"name a seat from 1 to {g.n}, or raise the scenario's 'players'"))
                return False
            g.active = st.seat - 1
            turns.advance = False
        elif isinstance(st, A.Finish):
            if not g.winners:
                engine.finish(g.over or "scenario finished")
        elif isinstance(st, A.Expect):
            res.expectations += 1
            who, cond = compiled
            ctx = Ctx(g.active, frames=[{}])
            for them in who.players(g, ctx) if who is not None else [None]:
                c = ctx.copy(them=them)
                if not cond.test(g, c):
                    res.diagnostics.append(error("CS301", f"expectation failed: {_excerpt(res.sources, st.span)}",
                                                 st.span, _explain(g, c, cond, them)))
                    break
        return True
    except GameOver as over:
        engine.finish(over.reason)
        return True
    except NeedAnswer as exc:
        res.diagnostics.append(error("CS303", f"the step needs an answer: {exc}", st.span,
                                     "add an 'answer' line before this step"))
    except (BadAnswer, InvalidDecision) as exc:
        res.diagnostics.append(error("CS303", f"an answer does not fit: {exc}", st.span,
                                     "answer with one of the options the decision offers (see the message)"))
    except RigError as exc:
        g.rigged.clear()
        res.diagnostics.append(error("CS303", f"a rigged outcome does not fit: {exc}", st.span,
                                     "rig cards that are where the shuffle or pick happens, and faces the dice have"))
    except RunawayError as exc:
        res.diagnostics.append(error("CS401", str(exc), st.span, " -> ".join(getattr(exc, "chain", []))))
    return False


def _explain(g: Game, ctx: Ctx, compiled: Any, them: int | None) -> str:
    who = f" (for P{them + 1})" if them is not None else ""
    if isinstance(compiled, E.Compare):
        left, right = compiled.left.evaluate(g, ctx), compiled.right.evaluate(g, ctx)
        return f"left side is {left!r}, right side is {right!r}{who}"
    if isinstance(compiled, E.WinnerIs):
        return f"winners: {', '.join(f'P{p + 1}' for p in g.winners) or 'none yet (add a finish step)'}"
    return who.strip()


def scenario_files(paths: Iterable[str | PathLike[str]] | str | PathLike[str]) -> list[Path]:
    """The ``.scenario`` files under ``paths`` (files, or folders searched recursively,
    sorted; one path alone is a list of one), as ``cardscript test`` finds them.

    Raises:
        FileNotFoundError: a path does not exist.
        ValueError: an empty path, a file that is not a scenario, or no scenario at all.
    """
    files: list[Path] = []
    for raw in [paths] if isinstance(paths, (str, PathLike)) else paths:
        p = Path(raw)
        if not str(raw):  # Path("") would be the current folder
            raise ValueError("an empty path names no scenario")
        if not p.exists():
            raise FileNotFoundError(f"no such file or folder: {raw}")
        if p.is_file() and p.suffix != ".scenario" and not p.name.endswith(".scenario.txt"):
            raise ValueError(f"{raw} is not a scenario (a .scenario file)")
        files.extend(walk(p, (".scenario",)) if p.is_dir() else [p])  # linked folders not entered
    if not files:
        raise ValueError("no .scenario files found")
    return files

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

from cardscript.dsl.diagnostics import (
    CODES,
    CompileError,
    Diagnostic,
    Span,
    did_you_mean,
    error,
    internal_message,
    runaway,
    runaway_position,
    span_at,
    unreadable_path,
    warning,
)
from cardscript.dsl.files import walk
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.ast import scenario as S
from cardscript.dsl.front.check import collect
from cardscript.dsl.front.loader import load_program
from cardscript.dsl.front.lower import Lowerer
from cardscript.dsl.harness.agent import Addressed, Checked, Misaddressed, OfferCheck, ScenarioAgent, an, shown
from cardscript.runtime import effects as E
from cardscript.runtime.agents import BadAnswer, NeedAnswer
from cardscript.runtime.context import Ctx
from cardscript.runtime.decision import Agent
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import GameOver, InvalidDecision, RigError, RunawayError
from cardscript.runtime.game import Game
from cardscript.runtime.observation import DecisionView, Observation


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
    #: the game's log (with ``trace``: each entry with an "at" field where a statement logged it)
    log: list[dict[str, Any]] = field(default_factory=list)
    #: how many entries of ``log`` the setup wrote
    setup_entries: int = 0
    #: the compiled game, once the scenario compiled (for printing its log)
    definition: Any = None

    @property
    def passed(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


class _FirstOption(Agent):
    """Setup fallback: the first legal answer, so scenarios start from a fixed state."""

    name = "first-option"

    def choose(self, view: Observation, d: DecisionView) -> list[int]:
        return list(range(d.low)) if d.kind != "yes/no" else [1]


def _excerpt(sources: dict[str, str], span: Span) -> str:
    lines = sources.get(span.file, "").splitlines()
    return lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""


def run_scenario(path: str | Path, trace: bool = False) -> ScenarioResult:
    """Run a ``.scenario`` file; with ``trace``, each entry of ``log`` records the script
    position ('file:line:col') of the statement whose effect logged it (``cardscript test -v``).

    Returns:
        The result. Never raises: a mistake in the scenario or the scripts is a
        diagnostic. So is an internal error, so that the other scenarios still run: a
        CS900 whose message is :func:`cardscript.dsl.diagnostics.internal_message`, with
        the traceback in ``internal`` (``cardscript test`` then exits 3).
    """
    path = Path(path)
    res = ScenarioResult(path.stem, str(path))
    try:
        return _run(path, res, trace)
    except Exception as exc:  # noqa: BLE001 -- an internal error: report it as one, keep the run going
        import traceback

        unreadable = unreadable_path(exc)  # a path too long to look up: the scenario's mistake
        if unreadable is not None:
            res.diagnostics.append(unreadable)
            return res

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


def _run(path: Path, res: ScenarioResult, trace: bool = False) -> ScenarioResult:
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
    setup: list[Any] = []
    seed = 1
    for st in sym.scenario_steps:
        if isinstance(st, A.Expect):
            who = low.players(st.players, {}) if st.players is not None else None
            steps.append((st, (who, low.cond(st.cond, {}))))
        elif isinstance(st, A.DoStep):
            steps.append((st, _watched(low.body(st.body, {}))))
        elif isinstance(st, A.Seed):
            seed = st.value
        elif isinstance(st, S.SetupStep):
            if steps:
                low.diags.append(error("CS305", "a setup step after a step of play", st.span,
                                       f"move it above line {steps[0][0].span.line}: setup runs before every "
                                       "other step"))
            setup.append(st.step)
        elif isinstance(st, S.ExpectError) and st.code not in CODES:
            low.diags.append(error("CS209", f"there is no diagnostic {st.code}", st.span,
                                   did_you_mean(st.code, CODES) or "name a code of docs/diagnostics.md, e.g. CS401"))
        else:
            steps.append((st, None))
    res.diagnostics.extend(d for d in low.diags if d.code != "CS220")  # a mixed-in set's cards, not the scenario
    if not res.passed:
        return res
    seats = definition.players[0]
    queue: list[Any] = []
    agent = ScenarioAgent(queue, fallback=_FirstOption())
    engine = Engine(definition, seats, [agent] * seats, seed)
    g = engine.game
    res.log, res.definition = g.log, definition
    if trace:
        g.trace()
    if not _setup(engine, setup, queue, res):
        return res
    agent.strict = True
    res.setup_entries = len(g.log)
    turns = _Turns()
    pending: S.ExpectError | None = None
    stopped = False
    for st, compiled in steps:
        if isinstance(st, S.ExpectError):
            if pending is not None:
                res.diagnostics.append(_no_step(pending, "another 'expect error' follows it"))
            pending = st
            res.expectations += 1
            continue
        if pending is not None and isinstance(st, PLAYS):
            mark = len(res.diagnostics)
            ok = _expected_error(pending, _step(engine, g, st, compiled, queue, res, turns), res, mark)
            pending = None
        else:
            ok = _step(engine, g, st, compiled, queue, res, turns)
        _checked(agent, st, res)
        if not ok:
            stopped = True
            break
    else:
        if pending is not None:
            res.diagnostics.append(_no_step(pending, "no step follows it"))
        for check in agent.pending:  # an 'expect offered' with no step that plays after it
            res.diagnostics.append(error("CS301", f"expectation failed: {check.text}: no step runs after it",
                                         check.span, "put it just before the do:, next turn or finish step "
                                         "whose decision it checks"))
        agent.pending.clear()
    if stopped:  # a step failed and stopped the scenario: what it left unused is no mistake of its own
        return res
    if g.rigged:
        sp = next((s.span for s, _ in reversed(steps) if isinstance(s, A.Rig)), None)
        res.diagnostics.append(error("CS302", f"rigged outcomes left over: {g.rigged}", sp,
                                     "remove the 'rig' line, or add the step that shuffles or picks at random"))
    if queue:
        sp = next((s.span for s, _ in reversed(steps) if isinstance(s, (A.Answers, S.AnswerChecked))), None)
        left = "[" + ", ".join(shown(a) for a in queue) + "]"  # 'yes', not Python's True
        res.diagnostics.append(error("CS302", f"{len(queue)} answer(s) left over: {left}", sp,
                                     "remove the answers no decision used, or add the step that uses them"))
    return res


def _setup(engine: Engine, setup: list[Any], queue: list[Any], res: ScenarioResult) -> bool:
    """Run the game's setup with the scenario's ``setup answer`` and ``setup rig`` lines;
    a decision they do not answer takes its first option. Returns False (with a
    diagnostic) when the setup failed or left some of them unused."""
    g = engine.game
    for st in setup:
        if isinstance(st, A.Answers):
            queue.extend(_queued(a) for a in st.answers)
        else:
            g.rigged.append((st.kind, list(st.values)))
    at = next((st.span for st in setup), None)
    try:
        engine.setup()
    except (BadAnswer, RigError) as exc:
        what = "answer" if isinstance(exc, BadAnswer) else "rigged outcome"
        res.diagnostics.append(error("CS303", f"a setup {what} does not fit: {an(str(exc))}", at,
                                     "give the setup's decisions, in the order setup asks them, one of the "
                                     "options they offer; rig cards that are there when setup shuffles or picks"))
        return False
    except (GameOver, RunawayError, InvalidDecision) as exc:
        res.diagnostics.append(error("CS301", f"the game's setup failed: {an(str(exc))}", None,
                                     "the game cannot start as the scenario sets it up: check its 'players' line, "
                                     "its variants and the game's setup"))
        return False
    if queue or g.rigged:
        left = f"{len(queue)} setup answer(s) left over: {queue}" if queue else \
            f"setup rigged outcomes left over: {g.rigged}"
        res.diagnostics.append(error("CS302", left, at, "setup asked fewer decisions (or shuffled and picked "
                                     "less) than the setup lines say: remove the ones it did not use"))
        return False
    return True


#: The steps that play (the ones an 'expect error' is about).
PLAYS = (A.DoStep, A.NextTurn, A.Finish)


def _no_step(st: S.ExpectError, why: str) -> Diagnostic:
    return error("CS301", f"expect error {st.code}: no step runs after it ({why})", st.span,
                 "put the 'expect error' line just before the do:, next turn or finish step that must fail")


def _expected_error(st: S.ExpectError, ok: bool, res: ScenarioResult, mark: int) -> bool:
    """Judge the step after ``expect error CODE``: it passes, and the scenario goes on, when
    the step stopped with CODE (its diagnostics are dropped); it fails when the step ran
    through (the scenario goes on) or stopped with another code (the scenario stops)."""
    raised = [d for d in res.diagnostics[mark:] if d.severity == "error"]
    if ok and not raised:
        res.diagnostics.append(error("CS301", f"expectation failed: expect error {st.code}: the step ran without "
                                     "an error", st.span, "the step after it must stop with this diagnostic"))
        return True
    if any(d.code == st.code for d in raised):
        del res.diagnostics[mark:]
        return True
    got = ", ".join(f"{d.code} ({d.message})" for d in raised)
    res.diagnostics.insert(mark, error("CS301", f"expectation failed: expect error {st.code}: the step failed "
                                       f"with {got}", st.span, "the step stopped, but not with this code"))
    return False


def _checked(agent: ScenarioAgent, st: Any, res: ScenarioResult) -> None:
    """Report the decision checks the step failed, and an 'expect offered' that the step
    (one that plays) left without a decision to check."""
    res.diagnostics.extend(agent.failures)
    agent.failures.clear()
    if agent.pending and isinstance(st, PLAYS):
        for check in agent.pending:
            res.diagnostics.append(error("CS301", f"expectation failed: {check.text}: the step after it asked "
                                         "no decision", check.span, "put it just before the step whose "
                                         "decision it checks (a decision with one option is not asked)"))
        agent.pending.clear()


@dataclass
class _Turns:
    """Whether the next 'next turn' passes to the next seat first: not the first one, nor
    the first after 'active seat N'."""

    advance: bool = False
    #: the step that ended the game (steps that play cannot run after it), or None
    ended: Span | None = None


def _step(engine: Engine, g: Game, st: Any, compiled: Any, queue: list[Any], res: ScenarioResult,
          turns: _Turns) -> bool:
    if g.over and isinstance(st, PLAYS):
        at = f"at line {turns.ended.line}" if turns.ended is not None else "before this step"
        res.diagnostics.append(error("CS304", f"'{_excerpt(res.sources, st.span)}' cannot run: the game ended {at} "
                                     f"({g.over}) and was scored", st.span,
                                     "remove this step (expect still tests the final state), or end the game "
                                     "later"))
        return False
    try:
        if isinstance(st, A.Answers):
            queue.extend(_queued(a) for a in st.answers)
        elif isinstance(st, A.DoStep):
            g.event_counts.clear()
            compiled.run(g, Ctx(g.active, frames=[{}]))
            _short_moves(g, compiled, res)
        elif isinstance(st, A.NextTurn):
            g.event_counts.clear()
            # The first 'next turn' (or the first after 'active seat N') plays the active
            # player's turn; later ones pass to the next seat first.
            if turns.advance:
                g.active = (g.active + 1) % g.n
            turns.advance = True
            engine.play_one_turn(g.active)
        elif isinstance(st, S.ExpectOffered):
            res.expectations += 1
            _agent(g).pending.append(OfferCheck(st.offered, st.absent, st.span, _excerpt(res.sources, st.span)))
        elif isinstance(st, S.AnswerChecked):
            res.expectations += 1
            queue.append(Checked(_queued(st.answer), OfferCheck(st.offered, st.absent, st.span,
                                                       _excerpt(res.sources, st.span))))
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
            engine.finish("scenario finished")
            turns.ended = st.span
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
        turns.ended = st.span
        return True
    except NeedAnswer as exc:
        res.diagnostics.append(error("CS303", f"the step needs an answer: {an(str(exc))}", st.span,
                                     "add an 'answer' line before this step"))
    except Misaddressed as exc:
        res.diagnostics.append(error("CS303", f"an answer is for another decision: {an(str(exc))}", st.span,
                                     "the decision the answer names was not asked next: answer the one asked "
                                     "first, or check the purpose the answer names"))
    except (BadAnswer, InvalidDecision) as exc:
        res.diagnostics.append(error("CS303", f"an answer does not fit: {an(str(exc))}", st.span,
                                     "answer with one of the options the decision offers (see the message)"))
    except RigError as exc:
        g.rigged.clear()
        res.diagnostics.append(error("CS303", f"a rigged outcome does not fit: {exc}", st.span,
                                     "rig cards that are where the shuffle or pick happens, and faces the dice have"))
    except RunawayError as exc:
        res.diagnostics.append(runaway(str(exc), exc.chain, runaway_position(exc), st.span))
    return False


class _CountedMove(E.Node):
    """A move (or a play) written at the top of a do-step that names how many cards it
    moves (``move 1 "NAME" from the box to your hand``, ``play 1 "NAME" from your hand``):
    it runs the statement, and keeps how many it moved when that was fewer, for a CS306
    warning. A game effect that finds fewer
    cards is a rule of play; a scenario's own step that does is most often a card looked
    for in the wrong zone, which would make the rest of the scenario test something else."""

    __slots__ = ("at", "move", "moved", "wanted")

    def __init__(self, move: Any, wanted: int, at: str | None):
        self.move, self.wanted, self.at = move, wanted, at
        self.moved: int | None = None

    def run(self, g: Game, ctx: Ctx) -> int:
        n: int = self.move.run(g, ctx)
        if n < self.wanted and self.moved is None:
            self.moved = n
        return n


def _watched(block: Any) -> Any:
    """``block`` (a do-step's lowered block) with each of its top-level moves and plays of a
    number of cards written as digits wrapped in a :class:`_CountedMove`."""
    stmts = getattr(block, "stmts", None)
    if not isinstance(block, E.Seq) or not stmts:
        return block
    at = block._at or ()
    for i, s in enumerate(stmts):
        cards = getattr(s, "cards", None)
        if isinstance(s, (E.Move, E.Play)) and isinstance(cards, E.Cards) and cards.kind == "pick" and \
                cards.quantity == "n" and isinstance(cards.count, E.Const) and isinstance(cards.count.value, int):
            stmts[i] = _CountedMove(s, cards.count.value, at[i] if i < len(at) else None)
    block._first = stmts[0]  # a block of one runs its first statement directly
    return block


def _short_moves(g: Game, block: Any, res: ScenarioResult) -> None:
    """A CS306 warning for each move of :func:`_watched` that moved fewer cards than it
    names, saying where cards of that name are now."""
    for s in getattr(block, "stmts", ()):
        if isinstance(s, _CountedMove) and s.moved is not None:
            name = s.move.cards.name
            hint = "name the zone the cards are in, or a smaller number"
            if name:
                names = g.card_names  # as the selector compares them (a mixed set's qualified key too)
                found = [(g.slot_name(i), sum(names[c] == name for c in cards))
                         for i, cards in enumerate(g.slots)]
                held = ", ".join(f"{where} ({n})" for where, n in found if n)
                hint = f'cards named "{name}" are now in: {held}; {hint}' if held else \
                    f'no card named "{name}" is in the game; {hint}'
            what = f'"{name}"' if name else "card(s)"
            verb = "play" if isinstance(s.move, E.Play) else "move"
            res.diagnostics.append(warning("CS306", f"this {verb} found {s.moved} of the {s.wanted} {what} it names",
                                           span_at(s.at), hint))
            s.moved = None


def _queued(answer: Any) -> Any:
    """An answer as the scenario agent takes it: ``"PURPOSE": A`` becomes :class:`Addressed`."""
    return Addressed(answer.purpose, answer.answer) if isinstance(answer, S.AnswerTo) else answer


def _agent(g: Game) -> ScenarioAgent:
    agent = g.agents[0]  # every seat has the one scenario agent
    assert isinstance(agent, ScenarioAgent)
    return agent


def _explain(g: Game, ctx: Ctx, compiled: Any, them: int | None) -> str:
    who = f" (for P{them + 1})" if them is not None else ""
    if isinstance(compiled, E.Compare):
        return f"left side is {_side(g, ctx, compiled.left)}, right side is {_side(g, ctx, compiled.right)}{who}"
    if isinstance(compiled, E.WinnerIs):
        return f"winners: {', '.join(f'P{p + 1}' for p in g.winners) or 'none yet (add a finish step)'}"
    return who.strip()


def _side(g: Game, ctx: Ctx, expr: Any) -> str:
    """One side of a failed comparison as the message shows it: its value, and when it is
    an attribute of a card that is not there ('name of the top card of their deck' on an
    empty deck), that no card was found, so that a 0 does not read as the card's value."""
    value = expr.evaluate(g, ctx)
    if isinstance(expr, E.AttrOf) and not expr._it and not expr.card.cards(g, ctx):
        return f"{value!r} (no card: the {expr.attr} of nothing)"
    return repr(value)


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

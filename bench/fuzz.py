"""Mutation fuzzing: scripts from strangers must never crash cardscript or hang it.

Each mutant is one script of a built-in game (``cardscripts/``) with one to three
mutations: tokens deleted, duplicated, swapped or replaced (numbers by huge, negative or
text values; names by other names; strings by hostile ones), lines deleted, duplicated,
swapped or re-indented, statements nested deep. Mutant ``i`` of seed ``s`` is always the
same. Each goes through the stages a user's script goes through:

1. ``check`` (:func:`cardscript.dsl.front.pipeline.check_paths` on the game, or the variant);
2. ``fmt`` (:func:`cardscript.dsl.tools.fmt.format_text`, and formatting its output again
   must change nothing);
3. ``compile`` (:func:`cardscript.dsl.front.pipeline.compile_game`, then the JSON IR
   validated against its schema);
4. ``play``: a mutant that compiles plays one short game (random bots, ``--turns`` turns).

Diagnostics are the right answer to a broken script, and so is a game stopped by a
runaway chain. Anything else is an *internal error*; a mutant still running after
``--timeout`` seconds (or using more than ``--memory`` MiB) is a *hang*. Each distinct
failure (stage, exception, innermost cardscript function) is written once to ``--out``:
the mutated game (``cardscripts/...``) and ``repro.txt`` (the command that shows it, the
mutations, the traceback).

Usage::

    python bench/fuzz.py --mutants 20000 --seed 1 --jobs 2
    python bench/fuzz.py --mutants 300 --seed 7 --jobs 2 --out /tmp/fuzz --timeout 10

Exit code 1 when an internal error or a hang was found. Mutants run in worker
processes (``--worker``, one per job), so that a hang, a crash of the interpreter or a
runaway allocation stops one worker, which is replaced, and never the run.
tests/test_hostile_fuzz.py runs a few hundred mutants of this in the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "cardscripts"
SCENARIOS = ROOT / "tests" / "scenarios"
SUFFIXES = (".rules", ".cards", ".variant")

# ---------------------------------------------------------------- mutations
TOKEN = re.compile(r'"[^"\n]*"|\d+|[A-Za-z_][\w\'-]*|\n|[ \t]+|\S')
HUGE = ["0", "-1", "-2147483649", "999999999", "1" + "0" * 30, "18446744073709551617", "9" * 5000, "x", '"x"',
        "1000", "-0", "65536"]
HOSTILE = ['""', '"\x1b[2J\x1b]0;t\x07"', '"\x00"', '"' + "A" * 5000 + '"', '"{N}"', '"%s%n"', '"\u202eevil"',
           '"[bold]x[/y]"', '"<svg onload=x>"', '"  "', '"\\"']
#: characters a lexer may trip on: CR, NUL, form feed, BOM, line separator, tab, an escape
RAW = ["\r", "\x00", "\x0c", "\ufeff", "\u2028", "\t", "\x1b", "\x85"]
WORDS = ["if", "repeat", "for", "each", "when", "card", "game", "effect", "otherwise", "nothing", "all", "not",
         "and", "or", "players", "turn", "setup", "the", "of", "from", "to", "zone", "counter", "emit", "choose"]


@dataclass
class Mutant:
    """One mutated script: ``file`` relative to cardscripts/, its new text, what was done."""

    index: int
    file: str
    text: str
    ops: list[str] = field(default_factory=list)


def sources() -> dict[str, str]:
    """Every script of the built-in games, by path relative to cardscripts/, and the
    rulings' scenarios (tests/scenarios/), as ``scenarios/...``; sorted."""
    out = {p.relative_to(SCRIPTS).as_posix(): p.read_text(encoding="utf-8")
           for p in sorted(SCRIPTS.rglob("*")) if p.suffix in SUFFIXES}
    out.update({"scenarios/" + p.relative_to(SCENARIOS).as_posix(): p.read_text(encoding="utf-8")
                for p in sorted(SCENARIOS.rglob("*.scenario"))})
    return out


def lay_out(root: Path) -> None:
    """Copy the built-in games to ``root`` (a folder named cardscripts), the scenarios to
    ``root/scenarios``: the mutants are written there, one at a time."""
    shutil.copytree(SCRIPTS, root, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    shutil.copytree(SCENARIOS, root / "scenarios")


def _vocabulary(texts: dict[str, str]) -> list[str]:
    words = {t for text in texts.values() for t in TOKEN.findall(text) if t[:1].isalpha() or t[:1] == '"'}
    return sorted(words)


def _tok_op(rng: random.Random, toks: list[str], vocab: list[str]) -> str:
    spots = [i for i, t in enumerate(toks) if not t.isspace()]
    if not spots:
        return "nothing to mutate"
    i = rng.choice(spots)
    old = toks[i]
    kind = rng.choice(["delete", "duplicate", "swap", "replace", "replace", "garble"])
    if kind == "garble":
        toks[i] = old + rng.choice(RAW)
    elif kind == "delete":
        toks[i] = ""
    elif kind == "duplicate":
        toks[i] = old + " " + old
    elif kind == "swap":
        later = [j for j in spots if j > i][:1]
        if later:
            toks[i], toks[later[0]] = toks[later[0]], old
    elif old.isdigit():
        toks[i] = rng.choice(HUGE)
    elif old.startswith('"'):
        toks[i] = rng.choice([*HOSTILE, rng.choice(vocab)])
    else:
        toks[i] = rng.choice(vocab + WORDS + HUGE[:4])
    return f"{kind} token {i} {old[:30]!r} -> {toks[i][:30]!r}"


def _line_op(rng: random.Random, lines: list[str], texts: dict[str, str]) -> str:
    if not lines:
        return "nothing to mutate"
    i = rng.randrange(len(lines))
    kind = rng.choice(["delete", "duplicate", "swap", "indent", "dedent", "move", "splice"])
    if kind == "splice":  # a line of another script (another game's concepts) put here
        other = texts[rng.choice(sorted(texts))].split("\n")
        line = rng.choice(other)
        lines.insert(i, line)
        return f"splice line {i + 1}: {line.strip()[:40]!r}"
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == "indent":
        lines[i] = rng.choice(["  ", "    ", "\t", " "]) + lines[i]
    elif kind == "dedent":
        lines[i] = lines[i].lstrip()
    elif kind == "move":
        lines.insert(rng.randrange(len(lines) + 1), lines.pop(i))
    return f"{kind} line {i + 1}"


def _nest_op(rng: random.Random, lines: list[str]) -> str:
    """Deep nesting: a statement wrapped in many blocks, or a number in many parentheses."""
    body = [i for i, ln in enumerate(lines) if ln.startswith("  ") and ln.strip() and not ln.strip().startswith("#")]
    if not body:
        return "nothing to nest"
    i = rng.choice(body)
    depth = rng.choice([30, 200, 1000, 3000])
    lead = len(lines[i]) - len(lines[i].lstrip())
    kind = rng.choice(["if", "repeat", "parens", "not"])
    if kind == "parens":
        lines[i] = re.sub(r"\d+", "(" * depth + "1" + ")" * depth, lines[i], count=1)
    elif kind == "not":
        lines[i] = lines[i].replace("if ", "if " + "not " * depth, 1)
    else:
        head = "if 1 == 1:" if kind == "if" else "repeat 2:"
        block = [" " * (lead + 2 * k) + head for k in range(depth)]
        lines[i:i + 1] = [*block, " " * (lead + 2 * depth) + lines[i].strip()]
    return f"nest line {i + 1} in {depth} x {kind}"


def make_mutant(texts: dict[str, str], vocab: list[str], seed: int, index: int, most: int = 3) -> Mutant:
    """Mutant ``index`` of ``seed``, with up to ``most`` mutations: always the same for the
    same scripts."""
    rng = random.Random(f"{seed}:{index}")
    scenarios = sorted(f for f in texts if f.endswith(".scenario"))
    scripts = sorted(f for f in texts if not f.endswith(".scenario"))
    file = rng.choice(scripts if rng.random() < 0.75 or not scenarios else scenarios)
    text = texts[file]
    ops = []
    for _ in range(rng.choice([1, 1, 2, 3]) if most == 3 else rng.randint(1, most)):
        what = rng.random()
        if what < 0.55:
            toks = TOKEN.findall(text)
            ops.append(_tok_op(rng, toks, vocab))
            text = "".join(toks)
        elif what < 0.9:
            lines = text.split("\n")
            ops.append(_line_op(rng, lines, texts))
            text = "\n".join(lines)
        else:
            lines = text.split("\n")
            ops.append(_nest_op(rng, lines))
            text = "\n".join(lines)
    return Mutant(index, file, text, ops)


# ---------------------------------------------------------------- running one mutant
class Hang(BaseException):
    """Raised by the alarm: not an Exception, so no ``except Exception`` swallows it."""


@dataclass
class Outcome:
    """What one mutant did. status: rejected (diagnostics), passed (check and compile,
    no game), played, internal (an internal error), hang."""

    index: int
    file: str
    ops: list[str]
    status: str
    stage: str = ""
    error: str = ""
    signature: str = ""
    trace: str = ""


def _signature(stage: str, exc: BaseException) -> str:
    """Stage, exception type and the innermost frame in cardscript's own code."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/bench/" not in f.filename]
    where = next((f"{Path(f.filename).parent.name}/{Path(f.filename).name}:{f.name}" for f in reversed(frames)), "?")
    return f"{stage}: {exc.__class__.__name__} in {where}"


def _game_of(file: str, root: Path) -> tuple[Path, list[Path]]:
    """The game folder a script belongs to, and the variant to add (for a .variant)."""
    parts = Path(file).parts
    game = root / ("injustice" if parts[0] == "dc-core" else parts[0])
    return game, ([root / file] if file.endswith(".variant") else [])


def _checked(game: Path, extra: list[Path]) -> Path:
    """What ``cardscript check`` is given: the variant, or the game's main script (its
    folder would check every variant too, each with the whole game)."""
    if extra:
        return extra[0]
    mains = [p for p in sorted(game.iterdir()) if p.suffix in SUFFIXES
             and re.search(r'^game "', p.read_text(encoding="utf-8", errors="replace"), re.M)]
    return mains[0] if mains else game


def _stage_check(root: Path, m: Mutant) -> bool:
    """Check the mutant's game (or scenario); True when it has no error (then it is
    compiled, or the scenario run)."""
    from cardscript.dsl.front.pipeline import check_paths

    scenario = m.file.endswith(".scenario")
    rep = check_paths([str(root / m.file if scenario else _checked(*_game_of(m.file, root)))])
    bad = [d for d in rep.diagnostics if d.code == "CS900"]
    if bad:
        raise AssertionError(f"CS900 for a script: {bad[0].message}")
    return rep.errors == 0


def _stage_fmt(m: Mutant) -> None:
    from cardscript.dsl.diagnostics import CompileError
    from cardscript.dsl.tools.fmt import format_text

    try:
        once = format_text(m.text, m.file)
    except CompileError:
        return
    if format_text(once, m.file) != once:
        raise AssertionError("fmt is not stable: formatting its own output changes it")


def _stage_compile(root: Path, m: Mutant, validate: bool) -> Any:
    """Compile the mutant's game (None for diagnostics); its IR is built, and validated
    against the schema when ``validate`` (slow: a fraction of the mutants)."""
    from cardscript.dsl.diagnostics import CompileError
    from cardscript.dsl.front.pipeline import compile_game, to_ir, validate_ir

    game, extra = _game_of(m.file, root)
    try:
        d, _, _ = compile_game(str(game), extra)
    except CompileError:
        return None
    ir = to_ir(d)
    problems = validate_ir(ir) if validate else []
    if problems:
        raise AssertionError(f"the IR misses its schema: {problems[0]}")
    return d


class _Reported(Exception):
    """An internal error that a scenario run reported (CS900) instead of raising."""

    def __init__(self, message: str, trace: str):
        super().__init__(message)
        self.trace = trace


def _stage_scenario(root: Path, m: Mutant) -> None:
    from cardscript.dsl.harness.scenario import run_scenario

    res = run_scenario(root / m.file)
    if res.internal:
        raise _Reported(next(d.message for d in res.diagnostics if d.code == "CS900"), res.internal)


def _stage_play(d: Any, seed: int, turns: int) -> None:
    from cardscript.runtime import errors
    from cardscript.runtime.agents import make_agents
    from cardscript.runtime.engine import Engine
    from cardscript.runtime.errors import GameOver

    stops = tuple(c for c in vars(errors).values()
                  if isinstance(c, type) and issubclass(c, errors.RunawayError))  # CS401 and its kin: user errors
    seats = d.players[0]
    engine = Engine(d, seats, make_agents(["random", "greedy"], seats), seed, log=False)
    try:
        try:
            engine.setup()
        except GameOver as over:
            engine.finish(over.reason)
            return
        engine.finish(engine.play_turns(turns))
    except stops:
        return


def _forget(text: str) -> None:
    """Drop the mutant's AST from the per-process cache, so that memory stays flat."""
    from cardscript.dsl.front import cache

    memo = getattr(cache, "_AST_CACHE", None)
    if isinstance(memo, dict):
        for key in [k for k in memo if isinstance(k, tuple) and len(k) == 2 and k[1] == text]:
            del memo[key]


#: the stages of a run; "ir" validates the IR of every 20th mutant (jsonschema is slow)
STAGES = ("check", "fmt", "compile", "ir", "play")


def run_mutant(m: Mutant, root: Path, turns: int, timeout: float, stages: tuple[str, ...] = STAGES) -> Outcome:
    """Run a mutant through the stages in the scripts copied to ``root``: check; fmt; when
    check found no error, compile and play. The original script is put back afterwards.
    A mutant over ``timeout`` seconds is a hang."""
    target = root / m.file
    original = target.read_text(encoding="utf-8")
    target.write_text(m.text, encoding="utf-8")
    out = Outcome(m.index, m.file, m.ops, "rejected")
    stage = "check"

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {timeout:g} s of CPU time")

    # CPU time, not wall time: a busy machine slows a mutant down but does not make it hang
    previous = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, timeout)
    try:
        clean = _stage_check(root, m)
        if "fmt" in stages:
            stage = "fmt"
            _stage_fmt(m)
        if m.file.endswith(".scenario"):
            if clean and "play" in stages:
                out.status, stage = "passed", "scenario"
                _stage_scenario(root, m)
                out.status = "played"
            return out
        stage = "compile"
        d = _stage_compile(root, m, "ir" in stages and m.index % 20 == 0) if clean else None
        if d is not None:
            out.status = "passed"
            if "play" in stages:
                stage = "play"
                _stage_play(d, m.index, turns)
                out.status = "played"
    except Hang as exc:
        signal.setitimer(signal.ITIMER_PROF, 0)
        out.status, out.stage, out.error = "hang", stage, str(exc)
        out.signature = _signature(stage, exc).replace(": Hang in", ": hang in")
        out.trace = "".join(traceback.format_exception(exc))
    except Exception as exc:  # noqa: BLE001 -- what the fuzzer looks for: any exception but a diagnostic
        signal.setitimer(signal.ITIMER_PROF, 0)
        out.status, out.stage, out.error = "internal", stage, f"{exc.__class__.__name__}: {exc}"[:500]
        out.signature = _signature(stage, exc)
        out.trace = "".join(traceback.format_exception(exc))
        if isinstance(exc, _Reported):
            out.error, out.trace = str(exc)[:500], exc.trace
            last = re.findall(r'File "([^"]+)", line \d+, in (\S+)', exc.trace)[-1:]
            out.signature = f"{stage}: {exc.trace.strip().splitlines()[-1].split(':')[0]} in " + (
                f"{Path(last[0][0]).parent.name}/{Path(last[0][0]).name}:{last[0][1]}" if last else "?")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        target.write_text(original, encoding="utf-8")
        _forget(m.text)
    return out


# ---------------------------------------------------------------- workers
def _limit_memory(mib: int) -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (mib * 2**20, mib * 2**20))
    except (ImportError, ValueError, OSError):  # not on this platform: the timeout still guards
        pass


def worker(seed: int, start: int, stop: int, turns: int, timeout: float, memory: int,
           stages: tuple[str, ...] = STAGES, most: int = 3) -> None:
    """Run mutants start..stop-1, printing one JSON line as each begins and ends."""
    os.environ["CARDSCRIPT_CACHE"] = "off"  # thousands of mutants must not fill the user's cache
    _limit_memory(memory)
    texts = sources()
    vocab = _vocabulary(texts)
    with tempfile.TemporaryDirectory(prefix="cardscript-fuzz-") as tmp:
        root = Path(tmp) / "cardscripts"
        lay_out(root)
        for i in range(start, stop):
            print(json.dumps({"begin": i}), flush=True)
            m = make_mutant(texts, vocab, seed, i, most)
            try:
                out = run_mutant(m, root, turns, timeout, stages)
            except MemoryError as exc:
                out = Outcome(m.index, m.file, m.ops, "hang", "?", f"MemoryError: {exc}", "memory: MemoryError")
            except Hang as exc:  # the alarm rang while the outcome was being written down
                out = Outcome(m.index, m.file, m.ops, "hang", "?", str(exc), "hang: at the end of a stage")
            print(json.dumps({"outcome": asdict(out)}), flush=True)


@dataclass
class Summary:
    """Counts of a run, and the distinct failures (signature -> first outcome)."""

    mutants: int = 0
    rejected: int = 0
    passed_check: int = 0
    played: int = 0
    internal: int = 0
    hangs: int = 0
    seconds: float = 0.0
    failures: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_signature: Counter[str] = field(default_factory=Counter)

    def add(self, out: dict[str, Any]) -> None:
        self.mutants += 1
        status = out["status"]
        self.rejected += status == "rejected"
        self.passed_check += status in ("passed", "played")
        self.played += status == "played"
        self.internal += status == "internal"
        self.hangs += status == "hang"
        if status in ("internal", "hang"):
            self.by_signature[out["signature"]] += 1
            self.failures.setdefault(out["signature"], out)


def _spawn(seed: int, start: int, stop: int, args: argparse.Namespace, errors: Any) -> subprocess.Popen[str]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--seed", str(seed), "--start", str(start),
           "--stop", str(stop), "--turns", str(args.turns), "--timeout", str(args.timeout), "--memory",
           str(args.memory), "--stages", args.stages, "--ops", str(getattr(args, "ops", 3))]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errors, text=True)


def _reader(proc: subprocess.Popen[str], slot: int, q: queue.Queue[tuple[int, Any]]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        try:
            q.put((slot, json.loads(line)))
        except json.JSONDecodeError:
            continue
    q.put((slot, None))


def fuzz(mutants: int, seed: int, jobs: int, args: argparse.Namespace, progress: bool = False) -> Summary:
    """Run mutants 0..mutants-1 of ``seed`` in ``jobs`` worker processes."""
    t0 = time.perf_counter()
    summary = Summary()
    chunk = max(1, min(250, -(-mutants // max(1, jobs))))
    todo = [(a, min(a + chunk, mutants)) for a in range(0, mutants, chunk)]
    q: queue.Queue[tuple[int, Any]] = queue.Queue()
    slots: dict[int, dict[str, Any]] = {}
    next_slot = 0
    hard = args.timeout * 5 + 30  # past this a worker is stuck where no alarm reaches (or swapping)

    def start(a: int, b: int) -> None:
        nonlocal next_slot
        if a >= b:
            return
        errors = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115 -- closed when the worker ends
        proc = _spawn(seed, a, b, args, errors)
        slots[next_slot] = {"proc": proc, "range": (a, b), "current": None, "since": time.monotonic(),
                            "errors": errors}
        threading.Thread(target=_reader, args=(proc, next_slot, q), daemon=True).start()
        next_slot += 1

    while todo or slots:
        while todo and len(slots) < jobs:
            start(*todo.pop(0))
        try:
            slot, msg = q.get(timeout=1.0)
        except queue.Empty:
            slot, msg = -1, None
        now = time.monotonic()
        if slot >= 0 and slot in slots:
            w = slots[slot]
            if msg is None:  # the worker ended
                w["proc"].wait()
                cur = w["current"]
                w["errors"].seek(0)
                said = w["errors"].read()[-3000:]
                w["errors"].close()
                if cur is not None:  # it died inside a mutant: count it, go on after it
                    summary.add({"index": cur, "file": "?", "ops": [], "status": "hang", "stage": "?",
                                 "error": f"worker died (exit {w['proc'].returncode})",
                                 "signature": f"worker died (exit {w['proc'].returncode})", "trace": said})
                    start(cur + 1, w["range"][1])
                del slots[slot]
                continue
            if "begin" in msg:
                w["current"], w["since"] = msg["begin"], now
            elif "outcome" in msg:
                w["current"] = None
                summary.add(msg["outcome"])
                if progress and summary.mutants % 500 == 0:
                    print(f"  {summary.mutants}/{mutants} mutants, {summary.internal} internal errors, "
                          f"{summary.hangs} hangs", file=sys.stderr, flush=True)
        for w in list(slots.values()):
            if w["current"] is not None and now - w["since"] > hard:
                w["proc"].kill()  # its reader then ends the slot; the rest of its range goes on
                cur, w["current"] = w["current"], None
                summary.add({"index": cur, "file": "?", "ops": [], "status": "hang", "stage": "?",
                             "error": f"no answer after {hard:g} s", "signature": "hang: worker stuck", "trace": ""})
                start(cur + 1, w["range"][1])
    summary.seconds = time.perf_counter() - t0
    return summary


# ---------------------------------------------------------------- reproducers
def write_reproducers(summary: Summary, seed: int, out: Path, most: int = 3) -> list[Path]:
    """One folder per distinct failure: the mutated scripts and repro.txt."""
    texts = sources()
    vocab = _vocabulary(texts)
    written = []
    for n, (sig, o) in enumerate(sorted(summary.failures.items()), 1):
        m = make_mutant(texts, vocab, seed, o["index"], most)
        folder = out / f"{n:03d}-{re.sub(r'[^A-Za-z0-9]+', '-', sig).strip('-')[:60]}"
        if folder.exists():
            shutil.rmtree(folder)
        lay_out(folder / "cardscripts")
        (folder / "cardscripts" / m.file).write_text(m.text, encoding="utf-8")
        game, extra = _game_of(m.file, folder / "cardscripts")
        what = extra[0] if extra else game
        (folder / "repro.txt").write_text(
            f"{sig}\n\nmutant {m.index} of seed {seed} ({summary.by_signature[sig]} mutant(s) like it): "
            f"{m.file}\n  " + "\n  ".join(m.ops) + "\n\nreproduce (stage {stage}):\n"
            f"  cardscript check {what}\n  cardscript fmt --check {folder / 'cardscripts' / m.file}\n"
            f"  cardscript play {game}{' --variant ' + str(extra[0]) if extra else ''} --seed {m.index}\n\n"
            f"{o['error']}\n\n{o['trace']}".replace("{stage}", o["stage"]), encoding="utf-8")
        written.append(folder)
    return written


def _only(indexes: list[int], args: argparse.Namespace) -> int:
    """Run the given mutants in this process and show what each did."""
    os.environ["CARDSCRIPT_CACHE"] = "off"
    texts = sources()
    vocab = _vocabulary(texts)
    bad = 0
    with tempfile.TemporaryDirectory(prefix="cardscript-fuzz-") as tmp:
        root = Path(tmp) / "cardscripts"
        lay_out(root)
        for i in indexes:
            m = make_mutant(texts, vocab, args.seed, i, args.ops)
            t0 = time.perf_counter()
            out = run_mutant(m, root, args.turns, args.timeout, tuple(args.stages.split(",")))
            print(f"mutant {i} ({m.file}: {'; '.join(m.ops)}): {out.status} {out.stage} "
                  f"in {time.perf_counter() - t0:.2f} s {out.signature}")
            if out.trace:
                print(out.trace)
            bad += out.status in ("internal", "hang")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mutants", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    p.add_argument("--turns", type=int, default=12, help="turns of the game a mutant that compiles plays")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds of CPU time a mutant may take")
    p.add_argument("--memory", type=int, default=2048, help="MiB a worker may use")
    p.add_argument("--out", default="fuzz-out", help="folder for the reproducers")
    p.add_argument("--ops", type=int, default=3, help="mutations per mutant, at most")
    p.add_argument("--stages", default=",".join(STAGES), help="comma-separated, from: " + ", ".join(STAGES))
    p.add_argument("--only", default="", metavar="I,J,...",
                   help="run just these mutants, here, one after another, with their time and traceback")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--stop", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker(args.seed, args.start, args.stop, args.turns, args.timeout, args.memory, tuple(args.stages.split(",")),
               args.ops)
        return 0
    if args.only:
        return _only([int(i) for i in args.only.split(",")], args)
    s = fuzz(args.mutants, args.seed, args.jobs, args, progress=True)
    print(f"mutants {s.mutants}, rejected with diagnostics {s.rejected}, passed check {s.passed_check}, "
          f"played {s.played}, internal errors {s.internal}, hangs {s.hangs}, "
          f"{s.seconds:.1f} s ({s.mutants / max(s.seconds, 1e-9):.1f} mutants/s, {args.jobs} jobs)")
    for sig, count in s.by_signature.most_common():
        print(f"  {count:5d}  {sig}")
    if s.failures:
        folders = write_reproducers(s, args.seed, Path(args.out), args.ops)
        print(f"{len(folders)} reproducer(s) in {args.out}/")
    return 1 if s.internal or s.hangs else 0


if __name__ == "__main__":
    sys.exit(main())

"""The front end's public entry points: compile a game, check paths, build the IR.

Pipeline (one stage per module or package): :mod:`cardscript.dsl.front.loader` (sources) ->
:mod:`cardscript.dsl.front.parse` -> :mod:`cardscript.dsl.front.build` (AST) -> :mod:`cardscript.dsl.front.check`
(declarations, call matching) -> :mod:`cardscript.dsl.front.lower` (runtime objects) ->
:class:`cardscript.runtime.definition.GameDefinition` and the JSON IR (:func:`to_ir`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardscript.dsl.diagnostics import CompileError, Diagnostic, Span, error, unreadable_path, warning
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.loader import (
    SCRIPT_SUFFIXES,
    Program,
    _header_kind,
    load_program,
    one_pass,
    read_script,
    resolve_game,
    second_games,
)
from cardscript.dsl.front.recover import past_broken

if TYPE_CHECKING:
    from cardscript.dsl.front.ir import IR_FORMAT as IR_FORMAT
    from cardscript.dsl.front.ir import ir_schema as ir_schema
    from cardscript.dsl.front.ir import to_ir as to_ir
    from cardscript.dsl.front.ir import validate_ir as validate_ir
    from cardscript.runtime.definition import GameDefinition

# The IR lives in its own module; its names stay importable from here, loaded on first use
# (PEP 562): the IR and the lowering import the runtime, which a warm `cardscript check`
# (results from the check cache) never needs.
_IR_NAMES = ("IR_FORMAT", "generate_schema", "ir_schema", "to_ir", "validate_ir")


def __getattr__(name: str) -> Any:
    if name in _IR_NAMES:
        from cardscript.dsl.front import ir

        return getattr(ir, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def compile_program(program: Program, with_symbols: bool = False) -> Any:
    """:func:`cardscript.dsl.front.lower.compile_program`, imported on first use."""
    from cardscript.dsl.front.lower import compile_program as lower

    return lower(program, with_symbols)


def compile_game(game: str, extra: list[Path] | None = None,
                 mixed: list[Path] | None = None) -> tuple[GameDefinition, list[Diagnostic], Program]:
    """Compile a built-in game name or a folder/file of scripts.

    Args:
        game: a built-in game name, or a path.
        extra: more scripts to add (expansions, then variants).
        mixed: card files of other sets to mix in (see :func:`cardscript.dsl.front.variants.mix_scripts`):
            their cards that need rules the game lacks are left out with a warning.

    Returns:
        (definition, warnings, program).

    Raises:
        CompileError: when any diagnostic is an error (CS001 for a path too long to look up).
    """
    try:
        program = load_program(resolve_game(game), extra, mixed)
    except OSError as exc:  # a path too long to look up: CS001, as any path not found
        unreadable = unreadable_path(exc)
        if unreadable is None:
            raise
        raise CompileError([unreadable]) from None
    if program.mixed:  # mixed-in cards take what they need from their own set's rules
        from cardscript.dsl.front.mixing import compile_mixed

        definition, diags = compile_mixed(program)
    else:
        definition, diags = compile_program(program)
    if definition is None:
        raise CompileError(diags)
    return definition, diags, program


@dataclass
class CheckReport:
    """What ``cardscript check`` found: diagnostics and the files they cover."""

    files: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)


def _entries(folder: Path) -> tuple[list[Path], list[Path]]:
    """A folder's script files and its sub-folders to walk, each sorted by name. Linked
    folders are not walked (a link loop would never end), nor hidden ones (``.x``, ``_x``);
    a FIFO or device named like a script is listed, and reading it refuses it."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return [], []
    files = [p for p in entries if p.suffix in SCRIPT_SUFFIXES and p.exists() and not p.is_dir()]
    subs = [p for p in entries if p.is_dir() and not p.is_symlink() and not p.name.startswith((".", "_"))]
    return files, subs


def _units(path: Path) -> list[tuple[str, Path]]:
    """Split a path into things to check: ('game', main script), ('expansion', folder with a
    manifest), ('scenario', file), ('parse', file: compiled when it uses a game, else parsed)."""
    from cardscript.dsl.tools.manifest import MANIFEST

    if path.is_file():
        if path.name == MANIFEST:
            return [("expansion", path.parent)]
        kind = _header_kind(path)
        if path.suffix == ".scenario" or kind == "scenario":
            return [("scenario", path)]
        if kind == "game":
            return [("game", path)]
        if kind == "expansion" and (path.parent / MANIFEST).is_file():
            # one script of an expansion package (as pre-commit passes them): checked as the
            # whole package, or an effect its cards use would look unused
            return [("expansion", path.parent)]
        if kind in ("expansion", "variant"):  # checked with the game it uses
            return [("parse", path)]
        mains = [f for f in _entries(path.parent)[0] if _header_kind(f) == "game"]
        if mains:
            return [("game", mains[0])]
        return [("expansion", path.parent)] if (path.parent / MANIFEST).is_file() else [("parse", path)]
    out: list[tuple[str, Path]] = []
    files, subs = _entries(path)
    mains = [f for f in files if _header_kind(f) == "game" and f.suffix != ".scenario"]
    if mains:
        out.append(("game", mains[0]))
        out.extend(("parse", f) for f in files if _header_kind(f) in ("expansion", "variant"))
    elif (path / MANIFEST).is_file():
        out.append(("expansion", path))
    elif any(f.suffix != ".scenario" for f in files):
        out.extend(("parse", f) for f in files if f.suffix != ".scenario")
    out.extend(("scenario", f) for f in files if f.suffix == ".scenario")
    for sub in subs:
        out.extend(_units(sub))
    return out


def check_program(program: Program) -> list[Diagnostic]:
    """Compile a loaded program and, when it has no error, run the static checks
    (:mod:`cardscript.dsl.tools.lint`) on it. Returns every diagnostic, errors and warnings.

    The result comes from the check cache when it holds it for these exact scripts and this
    compiler (:mod:`cardscript.dsl.front.check_cache`, docs/cache.md): it is the same list."""
    from cardscript.dsl.front.check_cache import diagnostics_cached

    return diagnostics_cached("program", program, lambda: _check_program(program))


def _check_program(program: Program) -> list[Diagnostic]:
    from cardscript.dsl.tools.lint import lint

    definition, diags, sym = compile_program(program, with_symbols=True)
    if definition is None:
        return diags
    return diags + lint(program, sym, definition)


def _check_scenario(program: Program) -> list[Diagnostic]:
    from cardscript.dsl.front.check_cache import diagnostics_cached

    return diagnostics_cached("scenario", program, lambda: _check_scenario_uncached(program))


def _check_scenario_uncached(program: Program) -> list[Diagnostic]:
    from cardscript.dsl.front.check import collect
    from cardscript.dsl.front.lower import Lowerer

    sym, diags = collect(program.scripts, program.mixed)
    low = Lowerer(sym, program.mixed)
    low.definition(program.sources)
    for st in sym.scenario_steps:
        if hasattr(st, "cond"):
            low.cond(st.cond, {})
        elif hasattr(st, "body"):
            low.body(st.body, {})
    return [d for d in diags + low.diags if d.code != "CS220"]  # a mixed set's, not the scenario's


def _check_expansion(folder: Path, rep: CheckReport) -> list[Diagnostic]:
    """An expansion folder: its manifest, then its game compiled with its scripts."""
    from cardscript.dsl.tools.manifest import MANIFEST, expansion_scripts, read_manifest_text

    toml = folder / MANIFEST
    manifest, diags, text = read_manifest_text(toml)
    rep.sources[str(_shown(toml))] = text
    rep.files.append(str(_shown(toml)))
    scripts = expansion_scripts(folder)
    if manifest is None:  # check each script on its own
        for f in scripts:
            diags += _check_file(f, rep)
        return diags
    program = load_program(resolve_game(manifest.game), scripts, recover=True)
    rep.sources.update(program.sources)
    rep.files.extend(program.sources)
    return diags + past_broken(program, check_program(program))


def _check_file(f: Path, rep: CheckReport) -> list[Diagnostic]:
    """A script outside any game folder: compiled when what it uses holds a game, else parsed."""
    from cardscript.dsl.front.cache import build_cached

    try:
        program = load_program(f)
    except CompileError as exc:
        rep.files.append(str(f))
        return exc.diagnostics
    rep.sources.update(program.sources)
    rep.files.extend(program.sources)
    if any(i.kind == "game" for s in program.scripts for i in s.items if isinstance(i, A.Header)):
        return check_program(program)
    if any(i.kind == "variant" for s in program.scripts for i in s.items if isinstance(i, A.Header)):
        # a variant that does not name its game: check it against the game of its folder
        game = f.resolve().parent.parent if f.resolve().parent.name == "variants" else None
        if game is not None and any(_header_kind(p) == "game" for p in _entries(game)[0]):
            return check_program(load_program(resolve_game(str(game)), [f]))
    # through the AST cache: a library (dc-core) is parsed once, not again for each check
    build_cached(rep.sources[next(iter(program.sources))], next(iter(program.sources)))
    items = [i for s in program.scripts for i in s.items]
    card = next((i for i in items if isinstance(i, A.CardDef)), None)
    if card is not None and not any(isinstance(i, A.Header) for i in items):
        # cards with no game to play them in: what they call, their types and zones are unknown
        return [warning("CS509", f"{f.name} names no game: its cards were parsed, their effects, types and "
                                 "zones not checked", card.span)]
    return []


def _shown(path: Path) -> str:
    from cardscript.dsl.tools.manifest import display

    return display(path)


def check_paths(paths: list[str]) -> CheckReport:
    """Parse and check every script under the paths (games, expansions, libraries, scenarios).

    A folder holding a game is checked as one game; a folder holding a ``cardscript.toml``
    as an expansion of the game its manifest names; a script that uses a game is compiled
    with it; a library folder is parsed; scenarios are checked against the game they use.
    Games and expansions that compile get the static checks of :mod:`cardscript.dsl.tools.lint` (warnings).
    The files are taken to stand still while they are checked (:func:`~cardscript.dsl.front.loader.one_pass`).
    """
    with one_pass():
        return _check_paths(paths)


def _check_paths(paths: list[str]) -> CheckReport:
    rep = CheckReport()
    done: set[tuple[str, Path]] = set()  # a package named through several of its files is checked once
    for raw in paths:
        p = Path(raw)
        problem = _not_checkable(raw, p)
        if problem is not None:
            rep.diagnostics.append(problem)
            continue
        units = _units(p)
        if not units:
            rep.diagnostics.append(error("CS001", f"no scripts in {raw}", None,
                                         "scripts end in .rules, .cards, .variant or .scenario"))
        for kind, f in units:
            if (kind, f.resolve()) in done:
                continue
            done.add((kind, f.resolve()))
            try:
                rep.diagnostics.extend(_check_unit(kind, f, rep))
            except CompileError as exc:
                rep.diagnostics.extend(exc.diagnostics)
                rep.files.append(str(f))
                rep.files.extend(d.span.file for d in exc.diagnostics if d.span is not None)
            except OSError as exc:  # a path a script names, too long to look up: its mistake
                unreadable = unreadable_path(exc)
                if unreadable is None:
                    raise
                rep.diagnostics.append(unreadable)
                rep.files.append(str(f))
    rep.files = sorted(set(rep.files))
    seen: set[tuple[Any, ...]] = set()
    unique = []
    for d in rep.diagnostics:
        key = (d.code, d.message, d.span)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    rep.diagnostics = unique
    return rep


def _not_checkable(raw: str, p: Path) -> Diagnostic | None:
    """CS001 for a path that is missing, empty (it would name the current folder, as the
    command line refuses it), or neither a folder nor a regular file (a FIFO, a device)."""
    import stat

    if not raw:
        return error("CS001", "an empty path names no script", None, "give script files or folders of scripts")

    try:
        mode = p.stat().st_mode
    except OSError:
        return error("CS001", f"no such file or folder: {raw}", None)
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return None
    return error("CS001", f"cannot check {raw}: it is not a regular file nor a folder", None,
                 "give script files or folders of scripts")


def _unused_siblings(main: Path, program: Program) -> list[Path]:
    """Scripts beside a game's main script that the game does not use (new card files)."""
    used = {str(Path(n).resolve()) for n in program.sources}
    return [p for p in _entries(main.parent)[0]
            if p.suffix in (".rules", ".cards") and str(p.resolve()) not in used and _header_kind(p) != "game"]


def _check_unit(kind: str, f: Path, rep: CheckReport) -> list[Diagnostic]:
    if kind == "expansion":
        return _check_expansion(f, rep)
    if kind == "parse":
        return _check_file(f, rep)
    program = load_program(f, recover=kind == "game")  # past a syntax error: the other files' errors too
    if kind == "scenario":
        from cardscript.dsl.front.variants import scenario_program

        program = scenario_program(f, program)  # with its variants and mixed-in sets
    rep.sources.update(program.sources)
    rep.files.extend(program.sources)
    if kind != "game":
        return _check_scenario(program)
    diags = past_broken(program, check_program(program))
    mains = [p for p in _entries(f.parent)[0] if _header_kind(p) == "game" and p.suffix != ".scenario"]
    if len(mains) > 1:  # one diagnostic each, not the CS203 of every definition they share
        for d in second_games(mains):
            diags.append(d)
            if d.span is not None:
                rep.sources.setdefault(d.span.file, read_script(Path(d.span.file)))
                rep.files.append(d.span.file)
    for extra in _unused_siblings(f, program):
        # play, compile and simulate read only what 'uses' names: its cards are not in the game
        diags.append(warning("CS510", f"{extra.name} is not used by the game: {f.name} does not name it in "
                                      "'uses', so its cards are left out of every game played",
                             Span(str(extra), 1, 1),
                             f"add \"{extra.name}\" to the 'uses' line of {f.name}, or move the file out of "
                             "the game's folder"))
        # not used by the game: checked as if added to it, so its mistakes still show
        try:
            with_extra = load_program(f, [extra])
        except CompileError as exc:
            diags.extend(exc.diagnostics)
            continue
        rep.sources.update(with_extra.sources)
        rep.files.extend(with_extra.sources)
        diags.extend(d for d in check_program(with_extra) if d.span is not None and d.span.file in
                     {k for k in with_extra.sources if Path(k).resolve() == extra.resolve()})
    return diags


if __name__ == "__main__":  # pragma: no cover - maintenance: regenerate the shipped schema
    from cardscript.dsl.front.ir import generate_schema

    target = Path(__file__).with_name("ir_schema.json")
    target.write_text(json.dumps(generate_schema(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")

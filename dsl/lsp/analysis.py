"""Checking an editor's buffer in the program of its game, as ``cardscript check`` would.

The buffer's text stands for its file on disk (:func:`cardscript.dsl.files.overlay`), and
the file is checked by :func:`cardscript.dsl.front.pipeline.check_paths`, so a card file of
a game's folder is checked with the whole game, an expansion's script with its
game and the rest of the expansion, a scenario against the game it uses: the same
diagnostics (codes, messages, spans) as ``cardscript check FILE``. The edited script is
built item by item (:mod:`cardscript.dsl.lsp.incremental`), and the other scripts come
from the AST cache, so an edit re-parses only the items it touched.

While a buffer differs from its file the disk caches are not written (an entry per
keystroke would push out the ones ``cardscript check`` made); they are read and
written as usual for a buffer equal to its file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from cardscript.dsl.diagnostics import CompileError, Diagnostic
from cardscript.dsl.files import FileProblem, normalise, overlay, read_text
from cardscript.dsl.front import ast as A
from cardscript.dsl.front import cache
from cardscript.dsl.front.check import Symbols, collect
from cardscript.dsl.front.loader import Program, load_program, resolve_game
from cardscript.dsl.lsp.incremental import build_incremental


def shown_name(path: Path) -> str:
    """A file's name as the loader shows it (relative to the current folder when inside it)."""
    real = Path(os.path.realpath(path))
    cwd = Path.cwd().resolve()
    return os.path.relpath(real) if cwd == real or cwd in real.parents else str(real)


def same_file(name: str, path: Path) -> bool:
    """Whether a span's file name (as the loader shows it) names ``path``."""
    return os.path.realpath(name) == os.path.realpath(path)


@dataclass
class Analysis:
    """One check of a buffer.

    Attributes:
        path: the buffer's file.
        text: the buffer's text (normalised).
        diagnostics: the diagnostics in this file, and those without a place.
        program: the program the file was checked in (None when it cannot be loaded).
        elsewhere: the resolved path of each other file of the program -> its diagnostics.
    """

    path: Path
    text: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    program: Program | None = None
    elsewhere: dict[str, list[Diagnostic]] = field(default_factory=dict)

    @cached_property
    def symbols(self) -> Symbols:
        """The declarations of the program (empty when there is none)."""
        if self.program is None:
            return Symbols()
        return collect(self.program.scripts, self.program.mixed)[0]

    @cached_property
    def script(self) -> A.Script | None:
        """The AST of this file in the program (its items that build)."""
        if self.program is None:
            return None
        return next((s for s in self.program.scripts if same_file(s.file, self.path)), None)


def analyse(path: Path, text: str, others: dict[str, str] | None = None) -> Analysis:
    """Check a buffer in its game (see the module docstring).

    Args:
        path: the file the buffer edits (it must exist: its folder decides its game).
        text: the buffer's text.
        others: the other open buffers (file -> text): they stand for their files too.

    Returns:
        The analysis; a user's mistake is a diagnostic in it, never an exception.
    """
    from cardscript.dsl.front.pipeline import check_paths

    text = normalise(text)
    try:
        saved = read_text(path) == text
    except FileProblem:
        saved = False
    previous = cache.set_disk_cache(saved and cache.enabled())
    try:
        with overlay({**(others or {}), str(path): text}):
            build_incremental(text, shown_name(path))
            report = check_paths([str(path)])
            program = _program(path)
    finally:
        cache.set_disk_cache(previous)
    mine = [d for d in report.diagnostics if d.span is None or same_file(d.span.file, path)]
    elsewhere: dict[str, list[Diagnostic]] = {os.path.realpath(f): [] for f in report.files}
    for d in report.diagnostics:
        if d.span is not None and not same_file(d.span.file, path):
            elsewhere.setdefault(os.path.realpath(d.span.file), []).append(d)
    elsewhere.pop(os.path.realpath(path), None)
    return Analysis(path, text, mine, program, elsewhere)


def _program(path: Path) -> Program | None:
    """The program ``check_paths`` checks the file in, loaded past syntax errors."""
    from cardscript.dsl.front.pipeline import _units
    from cardscript.dsl.front.variants import scenario_program
    from cardscript.dsl.tools.manifest import expansion_scripts, read_manifest

    try:
        units = _units(path)
        if not units:
            return None
        kind, f = units[0]
        if kind == "expansion":
            manifest, _ = read_manifest(f / "cardscript.toml")
            if manifest is None:
                return load_program(path, recover=True)
            program = load_program(resolve_game(manifest.game), expansion_scripts(f), recover=True)
        elif kind == "scenario":
            program = scenario_program(f, load_program(f, recover=True))
        else:
            program = load_program(f, recover=True)
            folder = Path(os.path.realpath(f)).parent
            if folder.name == "variants" and not _has_game(program):  # as check: with the game of its folder
                program = load_program(resolve_game(str(folder.parent)), [f], recover=True)
        if not any(same_file(name, path) for name in program.sources):  # a card file the game does not use
            program = load_program(f, [path], recover=True)
        return program
    except (CompileError, FileProblem, OSError):
        return None


def _has_game(program: Program) -> bool:
    return any(i.kind == "game" for s in program.scripts for i in s.items if isinstance(i, A.Header))

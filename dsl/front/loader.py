"""Finding and reading scripts: a game is a built-in name or a folder (or file).

``uses "NAME"`` (no '/' and no '.') names a built-in library folder under
``cardscripts/`` (e.g. ``"dc-core"``); any other ``uses`` is a path relative to the
script that names it and must stay inside the folder of the game being loaded.
Scripts are read as text only: nothing a script names is imported or executed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from cardscript.dsl.diagnostics import CompileError, Diagnostic, Span, did_you_mean, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.cache import build_cached

SCRIPT_SUFFIXES = (".rules", ".cards", ".variant", ".scenario")


def builtin_root() -> Path:
    """The folder of the built-in cardscripts inside the installed package."""
    return Path(str(resources.files("cardscript.cardscripts")))


def builtin_games() -> list[str]:
    """Names of the built-in games (folders holding a game header)."""
    root = builtin_root()
    out = []
    for sub in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        if any(_header_kind(f) == "game" for f in _scripts_in(sub)):
            out.append(sub.name)
    return out


def _scripts_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in SCRIPT_SUFFIXES and p.suffix != ".scenario")


def _header_kind(path: Path) -> str:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            for line in fh:
                s = line.strip()
                if s and not s.startswith("#"):
                    return s.split(" ", 1)[0]
    except OSError:
        return ""
    return ""


def read_script(path: Path) -> str:
    """A script's text: UTF-8 (a leading byte-order mark is dropped).

    Raises:
        OSError: the file cannot be read.
        UnicodeDecodeError: it is not UTF-8 text.
    """
    return path.read_bytes().decode("utf-8-sig")


@dataclass
class Program:
    """All scripts of a game, in load order (libraries before the scripts using them).

    Attributes:
        scripts: the ASTs.
        sources: file name -> text, for diagnostics.
        root: the folder scripts may read inside.
        main: the file holding the 'game' header.
        mixed: files mixed in from another set (see :func:`cardscript.dsl.front.variants.mix_scripts`).
    """

    scripts: list[A.Script]
    sources: dict[str, str]
    root: Path
    main: str
    mixed: frozenset[str] = frozenset()


def package_root(main: Path) -> Path:
    """The folder a program's scripts may read inside: the nearest ancestor holding a
    ``cardscript.toml`` manifest; else the built-in scripts for a built-in game; else
    the script's folder (for a scenario, the folder above it, so that a game's
    ``scenarios/`` folder can use the game's scripts)."""
    for folder in main.parents:
        if (folder / "cardscript.toml").is_file():
            return folder
    builtin = builtin_root().resolve()
    if builtin in main.parents:
        return builtin
    return main.parent.parent if main.suffix == ".scenario" else main.parent


_HEADER_KINDS = ("game", "ruleset", "variant", "scenario", "expansion")


def _folder_kind(folder: Path) -> str:
    """'game' or 'ruleset' when the folder holds such a script: its headerless files rank with it."""
    try:
        kinds = {_header_kind(p) for p in folder.iterdir() if p.suffix in (".rules", ".cards")}
    except OSError:
        return ""
    return "game" if "game" in kinds else "ruleset" if "ruleset" in kinds else ""


def resolve_game(game: str) -> Path:
    """Turn a GAME argument into the path of its main script.

    Raises:
        CompileError: CS002 for an unknown name, CS001 for a missing path.
    """
    p = Path(game)
    if p.exists():
        if p.is_dir():
            mains = [f for f in _scripts_in(p) if _header_kind(f) == "game"]
            if not mains:
                raise CompileError([error("CS207", f"no script with a 'game' header in folder {game}", None,
                                          "a game folder needs a file starting with: game \"Name\"")])
            return mains[0]
        return p
    games = builtin_games()
    if game in games:
        folder = builtin_root() / game
        return next(f for f in _scripts_in(folder) if _header_kind(f) == "game")
    hint = did_you_mean(game, games) or f"built-in games: {', '.join(games)}; or give a folder of scripts"
    if "/" in game or game.endswith(SCRIPT_SUFFIXES):
        raise CompileError([error("CS001", f"no such file or folder: {game}", None, hint)])
    raise CompileError([error("CS002", f"unknown game {game!r}", None, hint)])


def load_program(main: Path, extra: list[Path] | None = None, mixed: list[Path] | None = None) -> Program:
    """Read the main script and everything it uses, depth first.

    Args:
        main: the main script.
        extra: more scripts to add after the game (expansions, scenarios).

    Raises:
        CompileError: with every syntax and file error found.
    """
    main = main.resolve()
    root = package_root(main)
    loaded: dict[str, A.Script] = {}
    sources: dict[str, str] = {}
    order: list[A.Script] = []
    diags: list[Diagnostic] = []

    def display(path: Path) -> str:
        cwd = Path.cwd().resolve()
        if cwd == path or cwd in path.parents:
            return os.path.relpath(path)
        return str(path)

    def visit(path: Path, at: Span | None, base: Path, inherited: str = "") -> None:
        key = str(path)
        if key in loaded:
            return
        name = display(path)
        try:
            text = read_script(path)
        except UnicodeDecodeError as exc:
            diags.append(error("CS001", f"{name} is not UTF-8 text (byte {exc.start} cannot be read)", at,
                               "save the script as UTF-8"))
            return
        except OSError as exc:
            diags.append(error("CS001", f"cannot read {name}: {exc.strerror or exc.__class__.__name__}", at,
                               "check the path: it is relative to the script that names it"))
            return
        sources[name] = text
        try:
            script = build_cached(text, name)
        except CompileError as exc:
            diags.extend(exc.diagnostics)
            loaded[key] = A.Script(Span(name, 1, 1), name, ())
            return
        own = next((i.kind for i in script.items if isinstance(i, A.Header)), "")
        if not own:
            # A file with no header belongs to its folder's game (a game's cards.cards), however
            # it is reached; otherwise to the script that uses it.
            belongs = _folder_kind(path.parent) or inherited
            if belongs:
                script = A.Script(script.span, script.file, script.items, belongs)
        loaded[key] = script
        for item in script.items:
            if isinstance(item, A.Uses):
                for target in item.paths:
                    for dep in _targets(path, target, item.span, base, diags):
                        visit(dep, item.span, base, own or inherited)
        order.append(script)

    visit(main, None, root)
    for e in extra or []:  # an expansion's scripts may use scripts inside their own package
        visit(e.resolve(), None, package_root(e.resolve()))
    mixed_names = []
    for m in mixed or []:  # another set's card files, mixed in (they rank with the game)
        visit(m.resolve(), None, package_root(m.resolve()), "expansion")
        mixed_names.append(display(m.resolve()))
    if any(d.severity == "error" for d in diags):
        raise CompileError(diags)
    return Program(order, sources, root, display(main), frozenset(mixed_names))


def _string_span(span: Span, target: str) -> Span:
    """The span of the quoted ``target`` on the line of a ``uses`` (the whole line if not found)."""
    try:
        line = Path(span.file).read_text(encoding="utf-8").splitlines()[span.line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return span
    col = line.find(f'"{target}"')
    return span if col < 0 else Span(span.file, span.line, col + 1, span.line, col + len(target) + 3)


def _targets(src: Path, target: str, span: Span, root: Path, diags: list[Diagnostic]) -> list[Path]:
    if "/" not in target and "." not in target:
        folder = builtin_root() / target
        if not folder.is_dir():
            libs = [p.name for p in builtin_root().iterdir() if p.is_dir()]
            diags.append(error("CS001", f"no built-in library {target!r}", span, did_you_mean(target, libs)))
            return []
        return _scripts_in(folder)
    dest = (src.parent / target).resolve()
    allowed = (root.resolve(), builtin_root().resolve())
    if not any(dest == r or r in dest.parents for r in allowed):
        diags.append(error("CS003", f"{target!r} is outside the game's folder", span,
                           "a script may only use scripts inside its own folder tree"))
        return []
    if not dest.exists():
        near = [p.name for p in dest.parent.iterdir()] if dest.parent.is_dir() else []
        hint = did_you_mean(dest.name, near) or "check the path: it is relative to the script that names it"
        diags.append(error("CS001", f"no such script: {target}", _string_span(span, target), hint))
        return []
    if dest.is_dir():
        inside = []
        for f in _scripts_in(dest):
            real = f.resolve()
            if any(real == r or r in real.parents for r in allowed):
                inside.append(f)
            else:  # a link in the folder that leads outside the package
                diags.append(error("CS003", f"{f.name} in {target!r} leads outside the game's folder", span,
                                   "a script may only use scripts inside its own folder tree"))
        return inside
    return [dest]

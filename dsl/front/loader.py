"""Finding and reading scripts: a game is a built-in name or a folder (or file).

``uses "NAME"`` (no '/' and no '.') names a built-in library folder under
``cardscripts/`` (e.g. ``"dc-core"``); any other ``uses`` is a relative path to a
``.rules``, ``.cards`` or ``.variant`` file (or a folder of them) from the script that
names it, and must stay inside the package root of that script (:func:`package_root`).
Scripts are read as text only, through :func:`cardscript.dsl.files.read_text`: links
resolved and kept inside the package, regular files only, at most
:data:`cardscript.dsl.files.MAX_SCRIPT_BYTES` each. Nothing a script names is imported
or executed.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TypeVar

from cardscript.dsl.diagnostics import CompileError, Diagnostic, Span, did_you_mean, error
from cardscript.dsl.files import FileProblem, inside, read_text
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.cache import build_cached

SCRIPT_SUFFIXES = (".rules", ".cards", ".variant", ".scenario")
#: What ``uses`` may name: scripts of a game (a scenario is never part of one).
USABLE_SUFFIXES = (".rules", ".cards", ".variant")
#: The scripts one program may read together (a game, its expansions and what they use):
#: each file is at most :data:`cardscript.dsl.files.MAX_SCRIPT_BYTES`, and this bounds
#: the sum, so that a downloaded package of many large files cannot keep the parser busy
#: for more than seconds. The three built-in games read 0.1 MiB together.
MAX_PROGRAM_BYTES = 2 << 20
#: The script files one program may read together (the built-in games read 26 together).
MAX_PROGRAM_FILES = 500


_T = TypeVar("_T")
#: inside :func:`one_pass`: what has been found of the file system so far, by question
_memo: dict[tuple[str, ...], object] | None = None


@contextlib.contextmanager
def one_pass() -> Iterator[None]:
    """Within, the file system is taken to stand still: each script's header kind, each
    folder's kind, each package root and each read of a script is found once and then
    remembered (``cardscript check`` of the built-in games asked them about 1,400 times for
    26 files). Outside, and after, nothing is remembered, so that a long-running process
    (the language server) sees every edit. Nests: the outermost pass holds the memo."""
    global _memo
    outer = _memo
    if outer is None:
        _memo = {}
    try:
        yield
    finally:
        if outer is None:
            _memo = None


def _remembered(key: tuple[str, ...], find: Callable[[], _T]) -> _T:
    """``find()``, or, inside :func:`one_pass`, what it returned (or raised) the first time
    for ``key``. A :class:`FileProblem` is remembered too and raised again."""
    memo = _memo
    if memo is None:
        return find()
    if key in memo:
        held = memo[key]
        if isinstance(held, FileProblem):
            raise held
        return held  # type: ignore[return-value]
    try:
        value = find()
    except FileProblem as exc:
        memo[key] = exc
        raise
    memo[key] = value
    return value


@functools.lru_cache(maxsize=1)
def builtin_root() -> Path:
    """The folder of the built-in cardscripts inside the installed package (found once: an
    installed package does not move while it runs)."""
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
    """The game scripts of a folder (not its scenarios, not its sub-folders), sorted."""
    try:
        # a FIFO or device is listed too: reading it then says what it is
        return sorted(p for p in folder.iterdir() if p.suffix in USABLE_SUFFIXES and p.exists() and not p.is_dir())
    except OSError:
        return []


def _header_kind(path: Path) -> str:
    """The first word of a script's first line (comments aside): 'game', 'card'... ("" when it
    cannot be read, or leads outside its package)."""
    return _remembered(("kind", os.path.abspath(path)), lambda: _find_header_kind(path))


def _find_header_kind(path: Path) -> str:
    try:
        text = read_script(path, [package_root(path)])
    except FileProblem:
        return ""
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith("#"):
            return s.split(" ", 1)[0]
    return ""


def second_games(mains: list[Path]) -> list[Diagnostic]:
    """CS203 at the header of each script of a folder after its first with a 'game' header:
    a folder is one game, and the others would be read as scripts added to it (dozens of
    "defined twice", or nothing said at all when the game is played).

    Args:
        mains: the scripts of one folder whose header is 'game', sorted by name.
    """
    def shown(path: Path) -> str:
        return os.path.relpath(path) if Path.cwd().resolve() in path.resolve().parents else str(path)

    first, (line, header) = shown(mains[0]), _header_line(mains[0])
    out = []
    for m in mains[1:]:
        at = _header_line(m)[0]
        out.append(error("CS203", f"a second game in folder {shown(m.parent)}: its game is already "
                         f"'{header}' at {first}:{line}", Span(shown(m), at, 1, at, 5),
                         "a folder holds one game: move this one to a folder of its own, or make it an "
                         "expansion of the first (expansion \"NAME\", then uses of the game's scripts)"))
    return out


def _header_line(path: Path) -> tuple[int, str]:
    """(1-based line, text) of a script's header: its first line that is not blank or a comment."""
    try:
        text = read_script(path, [package_root(path)])
    except FileProblem:
        return 1, ""
    return next(((n, raw.strip()) for n, raw in enumerate(text.splitlines(), 1)
                 if raw.strip() and not raw.strip().startswith("#")), (1, ""))


def read_script(path: Path, roots: list[Path] | None = None) -> str:
    """A script's text (see :func:`cardscript.dsl.files.read_text`: UTF-8, a leading
    byte-order mark dropped, CRLF and CR line ends as LF).

    Args:
        path: the script.
        roots: folders the script must lie in once its links are resolved (None: anywhere).

    Raises:
        FileProblem: outside the roots (CS003); missing, not a regular file, too large or
            not UTF-8 (CS001).
    """
    return read_text(path, roots)


@dataclass
class Program:
    """All scripts of a game, in load order (libraries before the scripts using them).

    Attributes:
        scripts: the ASTs.
        sources: file name -> text, for diagnostics.
        root: the folder scripts may read inside.
        main: the file holding the 'game' header.
        mixed: files mixed in from another set (see :func:`cardscript.dsl.front.variants.mix_scripts`).
        problems: with ``recover``, the syntax and file errors found while loading.
        broken: with ``recover``, the text of the parts of scripts that did not build.
    """

    scripts: list[A.Script]
    sources: dict[str, str]
    root: Path
    main: str
    mixed: frozenset[str] = frozenset()
    problems: tuple[Diagnostic, ...] = ()
    broken: tuple[str, ...] = ()


def package_root(main: Path) -> Path:
    """The folder a program's scripts may read inside (docs/language.md, "uses").

    The nearest ancestor holding a ``cardscript.toml`` manifest; else the built-in
    scripts for a built-in game; else the script's folder — for a scenario, the folder
    above it when that is a game's folder (it holds a script with a ``game`` header) or
    the scenario's folder is named ``scenarios``, so that a game's scenarios can use its
    scripts.

    Args:
        main: the script as named (made absolute, links not resolved: a link is checked
            against the root of the folder holding it).
    """
    return _remembered(("root", os.path.abspath(main)), lambda: _find_package_root(main))


def _find_package_root(main: Path) -> Path:
    main = Path(os.path.abspath(main))
    for folder in main.parents:
        if (folder / "cardscript.toml").is_file():
            return folder
    builtin = builtin_root().resolve()
    if builtin in main.parents or builtin in main.resolve().parents:
        return builtin
    if main.suffix == ".scenario" and main.parent.parent != main.parent:
        above = main.parent.parent
        if main.parent.name == "scenarios" or _folder_kind(above) == "game":
            return above
    return main.parent


_HEADER_KINDS = ("game", "ruleset", "variant", "scenario", "expansion")


def _folder_kind(folder: Path) -> str:
    """'game' or 'ruleset' when the folder holds such a script: its headerless files rank with it."""
    return _remembered(("folder", os.path.abspath(folder)), lambda: _find_folder_kind(folder))


def _find_folder_kind(folder: Path) -> str:
    kinds = {_header_kind(p) for p in _scripts_in(folder) if p.suffix in (".rules", ".cards")}
    return "game" if "game" in kinds else "ruleset" if "ruleset" in kinds else ""


def resolve_game(game: str) -> Path:
    """Turn a GAME argument into the path of its main script.

    Raises:
        CompileError: CS002 for an unknown name, CS001 for a missing path.
    """
    p = Path(game)
    if not game:
        raise CompileError([error("CS001", "an empty path names no game", None,
                                  "give a built-in game's name, or a folder of scripts")])
    if p.exists():
        if p.is_dir():
            mains = [f for f in _scripts_in(p) if _header_kind(f) == "game"]
            if not mains:
                raise CompileError([error("CS207", f"no script with a 'game' header in folder {game}", None,
                                          _not_a_game_hint(p, game))])
            if len(mains) > 1:
                raise CompileError(second_games(mains))
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


def _not_a_game_hint(folder: Path, game: str) -> str:
    """The hint of a GAME folder without a game: an expansion's folder is played with --with."""
    manifest = folder / "cardscript.toml"
    if manifest.is_file() or any(_header_kind(f) == "expansion" for f in _scripts_in(folder)):
        from cardscript.dsl.tools.manifest import read_manifest  # the manifest reader knows the games

        read = read_manifest(manifest)[0] if manifest.is_file() else None
        base = read.game if read is not None else "GAME"
        return f"{game} is an expansion: play it with its game, 'cardscript play {base} --with {game}'"
    return "a game folder needs a file starting with: game \"Name\""


def load_program(main: Path, extra: list[Path] | None = None, mixed: list[Path] | None = None,
                 recover: bool = False) -> Program:
    """Read the main script and everything it uses, depth first.

    Each script is read inside the package root of the script that names it
    (:func:`package_root`; the built-in scripts for ``uses "NAME"``): a link leading
    outside, a file that is not regular, too large or not UTF-8 is a diagnostic.

    Args:
        main: the main script.
        extra: more scripts to add after the game (expansions, scenarios), each read
            inside its own package root.
        mixed: other sets' card files, each read inside its own package root.
        recover: do not raise: a script with a syntax error stands for the parts of it that
            build (:func:`cardscript.dsl.front.recover.salvage`), and the errors are the
            program's ``problems`` (``cardscript check`` goes on past them).

    Raises:
        CompileError: with every syntax and file error found (not with ``recover``).
    """
    root = package_root(main)
    loaded: dict[str, A.Script] = {}
    sources: dict[str, str] = {}
    order: list[A.Script] = []
    diags: list[Diagnostic] = []
    broken: list[str] = []
    budget = [0, 0]  # characters and files read so far
    over: list[str] = []  # the file that went over the budget, once
    games: list[tuple[Path, str]] = []  # the folder of the program's game, and its script

    def display(path: Path) -> str:
        cwd = Path.cwd().resolve()
        if cwd == path or cwd in path.parents:
            return os.path.relpath(path)
        return str(path)

    def visit(named: Path, at: Span | None, base: Path, inherited: str = "", target: str = "") -> None:
        path = Path(os.path.realpath(named))
        key = str(path)
        if key in loaded:
            return
        name = display(path)
        try:  # a refused file is named as the script named it, not by where its links lead
            shown = display(Path(os.path.abspath(named)))
            text = _remembered(("read", os.path.abspath(named), str(base), shown),
                               lambda: read_text(named, [base], shown=shown))
        except FileProblem as exc:
            hint = exc.hint or "check the path: it is relative to the script that names it"
            # a problem inside the file (a byte that is not UTF-8) is shown where it lies, a
            # problem of the file itself at the string of the 'uses' that names it
            if exc.line:
                place: Span | None = Span(shown, exc.line, exc.column, exc.line, exc.column + 1)
            else:
                place = _string_span(at, target) if at is not None and target else at
            diags.append(error(exc.code, exc.message, place, hint))
            loaded[key] = A.Script(Span(name, 1, 1), name, ())
            return
        budget[0] += len(text)
        budget[1] += 1
        if budget[0] > MAX_PROGRAM_BYTES or budget[1] > MAX_PROGRAM_FILES:
            if not over:
                diags.append(error(
                    "CS001", f"{name}: the scripts of this game are over "
                             f"{MAX_PROGRAM_BYTES >> 20} MiB or {MAX_PROGRAM_FILES} files together",
                    at, "a game with its expansions reads at most that much; split the package or "
                        "use fewer files"))
                over.append(name)
            loaded[key] = A.Script(Span(name, 1, 1), name, ())
            return
        sources[name] = text
        try:
            script = build_cached(text, name)
        except CompileError as exc:
            if not recover:
                diags.extend(exc.diagnostics)
                loaded[key] = A.Script(Span(name, 1, 1), name, ())
                return
            from cardscript.dsl.front.recover import salvage

            saved = salvage(text, name, exc)
            diags.extend(saved.diagnostics)
            broken.append(saved.broken)
            script = saved.script
        own = next((i.kind for i in script.items if isinstance(i, A.Header)), "")
        if not own:
            # A file with no header belongs to its folder's game (a game's cards.cards), however
            # it is reached; otherwise to the script that uses it.
            belongs = _folder_kind(path.parent) or inherited
            if belongs:
                script = A.Script(script.span, script.file, script.items, belongs)
        loaded[key] = script
        if own == "game" and not games:
            games.append((path.parent, display(path)))
        for item in script.items:
            if isinstance(item, A.Uses):
                for target in item.paths:
                    if _second_game(target, item.span, games, diags):
                        continue
                    for dep, dep_root in _targets(path, target, item.span, base, diags):
                        visit(dep, item.span, dep_root, own or inherited, target)
        order.append(script)

    visit(main, None, root)
    for e in extra or []:  # an expansion's scripts may use scripts inside their own package
        # one with no header is added to the game as an expansion is (it ranks with the game:
        # it can neither replace a card of the game nor lose its own duplicates silently)
        visit(e, None, package_root(e), "expansion")
    mixed_names = []
    for m in mixed or []:  # another set's card files, mixed in (they rank with the game)
        visit(m, None, package_root(m), "expansion")
        mixed_names.append(display(m.resolve()))
    if any(d.severity == "error" for d in diags) and not recover:
        raise CompileError(diags)
    return Program(order, sources, root, display(main.resolve()), frozenset(mixed_names), tuple(diags),
                   tuple(broken))


def _second_game(target: str, span: Span, games: list[tuple[Path, str]], diags: list[Diagnostic]) -> bool:
    """Whether ``target`` is a built-in game other than the program's own: then a CS005 at
    its string (reading it would define every rule and zone of the game a second time, a
    flood of CS203 in the built-in scripts that does not say which line caused it)."""
    if not games or "/" in target or "." in target:
        return False
    folder = builtin_root() / target
    try:
        if not folder.is_dir() or _folder_kind(folder) != "game" or folder.resolve() == games[0][0].resolve():
            return False
    except OSError:  # a name the file system cannot look up: the lookup of the target says so
        return False
    folder_name, first = games[0][0].name, games[0][1]
    diags.append(error("CS005", f"'{target}' is a second game: this program's game is '{folder_name}' ({first})",
                       _string_span(span, target),
                       "a script extends one game: use only that game's name (an expansion's cardscript.toml "
                       "names it too), or mix another set's cards in with 'play --mix'"))
    return True


def _string_span(span: Span, target: str) -> Span:
    """The span of the quoted ``target`` on the line of a ``uses`` (the whole line if not found)."""
    try:
        line = read_script(Path(span.file)).splitlines()[span.line - 1]
    except (FileProblem, IndexError):
        return span
    col = line.find(f'"{target}"')
    return span if col < 0 else Span(span.file, span.line, col + 1, span.line, col + len(target) + 3)


_OUTSIDE_HINT = "a script may only use scripts inside its own package, by a relative path"


def _targets(src: Path, target: str, span: Span, root: Path,
             diags: list[Diagnostic]) -> list[tuple[Path, Path]]:
    """What a ``uses`` target names: (script, the root it is read inside) pairs; a target
    the file system cannot even look up (a name too long, a folder that cannot be
    searched) is a CS001 diagnostic at the string."""
    try:
        return _lookup(src, target, span, root, diags)
    except OSError as exc:
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        shown = target if len(target) <= 60 else target[:57] + "..."
        diags.append(error("CS001", f"cannot look up {shown!r}: {why.lower()}", _string_span(span, target),
                           "name a script or folder of the package by a short relative path"))
        return []


def _lookup(src: Path, target: str, span: Span, root: Path,
            diags: list[Diagnostic]) -> list[tuple[Path, Path]]:
    if not target.strip():  # it named the folder of the built-in games, and loaded nothing
        diags.append(error("CS001", "an empty path names no script", _string_span(span, target),
                           'name a built-in library or game by its name, or a script of the package by its path'))
        return []
    if "/" not in target and "." not in target:
        folder = builtin_root() / target
        if not folder.is_dir():
            libs = [p.name for p in builtin_root().iterdir() if p.is_dir()]
            hint = did_you_mean(target, libs)
            if (src.parent / target).exists():  # a name without '/' or '.' is a built-in library's
                hint = f"to use {target!r} beside this script, write \"{target}/\" (a folder) or its file name"
            diags.append(error("CS001", f"no built-in library {target!r}", _string_span(span, target), hint))
            return []
        return [(f, builtin_root()) for f in _scripts_in(folder)]
    at = _string_span(span, target)
    if os.path.isabs(target) or target.startswith("~"):
        diags.append(error("CS003", f"{target!r} is an absolute path", at, _OUTSIDE_HINT))
        return []
    dest = Path(os.path.normpath(src.parent / target))
    if not inside(dest, [root]) and not inside(dest.resolve(), [root]):
        diags.append(error("CS003", f"{target!r} is outside the package ({root})", at, _OUTSIDE_HINT))
        return []
    if not dest.exists():
        near = [p.name for p in dest.parent.iterdir()] if dest.parent.is_dir() else []
        hint = did_you_mean(dest.name, near) or "check the path: it is relative to the script that names it"
        diags.append(error("CS001", f"no such script: {target}", at, hint))
        return []
    if dest.is_dir():
        found = _scripts_in(dest)
        if not found:  # as a folder walk says it: an empty folder is most likely the wrong one
            diags.append(error("CS001", f"no scripts in {target!r}: 'uses' of a folder reads its .rules, .cards "
                                        "and .variant files, and it has none", at,
                               "name the folder the scripts are in (sub-folders are not read), or remove this uses"))
        return [(f, root) for f in found]
    if dest.suffix not in USABLE_SUFFIXES:
        diags.append(error("CS001", f"{target!r} is not a script: 'uses' reads .rules, .cards and .variant files",
                           at, "name a script, or a folder of scripts"))
        return []
    return [(dest, root)]

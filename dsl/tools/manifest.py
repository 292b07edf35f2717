"""Expansions: a folder of scripts with a ``cardscript.toml`` manifest.

The manifest (TOML, read with :mod:`tomllib`) names the expansion, its version, the
built-in game it extends, the expansions it requires and those it conflicts with. It
is validated against ``dsl/tools/manifest_schema.json`` (a closed JSON Schema); every
problem is a Diagnostic at its line of the TOML file:

* ``CS004`` a bad manifest: TOML syntax, a missing or unknown key, a value of the
  wrong form;
* ``CS002`` an unknown game;
* ``CS005`` expansions that do not fit together: one is for another game, a required
  expansion is missing (or too old), two conflict.

The folder holding the manifest is the expansion's package root
(:func:`cardscript.dsl.front.loader.package_root`): its scripts and scenarios may use each other.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, Span, did_you_mean, error
from cardscript.dsl.files import FileProblem, read_text
from cardscript.dsl.front.loader import USABLE_SUFFIXES, builtin_games

MANIFEST = "cardscript.toml"
_KEY = r"^[ \t]*(?:{k}|\"{k}\"|'{k}')[ \t]*=[ \t]*"


@dataclass(frozen=True)
class Manifest:
    """A checked manifest.

    Attributes:
        name: the expansion's name.
        version: MAJOR.MINOR.PATCH as a tuple of numbers.
        game: the built-in game it extends.
        requires: (name, operator, version) per required expansion; operator '' for any.
        conflicts: names of expansions it cannot be played with.
        file: the manifest's path as shown in diagnostics.
        folder: the expansion's folder.
        spans: key -> the span of its value, for diagnostics.
    """

    name: str
    version: tuple[int, ...]
    game: str
    requires: tuple[tuple[str, str, tuple[int, ...]], ...]
    conflicts: tuple[str, ...]
    file: str
    folder: Path
    spans: dict[str, Span] = field(default_factory=dict, compare=False)


def schema() -> dict[str, Any]:
    """The manifest's JSON Schema, shipped in the package."""
    text = resources.files("cardscript.dsl.tools").joinpath("manifest_schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def display(path: Path) -> str:
    """A path as diagnostics show it: relative to the current folder when inside it."""
    path = path.resolve()
    cwd = Path.cwd().resolve()
    return os.path.relpath(path) if cwd == path or cwd in path.parents else str(path)


def find_manifest(path: Path) -> Path | None:
    """The manifest of the expansion folder ``path`` (or of the folder holding a file)."""
    folder = path if path.is_dir() else path.parent
    m = folder / MANIFEST
    return m if m.is_file() else None


def expansion_scripts(folder: Path) -> list[Path]:
    """The scripts an expansion adds to its game: the folder's scripts, scenarios aside,
    sorted by name (a FIFO or device among them is listed: reading it refuses it)."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix in USABLE_SUFFIXES and p.exists() and not p.is_dir())
    except OSError:
        return []


# ---------------------------------------------------------------- locating values in the TOML text
def _pos(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _value_span(text: str, file: str, key: str) -> Span | None:
    m = re.search(_KEY.format(k=re.escape(key)), text, re.MULTILINE)
    if m is None:
        return None
    start = m.end()
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    value = text[start:end].split(" #")[0].rstrip()
    line, col = _pos(text, start)
    return Span(file, line, col, line, col + max(1, len(value)))


def _item_span(text: str, file: str, key: str, index: int) -> Span | None:
    """The span of item ``index`` of the array value of ``key`` (strings only)."""
    whole = _value_span(text, file, key)
    m = re.search(_KEY.format(k=re.escape(key)), text, re.MULTILINE)
    if m is None or not text[m.end():].startswith("["):
        return whole
    items = list(re.finditer(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[^\s,\[\]]+|\]', text[m.end() + 1:]))
    found = [i for i in items if i.group() != "]"][: index + 1] if items else []
    if len(found) <= index:
        return whole
    start = m.end() + 1 + found[index].start()
    line, col = _pos(text, start)
    return Span(file, line, col, line, col + len(found[index].group()))


def _span_for(text: str, file: str, path: list[Any]) -> Span:
    if len(path) >= 2 and isinstance(path[1], int):
        sp = _item_span(text, file, str(path[0]), path[1])
    elif path:
        sp = _value_span(text, file, str(path[0]))
    else:
        sp = None
    return sp or Span(file, 1, 1, 1, 2)


def _key_span(text: str, file: str, key: str) -> Span:
    m = re.search(r"^[ \t]*[\"']?" + re.escape(key) + r"[\"']?[ \t]*=", text, re.MULTILINE)
    if m is None:
        return Span(file, 1, 1, 1, 2)
    line, col = _pos(text, m.start() + len(m.group()) - len(m.group().lstrip()))
    return Span(file, line, col, line, col + len(key))


# ---------------------------------------------------------------- reading
def read_manifest(path: Path) -> tuple[Manifest | None, list[Diagnostic]]:
    """Read and check a ``cardscript.toml`` (read inside its own folder, like a script:
    :func:`cardscript.dsl.files.read_text`).

    Returns:
        (manifest, diagnostics): the manifest is None when any diagnostic is an error.
    """
    return _read_manifest(path)[:2]


def read_manifest_text(path: Path) -> tuple[Manifest | None, list[Diagnostic], str]:
    """:func:`read_manifest`, and the manifest's text as read ("" when it cannot be read)."""
    return _read_manifest(path)


def _read_manifest(path: Path) -> tuple[Manifest | None, list[Diagnostic], str]:
    file = display(path)
    try:
        text = read_text(path, [path.parent], shown=file)
    except FileProblem as exc:
        # a byte that is not UTF-8 is shown where it lies, as in a script
        place = Span(file, exc.line, exc.column, exc.line, exc.column + 1) if exc.line else None
        hint = exc.hint.replace("the script", "cardscript.toml") if exc.line else exc.hint
        return None, [error(exc.code, exc.message, place, hint)], ""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [_toml_error(exc, text, file)], text
    except ValueError:  # an integer past Python's 4,300 digits of int(): no manifest value is one
        return None, [error("CS004", "bad manifest: a number too long to read", Span(file, 1, 1, 1, 2),
                            "a manifest holds text and lists of text: name, version, game")], text
    except RecursionError:  # tomllib recurses once per nested array or table
        return None, [error("CS004", "not valid TOML for a manifest: values nested too deeply",
                            Span(file, 1, 1, 1, 2), "a manifest holds text and lists of text")], text
    try:
        diags = _schema_errors(data, text, file)
    except RecursionError:
        diags = [error("CS004", "bad manifest: values nested too deeply", Span(file, 1, 1, 1, 2),
                       "a manifest holds text and lists of text")]
    if diags:
        return None, diags, text
    spans = {k: _value_span(text, file, k) or Span(file, 1, 1) for k in data}
    if data["game"] not in builtin_games():
        games = builtin_games()
        return None, [error("CS002", f"unknown game {_short(data['game'])}", spans["game"],
                            did_you_mean(data["game"], games) or f"built-in games: {', '.join(games)}")], text
    requires = tuple(_requirement(r) for r in data.get("requires", []))
    return Manifest(data["name"], _version(data["version"]), data["game"], requires,
                    tuple(data.get("conflicts", [])), file, path.parent, spans), [], text


def _toml_error(exc: tomllib.TOMLDecodeError, text: str, file: str) -> Diagnostic:
    msg = str(exc)
    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    line = getattr(exc, "lineno", None) or (int(m.group(1)) if m else 1)
    col = getattr(exc, "colno", None) or (int(m.group(2)) if m else 1)
    reason = getattr(exc, "msg", None) or re.sub(r"\s*\(at line.*\)$", "", msg).strip()
    if m is None and "end of document" in msg:
        line, col = _pos(text, len(text))
    return error("CS004", f"not valid TOML: {reason[:1].lower()}{reason[1:]}",
                 Span(file, line, col, line, col + 1), "see https://toml.io for the syntax: key = \"value\"")


def _schema_errors(data: dict[str, Any], text: str, file: str) -> list[Diagnostic]:
    import jsonschema  # type: ignore[import-untyped]  # no type stubs are installed for it

    sch = schema()
    known = list(sch["properties"])
    out = []
    for key in data:
        if key not in known:
            out.append(error("CS004", f"unknown key {key!r} in {MANIFEST}", _key_span(text, file, key),
                             did_you_mean(key, known) or f"known keys: {', '.join(known)}"))
    validator = jsonschema.Draft202012Validator(sch)
    for e in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        if e.validator == "additionalProperties":
            continue
        path = list(e.absolute_path)
        where = ".".join(str(p) for p in path) or "the manifest"
        if e.validator == "required":
            missing = e.message.split("'")[1]
            out.append(error("CS004", f"{MANIFEST} has no {missing!r}", Span(file, 1, 1, 1, 2),
                             f"add a line: {missing} = {_example(missing)}"))
            continue
        desc = _schema_at(sch, path).get("description", "")
        msg = f"bad value for {where}: {_brief(e)}"
        out.append(error("CS004", msg, _span_for(text, file, path), desc))
    out.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return out


def _schema_at(sch: dict[str, Any], path: list[Any]) -> dict[str, Any]:
    node = sch
    for p in path:
        node = node.get("items", {}) if isinstance(p, int) else node.get("properties", {}).get(p, {})
    return node


def _short(value: Any, width: int = 80) -> str:
    """A value's repr, cut to ``width`` characters (a message never echoes a huge value)."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def _brief(e: Any) -> str:
    if e.validator == "type":
        kind = str(e.validator_value)
        return f"{_short(e.instance)} is not {'an' if kind[:1] in 'aeiou' else 'a'} {kind}"
    if e.validator == "pattern":
        return f"{_short(e.instance)} does not have the expected form"
    return e.message if len(e.message) <= 200 else f"{_short(e.instance)} fails {e.validator!r}"


def _example(key: str) -> str:
    games = builtin_games() or ["GAME"]
    return {"name": '"my-expansion"', "version": '"0.1.0"', "game": f'"{games[0]}"'}.get(key, '"..."')


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.split(r"[-+]", text)[0].split("."))


def _requirement(text: str) -> tuple[str, str, tuple[int, ...]]:
    m = re.match(r"^([a-z0-9-]+)\s*(?:(>=|==)\s*([0-9.]+))?$", text)
    assert m is not None  # the schema's pattern
    return m.group(1), m.group(2) or "", _version(m.group(3)) if m.group(3) else ()


# ---------------------------------------------------------------- combining
def check_combination(manifests: list[Manifest], game: str) -> list[Diagnostic]:
    """Expansions played together (``play GAME --with A --with B``): each must be for
    GAME, have what it requires among the others, and conflict with none of them."""
    out = []
    by_name = {m.name: m for m in manifests}
    for m in manifests:
        if game in builtin_games() and m.game != game:
            out.append(error("CS005", f"expansion {m.name!r} is for {m.game!r}, not {game!r}", m.spans.get("game"),
                             f"play it with: cardscript play {m.game} --with {display(m.folder)}"))
        for name, op, version in m.requires:
            other = by_name.get(name)
            if other is None:
                out.append(error("CS005", f"expansion {m.name!r} requires {name!r}", m.spans.get("requires"),
                                 f"add --with FOLDER for the {name!r} expansion"))
            elif op and not (other.version >= version if op == ">=" else other.version[:len(version)] == version):
                have = ".".join(map(str, other.version))
                out.append(error("CS005", f"expansion {m.name!r} requires {name} {op} {'.'.join(map(str, version))}, "
                                 f"not {have}", m.spans.get("requires"), f"use a matching version of {name!r}"))
        for name in m.conflicts:
            if name in by_name and name != m.name:
                out.append(error("CS005", f"expansion {m.name!r} cannot be played with {name!r}",
                                 m.spans.get("conflicts"), "leave one of them out"))
    return out


def _a_game(raw: str, script: Path) -> Diagnostic:
    """CS005 for ``--with PATH`` naming a game (``script`` starts with ``game "..."``)."""
    return error("CS005", f"{raw} is a game ({script.name} starts with 'game'), not an expansion", None,
                 "play it as a game of its own; to add its cards to this game, use --mix with it")


def load_expansions(game: str, paths: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """The scripts to add to GAME for ``--with PATH`` options (folders or single scripts).

    Returns:
        (scripts, diagnostics): a folder with a manifest is checked (and combined with the
        other expansions); a folder without one adds its scripts; a file adds itself. A
        game's folder or script (one starting ``game "..."``) is CS005, not added.
    """
    from cardscript.dsl.front.loader import _header_kind

    scripts: list[Path] = []
    manifests: list[Manifest] = []
    diags: list[Diagnostic] = []
    for raw in paths:
        p = Path(raw)
        if not raw or not p.exists():
            diags.append(error("CS001", f"no such file or folder: {raw!r}" if not raw else
                               f"no such file or folder: {raw}", None, "give an expansion's folder"))
            continue
        if not p.is_dir():  # a script, or a FIFO or device: reading it says which
            if p.is_file() and _header_kind(p) == "game":
                diags.append(_a_game(raw, p))
                continue
            if p.suffix not in USABLE_SUFFIXES:  # a scenario, a README, a manifest: as 'uses' says
                diags.append(error("CS001", f"{raw} is not a script: --with reads .rules, .cards and .variant "
                                            "files, or an expansion's folder", None,
                                   "give the expansion's folder (the one holding its cardscript.toml)"))
                continue
            scripts.append(p)
            continue
        found = find_manifest(p)
        if found is not None:
            m, more = read_manifest(found)
            diags += more
            if m is not None:
                manifests.append(m)
        found_scripts = expansion_scripts(p)
        games = [f for f in found_scripts if _header_kind(f) == "game"]
        if games:  # its rules and cards would all be defined a second time (a flood of CS203)
            diags.append(_a_game(raw, games[0]))
            continue
        if not found_scripts:
            diags.append(error("CS001", f"no scripts in {raw}", None,
                               "an expansion's folder holds .rules, .cards or .variant scripts"))
        scripts += found_scripts
    if not diags:
        diags += check_combination(manifests, game)
    return scripts, diags

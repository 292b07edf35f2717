"""A cache of ``cardscript check``'s results per program: the diagnostics of lowering and
lint (docs/cache.md, "Check results").

Checking a program (compiling it, then the static checks of :mod:`cardscript.dsl.tools.lint`)
is a pure function of its scripts and of the compiler, so its diagnostics are kept on disk,
in the folder of the AST cache and under its rules (:mod:`cardscript.dsl.front.cache`:
trusted folder and entries only, bounded, written atomically, off with ``--no-cache``).
The key is the SHA-256 of every source file of the program (names, texts, the kind each
script ranks as, the mixed-in files) and of the compiler version (:func:`compiler_version`:
every module of ``dsl/`` and ``runtime/`` and the grammar). An entry is JSON holding only
strings, integers and lists, checked field by field: anything else is a miss, and the
program is checked again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardscript.dsl.diagnostics import Diagnostic, Span
from cardscript.dsl.front import cache

if TYPE_CHECKING:
    from cardscript.dsl.front.loader import Program

FORMAT = 1
PREFIX = "check-"
_SEVERITIES = ("error", "warning", "note")
_SPAN_FIELDS = ("file", "line", "column", "end_line", "end_column")
_MEMORY: dict[str, tuple[Diagnostic, ...]] = {}


def diagnostics_cached(kind: str, program: Program, compute: Callable[[], list[Diagnostic]]) -> list[Diagnostic]:
    """``compute()``'s diagnostics for ``program``, from the cache when it holds them for
    these exact scripts and this compiler, else computed and stored.

    Args:
        kind: what ``compute`` does (``"program"``, ``"scenario"``): part of the key.
        program: the loaded program ``compute`` checks; nothing else may decide its result.
        compute: the uncached check.

    Returns:
        A new list (the caller may extend it); equal, element by element, to ``compute()``.
    """
    if not cache.enabled():
        return compute()
    key = program_key(kind, program)
    held = _MEMORY.get(key)
    if held is None:
        raw = cache.read_entry(f"{PREFIX}{key[:32]}.json")
        held = _decode(raw, key) if raw is not None else None
        if held is None:
            held = tuple(compute())
            cache.write_entry(f"{PREFIX}{key[:32]}.json", _encode(held, key))
        if len(_MEMORY) > 256:
            _MEMORY.clear()
        _MEMORY[key] = held
    return list(held)


def program_key(kind: str, program: Program) -> str:
    """The SHA-256 (hex) of what a check of ``program`` depends on: the compiler version, the
    kind of check, the program's main file, root and mixed-in files, and each script's file
    name, the kind it ranks as, whether it has items, and the SHA-256 of its text."""
    h = hashlib.sha256()

    def put(*parts: str) -> None:
        for part in parts:
            h.update(part.encode("utf-8", "surrogatepass") + b"\0")

    put(str(FORMAT), compiler_version(), kind, program.main, str(program.root), *sorted(program.mixed), "|")
    for script in program.scripts:
        text = program.sources.get(script.file)
        digest = "-" if text is None else hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        put(script.file, script.kind, "items" if script.items else "empty", digest)
    put("|")
    for name, text in program.sources.items():
        put(name, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def compiler_version() -> str:
    """A SHA-256 of every Python module of ``dsl/`` and ``runtime/`` (by path within the
    package) and of the grammar: any change to the compiler, the lint or the runtime objects
    lowering builds is a new version, so an entry of another version is never read."""
    package = Path(__file__).resolve().parent.parent.parent  # the folder holding dsl/ and runtime/
    h = hashlib.sha256(cache.grammar_source().encode())
    for module in sorted(_modules(package / "dsl") + _modules(package / "runtime")):
        h.update(module.relative_to(package).as_posix().encode() + b"\0")
        h.update(module.read_bytes())
    return h.hexdigest()


def _modules(folder: Path) -> list[Path]:
    out: list[Path] = []
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                if item.is_dir(follow_symlinks=False) and item.name != "__pycache__":
                    out.extend(_modules(Path(item.path)))
                elif item.name.endswith(".py"):
                    out.append(Path(item.path))
    except OSError:
        pass
    return out


def _encode(diags: tuple[Diagnostic, ...], key: str) -> bytes:
    items = [{"severity": d.severity, "code": d.code, "message": d.message,
              "span": None if d.span is None else [getattr(d.span, f) for f in _SPAN_FIELDS],
              "hint": d.hint, "expected": list(d.expected)} for d in diags]
    return json.dumps({"format": FORMAT, "key": key, "diagnostics": items}, ensure_ascii=False).encode(
        "utf-8", "surrogatepass")


def _decode(raw: bytes, key: str) -> tuple[Diagnostic, ...] | None:
    """The diagnostics of an entry, or None when it is not exactly what :func:`_encode` writes
    for ``key`` (wrong format, key, field, type or count)."""
    try:
        data = json.loads(raw.decode("utf-8", "surrogatepass"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not (isinstance(data, dict) and data.keys() == {"format", "key", "diagnostics"}
            and data["format"] == FORMAT and data["key"] == key and isinstance(data["diagnostics"], list)):
        return None
    out = []
    for item in data["diagnostics"]:
        diag = _diagnostic(item)
        if diag is None:
            return None
        out.append(diag)
    return tuple(out)


def _is_text(value: Any) -> bool:
    return type(value) is str


def _is_int(value: Any) -> bool:
    return type(value) is int  # not bool


def _diagnostic(item: Any) -> Diagnostic | None:
    if not (isinstance(item, dict) and item.keys() == {"severity", "code", "message", "span", "hint", "expected"}):
        return None
    if not (item["severity"] in _SEVERITIES and _is_text(item["code"]) and _is_text(item["message"])
            and _is_text(item["hint"]) and isinstance(item["expected"], list)
            and all(_is_text(e) for e in item["expected"])):
        return None
    span = item["span"]
    if span is not None:
        if not (isinstance(span, list) and len(span) == len(_SPAN_FIELDS) and _is_text(span[0])
                and all(_is_int(n) for n in span[1:])):
            return None
        span = Span(*span)
    return Diagnostic(item["severity"], item["code"], item["message"], span, item["hint"], tuple(item["expected"]))

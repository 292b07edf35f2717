"""A cache of built ASTs: per process, and on disk between runs (like Python's .pyc).

Only our own AST objects are stored, in the user's cache folder; nothing a script
names is ever loaded. Turn it off with ``CARDSCRIPT_CACHE=off``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build import build

_AST_CACHE: dict[tuple[str, str], A.Script] = {}


def build_cached(text: str, name: str) -> A.Script:
    """Build a script's AST once per process (a shared library is used by every game),
    and keep it on disk between runs (see :func:`_disk_cache`), like Python's .pyc files."""
    key = (name, text)
    script = _AST_CACHE.get(key)
    if script is None:
        script = _disk_load(name, text)
        if script is None:
            script = build(text, name)
            _disk_store(name, text, script)
        if len(_AST_CACHE) > 512:
            _AST_CACHE.clear()
        _AST_CACHE[key] = script
    return script


@functools.lru_cache(maxsize=1)
def _disk_cache() -> Path | None:
    """``$CARDSCRIPT_CACHE`` or ``$XDG_CACHE_HOME/cardscript`` (default ~/.cache/cardscript);
    None when caching is off (``CARDSCRIPT_CACHE=off``) or the folder cannot be made.
    Entries are keyed by the script's text, its name, the grammar and the modules of the AST
    and its builder, so a change to any of them is a miss; a stale or broken entry is ignored."""
    where = os.environ.get("CARDSCRIPT_CACHE", "")
    if where == "off":
        return None
    base = Path(where) if where else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardscript"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return base


@functools.lru_cache(maxsize=1)
def _front_end_version() -> str:
    """A hash of the grammar and of every module of the AST and builder packages (sorted,
    by path within the front end), which decide what a cached AST holds."""
    from cardscript.dsl.front.parse import grammar_text

    front = Path(__file__).parent
    h = hashlib.sha256(grammar_text().encode())
    for module in sorted(p for package in ("ast", "build") for p in (front / package).glob("*.py")):
        h.update(module.relative_to(front).as_posix().encode() + b"\0")
        h.update(module.read_bytes())
    return h.hexdigest()[:16]


def _entry(name: str, text: str) -> Path | None:
    base = _disk_cache()
    if base is None:
        return None
    h = hashlib.sha256(f"{_front_end_version()}\0{name}\0{text}".encode()).hexdigest()
    return base / f"ast-{h[:32]}.pickle"


def _disk_load(name: str, text: str) -> A.Script | None:
    path = _entry(name, text)
    if path is None or not path.is_file():
        return None
    try:
        with open(path, "rb") as fh:
            script = pickle.load(fh)  # our own cache of our own AST classes
    except Exception:  # noqa: BLE001 - unpickling a truncated or foreign file may raise anything: rebuild
        return None
    return script if isinstance(script, A.Script) and script.file == name else None


def _disk_store(name: str, text: str, script: A.Script) -> None:
    path = _entry(name, text)
    if path is None:
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".ast-")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(script, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass

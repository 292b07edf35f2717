"""A cache of built ASTs: per process, and on disk between runs (like Python's .pyc).

The disk cache (``docs/cache.md``) holds data, never code: one JSON file per script,
``ast-<key>.json``, decoded only into the AST's own classes (:mod:`.ast_json`). It lives
in ``$CARDSCRIPT_CACHE`` or ``$XDG_CACHE_HOME/cardscript`` (default ``~/.cache/cardscript``),
made with mode 0700. Because whoever can write there chooses what the compiler reads,
the folder is used only when it is a real folder (not a symlink) owned by the current
user and writable by nobody else, and an entry only when it is a regular file of that
user, writable by nobody else and at most :data:`MAX_ENTRY_BYTES`; anything else is
skipped silently and the script parsed again. A write goes to a temporary file in the
folder and is renamed into place; after it the least recently used entries beyond
:data:`MAX_ENTRIES` or :data:`MAX_BYTES` are removed. Off: ``CARDSCRIPT_CACHE=off`` or
``cardscript --no-cache`` (:func:`set_disk_cache`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import secrets
import stat
import time
from importlib import resources
from pathlib import Path

from cardscript.dsl.front import ast as A
from cardscript.dsl.front import ast_json

#: At most this many entries in the folder (the built-in games need 25) ...
MAX_ENTRIES = 1000
#: ... and this many bytes in all (the built-in games need about 0.5 MB).
MAX_BYTES = 32 * 2**20
#: An entry larger than this is neither written nor read.
MAX_ENTRY_BYTES = 4 * 2**20
FORMAT = 1
_PREFIX, _SUFFIX, _TEMP = "ast-", ".json", ".tmp"
#: the kinds of entries, by prefix: ASTs, and check results (:mod:`cardscript.dsl.front.check_cache`);
#: the bounds count them all
_KINDS = (_PREFIX, "check-")
_LEGACY = ".pickle"  # entries of the old cache: never read (a pickle is code), removed when pruning
_STALE_TEMP = 3600.0  # seconds after which a temporary file is left over from a crash
# The folder and its entries are opened relative to a checked descriptor of the folder, so a
# swap between the check and the use cannot redirect them; without these calls, no disk cache.
_SUPPORTED = (hasattr(os, "geteuid") and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")
              and {os.open, os.rename, os.unlink, os.stat} <= os.supports_dir_fd and os.scandir in os.supports_fd)

_AST_CACHE: dict[tuple[str, str], A.Script] = {}
_enabled = True


def build_cached(text: str, name: str) -> A.Script:
    """Build a script's AST once per process (a shared library is used by every game),
    and keep it on disk between runs (see the module docstring), like Python's .pyc files.

    Raises:
        CompileError: the script has a syntax error (see :func:`cardscript.dsl.front.build.build`).
    """
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


def remember(text: str, name: str, script: A.Script) -> None:
    """Hold ``script`` as the AST of ``text`` in this process (not on disk), so that
    :func:`build_cached` returns it: the language server builds an edited script item by item
    (:mod:`cardscript.dsl.lsp.incremental`, the same AST) and the loader then finds it here."""
    if len(_AST_CACHE) > 512:
        _AST_CACHE.clear()
    _AST_CACHE[(name, text)] = script


def build(text: str, name: str) -> A.Script:
    """:func:`cardscript.dsl.front.build.build`, imported on a miss only: the builder imports
    the parser and Lark, which a run served from the cache never needs.

    Raises:
        CompileError: the script has a syntax error.
    """
    from cardscript.dsl.front.build import build as build_script

    return build_script(text, name)


def set_disk_cache(enabled: bool) -> bool:
    """Turn the disk cache on or off for this process (``--no-cache``); returns the previous
    setting. ``CARDSCRIPT_CACHE=off`` turns it off whatever this says."""
    global _enabled
    previous, _enabled = _enabled, enabled
    return previous


@functools.lru_cache(maxsize=1)
def _disk_cache() -> Path | None:
    """``$CARDSCRIPT_CACHE`` or ``$XDG_CACHE_HOME/cardscript`` (default ~/.cache/cardscript),
    made with mode 0700 if missing; None when caching is off (``CARDSCRIPT_CACHE=off``), the
    platform lacks the calls the checks need, or the folder cannot be made.
    Entries are keyed by the script's text, its name, the grammar and the modules of the AST,
    its builder and its JSON form, so a change to any of them is a miss."""
    where = os.environ.get("CARDSCRIPT_CACHE", "")
    if where.lower() == "off" or not _SUPPORTED:
        return None
    try:
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        base = Path(where) if where else (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "cardscript"
        base.mkdir(parents=True, mode=0o700, exist_ok=True)
    except (OSError, RuntimeError):  # RuntimeError: no home folder
        return None
    return base


@functools.lru_cache(maxsize=1)
def _front_end_version() -> str:
    """A hash of the grammar and of every module of the AST and builder packages and of the
    JSON form (sorted, by path within the front end), which decide what a cached AST holds."""
    front = Path(__file__).parent
    h = hashlib.sha256(grammar_source().encode())
    modules = [p for package in ("ast", "build") for p in (front / package).glob("*.py")]
    for module in sorted([*modules, front / "ast_json.py"]):
        h.update(module.relative_to(front).as_posix().encode() + b"\0")
        h.update(module.read_bytes())
    return h.hexdigest()[:16]


def grammar_source() -> str:
    """The grammar's text, as :func:`cardscript.dsl.front.parse.grammar_text` reads it (read
    here so that computing a key does not import the parser and Lark)."""
    return resources.files("cardscript.grammar").joinpath("cardscript.lark").read_text(encoding="utf-8")


#: a comment of the grammar: '//' to the end of the line, outside a quoted literal
_GRAMMAR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*')


def grammar_code(text: str | None = None) -> str:
    """The grammar's text (``text``, else :func:`grammar_source`) without its ``//``
    comments, for whoever lists its literals: a word quoted in a comment ('"discard
    pile"') is no keyword."""
    return _GRAMMAR_COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "",
                                grammar_source() if text is None else text)


def _key(name: str, text: str) -> str:
    material = f"{FORMAT}\0{_front_end_version()}\0{name}\0{text}"
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


def _trusted(st: os.stat_result, kind: int) -> bool:
    """Of the file type ``kind`` (stat.S_IFDIR / S_IFREG), the current user's, and writable by
    nobody else."""
    return stat.S_IFMT(st.st_mode) == kind and st.st_uid == os.geteuid() and not st.st_mode & 0o022


def _open_folder() -> int | None:
    """A descriptor of the cache folder when it is on and trusted, else None."""
    base = _disk_cache() if _enabled else None
    if base is None:
        return None
    try:
        fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:  # missing, or a symlink (ELOOP / ENOTDIR)
        return None
    try:
        if _trusted(os.fstat(fd), stat.S_IFDIR):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _disk_load(name: str, text: str) -> A.Script | None:
    key = _key(name, text)
    raw = read_entry(f"{_PREFIX}{key[:32]}{_SUFFIX}")
    if raw is None:
        return None
    try:
        data = ast_json.loads(raw, name)
        return data["ast"] if data.get("format") == FORMAT and data.get("key") == key else None
    except (OSError, ValueError, TypeError):  # a broken or foreign entry is a miss
        return None


def enabled() -> bool:
    """Whether the disk cache may be used at all (not ``--no-cache``, not ``CARDSCRIPT_CACHE=off``,
    a platform with the calls the checks need)."""
    return _enabled and _disk_cache() is not None


def read_entry(name: str) -> bytes | None:
    """The bytes of the entry ``name`` of the cache folder when the folder and the entry are
    trusted (see the module docstring), else None. Used for every kind of entry (ASTs here,
    check results in :mod:`cardscript.dsl.front.check_cache`); the caller decodes and checks."""
    fd = _open_folder()
    if fd is None:
        return None
    try:
        return _read_entry(fd, name)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_entry(folder: int, name: str) -> bytes | None:
    """The bytes of a trusted entry (marked as just used), else None. O_NONBLOCK: a FIFO
    planted under an entry's name must not hang the open."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not _trusted(st, stat.S_IFREG) or st.st_size > MAX_ENTRY_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            raw = fh.read(MAX_ENTRY_BYTES + 1)
        if len(raw) > MAX_ENTRY_BYTES:
            return None
        os.utime(fd)  # least recently used goes first when pruning
        return raw
    finally:
        os.close(fd)


def _disk_store(name: str, text: str, script: A.Script) -> None:
    try:
        key = _key(name, text)
        payload = ast_json.dumps(script, {"format": FORMAT, "key": key}).encode("utf-8")
    except (TypeError, ValueError, RecursionError):  # not data, or too deep to encode: not cached
        return
    write_entry(f"{_PREFIX}{key[:32]}{_SUFFIX}", payload)


def write_entry(name: str, payload: bytes) -> None:
    """Store ``payload`` as the entry ``name`` (``<kind>-<hex>.json``) when the folder is
    trusted and the payload within :data:`MAX_ENTRY_BYTES`: through a temporary file renamed
    into place, then prune the folder to its bounds. A failure leaves nothing behind."""
    if len(payload) > MAX_ENTRY_BYTES:
        return
    fd = _open_folder()
    if fd is None:
        return
    temp = f".{name.split('-', 1)[0]}-{secrets.token_hex(8)}{_TEMP}"
    try:
        out = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=fd)
        with os.fdopen(out, "wb") as fh:
            fh.write(payload)
        os.replace(temp, name, src_dir_fd=fd, dst_dir_fd=fd)
        _prune(fd)
    except OSError:
        _unlink(fd, temp)
    finally:
        os.close(fd)


def _prune(folder: int) -> None:
    """Remove the least recently used entries beyond the bounds, entries of the old pickle
    cache, and temporary files left by a crash."""
    now = time.time()
    entries: list[tuple[float, int, str]] = []
    with os.scandir(folder) as listing:
        for item in listing:
            name = item.name
            try:
                st = item.stat(follow_symlinks=False)
            except OSError:
                continue
            if name.startswith(_PREFIX) and name.endswith(_LEGACY):
                _unlink(folder, name)
            elif name.startswith(tuple("." + p for p in _KINDS)) and name.endswith(_TEMP):
                if now - st.st_mtime > _STALE_TEMP:
                    _unlink(folder, name)
            elif name.startswith(_KINDS) and name.endswith(_SUFFIX):
                entries.append((st.st_mtime, st.st_size, name))
    entries.sort(reverse=True)
    total = 0
    for count, (_mtime, size, name) in enumerate(entries):
        total += size
        if count >= MAX_ENTRIES or total > MAX_BYTES:
            _unlink(folder, name)


def _unlink(folder: int, name: str) -> None:
    with contextlib.suppress(OSError):  # already gone (another process pruned it), or not ours to remove
        os.unlink(name, dir_fd=folder)

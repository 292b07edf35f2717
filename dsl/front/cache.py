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
import secrets
import stat
import time
from pathlib import Path

from cardscript.dsl.front import ast as A
from cardscript.dsl.front import ast_json
from cardscript.dsl.front.build import build

#: At most this many entries in the folder (the built-in games need 25) ...
MAX_ENTRIES = 1000
#: ... and this many bytes in all (the built-in games need about 0.5 MB).
MAX_BYTES = 32 * 2**20
#: An entry larger than this is neither written nor read.
MAX_ENTRY_BYTES = 4 * 2**20
FORMAT = 1
_PREFIX, _SUFFIX, _TEMP = "ast-", ".json", ".tmp"
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
    from cardscript.dsl.front.parse import grammar_text

    front = Path(__file__).parent
    h = hashlib.sha256(grammar_text().encode())
    modules = [p for package in ("ast", "build") for p in (front / package).glob("*.py")]
    for module in sorted([*modules, front / "ast_json.py"]):
        h.update(module.relative_to(front).as_posix().encode() + b"\0")
        h.update(module.read_bytes())
    return h.hexdigest()[:16]


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
    fd = _open_folder()
    if fd is None:
        return None
    try:
        key = _key(name, text)
        raw = _read_entry(fd, f"{_PREFIX}{key[:32]}{_SUFFIX}")
        if raw is None:
            return None
        data = ast_json.loads(raw, name)
        return data["ast"] if data.get("format") == FORMAT and data.get("key") == key else None
    except (OSError, ValueError, TypeError):  # a broken or foreign entry is a miss
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
    if len(payload) > MAX_ENTRY_BYTES:
        return
    fd = _open_folder()
    if fd is None:
        return
    temp = f".{_PREFIX}{secrets.token_hex(8)}{_TEMP}"
    try:
        out = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=fd)
        with os.fdopen(out, "wb") as fh:
            fh.write(payload)
        os.replace(temp, f"{_PREFIX}{key[:32]}{_SUFFIX}", src_dir_fd=fd, dst_dir_fd=fd)
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
            elif name.startswith("." + _PREFIX) and name.endswith(_TEMP):
                if now - st.st_mtime > _STALE_TEMP:
                    _unlink(folder, name)
            elif name.startswith(_PREFIX) and name.endswith(_SUFFIX):
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

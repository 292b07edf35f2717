"""Files from strangers: reading scripts inside their package, writing outputs safely.

Every script, manifest and game log a command reads goes through :func:`read_text` (or
:func:`read_bytes`): the path's symbolic links are resolved and the resolved file must
lie inside one of the allowed roots (the package being loaded); it must be a regular
file (a FIFO, device or socket could block or never end) and is read only up to
``limit`` bytes (:data:`MAX_SCRIPT_BYTES` for scripts and manifests). Text is UTF-8; a
leading byte-order mark is dropped and CRLF and lone CR line ends become LF
(:func:`normalise`), so every command sees the same text.

Outputs go through :func:`write_text`: a new path or an existing regular file is
replaced whole (a temp file in the same folder, then a rename; nothing is left behind
on failure); an existing device or FIFO (``/dev/null``, ``/dev/full``, a pipe) is
written through; ``-`` is standard output; a symbolic link is refused, since replacing
it would cut the link and writing through it would write wherever it points.

Folder walks (:func:`walk`) list entries sorted by name and never enter a linked folder,
so a link loop cannot make them run forever.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

#: The most bytes a script or a manifest may hold (1 MiB; the largest built-in script holds 42 kB).
MAX_SCRIPT_BYTES = 1 << 20
#: The most bytes a game log may hold (64 MiB; a 6-player game logs under 1 MB).
MAX_LOG_BYTES = 64 << 20


class FileProblem(Exception):
    """A file that cannot be read or written as asked.

    Attributes:
        code: the diagnostic code: CS001 (cannot be read or written), CS003 (outside the package).
        message: what is wrong, naming the file.
        hint: how to fix it ("" when there is nothing to add).
        line, column: the 1-based place in the file (a byte that is not UTF-8), or 0, 0.
    """

    def __init__(self, code: str, message: str, hint: str = "", line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint
        #: where in the file the problem lies (1-based), 0 when it is the whole file's
        self.line, self.column = line, column


def normalise(text: str) -> str:
    """Drop a leading byte-order mark; turn CRLF and lone CR line ends into LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def inside(path: Path, roots: Iterable[Path]) -> bool:
    """Whether ``path`` (resolved) is one of ``roots`` or below one of them (resolved here)."""
    for root in roots:
        real = root.resolve()
        if path == real or real in path.parents:
            return True
    return False


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _too_big(name: str, limit: int) -> FileProblem:
    return FileProblem("CS001", f"cannot read {name}: it is larger than {limit // 1024} KiB",
                       "scripts and manifests are limited in size (docs/cli.md, 'Limits')")


def read_bytes(path: str | Path, roots: Iterable[Path] | None = None, limit: int = MAX_SCRIPT_BYTES,
               shown: str | None = None) -> bytes:
    """The bytes of a regular file inside the allowed roots, at most ``limit`` of them.

    Args:
        path: the file (its symbolic links are resolved first).
        roots: folders the resolved file must lie in; None: anywhere (a path the user gave).
        limit: the most bytes the file may hold.
        shown: the file's name in messages (default: ``path``).

    Raises:
        FileProblem: CS003 when the file lies outside the roots; CS001 when it is missing,
            not a regular file, larger than ``limit`` or unreadable.
    """
    name = shown or str(path)
    try:
        real = Path(path).resolve(strict=True)
    except FileNotFoundError:
        raise FileProblem("CS001", f"cannot read {name}: No such file or directory") from None
    except (OSError, RuntimeError) as exc:  # a link loop
        raise FileProblem("CS001", f"cannot read {name}: {getattr(exc, 'strerror', None) or exc}") from None
    if roots is not None:
        roots = list(roots)
        if not inside(real, roots):
            where = ", ".join(str(r) for r in roots)
            raise FileProblem("CS003", f"{name} leads outside its package ({where})",
                              "a script may only read scripts inside its own package; copy the file in "
                              "rather than linking to it")
    try:
        fd = _open_regular(real, name, "give a script file")
        try:
            chunks, size = [], 0
            while size <= limit:
                chunk = os.read(fd, min(1 << 16, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
    except OSError as exc:
        raise FileProblem("CS001", f"cannot read {name}: {exc.strerror or exc.__class__.__name__}") from None
    if size > limit:
        raise _too_big(name, limit)
    return b"".join(chunks)


def _open_regular(real: str | Path, name: str, hint: str) -> int:
    """A read-only descriptor of ``real``, which must be a regular file.

    Raises:
        FileProblem: CS001 when it is not a regular file.
        OSError: it cannot be opened.
    """
    mode = os.stat(real).st_mode
    if not stat.S_ISREG(mode):
        raise FileProblem("CS001", f"cannot read {name}: it is {_kind(mode)}, not a regular file", hint)
    # O_NONBLOCK: should the file be swapped for a FIFO after the check, opening it cannot block
    fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise FileProblem("CS001", f"cannot read {name}: not a regular file", hint)
    return fd


def open_regular(path: str | Path, hint: str = "") -> BinaryIO:
    """``path`` opened for reading in binary, which must be a regular file (a FIFO could
    block, a device such as ``/dev/zero`` never end): for files too large for
    :func:`read_bytes`, read as a stream (a results file of ``simulate --out``).

    Raises:
        FileProblem: CS001 when it is missing, not a regular file or cannot be opened.
    """
    try:
        fd = _open_regular(os.path.realpath(path), str(path), hint)
    except OSError as exc:
        raise FileProblem("CS001", f"cannot read {path}: {exc.strerror or exc.__class__.__name__}") from None
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
    return os.fdopen(fd, "rb")


def decode(data: bytes, name: str) -> str:
    """UTF-8 text, normalised (:func:`normalise`).

    Raises:
        FileProblem: CS001 when the bytes are not UTF-8.
    """
    try:
        return normalise(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line, column = line_column(data, exc.start)
        raise FileProblem("CS001", f"{name} is not UTF-8 text: {where_byte(data, exc.start)} cannot be read",
                          "save the script as UTF-8", line, column) from None


def line_column(data: bytes, at: int) -> tuple[int, int]:
    """The 1-based line and column of byte offset ``at``, the column counted in characters
    of the line's readable start (an undecodable byte counts as one)."""
    start = data.rfind(b"\n", 0, at) + 1
    return data.count(b"\n", 0, at) + 1, len(data[start:at].decode("utf-8", errors="replace")) + 1


def where_byte(data: bytes, at: int) -> str:
    """'byte B (line L, column C)' of byte offset ``at`` in ``data``, all 1-based."""
    line, column = line_column(data, at)
    return f"byte {at + 1} (line {line}, column {column})"


def read_text(path: str | Path, roots: Iterable[Path] | None = None, limit: int = MAX_SCRIPT_BYTES,
              shown: str | None = None) -> str:
    """The normalised UTF-8 text of a file read by :func:`read_bytes` (same arguments); an
    editor's unsaved text of the file instead, inside :func:`overlay`.

    Raises:
        FileProblem: as :func:`read_bytes`, and CS001 when the file is not UTF-8.
    """
    data = read_bytes(path, roots, limit, shown)  # the checks hold for an unsaved text too
    if _OVERLAY:
        text = _OVERLAY.get(os.path.realpath(path))
        if text is not None:
            if len(text.encode("utf-8", "surrogatepass")) > limit:
                raise _too_big(shown or str(path), limit)
            return normalise(text)
    return decode(data, shown or str(path))


# language server area (issue 15): an editor's unsaved buffers stand for their files
_OVERLAY: dict[str, str] = {}


@contextlib.contextmanager
def overlay(texts: dict[str, str]) -> Iterator[None]:
    """Within the block, :func:`read_text` of a file (by its resolved path) gives the text
    given here instead of the file's: the language server checks an unsaved buffer in the
    program of its game. Not re-entrant across threads (the server checks on one thread).

    Args:
        texts: file path -> its text (paths are resolved here).
    """
    saved = dict(_OVERLAY)
    _OVERLAY.update({os.path.realpath(k): v for k, v in texts.items()})
    try:
        yield
    finally:
        _OVERLAY.clear()
        _OVERLAY.update(saved)


def walk(folder: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    """The files with one of ``suffixes`` under ``folder``, depth first, sorted by name.

    Linked folders are not entered (a link loop would never end); linked files are listed,
    and their reading checks where they lead. Folders that cannot be listed are skipped,
    and so are hidden ones (``.git``, ``.venv``: a virtual environment's site-packages
    holds the built-in games once more). The walk keeps its own stack, so no depth of
    folders can reach Python's recursion limit.
    """
    stack: list[Iterator[os.DirEntry[str]]] = []
    try:
        stack.append(iter(sorted(os.scandir(folder), key=lambda e: e.name)))
    except OSError:
        return
    parents = [folder]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            parents.pop()
            continue
        path = parents[-1] / entry.name
        try:
            if entry.is_dir(follow_symlinks=False):
                if not entry.name.startswith("."):
                    stack.append(iter(sorted(os.scandir(path), key=lambda e: e.name)))
                    parents.append(path)
            elif path.suffix in suffixes and path.exists():  # a FIFO too: reading it says what it is
                yield path
        except OSError:
            continue


# ---------------------------------------------------------------- outputs
def write_text(path: str | Path, text: str) -> None:
    """Write an output file: replace a regular file whole, keeping its permission bits (a
    private output stays private; a new file gets 0o666 less the umask), write through a
    device or FIFO.

    Args:
        path: the file; ``-`` is standard output.
        text: the content (written as UTF-8).

    Raises:
        FileProblem: CS001 for a symbolic link, a folder, a regular file nobody may write
            (no write bit: replacing it through a rename would bypass that), a full device
            or any other write error (a temp file is never left behind).
    """
    data = text.encode("utf-8")
    if str(path) == "-":
        _write_stdout(text)
        return
    target = Path(path)
    try:
        st: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise FileProblem("CS001", f"cannot write {path}: {exc.strerror}") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise FileProblem("CS001", f"{path} is a symbolic link (to {os.readlink(target)}): cardscript does not "
                          "replace links nor write through them", "write to the file it points to, or another path")
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise FileProblem("CS001", f"cannot write {path}: it is a folder")
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_through(target, data)
        return
    if st is not None and not st.st_mode & 0o222:
        raise FileProblem("CS001", f"cannot write {path}: the file is read-only",
                          "make it writable (chmod u+w) to replace it, or write to another path")
    _replace(target, data, st.st_mode & 0o7777 if st is not None else None)


def _write_through(target: Path, data: bytes) -> None:
    """A device or FIFO: opened without creating or truncating (no reader on a FIFO: an error, not a hang)."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        why = exc.strerror
        if exc.errno == errno.ENXIO:
            fifo = stat.S_ISFIFO(os.stat(target).st_mode)
            why = "nothing is reading the FIFO" if fifo else "the device cannot be opened for writing"
        raise FileProblem("CS001", f"cannot write {target}: {why}") from None
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        _write_all(fd, data, str(target))
    finally:
        os.close(fd)


def _write_stdout(text: str) -> None:
    try:
        out = sys.stdout
        if hasattr(out, "buffer"):
            out.flush()
            out.buffer.write(text.encode("utf-8"))
        else:
            out.write(text)
        out.flush()
    except BrokenPipeError:
        raise  # the reader went away: the command stops quietly
    except OSError as exc:
        raise FileProblem("CS001", f"cannot write to standard output: {exc.strerror or exc}") from None


def _write_all(fd: int, data: bytes, name: str) -> None:
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        raise FileProblem("CS001", f"cannot write {name}: {exc.strerror or exc}") from None


def _replace(target: Path, data: bytes, mode: int | None) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
        try:
            _write_all(fd, data, str(target))
        finally:
            os.close(fd)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        raise FileProblem("CS001", f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        if tmp and os.path.lexists(tmp):
            os.unlink(tmp)

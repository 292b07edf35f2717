"""Game logs (``play --log``) as ``replay`` reads them: a log comes from anyone.

The log is read as a regular file of at most :data:`cardscript.dsl.files.MAX_LOG_BYTES`,
each line at most :data:`MAX_LINE` characters; its header is validated against
:data:`HEADER_SCHEMA` (closed) before any value is used; no message echoes more than
:data:`EXCERPT` characters of it. The scripts the header names (the game, ``--with``
expansions, variant and mixed-set paths) are stored relative to the log's folder
(:func:`header_sources`), and read back from there (:func:`replay_sources`): they must
lie inside the log's folder, the current folder or the built-in scripts.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import click

from cardscript.dsl.files import MAX_LOG_BYTES, FileProblem, inside, read_bytes

#: The longest line a log may hold, in characters (a logged entry holds under 1,000).
MAX_LINE = 1 << 20
#: The most characters of a log line a message shows.
EXCERPT = 200

_NAME = {"type": "string", "minLength": 1, "maxLength": 4096}
_NAMES = {"type": "array", "items": _NAME, "maxItems": 256}
#: The header line of a log (format 1), as ``play --log`` writes it.
HEADER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["t", "cardscript", "game", "players", "seed"],
    "properties": {
        "t": {"const": "header"},
        "cardscript": {"type": "integer", "const": 1},
        "game": _NAME,
        "players": {"type": "integer", "minimum": 1, "maximum": 10_000},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2 ** 63 - 1},
        "bots": {"type": "array", "items": {"type": "string", "maxLength": 64}, "maxItems": 10_000},
        "scripts": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
        "with": _NAMES,
        "variants": _NAMES,
        "mix": _NAMES,
    },
}


def excerpt(text: str) -> str:
    """At most :data:`EXCERPT` characters of a log line, saying how long it was if cut."""
    return text if len(text) <= EXCERPT else f"{text[:EXCERPT]}... ({len(text)} characters)"


def fingerprint(sources: dict[str, str]) -> str:
    """A hash of a program's scripts, by content only: the same from any current folder."""
    h = hashlib.sha256()
    for digest in sorted(hashlib.sha256(text.encode()).hexdigest() for text in sources.values()):
        h.update(digest.encode())
    return h.hexdigest()[:16]


def legacy_fingerprint(sources: dict[str, str]) -> str:
    """The hash logs written before :func:`fingerprint` hold (file names as shown, then text)."""
    h = hashlib.sha256()
    for name in sorted(sources):
        h.update(name.encode())
        h.update(sources[name].encode())
    return h.hexdigest()[:16]


def read_log(log_file: str) -> list[dict[str, Any]]:
    """The entries of a log written by 'play --log', checked enough to replay safely.

    Raises:
        click.ClickException: with the line of the first problem (exit 1).
    """
    def bad(line: int, why: str) -> click.ClickException:
        return click.ClickException(f"{log_file}:{line}: not a cardscript log ({why})")

    try:
        text = read_bytes(log_file, limit=MAX_LOG_BYTES).decode("utf-8")
    except FileProblem as exc:
        raise click.ClickException(exc.message) from None
    except UnicodeDecodeError:
        raise bad(1, "not UTF-8 text") from None
    entries: list[dict[str, Any]] = []
    for no, line in enumerate(text.split("\n"), 1):  # not splitlines: U+2028 may sit inside a string
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise bad(no, f"a line of {len(line)} characters; a log line holds at most {MAX_LINE}")
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise bad(no, f"bad JSON: {exc.msg}") from None
        except (ValueError, RecursionError):  # a number of too many digits; arrays nested too deeply
            raise bad(no, "a value too large or nested too deeply") from None
        if not isinstance(entry, dict):
            raise bad(no, "a line is not a JSON object")
        if not entries:
            _check_header(entry, bad)
        elif entry.get("t") == "decision" and not (isinstance(entry.get("chose"), list)
                                                   and all(type(i) is int for i in entry["chose"])):
            raise bad(no, "a decision without its choice")
        entries.append(entry)
    if not entries:
        raise bad(1, "no header line")
    return entries


def _check_header(head: dict[str, Any], bad: Any) -> None:
    import jsonschema  # type: ignore[import-untyped]  # no type stubs are installed for it

    if head.get("t") != "header":
        raise bad(1, "no header line")
    if head.get("cardscript") != 1:
        raise bad(1, f"log format {excerpt(repr(head.get('cardscript')))}: this cardscript reads format 1")
    errors = list(_strict_validator(jsonschema)(HEADER_SCHEMA).iter_errors(head))
    if errors:
        e = min(errors, key=lambda e: [str(p) for p in e.absolute_path])  # the first in the header
        where = "/".join(str(p) for p in e.absolute_path)
        what = f"the header's {where!r} " if where else "the header "
        if e.validator == "additionalProperties":
            raise bad(1, f"{what}has an unknown key: {excerpt(e.message)}")
        raise bad(1, f"{what}is not valid: {excerpt(e.message)}")


def _strict_validator(jsonschema: Any) -> Any:
    """Draft 2020-12, but an "integer" is a real int: JSON Schema counts 1.0 and 5e0 as
    integers, and a float seed or player count would reach the engine (a TypeError)."""
    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", lambda _, value: type(value) is int)
    return jsonschema.validators.extend(base, type_checker=checker)


# ---------------------------------------------------------------- the scripts a log names
def _is_builtin_game(name: str) -> bool:
    from cardscript.dsl.front.loader import builtin_games

    return "/" not in name and "." not in name and name in builtin_games()


def header_sources(log_file: str, game: str, with_paths: tuple[str, ...], variants: tuple[str, ...],
                   mixes: tuple[str, ...]) -> dict[str, Any]:
    """The header values naming scripts, so that a replay from any folder finds them: a
    path inside the log's folder relative to it (``./cards``: the log moves with its
    scripts), any other path absolute; names as given."""
    base = Path(os.path.abspath(log_file if log_file != "-" else "x")).parent

    def stored(value: str) -> str:
        if not value or not Path(value).exists():
            return value
        full = Path(os.path.abspath(value))
        if full != base and base not in full.parents:
            return full.as_posix()
        rel = full.relative_to(base).as_posix()
        return "./" if rel == "." else rel if "/" in rel else f"./{rel}"

    out: dict[str, Any] = {"game": stored(game)}
    if with_paths:
        out["with"] = [stored(w) for w in with_paths]
    if variants:
        out["variants"] = [stored(v) for v in variants]
    if mixes:
        out["mix"] = [stored(m) for m in mixes]
    return out


def replay_sources(log_file: str, head: dict[str, Any], what: str = "log") -> tuple[str, tuple[str, ...],
                                                                                   tuple[str, ...], tuple[str, ...]]:
    """(game, expansions, variants, mixed sets) to compile for a log's header (or, with
    ``what`` "save file", for a save file of ``play --resume``: the same rule holds).

    A value with a '/' (or any ``with`` value) is a path relative to the log's folder; a
    game or set name is a built-in game; a variant name is looked up in the game.

    Raises:
        click.ClickException: a path outside the allowed roots (the log's folder, the
            current folder, the built-in scripts), or naming a file that is not a script.
    """
    from cardscript.dsl.front.loader import USABLE_SUFFIXES, builtin_root

    base = Path(os.path.abspath(log_file)).parent
    roots = [base, Path.cwd(), builtin_root()]
    where, verb = (f"{log_file}:1", "replay a log") if what == "log" else (log_file, f"resume a {what}")

    def path(value: str, suffixes: tuple[str, ...]) -> str:
        p = Path(value) if os.path.isabs(value) else base / value
        real = p.resolve()
        if not inside(real, roots):
            raise click.ClickException(
                f"{where}: the {what} names {excerpt(value)!r}, outside the {what}'s folder and the current folder; "
                f"{verb} from the folder holding its scripts, or keep the {what} beside them")
        if real.is_file() and real.suffix not in suffixes:
            raise click.ClickException(f"{where}: the {what} names {excerpt(value)!r}, which is not a script")
        return str(p)

    def game_or_set(value: str) -> str:
        if _is_builtin_game(value):
            return str(builtin_root() / value)
        if "/" in value or (base / value).exists():
            return path(value, USABLE_SUFFIXES)
        return value  # an unknown name: compiling says so, with "did you mean"

    game = game_or_set(head["game"])
    with_paths = tuple(path(w, USABLE_SUFFIXES) for w in head.get("with", ()))
    variants = tuple(path(v, (".variant",)) if "/" in v else v for v in head.get("variants", ()))
    mixes = tuple(game_or_set(m) for m in head.get("mix", ()))
    return game, with_paths, variants, mixes


def write_game_log(log_file: str, result: Any, bots: list[str], seed: int, program: Any, game: str,
                   with_paths: tuple[str, ...], variants: tuple[str, ...], mixes: tuple[str, ...]) -> None:
    """Write ``--log FILE`` (``-``: stdout): a header line (players, seed, bots, the scripts'
    fingerprint and sources) and the game's log, one JSON object a line, written atomically;
    what ``cardscript replay`` reads. ``play`` and ``play --human`` both write it."""
    from cardscript.dsl.cli.common import write_atomic

    header = {"t": "header", "cardscript": 1, "players": len(bots), "seed": seed, "bots": bots,
              "scripts": fingerprint(program.sources),
              **header_sources(log_file, game, with_paths, variants, mixes)}
    body = "".join(json.dumps(e, sort_keys=True, ensure_ascii=False) + "\n" for e in [header, *result.log])
    write_atomic(log_file, body)
    click.echo(f"log written to {log_file} ({len(result.log)} entries)", err=log_file == "-")

"""The LALR parser prebuilt and shipped as data (``grammar/cardscript.parser.json``).

Building the LALR tables from the grammar costs a few hundred milliseconds at every
start. Lark's own answer (its ``cache`` option) is a pickle in the system temp folder under a
predictable name, which anyone on the machine can plant; and a pickle runs code when it
is loaded. So the tables ship inside the package as plain JSON, written by
``python -m cardscript.dsl.front.parse --write-tables``, and are read back through
Lark's own deserializer (the path of ``lark/tools/standalone.py``), which builds only
Lark's grammar classes. A tables file that is missing, broken or made from another
grammar, other options or another Lark version is not used: the parser is then built
from the grammar in memory, never cached on disk.

The file (format 1) is one JSON object:

* ``grammar_sha256``, ``lark_version``, ``options``: what the tables were built from;
* ``tokens``: the names of the parse table's symbols, sorted (a token is its index);
* ``states``: per state, ``[token, action, argument]`` rows, 0 = shift (argument: the
  next state), 1 = reduce (argument: ``{"@": rule}``); states are numbered in the order
  a breadth-first walk from the start states meets them, so the file is the same for
  every build (Lark numbers them in an order that changes from run to run);
* ``start_states``, ``end_states``: start symbol -> state;
* ``memo``: Lark's shared terminals and rules, the list index being the ``"@"`` id;
* ``data``: the rest of :meth:`lark.Lark.memo_serialize` (rules, lexer, options).
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

FORMAT = 1
#: The file inside the package ``cardscript.grammar``.
TABLES_FILE = "cardscript.parser.json"
#: Options that are objects, given again when the tables are loaded (Lark's own list).
_LOAD_OPTIONS = ("postlex", "transformer", "lexer_callbacks", "use_bytes", "debug", "g_regex_flags", "regex",
                 "propagate_positions", "tree_class", "_plugins")
_SHIFT = 0


def grammar_sha256(grammar: str) -> str:
    """The hex SHA-256 of the grammar text (UTF-8), which names the tables it belongs to."""
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def build(grammar: str, options: dict[str, Any], postlex: Any) -> Lark:
    """The LALR parser built from the grammar in memory (no cache of any kind).

    Args:
        grammar: the Lark grammar text.
        options: JSON-able Lark options (parser, lexer, ...).
        postlex: the post-lexer instance (the indenter), or None.
    """
    return Lark(grammar, postlex=postlex, **options)


def tables_of(parser: Lark, grammar: str, options: dict[str, Any]) -> dict[str, Any]:
    """The JSON-able tables of a parser built by :func:`build` from ``grammar`` and ``options``.

    Raises:
        ValueError: a state of the parse table cannot be reached from a start state.
    """
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data = json.loads(json.dumps(_without_load_options(data), default=_not_json))
    table = data["parser"].pop("parser")
    tokens, states, starts, ends = _canonical(table)
    return {
        "format": FORMAT, "grammar_sha256": grammar_sha256(grammar), "lark_version": lark.__version__,
        "options": options, "tokens": tokens, "states": states, "start_states": starts, "end_states": ends,
        "memo": [memo[i] for i in range(len(memo))], "data": data,
    }


def _without_load_options(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "options": {k: v for k, v in data["options"].items() if k not in _LOAD_OPTIONS}}


def _not_json(value: object) -> Any:
    raise TypeError(f"{type(value).__name__} in the parser tables is not data")


def _canonical(table: dict[str, Any]) -> tuple[list[str], list[list[list[Any]]], dict[str, int], dict[str, int]]:
    names: dict[int, str] = {int(k): v for k, v in table["tokens"].items()}
    order = sorted(names.values())
    index = {name: i for i, name in enumerate(order)}
    states: dict[int, dict[int, list[Any]]] = {int(s): {int(t): a for t, a in acts.items()}
                                               for s, acts in table["states"].items()}
    number: dict[int, int] = {}
    queue: deque[int] = deque()

    def meet(state: int) -> None:
        if state not in number:
            number[state] = len(number)
            queue.append(state)

    for start in sorted(table["start_states"]):
        meet(table["start_states"][start])
    while queue:
        for _tok, (action, arg) in sorted(states[queue.popleft()].items(), key=lambda kv: names[kv[0]]):
            if action == _SHIFT:
                meet(arg)
    if len(number) != len(states):
        raise ValueError(f"{len(states) - len(number)} states of the parse table cannot be reached")
    rows: list[list[list[Any]]] = [[] for _ in states]
    for state, acts in states.items():
        rows[number[state]] = [[index[names[t]], action, number[arg] if action == _SHIFT else arg]
                               for t, (action, arg) in sorted(acts.items(), key=lambda kv: names[kv[0]])]
    starts = {k: number[v] for k, v in sorted(table["start_states"].items())}
    ends = {k: number[v] for k, v in sorted(table["end_states"].items())}
    return order, rows, starts, ends


def dumps(tables: dict[str, Any]) -> str:
    """The text of a tables file: compact JSON, keys sorted, one newline at the end."""
    return json.dumps(tables, sort_keys=True, separators=(",", ":"), ensure_ascii=True) + "\n"


def load(tables: dict[str, Any], grammar: str, options: dict[str, Any], postlex: Any) -> Lark | None:
    """The parser rebuilt from tables, or None when they were not made from this grammar,
    these options and this Lark version (or are malformed).

    Args:
        tables: a decoded tables file (see the module docstring).
        grammar: the grammar text the parser must implement.
        options: the options it must have been built with.
        postlex: the post-lexer instance to attach (it is code, so it is not in the file).
    """
    if not (isinstance(tables, dict) and tables.get("format") == FORMAT
            and tables.get("grammar_sha256") == grammar_sha256(grammar)
            and tables.get("lark_version") == lark.__version__ and tables.get("options") == options):
        return None
    try:
        data = dict(tables["data"])
        data["parser"] = {**data["parser"], "parser": {
            "tokens": dict(enumerate(tables["tokens"])),
            "states": {s: {t: (action, arg) for t, action, arg in rows} for s, rows in enumerate(tables["states"])},
            "start_states": dict(tables["start_states"]), "end_states": dict(tables["end_states"]),
        }}
        memo = dict(enumerate(tables["memo"]))
        again = {k: v for k, v in options.items() if k in _LOAD_OPTIONS}
        return Lark._load_from_dict(data, memo, postlex=postlex, **again)
    except Exception:  # noqa: BLE001 - malformed tables may fail anywhere inside Lark: build from the grammar
        return None


def read() -> dict[str, Any] | None:
    """The shipped tables file decoded, or None when it is missing or not JSON."""
    try:
        text = resources.files("cardscript.grammar").joinpath(TABLES_FILE).read_text(encoding="utf-8")
        tables = json.loads(text)
    except (OSError, ValueError, RecursionError):
        return None
    return tables if isinstance(tables, dict) else None


def shipped_path() -> Path:
    """Where the tables file of the source tree (or installed package) is."""
    return Path(str(resources.files("cardscript.grammar").joinpath(TABLES_FILE)))

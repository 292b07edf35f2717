"""Building an edited script item by item, so that an edit re-parses only the item it is in.

A script is a sequence of top-level items, each starting at column 1 (a card, an effect,
a setup step...: :func:`cardscript.dsl.front.recover.blocks`). Each item is built on its
own and kept, by its text, in a bounded cache; an item whose text is unchanged but which
moved (lines were added above it) is not parsed again: its kept AST is shifted to its new
lines. The items together are the same AST as building the whole file
(tests/test_lsp_incremental.py checks it on every built-in script), and the result is
handed to the loader through :func:`cardscript.dsl.front.cache.remember`.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from cardscript.dsl.diagnostics import CompileError, Span
from cardscript.dsl.front import ast as A
from cardscript.dsl.front import cache
from cardscript.dsl.front.recover import _blocks

#: The most items kept (the built-in games hold about 700 top-level items).
MAX_ITEMS = 4000
#: (file name, item text) -> (the line it was built at, its items)
_ITEMS: OrderedDict[tuple[str, str], tuple[int, tuple[A.Item, ...]]] = OrderedDict()


def build_incremental(text: str, name: str) -> A.Script | None:
    """The AST of a script, built item by item (see the module docstring), and held for the
    loader (:func:`cardscript.dsl.front.cache.remember`).

    Args:
        text: the script's text (normalised: LF line ends).
        name: its file name as the loader shows it (the spans' file).

    Returns:
        The script; None when an item does not build alone (a syntax error, or an item
        whose lines do not start at column 1): the loader then builds the whole file, and
        reports its errors as ``cardscript check`` does.
    """
    items: list[A.Item] = []
    for line, block in _blocks(text):
        got = _item(block, line, name)
        if got is None:
            return None
        items.extend(got)
    script = A.Script(Span(name, 1, 1), name, tuple(items))
    cache.remember(text, name, script)
    return script


def _item(block: str, line: int, name: str) -> tuple[A.Item, ...] | None:
    key = (name, block)
    held = _ITEMS.get(key)
    if held is None:
        try:
            built = cache.build(block, name).items
        except CompileError:
            return None
        held = (1, built)
        if len(_ITEMS) >= MAX_ITEMS:
            _ITEMS.popitem(last=False)
    at, got = held
    if at != line:  # kept where it is now: the next check finds it in place
        got = tuple(shift(i, line - at) for i in got)
    _ITEMS[key] = (line, got)
    _ITEMS.move_to_end(key)
    return got


def shift(value: Any, lines: int) -> Any:
    """A copy of an AST value with every span moved down by ``lines`` lines.

    Raises:
        TypeError: the value holds something that is not AST data (a builder bug).
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is tuple:
        return tuple(shift(x, lines) for x in value)
    if kind is Span:
        return Span(value.file, value.line + lines, value.column,
                    value.end_line + lines if value.end_line else 0, value.end_column)
    if isinstance(value, A.Node):
        d = value.__dict__
        return kind(shift(d["span"], lines), *(shift(d[f], lines) for f in kind._fields))
    raise TypeError(f"{kind.__name__} is not AST data")

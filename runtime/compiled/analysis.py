"""What a compiled block needs to keep (see :mod:`cardscript.runtime.compiled`): which
statements may read the result of the statement before them."""

from __future__ import annotations

from typing import Any

from cardscript.runtime.effects import conditions as C
from cardscript.runtime.effects.base import Node

#: the nodes that read ``ctx.did`` ('if you do') or ``ctx.since`` ('if they were affected')
_READERS = (C.Did, C.Affected)


def reads_previous(node: Any, memo: dict[int, bool]) -> bool:
    """Whether running ``node`` may read the result or the start clock of the statement
    before it (``ctx.did``, ``ctx.since``), as a block stores them: it holds a
    :class:`~cardscript.runtime.effects.conditions.Did` or
    :class:`~cardscript.runtime.effects.conditions.Affected` anywhere, the block
    arguments of its calls included (they run on a copy of the caller's context).
    Conservative: a body that runs on a context of its own is looked into too. The bodies
    of script effects are not (a call runs them on a new context).

    Args:
        node: an effect object (or a list or tuple of them).
        memo: id(node) -> answer, shared by one compile.
    """
    key = id(node)
    known = memo.get(key)
    if known is not None:
        return known
    found = False
    todo: list[Any] = [node]
    while todo and not found:
        obj = todo.pop()
        if isinstance(obj, Node):
            if isinstance(obj, _READERS):
                found = True
            elif not obj._opaque:
                slots: tuple[str, ...] = obj.__slots__
                todo.extend(getattr(obj, name) for name in slots if not name.startswith("_"))
        elif isinstance(obj, (list, tuple)):
            todo.extend(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
    memo[key] = found
    return found

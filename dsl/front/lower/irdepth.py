"""Validating a deep JSON IR in pieces.

A JSON Schema validator descends the document recursively, several Python frames per
level, and the IR of a script nested as deep as the limits allow (``if`` in ``if`` ...,
a long sum) is a few hundred levels deep: past Python's recursion limit for the
validator, though not for the compiler. So the IR is cut, iteratively, at effect nodes
every :data:`CUT` levels: each piece is validated on its own (a node against the
schema's ``node`` definition), with the nodes cut out of it standing in as ``Nothing``,
which is valid wherever a node is; an error's path is the path in the whole IR.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: JSON levels of one piece: far below what the validator can descend
CUT = 50
_STANDIN: dict[str, Any] = {"Nothing": {}}


def iter_errors(schema: dict[str, Any], ir: dict[str, Any]) -> Iterator[Any]:
    """Every validation error of ``ir`` (jsonschema ``ValidationError``s, their paths
    in the whole IR), found in pieces of at most :data:`CUT` levels.

    The IR is changed while the pieces are validated and put back before this returns.
    """
    import jsonschema  # type: ignore[import-untyped]  # no type stubs are installed for it

    nodes = set(schema["$defs"]["node"]["properties"])
    cuts = _cuts(ir, nodes)
    for parent, key, _, _ in cuts:
        parent[key] = _STANDIN
    try:
        yield from jsonschema.Draft202012Validator(schema).iter_errors(ir)
        node = jsonschema.Draft202012Validator({"$ref": "#/$defs/node", "$defs": schema["$defs"]})
        for _, _, sub, path in cuts:
            for e in node.iter_errors(sub):
                e.path.extendleft(reversed(path))
                yield e
    finally:
        for parent, key, sub, _ in reversed(cuts):
            parent[key] = sub


def _cuts(ir: Any, nodes: set[str]) -> list[tuple[Any, Any, Any, list[Any]]]:
    """(container, key, node, path) of each node where a piece starts: the first node at
    least :data:`CUT` levels below the start of its own piece, outermost first."""
    out: list[tuple[Any, Any, Any, list[Any]]] = []
    todo: list[tuple[Any, Any, Any, list[Any], int]] = [(None, None, ir, [], 0)]
    while todo:
        parent, key, obj, path, depth = todo.pop()
        if isinstance(obj, dict):
            if depth >= CUT and parent is not None and len(obj) == 1 and next(iter(obj)) in nodes:
                out.append((parent, key, obj, path))
                depth = 0
            todo.extend((obj, k, v, [*path, k], depth + 1) for k, v in obj.items())
        elif isinstance(obj, list):
            todo.extend((obj, i, v, [*path, i], depth + 1) for i, v in enumerate(obj))
    return out

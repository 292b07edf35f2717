"""The AST as JSON data, for the AST cache (:mod:`.cache`).

A cache entry is data, never code: the decoder builds only the node classes of
:mod:`cardscript.dsl.front.ast` (an allow-list made from that package, by class name)
and :class:`~cardscript.dsl.diagnostics.Span`, and checks every field against the
annotation of its class, so what it returns is an AST the builder could have made.
Anything else is refused (:class:`ValueError`).

Encoding, for a script of file F:

* a node: ``{"@": class name, "s": span, "f": [its fields, in declaration order]}``;
* a span: ``[line, column, end_line, end_column]``, with the file first when it is not F;
  a span held in a field (a card's words) is ``{"S": span}``;
* a tuple: an array; str, int, bool and None: themselves (nothing else occurs).
"""

from __future__ import annotations

import ast as pyast
import functools
import inspect
import json
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardscript.dsl.diagnostics import Span
from cardscript.dsl.front import ast as A

Check = Callable[[object], bool]
_NODE_KEYS = frozenset({"@", "s", "f"})
_PRIMITIVES: dict[str, type] = {"str": str, "int": int, "bool": bool}


@dataclass(frozen=True)
class _Spec:
    cls: type[A.Node]
    fields: tuple[str, ...]
    checks: tuple[Check, ...]


def node_classes() -> dict[str, type[A.Node]]:
    """The allow-list: every node class the AST package exports, by class name."""
    return {name: obj for name, obj in vars(A).items()
            if isinstance(obj, type) and issubclass(obj, A.Node) and obj is not A.Node and obj.__name__ == name}


@functools.lru_cache(maxsize=1)
def _specs() -> dict[str, _Spec]:
    return {name: _spec(cls) for name, cls in node_classes().items()}


def _spec(cls: type[A.Node]) -> _Spec:
    """The field checks of a class, from the annotations of the classes that declare them
    (strings: the AST modules use ``from __future__ import annotations``; parsed, not run),
    names resolved in the declaring module."""
    declared: dict[str, tuple[str, dict[str, Any]]] = {}
    for klass in reversed(cls.__mro__):
        space = vars(sys.modules[klass.__module__])
        declared.update({k: (v, space) for k, v in inspect.get_annotations(klass).items() if isinstance(v, str)})
    checks = tuple(_Compiler(declared[f][1]).annotation(declared[f][0]) for f in cls._fields)
    return _Spec(cls, cls._fields, checks)


class _Compiler:
    """Annotations to predicates: ``X | Y``, ``None``, ``tuple[X, ...]``, ``tuple[X, Y]``,
    ``str``/``int``/``bool`` (exact types: a bool is not an int here), ``Span``, a node class,
    a union alias of node classes, or an alias written as a string (it may name itself)."""

    def __init__(self, space: dict[str, Any]):
        self.space = space
        self.aliases: dict[str, Check] = {}

    def annotation(self, text: str) -> Check:
        return self.expr(pyast.parse(text, mode="eval").body)

    def expr(self, expr: pyast.expr) -> Check:
        if isinstance(expr, pyast.BinOp) and isinstance(expr.op, pyast.BitOr):
            left, right = self.expr(expr.left), self.expr(expr.right)
            return lambda v: left(v) or right(v)
        if isinstance(expr, pyast.Constant) and expr.value is None:
            return lambda v: v is None
        if isinstance(expr, pyast.Subscript) and isinstance(expr.value, pyast.Name) and expr.value.id == "tuple":
            args = expr.slice.elts if isinstance(expr.slice, pyast.Tuple) else [expr.slice]
            if len(args) == 2 and isinstance(args[1], pyast.Constant) and args[1].value is Ellipsis:
                item = self.expr(args[0])
                return lambda v: type(v) is tuple and all(item(x) for x in v)
            items = tuple(self.expr(a) for a in args)
            return lambda v: (type(v) is tuple and len(v) == len(items)
                              and all(c(x) for c, x in zip(items, v, strict=True)))
        if isinstance(expr, pyast.Name):
            return self.name(expr.id)
        raise ValueError(f"annotation {pyast.unparse(expr)!r} is not one the AST cache knows")

    def name(self, name: str) -> Check:
        if name in _PRIMITIVES:
            exact = _PRIMITIVES[name]
            return lambda v: type(v) is exact
        if name == "Span":
            return lambda v: type(v) is Span
        target = self.space.get(name, vars(A).get(name))
        if isinstance(target, str):  # a string alias; looked up late, as it may be recursive
            if name not in self.aliases:
                self.aliases[name] = lambda v: False
                self.aliases[name] = self.annotation(target)
            return lambda v: self.aliases[name](v)
        if isinstance(target, types.UnionType):
            classes = tuple(t for t in target.__args__ if isinstance(t, type) and issubclass(t, A.Node))
            if len(classes) != len(target.__args__):
                raise ValueError(f"alias {name} holds more than node classes")
            return lambda v: isinstance(v, classes)
        if isinstance(target, type) and issubclass(target, A.Node):
            cls = target
            return lambda v: isinstance(v, cls)
        raise ValueError(f"name {name!r} in an AST annotation is not an AST class")


# ---------------------------------------------------------------- encode
def dumps(script: A.Script, wrapper: dict[str, Any]) -> str:
    """The JSON text of ``wrapper`` with the encoded script under ``"ast"``.

    Raises:
        TypeError: the AST holds a value that is not data (a bug of the builder).
        RecursionError: the AST nests deeper than Python's recursion limit allows.
    """
    return json.dumps({**wrapper, "ast": _encode(script, script.file)}, separators=(",", ":"),
                      ensure_ascii=False, check_circular=False)


def _encode(value: object, file: str) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is tuple:
        return [_encode(x, file) for x in value]  # type: ignore[attr-defined]
    if kind is Span:
        return {"S": _span(value, file)}  # type: ignore[arg-type]
    spec = _specs().get(kind.__name__)
    if spec is None or spec.cls is not kind:
        raise TypeError(f"{kind.__name__} is not an AST class")
    d = value.__dict__
    return {"@": kind.__name__, "s": _span(d["span"], file), "f": [_encode(d[f], file) for f in spec.fields]}


def _span(span: Span, file: str) -> list[Any]:
    rest = [span.line, span.column, span.end_line, span.end_column]
    return rest if span.file == file else [span.file, *rest]


# ---------------------------------------------------------------- decode
def loads(text: str | bytes, file: str) -> dict[str, Any]:
    """Decode an entry made by :func:`dumps`; its ``"ast"`` is a checked :class:`Script` of ``file``.

    Raises:
        ValueError: the text is not such an entry (not JSON, an unknown class, a field of the
            wrong type or count, a script of another file); also when it nests too deep.
    """
    try:
        data = json.loads(text, object_hook=functools.partial(_hook, file))
    except RecursionError:
        raise ValueError("the entry nests too deep") from None
    script = data.get("ast") if isinstance(data, dict) else None
    if type(script) is not A.Script or script.file != file:
        raise ValueError("the entry holds no script of this file")
    return data


def _hook(file: str, d: dict[str, Any]) -> object:
    """Called by the JSON decoder for every object, innermost first, so the fields of a node
    are decoded before the node."""
    if d.keys() == _NODE_KEYS:
        name = d["@"]
        spec = _specs().get(name) if type(name) is str else None
        values = d["f"]
        if spec is None or type(values) is not list or len(values) != len(spec.fields):
            raise ValueError("not an AST node")
        args = [_tuples(v) if type(v) is list else v for v in values]
        for check, v in zip(spec.checks, args, strict=True):
            if not check(v):
                raise ValueError(f"a field of {name} has the wrong type")
        # Node.__init__'s work, for a node whose every field is given: a warm `check` decodes
        # about 9,000 nodes, and the generic constructor was a third of the decoding
        node = _new(spec.cls)
        fields = node.__dict__
        fields["span"] = _unspan(d["s"], file)
        fields.update(zip(spec.fields, args, strict=True))  # the count is checked above
        return node
    if d.keys() == {"S"}:
        return _unspan(d["S"], file)
    return d  # the entry's wrapper; a dict inside a node fails that node's checks


def _tuples(value: object) -> object:
    return tuple(_tuples(x) for x in value) if type(value) is list else value


def _unspan(raw: object, file: str) -> Span:
    if type(raw) is list and len(raw) == 5 and type(raw[0]) is str:
        file, raw = raw[0], raw[1:]
    if type(raw) is not list or len(raw) != 4:
        raise ValueError("not a span")
    line, column, end_line, end_column = raw
    if type(line) is not int or type(column) is not int or type(end_line) is not int or type(end_column) is not int:
        raise ValueError("not a span")
    # Span's frozen-dataclass constructor, written out (its generated __init__ sets each
    # field through object.__setattr__): one span per node decoded
    span = _new(Span)
    span.__dict__.update(file=file, line=line, column=column, end_line=end_line, end_column=end_column)
    return span


_new = object.__new__

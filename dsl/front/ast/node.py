"""The base class of every AST node: immutable, with a source :class:`Span`."""

from __future__ import annotations

import inspect
from typing import Any, ClassVar, cast

from cardscript.dsl.diagnostics import Span


class Node:
    """Base of AST nodes: immutable, compared and hashed by their fields (not the span).

    Fields come from each class's annotations, in order, after the inherited ``span``;
    a class attribute gives a field's default. (Plain ``dataclasses`` generate code at
    import time, which cost more start-up than the whole check of a small game.)
    """

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    span: Span

    def __init_subclass__(cls) -> None:
        parent = cast("type[Node]", cls.__mro__[1])
        own = [n for n in inspect.get_annotations(cls) if not n.startswith("_")]
        cls._fields = tuple(f for f in parent._fields if f not in own) + tuple(own)
        cls._defaults = {**parent._defaults, **{n: cls.__dict__[n] for n in own if n in cls.__dict__}}

    def __init__(self, span: Span, *args: Any, **kw: Any) -> None:
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__} takes {len(fields)} fields, got {len(args)}")
        d = self.__dict__
        d["span"] = span
        for name, value in zip(fields, args, strict=False):  # the fields after args are set below
            d[name] = value
        for name in fields[len(args):]:
            if name in kw:
                d[name] = kw.pop(name)
            elif name in self._defaults:
                d[name] = self._defaults[name]
            else:
                raise TypeError(f"{type(self).__name__} is missing field {name!r}")
        if kw:
            raise TypeError(f"{type(self).__name__} has no field(s) {sorted(kw)}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _key(self) -> tuple[Any, ...]:
        return tuple(self.__dict__[f] for f in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={self.__dict__[f]!r}' for f in self._fields)})"

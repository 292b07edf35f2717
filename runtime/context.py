"""The context an effect runs in (:class:`Ctx`): who 'you', 'them', 'it' and 'this'
are, parameters and 'let' values, local marks and the previous statement's result."""

from __future__ import annotations

from typing import Any

#: 'since' before a block's first statement: later than any change, so nothing "was affected"
NO_STATEMENT = 1 << 62


class Ctx:
    """Who and what an effect refers to while it runs.

    you: acting seat; them: the player bound by 'for each'; it: the bound card;
    this: the card whose ability runs; vars: parameters and 'let' values;
    frames: a chain of local mark tables (marks without 'this turn');
    did: the result of the previous statement ('if you do');
    since: the game's change clock when the previous statement started ('if they were
    affected'), :data:`NO_STATEMENT` when there is none.
    """

    __slots__ = ("depth", "did", "frames", "it", "since", "them", "this", "vars", "you")

    def __init__(self, you: int, them: int | None = None, it: int | None = None, this: int | None = None,
                 vars: dict[str, Any] | None = None, frames: list[dict] | None = None, depth: int = 0):
        self.you = you
        self.them = them
        self.it = it
        self.this = this
        self.vars = vars if vars is not None else {}
        self.frames = frames if frames is not None else [{}]
        self.did = 0
        self.since = NO_STATEMENT
        self.depth = depth

    def copy(self, **kw: Any) -> Ctx:
        c = self.clone()
        for k, v in kw.items():
            setattr(c, k, v)
        return c

    def clone(self) -> Ctx:
        c = _new_ctx(Ctx)
        c.you, c.them, c.it, c.this = self.you, self.them, self.it, self.this
        c.vars, c.frames, c.did, c.depth = self.vars, self.frames, 0, self.depth
        c.since = NO_STATEMENT
        return c

    def with_them(self, them: int | None) -> Ctx:
        c = self.clone()
        c.them = them
        return c

    def with_it(self, it: int | None) -> Ctx:
        c = self.clone()
        c.it = it
        return c

    def with_you(self, you: int) -> Ctx:
        c = self.clone()
        c.you = you
        return c


_new_ctx = object.__new__


def fresh_ctx(you: int, it: int | None, this: int | None, depth: int) -> Ctx:
    """``Ctx(you, it=it, this=this, depth=depth)``, written out for the hot paths (a trigger
    firing, a card's ability): a class call with keywords costs a tuple, a dict and
    ``__init__``. tests/test_call_inline.py keeps the two the same."""
    c = _new_ctx(Ctx)
    c.you = you
    c.them = None
    c.it = it
    c.this = this
    c.vars = {}
    c.frames = [{}]
    c.did = 0
    c.since = NO_STATEMENT
    c.depth = depth
    return c

#: ``new_ctx(Ctx)``: a context with no field set, for code that sets every field itself
#: (a hot path that would rather not pay for ``Ctx(...)`` and its ``__init__``)
new_ctx = object.__new__

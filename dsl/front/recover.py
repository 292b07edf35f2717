"""Checking past a syntax error: the parts of a broken script that still build.

``cardscript check`` of a game whose one file has a syntax error still reports the
semantic errors of every other file (issue 12). A script that does not build is split
into its top-level items (each starts at column 1: a card, an effect, a setup step...);
every item is built on its own, at its own lines, and the items that build stand in for
the file. So one mistake costs only the item it is in, and each broken item reports its
own syntax error. What the broken items would have declared is unknown, so a
diagnostic elsewhere that names a word of their text (an unknown card, effect or zone
they may define) is not reported: it is most likely the broken item's fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardscript.dsl.diagnostics import CompileError, Diagnostic, Span
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.loader import Program


@dataclass(frozen=True)
class Salvage:
    """What survives of a broken script.

    Attributes:
        script: the items that build, in file order.
        diagnostics: the syntax error of each item that does not.
        broken: the text of the items that do not build.
    """

    script: A.Script
    diagnostics: tuple[Diagnostic, ...]
    broken: str


def _blocks(text: str) -> list[tuple[int, str]]:
    """(first line, 1-based; text) of each top-level item, comments before it included."""
    out: list[tuple[int, list[str]]] = []
    pending: list[str] = []  # comments and blank lines not yet given to an item
    start = 1
    for n, line in enumerate(text.splitlines(), 1):
        top = bool(line) and not line[0].isspace() and not line.startswith("#")
        if top or not out:
            if top:
                out.append((start if pending else n, [*pending, line]))
                pending = []
            else:
                if not pending:
                    start = n
                pending.append(line)
            continue
        out[-1][1].append(line)
    return [(first, "\n".join(lines) + "\n") for first, lines in out]


def salvage(text: str, name: str, first: CompileError) -> Salvage:
    """Build a script that failed to build (``first``) item by item.

    Args:
        text: the script's text.
        name: its file name (for spans).
        first: the error building the whole file raised.

    Returns:
        The items that build and the syntax error of each one that does not; when every
        item builds alone (the mistake lies between them), no item and ``first``'s errors.
    """
    from cardscript.dsl.front.build import build

    items: list[A.Item] = []
    diags: list[Diagnostic] = []
    broken: list[str] = []
    for line, block in _blocks(text):
        try:
            # the blank lines keep every span at its line in the file
            items.extend(build("\n" * (line - 1) + block, name).items)
        except CompileError as exc:
            diags.extend(exc.diagnostics)
            broken.append(block)
    if not diags:
        return Salvage(A.Script(Span(name, 1, 1), name, ()), tuple(first.diagnostics), text)
    return Salvage(A.Script(Span(name, 1, 1), name, tuple(items)), tuple(diags), "\n".join(broken))


_QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"")  # how repr() quotes a name


def caused_by_broken(d: Diagnostic, broken: list[str]) -> bool:
    """Whether a diagnostic most likely comes from a broken item: it names something (in
    quotes) that the text of a broken item holds, or it says a declaration is missing (CS207:
    it may be the broken item)."""
    if d.code == "CS207":
        return True
    m = _QUOTED.search(d.message)
    if m is None:
        return False
    word = (m.group(1) or m.group(2)).split("{")[0].strip()
    if not word:
        return False
    # A missing declaration ("add 'players 2 to 4'") is the broken item's own, when that item
    # starts with the same keyword ("players 2 to 1000000000").
    head = word.split()[0]
    return any(word in text or text.split()[:1] == [head] for text in broken)


def past_broken(program: Program, diags: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics of checking a program loaded with ``recover``: its syntax and file
    errors first, then the others but those a broken item most likely caused."""
    if not program.problems:
        return diags
    return [*program.problems, *(d for d in diags if not caused_by_broken(d, list(program.broken)))]

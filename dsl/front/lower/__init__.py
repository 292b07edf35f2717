"""Stage 4: lowering — checked AST -> runtime effect objects and a GameDefinition.

Every name is resolved here against :class:`cardscript.dsl.front.check.Symbols`; each failure is a
Diagnostic (never an exception). :func:`compile_program` is the entry point.

The :class:`Lowerer` is built in layers, one module each: :mod:`.names` (shared state,
diagnostics, name lookups), :mod:`.bodies` (statements, calls, selectors, conditions,
expressions -> effect objects) and :mod:`.declarations` (effects, cards, rules -> the
GameDefinition).
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.diagnostics import CompileError
from cardscript.dsl.front.check import collect
from cardscript.dsl.front.loader import Program
from cardscript.dsl.front.lower.declarations import Lowerer

__all__ = ["Lowerer", "compile_program"]


def compile_program(program: Program, with_symbols: bool = False) -> Any:
    """Check and lower a loaded program.

    Returns:
        (definition, diagnostics): the definition is None when any diagnostic is an error;
        with ``with_symbols``, (definition, diagnostics, symbols).
    """
    sym, diags = collect(program.scripts, program.mixed)
    low = Lowerer(sym, program.mixed)
    try:
        definition = low.definition(program.sources)
    except CompileError as exc:
        diags.extend(exc.diagnostics)
        definition = None
    diags.extend(low.diags)
    diags.sort(key=lambda d: (d.span.file if d.span else "", d.span.line if d.span else 0,
                              d.span.column if d.span else 0, d.code))
    if any(d.severity == "error" for d in diags):
        definition = None
    return (definition, diags, sym) if with_symbols else (definition, diags)

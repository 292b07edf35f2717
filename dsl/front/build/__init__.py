"""Stage 2: Lark parse tree -> AST (:mod:`cardscript.dsl.front.ast`), converted once.

One builder method per grammar alias, grouped by grammar area, one mixin each:
:mod:`.declarations` (header, declarations, cards, rules), :mod:`.scenario` (scenario
steps), :mod:`.statements` (bodies, statements, calls), :mod:`.selectors` (players, cards,
zones) and :mod:`.expressions` (conditions, expressions), on :mod:`.base` (spans and shared
rules). Positions come from Lark's ``meta``; every node gets a
:class:`~cardscript.dsl.diagnostics.Span` in the script's file.
"""

from __future__ import annotations

from lark import Tree

from cardscript.dsl.diagnostics import CompileError, InternalError, Span
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.cardrules import CardRulesBuilder
from cardscript.dsl.front.build.declarations import DeclarationBuilder
from cardscript.dsl.front.build.expressions import ExpressionBuilder
from cardscript.dsl.front.build.limits import check_text, check_tree
from cardscript.dsl.front.build.scenario import ScenarioBuilder
from cardscript.dsl.front.build.selectors import SelectorBuilder
from cardscript.dsl.front.build.statements import StatementBuilder
from cardscript.dsl.front.build.staticrules import StaticRulesBuilder
from cardscript.dsl.front.build.timing import TimingBuilder
from cardscript.dsl.front.build.zones import ZoneBuilder
from cardscript.dsl.front.parse import parse


class _Builder(DeclarationBuilder, ScenarioBuilder, StatementBuilder, SelectorBuilder, ExpressionBuilder,
               CardRulesBuilder, TimingBuilder, ZoneBuilder, StaticRulesBuilder):
    """The whole builder: one Lark Transformer made of the areas."""


def build(text: str, filename: str = "<string>") -> A.Script:
    """Parse and build the AST of one script.

    Raises:
        CompileError: for syntax errors (see :func:`cardscript.dsl.front.parse.parse`), for
            nesting deeper than the limits (CS104) and numbers over them (CS209): see
            :func:`cardscript.dsl.front.build.limits.check_tree`, which runs before any stage
            that recurses.
    """
    check_text(text, filename)
    tree: Tree = parse(text, filename)
    check_tree(tree, text if text.endswith("\n") else text + "\n", filename)
    try:
        items = _Builder(filename, text).transform(tree)
    except Exception as exc:  # a VisitError wrapping a user error found while building, or a builder bug
        orig = getattr(exc, "orig_exc", exc)
        if isinstance(orig, CompileError):
            raise orig from None
        # a bug, not the script's fault: reported as an internal error (exit 3), never as a diagnostic
        raise InternalError(f"building the AST of {filename}: {orig!r}") from exc
    return A.Script(Span(filename, 1, 1), filename, tuple(items))

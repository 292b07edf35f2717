"""The static limits of a script (docs/language.md, "Limits") and the check of those that
a parse tree shows: how deep blocks, parentheses and expressions nest, and how large a
number, a card's copies and the player count are.

Every later stage (the builder, the checker, the lowering, ``fmt``, the IR and the
runtime) walks a script's nesting recursively, so nesting is bounded here, before any of
them runs, by an iterative walk of the parse tree (Lark's LALR parser is iterative
itself). The limits are far above what a card game needs: the built-in games nest
blocks at most 7 deep and their deepest parse tree has 34 levels.
"""

from __future__ import annotations

import re

from lark import Token, Tree

from cardscript.dsl.diagnostics import CompileError, Diagnostic, Span, error

#: Statements inside statements ('if' in 'for each' in 'repeat' ...), per body.
MAX_BLOCK_DEPTH = 32
#: Parentheses (and the brackets of a scenario's answer lists) inside each other.
MAX_PAREN_DEPTH = 32
#: Levels of the parse tree in all: blocks, parentheses and operators together
#: (``1 + 2 + 3`` nests two deep, ``not not C`` two).
MAX_TREE_DEPTH = 160
#: The magnitude of a number written in a script.
MAX_NUMBER = 10**9
#: Copies of one card (one ``copies N``).
MAX_COPIES = 10_000
#: Components of a game: the copies of every card together.
MAX_COMPONENTS = 100_000
#: Seats of a game (``players N to M``).
MAX_PLAYERS = 100
#: Zone slots and counter values of a game at its most players: a per-player zone or
#: counter has one per player, a per-card one one per component, a shared one one.
MAX_SLOTS = 1_000_000
#: Iterations of nested constant ``repeat`` loops, through the effects they call.
MAX_REPEAT_PRODUCT = 100_000
#: Characters of a card's or an action's name: each option of a decision is labelled with
#: them, and a log keeps every label (a 100,000-character name took a GB in a game).
MAX_NAME = 100
#: Characters of any quoted text.
MAX_TEXT = 1_000

# Statements that hold a body: each one nests the statements of its body one level deeper.
_NESTING = frozenset({"if_stmt", "otherwise", "for_players", "for_cards", "repeat", "call_block", "choose",
                      # the block statements of issue 12 (fixa, review finding B6)
                      "delayed", "grant", "between_turns", "choose_one", "static_when"})
# Strings and comments first, so that a bracket inside them is not counted.
_BRACKETS = re.compile(r'"[^"\n]*"|#[^\n]*|[()\[\]]')
# A card name in the form of a qualified name, 'NAME [SET]' (the quotes included: a
# script's text has no escapes). Other brackets in a name are the name's own.
_QUALIFIER = re.compile(r'^".* \[.*\]"$', re.DOTALL)


def check_text(text: str, filename: str) -> None:
    """Check how deep the parentheses of one script's source nest, before it is parsed.

    A linear scan of the text: a file of nothing but parentheses is refused in
    milliseconds, before the parser builds a tree for it (seconds and hundreds of MB for
    a file of 1 MiB).

    Raises:
        CompileError: CS104 at the first parenthesis or bracket opened more than
            :data:`MAX_PAREN_DEPTH` deep.
    """
    deep = _paren_depth(text, filename)
    if deep is not None:
        raise CompileError([deep])


def check_tree(tree: Tree, text: str, filename: str) -> None:
    """Check the nesting and the numbers of one script's parse tree, iteratively.

    The parentheses are checked before the parse, by :func:`check_text`.

    Args:
        tree: the Lark parse tree of ``text`` (rule ``start``).
        text: the script source.
        filename: used in diagnostics.

    Raises:
        CompileError: CS104 at the first place nested deeper than a limit (blocks, then
            the tree), else CS209 for each number over its limit.
    """
    diags: list[Diagnostic] = []
    stack: list[tuple[Tree, int, int]] = [(tree, 1, 0)]
    while stack:
        node, depth, blocks = stack.pop()
        if node.data in _NESTING:
            blocks += 1
            if blocks > MAX_BLOCK_DEPTH:
                raise CompileError([error(
                    "CS104", f"statements nested more than {MAX_BLOCK_DEPTH} deep", _span(node, filename),
                    "move the inner statements into an effect of their own ('effect NAME: ...') and call it")])
        if depth > MAX_TREE_DEPTH:
            raise CompileError([error(
                "CS104", f"this is nested more than {MAX_TREE_DEPTH} levels deep", _span(node, filename),
                "split a long expression or condition: compute parts of it with 'let', or use fewer parentheses")])
        for kid in reversed(node.children):  # reversed: the first place in the text is found first
            if isinstance(kid, Tree):
                stack.append((kid, depth + 1, blocks))
            elif isinstance(kid, Token) and kid.type == "INT":
                diags.extend(_number(kid, node.data, filename))
            elif isinstance(kid, Token) and kid.type == "STRING" and len(kid) > MAX_NAME + 2:
                diags.extend(_text(kid, node, filename))
            elif isinstance(kid, Token) and kid.type == "STRING" and node.data == "card" and _QUALIFIER.match(kid):
                diags.extend(_qualified(kid, node, filename))
    if diags:
        raise CompileError(sorted(diags, key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0)))


def _number(tok: Token, rule: str, filename: str) -> list[Diagnostic]:
    """CS209 for a number over :data:`MAX_NUMBER`, or over the limit of where it stands."""
    digits = str(tok).lstrip("0") or "0"
    span = Span(filename, tok.line or 1, tok.column or 1, tok.end_line or 0, tok.end_column or 0)
    if len(digits) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
        shown = digits if len(digits) <= 20 else f"{digits[:8]}...({len(digits)} digits)"
        return [error("CS209", f"number {shown} is too large: a number is at most {MAX_NUMBER:,}", span,
                      "numbers in scripts are counts and amounts of a table game")]
    value = int(digits)
    if rule == "card_copies" and value > MAX_COPIES:
        return [error("CS209", f"{value:,} copies of one card: at most {MAX_COPIES:,}", span,
                      f"a game has at most {MAX_COMPONENTS:,} components in all")]
    if rule == "players" and value > MAX_PLAYERS:
        return [error("CS209", f"{value:,} players: a game seats at most {MAX_PLAYERS}", span)]
    return []


def _qualified(tok: Token, node: Tree, filename: str) -> list[Diagnostic]:
    """CS209 for a card named like a qualified name, ``NAME [SET]`` (the first text of a
    ``card``): the name a game gives a card two sets share, which it would take over."""
    if not node.children or node.children[0] is not tok:
        return []
    span = Span(filename, tok.line or 1, tok.column or 1, tok.line or 1, (tok.column or 1) + len(tok))
    return [error("CS209", f"card name {tok!s} ends in a set qualifier ' [...]'", span,
                  "a game writes 'NAME [SET]' for the cards of one name from two sets; name the card "
                  "without brackets (a card of the name another set has is told apart by its set)")]


def _text(tok: Token, node: Tree, filename: str) -> list[Diagnostic]:
    """CS209 for a card's or an action's name over :data:`MAX_NAME` characters (the first
    text of a ``card`` or ``action``), or any text over :data:`MAX_TEXT`."""
    span = Span(filename, tok.line or 1, tok.column or 1, tok.line or 1, (tok.column or 1) + 1)
    size = len(tok) - 2  # the quotes
    named = node.data in ("card", "card_action", "plain_action") and node.children and node.children[0] is tok
    if named:
        what = "a card" if node.data == "card" else "an action"
        return [error("CS209", f"{what} name of {size:,} characters: at most {MAX_NAME}", span,
                      "each option of a decision is labelled with it: a printed card's name is a few words")]
    if size > MAX_TEXT:
        return [error("CS209", f"a text of {size:,} characters: at most {MAX_TEXT:,}", span,
                      "shorten it: a script's texts are names, prompts and printed wordings")]
    return []


def _paren_depth(text: str, filename: str) -> Diagnostic | None:
    """CS104 at the first parenthesis or bracket opened more than :data:`MAX_PAREN_DEPTH` deep."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        ch = m.group()
        if ch in "([":
            depth += 1
            if depth > MAX_PAREN_DEPTH:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                return error("CS104", f"parentheses nested more than {MAX_PAREN_DEPTH} deep",
                             Span(filename, line, col, line, col + 1),
                             "remove the parentheses that are not needed, or compute parts with 'let'")
        elif ch in ")]":
            depth = max(0, depth - 1)
    return None


def _span(node: Tree, filename: str) -> Span:
    meta = node.meta
    if getattr(meta, "empty", True):
        return Span(filename, 1, 1)
    return Span(filename, meta.line, meta.column, meta.line, meta.column + 1)

"""``cardscript fmt``: the canonical layout keeps what a script says, is idempotent and
keeps every comment (docs/fmt.md).

Property tests: (a) every script under cardscripts/ and tests/scenarios/; (b) text
generated from the grammar itself with ``hypothesis.extra.lark.from_lark``. The indenter's
``_INDENT``/``_DEDENT`` tokens are %declared, so they are generated as marker characters
and turned into real indentation afterwards (:func:`_indent_markers`); every terminal is
followed by a space, so that adjacent words stay apart, and words come from a small
vocabulary with no keyword in it. ``FMT_EXAMPLES`` raises the number of examples.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark
from lark.lexer import PatternStr

from cardscript.dsl.front.build import build
from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import CompileError
from cardscript.dsl.tools.fmt import WIDTH, format_text, structure
from cardscript.dsl.front.parse import _Indenter, grammar_text

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p for folder in ("cardscripts", "tests/scenarios") for p in (ROOT / folder).rglob("*")
                 if p.suffix in (".rules", ".cards", ".variant", ".scenario"))
#: The folders kept in canonical form (the others are being written by other people).
CANONICAL = ("cardscripts/dc-core", "cardscripts/injustice", "tests/scenarios/language")
EXAMPLES = int(os.environ.get("FMT_EXAMPLES", "60"))


def _comments(text: str) -> list[str]:
    return sorted(c.rstrip() for c in re.findall(r'#[^\n]*', re.sub(r'"[^"\n]*"', '""', text)))


def _check_round_trip(text: str) -> str:
    out = format_text(text)
    assert structure(build(out)) == structure(build(text)), out
    assert format_text(out) == out
    assert _comments(out) == _comments(text)
    return out


# ---------------------------------------------------------------- (a) the project's scripts
@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_scripts_round_trip(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        build(text)
    except CompileError as exc:  # a script being written: its own tests report it
        pytest.skip(f"does not parse: {exc.diagnostics[0].message}")
    _check_round_trip(text)


@pytest.mark.parametrize("folder", CANONICAL)
def test_builtin_scripts_are_formatted(folder: str) -> None:
    result = CliRunner().invoke(main, ["fmt", "--check", str(ROOT / folder)])
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------- (b) text generated from the grammar
_WORDS = {
    "NAME": ["alpha", "beta", "gamma-ray", "x's", "delta"],
    "STRING": ['"Alpha"', '"b c"', '""', '"# not a comment"'],
    "INT": ["0", "1", "12"],
    "PARAM": ["N", "X2"],
    "SIGN": ["+", "-"],
    "COMPARE": ["<=", ">=", "<", ">", "==", "!="],
}
_NEWLINES = ["\n", "  # trailing\n", "\n# own line\n", "\n\n", "\n   \t# odd indent\n"]


def _explicit(parser: Lark) -> dict[str, st.SearchStrategy[str]]:
    out: dict[str, st.SearchStrategy[str]] = {}
    for t in parser.terminals:
        if t.name in _WORDS:
            out[t.name] = st.sampled_from(_WORDS[t.name]).map(lambda s: s + " ")
        elif isinstance(t.pattern, PatternStr):
            out[t.name] = st.just(t.pattern.value + " ")
        elif t.name == "_NL":
            out[t.name] = st.sampled_from(_NEWLINES)
        else:  # the ignored white space and COMMENT: comments come with _NL, at the end of lines
            out[t.name] = st.just(" ")
    out["_INDENT"], out["_DEDENT"] = st.just("\x01"), st.just("\x02")
    return out


def _indent_markers(raw: str) -> str:
    """Generated text -> a script: each marker opens (\\x01) or closes (\\x02) a block level."""
    lines, level = [], 0
    for line in raw.split("\n"):
        level += line.count("\x01") - line.count("\x02")
        body = line.replace("\x01", "").replace("\x02", "").strip()
        lines.append("  " * level + body if body else "")
    return "\n".join(lines)


_GRAMMAR = Lark(grammar_text(), parser="lalr", lexer="contextual", postlex=_Indenter(), maybe_placeholders=False)
GENERATED = from_lark(_GRAMMAR, explicit=_explicit(_GRAMMAR)).map(_indent_markers)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.data_too_large])
@given(GENERATED)
@example('card "A": hero  # c\n  play: +1 power\n  # end of the card\n# top\n')
@example("do:\n  repeat (4 *  # inside parentheses\n     count players): draw 1\n")
def test_generated_round_trip(text: str) -> None:
    try:
        build(text)
    except CompileError:
        assume(False)  # the LALR parser resolves some grammar conflicts by shifting
    _check_round_trip(text)


# ---------------------------------------------------------------- the layout, by example
LAYOUT = [
    # spacing and indentation
    ('card   "A" :hero,cost 3\n    play:+1 power;draw a card\n',
     'card "A": hero, cost 3\n  play: +1 power; draw a card\n'),
    ("counter c: per player,- 3, -5 .. 5\n", "counter c: per player, -3, -5..5\n"),
    ("effect x {N:number}:\n\tlet M = max( 1 ,min(N,3) ) - 1\n",
     "effect x {N: number}:\n  let M = max(1, min(N, 3)) - 1\n"),
    ("do:\n  -( cost of it ) power\n", "do:\n  -(cost of it) power\n"),
    ('answer [ "a" , "b" ], 2, yes\r\nexpect  each foe :their x==1\r\n',
     'answer ["a", "b"], 2, yes\nexpect each foe: their x == 1\n'),
    # a line continued inside parentheses is joined
    ("do:\n  repeat (4 *\n     count players): draw 1\n", "do:\n  repeat (4 * count players): draw 1\n"),
    # blank lines: at most one, none at the ends or right after a block opens
    ("\n\n# a\n\n\n# b\ncard \"A\": hero\n\n  play: nothing\n\n\n",
     '# a\n\n# b\ncard "A": hero\n  play: nothing\n'),
    # comments: above the line they precede, at its level; at the end of a block, at the block's
    ('card "A": hero\n      # about play\n  play: nothing\n        # end of card\n# next\n',
     'card "A": hero\n  # about play\n  play: nothing\n  # end of card\n# next\n'),
    # trailing comments: aligned within a paragraph, two spaces after the longest line
    ("zone deck: per player  # d\nzone line: shared\nzone a: shared    # a\n\nzone b: shared        # b\n",
     "zone deck: per player  # d\nzone line: shared\nzone a: shared         # a\n\nzone b: shared  # b\n"),
    ("# only a comment", "# only a comment\n"),
    ("", ""),
]


@pytest.mark.parametrize("text,expected", LAYOUT)
def test_layout(text: str, expected: str) -> None:
    assert format_text(text) == expected
    assert format_text(expected) == expected


def test_long_line_becomes_a_block() -> None:
    steps = "; ".join(["draw a card", "discard a card"] * 4)
    text = f'card "A": hero\n  play: +1 power; meter burn 1: {steps}; {steps}  # why\n  defense: nothing\n'
    out = _check_round_trip(text)
    assert out.startswith('card "A": hero\n  play:\n    +1 power\n    meter burn 1:\n      draw a card\n')
    assert "      discard a card  # why\n  defense: nothing\n" in out
    assert all(len(line) <= WIDTH for line in out.splitlines())


def test_short_blocks_stay_blocks() -> None:
    text = 'card "A": hero\n  play:\n    draw a card\n    if you do: +1 power\n'
    assert format_text(text) == text


def test_syntax_error_is_a_diagnostic() -> None:
    with pytest.raises(CompileError) as info:
        format_text('card "A": hero\n  play +1 power\n', "a.cards")
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.span.line) == ("CS101", 2)


# ---------------------------------------------------------------- the command
def test_cli_check_and_rewrite(tmp_path: Path) -> None:
    messy, clean = tmp_path / "a.cards", tmp_path / "b.cards"
    messy.write_text('card "A":hero\n  play:+1 power\n')
    clean.write_text('card "B": hero\n')
    messy.chmod(0o640)
    runner = CliRunner()
    checked = runner.invoke(main, ["fmt", "--check", str(tmp_path)])
    assert checked.exit_code == 1
    assert f"--- a/{messy}\n+++ b/{messy}\n" in checked.output
    assert '-card "A":hero\n' in checked.output and '+card "A": hero\n' in checked.output
    assert messy.read_text() == 'card "A":hero\n  play:+1 power\n'  # --check changes nothing
    rewritten = runner.invoke(main, ["fmt", str(tmp_path)])
    assert rewritten.exit_code == 0 and f"reformatted {messy}" in rewritten.output
    assert messy.read_text() == 'card "A": hero\n  play: +1 power\n'
    assert stat.S_IMODE(messy.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.cards", "b.cards"]  # no temp file left
    assert runner.invoke(main, ["fmt", "--check", str(tmp_path)]).exit_code == 0


def test_cli_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cards"
    bad.write_text('card "A": hero\n  play +1 power\n')
    result = CliRunner().invoke(main, ["fmt", str(bad)])
    assert result.exit_code == 1 and f"{bad}:2:8: error[CS101]" in result.output
    assert bad.read_text() == 'card "A": hero\n  play +1 power\n'
    assert CliRunner().invoke(main, ["fmt", str(tmp_path / "missing")]).exit_code == 2

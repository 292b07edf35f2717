"""Diagnostics: every user error the compiler reports, with a stable code.

A :class:`Diagnostic` carries severity, code, message, file, 1-based line and column,
an end position, and a hint. :func:`render` prints it like a compiler (file:line:col,
the source line and a caret underline). The table :data:`CODES` is the single source
of the codes; ``docs/diagnostics.md`` is generated from it.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

#: code -> (short title, bad example, fix). The examples are checked by tests.
CODES: dict[str, tuple[str, str, str]] = {
    "CS001": ("file not found", 'uses "missing.cards"', "check the path: it is relative to the script that names it"),
    "CS002": ("unknown game", "cardscript play injustise", "use a built-in game name or a folder of scripts"),
    "CS003": ("script outside its package", 'uses "/etc/passwd"',
              "a script may only use scripts inside its own folder tree"),
    "CS004": ("bad manifest", 'name = "my-pack"\nversion = 1',
              "write cardscript.toml with name, version and game as quoted text (docs/ci.md)"),
    "CS005": ("expansions that do not fit together", 'requires = ["other-pack"]',
              "play an expansion with the game it names and what it requires, without what it conflicts with"),
    "CS006": ("unknown variant", "cardscript play GAME --variant shrot",
              "use a name from 'cardscript variants GAME', or a path to a .variant file"),
    "CS101": ("syntax error", "card \"X\": cost 3\n  play +1 power", "add the missing ':' after the ability label"),
    "CS102": ("unexpected end of line", "card \"X\":", "finish the line: a card needs at least one type or attribute"),
    "CS103": ("bad indentation", 'card "X": hero\n      play: draw 1\n  defense: nothing',
              "indent every ability of a card by the same amount"),
    "CS201": ("unknown name", "move all cards from your hnad to your discard",
              "use a zone, counter, type, card or label the game declares"),
    "CS202": ("unknown effect", "play: +1 power; drew 1",
              "use an effect the game or the built-ins define; see 'did you mean'"),
    "CS203": ("duplicate definition", 'card "A": hero\ncard "A": ally',
              "give each card, zone and counter one definition"),
    "CS204": ("wrong kind of argument", "draw your hand", "pass the kind of value the effect pattern asks for"),
    "CS205": ("unknown attribute", 'card "A": hero, price 3',
              "declare it with 'attribute price = 0' or use a declared one"),
    "CS206": ("parameter not bound", "effect draw {N: number}:\n  repeat M: nothing",
              "use a parameter named in the effect pattern"),
    "CS207": ("missing declaration", 'game "G"', "declare 'players', zones and a 'turn:' block"),
    "CS208": ("'otherwise' without 'if'", "otherwise: draw 1", "put 'otherwise:' right after an 'if' statement"),
    "CS209": ("bad value", "counter life: per player, 20, 30..0", "give bounds as low..high"),
    "CS210": ("variants conflict", "play GAME --variant short --variant my-short",
              "play one of the two variants, or merge them into one"),
    "CS220": ("mixed-in card left out", "cardscript play GAME --mix OTHER-GAME",
              "a card of another set that uses its own rules cannot join; nothing to fix unless you want it: then "
              "write the rule it needs as a variant"),
    "CS221": ("mixed-in card has a taken name", "cardscript play GAME --mix OTHER-GAME",
              "the game's own card of that name is kept"),
    "CS301": ("scenario expectation failed", "expect count all cards in your hand == 9",
              "the game state differs from what the scenario expects"),
    "CS302": ("scenario answers left over", "answer yes, yes",
              "remove the answers no decision used, or add the step that uses them"),
    "CS303": ("scenario needs an answer", "do: may draw 1", "add an 'answer' line before the step that asks"),
    "CS401": ("runaway trigger chain", 'when "draw": draw 1', "make the trigger conditional or 'first time each turn'"),
    "CS501": ("trigger never fires", 'card "Spy": hero\n  when "spotted": draw 1',
              "emit the event from a rule or an effect, or fix the event's name"),
    "CS502": ("choice, condition or cost never met", "play: you may choose a card from your hand with wand: draw 1",
              "choose by a type or keyword some card has; compare a counter with values inside its bounds"),
    "CS503": ("unused definition", "counter rage: per player, 0", "use the definition, or remove it"),
    "CS504": ("card never leaves the box", 'card "Lost": relic      # setup moves no relic out of the box',
              "move it out of the box in setup, or let an effect take it out"),
    "CS505": ("unbounded trigger chain", 'effect scry:\n  emit "scry"\nwhen "scry": scry',
              "add 'first time each turn' to the trigger, or stop its body from emitting the event again"),
    "CS900": ("internal compiler error", "", "report it: this is a bug in cardscript, not in your script"),
}


@dataclass(frozen=True)
class Span:
    """A source range. Lines and columns are 1-based; the end is inclusive-exclusive."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0


@dataclass(frozen=True)
class Diagnostic:
    """One message about a script.

    Attributes:
        severity: "error", "warning" or "note".
        code: a stable code from :data:`CODES`.
        message: one sentence saying what is wrong.
        span: where; None for errors that have no place (an unknown game name).
        hint: how to fix it, often "did you mean ...?".
        expected: what the parser or checker would have accepted here.
    """

    severity: str
    code: str
    message: str
    span: Span | None = None
    hint: str = ""
    expected: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["expected"] = list(self.expected)
        return data


class CompileError(Exception):
    """Raised by the front end's entry points when diagnostics contain errors.

    Attributes:
        diagnostics: every diagnostic gathered, errors and warnings.
    """

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        first = next((d for d in diagnostics if d.severity == "error"), diagnostics[0])
        super().__init__(first.message)


def error(code: str, message: str, span: Span | None, hint: str = "", expected: Iterable[str] = ()) -> Diagnostic:
    """Build an error diagnostic."""
    return Diagnostic("error", code, message, span, hint, tuple(expected))


def warning(code: str, message: str, span: Span | None, hint: str = "") -> Diagnostic:
    """Build a warning diagnostic."""
    return Diagnostic("warning", code, message, span, hint)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return 'did you mean "X"?' for the closest choice, or '' when nothing is close."""
    pool = sorted(set(choices))
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not close:
        low = {c.lower(): c for c in pool}
        close = [low[m] for m in difflib.get_close_matches(word.lower(), list(low), n=1, cutoff=0.6)]
    return f"did you mean '{close[0]}'?" if close else ""


def render(diag: Diagnostic, sources: dict[str, str] | None = None) -> str:
    """Render a diagnostic like a compiler: header, source line, caret underline, hint.

    Args:
        diag: the diagnostic.
        sources: file name -> text, used for the excerpt (read from disk when absent).
    """
    where = ""
    excerpt = ""
    if diag.span is not None:
        sp = diag.span
        where = f"{sp.file}:{sp.line}:{sp.column}: "
        text = (sources or {}).get(sp.file)
        if text is None:
            try:
                with open(sp.file, encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:
                text = None
        if text is not None:
            lines = text.splitlines()
            if 1 <= sp.line <= len(lines):
                src = lines[sp.line - 1]
                width = 1
                if sp.end_line == sp.line and sp.end_column > sp.column:
                    width = sp.end_column - sp.column
                elif sp.end_line > sp.line:
                    width = max(1, len(src.rstrip()) - sp.column + 1)
                pad = " " * len(str(sp.line))
                excerpt = f"\n {sp.line} | {src}\n {pad} | {' ' * (sp.column - 1)}{'^' * width}"
    out = f"{where}{diag.severity}[{diag.code}]: {diag.message}{excerpt}"
    if diag.expected:
        out += f"\n  expected one of: {', '.join(diag.expected)}"
    if diag.hint:
        out += f"\n  hint: {diag.hint}"
    return out


def to_json(diags: list[Diagnostic]) -> str:
    """All diagnostics as a JSON array (stable key order)."""
    return json.dumps([d.to_json() for d in diags], indent=2, sort_keys=True)


def diagnostics_markdown() -> str:
    """docs/diagnostics.md, generated from :data:`CODES` so that it cannot drift."""
    out = ["# Diagnostic codes", "",
           "Generated from `dsl/diagnostics.py` (`python -m cardscript.dsl.diagnostics`); a test keeps it current.",
           "Every diagnostic prints as `file:line:col: severity[CODE]: message`, the source line with a",
           "caret under the problem, what was expected, and a hint.", ""]
    for code, (title, example, fix) in CODES.items():
        out += [f"## {code} — {title}", ""]
        if example:
            out += ["Example:", "", "```text", example, "```", ""]
        out += [f"Fix: {fix}.", ""]
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover - maintenance
    import pathlib

    target = pathlib.Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"
    target.write_text(diagnostics_markdown(), encoding="utf-8")
    print(f"wrote {target}")

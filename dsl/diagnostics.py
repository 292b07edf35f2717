"""Diagnostics: every user error the compiler reports, with a stable code.

A :class:`Diagnostic` carries severity, code, message, file, 1-based line and column,
an end position, and a hint. :func:`render` prints it like a compiler (file:line:col,
the source line and a caret underline). The table :data:`CODES` is the single source
of the codes; ``docs/diagnostics.md`` is generated from it.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from cardscript.dsl.textsafe import terminal

#: code -> (short title, example, fix). The fix is the hint of a diagnostic that brings
#: none of its own. The example is what brings the code, by its first line:
#: ``$ cardscript ...`` a command; ``# cardscript.toml`` an expansion's manifest (played
#: with GAME); ``scenario "..."`` a scenario file; ``game "..."`` a game of its own;
#: anything else a script added to GAME. GAME stands for a built-in game, OTHER-GAME for
#: another (this module names none: the compiler knows no game). tests/test_hostile_output.py
#: runs every example, with two built-in games for them, and checks that it gives its code.
CODES: dict[str, tuple[str, str, str]] = {
    "CS001": ("file not found", 'expansion "My Pack"\nuses "GAME", "missing.cards"',
              "check the path: it is relative to the script that names it"),
    "CS002": ("unknown game", "$ cardscript play injustise", "use a built-in game name or a folder of scripts"),
    "CS003": ("script outside its package", 'expansion "My Pack"\nuses "GAME", "/etc/passwd"',
              "a script may only use scripts inside its own folder tree"),
    "CS004": ("bad manifest", '# cardscript.toml\nname = "my-pack"\ngame = "GAME"\nversion = 1',
              "write cardscript.toml with name, version and game as quoted text (docs/ci.md)"),
    "CS005": ("expansions that do not fit together",
              '# cardscript.toml\nname = "my-pack"\ngame = "GAME"\nversion = "1.0.0"\nrequires = ["other-pack"]',
              "play an expansion with the game it names and what it requires, without what it conflicts with"),
    "CS006": ("unknown variant", "$ cardscript play GAME --variant shrot",
              "use a name from 'cardscript variants GAME', or a path to a .variant file"),
    "CS007": ("a set mixed in twice", "$ cardscript play GAME --mix GAME",
              "mix in each other set once (--mix OTHER-GAME); the game's own cards are in it already"),
    "CS101": ("syntax error", 'card "Jab": hero, cost 3\n  play +1 power',
              "write one of the words the parser expected at the caret; an ability label needs ':' before its "
              "statements"),
    "CS102": ("unexpected end of line", 'card "Jab":',
              "finish the line: a card needs at least one type or attribute, a label ':' and its statements"),
    "CS103": ("bad indentation", 'card "Jab": hero\n      play: +1 power\n  defense: draw a card',
              "indent every ability of a card, and every statement of a block, by the same amount, with spaces "
              "only (a tab counts as 8 columns)"),
    "CS104": ("nested too deep", 'card "Jab": hero\n  play: +' + "(" * 33 + "1" + ")" * 33 + " power",
              "nest less: move inner statements into an effect of their own, or compute parts of a long "
              "expression with 'let' (docs/language.md, \"Limits\")"),
    "CS201": ("unknown name", 'card "Jab": hero\n  play: move all cards from your hnad to your discard',
              "use a zone, counter, type, card or label the game declares"),
    "CS202": ("unknown effect", 'card "Jab": hero\n  play: +1 power; drew 1',
              "use an effect the game or the built-ins define (docs/reference.md lists the built-ins)"),
    "CS203": ("duplicate definition", 'card "Jab": hero\ncard "Jab": hero',
              "give each card, zone and counter one definition"),
    "CS204": ("wrong kind of argument", 'card "Jab": hero\n  play: draw your hand',
              "pass the kind of value the effect pattern asks for; name a zone or counter as it is "
              "declared: yours or theirs, shared ('the ...'), or of a card"),
    "CS205": ("unknown attribute", 'card "Jab": hero, price 3',
              "declare it with 'attribute price = 0' or use a declared one"),
    "CS206": ("parameter not bound", "effect scry {N: number}:\n  repeat M: draw a card",
              "use a parameter named in the effect pattern"),
    "CS207": ("missing declaration", 'game "Empty"',
              "declare what is missing: a game needs 'players', its zones and a 'turn:' block"),
    "CS208": ("'otherwise' without 'if'", 'card "Jab": hero\n  play:\n    otherwise: draw a card',
              "put 'otherwise:' right after an 'if' statement"),
    "CS209": ("bad value", "counter rage: per player, 20, 30..0",
              "write a value the declaration allows: bounds as low..high with low first, a player count from 1 up, "
              "one visibility per zone"),
    "CS210": ("variants conflict", "$ cardscript play GAME --variant short --variant extended",
              "play one of the two variants, or merge them into one"),
    "CS211": ("over a limit of the game's size", 'card "Jab": hero\n  play:\n    repeat 1000:\n      repeat 1000: '
              "+1 power", "bound what the game needs: fewer components, fewer nested loops (docs/language.md, "
              "\"Limits\")"),
    "CS215": ("an ability for the rest of the turn that can never be used",
              'card "Jab": hero\n  play: 0 times this turn, you may "draw": draw 1',
              "say how often it may be used: 'once this turn', 'N times this turn' (N at least 1) or 'any "
              "number of times this turn'"),
    # fixa (review of issue 12, B3)
    "CS216": ("a granted ability named like an action of the game",
              'card "Jab": hero\n  play: once this turn, you may "end turn": draw a card',
              "give the ability a name of its own, in the card's words (\"discard to draw\"): a player and "
              "a scenario's answer must tell it from the game's own actions"),
    "CS212": ("nothing before 'were affected'", 'card "Jab": hero\n  play:\n    if they were affected: draw a card',
              "put 'if they were affected' right after the statement whose effect on them it tests, in the same "
              "block"),
    "CS213": ("no active player between turns", 'card "Jab": hero\n  play: between turns: take actions',
              "open the action window outside 'between turns:' (docs/language.md, \"Between turns\")"),
    "CS214": ("an effect that calls itself on every path", "effect loop:\n  draw a card\n  loop",
              "make some path end: call it under a condition ('if ...:'), a choice or 'you may', or drop the "
              "call"),
    "CS220": ("mixed-in card left out", "$ cardscript cards GAME --mix OTHER-GAME",
              "a card of another set that uses its own rules cannot join; nothing to fix unless you want it: then "
              "write the rule it needs as a variant"),
    # cards area (issue 12): printed card text
    "CS235": ("a modal choice with one mode", 'card "Jab": hero\n  play: choose one: draw a card',
              "write the other modes after '; or' (\"choose one: +2 power; or draw a card\"), or drop "
              "'choose one:' when there is no choice"),
    "CS230": ("replacement of an unknown effect",
              'card "Hoarder": hero\n  instead of gian {C: cards}: move C to your deck',
              "'instead of PATTERN' names an effect the game's scripts define, with its words and parameter "
              "slots (docs/language.md, \"Replacement effects\")"),
    # cards2 area (issue 12): computed attributes
    "CS236": ("a computed attribute reads a computed attribute",
              'card "Jab": hero\n  vp = sum of vp of all cards in your deck',
              "compute it from counts, counters and printed attributes: a computed value may not wait on "
              "another (it could wait on itself)"),
    "CS222": ("a card name two sets share", 'scenario "Whose card?"\nuses "GAME"\nmix "OTHER-GAME"\nplayers 2\n\n'
              'expect count all "Vulnerability" in the box == 0',
              'a script of neither set must say which card: write its qualified name, "NAME [SET]" '
              "(docs/language.md, \"Card names and sets\")"),
    "CS301": ("scenario expectation failed",
              'scenario "Nine power"\nuses "GAME"\nplayers 2\n\nexpect your power == 9',
              "the game state differs from what the scenario expects"),
    "CS302": ("scenario answers left over", 'scenario "Spare answer"\nuses "GAME"\nplayers 2\n\nanswer yes\n'
              "expect your power == 0",
              "remove the answers no decision used, or add the step that uses them"),
    "CS303": ("scenario needs an answer", 'scenario "Unanswered"\nuses "GAME"\nplayers 2\n\ndo:\n'
              "  you may draw a card",
              "add an 'answer' line before the step that asks"),
    "CS304": ("scenario step after the end of the game",
              'scenario "Two ends"\nuses "GAME"\nplayers 2\n\ndo: end game "over"\nnext turn',
              "the game ended at an earlier step: remove this step, or end the scenario before the game ends"),
    "CS305": ("setup step out of place",
              'scenario "Late"\nuses "GAME"\nplayers 2\n\ndo: draw a card\nsetup answer "choose": 0',
              "put 'setup answer' and 'setup rig' lines above every other step: the setup runs first"),
    "CS306": ("scenario move found fewer cards",
              'scenario "Short"\nuses "GAME"\nplayers 2\n\ndo: move 1000 cards from the box to your hand',
              "the cards are not where the move looks: name the zone they are in (see the game's setup), "
              "or move fewer"),
    "CS401": ("runaway trigger chain",
              'scenario "Loop"\nuses "GAME"\nplayers 2\n\neffect ping:\n  emit "ping"\nwhen "ping": ping\n\n'
              "do:\n  ping",
              "make the trigger conditional or 'first time each turn'"),
    "CS501": ("trigger never fires", 'card "Spy": hero\n  when "spotted": draw a card',
              "emit the event from a rule or an effect, or fix the event's name (in 'when \"EVENT\"', "
              "'at the next \"EVENT\"', or the verb of an ongoing 'when you VERB ...')"),
    "CS502": ("choice, condition or cost never met",
              'types relic\ncard "Jab": hero\n  play: you may choose a relic from your hand: draw a card',
              "choose by a type or keyword some card has; compare a counter with values inside its bounds"),
    "CS503": ("unused definition", "counter rage: per player, 0", "use the definition, or remove it"),
    "CS504": ("card never leaves the box", 'types relic\ncard "Lost": relic      # setup moves no relic out of the box',
              "move it out of the box in setup, or let an effect take it out"),
    "CS505": ("unbounded trigger chain", 'effect scry:\n  emit "scry"\nwhen "scry": scry',
              "add 'first time each turn' to the trigger, or stop its body from emitting the event again"),
    "CS506": ("division by constant zero", 'card "Split": hero\n  play: +(count all cards in your hand / 0) power',
              "divide by a number other than 0 (E / 0 is always 0, E mod 0 always E), or write the value meant"),
    "CS507": ("modifier of zero", 'card "Idle": hero\n  play: cards cost 0 less for you this turn',
              "write the amount it changes by (1 or more), or remove the line"),
    "CS508": ("a loop that never runs", 'card "Idle": hero\n  play: repeat 0: draw a card',
              "write how many times it repeats (1 or more), or remove the loop"),
    "CS509": ("cards checked without a game", '# a file on its own\ncard "Stray": hero\n  play: draw a card',
              "start the file with 'expansion \"NAME\"' and 'uses \"GAME\"' (or put it in a folder with a "
              "cardscript.toml: 'cardscript new expansion'), so that its cards are checked against the game"),
    "CS510": ("a script its game does not use",
              '# new.cards, beside GAME\'s game.rules, which does not use it\ncard "Stray": hero\n  play: draw a card',
              "add the file to the 'uses' line of the game's main script (play leaves its cards out until then), "
              "or move it out of the game's folder"),
    "CS900": ("internal compiler error",
              "$ cardscript check my-game\ninternal error: KeyError: 'deck' — please report it as a cardscript issue; "
              "rerun with --debug for the traceback",
              "report it as an issue with the command and the scripts: this is a bug in cardscript, not in your "
              "script; '--debug' shows the traceback"),
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


class InternalError(Exception):
    """A bug in cardscript caught by one of its own checks, never a mistake in a script
    (the formatter would change what a script says; the IR misses its schema).

    The CLI reports it, like any unexpected exception, with :func:`internal_message`
    and exit code 3.
    """


#: how an internal error asks to be reported (one line, with :func:`internal_message`)
REPORT = "please report it as a cardscript issue; rerun with --debug for the traceback"


def internal_message(exc: BaseException) -> str:
    """The one line that reports an internal error: what went wrong and what to do.

    Args:
        exc: the unexpected exception (or an :class:`InternalError`).

    Returns:
        ``internal error: KIND: DETAIL — please report it ...``, safe for a terminal
        (one line, control characters escaped, the detail cut at 300 characters).
    """
    detail = str(exc) if isinstance(exc, InternalError) else f"{exc.__class__.__name__}: {exc}"
    if len(detail) > 300:
        detail = detail[:297] + "..."
    return f"internal error: {terminal(detail)} — {REPORT}"


def default_hint(code: str) -> str:
    """The fix of ``code`` in :data:`CODES`: the hint of a diagnostic without its own."""
    entry = CODES.get(code)
    return entry[2] if entry else ""


def error(code: str, message: str, span: Span | None, hint: str = "", expected: Iterable[str] = ()) -> Diagnostic:
    """Build an error diagnostic; without a hint of its own it gets its code's fix."""
    return Diagnostic("error", code, message, span, hint or default_hint(code), tuple(expected))


def unreadable_path(exc: BaseException) -> Diagnostic | None:
    """CS001 for a path the system cannot even look up (too long, or not encodable):
    raised as an ``OSError`` by the first ``stat`` of it, wherever that is; None for any
    other error (a bug of cardscript's, reported as one)."""
    import errno

    if not isinstance(exc, OSError) or exc.errno not in (errno.ENAMETOOLONG, errno.EILSEQ):
        return None
    name = str(exc.filename or "")
    shown = name if len(name) <= 80 else f"{name[:60]}... ({len(name):,} characters)"
    return error("CS001", f"cannot look up {shown!r}: {exc.strerror or exc}", None,
                 "name a file or folder by a shorter path")


def warning(code: str, message: str, span: Span | None, hint: str = "") -> Diagnostic:
    """Build a warning diagnostic; without a hint of its own it gets its code's fix."""
    return Diagnostic("warning", code, message, span, hint or default_hint(code))


def span_at(at: str | None) -> Span | None:
    """The span of a statement from where it is written, ``'file:line:col'`` (a lowered
    block's ``_at``, a runaway's ``at``), underlining the rest of its line; None for None or
    text of another shape."""
    if not at:
        return None
    file, _, rest = at.rpartition(":")
    file, _, line = file.rpartition(":")
    if not file or not line.isdigit() or not rest.isdigit():
        return None
    return Span(file, int(line), int(rest), int(line) + 1, 1)


def runaway(message: str, chain: Iterable[str], at: str | None, fallback: Span | None = None) -> Diagnostic:
    """The CS401 of a game stopped by a runaway chain, a recursion or the step budget
    (:class:`cardscript.runtime.errors.RunawayError`'s message and chain): placed at ``at``,
    the statement that was running ('file:line:col', see :func:`runaway_at`), else at
    ``fallback``, with the chain in the hint."""
    chain = " -> ".join(chain)
    fix = _RUNAWAY_FIXES.get(next((k for k in _RUNAWAY_FIXES if k in message), ""), default_hint("CS401"))
    hint = f"it was running {chain}; {fix}" if chain else fix
    return error("CS401", message, span_at(at) or fallback, hint)


#: words of a runaway's message (runtime/errors.py's raisers) -> the fix of that kind of
#: runaway; any other (a trigger chain) gets CS401's own hint
_RUNAWAY_FIXES = {
    "levels deep": "an effect that runs itself again (directly, or through the effects and triggers it runs) "
                   "needs a condition that turns false as it goes: count down a counter, or stop when a zone "
                   "is empty",
    "effect calls nested": "an effect that calls itself needs a condition that turns false as it goes: count "
                           "down a counter, or stop when a zone is empty",
    "budget": "a loop or chain ran too long: give each 'repeat' a count that ends, and each trigger that "
              "emits an event a condition or 'first time each turn'",
}


def runaway_position(exc: BaseException) -> str | None:
    """:func:`runaway_at` of a :class:`cardscript.runtime.errors.RunawayError`, with the
    built-in games' folder."""
    from cardscript.dsl.front.loader import builtin_root

    return runaway_at(getattr(exc, "ats", ()), str(builtin_root()))


def runaway_at(ats: Iterable[str], builtin: str) -> str | None:
    """The position to report a runaway at, from the statements it left (innermost first,
    ``RunawayError.ats``): the innermost one outside the folder ``builtin`` (the built-in
    games: a chain a user's card starts runs through their rules too, and the user's line
    is the one to fix), else the innermost one; None when there is none."""
    ats = list(ats)
    root = os.path.realpath(builtin)
    for at in ats:
        sp = span_at(at)
        if sp is not None and not os.path.realpath(sp.file).startswith(root + os.sep):
            return at
    return ats[0] if ats else None


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to ``word`` (exact case first, then ignoring case), or None when
    nothing is close."""
    pool = sorted(set(choices))
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not close:
        low = {c.lower(): c for c in pool}
        close = [low[m] for m in difflib.get_close_matches(word.lower(), list(low), n=1, cutoff=0.6)]
    return close[0] if close else None


#: Control words of other programming languages -> how this language says it: the hint of
#: a statement that starts with one (``else: +1 power``), where the closest effect pattern
#: ('play {C: cards} {B: block}') would mislead. Words of the language itself, none of a game.
FOREIGN_WORDS: dict[str, str] = {
    "else": "write 'otherwise:' (this language's 'else'), on the line right after the 'if'",
    "elif": "write 'otherwise: if COND: ...' (this language's 'else if'), right after the 'if'",
    "elsif": "write 'otherwise: if COND: ...' (this language's 'else if'), right after the 'if'",
    "elseif": "write 'otherwise: if COND: ...' (this language's 'else if'), right after the 'if'",
    "then": "an 'if' takes ':' where other languages write 'then': 'if COND: ...'",
    "endif": "a block ends where its indentation ends: remove the line",
    "endfor": "a block ends where its indentation ends: remove the line",
    "fi": "a block ends where its indentation ends: remove the line",
    "foreach": "write 'for each foe: ...', 'for each player: ...' or 'for CARDS: ...'",
    "while": "loops are bounded: write 'repeat N: ...', or 'if COND: ...' for one test",
    "unless": "write 'if not COND: ...' (this language's 'unless')",
}


def foreign_word_hint(word: str) -> str:
    """The hint for a control word of another language (:data:`FOREIGN_WORDS`), or ''."""
    return FOREIGN_WORDS.get(word.lower(), "")


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return 'did you mean "X"?' for the closest choice, or '' when nothing is close."""
    best = closest(word, choices)
    return f"did you mean '{best}'?" if best is not None else ""


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
        where = f"{terminal(sp.file)}:{sp.line}:{sp.column}: "
        text = (sources or {}).get(sp.file)
        if text is None:
            try:
                # 'replace': a diagnostic about a byte that is not UTF-8 still shows its line
                with open(sp.file, encoding="utf-8", errors="replace") as fh:
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
                excerpt = _excerpt(src, sp.line, sp.column, width)
    out = f"{where}{diag.severity}[{diag.code}]: {terminal(diag.message)}{excerpt}"
    if diag.expected:
        out += f"\n  expected one of: {terminal(', '.join(diag.expected))}"
    if diag.hint:
        out += f"\n  hint: {terminal(diag.hint)}"
    return out


#: the most characters of a source line an excerpt shows: a longer line is cut to a window
#: around the caret, marked with '…' where it goes on
EXCERPT_WIDTH = 160


def _excerpt(src: str, line: int, column: int, width: int) -> str:
    """The source line and its caret underline, safe for a terminal: a control character
    in the line shows as an escape, and the caret still stands under what it marks. A line
    longer than :data:`EXCERPT_WIDTH` shows only a window around the caret."""
    lead = tail = ""
    if len(src) > EXCERPT_WIDTH:
        start = max(0, min(column - 1 - EXCERPT_WIDTH // 3, len(src) - EXCERPT_WIDTH))
        end = start + EXCERPT_WIDTH
        lead, tail = ("…" if start else ""), ("…" if end < len(src) else "")
        column -= start
        width = max(1, min(width, EXCERPT_WIDTH - column + 1))
        src = src[start:end]
    before, marked = src[:column - 1], src[column - 1:column - 1 + width]
    pad = " " * len(lead) + "".join("\t" if ch == "\t" else " " for ch in terminal(before, keep="\t"))
    carets = "^" * max(1, len(terminal(marked, keep="\t")) if marked else width)
    gutter = " " * len(str(line))
    return f"\n {line} | {lead}{terminal(src, keep=chr(9))}{tail}\n {gutter} | {pad}{carets}"


def to_json(diags: list[Diagnostic]) -> str:
    """All diagnostics as a JSON array (stable key order)."""
    return json.dumps([d.to_json() for d in diags], indent=2, sort_keys=True)


def diagnostics_markdown() -> str:
    """docs/diagnostics.md, generated from :data:`CODES` so that it cannot drift."""
    out = ["# Diagnostic codes", "",
           "Generated from `dsl/diagnostics.py` (`python -m cardscript.dsl.diagnostics`); a test keeps it current.",
           "Every diagnostic prints as `file:line:col: severity[CODE]: message`, the source line with a",
           "caret under the problem, what was expected, and a hint: its own (\"did you mean 'hand'?\"), or",
           "else the code's hint below.", "",
           "Each example gives its code (the tests run them all): a line `$ cardscript ...` is a command;",
           "`# cardscript.toml` the manifest of an expansion played with GAME; `scenario \"...\"` a",
           "scenario file; `game \"...\"` a game of its own; anything else a script added to GAME.",
           "GAME stands for a built-in game, OTHER-GAME for another one.",
           "Only CS900 has no script that gives it: it is a bug in cardscript, reported as `internal error`",
           "with exit code 3.", ""]
    for code, (title, example, fix) in CODES.items():
        out += [f"## {code} — {title}", ""]
        if example:
            out += ["Example:", "", "```text", example, "```", ""]
        out += [f"Hint: {fix}.", ""]
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover - maintenance
    import pathlib

    target = pathlib.Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"
    target.write_text(diagnostics_markdown(), encoding="utf-8")
    print(f"wrote {target}")

"""Diagnostics in every output format: text, JSON, SARIF 2.1.0 and GitHub annotations.

``cardscript check --format FORMAT`` prints :func:`format_diagnostics`. Each format
carries the same facts — code, severity, message, file, 1-based line and column, the
end of the span (exclusive), the hint:

* ``text``: like a compiler (:func:`cardscript.dsl.diagnostics.render`): excerpt, caret, hint;
* ``json``: a JSON array, one object per diagnostic (:meth:`Diagnostic.to_json`);
* ``sarif``: one SARIF 2.1.0 log for code-scanning tools, with a rule per code of
  :data:`cardscript.dsl.diagnostics.CODES` (``runs[0].tool.driver.rules``);
* ``github``: GitHub Actions workflow commands, one ``::error file=…,line=…::message``
  line per diagnostic, shown as annotations on the pull request.

Script text (messages, excerpts, file names) is printed safe for a terminal: control
characters show as escapes (:mod:`cardscript.dsl.textsafe`); the JSON formats say the
same with ``\\uXXXX`` escapes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cardscript.dsl.diagnostics import CODES, Diagnostic, Span, render, to_json
from cardscript.dsl.textsafe import json_text, terminal

FORMATS = ("text", "json", "sarif", "github")

#: Codes reported as warnings, SARIF's default level for them (the static checks of
#: :mod:`cardscript.dsl.tools.lint`, CS501 to CS510, a mixed-in card left out, CS220, and CS306); the rest are errors.
WARNING_CODES = frozenset({"CS220", "CS306", *(f"CS5{n:02d}" for n in range(1, 11))})

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "note": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "note": "notice"}


def format_diagnostics(diags: list[Diagnostic], fmt: str, sources: dict[str, str] | None = None) -> str:
    """All diagnostics in one output format.

    Args:
        diags: the diagnostics, in the order to print them.
        fmt: one of :data:`FORMATS`.
        sources: file name -> text, for the excerpts (text) and snippets (SARIF).

    Returns:
        The text to print (no trailing newline; empty for no diagnostics in text and
        github formats).
    """
    if fmt == "text":
        return "\n".join(render(d, sources) for d in diags)
    if fmt == "json":
        return to_json(diags)
    if fmt == "sarif":
        return json_text(json.dumps(to_sarif(diags, sources), indent=2, ensure_ascii=False))
    if fmt == "github":
        return "\n".join(github_annotation(d) for d in diags)
    raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")


# ---------------------------------------------------------------- spans
def span_end(span: Span) -> tuple[int, int]:
    """The (line, column) just after the span; a point span covers one character."""
    if span.end_line > span.line or (span.end_line == span.line and span.end_column > span.column):
        return span.end_line, span.end_column
    return span.line, span.column + 1


# ---------------------------------------------------------------- SARIF 2.1.0
def _version() -> str:
    from importlib import metadata  # here: only SARIF asks, and the import is 30 ms of every check

    try:
        return metadata.version("cardscript")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


def _rule_name(title: str) -> str:
    """'unknown name' -> 'UnknownName' (SARIF rule names are identifiers)."""
    words = "".join(c if c.isalnum() else " " for c in title).split()
    return "".join(w[:1].upper() + w[1:] for w in words)


def sarif_rules() -> list[dict[str, Any]]:
    """One SARIF reportingDescriptor per code of :data:`CODES`, in code order."""
    rules = []
    for code, (title, example, fix) in CODES.items():
        # CS900's example is what the command prints for a bug, not a script to fix
        shown = example if code != "CS900" else ""
        help_text = f"{title}. Fix: {fix}." + (f"\nExample:\n{shown}" if shown else "")
        rules.append({
            "id": code,
            "name": _rule_name(title),
            "shortDescription": {"text": title},
            "fullDescription": {"text": f"{title}: {fix}."},
            "help": {"text": help_text},
            "defaultConfiguration": {"level": "warning" if code in WARNING_CODES else "error"},
        })
    return rules


def _uri(file: str) -> tuple[str, str | None]:
    """An artifact URI: relative to the current folder when possible (base %SRCROOT%)."""
    p = Path(file)
    if p.is_absolute():
        try:
            p = p.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            return p.resolve().as_uri(), None
    return p.as_posix(), "%SRCROOT%"


def _location(span: Span, sources: dict[str, str] | None) -> dict[str, Any]:
    end_line, end_col = span_end(span)
    region: dict[str, Any] = {"startLine": span.line, "startColumn": span.column,
                              "endLine": end_line, "endColumn": end_col}
    lines = (sources or {}).get(span.file, "").splitlines()
    if 1 <= span.line <= len(lines):
        region["snippet"] = {"text": lines[span.line - 1]}
    uri, base = _uri(span.file)
    artifact: dict[str, Any] = {"uri": uri}
    if base:
        artifact["uriBaseId"] = base
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def sarif_result(diag: Diagnostic, index: dict[str, int], sources: dict[str, str] | None = None) -> dict[str, Any]:
    """One SARIF result: ruleId, level, message (with the hint), locations."""
    text = diag.message + (f" (hint: {diag.hint})" if diag.hint else "")
    if diag.expected:
        text += f" (expected one of: {', '.join(diag.expected)})"
    result: dict[str, Any] = {"ruleId": diag.code, "level": _SARIF_LEVEL.get(diag.severity, "error"),
                              "message": {"text": text}}
    if diag.code in index:
        result["ruleIndex"] = index[diag.code]
    if diag.span is not None:
        result["locations"] = [_location(diag.span, sources)]
    return result


def to_sarif(diags: list[Diagnostic], sources: dict[str, str] | None = None) -> dict[str, Any]:
    """A complete SARIF 2.1.0 log (one run of cardscript) for the diagnostics."""
    rules = sarif_rules()
    index = {r["id"]: i for i, r in enumerate(rules)}
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "cardscript", "version": _version(), "rules": rules}},
        "columnKind": "unicodeCodePoints",
        "results": [sarif_result(d, index, sources) for d in diags],
    }
    if any(d.span is not None and not Path(d.span.file).is_absolute() for d in diags):
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": Path.cwd().resolve().as_uri() + "/"}}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


# ---------------------------------------------------------------- GitHub annotations
def _escape_data(text: str) -> str:
    """A workflow command's text: one line (its own escapes), no control characters."""
    return terminal(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(diag: Diagnostic) -> str:
    """A GitHub Actions workflow command:
    ``::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CS201::message``."""
    props: list[tuple[str, str]] = []
    if diag.span is not None:
        sp = diag.span
        end_line, end_col = span_end(sp)
        file = sp.file
        if Path(file).is_absolute() and Path.cwd().resolve() in Path(file).resolve().parents:
            file = os.path.relpath(file)
        props += [("file", Path(file).as_posix()), ("line", str(sp.line)), ("col", str(sp.column)),
                  ("endLine", str(end_line)), ("endColumn", str(end_col))]
    props.append(("title", diag.code))
    message = diag.message + (f"\nhint: {diag.hint}" if diag.hint else "")
    head = ",".join(f"{k}={_escape_property(v)}" for k, v in props)
    return f"::{_GITHUB_LEVEL.get(diag.severity, 'error')} {head}::{_escape_data(message)}"

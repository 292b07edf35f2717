"""Script text made safe to show: on a terminal, in JSON printed to one, in SVG and HTML.

A script is data from anyone, and so is every name in it. A card name can hold an
escape sequence that clears the screen or retitles the terminal, a bidi override that
reorders the line it is printed on, or a NUL that makes an SVG file unreadable. Every
point where script text leaves cardscript goes through one of these functions:

* :func:`terminal`: control characters shown as escapes (``\\x1b``, ``\\u202e``);
* :func:`json_text`: JSON that says the same, with those characters as ``\\uXXXX``;
* :func:`cell`: a rich table cell or title that is never read as markup;
* :func:`xml`: escaped for XML and HTML, with the characters XML forbids replaced.
"""

from __future__ import annotations

import html
import re
from typing import Any

#: C0 and C1 controls, DEL, bidi embeddings/overrides/isolates, line and paragraph
#: separators, lone surrogates (unprintable: writing one to stdout raises), and the
#: invisible zero-width space, word joiner and invisible operators, and byte-order mark,
#: which make two names print alike ("X" and "X\u200b").
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069"
                     "\ufeff\ud800-\udfff]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
#: what XML 1.0 does not allow in a document (HTML parsers reject the same, and C1 controls)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def escape_char(ch: str) -> str:
    """One character as the escape :func:`terminal` shows: ``\\t``, ``\\x1b``, ``\\u202e``."""
    code = ord(ch)
    if ch in _SHORT:
        return _SHORT[ch]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal(text: str, keep: str = "") -> str:
    """Text to print on a terminal: every control character shown as an escape.

    Args:
        text: any text, typically from a script (a card name, a source line).
        keep: control characters to leave as they are, e.g. ``"\\n"`` for a message
            of several lines or ``"\\t\\n"`` for a diff.

    Returns:
        The text with each unsafe character replaced by :func:`escape_char`; text
        without one is returned unchanged.
    """
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else escape_char(m.group()), text)


def json_text(text: str) -> str:
    """JSON (as :func:`json.dumps` writes it) made safe for a terminal, meaning the same.

    ``json.dumps(..., ensure_ascii=False)`` escapes C0 controls but leaves DEL, C1
    controls, bidi overrides and lone surrogates raw; they can only stand inside
    strings, where ``\\uXXXX`` says the same.
    """
    return _UNSAFE.sub(lambda m: m.group() if m.group() in "\n" else f"\\u{ord(m.group()):04x}", text)


def cell(text: Any) -> Any:
    """A rich ``Text`` for a table cell or title: no markup (``[bold]``), no controls.

    Returns:
        ``rich.text.Text`` of :func:`terminal` of ``str(text)``.
    """
    from rich.text import Text

    return Text(terminal(str(text)))


def xml(text: str, replacement: str = "\ufffd") -> str:
    """Text for an XML (SVG) or HTML document, in an element or a quoted attribute.

    Args:
        text: any text.
        replacement: stands for each character XML forbids (NUL, other C0 controls but
            tab, newline and carriage return, C1 controls, lone surrogates, U+FFFE/U+FFFF).

    Returns:
        The text with ``& < > " '`` escaped and the forbidden characters replaced.
    """
    return html.escape(_NOT_XML.sub(replacement, text), quote=True)

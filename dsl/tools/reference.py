"""docs/reference.md, generated from the compiler's own tables so that it cannot drift:
the built-in effect patterns (:data:`cardscript.dsl.front.check.BUILTINS`), parameter kinds, the
runtime's effect, selector, condition and expression classes (their docstrings), and
the grammar's keywords. ``python -m cardscript.dsl.tools.reference`` rewrites the file; a test checks it.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from cardscript.dsl.diagnostics import CODES
from cardscript.dsl.front.cache import grammar_code
from cardscript.dsl.front.check import BUILTINS, RANK, SLOT_KINDS
from cardscript.dsl.front.parse import grammar_text
from cardscript.runtime import effects as E

_PROTOCOLS = (
    ("Statements (effects)", "run"),
    ("Selectors of cards", "cards"),
    ("Selectors of players", "players"),
    ("Zone references", "slots"),
    ("Conditions", "test"),
    ("Expressions", "evaluate"),
)


def _first_line(obj: object) -> str:
    doc = inspect.cleandoc(getattr(obj, "__dict__", {}).get("__doc__") or "")
    return doc.split("\n\n")[0].replace("\n", " ").strip()


def _classes() -> list[type]:
    out = []
    for name, obj in vars(E).items():
        if isinstance(obj, type) and issubclass(obj, E.Node) and obj is not E.Node and not name.startswith("_"):
            out.append(obj)
    return sorted(out, key=lambda c: c.__name__)


def _keywords() -> list[str]:
    words = set(re.findall(r'"([a-z][a-z\' -]*)"', grammar_code(grammar_text())))
    return sorted(w for w in words if w.strip())


def reference_markdown() -> str:
    """The text of docs/reference.md."""
    out = ["# Reference: the language's primitives", "",
           "Generated from the compiler's tables (`python -m cardscript.dsl.tools.reference`); "
           "a test keeps it current.",
           "The language itself is explained in [language.md](language.md).", "",
           "## Built-in effects", "",
           "Every other verb is an `effect` written in script; these are the runtime's own.", "",
           "| pattern | runtime class |", "|---|---|"]
    classes = {"move": "Move", "take": "Take", "shuffle": "Shuffle", "flip": "Flip", "reveal": "Reveal",
               "play": "Play", "take actions": "TakeActions", "take control": "TakeControl", "roll": "Roll",
               "put under": "Move (bottom)"}
    for key, pattern in BUILTINS.items():
        out.append(f"| `{pattern}` | `{classes.get(key, '?')}` |")
    out += ["", "## Parameter kinds of effect patterns", "",
            ", ".join(f"`{k}`" for k in SLOT_KINDS), "",
            "## Script specificity (what may replace what)", "",
            "| header | rank |", "|---|---|"]
    out += [f"| `{k}` | {v} |" for k, v in sorted(RANK.items(), key=lambda kv: kv[1]) if k]
    for title, method in _PROTOCOLS:
        rows = [c for c in _classes() if method in c.__dict__ or (method == "test" and "holds" in c.__dict__)]
        if not rows:
            continue
        out += ["", f"## {title}", "", f"Runtime classes with `{method}(g, ctx)`:", "",
                "| class | what it does |", "|---|---|"]
        out += [f"| `{c.__name__}` | {_first_line(c) or '—'} |" for c in rows]
    out += ["", "## Keywords of the grammar", "",
            "Reserved words (they cannot be zone, counter or type names):", "",
            ", ".join(f"`{w}`" for w in _keywords()), "",
            "## Diagnostic codes", "",
            "See [diagnostics.md](diagnostics.md): " + ", ".join(f"`{c}`" for c in CODES) + ".", ""]
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover - maintenance
    target = Path(__file__).resolve().parents[2] / "docs" / "reference.md"
    target.write_text(reference_markdown(), encoding="utf-8")
    print(f"wrote {target}")

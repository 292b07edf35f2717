"""Variants: scripts that add, remove or replace parts of a game (docs/variants.md).

A game's variants live in the ``variants/`` folder beside its main script, one
``.variant`` file each; ``--variant NAME`` names one by file stem (``short``) or by
its header name (``"Short Game"``), or gives a path to a user's own variant file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardscript.dsl.diagnostics import CompileError, did_you_mean, error
from cardscript.dsl.front.loader import resolve_game


@dataclass(frozen=True)
class VariantInfo:
    """One variant: its file stem, header name, first comment line, and path."""

    key: str
    title: str
    about: str
    path: Path


def _read(path: Path) -> VariantInfo:
    title, about = path.stem, ""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    for line in lines:
        s = line.strip()
        if s.startswith("variant \"") and s.count('"') >= 2:
            title = s.split('"')[1]
        elif s.startswith("#") and not about:
            about = s.lstrip("#").strip()
    return VariantInfo(path.stem, title, about, path)


def list_variants(game: str) -> list[VariantInfo]:
    """The variants shipped with a game (sorted by file name).

    Raises:
        CompileError: for an unknown game.
    """
    folder = resolve_game(game).parent / "variants"
    if not folder.is_dir():
        return []
    return [_read(p) for p in sorted(folder.glob("*.variant"))]


def _norm(s: str) -> str:
    return "".join(ch for ch in s.lower() if ch.isalnum())


def resolve_variants(game: str, names: list[str]) -> list[Path]:
    """Paths of the variants named on the command line, in the order given.

    Raises:
        CompileError: CS006 for a name that is neither a variant of the game nor a file.
    """
    known = list_variants(game) if names else []
    out: list[Path] = []
    for name in names:
        p = Path(name)
        if p.is_file():
            out.append(p)
            continue
        hit = next((v for v in known if _norm(name) in (_norm(v.key), _norm(v.title))), None)
        if hit is None:
            choices = [v.key for v in known]
            hint = did_you_mean(name, choices) or (
                f"variants of {game}: {', '.join(choices)}" if choices else f"{game} has no variants")
            raise CompileError([error("CS006", f"unknown variant {name!r}", None, hint)])
        if hit.path not in out:
            out.append(hit.path)
    return out


def mix_scripts(game: str, others: list[str]) -> tuple[list[Path], list[Path]]:
    """What ``--mix OTHER`` adds: (the game's own ``variants/mixing.variant``, if any — the
    rules it applies when sets are mixed — and the other sets' card files).

    The other set's card files are its scripts without a header (its rules are not
    mixed in: the game being played decides).

    Raises:
        CompileError: CS002 for an unknown game.
    """
    from cardscript.dsl.front.loader import SCRIPT_SUFFIXES, _header_kind

    if not others:
        return [], []
    rules = []
    own = resolve_game(game).parent / "variants" / "mixing.variant"
    if own.is_file():
        rules.append(own)
    cards: list[Path] = []
    for other in others:
        folder = resolve_game(other).parent
        headers = ("game", "ruleset", "variant", "scenario", "expansion")
        cards += [p for p in sorted(folder.iterdir())
                  if p.suffix in SCRIPT_SUFFIXES and p.suffix != ".scenario" and _header_kind(p) not in headers]
    return rules, cards

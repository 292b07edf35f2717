"""Variants: scripts that add, remove or replace parts of a game (docs/variants.md).

A game's variants live in the ``variants/`` folder beside its main script, one
``.variant`` file each; ``--variant NAME`` names one by file stem (``short``) or by
its header name (``"Short Game"``), or gives a path to a user's own variant file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cardscript.dsl.diagnostics import CompileError, Diagnostic, did_you_mean, error
from cardscript.dsl.files import FileProblem, inside, read_text
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.loader import Program, load_program, package_root, resolve_game


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
        lines = read_text(path, [package_root(path)]).splitlines()
    except FileProblem:
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


def resolve_variants(game: str, names: list[str], paths: bool = True) -> list[Path]:
    """Paths of the variants named on the command line, in the order given.

    Args:
        game: the game (a built-in name or a path).
        names: variant names (file stem or header name) or, with ``paths``, paths to files.
        paths: whether a name may be a path (the command line's, not a script's).

    Raises:
        CompileError: CS006 for a name that is neither a variant of the game nor a file.
    """
    known = list_variants(game) if names else []
    out: list[Path] = []
    for name in names:
        p = Path(name)
        if paths and name and not p.is_dir() and p.exists():  # a FIFO or device: reading it says so
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


def scenario_variant_paths(scenario: Path, heads: list[A.Header], game: str) -> list[Path]:
    """The variants a scenario plays (its ``variant "NAME"`` lines), in order.

    A name is one of the game's variants; a path (with a '/', or ending ``.variant``) is
    relative to the scenario, like a path in ``uses``, and must name a ``.variant`` file
    inside the scenario's package root (:func:`cardscript.dsl.front.loader.package_root`).

    Raises:
        CompileError: CS003 for an absolute path or one leading outside the package root;
            CS001 for a missing file or one that is not a ``.variant``; CS006 for an
            unknown name.
    """
    root = package_root(scenario)
    out: list[Path] = []
    diags: list[Diagnostic] = []
    hint = "a scenario may only use variants inside its own package, by a relative path"
    for head in heads:
        name = head.name
        local = scenario.parent / name
        if "/" not in name and not name.endswith(".variant") and not local.exists():
            try:
                out += [p for p in resolve_variants(game, [name], paths=False) if p not in out]
            except CompileError as exc:
                diags += [error(d.code, d.message, head.span, d.hint) for d in exc.diagnostics]
            continue
        dest = Path(os.path.normpath(Path(os.path.abspath(scenario)).parent / name))
        if os.path.isabs(name) or name.startswith("~"):
            diags.append(error("CS003", f"variant {name!r} is an absolute path", head.span, hint))
        elif not inside(dest, [root]) or not inside(dest.resolve(), [root]):
            diags.append(error("CS003", f"variant {name!r} is outside the package ({root})", head.span, hint))
        elif dest.suffix != ".variant":
            diags.append(error("CS001", f"{name!r} is not a variant: a scenario plays .variant files",
                               head.span, "name a .variant file, or one of the game's variants"))
        elif not dest.exists():
            diags.append(error("CS001", f"no such variant file: {name}", head.span,
                               "a path is relative to the scenario"))
        elif dest not in out:
            out.append(dest)
    if diags:
        raise CompileError(diags)
    return out


def scenario_program(scenario: Path, program: Program) -> Program:
    """A scenario's program with what its lines after the header name: ``variant "NAME"``
    (:func:`scenario_variant_paths`) and ``mix "GAME"`` — another set's cards mixed in, with
    the game's mixing rules, as ``play --mix GAME`` (a built-in game, or a folder by a path
    relative to the scenario, inside its package root). Unchanged when it names neither.

    Raises:
        CompileError: CS207 when it names some but uses no game; as
            :func:`scenario_variant_paths`; CS003 for a set outside the package, CS001/CS002
            for one that is not there.
    """
    from cardscript.dsl.front.mixing import with_taken

    own = next((s for s in program.scripts if s.file == program.main), None)
    heads = [i for i in own.items if isinstance(i, A.Header)][1:] if own is not None else []
    variants = [h for h in heads if h.kind == "variant"]
    mixes = [h for h in heads if h.kind == "mix"]
    if not variants and not mixes:
        return program
    game = next((s.file for s in program.scripts
                 if any(isinstance(i, A.Header) and i.kind == "game" for i in s.items)), None)
    if game is None:
        what = "a variant" if variants else "a set mixed in"
        raise CompileError([error("CS207", f"a scenario with {what} must use a game", heads[0].span,
                                  "add 'uses \"GAME\"' (a built-in game or a game's script) to the scenario")])
    folder = str(Path(game).parent)
    rules, cards = _scenario_mix(scenario, mixes, folder)
    return with_taken(load_program(scenario, scenario_variant_paths(scenario, variants, folder) + rules, cards))


def _scenario_mix(scenario: Path, heads: list[A.Header], game: str) -> tuple[list[Path], list[Path]]:
    root = package_root(scenario)
    rules: list[Path] = []
    cards: list[Path] = []
    diags: list[Diagnostic] = []
    for head in heads:
        name = head.name
        if "/" in name:
            dest = Path(os.path.normpath(Path(os.path.abspath(scenario)).parent / name))
            if os.path.isabs(name) or not inside(dest, [root]) or not inside(dest.resolve(), [root]):
                diags.append(error("CS003", f"set {name!r} is outside the package ({root})", head.span,
                                   "mix a built-in game, or a folder of the scenario's package by a relative path"))
                continue
            name = str(dest)
        try:
            more_rules, more_cards = mix_scripts(game, [name])
        except CompileError as exc:
            diags += [error(d.code, d.message, head.span, d.hint) for d in exc.diagnostics]
            continue
        rules += [p for p in more_rules if p not in rules]
        cards += [p for p in more_cards if p not in cards]
    if diags:
        raise CompileError(diags)
    return rules, cards


def mix_scripts(game: str, others: list[str]) -> tuple[list[Path], list[Path]]:
    """What ``--mix OTHER`` adds: (the game's own ``variants/mixing.variant``, if any — the
    rules it applies when sets are mixed — and the other sets' card files).

    The other set's card files are its scripts without a header (its rules are not
    mixed in: the game being played decides).

    Raises:
        CompileError: CS002 for an unknown game; CS007 for the game itself, or a set
            named twice.
    """
    from cardscript.dsl.front.loader import SCRIPT_SUFFIXES, _header_kind

    if not others:
        return [], []
    rules = []
    own = resolve_game(game).parent / "variants" / "mixing.variant"
    if own.is_file():
        rules.append(own)
    cards: list[Path] = []
    home = resolve_game(game).resolve().parent
    seen: dict[Path, str] = {}
    for other in others:
        folder = resolve_game(other).parent
        real = folder.resolve()
        if real == home:  # its cards are in the game already: each card twice
            raise CompileError([error("CS007", f"--mix {other} is the game itself", None,
                                      "mix in the cards of another set; the game's own are in it already")])
        if real in seen:
            raise CompileError([error("CS007", f"--mix {other} is given twice (as {seen[real]} before)", None,
                                      "mix each set in once")])
        seen[real] = other
        headers = ("game", "ruleset", "variant", "scenario", "expansion")
        cards += [p for p in sorted(folder.iterdir())
                  if p.suffix in SCRIPT_SUFFIXES and p.suffix != ".scenario" and p.is_file()
                  and _header_kind(p) not in headers]
    return rules, cards


def game_scripts(game: str, expansions: list[str], variants: list[str],
                 mix: list[str]) -> tuple[list[Path], list[Path]]:
    """The scripts to compile GAME with, as ``--with``, ``--variant`` and ``--mix`` name
    them: (extra scripts: the expansions', then the variants', then the mixing rules;
    the mixed-in sets' card files). The CLI and the Python API both compile through this.

    Raises:
        CompileError: an expansion's manifest or scripts have errors, a variant or a set
            to mix is unknown.
    """
    from cardscript.dsl.tools.manifest import load_expansions

    rules, cards = mix_scripts(game, mix)
    scripts, diags = load_expansions(game, expansions)
    if any(d.severity == "error" for d in diags):
        raise CompileError(diags)
    return scripts + resolve_variants(game, variants) + rules, cards

"""The front end's public entry points: compile a game, check paths, build the IR.

Pipeline (one stage per module or package): :mod:`cardscript.dsl.front.loader` (sources) ->
:mod:`cardscript.dsl.front.parse` -> :mod:`cardscript.dsl.front.build` (AST) -> :mod:`cardscript.dsl.front.check`
(declarations, call matching) -> :mod:`cardscript.dsl.front.lower` (runtime objects) ->
:class:`cardscript.runtime.definition.GameDefinition` and the JSON IR (:func:`to_ir`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cardscript.dsl.diagnostics import CompileError, Diagnostic, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.loader import SCRIPT_SUFFIXES, Program, _header_kind, load_program, resolve_game
from cardscript.dsl.front.lower import compile_program
from cardscript.dsl.front.recover import past_broken
from cardscript.runtime import effects as E
from cardscript.runtime.definition import GameDefinition

IR_FORMAT = "cardscript-ir/1"


def compile_game(game: str, extra: list[Path] | None = None,
                 mixed: list[Path] | None = None) -> tuple[GameDefinition, list[Diagnostic], Program]:
    """Compile a built-in game name or a folder/file of scripts.

    Args:
        game: a built-in game name, or a path.
        extra: more scripts to add (expansions, then variants).
        mixed: card files of other sets to mix in (see :func:`cardscript.dsl.front.variants.mix_scripts`):
            their cards that need rules the game lacks are left out with a warning.

    Returns:
        (definition, warnings, program).

    Raises:
        CompileError: when any diagnostic is an error.
    """
    program = load_program(resolve_game(game), extra, mixed)
    if program.mixed:  # mixed-in cards take what they need from their own set's rules
        from cardscript.dsl.front.mixing import compile_mixed

        definition, diags = compile_mixed(program)
    else:
        definition, diags = compile_program(program)
    if definition is None:
        raise CompileError(diags)
    return definition, diags, program


@dataclass
class CheckReport:
    """What ``cardscript check`` found: diagnostics and the files they cover."""

    files: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)


def _entries(folder: Path) -> tuple[list[Path], list[Path]]:
    """A folder's script files and its sub-folders to walk, each sorted by name. Linked
    folders are not walked (a link loop would never end), nor hidden ones (``.x``, ``_x``);
    a FIFO or device named like a script is listed, and reading it refuses it."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return [], []
    files = [p for p in entries if p.suffix in SCRIPT_SUFFIXES and p.exists() and not p.is_dir()]
    subs = [p for p in entries if p.is_dir() and not p.is_symlink() and not p.name.startswith((".", "_"))]
    return files, subs


def _units(path: Path) -> list[tuple[str, Path]]:
    """Split a path into things to check: ('game', main script), ('expansion', folder with a
    manifest), ('scenario', file), ('parse', file: compiled when it uses a game, else parsed)."""
    from cardscript.dsl.tools.manifest import MANIFEST

    if path.is_file():
        if path.name == MANIFEST:
            return [("expansion", path.parent)]
        kind = _header_kind(path)
        if path.suffix == ".scenario" or kind == "scenario":
            return [("scenario", path)]
        if kind == "game":
            return [("game", path)]
        if kind == "expansion" and (path.parent / MANIFEST).is_file():
            # one script of an expansion package (as pre-commit passes them): checked as the
            # whole package, or an effect its cards use would look unused
            return [("expansion", path.parent)]
        if kind in ("expansion", "variant"):  # checked with the game it uses
            return [("parse", path)]
        mains = [f for f in _entries(path.parent)[0] if _header_kind(f) == "game"]
        if mains:
            return [("game", mains[0])]
        return [("expansion", path.parent)] if (path.parent / MANIFEST).is_file() else [("parse", path)]
    out: list[tuple[str, Path]] = []
    files, subs = _entries(path)
    mains = [f for f in files if _header_kind(f) == "game" and f.suffix != ".scenario"]
    if mains:
        out.append(("game", mains[0]))
        out.extend(("parse", f) for f in files if _header_kind(f) in ("expansion", "variant"))
    elif (path / MANIFEST).is_file():
        out.append(("expansion", path))
    elif any(f.suffix != ".scenario" for f in files):
        out.extend(("parse", f) for f in files if f.suffix != ".scenario")
    out.extend(("scenario", f) for f in files if f.suffix == ".scenario")
    for sub in subs:
        out.extend(_units(sub))
    return out


def check_program(program: Program) -> list[Diagnostic]:
    """Compile a loaded program and, when it has no error, run the static checks
    (:mod:`cardscript.dsl.tools.lint`) on it. Returns every diagnostic, errors and warnings."""
    from cardscript.dsl.tools.lint import lint

    definition, diags, sym = compile_program(program, with_symbols=True)
    if definition is None:
        return diags
    return diags + lint(program, sym, definition)


def _check_scenario(program: Program) -> list[Diagnostic]:
    from cardscript.dsl.front.check import collect
    from cardscript.dsl.front.lower import Lowerer

    sym, diags = collect(program.scripts, program.mixed)
    low = Lowerer(sym, program.mixed)
    low.definition(program.sources)
    for st in sym.scenario_steps:
        if hasattr(st, "cond"):
            low.cond(st.cond, {})
        elif hasattr(st, "body"):
            low.body(st.body, {})
    return [d for d in diags + low.diags if d.code != "CS220"]  # a mixed set's, not the scenario's


def _check_expansion(folder: Path, rep: CheckReport) -> list[Diagnostic]:
    """An expansion folder: its manifest, then its game compiled with its scripts."""
    from cardscript.dsl.tools.manifest import MANIFEST, expansion_scripts, read_manifest_text

    toml = folder / MANIFEST
    manifest, diags, text = read_manifest_text(toml)
    rep.sources[str(_shown(toml))] = text
    rep.files.append(str(_shown(toml)))
    scripts = expansion_scripts(folder)
    if manifest is None:  # check each script on its own
        for f in scripts:
            diags += _check_file(f, rep)
        return diags
    program = load_program(resolve_game(manifest.game), scripts, recover=True)
    rep.sources.update(program.sources)
    rep.files.extend(program.sources)
    return diags + past_broken(program, check_program(program))


def _check_file(f: Path, rep: CheckReport) -> list[Diagnostic]:
    """A script outside any game folder: compiled when what it uses holds a game, else parsed."""
    from cardscript.dsl.front.build import build

    try:
        program = load_program(f)
    except CompileError as exc:
        rep.files.append(str(f))
        return exc.diagnostics
    rep.sources.update(program.sources)
    rep.files.extend(program.sources)
    if any(i.kind == "game" for s in program.scripts for i in s.items if isinstance(i, A.Header)):
        return check_program(program)
    if any(i.kind == "variant" for s in program.scripts for i in s.items if isinstance(i, A.Header)):
        # a variant that does not name its game: check it against the game of its folder
        game = f.resolve().parent.parent if f.resolve().parent.name == "variants" else None
        if game is not None and any(_header_kind(p) == "game" for p in _entries(game)[0]):
            return check_program(load_program(resolve_game(str(game)), [f]))
    build(rep.sources[next(iter(program.sources))], next(iter(program.sources)))
    return []


def _shown(path: Path) -> str:
    from cardscript.dsl.tools.manifest import display

    return display(path)


def check_paths(paths: list[str]) -> CheckReport:
    """Parse and check every script under the paths (games, expansions, libraries, scenarios).

    A folder holding a game is checked as one game; a folder holding a ``cardscript.toml``
    as an expansion of the game its manifest names; a script that uses a game is compiled
    with it; a library folder is parsed; scenarios are checked against the game they use.
    Games and expansions that compile get the static checks of :mod:`cardscript.dsl.tools.lint` (warnings).
    """
    rep = CheckReport()
    done: set[tuple[str, Path]] = set()  # a package named through several of its files is checked once
    for raw in paths:
        p = Path(raw)
        problem = _not_checkable(raw, p)
        if problem is not None:
            rep.diagnostics.append(problem)
            continue
        units = _units(p)
        if not units:
            rep.diagnostics.append(error("CS001", f"no scripts in {raw}", None,
                                         "scripts end in .rules, .cards, .variant or .scenario"))
        for kind, f in units:
            if (kind, f.resolve()) in done:
                continue
            done.add((kind, f.resolve()))
            try:
                rep.diagnostics.extend(_check_unit(kind, f, rep))
            except CompileError as exc:
                rep.diagnostics.extend(exc.diagnostics)
                rep.files.append(str(f))
                rep.files.extend(d.span.file for d in exc.diagnostics if d.span is not None)
    rep.files = sorted(set(rep.files))
    seen: set[tuple[Any, ...]] = set()
    unique = []
    for d in rep.diagnostics:
        key = (d.code, d.message, d.span)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    rep.diagnostics = unique
    return rep


def _not_checkable(raw: str, p: Path) -> Diagnostic | None:
    """CS001 for a path that is missing, or neither a folder nor a regular file (a FIFO, a device)."""
    import stat

    try:
        mode = p.stat().st_mode
    except OSError:
        return error("CS001", f"no such file or folder: {raw}", None)
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return None
    return error("CS001", f"cannot check {raw}: it is not a regular file nor a folder", None,
                 "give script files or folders of scripts")


def _unused_siblings(main: Path, program: Program) -> list[Path]:
    """Scripts beside a game's main script that the game does not use (new card files)."""
    used = {str(Path(n).resolve()) for n in program.sources}
    return [p for p in _entries(main.parent)[0]
            if p.suffix in (".rules", ".cards") and str(p.resolve()) not in used]


def _check_unit(kind: str, f: Path, rep: CheckReport) -> list[Diagnostic]:
    if kind == "expansion":
        return _check_expansion(f, rep)
    if kind == "parse":
        return _check_file(f, rep)
    program = load_program(f, recover=kind == "game")  # past a syntax error: the other files' errors too
    if kind == "scenario":
        from cardscript.dsl.front.variants import scenario_program

        program = scenario_program(f, program)  # with its variants and mixed-in sets
    rep.sources.update(program.sources)
    rep.files.extend(program.sources)
    if kind != "game":
        return _check_scenario(program)
    diags = past_broken(program, check_program(program))
    for extra in _unused_siblings(f, program):
        # not used by the game: checked as if added to it, so its mistakes still show
        try:
            with_extra = load_program(f, [extra])
        except CompileError as exc:
            diags.extend(exc.diagnostics)
            continue
        rep.sources.update(with_extra.sources)
        rep.files.extend(with_extra.sources)
        diags.extend(d for d in check_program(with_extra) if d.span is not None and d.span.file in
                     {k for k in with_extra.sources if Path(k).resolve() == extra.resolve()})
    return diags


# ---------------------------------------------------------------- JSON IR
def to_ir(d: GameDefinition) -> dict[str, Any]:
    """The JSON IR of a compiled game (validated by ``dsl/front/ir_schema.json``)."""
    effects: dict[str, Any] = {}

    def walk(root: Any) -> None:
        # iterative: effects calling effects may chain far deeper than Python recurses
        todo = [root]
        while todo:
            x = todo.pop()
            if isinstance(x, E.Call):
                if x.effect.name not in effects:
                    effects[x.effect.name] = {"params": [list(p) for p in x.effect.params],
                                              "body": E.to_ir(x.effect.body)}
                    todo.append(x.effect.body)
                todo.extend(a for _, a in x.args)
            elif isinstance(x, E.Node):
                slots: tuple[str, ...] = x.__slots__
                todo.extend(getattr(x, name) for name in slots if not name.startswith("_"))
            elif isinstance(x, (list, tuple)):
                todo.extend(x)
            elif isinstance(x, dict):
                todo.extend(x.values())

    roots: list[Any] = [d.setup, d.turn, d.score, d.tie_breaks, [a.body for a in d.actions],
                        [a.choose for a in d.actions], [a.cond for a in d.actions],
                        [t.body for ts in d.rules.values() for t in ts], [e.cond for e in d.end_conditions]]
    for c in d.cards:
        roots.append(list(c.abilities.values()))
        roots.append([t.body for t in c.triggers])
    walk(roots)

    def trig(t: Any) -> dict[str, Any]:
        return {"event": t.event, "first_time": t.first_time, "your_turn": t.your_turn, "body": E.to_ir(t.body)}

    return {
        "format": IR_FORMAT,
        "game": d.name,
        "players": list(d.players),
        "zones": [{"name": z.name, "per_player": z.per_player, "visibility": z.visibility, "face_down": z.face_down,
                   "stack": z.stack, "active": z.active, "play_zone": z.play_zone,
                   "refill_from": d.zones[z.refill_from].name if z.refill_from >= 0 else None} for z in d.zones],
        "counters": [{"name": c.name, "per_player": c.per_player, "initial": c.initial, "low": c.low, "high": c.high}
                     for c in d.counters],
        "types": list(d.types),
        "labels": list(d.labels),
        "attributes": dict(d.attributes),
        "cards": [{"name": c.name, "types": sorted(c.types), "keywords": sorted(c.keywords),
                   "home": d.zones[c.home].name if c.home >= 0 else None,
                   "abilities": {k: E.to_ir(v) for k, v in c.abilities.items()},
                   "passive": {k: {d.counters[i].name: a for i, a in v.items()} for k, v in c.passive.items()},
                   "triggers": [trig(t) for t in c.triggers]} for c in d.cards],
        "printings": [{"card": p.card.name, "copies": p.copies, "attributes": dict(p.attrs)} for p in d.printings],
        "effects": {k: effects[k] for k in sorted(effects)},
        "setup": E.to_ir(d.setup),
        "turn": E.to_ir(d.turn),
        "actions": [{"name": a.name, "choose": E.to_ir(a.choose), "cond": E.to_ir(a.cond), "body": E.to_ir(a.body)}
                    for a in d.actions],
        "rules": {k: [trig(t) for t in v] for k, v in sorted(d.rules.items())},
        "end_conditions": [{"timing": e.timing, "reason": e.reason, "cond": E.to_ir(e.cond)}
                           for e in d.end_conditions],
        "score": E.to_ir(d.score),
        "score_counter": d.counters[d.score_counter].name if d.score_counter >= 0 else None,
        "tie_breaks": [E.to_ir(t) for t in d.tie_breaks],
        "passives": [[label, d.zones[z].name] for label, z in d.passives],
    }


def ir_schema() -> dict[str, Any]:
    """The JSON Schema shipped with the package."""
    return json.loads(resources.files("cardscript.dsl.front").joinpath("ir_schema.json").read_text(encoding="utf-8"))


def validate_ir(ir: dict[str, Any]) -> list[str]:
    """Validate IR against the schema; returns readable errors (empty when valid)."""
    import jsonschema  # type: ignore[import-untyped]  # no type stubs are installed for it

    from cardscript.dsl.front.lower.irdepth import iter_errors  # in pieces: a deep IR passes the recursion limit

    errs = sorted(iter_errors(ir_schema(), ir), key=lambda e: [str(p) for p in e.absolute_path])
    if not errs:
        return []
    best = jsonschema.exceptions.best_match(errs)

    def say(e: Any) -> str:
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        text = e.message if len(e.message) < 160 else f"{e.message[:150]}... ({e.validator} failed)"
        return f"{where}: {text}"

    return [say(best)] + [say(e) for e in errs[:5] if e is not best]


def generate_schema() -> dict[str, Any]:
    """Build the IR schema from the effect classes (``python -m cardscript.dsl.front.pipeline`` rewrites the file)."""
    ops = sorted((cls for cls in _node_classes()), key=lambda c: c.__name__)
    node_props = {}
    for cls in ops:
        slots: tuple[str, ...] = cls.__slots__
        fields = [s for s in slots if not s.startswith("_")]
        if cls is E.UserEffect:
            fields = ["name", "params", "body"]
        if cls is E.Call:
            fields = ["effect", "args"]
        node_props[cls.__name__] = {"type": "object", "properties": {f: {"$ref": "#/$defs/value"} for f in fields},
                                    "required": fields, "additionalProperties": False}
    trig = {"type": "object", "additionalProperties": False, "required": ["event", "first_time", "your_turn", "body"],
            "properties": {"event": {"type": "string"}, "first_time": {"type": "boolean"},
                           "your_turn": {"type": "boolean"}, "body": {"$ref": "#/$defs/node"}}}
    nullable_node = {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}
    string_list = {"type": "array", "items": {"type": "string"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://cardscript.dev/ir/1",
        "title": "cardscript JSON IR (a compiled game)",
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "game", "players", "zones", "counters", "types", "labels", "attributes", "cards",
                     "printings", "effects", "setup", "turn", "actions", "rules", "end_conditions", "score",
                     "score_counter", "tie_breaks", "passives"],
        "properties": {
            "format": {"const": IR_FORMAT},
            "game": {"type": "string"},
            "players": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2, "maxItems": 2},
            "zones": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["name", "per_player", "visibility", "face_down", "stack", "active", "play_zone",
                             "refill_from"],
                "properties": {"name": {"type": "string"}, "per_player": {"type": "boolean"},
                               "visibility": {"enum": ["hidden", "private", "public"]},
                               "face_down": {"type": "boolean"}, "stack": {"type": "boolean"},
                               "active": {"type": "boolean"}, "play_zone": {"type": "boolean"},
                               "refill_from": {"type": ["string", "null"]}}}},
            "counters": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["name", "per_player", "initial", "low", "high"],
                "properties": {"name": {"type": "string"}, "per_player": {"type": "boolean"},
                               "initial": {"type": "integer"}, "low": {"type": ["integer", "null"]},
                               "high": {"type": ["integer", "null"]}}}},
            "types": string_list,
            "labels": string_list,
            "attributes": {"type": "object", "additionalProperties": {"type": ["integer", "string"]}},
            "cards": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["name", "types", "keywords", "home", "abilities", "passive", "triggers"],
                "properties": {"name": {"type": "string"}, "types": string_list, "keywords": string_list,
                               "home": {"type": ["string", "null"]},
                               "abilities": {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}},
                               "passive": {"type": "object", "additionalProperties": {
                                   "type": "object", "additionalProperties": {"type": "integer"}}},
                               "triggers": {"type": "array", "items": trig}}}},
            "printings": {"type": "array", "items": {
                "type": "object", "additionalProperties": False, "required": ["card", "copies", "attributes"],
                "properties": {"card": {"type": "string"}, "copies": {"type": "integer", "minimum": 0},
                               "attributes": {"type": "object",
                                              "additionalProperties": {"type": ["integer", "string"]}}}}},
            "effects": {"type": "object", "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["params", "body"],
                "properties": {"params": {"type": "array", "items": string_list}, "body": {"$ref": "#/$defs/node"}}}},
            "setup": {"$ref": "#/$defs/node"},
            "turn": {"$ref": "#/$defs/node"},
            "actions": {"type": "array", "items": {
                "type": "object", "additionalProperties": False, "required": ["name", "choose", "cond", "body"],
                "properties": {"name": {"type": "string"}, "choose": nullable_node, "cond": nullable_node,
                               "body": {"$ref": "#/$defs/node"}}}},
            "rules": {"type": "object", "additionalProperties": {"type": "array", "items": trig}},
            "end_conditions": {"type": "array", "items": {
                "type": "object", "additionalProperties": False, "required": ["timing", "reason", "cond"],
                "properties": {"timing": {"enum": ["immediately", "after the turn"]}, "reason": {"type": "string"},
                               "cond": {"$ref": "#/$defs/node"}}}},
            "score": nullable_node,
            "score_counter": {"type": ["string", "null"]},
            "tie_breaks": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            "passives": {"type": "array", "items": {"type": "array", "items": {"type": "string"},
                                                     "minItems": 2, "maxItems": 2}},
        },
        "$defs": {
            "node": {"type": "object", "minProperties": 1, "maxProperties": 1, "properties": node_props,
                     "additionalProperties": False},
            "value": {"anyOf": [
                {"type": ["string", "integer", "boolean", "null"]},
                {"type": "array", "items": {"$ref": "#/$defs/value"}},
                {"$ref": "#/$defs/node"},
            ]},
        },
    }


def _node_classes() -> list[type[E.Node]]:
    out = []
    for obj in vars(E).values():
        if isinstance(obj, type) and issubclass(obj, E.Node) and obj is not E.Node:
            out.append(obj)
    return out


if __name__ == "__main__":  # pragma: no cover - maintenance: regenerate the shipped schema
    target = Path(__file__).with_name("ir_schema.json")
    target.write_text(json.dumps(generate_schema(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")

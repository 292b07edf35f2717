"""The JSON IR of a compiled game: :func:`to_ir`, its schema (``ir_schema.json``, generated
from the runtime's effect classes by ``python -m cardscript.dsl.front.pipeline``) and
:func:`validate_ir`."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from cardscript.dsl.front.lower.statics import statics_ir
from cardscript.runtime import effects as E
from cardscript.runtime.definition import GameDefinition

IR_FORMAT = "cardscript-ir/1"


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
        roots.append([r.body for r in c.replacements])
    walk(roots)

    def trig(t: Any) -> dict[str, Any]:
        return {"event": t.event, "first_time": t.first_time, "your_turn": t.your_turn, "body": E.to_ir(t.body)}

    def replacement(r: Any) -> dict[str, Any]:  # 'instead of ...' (issue 12)
        return {"effect": r.effect, "names": list(r.names), "foes": r.foes, "first_time": r.first_time,
                "body": E.to_ir(r.body)}

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
        "subtypes": list(d.subtypes),
        "labels": list(d.labels),
        "attributes": dict(d.attributes),
        "cards": [{"name": c.name, "types": sorted(c.types), **({"subtypes": sorted(c.subtypes)} if c.subtypes else {}),
                   "keywords": sorted(c.keywords),
                   "home": d.zones[c.home].name if c.home >= 0 else None,
                   "abilities": {k: E.to_ir(v) for k, v in c.abilities.items()},
                   "passive": {k: {d.counters[i].name: a for i, a in v.items()} for k, v in c.passive.items()},
                   "triggers": [trig(t) for t in c.triggers],
                   **({"replacements": [replacement(r) for r in c.replacements]} if c.replacements else {}),
                   **statics_ir(c, trig)}
                  for c in d.cards],
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
        "triggers_in_chosen_order": d.triggers_in_chosen_order,
        "triggers_wait_for_play": d.triggers_wait_for_play,
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
    replacement = {"type": "object", "additionalProperties": False,
                   "required": ["effect", "names", "foes", "first_time", "body"],
                   "properties": {"effect": {"type": "string"}, "names": {"type": "array", "items": {"type": "string"}},
                                  "foes": {"type": "boolean"}, "first_time": {"type": "boolean"},
                                  "body": {"$ref": "#/$defs/node"}}}
    nullable_node = {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}
    string_list = {"type": "array", "items": {"type": "string"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://cardscript.dev/ir/1",
        "title": "cardscript JSON IR (a compiled game)",
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "game", "players", "zones", "counters", "types", "subtypes", "labels", "attributes",
                     "cards",
                     "printings", "effects", "setup", "turn", "actions", "rules", "end_conditions", "score",
                     "score_counter", "tie_breaks", "passives", "triggers_in_chosen_order"],
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
            "types": string_list,  # subtypes included
            "subtypes": string_list,
            "labels": string_list,
            "attributes": {"type": "object", "additionalProperties": {"type": ["integer", "string"]}},
            "cards": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["name", "types", "keywords", "home", "abilities", "passive", "triggers"],
                "properties": {"name": {"type": "string"}, "types": string_list, "subtypes": string_list,
                               "keywords": string_list,
                               "home": {"type": ["string", "null"]},
                               "abilities": {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}},
                               "passive": {"type": "object", "additionalProperties": {
                                   "type": "object", "additionalProperties": {"type": "integer"}}},
                               "triggers": {"type": "array", "items": trig},
                               "replacements": {"type": "array", "items": replacement},
                               "statics": {"type": "object"}, "computed": {"type": "object"}}}},  # cards2 area
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
            "triggers_in_chosen_order": {"type": "boolean"},
            "triggers_wait_for_play": {"type": "boolean"},
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

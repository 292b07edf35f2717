"""Stage 3: the checker — declarations, name resolution and effect-pattern matching.

:func:`collect` gathers every declaration of a program into a :class:`Symbols`
table (reporting duplicates); :func:`match_call` resolves a call phrase against the
built-in primitives and the effects scripts define. The lowering stage
(:mod:`cardscript.dsl.front.lower`) walks every body with these and reports each unknown name as a
Diagnostic with a "did you mean".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, Span, did_you_mean, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.agree import agree, corrections, in_digits
from cardscript.dsl.front.ast.scenario import Step
from cardscript.dsl.front.hints import unmatched_hint
from cardscript.dsl.front.names import action_labels, twice_named
from cardscript.dsl.front.patterns import (
    _BUILTIN_SPAN,
    BUILTINS,
    SLOT_KINDS,
    EffectSig,
    _builtin_keys,
    _flatten,
    _replacing,
    _sig,
    builtin_sigs,
    candidates,
    display,
    tokens_of,
)
from cardscript.dsl.front.sets import add_card, card_set, printed, renamed

# The patterns live in .patterns; they are re-exported here, where the checker's users look.
__all__ = ["BUILTINS", "IMPLICIT_ZONES", "RANK", "SLOT_KINDS", "EffectSig", "Match", "Symbols", "_flatten",
           "builtin_sigs", "collect", "display", "match_call", "tokens_of"]

#: How specific a script is; a more specific script may replace an effect of a less specific one.
RANK = {"ruleset": 0, "": 0, "game": 1, "expansion": 1, "variant": 3, "scenario": 4}
# An expansion ranks with its game: it adds cards and keywords but replaces nothing.

#: Zones every game has: all components start in the box.
IMPLICIT_ZONES = {"box": A.ZoneDecl(Span("<built-in>", 1, 1), "box", False, "hidden", False, False, False, False, "")}


@dataclass
class Symbols:
    """Every declaration of a program, by kind. Dicts keep declaration order."""

    header: A.Header | None = None
    players: A.Players | None = None
    types: dict[str, Span] = field(default_factory=dict)  # the subtypes too: a card line names both
    subtypes: dict[str, Span] = field(default_factory=dict)  # the types that 'count types of' leaves out
    attributes: dict[str, A.Attribute] = field(default_factory=dict)
    labels: dict[str, Span] = field(default_factory=dict)
    passives: list[A.Passive] = field(default_factory=list)
    zones: dict[str, A.ZoneDecl] = field(default_factory=lambda: dict(IMPLICIT_ZONES))
    counters: dict[str, A.CounterDecl] = field(default_factory=dict)
    effects: list[EffectSig] = field(default_factory=list)
    cards: dict[str, A.CardDef] = field(default_factory=dict)
    #: earlier definitions of a card defined twice in scripts of one rank (CS203): lowered
    #: only for their own diagnostics, so that the duplicate does not hide their mistakes
    duplicate_cards: list[A.CardDef] = field(default_factory=list)
    card_sets: dict[str, str] = field(default_factory=dict)  # card key -> its set (dsl/front/sets.py)
    rules: list[A.Rule] = field(default_factory=list)
    setups: list[A.Setup] = field(default_factory=list)
    turn: A.Turn | None = None
    actions: list[A.Action] = field(default_factory=list)
    end_whens: list[A.EndWhen] = field(default_factory=list)
    score: A.Score | None = None
    tie_break: A.TieBreak | None = None
    outcomes: list[A.Outcome] = field(default_factory=list)
    warns: list[A.Warn] = field(default_factory=list)
    printed_labels: dict[str, A.PrintedLabel] = field(default_factory=dict)
    #: 'printed counter NAME as ...' and 'printed event "NAME" as ...', by name
    printed_counters: dict[str, A.PrintedForm] = field(default_factory=dict)
    printed_events: dict[str, A.PrintedForm] = field(default_factory=dict)
    printed_zones: dict[str, A.PrintedForm] = field(default_factory=dict)
    #: mark -> how 'you are marked "MARK"' reads on a card ('printed mark "M" as "TEXT"')
    printed_marks: dict[str, A.PrintedForm] = field(default_factory=dict)
    scenario_steps: list[Any] = field(default_factory=list)
    quiet_events: list[str] = field(default_factory=list)
    quiet_counters: list[tuple[str, Span]] = field(default_factory=list)
    trigger_order: A.TriggerOrder | None = None  # 'triggers resolve in the order you choose'
    trigger_wait: A.TriggerWait | None = None  # 'your triggers wait until the card you are playing resolves'


def collect(scripts: list[A.Script], mixed: frozenset[str] = frozenset()) -> tuple[Symbols, list[Diagnostic]]:
    """Gather declarations; report duplicates (CS203), conflicting variants (CS210) and
    bad declarations (CS209).

    A more specific script replaces what a less specific one declared (ruleset < game and
    its expansions < variant < scenario): zones, counters, attributes, cards, effects, named
    setup steps, actions, the turn, the score, the tie-break and the player count. An effect
    replaces one (or a built-in primitive) only when it says ``replaces`` (CS203 otherwise;
    CS201 for a ``replaces`` with nothing to replace). Two scripts of the same kind may not
    declare the same thing; two variants doing so are a conflict that names both. A
    scenario's player count must be one its game (and variants) allow (CS209). A card of
    another set with a taken name (an expansion's, a mixed-in set's) is another card: both
    are then known by their qualified names (:mod:`cardscript.dsl.front.sets`); ``mixed``
    names the mixed-in files (their cards rank with the game's).
    """
    sym = Symbols()
    diags: list[Diagnostic] = []
    # the runtime's primitives rank below every script: a script replaces one only on purpose
    owners: dict[tuple[str, str], tuple[int, Span]] = {("effect", k): (-1, _BUILTIN_SPAN) for k in _builtin_keys()}
    setup_order: list[str] = []
    setups: dict[str, A.Setup] = {}
    anonymous = 0
    removed: dict[tuple[str, str], Span] = {}
    game_players: tuple[int, A.Players | None] = (-1, None)  # the most specific one of the game and its variants
    scenario_players: list[A.Players] = []
    afters: list[A.EffectDef] = []  # 'after effect' additions, in the order they are read

    def claim(what: str, name: str, span: Span, kind: str, label: str = "") -> bool:
        """Record who declares (what, name); False when this declaration must be ignored."""
        shown = label or name
        rank = RANK.get(kind, 0)
        prev = owners.get((what, name))
        if prev is not None:
            prank, pspan = prev
            if kind == "expansion" and prank < rank and what not in ("effect", "card"):
                # an expansion adds and replaces nothing: a ruleset's zone, counter or rule
                # redefined by it changed the whole game without a word (effects and cards
                # have their own rules: 'replaces', qualified names)
                diags.append(error("CS203", f"{what} {shown!r} is defined twice: an expansion cannot redefine "
                                   f"the {what} of its game's ruleset", span,
                                   f"first defined at {pspan.file}:{pspan.line}; use it as it is, or give "
                                   "yours another name"))
                return False
            if rank < prank:
                return False
            if rank == prank:
                if kind == "variant" and pspan.file != span.file:
                    diags.append(error("CS210", f"variants conflict: both {pspan.file} and {span.file} "
                                       f"replace {what} {shown!r}", span,
                                       f"{pspan.file}:{pspan.line} replaces it too; play one of them, or "
                                       "merge them into one variant"))
                else:
                    diags.append(error("CS203", f"{what} {shown!r} is defined twice", span,
                                       f"first defined at {pspan.file}:{pspan.line}"))
        owners[(what, name)] = (rank, span)
        return True

    for script in scripts:
        kind = next((i.kind for i in script.items if isinstance(i, A.Header)), script.kind)
        for item in script.items:
            if isinstance(item, A.Header):
                if item.kind == "game" or sym.header is None:
                    sym.header = item
            elif isinstance(item, A.Players):
                if kind == "scenario":
                    scenario_players.append(item)
                elif RANK.get(kind, 0) >= game_players[0]:
                    game_players = (RANK.get(kind, 0), item)
                if claim("the player count", "players", item.span, kind):
                    sym.players = item
                if item.low < 1 or item.high < item.low:
                    diags.append(error("CS209", f"bad player count {item.low} to {item.high}", item.span))
            elif isinstance(item, A.Types):
                for n in item.names:
                    if n in sym.types and (n in sym.subtypes) != item.subtypes:
                        first, was = sym.types[n], "a subtype" if n in sym.subtypes else "a type"
                        diags.append(error("CS203", f"{n!r} is declared as a type and as a subtype", item.span,
                                           f"it is {was} at {first.file}:{first.line}; keep one declaration"))
                        continue
                    sym.types.setdefault(n, item.span)
                    if item.subtypes:
                        sym.subtypes.setdefault(n, item.span)
            elif isinstance(item, A.Attribute):
                if claim("attribute", item.name, item.span, kind):
                    sym.attributes[item.name] = item
            elif isinstance(item, A.Abilities):
                for n in item.labels:
                    sym.labels.setdefault(n, item.span)
            elif isinstance(item, A.Passive):
                sym.passives.append(item)
            elif isinstance(item, A.ZoneDecl):
                if claim("zone", item.name, item.span, kind):
                    sym.zones[item.name] = item
            elif isinstance(item, A.CounterDecl):
                if claim("counter", item.name, item.span, kind):
                    sym.counters[item.name] = item
                if item.low is not None and item.high is not None and item.low > item.high:
                    diags.append(error("CS209", f"counter {item.name!r} has bounds {item.low}..{item.high}",
                                       item.span, "give bounds as low..high"))
            elif isinstance(item, A.EffectDef) and item.after:
                afters.append(item)  # added once every script has said what the effect is
            elif isinstance(item, A.EffectDef):
                sig = _sig(item)
                for it in item.pattern:
                    if isinstance(it, A.Slot) and it.type not in SLOT_KINDS:
                        diags.append(error("CS204", f"unknown parameter kind {it.type!r}", it.span,
                                           did_you_mean(it.type, SLOT_KINDS) or "use one of: " + ", ".join(SLOT_KINDS)))
                diags.extend(twice_named(item.pattern))
                k = sig.full_key
                diags.extend(_replacing(item, sig, owners.get(("effect", k)), RANK.get(kind, 0)))
                if claim("effect", k, item.span, kind, sig.display):
                    sym.effects.append(sig)
            elif isinstance(item, A.CardDef):
                # a card is (set, name): another set's card of a taken name is another card
                here, prev = card_set(script.file), owners.get(("card", item.name))
                # no card of the name was claimed: no card to place it among (a look through all
                # the cards for each new one made a set of 20 000 cards take minutes)
                key = item.name if prev is None else add_card(sym.cards, sym.card_sets, item, here,
                                                                prev[0] == RANK.get(kind, 0))
                if key is None:
                    for k, cd in sym.cards.items():
                        if printed(cd) == item.name and prev is not None:
                            owners.setdefault(("card", k), (RANK.get(kind, 0), item.span) if sym.card_sets[k] == here
                                              else prev)
                elif claim("card", key, item.span, kind, item.name):
                    if key in sym.cards and prev is not None and prev[0] == RANK.get(kind, 0):
                        sym.duplicate_cards.append(sym.cards[key])
                    sym.cards[key] = item if key == item.name else renamed(item, key)
                    sym.card_sets[key] = here
            elif isinstance(item, A.Rule):
                sym.rules.append(item)
            elif isinstance(item, A.Setup):
                if item.name:
                    if claim("setup step", item.name, item.span, kind):
                        if item.name not in setups:
                            setup_order.append(item.name)
                        setups[item.name] = item
                else:
                    anonymous += 1
                    key = f"\0{anonymous}"
                    setup_order.append(key)
                    setups[key] = item
            elif isinstance(item, A.Turn):
                if claim("the turn", "turn", item.span, kind):
                    sym.turn = item
            elif isinstance(item, A.Action):
                # One script may offer several actions under one name (from different
                # zones); a more specific script's action of that name replaces them all.
                prev = owners.get(("action", item.name))
                if prev is not None and prev[1].file == item.span.file:
                    sym.actions.append(item)
                elif claim("action", item.name, item.span, kind):
                    sym.actions = [a for a in sym.actions if a.name != item.name] + [item]
            elif isinstance(item, A.EndWhen):
                sym.end_whens.append(item)
            elif isinstance(item, A.Score):
                if claim("the score", "score", item.span, kind):
                    sym.score = item
            elif isinstance(item, A.TieBreak):
                if claim("the tie-break", "tie break", item.span, kind):
                    sym.tie_break = item
            elif isinstance(item, A.Outcome):
                sym.outcomes.append(item)
            elif isinstance(item, A.Warn):
                sym.warns.append(item)
            elif isinstance(item, A.PrintedLabel):
                sym.printed_labels[item.label] = item
            elif isinstance(item, A.PrintedForm):
                forms = {"counter": sym.printed_counters, "event": sym.printed_events, "zone": sym.printed_zones,
                         "mark": sym.printed_marks}
                forms[item.kind][item.name] = item
            elif isinstance(item, A.Remove):
                removed[(item.kind, item.name)] = item.span
            elif isinstance(item, (A.Expect, A.Answers, A.DoStep, A.Seed, A.NextTurn, A.Finish, A.ActiveSeat, A.Rig,
                                   Step)):
                sym.scenario_steps.append(item)
            elif isinstance(item, A.Quiet):
                sym.quiet_events.extend(item.events)
                sym.quiet_counters.extend((c, item.span) for c in item.counters)
            elif isinstance(item, A.TriggerOrder):
                sym.trigger_order = item
            elif isinstance(item, A.TriggerWait):
                sym.trigger_wait = item
    for (what, name), span in removed.items():
        table: dict[str, Any] | None = sym.cards if what == "card" else setups if what == "setup" else None
        if what == "action":
            names = [a.name for a in sym.actions]
            if name not in names:
                diags.append(error("CS201", f"no action {name!r} to remove", span, did_you_mean(name, names)))
            sym.actions = [a for a in sym.actions if a.name != name]
        elif table is not None:
            if name not in table:
                diags.append(error("CS201", f"no {what} {name!r} to remove", span,
                                   did_you_mean(name, [k for k in table if not k.startswith("\0")])))
            table.pop(name, None)
    sym.setups = [setups[k] for k in setup_order if k in setups]
    diags.extend(_scenario_players(game_players[1], scenario_players))
    diags.extend(_add_after(sym, afters))
    diags.extend(action_labels(sym.actions, sym.cards))
    return sym, diags



def _add_after(sym: Symbols, afters: list[A.EffectDef]) -> list[Diagnostic]:
    """Add each ``after effect PATTERN: body`` at the end of the effect that wins for the
    pattern (a variant's replacement too), in the order the scripts are read.

    Returns:
        CS201 for an ``after effect`` whose pattern no script defines (or only the runtime),
        or whose parameters are named otherwise than the effect's.
    """
    diags: list[Diagnostic] = []
    for item in afters:
        sig = _sig(item)
        key = sig.full_key
        at = next((i for i in range(len(sym.effects) - 1, -1, -1)
                   if sym.effects[i].full_key == key), None)
        if at is None or sym.effects[at].defn is None:
            shown = "is built into the runtime" if key in _builtin_keys() else "is defined by no script it uses"
            diags.append(error("CS201", f"after effect '{sig.display}': the effect {shown}", item.span,
                               did_you_mean(sig.display, [e.display for e in sym.effects if e.defn is not None])
                               or "name an effect of the game or its shared rules, with its own words"))
            continue
        target = sym.effects[at]
        if target.params != sig.params:
            diags.append(error("CS201", f"after effect '{sig.display}': the effect names its parameters "
                                        f"'{target.display}'", item.span,
                               f"write the pattern as the effect does: 'after effect {target.display}:'"))
            continue
        defn = target.defn
        assert defn is not None
        body = A.Body(defn.body.span, defn.body.stmts + item.body.stmts)
        merged = A.EffectDef(defn.span, defn.pattern, body, defn.printed, defn.replaces)
        sym.effects[at] = replace(target, defn=merged)
    return diags


def _scenario_players(game: A.Players | None, asked: list[A.Players]) -> list[Diagnostic]:
    """CS209 for a scenario that plays its game (with its variants) at a count it does not allow."""
    out = []
    for p in asked:
        if game is not None and not game.low <= p.low <= p.high <= game.high:
            out.append(error("CS209", f"{game.low} to {game.high} players play this game, not {_count(p)}", p.span,
                             f"the game says so at {game.span.file}:{game.span.line}; a variant may allow more "
                             "(name it after the header: variant \"NAME\")"))
    return out


def _count(p: A.Players) -> str:
    return str(p.low) if p.low == p.high else f"{p.low} to {p.high}"


@dataclass
class Match:
    """A resolved call: the effect and, per parameter, the call token bound to it."""

    sig: EffectSig
    bound: list[tuple[str, str, tuple[Any, ...] | None]]  # (param, kind, token)


def _fits(kind: str, tok: tuple[Any, ...], params: dict[str, str]) -> bool:
    k = tok[0]
    if k == "param":
        return params.get(tok[1]) == kind
    return (kind, k) in {("number", "num"), ("players", "players"), ("cards", "cards"), ("zone", "zone"),
                         ("type", "str")}


def _same(p: tuple[Any, ...], c: tuple[Any, ...]) -> bool:
    if p[0] != c[0]:
        return False
    if p[0] == "w":
        return p[1] == c[1]
    if p[0] == "num":
        return isinstance(p[1], A.Num) and isinstance(c[1], A.Num) and p[1].value == c[1].value
    return p[1] == c[1]


def _try(sig: EffectSig, toks: list[tuple[Any, ...]], has_block: bool, params: dict[str, str]) -> Match | None:
    if sig.has_block != has_block or len(sig.tokens) != len(toks):
        return None
    bound: list[tuple[str, str, tuple[Any, ...] | None]] = []
    for p, c in zip(sig.tokens, toks, strict=True):  # lengths checked above
        if p[0] == "slot":
            if not _fits(p[2], c, params):
                return None
            bound.append((p[1], p[2], c))
        elif not _same(p, c):
            return None
    if sig.has_block:
        name, kind = sig.params[-1]
        bound.append((name, kind, None))
    return Match(sig, bound)


_MATCHES: dict[tuple[int, int, frozenset[tuple[str, str]]], tuple[A.Call, Any]] = {}
# The table the memo is for, held (not its id: a later table may get the id of a freed one,
# and the cached ASTs of a shared library are the same call objects in every game).
_MATCHES_FOR: list[Symbols | None] = [None]


def match_call(call: A.Call, sym: Symbols, params: dict[str, str]) -> tuple[Match | None, Diagnostic | None]:
    """Resolve a call phrase (memoized per symbol table: lowering and lint ask the same)."""
    if _MATCHES_FOR[0] is not sym:
        _MATCHES.clear()
        _MATCHES_FOR[0] = sym
    key = (id(call), id(sym), frozenset(params.items()))
    hit = _MATCHES.get(key)
    if hit is not None and hit[0] is call:
        return hit[1]
    result = _match_call(call, sym, params)
    _MATCHES[key] = (call, result)
    return result


def _match_call(call: A.Call, sym: Symbols, params: dict[str, str]) -> tuple[Match | None, Diagnostic | None]:
    """Resolve a call phrase.

    Args:
        call: the call.
        sym: declarations (script effects).
        params: parameters in scope, name -> kind.

    Returns:
        (match, None) or (None, diagnostic) — CS202 unknown effect (with the closest
        pattern as a hint), or CS204 when the words match but an argument's kind does not.
    """
    toks = tokens_of(call.items)
    has_block = call.block is not None
    sigs = list(builtin_sigs()) + sym.effects
    variants = [toks]
    first = toks[0][1]
    for suffix in ("es", "s"):
        if first.endswith(suffix) and len(first) > len(suffix) + 1:
            variants.append([("w", first[: -len(suffix)]), *toks[1:]])
    for v in variants:
        # the length and the first word first, inline (as _try would compare them): a program
        # of a thousand effects made each call try every one of them
        n, word = len(v), (v[0][1] if v[0][0] == "w" else None)
        found = [m for s in candidates(sym, n, word) if (m := _try(s, v, has_block, params)) is not None]
        if found:
            return found[-1], None  # the last definition wins: a variant's replaces its game's
    for v in variants:  # '1 card' for 'a card' or '{N} cards', 'a card' for '{N} cards' (dsl/front/agree.py)
        found = [m for s in sigs if (a := agree(s.tokens, v, call.span)) is not None
                 and (m := _try(s, a, has_block, params)) is not None]
        if found:
            return found[-1], None
    text = display(toks)
    wrong = _disagreeing(sigs, variants, has_block, params, call.span)
    if wrong:
        return None, error("CS202", f"no effect matches '{text}'", call.span, wrong)
    # Same words, wrong argument kinds?
    for s in sigs:
        if len(s.tokens) == len(toks) and all(p[0] == "slot" or _same(p, c)
                                               for p, c in zip(s.tokens, toks, strict=True)):
            if s.has_block != has_block:
                need = "needs a block after ':'" if s.has_block else "takes no block after ':'"
                return None, error("CS204", f"'{s.display}' {need}", call.span,
                                   "end the line with ':' and indent the block's statements below it" if s.has_block
                                   else "drop the ':' and the block: this effect runs no statements of yours")
            bad, got = next((p, c) for p, c in zip(s.tokens, toks, strict=True)
                            if p[0] == "slot" and not _fits(p[2], c, params))
            hint = f"pass {_describe_kind(bad[2])}"
            if bad[2] == "number" and got == ("w", "a"):  # 'deal a damage': the printed text says '1 damage'
                one = [("num", A.Num(call.span, 1), None) if t is got else t for t in toks]
                hint = f"write the number: '{display(one)}'"
            return None, error("CS204", f"'{text}': argument {bad[1]} of '{s.display}' must be {bad[2]}",
                               call.span, hint)
    def fits(s: EffectSig, t: list[tuple[Any, ...]], block: bool) -> bool:
        return _try(s, t, block, params) is not None or (
            (a := agree(s.tokens, t, call.span)) is not None and _try(s, a, block, params) is not None)

    hint = unmatched_hint(toks, has_block, sigs, sym, fits)
    return None, error("CS202", f"no effect matches '{text}'", call.span, hint)


def _disagreeing(sigs: list[EffectSig], variants: list[list[tuple[Any, ...]]], has_block: bool,
                 params: dict[str, str], span: Span) -> str:
    """The hint for a call that matches once its count and noun agree (``draw 2 card``), or its
    number words are digits (``draw two cards``): the form it matches; else ''."""

    def fits(toks: list[tuple[Any, ...]]) -> bool:
        return any(_try(s, toks, has_block, params) is not None
                   or ((a := agree(s.tokens, toks, span)) is not None and _try(s, a, has_block, params) is not None)
                   for s in sigs)

    for v in variants:
        digits = in_digits(v, span)
        if digits is not None and fits(digits):
            return f"write numbers in digits: '{display([*variants[0][:1], *digits[1:]])}'"
        for fixed in corrections(v):
            if fits(fixed):
                return (f"did you mean '{display([*variants[0][:1], *fixed[1:]])}'? 1 takes the singular ('a card', "
                        "'1 card'), any other count the plural ('2 cards')")
    return ""


def _describe_kind(kind: str) -> str:
    return {
        "number": "a number, a PARAMETER or an (expression)",
        "players": "players such as 'target foe', 'each foe' or 'them'",
        "cards": "cards such as 'the top card of your deck' or 'a card from your hand'",
        "zone": "a zone such as 'your discard' or 'the market'",
        "type": 'a card type in quotes, such as "hero"',
        "block": "a block after ':'",
    }.get(kind, kind)

"""Builder for the top-level items of a game's files: the header and declarations,
cards and rules (grammar sections 'declarations', 'cards' and 'rules')."""

from __future__ import annotations

from lark import Token, v_args

from cardscript.dsl.diagnostics import CompileError, Span, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase, _path, _s


@v_args(meta=True)
class DeclarationBuilder(BuilderBase):
    """Header, uses, players, types, zones, counters, effects; cards; rules."""

    # ------------------------------------------------------------ top level
    def start(self, meta, c):
        return list(c)

    def header(self, meta, c):
        return A.Header(self._sp(meta), c[0], _s(c[1]))

    def uses(self, meta, c):
        return A.Uses(self._sp(meta), tuple(_path(t) for t in c))

    def players(self, meta, c):
        lo = int(c[0])
        return A.Players(self._sp(meta), lo, int(c[1]) if len(c) > 1 else lo)

    def types(self, meta, c):
        return A.Types(self._sp(meta), c[0])

    def subtypes(self, meta, c):
        return A.Types(self._sp(meta), c[0], True)

    def attribute(self, meta, c):
        return A.Attribute(self._sp(meta), c[0], _s(c[1]) if isinstance(c[1], Token) else c[1])

    def abilities(self, meta, c):
        return A.Abilities(self._sp(meta), c[0])

    def passive(self, meta, c):
        return A.Passive(self._sp(meta), c[0], str(c[1]))

    def zone(self, meta, c):
        props = dict(p for p in c[1:])
        seen = [v for v in ("hidden", "private", "public") if v in props]
        if len(seen) > 1:
            raise CompileError([error("CS209", f"zone {c[0]!s} is {' and '.join(seen)}: choose one", self._sp(meta))])
        vis = seen[0] if seen else "public"
        return A.ZoneDecl(self._sp(meta), str(c[0]), "per_player" in props, vis, "face_down" in props,
                          "stack" in props, "active" in props, "play_zone" in props, props.get("refill_from", ""),
                          "per_card" in props)

    def per_player(self, meta, c):
        return ("per_player", True)

    def per_card(self, meta, c):
        return ("per_card", True)

    def shared(self, meta, c):
        return ("shared", True)

    def hidden(self, meta, c):
        return ("hidden", True)

    def private(self, meta, c):
        return ("private", True)

    def public(self, meta, c):
        return ("public", True)

    def face_down(self, meta, c):
        return ("face_down", True)

    def stack(self, meta, c):
        return ("stack", True)

    def active(self, meta, c):
        return ("active", True)

    def play_zone(self, meta, c):
        return ("play_zone", True)

    def refill_from(self, meta, c):
        return ("refill_from", str(c[0]))

    def counter(self, meta, c):
        props = dict(p for p in c[1:])
        lo, hi = props.get("bounds", (None, None))
        return A.CounterDecl(self._sp(meta), str(c[0]), "per_player" in props, props.get("initial", lo or 0), lo, hi,
                             "per_card" in props)

    def initial(self, meta, c):
        return ("initial", c[0])

    def bounds(self, meta, c):
        return ("bounds", (c[0], c[1]))

    def effect_def(self, meta, c):
        call: A.Call = c[0]
        marks = [t for t in c[1:-1] if isinstance(t, Token)]
        printed = next((_s(t) for t in marks if t.type == "STRING"), "")
        replaces = any(t.type == "REPLACES" for t in marks)
        return A.EffectDef(self._sp(meta), call.items, c[-1], printed, replaces)

    def after_effect(self, meta, c):
        call: A.Call = c[0]
        return A.EffectDef(self._sp(meta), call.items, c[-1], after=True)

    def printed_label(self, meta, c):
        return A.PrintedLabel(self._sp(meta), c[0], _s(c[1]))

    def printed_counter(self, meta, c):
        return A.PrintedForm(self._sp(meta), "counter", c[0], _s(c[1]))

    def printed_event(self, meta, c):
        return A.PrintedForm(self._sp(meta), "event", _s(c[0]), _s(c[1]))

    def printed_zone(self, meta, c):
        return A.PrintedForm(self._sp(meta), "zone", str(c[0]), _s(c[1]))

    def printed_mark(self, meta, c):
        return A.PrintedForm(self._sp(meta), "mark", _s(c[0]), _s(c[1]))

    # ------------------------------------------------------------ cards
    def card(self, meta, c):
        name = _s(c[0])
        words, attrs, printings, home, faces = [], [], [], "", ()
        for p in c[1:-1]:
            kind = p[0]
            if kind == "word":
                words.append((p[1], p[2]))
            elif kind == "attr":
                attrs.append((p[1], p[2], p[3]))
            elif kind == "copies":
                printings.append(p[1])
            elif kind == "home":
                home = p[1]
            elif kind == "faces":
                faces = p[1]
        abilities = tuple(x for x in c[-1] if isinstance(x, A.Ability))
        triggers = tuple(x for x in c[-1] if isinstance(x, A.Trigger))
        replacements = tuple(x for x in c[-1] if isinstance(x, A.Replacement))
        computed = tuple(x for x in c[-1] if isinstance(x, A.ComputedAttr))
        return A.CardDef(self._sp(meta), name, tuple(words), tuple(attrs), tuple(printings), home, abilities, triggers,
                         faces, replacements, computed)

    def card_flag(self, meta, c):
        return ("word", c[0], self._sp(meta))

    def card_attr(self, meta, c):
        return ("attr", c[0], c[1], self._sp(meta))

    def card_text_attr(self, meta, c):
        return ("attr", c[0], _s(c[1]), self._sp(meta))

    def card_copies(self, meta, c):
        # the span starts at the number: a limit on components points at it
        tok = c[0]
        span = Span(self.file, tok.line, tok.column, meta.end_line, meta.end_column)
        return ("copies", A.Printing(span, int(tok), tuple(c[1:])))

    def override(self, meta, c):
        v = c[1]
        return (c[0], _s(v) if isinstance(v, Token) else v)

    def card_home(self, meta, c):
        return ("home", str(c[0]))

    def card_faces(self, meta, c):
        return ("faces", tuple(_s(x) for x in c))

    def card_body(self, meta, c):
        return list(c)

    def labelled(self, meta, c):
        return A.Ability(self._sp(meta), c[0], c[1])

    def trigger(self, meta, c):
        return A.Trigger(self._sp(meta), c[0], c[1])

    def event(self, meta, c):
        opts = set(c[1:])
        return A.Event(self._sp(meta), _s(c[0]), "first" in opts, "your" in opts, "self" in opts)

    def of_this_card(self, meta, c):
        return "self"

    def first_time(self, meta, c):
        return "first"

    def your_turn(self, meta, c):
        return "your"

    # ------------------------------------------------------------ rules
    def rule(self, meta, c):
        return A.Rule(self._sp(meta), c[0], c[1])

    def setup(self, meta, c):
        name = _s(c[0]) if len(c) == 2 else ""
        return A.Setup(self._sp(meta), c[-1], name)

    def remove(self, meta, c):
        return A.Remove(self._sp(meta), c[0], _s(c[1]))

    def remove_kind(self, meta, c):
        return str(c[0])

    def turn(self, meta, c):
        return A.Turn(self._sp(meta), c[0])

    def card_action(self, meta, c):
        return A.Action(self._sp(meta), _s(c[0]), c[1], None, c[2])

    def plain_action(self, meta, c):
        rest = list(c[1:-1])
        prefer = next((x[1] for x in rest if isinstance(x, tuple) and x[0] == "prefer"), None)
        cond = next((x for x in rest if not (isinstance(x, tuple) and x[0] == "prefer")), None)
        return A.Action(self._sp(meta), _s(c[0]), None, cond, c[-1], prefer)

    def action_prefer(self, meta, c):
        return ("prefer", c[0])

    def end_when(self, meta, c):
        reason = _s(c[2]) if len(c) > 2 else ""
        return A.EndWhen(self._sp(meta), c[0], c[1], reason)

    def score(self, meta, c):
        return A.Score(self._sp(meta), c[0])

    def warn(self, meta, c):
        return A.Warn(self._sp(meta), _s(c[0]), c[1])

    def outcome(self, meta, c):
        return A.Outcome(self._sp(meta), _s(c[0]), c[1])

    def tie_break(self, meta, c):
        return A.TieBreak(self._sp(meta), tuple(c))

"""Stage 2: Lark parse tree -> AST (:mod:`cardscript.dsl.front.ast`), converted once.

One builder method per grammar alias. Positions come from Lark's ``meta``; every
node gets a :class:`~cardscript.dsl.diagnostics.Span` in the script's file.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer, Tree, v_args

from cardscript.dsl.diagnostics import CompileError, Span, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.parse import parse


def _s(x: Any) -> str:
    return x[1:-1] if isinstance(x, Token) and x.type == "STRING" else str(x)


def _tok(items: list[Any], type_: str) -> list[Token]:
    return [i for i in items if isinstance(i, Token) and i.type == type_]


@v_args(meta=True)
class _Builder(Transformer):
    def __init__(self, filename: str):
        super().__init__()
        self.file = filename

    def _sp(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 1, 1)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def __default__(self, data, children, meta):  # pragma: no cover - a grammar/builder mismatch
        raise AssertionError(f"no builder for grammar rule {data!r}")

    # ------------------------------------------------------------ helpers
    def words(self, meta, c):
        return " ".join(str(t) for t in c)

    def word_list(self, meta, c):
        return tuple(c)

    def signed_int(self, meta, c):
        sign = -1 if len(c) == 2 and c[0] == "-" else 1
        return sign * int(c[-1])

    def duration(self, meta, c):
        return True

    def header_kind(self, meta, c):
        return str(c[0])

    def timing(self, meta, c):
        return " ".join(str(t) for t in c)

    def kw_word(self, meta, c):
        return str(c[0])

    def pos(self, meta, c):
        return str(c[0])

    def side(self, meta, c):
        return str(c[0])

    def card_word(self, meta, c):
        return str(c[0])

    def is_verb(self, meta, c):
        return str(c[0])

    # ------------------------------------------------------------ top level
    def start(self, meta, c):
        return list(c)

    def header(self, meta, c):
        return A.Header(self._sp(meta), c[0], _s(c[1]))

    def uses(self, meta, c):
        return A.Uses(self._sp(meta), tuple(_s(t) for t in c))

    def players(self, meta, c):
        lo = int(c[0])
        return A.Players(self._sp(meta), lo, int(c[1]) if len(c) > 1 else lo)

    def types(self, meta, c):
        return A.Types(self._sp(meta), c[0])

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
        printed = _s(c[1]) if len(c) == 3 else ""
        return A.EffectDef(self._sp(meta), call.items, c[-1], printed)

    def printed_label(self, meta, c):
        return A.PrintedLabel(self._sp(meta), c[0], _s(c[1]))

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
        return A.CardDef(self._sp(meta), name, tuple(words), tuple(attrs), tuple(printings), home, abilities, triggers,
                         faces)

    def card_flag(self, meta, c):
        return ("word", c[0], self._sp(meta))

    def card_attr(self, meta, c):
        return ("attr", c[0], c[1], self._sp(meta))

    def card_text_attr(self, meta, c):
        return ("attr", c[0], _s(c[1]), self._sp(meta))

    def card_copies(self, meta, c):
        return ("copies", A.Printing(self._sp(meta), int(c[0]), tuple(c[1:])))

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

    def expect(self, meta, c):
        if len(c) == 2:
            return A.Expect(self._sp(meta), c[1], c[0])
        return A.Expect(self._sp(meta), c[0])

    def answers(self, meta, c):
        return A.Answers(self._sp(meta), tuple(c))

    def answer_name(self, meta, c):
        return _s(c[0])

    def answer_list(self, meta, c):
        return tuple(c)

    def answer_index(self, meta, c):
        return int(c[0])

    def answer_yes(self, meta, c):
        return True

    def answer_no(self, meta, c):
        return False

    def do_step(self, meta, c):
        return A.DoStep(self._sp(meta), c[0])

    def seed(self, meta, c):
        return A.Seed(self._sp(meta), int(c[0]))

    def next_turn(self, meta, c):
        return A.NextTurn(self._sp(meta))

    def finish(self, meta, c):
        return A.Finish(self._sp(meta))

    def rig_shuffle(self, meta, c):
        return A.Rig(self._sp(meta), "shuffle", tuple(_s(x) for x in c))

    def rig_roll(self, meta, c):
        return A.Rig(self._sp(meta), "roll", tuple(_s(x) for x in c))

    def rig_random(self, meta, c):
        return A.Rig(self._sp(meta), "random", tuple(c))

    def active_seat(self, meta, c):
        return A.ActiveSeat(self._sp(meta), int(c[0]))

    def quiet(self, meta, c):
        events = tuple(_s(x) for x in c if isinstance(x, Token))
        counters = tuple(x for x in c if not isinstance(x, Token))
        return A.Quiet(self._sp(meta), events, counters)

    def emitted(self, meta, c):
        return A.Emitted(self._sp(meta), _s(c[0]), c[1] if len(c) > 1 else None)

    def outcome_is(self, meta, c):
        return A.OutcomeIs(self._sp(meta), _s(c[0]))

    def game_over(self, meta, c):
        return A.GameOverCond(self._sp(meta))

    def winner_is(self, meta, c):
        return A.WinnerIs(self._sp(meta), c[0])

    # ------------------------------------------------------------ statements
    def body(self, meta, c):
        stmts = c[0] if isinstance(c[0], list) else c[0].stmts
        return A.Body(self._sp(meta), _attach_otherwise(tuple(stmts)))

    def block(self, meta, c):
        out: list[Any] = []
        for s in c:
            out.extend(s if isinstance(s, list) else [s])
        return A.Body(self._sp(meta), _attach_otherwise(tuple(out)))

    def line(self, meta, c):
        return list(c)

    def _body_of(self, meta, x):
        return x if isinstance(x, A.Body) else A.Body(self._sp(meta), tuple(x))

    def if_stmt(self, meta, c):
        return A.If(self._sp(meta), c[0], self._body_of(meta, c[1]))

    def otherwise(self, meta, c):
        return A.Otherwise(self._sp(meta), c[0])

    def for_players(self, meta, c):
        return A.ForPlayers(self._sp(meta), c[0], self._body_of(meta, c[1]))

    def for_cards(self, meta, c):
        return A.ForCards(self._sp(meta), c[0], self._body_of(meta, c[1]))

    def repeat(self, meta, c):
        return A.Repeat(self._sp(meta), c[0], self._body_of(meta, c[1]))

    def _prefix(self, c):
        subject, may, rest = None, False, list(c)
        if rest and isinstance(rest[0], A.PlayerSel):
            subject = rest.pop(0)
        if rest and isinstance(rest[0], Token) and rest[0].type == "MAY":
            may = True
            rest.pop(0)
        return subject, may, rest

    def call_block(self, meta, c):
        subject, may, rest = self._prefix(c)
        call: A.Call = rest[0]
        return A.Call(self._sp(meta), call.items, self._body_of(meta, rest[1]), subject, may)

    def call_stmt(self, meta, c):
        subject, may, rest = self._prefix(c)
        call: A.Call = rest[0]
        return A.Call(self._sp(meta), call.items, None, subject, may)

    def choose(self, meta, c):
        subject, may, rest = self._prefix(c)
        body = self._body_of(meta, rest[1]) if len(rest) > 1 else None
        return A.Choose(self._sp(meta), rest[0], body, subject, may)

    def counter_add(self, meta, c):
        sign = -1 if c[0] == "-" else 1
        player = c[3] if len(c) > 3 else None
        return A.CounterAdd(self._sp(meta), sign, c[1], c[2], player)

    def counter_set(self, meta, c):
        ref: A.CounterOf = c[0]
        return A.CounterSet(self._sp(meta), ref.owner, ref.name, c[1], ref.cards)

    def card_counter_add(self, meta, c):
        sign = -1 if c[0] == "-" else 1
        return A.CounterAdd(self._sp(meta), sign, c[1], c[2], None, c[3])

    def card_counter(self, meta, c):
        return A.CounterOf(self._sp(meta), "card", c[0], c[1])

    def mark(self, meta, c):
        return A.Mark(self._sp(meta), c[0], _s(c[1]), len(c) > 2)

    def unmark(self, meta, c):
        return A.Mark(self._sp(meta), c[0], _s(c[1]), len(c) > 2, unmark=True)

    def resolve(self, meta, c):
        card = str(c[1]) if isinstance(c[1], Token) else c[1]
        return A.Resolve(self._sp(meta), c[0], card, c[2] if len(c) > 2 else None)

    def emit(self, meta, c):
        return A.Emit(self._sp(meta), _s(c[0]), c[1] if len(c) > 1 else None)

    def end_game(self, meta, c):
        return A.EndGame(self._sp(meta), _s(c[0]) if c else "")

    def let(self, meta, c):
        return A.Let(self._sp(meta), str(c[0]), c[1])

    def nothing(self, meta, c):
        return A.Nothing(self._sp(meta))

    def run_block(self, meta, c):
        return A.RunBlock(self._sp(meta), str(c[0]))

    def subject(self, meta, c):
        return c[0]

    def s_they(self, meta, c):
        return A.PlayerSel(self._sp(meta), "them")

    def s_param(self, meta, c):
        return A.PlayerSel(self._sp(meta), "param", str(c[0]))

    # ------------------------------------------------------------ calls
    def call(self, meta, c):
        items = [A.Word(self._sp(meta), str(c[0]))] + list(c[1:])
        return A.Call(self._sp(meta), tuple(items))

    def cword(self, meta, c):
        return A.Word(self._sp(meta), str(c[0]))

    def carg_num(self, meta, c):
        return A.NumArg(self._sp(meta), A.Num(self._sp(meta), int(c[0])))

    def carg_str(self, meta, c):
        return A.StrArg(self._sp(meta), _s(c[0]))

    def carg_expr(self, meta, c):
        return A.NumArg(self._sp(meta), c[0])

    def carg_param(self, meta, c):
        return A.ParamArg(self._sp(meta), str(c[0]))

    def cslot(self, meta, c):
        return A.Slot(self._sp(meta), str(c[0]), str(c[1]))

    def carg_cards(self, meta, c):
        return A.CardsArg(self._sp(meta), c[0])

    def carg_players(self, meta, c):
        return A.PlayersArg(self._sp(meta), c[0])

    def carg_zone(self, meta, c):
        return A.ZoneArg(self._sp(meta), c[0])

    # ------------------------------------------------------------ player selectors
    def p_you(self, meta, c):
        return A.PlayerSel(self._sp(meta), "you")

    def p_them(self, meta, c):
        return A.PlayerSel(self._sp(meta), "them")

    def p_target_foe(self, meta, c):
        return A.PlayerSel(self._sp(meta), "target foe")

    def p_each_foe(self, meta, c):
        return A.PlayerSel(self._sp(meta), "each foe", "", tuple(c))

    def p_each_player(self, meta, c):
        return A.PlayerSel(self._sp(meta), "each player", "", tuple(c))

    def p_side(self, meta, c):
        return A.PlayerSel(self._sp(meta), c[0])

    def p_foe_in(self, meta, c):
        return A.PlayerSel(self._sp(meta), "foe in", str(c[0]), tuple(c[1:]))

    def p_param(self, meta, c):
        return A.PlayerSel(self._sp(meta), "param", str(c[0]))

    def player_sel(self, meta, c):
        return c[0]

    def player_ref(self, meta, c):  # pragma: no cover - inlined by '?'
        return c[0]

    def pf_marked(self, meta, c):
        return A.MarkFilter(self._sp(meta), _s(c[0]), len(c) > 1, False)

    def pf_not_marked(self, meta, c):
        return A.MarkFilter(self._sp(meta), _s(c[0]), len(c) > 1, True)

    # ------------------------------------------------------------ card selectors
    def _split(self, c):
        place = [x for x in c if isinstance(x, tuple) and x and x[0] == "place"]
        filters = tuple(x for x in c if isinstance(x, A.CardFilter))
        zones, in_param, played = (), "", False
        if place:
            _, zones, in_param, played = place[0]
        return zones, in_param, played, filters

    def c_this(self, meta, c):
        return A.CardSel(self._sp(meta), "this")

    def c_it(self, meta, c):
        return A.CardSel(self._sp(meta), "it")

    def c_top(self, meta, c):
        one = A.Num(self._sp(meta), 1)
        return A.CardSel(self._sp(meta), c[0], "n", one, zones=(c[2],), card_word=c[1])

    def c_top_n(self, meta, c):
        n = A.Num(self._sp(meta), int(c[1]))
        return A.CardSel(self._sp(meta), c[0], "n", n, zones=(c[3],), card_word=c[2])

    def c_pick(self, meta, c):
        quantity, count = c[0]
        kind = c[1]
        zones, in_param, played, filters = self._split(c[2:])
        types = () if kind[0] == "any" else (kind[1],)
        word = kind[1] if kind[0] == "any" else ""
        return A.CardSel(self._sp(meta), "pick", quantity, count, types, "", zones, in_param, played is True, filters,
                         word, control=played == "control")

    def c_pick_n(self, meta, c):
        zones, in_param, played, filters = self._split(c[2:])
        n = A.Num(self._sp(meta), int(c[0]))
        return A.CardSel(self._sp(meta), "pick", "n", n, (), "", zones, in_param, played is True, filters, c[1],
                         control=played == "control")

    def c_pick_random_n(self, meta, c):
        zones, in_param, played, filters = self._split(c[2:])
        t = c[0]
        n = A.Num(self._sp(meta), int(t)) if t.type == "INT" else A.Param(self._sp(meta), str(t))
        return A.CardSel(self._sp(meta), "pick", "random n", n, (), "", zones, in_param, played is True, filters, c[1],
                         control=played == "control")

    def c_pick_named(self, meta, c):
        zones, in_param, played, filters = self._split(c[2:])
        n = A.Num(self._sp(meta), int(c[0]))
        return A.CardSel(self._sp(meta), "pick", "n", n, (), _s(c[1]), zones, in_param, played is True, filters,
                         control=played == "control")

    def c_all_named(self, meta, c):
        zones, in_param, played, filters = self._split(c[1:])
        return A.CardSel(self._sp(meta), "pick", "all", None, (), _s(c[0]), zones, in_param, played is True, filters,
                         control=played == "control")

    def q_one(self, meta, c):
        return ("one", None)

    def q_up_to(self, meta, c):
        return ("up to", A.Num(self._sp(meta), int(c[0])))

    def q_random(self, meta, c):
        return ("random", None)

    def q_all(self, meta, c):
        return ("all", None)

    def q_each(self, meta, c):
        return ("each", None)

    def k_any(self, meta, c):
        return ("any", c[0])

    def k_type(self, meta, c):
        return ("type", " ".join(str(t) for t in c))

    def place_zones(self, meta, c):
        return ("place", tuple(x for x in c if isinstance(x, A.ZoneRef)), "", False)

    def place_param(self, meta, c):
        return ("place", (), str(c[0]), False)

    def place_played(self, meta, c):
        return ("place", (), "", True)

    def place_control(self, meta, c):
        return ("place", (), "", "control")

    def cf_has(self, meta, c):
        return A.CardFilter(self._sp(meta), "has", tuple(c))

    def cf_has_param(self, meta, c):
        return A.CardFilter(self._sp(meta), "has_param", (str(c[0]),))

    def cf_has_not(self, meta, c):
        return A.CardFilter(self._sp(meta), "has_not", (c[0],))

    def cf_where(self, meta, c):
        return A.CardFilter(self._sp(meta), "where", (), c[0])

    def cf_prefer(self, meta, c):
        return A.CardFilter(self._sp(meta), "prefer", (str(c[0]),), c[1])

    def pref(self, meta, c):
        return str(c[0])

    # ------------------------------------------------------------ zones
    def z_your(self, meta, c):
        return A.ZoneRef(self._sp(meta), "you", str(c[0]))

    def z_their(self, meta, c):
        return A.ZoneRef(self._sp(meta), "them", str(c[0]))

    def z_shared(self, meta, c):
        return A.ZoneRef(self._sp(meta), "shared", str(c[0]))

    def z_of(self, meta, c):
        return A.ZoneRef(self._sp(meta), "of", str(c[0]), c[1])

    def z_of_card(self, meta, c):
        return A.ZoneRef(self._sp(meta), "card", str(c[0]), None, c[1])

    def z_owner(self, meta, c):
        return A.ZoneRef(self._sp(meta), "owner", str(c[0]))

    def z_home(self, meta, c):
        return A.ZoneRef(self._sp(meta), "home", "")

    # ------------------------------------------------------------ conditions
    def or_(self, meta, c):
        return A.BoolOp(self._sp(meta), "or", (c[0], c[1]))

    def and_(self, meta, c):
        return A.BoolOp(self._sp(meta), "and", (c[0], c[1]))

    def not_(self, meta, c):
        return A.BoolOp(self._sp(meta), "not", (c[0],))

    def compare(self, meta, c):
        return A.Compare(self._sp(meta), str(c[1]), c[0], c[2])

    def is_(self, meta, c):
        subject, _verb, (pred, mark, this_turn) = c
        return A.Is(self._sp(meta), subject, pred, mark, this_turn)

    def pr_marked(self, meta, c):
        return ("marked", _s(c[0]), len(c) > 1)

    def pr_not_marked(self, meta, c):
        return ("not marked", _s(c[0]), len(c) > 1)

    def pr_face_down(self, meta, c):
        return ("face down", "", False)

    def pr_face_up(self, meta, c):
        return ("face up", "", False)

    def pr_yours(self, meta, c):
        return ("yours", "", False)

    def pr_not_yours(self, meta, c):
        return ("not yours", "", False)

    def pr_showing(self, meta, c):
        return ("showing", _s(c[0]), False)

    def any_marked(self, meta, c):
        return A.AnyMarked(self._sp(meta), _s(c[0]), len(c) > 1)

    def did(self, meta, c):
        return A.Did(self._sp(meta), False)

    def did_not(self, meta, c):
        return A.Did(self._sp(meta), True)

    def zone_empty(self, meta, c):
        return A.ZoneEmpty(self._sp(meta), c[0])

    def has(self, meta, c):
        return A.Has(self._sp(meta), c[0], c[1])

    def has_home(self, meta, c):
        return A.HasHome(self._sp(meta), c[0])

    # ------------------------------------------------------------ expressions
    def binop(self, meta, c):
        return A.BinOp(self._sp(meta), str(c[1]), c[0], c[2])

    def text(self, meta, c):
        return A.Text(self._sp(meta), _s(c[0]))

    def neg(self, meta, c):
        return A.BinOp(self._sp(meta), "-", A.Num(self._sp(meta), 0), c[-1])

    def mul(self, meta, c):
        return A.BinOp(self._sp(meta), "*", c[0], c[1])

    def num(self, meta, c):
        return A.Num(self._sp(meta), int(c[0]))

    def param(self, meta, c):
        return A.Param(self._sp(meta), str(c[0]))

    def count(self, meta, c):
        return A.Count(self._sp(meta), c[0])

    def count_players(self, meta, c):
        return A.CountPlayers(self._sp(meta))

    def count_types(self, meta, c):
        return A.CountTypes(self._sp(meta), c[0])

    def sum_attr(self, meta, c):
        return A.SumAttr(self._sp(meta), c[0], c[1])

    def highest(self, meta, c):
        return A.Highest(self._sp(meta), c[0], c[1])

    def highest_of_cards(self, meta, c):
        return A.Highest(self._sp(meta), c[0], None)

    def lowest(self, meta, c):
        return A.Highest(self._sp(meta), c[0], c[1], True)

    def lowest_of_cards(self, meta, c):
        return A.Highest(self._sp(meta), c[0], None, True)

    def max_(self, meta, c):
        return A.MinMax(self._sp(meta), "max", c[0], c[1])

    def min_(self, meta, c):
        return A.MinMax(self._sp(meta), "min", c[0], c[1])

    def attr_of(self, meta, c):
        return A.AttrOf(self._sp(meta), c[0], c[1])

    def your_counter(self, meta, c):
        return A.CounterOf(self._sp(meta), "you", c[0])

    def their_counter(self, meta, c):
        return A.CounterOf(self._sp(meta), "them", c[0])

    def shared_counter(self, meta, c):
        return A.CounterOf(self._sp(meta), "shared", c[0])


def _attach_otherwise(stmts: tuple[Any, ...]) -> tuple[Any, ...]:
    """Fold each 'otherwise:' into the 'if' just before it; a stray one stays for the checker."""
    out: list[Any] = []
    for s in stmts:
        if isinstance(s, A.Otherwise) and out and isinstance(out[-1], A.If) and out[-1].otherwise is None:
            prev = out.pop()
            out.append(A.If(prev.span, prev.cond, prev.then, s.body))
        else:
            out.append(s)
    return tuple(out)


def build(text: str, filename: str = "<string>") -> A.Script:
    """Parse and build the AST of one script.

    Raises:
        CompileError: for syntax errors (see :func:`cardscript.dsl.front.parse.parse`).
    """
    tree: Tree = parse(text, filename)
    try:
        items = _Builder(filename).transform(tree)
    except Exception as exc:  # a VisitError wrapping a user error found while building, or a builder bug
        orig = getattr(exc, "orig_exc", exc)
        if isinstance(orig, CompileError):
            raise orig from None
        raise CompileError([error("CS900", f"internal compiler error while building the AST: {orig!r}",
                                  Span(filename, 1, 1))]) from exc
    return A.Script(Span(filename, 1, 1), filename, tuple(items))

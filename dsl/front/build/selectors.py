"""Builder for selectors: players, cards and zones (grammar section 'selectors')."""

from __future__ import annotations

from lark import v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase, _s


@v_args(meta=True)
class SelectorBuilder(BuilderBase):
    """Player selectors and their filters, card selectors and their parts, zone references."""

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

    def p_their_side(self, meta, c):
        return A.PlayerSel(self._sp(meta), f"their {c[0]}")

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

    # 'count it where COND', 'count the top card of ZONE with hero': the one card, tested (a
    # selector with filters; the filters of 'it' and 'the top card of' stand only after 'count').
    def count_it(self, meta, c):
        return A.Count(self._sp(meta), A.CardSel(self._sp(meta), "it", filters=_filters(c)))

    def count_this(self, meta, c):
        return A.Count(self._sp(meta), A.CardSel(self._sp(meta), "this", filters=_filters(c)))

    def count_top(self, meta, c):
        one = A.Num(self._sp(meta), 1)
        sel = A.CardSel(self._sp(meta), c[0], "n", one, zones=(c[2],), card_word=c[1], filters=_filters(c))
        return A.Count(self._sp(meta), sel)

    def count_top_n(self, meta, c):
        n = A.Num(self._sp(meta), int(c[1]))
        sel = A.CardSel(self._sp(meta), c[0], "n", n, zones=(c[3],), card_word=c[2], filters=_filters(c))
        return A.Count(self._sp(meta), sel)

    def c_pick(self, meta, c):
        quantity, count = c[0]
        kind = c[1]
        zones, in_param, played, filters = self._split(c[2:])
        types = () if kind[0] == "any" else (kind[1],)
        word = kind[1] if kind[0] == "any" else ""
        return A.CardSel(self._sp(meta), "pick", quantity, count, types, "", zones, in_param, played is True, filters,
                         word, control=played == "control", gained=played == "gained")

    def c_pick_n(self, meta, c):
        zones, in_param, played, filters = self._split(c[2:])
        n = A.Num(self._sp(meta), int(c[0]))
        return A.CardSel(self._sp(meta), "pick", "n", n, (), "", zones, in_param, played is True, filters, c[1],
                         control=played == "control", gained=played == "gained")

    def c_pick_random_n(self, meta, c):
        zones, in_param, played, filters = self._split(c[2:])
        t = c[0]
        n = A.Num(self._sp(meta), int(t)) if t.type == "INT" else A.Param(self._sp(meta), str(t))
        return A.CardSel(self._sp(meta), "pick", "random n", n, (), "", zones, in_param, played is True, filters, c[1],
                         control=played == "control", gained=played == "gained")

    def c_pick_named(self, meta, c):
        zones, in_param, played, filters = self._split(c[2:])
        n = A.Num(self._sp(meta), int(c[0]))
        return A.CardSel(self._sp(meta), "pick", "n", n, (), _s(c[1]), zones, in_param, played is True, filters,
                         control=played == "control", gained=played == "gained")

    def c_all_named(self, meta, c):
        zones, in_param, played, filters = self._split(c[1:])
        return A.CardSel(self._sp(meta), "pick", "all", None, (), _s(c[0]), zones, in_param, played is True, filters,
                         control=played == "control", gained=played == "gained")

    def q_one(self, meta, c):
        return ("one", None)

    def q_up_to(self, meta, c):
        return ("up to", A.Num(self._sp(meta), int(c[0])))

    def q_up_to_expr(self, meta, c):
        return ("up to", c[0])

    def q_up_to_param(self, meta, c):
        return ("up to", A.Param(self._sp(meta), str(c[0])))

    def q_any_number(self, meta, c):
        return ("up to", A.Num(self._sp(meta), A.ANY_NUMBER))

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

    def place_top(self, meta, c):
        """'from the top 3 cards of ZONE': the zones of the selector hold that one-end selector."""
        n = A.Num(self._sp(meta), int(c[1]))
        top = A.CardSel(self._sp(meta), c[0], "n", n, zones=(c[3],), card_word=c[2])
        return ("place", (top,), "", False)

    def place_param(self, meta, c):
        return ("place", (), str(c[0]), False)

    def place_played(self, meta, c):
        return ("place", (), "", True)

    def place_gained(self, meta, c):
        return ("place", (), "", "gained")

    def cf_other_name(self, meta, c):
        return A.CardFilter(self._sp(meta), "other_name", card=c[0])

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


def _filters(c: list) -> tuple[A.CardFilter, ...]:
    """The card filters among a rule's children."""
    return tuple(x for x in c if isinstance(x, A.CardFilter))

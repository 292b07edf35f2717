"""Effect objects: the compiled form of every statement, selector, condition and
expression. They run against a :class:`~cardscript.runtime.engine.Game` and a
:class:`~cardscript.runtime.engine.Ctx`; none of them knows any particular game.

Protocols:
    effects:     ``run(g, ctx) -> int`` — how much changed (0: nothing; drives "if you do");
    players:     ``players(g, ctx) -> list[int]`` — seats, in rule order;
    cards:       ``cards(g, ctx) -> list[int]`` — card ids, top of a zone first;
    zones:       ``slots(g, ctx) -> list[int]`` — zone slots;
    expressions: ``evaluate(g, ctx) -> int``;
    conditions:  ``test(g, ctx) -> bool``.
"""

from __future__ import annotations

import operator
from typing import Any

from cardscript.runtime.engine import MAX_CALL_DEPTH, Ctx, Decision, Game, GameOver, RunawayError

MAX_REPEAT = 1000


class Node:
    """Base: generic JSON IR from ``__slots__`` (see :func:`to_ir`)."""

    __slots__ = ()

    def ir(self) -> dict[str, Any]:
        """``{"ClassName": {field: value, ...}}`` — one key, so a schema can dispatch on it."""
        slots: tuple[str, ...] = self.__slots__  # type: ignore[assignment]
        fields = {slot: to_ir(getattr(self, slot)) for slot in slots if not slot.startswith("_")}
        return {type(self).__name__: fields}


def to_ir(x: Any) -> Any:
    """Any effect object, list or scalar -> JSON-compatible data."""
    if isinstance(x, Node):
        return x.ir()
    if isinstance(x, (list, tuple)):
        return [to_ir(i) for i in x]
    if isinstance(x, dict):
        return {str(k): to_ir(v) for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))}
    if isinstance(x, (frozenset, set)):
        return sorted(to_ir(i) for i in x)
    return x


# ====================================================================== expressions
class Const(Node):
    """A number written in the script."""

    __slots__ = ("value",)

    def __init__(self, value: int):
        self.value = value

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        return self.value


class Text(Node):
    """A quoted text compared in a condition ('name of it != "Rare Card"')."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def evaluate(self, g: Game, ctx: Ctx) -> str:  # type: ignore[override]
        return self.text


class Var(Node):
    """A number parameter or a 'let' value."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        return ctx.vars[self.name]


class Arith(Node):
    """E + E, E - E, E * E."""

    __slots__ = ("left", "operator", "right")

    def __init__(self, operator: str, left: Any, right: Any):
        self.operator, self.left, self.right = operator, left, right

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        a, b = self.left.evaluate(g, ctx), self.right.evaluate(g, ctx)
        o = self.operator
        return a + b if o == "+" else a - b if o == "-" else a * b


class CountCards(Node):
    """'count CARDS': how many cards the selector selects."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        return len(self.cards.cards(g, ctx))


class CountSeats(Node):
    """'count players': the number of seats."""

    __slots__ = ()

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        return g.n


class CountTypes(Node):
    """Distinct declared card types among the selected cards."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        seen: set[str] = set()
        for c in self.cards.cards(g, ctx):
            seen |= g.d.cards[g.card_type[c]].types
        return len(seen)


class SumAttr(Node):
    """'sum of ATTR of CARDS'."""

    __slots__ = ("attr", "cards")

    def __init__(self, attr: str, cards: Any):
        self.attr, self.cards = attr, cards

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        return sum(int(g.card_attrs[c].get(self.attr, 0)) for c in self.cards.cards(g, ctx))


class AttrOf(Node):
    """An attribute of the first selected card; 0 (or '') when there is none."""

    __slots__ = ("_it", "attr", "card")

    def __init__(self, attr: str, card: Any):
        self.attr, self.card = attr, card
        self._it = card.kind == "it" and attr != "name"

    def evaluate(self, g: Game, ctx: Ctx) -> Any:
        if self._it:
            return g.card_attrs[ctx.it].get(self.attr, 0) if ctx.it is not None else 0
        cards = self.card.cards(g, ctx)
        if not cards:
            return 0
        if self.attr == "name":
            return g.card_name(cards[0])
        if self.attr == "face":
            return g.face_value[cards[0]] or ""
        return g.card_attrs[cards[0]].get(self.attr, 0)


def _whose(owner: str, ctx: Ctx) -> int:
    """The seat a counter reference means: 'your' -> you, 'their' -> them (or you when
    nobody is bound), 'the' (shared) -> slot 0."""
    if owner == "you":
        return ctx.you
    if owner == "them":
        return ctx.them if ctx.them is not None else ctx.you
    return 0


class CounterValue(Node):
    """owner: you | them | shared; 'seat' is the 1-based seat number."""

    __slots__ = ("counter", "owner")

    def __init__(self, owner: str, counter: int):
        self.owner, self.counter = owner, counter

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        p = _whose(self.owner, ctx)
        if self.counter == -1:  # seat
            return p + 1
        return g.get(self.counter, p)


class HighestAttr(Node):
    """The highest (or lowest) value of an attribute among the selected cards (0 for none)."""

    __slots__ = ("attr", "cards", "lowest")

    def __init__(self, attr: str, cards: Any, lowest: bool = False):
        self.attr, self.cards, self.lowest = attr, cards, lowest

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        vals = [int(g.card_attrs[c].get(self.attr, 0)) for c in self.cards.cards(g, ctx)]
        if not vals:
            return 0
        return min(vals) if self.lowest else max(vals)


class MinMax(Node):
    """'max(E, E)' and 'min(E, E)'."""

    __slots__ = ("left", "op", "right")

    def __init__(self, op: str, left: Any, right: Any):
        self.op, self.left, self.right = op, left, right

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        a, b = self.left.evaluate(g, ctx), self.right.evaluate(g, ctx)
        return max(a, b) if self.op == "max" else min(a, b)


class CardCounter(Node):
    """A per-card counter of the first selected card ('damage of it'); 0 when none."""

    __slots__ = ("cards", "counter")

    def __init__(self, counter: int, cards: Any):
        self.counter, self.cards = counter, cards

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        return g.get(self.counter, cs[0]) if cs else 0


class Highest(Node):
    """'highest|lowest EXPR among PLAYERS': the extreme value with each player as 'them'."""

    __slots__ = ("expr", "lowest", "players")

    def __init__(self, expr: Any, players: Any, lowest: bool = False):
        self.expr, self.players, self.lowest = expr, players, lowest

    def evaluate(self, g: Game, ctx: Ctx) -> int:
        vals = [self.expr.evaluate(g, ctx.with_them(p)) for p in self.players.players(g, ctx)]
        if not vals:
            return 0
        return min(vals) if self.lowest else max(vals)


# ====================================================================== conditions
_OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt, "==": operator.eq,
        "!=": operator.ne}


class Compare(Node):
    """EXPR OP EXPR with == != < <= > >= (texts compare with == and !=)."""

    __slots__ = ("_fn", "comparison", "left", "right")

    def __init__(self, comparison: str, left: Any, right: Any):
        self.comparison, self.left, self.right = comparison, left, right
        self._fn = _OPS[comparison]

    def test(self, g: Game, ctx: Ctx) -> bool:
        return self._fn(self.left.evaluate(g, ctx), self.right.evaluate(g, ctx))


class And(Node):
    """C and C: every condition holds (evaluated left to right, stops at the first false)."""

    __slots__ = ("args",)

    def __init__(self, args: list[Any]):
        self.args = args

    def test(self, g: Game, ctx: Ctx) -> bool:
        for a in self.args:
            if not a.test(g, ctx):
                return False
        return True


class Or(Node):
    """C or C: some condition holds (stops at the first true)."""

    __slots__ = ("args",)

    def __init__(self, args: list[Any]):
        self.args = args

    def test(self, g: Game, ctx: Ctx) -> bool:
        for a in self.args:
            if a.test(g, ctx):
                return True
        return False


class Not(Node):
    """not C."""

    __slots__ = ("arg",)

    def __init__(self, arg: Any):
        self.arg = arg

    def test(self, g: Game, ctx: Ctx) -> bool:
        return not self.arg.test(g, ctx)


class PlayerMarked(Node):
    """True when every selected player carries the mark (false when none is selected)."""

    __slots__ = ("_them", "mark", "players", "this_turn")

    def __init__(self, players: Any, mark: str, this_turn: bool):
        self.players, self.mark, self.this_turn = players, mark, this_turn
        self._them = players.kind == "them" and not players.filters

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self._them:
            p = ctx.them if ctx.them is not None else ctx.you
            return g.player_marked(ctx, self.mark, p, self.this_turn)
        ps = self.players.players(g, ctx)
        return bool(ps) and all(g.player_marked(ctx, self.mark, p, self.this_turn) for p in ps)


class CardMarked(Node):
    """'CARDS is marked "M" [this turn]': every selected card carries the mark."""

    __slots__ = ("_it", "cards", "mark", "this_turn")

    def __init__(self, cards: Any, mark: str, this_turn: bool):
        self.cards, self.mark, self.this_turn = cards, mark, this_turn
        self._it = cards.kind == "it"

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self._it:
            return ctx.it is not None and g.card_marked(ctx, self.mark, ctx.it, self.this_turn)
        cs = self.cards.cards(g, ctx)
        return bool(cs) and all(g.card_marked(ctx, self.mark, c, self.this_turn) for c in cs)


class AnyFoeMarked(Node):
    """'any foe is marked "M" [this turn]'."""

    __slots__ = ("mark", "this_turn")

    def __init__(self, mark: str, this_turn: bool):
        self.mark, self.this_turn = mark, this_turn

    def test(self, g: Game, ctx: Ctx) -> bool:
        return any(g.player_marked(ctx, self.mark, p, self.this_turn) for p in g.foes(ctx.you))


class FaceDown(Node):
    """'CARDS is face down' / 'face up'."""

    __slots__ = ("_it", "cards", "down")

    def __init__(self, cards: Any, down: bool):
        self.cards, self.down = cards, down
        self._it = cards.kind == "it"

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self._it:
            return ctx.it is not None and g.face_up[ctx.it] != self.down
        cs = self.cards.cards(g, ctx)
        return bool(cs) and all(g.face_up[c] != self.down for c in cs)


class Did(Node):
    """'you do' / 'they don't': the previous statement's result is (is not) above 0."""

    __slots__ = ("negate",)

    def __init__(self, negate: bool):
        self.negate = negate

    def test(self, g: Game, ctx: Ctx) -> bool:
        return (ctx.did > 0) != self.negate


class ZoneEmpty(Node):
    """'ZONE is empty'."""

    __slots__ = ("zone",)

    def __init__(self, zone: Any):
        self.zone = zone

    def test(self, g: Game, ctx: Ctx) -> bool:
        return all(not g.slots[s] for s in self.zone.slots(g, ctx))


class _EveryCard(Node):
    """A condition on cards: true when there is a selected card and every one passes ``holds``."""

    __slots__ = ()

    def __init__(self, cards: Any):
        self.cards = cards  # type: ignore[misc]  # subclasses declare the slot

    def test(self, g: Game, ctx: Ctx) -> bool:
        cs = self.cards.cards(g, ctx)  # type: ignore[attr-defined]
        return bool(cs) and all(self.holds(g, ctx, c) for c in cs)

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:  # pragma: no cover - interface
        raise NotImplementedError


class HasWord(_EveryCard):
    """A card 'has' a type, a keyword, or an ability label."""

    __slots__ = ("cards", "words")

    def __init__(self, cards: Any, words: tuple[str, ...]):
        self.cards, self.words = cards, words

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return card_has(g, card, self.words)


class Showing(_EveryCard):
    """Every selected die shows the face ('it is showing "bat"')."""

    __slots__ = ("cards", "face")

    def __init__(self, cards: Any, face: str):
        self.cards, self.face = cards, face

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return g.face_value[card] == self.face


class Owned(_EveryCard):
    """Every selected card belongs to the acting player ('it is yours')."""

    __slots__ = ("cards",)

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return g.owner[card] == ctx.you


class HasHome(_EveryCard):
    """'CARDS has a home': every selected card has a home zone to return to."""

    __slots__ = ("cards",)

    def holds(self, g: Game, ctx: Ctx, card: int) -> bool:
        return g.d.cards[g.card_type[card]].home >= 0


class Emitted(Node):
    """The event was emitted (for the players, if given) since the counts were last reset."""

    __slots__ = ("event", "players")

    def __init__(self, event: str, players: Any = None):
        self.event, self.players = event, players

    def test(self, g: Game, ctx: Ctx) -> bool:
        if self.players is None:
            return any(k[0] == self.event for k in g.event_counts)
        return all(g.event_counts.get((self.event, p), 0) > 0 for p in self.players.players(g, ctx))


class IsOver(Node):
    """The game has ended."""

    __slots__ = ()

    def test(self, g: Game, ctx: Ctx) -> bool:
        return g.over is not None


class OutcomeIs(Node):
    """'outcome is "TEXT"': the scored game's co-operative outcome."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def test(self, g: Game, ctx: Ctx) -> bool:
        return g.outcome == self.text


class WinnerIs(Node):
    """'winner is PLAYERS': the scored game's winners are exactly these players."""

    __slots__ = ("players",)

    def __init__(self, players: Any):
        self.players = players

    def test(self, g: Game, ctx: Ctx) -> bool:
        return sorted(self.players.players(g, ctx)) == sorted(g.winners)


def card_has(g: Game, card: int, words: tuple[str, ...]) -> bool:
    """The card has one of the words as a type, a keyword or an ability label."""
    have = g.card_words[card]
    for w in words:
        if w in have:
            return True
    return False


# ====================================================================== zones
class ZoneRef(Node):
    """owner: you | them | shared | owner (of the bound card) | home (of the bound card) | of
    (``players`` selects whose) | card (a per-card zone; ``players`` holds the card selector)."""

    __slots__ = ("owner", "players", "zone")

    def __init__(self, owner: str, zone: int, players: Any = None):
        self.owner, self.zone, self.players = owner, zone, players

    def slots(self, g: Game, ctx: Ctx) -> list[int]:
        o = self.owner
        if o == "shared":
            return [g.zone_base[self.zone]]
        if o == "you":
            return [g.zone_base[self.zone] + ctx.you]
        if o == "them":
            return [g.zone_base[self.zone] + (ctx.them if ctx.them is not None else ctx.you)]
        if o == "of":
            return [g.slot(self.zone, p) for p in self.players.players(g, ctx)]
        if o == "card":
            return [g.zone_base[self.zone] + c for c in self.players.cards(g, ctx)]
        card = ctx.it
        if card is None:
            return []
        if o == "owner":
            owner = g.owner[card]
            return [g.slot(self.zone, owner if owner >= 0 else ctx.you)]
        home = g.d.cards[g.card_type[card]].home
        return [g.slot(home, ctx.you)] if home >= 0 else []


class ZoneParam(Node):
    """A {Z: zone} parameter: the slots the caller's zone reference named."""

    __slots__ = ("name", "owner")

    def __init__(self, name: str):
        self.name, self.owner = name, "param"

    def slots(self, g: Game, ctx: Ctx) -> list[int]:
        return list(ctx.vars[self.name])


# ====================================================================== players
class Players(Node):
    """kind: you | them | target foe | each foe | each player | left | right | param | foe in.
    filters: (mark, this_turn, negate) triples."""

    __slots__ = ("filters", "kind", "param")

    def __init__(self, kind: str, param: str = "", filters: tuple = ()):
        self.kind, self.param, self.filters = kind, param, filters

    def players(self, g: Game, ctx: Ctx) -> list[int]:
        k = self.kind
        if k == "you":
            out = [ctx.you]
        elif k == "them":
            out = [ctx.them if ctx.them is not None else ctx.you]
        elif k == "each foe":
            out = g.foes(ctx.you)
        elif k == "each player":
            out = g.everyone()
        elif k == "target foe":
            foes = g.foes(ctx.you)
            if len(foes) <= 1:
                out = foes
            else:
                pick = g.decide(Decision(ctx.you, "player", foes, [f"P{f + 1}" for f in foes], 1, 1, "target"))
                out = [foes[pick[0]]]
        elif k == "left":
            out = [(ctx.you + 1) % g.n]
        elif k == "right":
            out = [(ctx.you - 1) % g.n]
        else:  # param / foe in
            out = list(ctx.vars[self.param])
        for mark, this_turn, negate in self.filters:
            out = [p for p in out if g.player_marked(ctx, mark, p, this_turn) != negate]
        return out


# ====================================================================== cards
class Cards(Node):
    """A card selector.

    kind: this | it | top | bottom | pick | param | played.
    quantity (pick): one | up to | random | random n | all | each | n.
    zones: ZoneRefs; types: required types (any of); name: a card name;
    filters: (kind, data) pairs — ('has', words), ('has_not', words), ('where', cond),
    ('has_param', name); chooser decides for 'one' and 'up to'.
    """

    __slots__ = (
        "_choice",
        "count",
        "filters",
        "kind",
        "name",
        "param",
        "prefer",
        "purpose",
        "quantity",
        "types",
        "zones",
    )

    def __init__(self, kind: str, quantity: str = "", count: Any = None, zones: tuple = (), types: tuple = (),
                 name: str = "", filters: tuple = (), param: str = "", purpose: str = "", prefer: Any = None):
        self.kind, self.quantity, self.count, self.zones = kind, quantity, count, zones
        self.types, self.name, self.filters, self.param, self.purpose = types, name, filters, param, purpose
        self.prefer = prefer  # (sign, expression): what a bot should pick first; not a rule
        self._choice = quantity in ("one", "up to", "random", "random n")

    def candidates(self, g: Game, ctx: Ctx) -> list[int]:
        k = self.kind
        if k == "param":
            pool = list(ctx.vars[self.param])
        elif k == "played":
            pool = list(reversed(g.played_turn))
        elif k == "control":
            # Cards you control: your play zone, and cards you took control of this turn.
            pool = [c for z in g.d.zones if z.play_zone for c in reversed(g.slots[g.slot(z.index, ctx.you)])]
            pool += [c for c, p in g.controller.items() if p == ctx.you and c not in pool]
        else:
            pool = []
            for zr in self.zones:
                for s in zr.slots(g, ctx):
                    # A stack offers only its top card to a choice; 'all' and 'N cards' see it whole.
                    pool.extend(reversed(g.visible(s) if self._choice else g.slots[s]))
        if self.name:
            pool = [c for c in pool if g.card_name(c) == self.name]
        if self.types:
            pool = [c for c in pool if card_has(g, c, self.types)]
        for fk, data in self.filters:
            if fk == "has":
                pool = [c for c in pool if card_has(g, c, data)]
            elif fk == "has_not":
                pool = [c for c in pool if not card_has(g, c, data)]
            elif fk == "has_param":
                words = (ctx.vars[data],)
                pool = [c for c in pool if card_has(g, c, words)]
            else:
                # Conditions do not keep the context: bind 'it' in place and restore.
                keep = []
                saved = ctx.it
                try:
                    for c in pool:
                        ctx.it = c
                        if data.test(g, ctx):
                            keep.append(c)
                finally:
                    ctx.it = saved
                pool = keep
        return pool

    def cards(self, g: Game, ctx: Ctx) -> list[int]:
        k = self.kind
        if k == "it":
            return [ctx.it] if ctx.it is not None else []
        if k == "this":
            return [ctx.this] if ctx.this is not None else []
        if k in ("top", "bottom"):
            n = self.count.evaluate(g, ctx)
            out: list[int] = []
            for zr in self.zones:
                for s in zr.slots(g, ctx):
                    g.ensure(s, n)
                    cards = g.slots[s]
                    out.extend(reversed(cards[-n:]) if k == "top" else cards[:n])
            return out
        pool = self.candidates(g, ctx)
        q = self.quantity
        if q in ("all", "each", ""):
            return pool
        if q == "n":
            return pool[: self.count.evaluate(g, ctx)]
        if q == "random":
            return g.pick_random(pool, 1) if pool else []
        if q == "random n":
            n = min(self.count.evaluate(g, ctx), len(pool))
            return g.pick_random(pool, n) if n else []
        if not pool:
            return []
        high = 1 if q == "one" else min(self.count.evaluate(g, ctx), len(pool))
        low = 1 if q == "one" else 0
        return choose_cards(g, ctx.you, pool, low, high, self.purpose, self.prefer, ctx)


def choose_cards(g: Game, player: int, pool: list[int], low: int, high: int, purpose: str,
                 prefer: Any = None, ctx: Ctx | None = None) -> list[int]:
    """Ask ``player`` to pick between low and high of ``pool``.

    ``prefer`` — (sign, expression) from the script's ``prefer highest|lowest EXPR`` — gives
    each option a value for bots (higher is better; the purpose becomes "prefer").
    Without it the value is the card's "cost" attribute, read by purpose.
    """
    if low == len(pool) == high:
        return list(pool)

    def labels() -> list[str]:
        return [g.card_name(c) for c in pool]

    if prefer is not None and ctx is not None:
        sign, expr = prefer
        bound = ctx

        def values() -> list[int]:
            saved = bound.it
            try:
                out = []
                for c in pool:
                    bound.it = c
                    out.append(sign * expr.evaluate(g, bound))
                return out
            finally:
                bound.it = saved

        purpose = "prefer"
    else:
        def values() -> list[int]:
            return [int(g.card_attrs[c].get("cost", 0)) for c in pool]

    picks = g.decide(Decision(player, "card", pool, labels, low, high, purpose, values))
    return [pool[i] for i in picks]


# ====================================================================== statements
class Seq(Node):
    """A block: runs its statements in order; each one's result becomes 'did' for the next."""

    __slots__ = ("stmts",)

    def __init__(self, stmts: list[Any]):
        self.stmts = stmts

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        for s in self.stmts:
            r = s.run(g, ctx)
            ctx.did = r
            total += r
        return total


class Nothing(Node):
    """'nothing': does nothing (result 0)."""

    __slots__ = ()

    def run(self, g: Game, ctx: Ctx) -> int:
        return 0


class If(Node):
    """'if C: ... otherwise: ...'."""

    __slots__ = ("cond", "otherwise", "then")

    def __init__(self, cond: Any, then: Any, otherwise: Any = None):
        self.cond, self.then, self.otherwise = cond, then, otherwise

    def run(self, g: Game, ctx: Ctx) -> int:
        if self.cond.test(g, ctx):
            return self.then.run(g, ctx)
        if self.otherwise is not None:
            return self.otherwise.run(g, ctx)
        return 0


class ForPlayers(Node):
    """'for each foe|player [in P] [marked ...]: ...' with each player bound to 'them'."""

    __slots__ = ("body", "players")

    def __init__(self, players: Any, body: Any):
        self.players, self.body = players, body

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        for p in self.players.players(g, ctx):
            total += self.body.run(g, ctx.with_them(p))
        return total


class ForCards(Node):
    """'for each card ...: ...' with each card bound to 'it'."""

    __slots__ = ("body", "cards")

    def __init__(self, cards: Any, body: Any):
        self.cards, self.body = cards, body

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        for c in self.cards.cards(g, ctx):
            total += self.body.run(g, ctx.with_it(c))
        return total


class Repeat(Node):
    """'repeat N: ...' (bounded: at most 1000 times)."""

    __slots__ = ("body", "times")

    def __init__(self, times: Any, body: Any):
        self.times, self.body = times, body

    def run(self, g: Game, ctx: Ctx) -> int:
        n = self.times.evaluate(g, ctx)
        if n > MAX_REPEAT:
            raise RunawayError(f"repeat {n} times is more than the bound {MAX_REPEAT}", g.chain[-8:])
        total = 0
        for _ in range(max(0, n)):
            total += self.body.run(g, ctx)
        return total


class AsPlayers(Node):
    """``they ...`` / ``each foe ...``: run a statement with each selected player as 'you'."""

    __slots__ = ("players", "stmt")

    def __init__(self, players: Any, stmt: Any):
        self.players, self.stmt = players, stmt

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        for p in self.players.players(g, ctx):
            inner = ctx.with_you(p)
            total += self.stmt.run(g, inner)
            # what the statement bound ('they choose a card ...') stays bound for the next one
            ctx.it = inner.it
        return total


class May(Node):
    """``you may ...``: a yes/no decision, then the statement."""

    __slots__ = ("prompt", "stmt")

    def __init__(self, stmt: Any, prompt: str):
        self.stmt, self.prompt = stmt, prompt

    def run(self, g: Game, ctx: Ctx) -> int:
        if not g.yes_no(ctx.you, self.prompt):
            return 0
        return self.stmt.run(g, ctx)


class Choose(Node):
    """``choose CARDS: body`` — bind each chosen card to 'it'. ``optional``: may choose none."""

    __slots__ = ("body", "cards", "optional")

    def __init__(self, cards: Any, body: Any, optional: bool):
        self.cards, self.body, self.optional = cards, body, optional

    def run(self, g: Game, ctx: Ctx) -> int:
        sel = self.cards
        if sel.quantity == "one" and sel.kind in ("pick", "played", "control", "param"):
            pool = sel.candidates(g, ctx)
            if not pool:
                return 0
            chosen = choose_cards(g, ctx.you, pool, 0 if self.optional else 1, 1, sel.purpose, sel.prefer, ctx)
        else:
            chosen = sel.cards(g, ctx)
        total = 0
        for c in chosen:
            total += 1
            if self.body is not None:
                self.body.run(g, ctx.with_it(c))
        if self.body is None and chosen:
            ctx.it = chosen[-1]
        return total


class CounterAdd(Node):
    """``+N counter [for PLAYERS]``; for a per-card counter ``cards`` selects the cards."""

    __slots__ = ("amount", "cards", "counter", "players", "sign")

    def __init__(self, counter: int, sign: int, amount: Any, players: Any = None, cards: Any = None):
        self.counter, self.sign, self.amount, self.players, self.cards = counter, sign, amount, players, cards

    def run(self, g: Game, ctx: Ctx) -> int:
        delta = self.sign * self.amount.evaluate(g, ctx)
        if self.cards is not None:
            return sum(abs(g.change(self.counter, c, delta)) for c in self.cards.cards(g, ctx))
        if self.players is None:
            return abs(g.change(self.counter, ctx.you, delta))
        return sum(abs(g.change(self.counter, p, delta)) for p in self.players.players(g, ctx))


class CounterSet(Node):
    """'set COUNTER to N' (within the counter's bounds)."""

    __slots__ = ("cards", "counter", "owner", "value")

    def __init__(self, counter: int, owner: str, value: Any, cards: Any = None):
        self.counter, self.owner, self.value, self.cards = counter, owner, value, cards

    def run(self, g: Game, ctx: Ctx) -> int:
        v = self.value.evaluate(g, ctx)
        if self.cards is not None:
            return sum(abs(g.set(self.counter, c, v)) for c in self.cards.cards(g, ctx))
        return abs(g.set(self.counter, _whose(self.owner, ctx), v))


class MarkPlayers(Node):
    """'mark|unmark PLAYERS "M" [this turn]': local to the effect, or for the turn."""

    __slots__ = ("mark", "on", "players", "this_turn")

    def __init__(self, players: Any, mark: str, this_turn: bool, on: bool):
        self.players, self.mark, self.this_turn, self.on = players, mark, this_turn, on

    def run(self, g: Game, ctx: Ctx) -> int:
        ps = self.players.players(g, ctx)
        for p in ps:
            g.mark_player(ctx, self.mark, p, self.this_turn, self.on)
        return len(ps)


class MarkCards(Node):
    """'mark|unmark CARDS "M" [this turn]'."""

    __slots__ = ("cards", "mark", "on", "this_turn")

    def __init__(self, cards: Any, mark: str, this_turn: bool, on: bool):
        self.cards, self.mark, self.this_turn, self.on = cards, mark, this_turn, on

    def run(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        for c in cs:
            g.mark_card(ctx, self.mark, c, self.this_turn, self.on)
        return len(cs)


class Resolve(Node):
    """Run a card's labelled ability (e.g. its Defense reward) for a player."""

    __slots__ = ("cards", "label", "players")

    def __init__(self, label: str, cards: Any, players: Any = None):
        self.label, self.cards, self.players = label, cards, players

    def run(self, g: Game, ctx: Ctx) -> int:
        total = 0
        who = self.players.players(g, ctx) if self.players is not None else [ctx.you]
        for c in self.cards.cards(g, ctx):
            ability = g.d.cards[g.card_type[c]].abilities.get(self.label)
            if ability is None:
                continue
            for p in who:
                total += 1 + ability.run(g, Ctx(p, it=c, this=c, depth=ctx.depth + 1))
        return total


class Emit(Node):
    """'emit "EVENT" [for PLAYERS]': fires the rules and triggers listening to the event."""

    __slots__ = ("event", "players")

    def __init__(self, event: str, players: Any = None):
        self.event, self.players = event, players

    def run(self, g: Game, ctx: Ctx) -> int:
        who = self.players.players(g, ctx) if self.players is not None else [ctx.you]
        for p in who:
            g.emit(self.event, p, ctx.it, ctx.this)
        return 0


class EndGame(Node):
    """'end game "REASON"': the game ends at once."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason

    def run(self, g: Game, ctx: Ctx) -> int:
        raise GameOver(self.reason or "the game ended")


class Let(Node):
    """'let X = EXPR': a number named for the rest of the block."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: Any):
        self.name, self.value = name, value

    def run(self, g: Game, ctx: Ctx) -> int:
        ctx.vars = dict(ctx.vars)
        ctx.vars[self.name] = self.value.evaluate(g, ctx)
        return 0


class Closure(Node):
    """A block argument: the caller's body and context, run with the callee's 'them'/'it'."""

    __slots__ = ("_ctx", "body")

    def __init__(self, body: Any, ctx: Ctx):
        self.body, self._ctx = body, ctx


class RunBlock(Node):
    """A block parameter run by its name ('B'), in the caller's context."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def run(self, g: Game, ctx: Ctx) -> int:
        clo: Closure = ctx.vars[self.name]
        return clo.body.run(g, clo._ctx.copy(them=ctx.them, it=ctx.it))


class UserEffect(Node):
    """An effect defined in script (``effect ...:``). ``body`` is set after lowering so
    that effects may call each other; ``params`` are (name, kind) pairs."""

    __slots__ = ("body", "name", "params")

    def __init__(self, name: str, params: list[tuple[str, str]]):
        self.name, self.params, self.body = name, params, None

    def ir(self) -> dict[str, Any]:
        return {"UserEffect": {"name": self.name, "params": [list(p) for p in self.params], "body": to_ir(self.body)}}


class Call(Node):
    """A call of a script effect. ``args`` are (kind, evaluator) per parameter."""

    __slots__ = ("args", "effect")

    def __init__(self, effect: UserEffect, args: list[tuple[str, Any]]):
        self.effect, self.args = effect, args

    def ir(self) -> dict[str, Any]:
        return {"Call": {"effect": self.effect.name, "args": [[k, to_ir(a)] for k, a in self.args]}}

    def run(self, g: Game, ctx: Ctx) -> int:
        if ctx.depth >= MAX_CALL_DEPTH:
            raise RunawayError(f"effect calls nested deeper than {MAX_CALL_DEPTH} in {self.effect.name!r}",
                               g.chain[-8:] + [self.effect.name])
        bound: dict[str, Any] = {}
        for (name, _kind), (kind, arg) in zip(self.effect.params, self.args, strict=True):
            if kind == "number":
                bound[name] = arg.evaluate(g, ctx)
            elif kind == "players":
                bound[name] = arg.players(g, ctx)
            elif kind == "cards":
                bound[name] = arg.cards(g, ctx)
            elif kind == "block":
                bound[name] = Closure(arg, ctx)
            elif kind == "zone":
                bound[name] = arg.slots(g, ctx)
            else:  # type / text
                bound[name] = arg
        inner = Ctx(ctx.you, ctx.them, ctx.it, ctx.this, bound, ctx.frames + [{}], ctx.depth + 1)
        body = self.effect.body
        assert body is not None, f"effect {self.effect.name!r} was never lowered"
        return body.run(g, inner)


# ---------------------------------------------------------------- built-in primitives
class Move(Node):
    """``move CARDS to ZONE``: onto the top (or the bottom) of the first slot of the zone."""

    __slots__ = ("bottom", "cards", "zone")

    def __init__(self, cards: Any, zone: Any, bottom: bool = False):
        self.cards, self.zone, self.bottom = cards, zone, bottom

    def run(self, g: Game, ctx: Ctx) -> int:
        cards = self.cards.cards(g, ctx)
        n = 0
        zone = self.zone
        # Only 'its owner's' and 'its home' are about each moved card; any other
        # destination ('the markers of it') is read once, before 'it' moves on.
        fixed = zone.owner not in ("owner", "home")
        if fixed:
            slots = zone.slots(g, ctx)
            if not slots:
                return 0
            dest = slots[0]
        for c in cards:
            if not fixed:
                slots = zone.slots(g, ctx.with_it(c))
                if not slots:
                    continue
                dest = slots[0]
            g.move(c, dest, self.bottom)
            n += 1
        return n


class Take(Node):
    """``take CARDS into ZONE``: move and become the owner (gaining, in most games)."""

    __slots__ = ("cards", "zone")

    def __init__(self, cards: Any, zone: Any):
        self.cards, self.zone = cards, zone

    def run(self, g: Game, ctx: Ctx) -> int:
        n = 0
        fixed = self.zone.owner not in ("owner", "home")
        dest = self.zone.slots(g, ctx) if fixed else []
        for c in self.cards.cards(g, ctx):
            slots = dest if fixed else self.zone.slots(g, ctx.with_it(c))
            if not slots:
                continue
            g.move(c, slots[0])
            g.owner[c] = ctx.you
            n += 1
        return n


class Shuffle(Node):
    """'shuffle ZONE' with the game's one RNG (or as rigged by a scenario)."""

    __slots__ = ("zone",)

    def __init__(self, zone: Any):
        self.zone = zone

    def run(self, g: Game, ctx: Ctx) -> int:
        for s in self.zone.slots(g, ctx):
            g.shuffle(s)
        return 0


class Flip(Node):
    """'flip CARDS': face up becomes face down and back."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        for c in cs:
            g.face_up[c] = not g.face_up[c]
            if g.logging:
                g.emit_log({"t": "flip", "card": g.card_name(c), "face_up": g.face_up[c]})
        return len(cs)


class Reveal(Node):
    """'reveal CARDS': shows the cards (a log entry); nothing moves."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        if g.logging and cs:
            g.emit_log({"t": "reveal", "player": ctx.you, "cards": [g.card_name(c) for c in cs]})
        return len(cs)


class Play(Node):
    """``play CARDS``: into the player's play zone, recorded as played this turn; its
    'play' ability resolves fully, then the 'play' event fires."""

    __slots__ = ("cards", "play_zone")

    def __init__(self, cards: Any, play_zone: int):
        self.cards, self.play_zone = cards, play_zone

    def run(self, g: Game, ctx: Ctx) -> int:
        n = 0
        for c in self.cards.cards(g, ctx):
            g.move(c, g.slot(self.play_zone, ctx.you))
            g.played_turn.append(c)
            if g.logging:
                g.emit_log({"t": "play", "player": ctx.you, "card": g.card_name(c)})
            ability = g.d.cards[g.card_type[c]].abilities.get("play")
            if ability is not None:
                ability.run(g, Ctx(ctx.you, it=c, this=c, depth=ctx.depth + 1))
            g.emit("play", ctx.you, c, c)
            n += 1
        return n


class _ActionLabels:
    """Labels of action options, built only when someone reads them."""

    __slots__ = ("g", "options")

    def __init__(self, g: Game, options: list[Any]):
        self.g, self.options = g, options

    def __call__(self) -> list[str]:
        g = self.g
        return [("end turn" if act is None else act.name if c is None else f"{act.name} {g.card_name(c)}")
                for act, c in self.options]


class _ActionValues:
    """Values of action options for bots, built only when a bot reads them: the script's
    ``prefer`` (of the action, or of its choose), else the card's cost, else 0."""

    __slots__ = ("ctx", "g", "options")

    def __init__(self, g: Game, options: list[Any], ctx: Ctx):
        self.g, self.options, self.ctx = g, options, ctx

    def __call__(self) -> list[int]:
        g, ctx = self.g, self.ctx
        out = []
        saved = ctx.it
        try:
            for act, c in self.options:
                if act is None:
                    out.append(0)
                elif c is None:
                    out.append(act.prefer.evaluate(g, ctx) if act.prefer is not None else 0)
                elif act.choose.prefer is not None:
                    sign, expr = act.choose.prefer
                    ctx.it = c
                    out.append(sign * expr.evaluate(g, ctx))
                else:
                    out.append(int(g.card_attrs[c].get("cost", 0)))
        finally:
            ctx.it = saved
        return out


class Roll(Node):
    """``roll DICE``: each selected die shows one of its faces at random (or as rigged)."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        n = 0
        for c in self.cards.cards(g, ctx):
            if g.d.cards[g.card_type[c]].faces:
                g.roll(c)
                n += 1
        return n


class TakeControl(Node):
    """``take control of C``: until the end of the turn the acting player controls the
    cards where they are; no card moves and nobody gains it."""

    __slots__ = ("cards",)

    def __init__(self, cards: Any):
        self.cards = cards

    def run(self, g: Game, ctx: Ctx) -> int:
        cs = self.cards.cards(g, ctx)
        for c in cs:
            g.controller[c] = ctx.you
        return len(cs)


class TakeActions(Node):
    """The free-action window: offer every legal action plus 'end turn' until the player ends it."""

    __slots__ = ()

    def run(self, g: Game, ctx: Ctx) -> int:
        from cardscript.runtime.engine import MAX_ACTIONS_PER_TURN

        taken = 0
        for _ in range(MAX_ACTIONS_PER_TURN):
            options: list[tuple[Any, int | None]] = []
            for act in g.d.actions:
                if act.choose is not None:
                    for c in act.choose.candidates(g, ctx):
                        options.append((act, c))
                elif act.cond is None or act.cond.test(g, ctx):
                    options.append((act, None))
            options.append((None, None))
            pick = g.decide(Decision(ctx.you, "action", options, _ActionLabels(g, options), 1, 1, "action",
                                     _ActionValues(g, options, ctx)))[0]
            act, card = options[pick]
            if act is None:
                break
            taken += 1
            act.body.run(g, ctx.copy(it=card, frames=[{}]))
            g.check_immediate()
        return taken

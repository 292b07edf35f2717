"""What one seat may know (issue 13, observations): the engine hands an agent an
:class:`Observation` and, per decision, a :class:`DecisionView`, never the game.

Visibility follows the game's zones (``zone NAME: hidden | private | public``, ``face down``):

* a public zone's cards are seen by every seat, a private zone's by its owner only, a
  hidden zone's (a deck) by nobody; a face-down card is seen by nobody, wherever it lies
  (so the order of a deck never shows, nor does a face-down stack);
* a public stack (``stack``) shows its top card only, as a table shows it;
* a revealed card (``reveal``) is seen by every seat — the DC rulebooks' "reveal" shows a
  card to all players — and is remembered until the end of the turn it was revealed in,
  while it stays in the zone it was revealed in (the card the rules let you play "of the
  revealed cards" later that turn); once it moves or the turn ends, it is forgotten;
* counters have no visibility in the language: every counter is public (as in all three
  games), each player's value of it included.

Nothing handed to an agent holds the game: its objects keep a number, and the engine
looks the game up by that number in this module (weakly: a finished game goes away).
Everything is read lazily, when the agent asks, so a bot that reads nothing (the random
bot) pays one small object per decision.
"""

from __future__ import annotations

import itertools
import weakref
from typing import TYPE_CHECKING, Any, cast

from cardscript.runtime.decision import Agent, Decision, EngineAgent

if TYPE_CHECKING:
    from cardscript.runtime.forecast import Forecast
    from cardscript.runtime.game import Game, GameState

#: the label of a card option its seat may not see
HIDDEN = "a hidden card"


class _Seat:
    # Engine side: one seat's link to the game (weak: a game is never kept alive by a view).
    __slots__ = ("__weakref__", "decision", "game", "key", "seat", "serial", "view")

    def __init__(self, game: Game, seat: int):
        self.game, self.seat = weakref.ref(game), seat
        self.key = next(_serials)  # never reused, unlike id(): a stale view finds nothing
        self.decision: Decision | None = None
        self.serial = 0
        # the seat's one Observation, made when first asked: it holds only the key, so the
        # seat keeping it alive keeps no game alive
        self.view: Observation | None = None

    def live(self) -> Game:
        g = self.game()
        if g is None:
            raise RuntimeError("the game of this view has ended and is gone")
        return g


class _Table:
    # Engine side, one per game: its seats and the cards revealed, as (card, slot, turn).
    __slots__ = ("last", "revealed", "seats", "subject")

    def __init__(self, game: Game):
        self.seats = [_Seat(game, p) for p in range(game.n)]
        for s in self.seats:
            _SEATS[s.key] = s
        self.revealed: list[tuple[int, int, int, int]] = []  # (card, slot, turn, the game's clock then)
        # The decision asked last (a seat's log relabels it), weakly: a decision's labels and
        # values hold the game, and a table that held it would keep every game ever played.
        self.last: weakref.ref[Decision] | None = None
        self.subject = -1  # the card the event being logged names


_TABLES: weakref.WeakKeyDictionary[Any, _Table] = weakref.WeakKeyDictionary()
_SEATS: weakref.WeakValueDictionary[int, _Seat] = weakref.WeakValueDictionary()
_serials = itertools.count(1)
#: the game asked last (weakly) and its table: every decision looks its game's table up,
#: and most come from the same game as the one before (no WeakKeyDictionary.get for them)
_hot: tuple[weakref.ref[Any] | None, _Table | None] = (None, None)


def _table(g: Game) -> _Table:
    global _hot
    ref, t = _hot
    if ref is not None and ref() is g:
        return t  # type: ignore[return-value]  # set together with ref
    t = _TABLES.get(g)
    if t is None:
        t = _TABLES[g] = _Table(g)
    _hot = (weakref.ref(g), t)
    return t


#: the seat asked last (set by :func:`ask`): the views of a decision look their seat up
#: several times (options, values), with no WeakValueDictionary.get for them. A seat holds its
#: game weakly: holding the seat keeps no game alive.
_asked: _Seat | None = None


def _seat(key: int) -> _Seat:
    s = _asked
    if s is not None and s.key == key:
        return s
    s = _SEATS.get(key)
    if s is None:
        raise RuntimeError("the game of this view has ended and is gone")
    return s


def slot_seen(g: Game, slot: int, seat: int) -> bool:
    """The seat may see the face-up cards of ``slot`` (public, or private and its own)."""
    vis = g.d.zones[g.slot_zone[slot]].visibility
    return vis == "public" or (vis == "private" and g.slot_owner[slot] == seat)


def card_seen(g: Game, card: int, seat: int) -> bool:
    """The seat may see ``card`` where it lies now: face up in a zone it sees (the top of
    a stack only), or revealed this turn and still where it was revealed."""
    slot = g.loc[card]
    if g.face_up[card]:
        z = g.d.zones[g.slot_zone[slot]]
        if slot_seen(g, slot, seat) and (not z.stack or g.slots[slot][-1:] == [card]):
            return True
    t = _TABLES.get(g)
    return t is not None and any(c == card and s == slot and turn == g.turn for c, s, turn, _ in t.revealed)


def note_revealed(g: Game, cards: list[int]) -> None:
    """Remember that ``cards`` were revealed to every seat ('reveal'; see the module docstring)."""
    t = _table(g)
    t.revealed = [r for r in t.revealed if r[2] == g.turn]  # an older turn's reveals are forgotten
    t.revealed.extend((c, g.loc[c], g.turn, g.clock) for c in cards)


def rewind(g: Game) -> None:
    """``g`` was restored to an earlier state: forget what was revealed after it (a card
    revealed in a later turn, or later this turn, of the play that is undone). Engine side."""
    t = _TABLES.get(g)
    if t is not None and t.revealed:
        t.revealed = [r for r in t.revealed if r[2] == g.turn and r[3] <= g.clock]


class Observation:
    """What one seat may know of the game now (see the module docstring). One object per
    seat for the whole game; every property reads the game as it is when asked.

    Attributes (read-only properties):
        seat: this seat (0-based); players: how many seats; turn: the turn number;
        active: the seat whose turn it is; zones, sizes, counters, revealed: see each.
    """

    __slots__ = ("__weakref__", "_key")

    def __init__(self, key: int):
        self._key = key

    def _at(self) -> tuple[Game, int]:
        s = _seat(self._key)
        return s.live(), s.seat

    @property
    def seat(self) -> int:
        return _seat(self._key).seat

    @property
    def players(self) -> int:
        return self._at()[0].n

    @property
    def turn(self) -> int:
        return self._at()[0].turn

    @property
    def active(self) -> int:
        return self._at()[0].active

    @property
    def zones(self) -> dict[str, tuple[str | None, ...]]:
        """Every zone (by its log name: "P1 NAME" for a zone of seat 1, "NAME" for a shared one, "NAME of CARD"), bottom
        card first: the name of each card this seat sees there, None for each it does not
        (a hidden zone is all None: its size shows, its order never does; a card revealed
        from it is in :attr:`revealed`)."""
        g, seat = self._at()
        zones = g.d.zones
        # A card revealed in a hidden zone (the top of a deck) is listed in ``revealed``, not
        # here: a shuffle since would otherwise show where it went.
        return {g.slot_name(slot): tuple(None if zones[g.slot_zone[slot]].visibility == "hidden" or
                                         not card_seen(g, c, seat) else g.card_name(c) for c in cards)
                for slot, cards in enumerate(g.slots) if g.slot_zone[slot] != g.d.box_zone}

    def zone(self, name: str, player: int | None = None) -> tuple[str | None, ...]:
        """One zone of :attr:`zones`: a shared zone by name, a player's by name and seat.

        Raises:
            KeyError: for a zone the game does not have.
        """
        key = name if player is None else f"P{player + 1} {name}"
        return self.zones[key]

    @property
    def sizes(self) -> dict[str, int]:
        """How many cards each zone holds (as :attr:`zones`), hidden ones included."""
        g = self._at()[0]
        return {g.slot_name(slot): len(cards) for slot, cards in enumerate(g.slots)
                if g.slot_zone[slot] != g.d.box_zone}

    @property
    def counters(self) -> dict[str, Any]:
        """Every counter: a player counter as one value per seat (a tuple), a shared one
        as a number. (Counters of a card are left out.)"""
        g = self._at()[0]
        out: dict[str, Any] = {}
        for c in g.d.counters:
            if c.per_card:
                continue
            out[c.name] = tuple(g.get(c.index, p) for p in range(g.n)) if c.per_player else g.get(c.index, 0)
        return out

    @property
    def score(self) -> tuple[int, ...] | None:
        """Each seat's value of the game's score counter, or None when it has none."""
        g = self._at()[0]
        sc = g.d.score_counter
        return None if sc < 0 else tuple(g.get(sc, p) for p in range(g.n))

    @property
    def revealed(self) -> tuple[tuple[str, str], ...]:
        """The cards revealed this turn that are still where they were revealed, as
        (zone, card name) pairs."""
        g = self._at()[0]
        t = _TABLES.get(g)
        if t is None:
            return ()
        return tuple((g.slot_name(s), g.card_name(c)) for c, s, turn, _ in t.revealed
                     if turn == g.turn and g.loc[c] == s)


class ActionOption:
    """One option of an action decision as a seat sees it: the action's name, the card it
    is taken with (its name, or None), ``order`` — the action's place among the game's
    declared actions (actions granted this turn come after them all), ``granted``: it is an
    action granted for the rest of the turn ("any number of times this turn, you may ..."),
    and ``hinted``: the script gives it a ``prefer`` hint (its value in ``values``)."""

    __slots__ = ("card", "granted", "hinted", "name", "order")

    def __init__(self, name: str, card: str | None, order: int, hinted: bool, granted: bool = False):
        self.name, self.card, self.order, self.hinted, self.granted = name, card, order, hinted, granted

    def __repr__(self) -> str:
        return f"ActionOption({self.name!r}, {self.card!r})"


class DecisionView:
    """A decision as its seat sees it: ``kind``, ``purpose``, ``low``/``high`` (how many
    options to pick), ``player`` (the seat that decides), and, read on first use,
    ``options``, ``labels`` and ``values`` (one number per option for bots, from the
    scripts' ``prefer`` or a card's cost; may be empty). Options are plain data: a card's
    name (None for a card the seat may not see), an :class:`ActionOption` (None for "end
    the turn"), a seat number, False/True for yes/no. A label never names a card the seat
    may not see.

    Raises:
        RuntimeError: reading options, labels or values after the decision was answered.
    """

    __slots__ = ("_actions", "_key", "_labels", "_options", "_serial", "_values", "high", "kind", "low", "player",
                 "purpose", "size")

    def __init__(self, key: int, serial: int, d: Decision):
        self._key, self._serial = key, serial
        self.player, self.kind, self.purpose, self.low, self.high = d.player, d.kind, d.purpose, d.low, d.high
        self.size = len(d.options)
        self._labels: list[str] | None = None
        self._values: list[int] | None = None
        self._options: tuple[Any, ...] | None = None
        self._actions: tuple[Any, ...] | None = None

    def __len__(self) -> int:
        return self.size

    def _decision(self) -> tuple[Game, int, Decision]:
        s = _seat(self._key)
        if s.serial != self._serial or s.decision is None:
            raise RuntimeError("this decision has been answered: its options are gone")
        return s.live(), s.seat, s.decision

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            g, seat, d = self._decision()
            self._labels = seat_labels(g, seat, d)
        return self._labels

    @property
    def values(self) -> list[int]:
        if self._values is None:
            self._values = list(self._decision()[2].values)
        return self._values

    @property
    def forecast(self) -> Forecast:
        """This seat's fair model of the game at this decision (:mod:`cardscript.runtime.forecast`):
        what-if values of its options, played on a copy whose hidden cards are dealt again."""
        from cardscript.runtime.forecast import Forecast

        self._decision()
        return Forecast(self._key, self._serial)

    @property
    def actions(self) -> tuple[ActionKind | None, ...]:
        """For an action decision, per option what :attr:`options` says of its action and
        nothing of its card: an :class:`ActionKind` (``order``, ``hinted``, ``granted``), None
        for ending the turn; one object per action, so a bot that chooses by action reads no
        card (the heuristic bot). Empty for any other decision."""
        if self._actions is None:
            g, _seat, d = self._decision()
            self._actions = _action_kinds(g, d) if d.kind == "action" else ()
        return self._actions

    @property
    def options(self) -> tuple[Any, ...]:
        if self._options is None:
            g, seat, d = self._decision()
            if d.kind == "action":
                self._options = _action_options(g, seat, d)
            else:
                self._options = tuple(_option(g, seat, d.kind, o) for o in d.options)
        return self._options


class ActionKind(tuple):
    """What an action option says of its action, for a bot that chooses by action
    (:attr:`DecisionView.actions`): ``(order, hinted, granted)``, as in :class:`ActionOption`."""

    __slots__ = ()

    @property
    def order(self) -> int:
        return self[0]

    @property
    def hinted(self) -> bool:
        return self[1]

    @property
    def granted(self) -> bool:
        return self[2]


def _tables(g: Game) -> tuple[dict[int, tuple[str, ActionKind]], dict[int, ActionKind | None]]:
    """For the actions of ``g``'s definition: id(action) -> (its name, its :class:`ActionKind`),
    and id(action) -> its ActionKind with id(None) -> None (ending the turn). Made once per
    definition and list of actions (kept in its ``__dict__``, as the emit plans)."""
    actions = g.d.actions
    entry: Any = g.d.__dict__.get("_action_tables")
    if entry is None or entry[0] is not actions:
        parts = {id(a): (a.name, ActionKind((i, _hinted(a), False))) for i, a in enumerate(actions)}
        kinds: dict[int, ActionKind | None] = {key: part[1] for key, part in parts.items()}
        kinds[id(None)] = None
        entry = g.d.__dict__["_action_tables"] = (actions, parts, kinds)
    return entry[1], entry[2]


def _hinted(act: Any) -> bool:
    return act.prefer is not None or (act.choose is not None and act.choose.prefer is not None)


def _part(g: Game, act: Any) -> tuple[str, ActionKind]:
    """(name, :class:`ActionKind`) of an action of the window: the definition's, or one
    granted for the turn (after every declared action)."""
    found = _tables(g)[0].get(id(act))
    if found is None:
        found = (act.name, ActionKind((len(g.d.actions), _hinted(act), True)))
    return found


def _action_kinds(g: Game, d: Decision) -> tuple[ActionKind | None, ...]:
    """:attr:`DecisionView.actions` of an action decision (:func:`action_kinds` of its options)."""
    return action_kinds(g, d.options)


def action_kinds(g: Game, options: list[tuple[Any, int | None]]) -> tuple[ActionKind | None, ...]:
    """Per option (action, card) of an action decision, its action's :class:`ActionKind`
    (None for ending the turn): one look-up per option in the definition's table
    (:func:`_tables`), an action granted for the turn found apart. Reads no card."""
    kinds = _tables(g)[1]
    try:
        return tuple([kinds[id(act)] for act, _card in options])
    except KeyError:  # an action granted for the turn
        return tuple([None if act is None else kinds.get(id(act)) or _part(g, act)[1] for act, _card in options])


def _action_options(g: Game, seat: int, d: Decision) -> tuple[Any, ...]:
    """The options of an action decision as the seat may read them (an
    :class:`ActionOption` each; None for ending the turn), each action's own part (name,
    order, hint, granted) made once per definition (:func:`_tables`)."""
    names = g.card_names
    out: list[Any] = []
    for act, card in d.options:
        if act is None:
            out.append(None)
            continue
        name, (order, hinted, granted) = _part(g, act)
        shown = None if card is None or not card_seen(g, card, seat) else names[card]
        out.append(ActionOption(name, shown, order, hinted, granted))
    return tuple(out)


def _card_hidden(g: Game, seat: int, kind: str, option: Any) -> bool:
    card = option if kind == "card" else option[1] if kind == "action" else None
    return isinstance(card, int) and not card_seen(g, card, seat)


def seat_labels(g: Game, seat: int, d: Decision) -> list[str]:
    """``d``'s labels as ``seat`` may read them: a card it may not see is "a hidden card"."""
    labels = d.labels
    if d.kind not in ("card", "action"):
        return list(labels)
    out = []
    for label, o in zip(labels, d.options, strict=True):
        if _card_hidden(g, seat, d.kind, o):
            label = HIDDEN if d.kind == "card" else f"{o[0].name} {HIDDEN}"
        out.append(label)
    return out


def _option(g: Game, seat: int, kind: str, o: Any) -> Any:
    """One option of a decision other than an action (those: :func:`_action_options`), as
    the seat may read it."""
    if kind == "card":
        return g.card_name(o) if card_seen(g, o, seat) else None
    if isinstance(o, (bool, int, str)):
        return o
    return None  # an engine object (a pending trigger): its label says what it is


def note_subject(g: GameState, card: int) -> None:
    """The event about to be logged names ``card`` (engine side, when a listener reads the
    log: a seat's log leaves the name out when that seat may not see the card)."""
    _table(cast("Game", g)).subject = card  # only ever part of a Game


def event_subject(g: Game) -> int:
    """The card the event being logged names (-1: none noted)."""
    t = _TABLES.get(g)
    return -1 if t is None else t.subject


def note_decision(g: Game, d: Decision) -> None:
    """``d`` is the decision about to be logged (engine side: a seat's log, which listens to
    the log, relabels it; see :func:`last_decision`)."""
    _table(g).last = weakref.ref(d)


def last_decision(g: Game) -> Decision | None:
    """The decision ``g`` logged last (engine side: for :mod:`cardscript.runtime.seatlog`,
    which reads it as the decision's log entry is emitted; noted only when the game logs)."""
    t = _TABLES.get(g)
    return None if t is None or t.last is None else t.last()


def observe(g: Game, seat: int) -> Observation:
    """The one :class:`Observation` of ``seat`` in ``g``."""
    s = _table(g).seats[seat]
    view = s.view
    if view is None:
        view = s.view = Observation(s.key)
    return view


def bind(g: Game, seat: int, agent: Agent) -> None:
    """Start ``agent`` on ``seat``: an engine agent gets the game, a player its seat and
    its stream's seed (``seed * 1009 + seat``, the stream the bots have always drawn from)."""
    if isinstance(agent, EngineAgent):
        agent.attach(g, seat)
    else:
        agent.bind(seat, g.seed * 1009 + seat)


def ask(g: Game, agent: Agent, d: Decision) -> list[int]:
    """``agent``'s answer to ``d``: an engine agent reads the game, a player its views."""
    if isinstance(agent, EngineAgent):
        return agent.answer(g, d)
    global _asked
    s = _asked = _table(g).seats[d.player]
    s.decision, s.serial = d, next(_serials)
    view = s.view  # observe(), inlined: the table is in hand
    if view is None:
        view = s.view = Observation(s.key)
    try:
        return agent.choose(view, DecisionView(s.key, s.serial, d))
    finally:
        s.decision = None

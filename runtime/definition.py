"""The compiled game: an immutable :class:`GameDefinition`, the only thing the
front end hands to the runtime.

Every name in a script has been resolved to an index here: zones, counters and card
types are numbered, effects are objects of :mod:`cardscript.runtime.effects`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Effect = Any  # cardscript.runtime.effects.Effect; kept loose to avoid an import cycle


@dataclass(frozen=True)
class ZoneDef:
    """A zone. ``per_player`` zones exist once per seat; ``stack`` zones expose only
    their top card to selectors; ``active`` zones arm the triggers of their cards;
    the ``play_zone`` is where played cards go; ``refill_from`` names the zone that is
    shuffled in when a card must be taken from this zone while it is empty."""

    name: str
    index: int
    per_player: bool
    visibility: str  # hidden | private | public
    face_down: bool
    stack: bool
    active: bool
    play_zone: bool
    refill_from: int  # zone index, -1 for none
    per_card: bool = False  # one slot per component ("the markers of it")


@dataclass(frozen=True)
class CounterDef:
    """A bounded integer, per player or shared. Bounds are inclusive; None is open."""

    name: str
    index: int
    per_player: bool
    initial: int
    low: int | None
    high: int | None
    per_card: bool = False  # one value per component ("damage of it")


@dataclass(frozen=True)
class TriggerDef:
    """``when EVENT: body`` on a card or in the rules.

    Attributes:
        uid: unique number, used for 'first time each turn'.
        event: the event name.
        first_time: fires at most once per turn (per card).
        your_turn: fires only when the event's player is the active player.
    """

    uid: int
    event: str
    first_time: bool
    your_turn: bool
    body: Effect
    source: str = ""  # file:line of the trigger, for runaway-chain messages
    of_this_card: bool = False  # fires for the card the event is about, wherever it is
    kind: tuple[str, ...] = ()  # fires only when the event's card has one of these words (none: any)
    enters: int = -1  # 'when a card enters ZONE': the zone's index (the event is named 'enters "ZONE"')
    where: Any = None  # a condition on the event's card ('it'), tested before 'first time each turn'


@dataclass(frozen=True)
class StaticRules:
    """What a passive ability holds besides counter bonuses (issue 12, "Ongoing: Your
    Heroes have +1 Power"), applied only while the card lies in the passive zone.

    Attributes:
        triggers: fire for events of the zone's player (``it`` the event's card).
        modifiers: (attribute, types, delta, players): the attribute of the cards with one
            of the types (all when empty) is ``delta`` higher for the players (an effect
            selecting players, with ``you`` the zone's player).
        marks: (players, mark, this_turn): those players carry the mark.
    """

    triggers: tuple[TriggerDef, ...] = ()
    modifiers: tuple[tuple[str, tuple[str, ...], int, Effect], ...] = ()
    marks: tuple[tuple[Effect, str, bool], ...] = ()


@dataclass(frozen=True)
class ReplacementDef:
    """``instead of [a foe's] PATTERN [, first time each turn]: body`` on a card (issue 12).

    Attributes:
        uid: unique number (shared with triggers), for 'first time each turn'.
        card: the index of the card type carrying it.
        effect: the replaced effect's pattern, for messages and the IR.
        names: the names the replacement gives the effect's parameters, in order.
        body: what runs instead of the call.
        foes: armed for the calls of a foe of the zone's player (else of that player).
        first_time: replaces at most once per turn (per card).
    """

    uid: int
    card: int
    effect: str
    names: tuple[str, ...]
    body: Effect
    foes: bool = False
    first_time: bool = False
    source: str = ""  # file:line, for runaway-chain messages


@dataclass
class CardType:
    """One card definition (all its printings share name, types and abilities).

    Attributes:
        types: the card's type words (e.g. {'hero'}), for filters; its subtypes too.
        subtypes: those of ``types`` the game declares as subtypes: tested by filters
            like types, not counted as card types (``CountTypes``).
        keywords: names of effects its text uses (e.g. {'attack', 'surge'}), so
            that 'a card with attack' works; labels of its abilities are included.
        abilities: label -> effect (e.g. 'play', 'defense').
        passive: label -> {counter index: amount} for passive (e.g. Ongoing) abilities.
        triggers: its ``when`` abilities.
        home: zone index a card returns to, -1 for none.
        text: the source text of the card's body, for listings.
    """

    name: str
    index: int
    types: frozenset[str]
    keywords: frozenset[str]
    attrs: dict[str, Any]
    abilities: dict[str, Effect]
    passive: dict[str, dict[int, int]]
    triggers: tuple[TriggerDef, ...]
    home: int
    text: str = ""
    source: str = ""
    faces: tuple[str, ...] = ()  # a die's faces; 'roll' shows one of them
    replacements: tuple[ReplacementDef, ...] = ()  # 'instead of ...' while in an active zone
    statics: dict[str, StaticRules] = field(default_factory=dict)  # label -> static rules of a passive ability
    computed: dict[str, Effect] = field(default_factory=dict)  # attribute -> expression ("vp = count ...")
    printed: str = ""  # the printed name when ``name`` says its set too ("NAME [SET]")
    subtypes: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Printing:
    """Copies of a card type with their own attribute values (a Level 3 Aquaman)."""

    card: CardType
    copies: int
    attrs: dict[str, Any]


@dataclass(frozen=True)
class ActionDef:
    """A free action offered in an action window: one option per card chosen by
    ``choose`` (or one option when it is None) whose ``cond`` holds. A bot values an
    option by ``prefer`` (plain action) or by the choose's ``prefer`` (card action), else
    by the card's cost; a negative value means "not worth taking"."""

    name: str
    choose: Effect | None
    cond: Effect | None
    body: Effect
    prefer: Effect | None = None  # a plain action's value for bots; a card action's comes from its choose


@dataclass(frozen=True)
class EndCondition:
    timing: str  # "immediately" | "after the turn"
    cond: Effect
    reason: str


@dataclass
class GameDefinition:
    """A compiled game. Shapes: ``zones[i].index == i``; ``printings`` expand to the
    physical components, numbered in order; ``rules`` map event names to triggers."""

    name: str
    players: tuple[int, int]
    zones: list[ZoneDef]
    counters: list[CounterDef]
    cards: list[CardType]
    printings: list[Printing]
    setup: Effect
    turn: Effect
    actions: list[ActionDef]
    rules: dict[str, list[TriggerDef]]
    end_conditions: list[EndCondition]
    score: Effect | None
    score_counter: int
    tie_breaks: list[Effect]
    passives: list[tuple[str, int]]  # (label, zone index) pairs
    passive_counters: frozenset[int]
    box_zone: int
    attributes: dict[str, int]
    types: tuple[str, ...]  # the declared types, subtypes included
    labels: tuple[str, ...]
    sources: dict[str, str] = field(default_factory=dict)
    quiet_events: frozenset[str] = frozenset()
    quiet_counters: frozenset[int] = frozenset()
    outcomes: list[tuple[str, Effect]] = field(default_factory=list)  # (text, condition), first match wins
    warnings: list[tuple[str, Effect]] = field(default_factory=list)  # (text, condition) tested after setup
    #: 'triggers resolve in the order you choose': the event's player orders simultaneous triggers
    triggers_in_chosen_order: bool = False
    #: 'your triggers wait until the card you are playing resolves': the card triggers that
    #: the playing player's events fire while a played card's ability resolves wait until
    #: the outermost such card has fully resolved (runtime/game/events.py, ``resolve_waiting``)
    triggers_wait_for_play: bool = False
    #: the declared subtypes (in ``types`` too): a card's subtypes are not card types to 'count types of'
    subtypes: tuple[str, ...] = ()

    def zone(self, name: str) -> ZoneDef:
        return next(z for z in self.zones if z.name == name)

    def counter(self, name: str) -> CounterDef:
        return next(c for c in self.counters if c.name == name)

"""AST top-level items of a game's files: the header and declarations (zones, counters,
effects, ...), cards and the rules (setup, turn, actions, end, score); :data:`Item` is the
union of every top-level item, scenario steps included, and :class:`Script` one file."""

from __future__ import annotations

from typing import TypeAlias

from cardscript.dsl.diagnostics import Span
from cardscript.dsl.front.ast.conditions import Cond
from cardscript.dsl.front.ast.expressions import Expr
from cardscript.dsl.front.ast.node import Node
from cardscript.dsl.front.ast.scenario import (
    ActiveSeat,
    Answers,
    DoStep,
    Expect,
    Finish,
    NextTurn,
    Quiet,
    Rig,
    Seed,
    Step,
)
from cardscript.dsl.front.ast.selectors import CardSel, ZoneRef
from cardscript.dsl.front.ast.statements import Body, CallItem
from cardscript.dsl.front.ast.timing import TriggerOrder, TriggerWait
from cardscript.dsl.front.ast.zones import Replacement


# ---------------------------------------------------------------- declarations
class Header(Node):
    kind: str  # game | ruleset | variant | scenario | expansion
    name: str


class Uses(Node):
    paths: tuple[str, ...]


class Players(Node):
    low: int
    high: int


class Types(Node):
    """'types WORDS' (``subtypes`` False) or 'subtypes WORDS' (True): a subtype is tested
    like a type but not counted by 'count types of'."""

    names: tuple[str, ...]
    subtypes: bool = False


class Attribute(Node):
    name: str
    default: int | str


class Abilities(Node):
    labels: tuple[str, ...]


class Passive(Node):
    label: str
    zone: str


class ZoneDecl(Node):
    name: str
    per_player: bool
    visibility: str
    face_down: bool
    stack: bool
    active: bool
    play_zone: bool
    refill_from: str
    per_card: bool = False


class CounterDecl(Node):
    name: str
    per_player: bool
    initial: int
    low: int | None
    high: int | None
    per_card: bool = False


class EffectDef(Node):
    """``effect PATTERN [replaces] [printed "TEMPLATE"]: body``; ``replaces`` says that it
    replaces on purpose an effect of the same pattern from a less specific script.
    ``after effect PATTERN: body`` (``after`` true) adds ``body`` at the end of the effect
    of that pattern that a script it uses defines (docs/language.md, "after effect")."""

    pattern: tuple[CallItem, ...]
    body: Body
    printed: str = ""
    replaces: bool = False
    after: bool = False


class PrintedLabel(Node):
    """``printed LABEL as "TEMPLATE"``: how an ability label reads on a card; ``{text}`` is
    the ability's own text."""

    label: str
    template: str


class PrintedForm(Node):
    """``printed counter NAME as "TEMPLATE"`` (kind ``counter``: how ``+N NAME`` reads on a
    card, ``{N}`` the amount) or ``printed event "NAME" as "TEMPLATE"`` (kind ``event``: how
    a trigger on the event reads, ``{C}`` "this card" or "a card") or ``printed zone NAME as
    "TEXT"`` (kind ``zone``: how the zone is named on a card, "discard pile" for ``discard``)
    or ``printed mark "MARK" as "TEXT"`` (kind ``mark``: how 'you are marked "MARK"' reads,
    "your Attacks can't be avoided")."""

    kind: str
    name: str
    template: str


# ---------------------------------------------------------------- cards
class Printing(Node):
    """``copies N [as attr value ...]``: N copies with some attributes overridden."""

    copies: int
    overrides: tuple[tuple[str, int | str], ...]


class Event(Node):
    """``"name" [first time each turn] [during your turn] [of this card]``; 'of this card'
    fires for the card the event is about, wherever that card is."""

    name: str
    first_time: bool = False
    your_turn: bool = False
    of_this_card: bool = False
    enters: ZoneRef | None = None  # cards2 area: 'a TYPE enters ZONE' (the name is 'enters "ZONE"')
    types: tuple[str, ...] = ()  # ... of a card with one of these types (any card when empty)


class Ability(Node):
    label: str
    body: Body


class Trigger(Node):
    event: Event
    body: Body


class ComputedAttr(Node):
    """``vp = count all cards in your deck with equipment`` (cards2 area, issue 12): the
    attribute's value is the expression, evaluated when read, with the card's owner as
    'you' and the card as 'this' and 'it'."""

    attr: str
    value: Expr


class CardDef(Node):
    """A card. ``name`` is its key in the game: the printed name, or ``NAME [SET]`` when two
    sets in one game have a card of that name (``printed`` is then the printed name;
    :mod:`cardscript.dsl.front.sets`)."""

    name: str
    words: tuple[tuple[str, Span], ...]
    attrs: tuple[tuple[str, int | str, Span], ...]
    printings: tuple[Printing, ...]
    home: str
    abilities: tuple[Ability, ...]
    triggers: tuple[Trigger, ...]
    faces: tuple[str, ...] = ()
    replacements: tuple[Replacement, ...] = ()  # 'instead of ...' (issue 12)
    computed: tuple[ComputedAttr, ...] = ()  # cards2 area (issue 12)
    printed: str = ""


# ---------------------------------------------------------------- rules
class Rule(Node):
    event: Event
    body: Body


class Setup(Node):
    """``setup ["name"]:`` — a named step can be replaced or removed by a variant."""

    body: Body
    name: str = ""


class Remove(Node):
    """``remove card|setup|action "name"`` — a variant takes a part of its game away."""

    kind: str
    name: str


class Turn(Node):
    body: Body


class Action(Node):
    """An action of the action window; ``prefer`` (plain actions) is a value for bots."""

    name: str
    choose: CardSel | None
    cond: Cond | None
    body: Body
    prefer: Expr | None = None


class EndWhen(Node):
    timing: str  # immediately | after the turn
    cond: Cond
    reason: str


class Score(Node):
    body: Body


class Outcome(Node):
    """``outcome "TEXT" when COND``: read after scoring; the first that holds is the result."""

    text: str
    cond: Cond


class Warn(Node):
    """``warn "TEXT" when COND``: told to the players when COND holds after setup."""

    text: str
    cond: Cond


class TieBreak(Node):
    exprs: tuple[Expr, ...]


# ---------------------------------------------------------------- files
Item: TypeAlias = (
    Header | Uses | Players | Types | Attribute | Abilities | Passive | ZoneDecl | CounterDecl | EffectDef
    | CardDef | Rule | Setup | Turn | Action | EndWhen | Score | Outcome | Warn | TieBreak | Expect | Answers | DoStep
    | Seed | NextTurn | Finish | ActiveSeat | Rig | Quiet | Remove | PrintedLabel | PrintedForm | TriggerOrder
    | TriggerWait | Step
)


class Script(Node):
    """A parsed file. ``kind`` is the header kind it inherits when it has no header of its
    own (a game's card files rank with the game)."""

    file: str
    items: tuple[Item, ...]
    kind: str = ""

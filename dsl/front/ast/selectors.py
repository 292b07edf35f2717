"""AST selectors: the phrases that pick players (:class:`PlayerSel`), cards
(:class:`CardSel`) or a zone (:class:`ZoneRef`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardscript.dsl.front.ast.node import Node

if TYPE_CHECKING:  # expressions and conditions hold selectors in turn
    from cardscript.dsl.front.ast.conditions import Cond
    from cardscript.dsl.front.ast.expressions import Expr


class PlayerSel(Node):
    """kind: you | them | target foe | each foe | each player | left | right | their left |
    their right | param | foe in."""

    kind: str
    param: str = ""
    filters: tuple[MarkFilter, ...] = ()


class MarkFilter(Node):
    mark: str
    this_turn: bool
    negate: bool


class ZoneRef(Node):
    """owner: you | them | shared | of | owner | home | card. ``player`` is set for owner
    'of' ('the hand of each foe'), ``card`` for a per-card zone ('the markers of it')."""

    owner: str
    name: str
    player: PlayerSel | None = None
    card: CardSel | None = None


class CardFilter(Node):
    """kind: has | has_not | has_param | where | prefer. ``words`` lists alternatives ('or');
    for 'prefer', words is ('highest',) or ('lowest',) and ``cond`` holds the expression —
    a hint for bots, not a rule."""

    kind: str
    words: tuple[str, ...] = ()
    cond: Cond | Expr | None = None
    card: CardSel | None = None  # 'other_name' (issue 12): 'with a different name from CARD'


#: the count of "any number of cards": "up to" this many, which no zone holds, so that the
#: choice may take every candidate (the renderer prints it back as "any number of")
ANY_NUMBER = 1 << 20


class CardSel(Node):
    """Selects cards.

    kind: this | it | top | bottom | pick | param.
    quantity: one | up to | random | all | each | n | random n (for 'pick').
    count: the number for 'n', 'up to', 'random n', 'top'/'bottom' (an expression).
    types: the type words after the quantity ('a hero from ...'); empty for 'card'.
    name: a card name for '5 "Scout" from ...'.
    zones: where to look; empty for a placeless selector ('a wound'); a 'top'/'bottom'
        CardSel for 'from the top 3 cards of your deck' (its cards are the candidates).
    played: 'cards you played this turn'.
    """

    kind: str
    quantity: str = ""
    count: Expr | None = None
    types: tuple[str, ...] = ()
    name: str = ""
    zones: tuple[ZoneRef | CardSel, ...] = ()
    in_param: str = ""
    played: bool = False
    filters: tuple[CardFilter, ...] = ()
    card_word: str = ""
    control: bool = False
    gained: bool = False  # 'you gained this turn' (issue 12)

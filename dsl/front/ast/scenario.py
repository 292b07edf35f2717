"""AST steps of a scenario file (``.scenario``): expectations, answers to decisions,
steps of play and rigged randomness."""

from __future__ import annotations

from typing import TypeAlias

from cardscript.dsl.front.ast.conditions import Cond
from cardscript.dsl.front.ast.node import Node
from cardscript.dsl.front.ast.selectors import PlayerSel
from cardscript.dsl.front.ast.statements import Body


class Expect(Node):
    """``expect [PLAYERS:] COND``: with players, COND holds for each of them as 'they'."""

    cond: Cond
    players: PlayerSel | None = None


#: One answer: a card's name, an option's index, yes/no, or a list of answers ("[a, b]");
#: in an 'answer' line also an answer for the decision of a purpose (:class:`AnswerTo`).
Answer: TypeAlias = "str | int | bool | tuple[Answer, ...] | AnswerTo"


class Answers(Node):
    answers: tuple[Answer, ...]


class DoStep(Node):
    body: Body


class Seed(Node):
    value: int


class NextTurn(Node):
    pass


class Finish(Node):
    pass


class Rig(Node):
    """Scenario step: force the next shuffle (cards named, from the top) or the next
    random picks (one answer per card picked)."""

    kind: str  # shuffle | random
    values: tuple[str | int, ...]


class ActiveSeat(Node):
    """Scenario step: make seat N (1-based) the active player ('you' in later steps)."""

    seat: int


class Quiet(Node):
    """Log presentation: events (quoted) and counters (words) left out of the readable log."""

    events: tuple[str, ...]
    counters: tuple[str, ...]


# ---------------------------------------------------------------- checks of the next step (issue 12)
class Step(Node):
    """Base of the scenario steps added for issue 12: the checker collects every one of
    them as a scenario step (``check.collect``)."""


class ExpectError(Step):
    """``expect error CODE``: the next step that plays (``do:``, ``next turn``, ``finish``)
    must stop with a diagnostic of this code (e.g. ``CS401``)."""

    code: str


class ExpectOffered(Step):
    """``expect offered "A", "B" [not "C"]`` / ``expect not offered "C"``: the next
    decision asked offers A and B and does not offer C."""

    offered: tuple[str, ...]
    absent: tuple[str, ...]


class AnswerChecked(Step):
    """``answer A offered "X" [not "Y"]`` / ``answer A not offered "Y"``: one answer, for
    a decision that must offer X and must not offer Y."""

    answer: Answer
    offered: tuple[str, ...]
    absent: tuple[str, ...]


class AnswerTo(Node):
    """``"PURPOSE": ANSWER`` in an 'answer' line: the answer is for a decision of that
    purpose or prompt (``"discard a card": yes``, ``"action": "end turn"``); any other
    decision that comes first makes the step fail instead of taking it."""

    purpose: str
    answer: Answer


class SetupStep(Step):
    """``setup answer ...`` / ``setup rig ...``: answers or rigged outcomes for the game's
    setup, read before it runs (the step is an :class:`Answers` or a :class:`Rig`)."""

    step: Answers | Rig

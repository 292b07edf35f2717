"""The agent of a scenario (docs/scenarios.md, "Answers"): the scripted answers, plus the
checks a scenario makes of the decisions it is asked — which options a decision offers
(``expect offered``, ``answer A offered ...``) and which decision an answer is for
(``answer "discard a card": yes``).

A failed check does not stop the game: it is recorded in :attr:`ScenarioAgent.failures`
and the harness reports it at the line of the step that asked for it, as it does a
failed ``expect``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, Span, error
from cardscript.runtime.agents import BadAnswer, ScriptedAgent
from cardscript.runtime.decision import Decision
from cardscript.runtime.game import Game


@dataclass
class OfferCheck:
    """Options a decision must offer (``offered``) and must not (``absent``); ``text`` is
    the scenario's own words, for the message."""

    offered: tuple[str, ...]
    absent: tuple[str, ...]
    span: Span
    text: str

    def failure(self, d: Decision) -> Diagnostic | None:
        """A CS301 diagnostic listing the options ``d`` offered, when the check fails."""
        missing = [o for o in self.offered if not offers(d, o)]
        extra = [o for o in self.absent if offers(d, o)]
        if not missing and not extra:
            return None
        why = "; ".join(part for part in (
            f"not offered: {', '.join(repr(o) for o in missing)}" if missing else "",
            f"offered after all: {', '.join(repr(o) for o in extra)}" if extra else "") if part)
        return error("CS301", f"expectation failed: {self.text}: {why}", self.span,
                     f"{describe(d)} offered {d.labels}")


def shown(answer: Any) -> str:
    """An answer as a scenario writes it: ``yes`` / ``no`` for a bool, else its repr."""
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    return repr(answer)


@dataclass
class Checked:
    """A queued answer that carries an :class:`OfferCheck` of the decision it answers."""

    answer: Any
    check: OfferCheck

    def __repr__(self) -> str:
        return shown(self.answer)


@dataclass
class Addressed:
    """A queued answer for a decision of one purpose (``"discard a card": yes``)."""

    purpose: str
    answer: Any

    def __repr__(self) -> str:
        return f"{self.purpose!r}: {shown(self.answer)}"

    def fits(self, d: Decision) -> bool:
        """The decision's purpose (its prompt for a yes/no) or its kind, ignoring case; a
        leading 'you may' is not needed."""
        want = self.purpose.lower().removeprefix("you may ").strip()
        return want in (d.purpose.lower(), d.kind.lower())


class Misaddressed(BadAnswer):
    """An answer for a decision of one purpose was reached by a decision of another."""

    def __init__(self, entry: Addressed, d: Decision):
        super().__init__(f"{describe(d)} was asked, but the next answer, {entry!r}, is for a decision "
                         f"'{entry.purpose}'; it offered {d.labels}")


def offers(d: Decision, option: str) -> bool:
    """Whether ``d`` offers ``option``: a label equal to it ignoring case or, for an action
    window, a label that is it after the action word ('Card X' is offered by
    'buy Card X' and by 'play Card X')."""
    want = option.lower()
    for label in d.labels:
        low = label.lower()
        if low == want or (d.kind == "action" and low.split(" ", 1)[-1] == want):
            return True
    return False


def an(text: str) -> str:
    """``text`` with 'a' made 'an' before a decision kind that starts with a vowel: the
    runtime's messages say "a {kind} decision", which reads "a action decision"."""
    return _A_VOWEL.sub("an ", text)


_A_VOWEL = re.compile(r"\ba (?=[aeiou][\w/-]* decision\b)")


def describe(d: Decision) -> str:
    """'P1's yes/no decision (discard a card)': who decides what, for messages."""
    return f"P{d.player + 1}'s {d.kind} decision ({d.purpose})"


class ScenarioAgent(ScriptedAgent):
    """The scripted agent of a scenario: answers from the shared queue and checks the
    decisions it is asked (see the module docstring).

    Attributes:
        pending: checks of the next decision asked (``expect offered``), in order.
        failures: diagnostics of failed checks, taken by the harness after each step.
    """

    name = "scenario"

    def __init__(self, queue: list[Any], fallback: Any = None) -> None:
        super().__init__(queue, fallback)
        self.pending: list[OfferCheck] = []
        self.failures: list[Diagnostic] = []

    def answer(self, game: Game, d: Decision) -> list[int]:
        for pending in self.pending:
            self._judge(pending, d)
        self.pending.clear()
        if not self.queue:
            return super().answer(game, d)
        head: Any = self.queue[0]
        check: OfferCheck | None = None
        if isinstance(head, Checked):
            head, check = head.answer, head.check
        if isinstance(head, Addressed):
            if not head.fits(d):  # left queued: the decision it names may still come
                raise Misaddressed(head, d)
            head = head.answer
        if check is not None:
            self._judge(check, d)
        self.queue[0] = head
        return super().answer(game, d)

    def _judge(self, check: OfferCheck, d: Decision) -> None:
        bad = check.failure(d)
        if bad is not None:
            self.failures.append(bad)

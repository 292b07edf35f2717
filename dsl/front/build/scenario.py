"""Builder for the steps of a scenario file (grammar section 'scenario steps')."""

from __future__ import annotations

from lark import Token, v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.ast import scenario as S
from cardscript.dsl.front.build.base import BuilderBase, _s


@v_args(meta=True)
class ScenarioBuilder(BuilderBase):
    """Expectations, answers, steps of play, rigged randomness and 'quiet'."""

    # ------------------------------------------------------------ scenario steps
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

    # ------------------------------------------------------------ checks of the next step (issue 12)
    def expect_error(self, meta, c):
        return S.ExpectError(self._sp(meta), str(c[0]))

    def offer_names(self, meta, c):
        return tuple(_s(x) for x in c)

    def offer_check(self, meta, c):
        return (c[0], c[1] if len(c) > 1 else ())

    def offer_check_not(self, meta, c):
        return ((), c[0])

    def expect_offered(self, meta, c):
        return S.ExpectOffered(self._sp(meta), *c[0])

    def answer_checked(self, meta, c):
        return S.AnswerChecked(self._sp(meta), c[0], *c[1])

    def answer_to(self, meta, c):
        return S.AnswerTo(self._sp(meta), _s(c[0]), c[1])

    def setup_answers(self, meta, c):
        return S.SetupStep(self._sp(meta), self.answers(meta, c))

    def setup_rig_shuffle(self, meta, c):
        return S.SetupStep(self._sp(meta), self.rig_shuffle(meta, c))

    def setup_rig_random(self, meta, c):
        return S.SetupStep(self._sp(meta), self.rig_random(meta, c))

    def setup_rig_roll(self, meta, c):
        return S.SetupStep(self._sp(meta), self.rig_roll(meta, c))

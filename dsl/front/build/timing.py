"""Builder for the timing area (grammar block 'timing (issue 12)'): the order of
simultaneous triggers, delayed effects and abilities for the rest of the turn."""

from __future__ import annotations

from lark import v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase, _s


@v_args(meta=True)
class TimingBuilder(BuilderBase):
    """``triggers resolve in the order you choose``; ``at the next "EVENT": body``;
    ``once this turn, you may "LABEL": body``."""

    def trigger_order(self, meta, c):
        return A.TriggerOrder(self._sp(meta))

    def trigger_wait(self, meta, c):
        return A.TriggerWait(self._sp(meta))

    def delay_whose(self, meta, c):
        return str(c[0])

    def delayed(self, meta, c):
        body = c[2] if isinstance(c[2], A.Body) else A.Body(self._sp(meta), tuple(c[2]))
        return A.Delayed(self._sp(meta), _s(c[1]), c[0] == "your", body)

    def uses_once(self, meta, c):
        return 1

    def uses_any(self, meta, c):
        return 0

    def uses_n(self, meta, c):
        return -1 if int(c[0]) == 0 else int(c[0])  # -1: '0 times', reported by the lowering (CS215)

    def grant_head(self, meta, c):
        rest = list(c[2:])  # ('prefer', EXPR) is what action_prefer builds (declarations)
        prefer = next((x[1] for x in rest if isinstance(x, tuple) and x[0] == "prefer"), None)
        cond = next((x for x in rest if not (isinstance(x, tuple) and x[0] == "prefer")), None)
        return c[0], _s(c[1]), cond, prefer

    def grant(self, meta, c):
        uses, label, cond, prefer = c[0]
        body = c[1] if isinstance(c[1], A.Body) else A.Body(self._sp(meta), tuple(c[1]))
        return A.Grant(self._sp(meta), label, uses, body, cond, prefer)

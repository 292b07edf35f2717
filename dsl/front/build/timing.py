"""Builder for the timing area (grammar block 'timing (issue 12)'): the order of
simultaneous triggers and delayed effects."""

from __future__ import annotations

from lark import v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase, _s


@v_args(meta=True)
class TimingBuilder(BuilderBase):
    """``triggers resolve in the order you choose``; ``at the next "EVENT": body``."""

    def trigger_order(self, meta, c):
        return A.TriggerOrder(self._sp(meta))

    def delay_whose(self, meta, c):
        return str(c[0])

    def delayed(self, meta, c):
        body = c[2] if isinstance(c[2], A.Body) else A.Body(self._sp(meta), tuple(c[2]))
        return A.Delayed(self._sp(meta), _s(c[1]), c[0] == "your", body)

"""Builder for the timing area (grammar block 'timing (issue 12)'): the order of
simultaneous triggers."""

from __future__ import annotations

from lark import v_args

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.build.base import BuilderBase


@v_args(meta=True)
class TimingBuilder(BuilderBase):
    """``triggers resolve in the order you choose``."""

    def trigger_order(self, meta, c):
        return A.TriggerOrder(self._sp(meta))

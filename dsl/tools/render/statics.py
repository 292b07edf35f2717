"""Static rules of passive abilities in words (issue 12, cards2 area): the printed
"Ongoing:" lines — "Your Heroes have +1 Power.", "Cards cost 1 less for you.",
"Each foe is marked “cannot avoid”." — and static triggers ("Whenever you gain a Hero, ...")."""

from __future__ import annotations

from cardscript.dsl.front import ast as A
from cardscript.dsl.tools.render.english import article, quoted, sentence, title
from cardscript.dsl.tools.render.phrases import Ctx
from cardscript.dsl.tools.render.statements import Statements, _plural


class StaticRender(Statements):
    """``s_staticwhen`` and the sentences of a passive ability."""

    def s_staticwhen(self, s: A.StaticWhen, ctx: Ctx) -> str:
        """"Your Heroes have +1 Power" for a counter bonus on each card played (the DC
        sets' wording); otherwise "whenever you VERB a TYPE, ..."."""
        kind = title(s.types[0]) if s.types else "card"
        only = s.body.stmts[0] if len(s.body.stmts) == 1 else None
        if s.verb == "play" and isinstance(only, A.CounterAdd) and only.player is None and only.cards is None:
            return f"your {_plural(kind)} have {self.stmt(only, Ctx())}"
        return f"whenever you {s.verb} {article(kind)}, {self.joined(s.body, Ctx(), ', then ')}"

    def passive_sentences(self, body: A.Body) -> str:
        """A passive ability: what holds while the card is in play, one sentence each; a
        mark is a state then ("each foe is marked ..."), not something done this turn."""
        out = []
        for s in body.stmts:
            if isinstance(s, A.Mark) and not s.unmark and isinstance(s.target, A.PlayerSel):
                who = self.players(s.target, Ctx())
                verb = "are" if who in ("you", "they") else "is"
                out.append(sentence(f"{who} {verb} marked {quoted(s.mark)}"))
            else:
                out.append(sentence(self.stmt(s, Ctx(top=True))))
        return " ".join(filter(None, out))

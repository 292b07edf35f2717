"""Static rules of passive abilities in words (issue 12, cards2 area): the printed
"Ongoing:" lines — "Your Heroes have +1 Power.", "Cards cost 1 less for you.",
"Each foe is marked “cannot avoid”." — and static triggers ("Whenever you gain a Hero, ...");
computed attributes ("This card is worth 1 VP for each Equipment in your deck.")."""

from __future__ import annotations

from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.tools.render.english import article, quoted, sentence, title
from cardscript.dsl.tools.render.phrases import Ctx, is_single
from cardscript.dsl.tools.render.statements import Statements, _plural


class StaticRender(Statements):
    """``s_staticwhen`` and the sentences of a passive ability."""

    def s_staticwhen(self, s: A.StaticWhen, ctx: Ctx) -> str:
        """"Your Heroes have +1 Power" for a counter bonus on each card played (the DC
        sets' wording); otherwise "whenever you VERB a TYPE, ..."."""
        kind = title(s.types[0]) if s.types else "card"
        only = s.body.stmts[0] if len(s.body.stmts) == 1 else None
        if s.verb == "play" and isinstance(only, A.CounterAdd) and only.player is None and only.cards is None \
                and only.counter not in self.sym.printed_counters:
            return f"your {_plural(kind)} have {self.stmt(only, Ctx())}"
        what = article(kind) + (f" {self.where(s.where, Ctx())}" if s.where is not None else "")
        body = self.joined(s.body, Ctx(), ', then ')
        if s.once:  # "The first time you play a Hero during each of your turns, draw a card."
            during = "during each of your turns" if s.once == "your turns" else "each turn"
            return f"the first time you {s.verb} {what} {during}, {body}"
        return f"whenever you {s.verb} {what}, {body}"

    def passive_sentences(self, body: A.Body) -> str:
        """A passive ability: what holds while the card is in play, one sentence each; a
        mark is a state then ("each foe is marked ..."), not something done this turn."""
        out = []
        for s in body.stmts:
            if isinstance(s, A.Mark) and not s.unmark and isinstance(s.target, A.PlayerSel):
                who = self.players(s.target, Ctx())
                printed = self.sym.printed_marks.get(s.mark)
                if printed is not None and who == "you":  # 'printed mark "M" as "your Attacks ..."'
                    out.append(sentence(printed.template))
                    continue
                verb = "are" if who in ("you", "they") else "is"
                out.append(sentence(f"{who} {verb} marked {quoted(s.mark)}"))
            else:
                out.append(sentence(self.stmt(s, Ctx(top=True))))
        return " ".join(filter(None, out))

    def computed(self, c: A.ComputedAttr) -> str:
        """"This card is worth 1 VP for each Equipment in your deck." for an attribute
        the game's ``score:`` reads (the card's printed value is "*"); "This card's Cost is
        1 for each ..." for any other."""
        name = c.attr.upper() if len(c.attr) <= 2 else title(c.attr)
        scored = self.sym.score is not None and _reads(self.sym.score.body, c.attr)
        per, count = _per_card(c.value)
        if count is not None and is_single(count.cards):  # 'vp = 5 * count this where ...'
            test = self.single_test(count.cards, Ctx())
            return sentence(f"this card is worth {per} {name} if {test}" if scored
                            else f"this card's {name} is {per} if {test}")
        if count is None:
            value = self.expr(c.value, Ctx())
            return sentence(f"this card is worth {value} {name}" if scored else f"this card's {name} is {value}")
        each = self.singular(count.cards, Ctx())  # "for each Equipment in your deck", as '+1 Power for each' reads
        return sentence(f"this card is worth {per} {name} for each {each}" if scored
                        else f"this card's {name} is {per} for each {each}")


def _per_card(e: Any) -> tuple[int, A.Count | None]:
    """(N, the count) for ``count CARDS`` or ``N * count CARDS``; (0, None) otherwise."""
    if isinstance(e, A.Count):
        return 1, e
    if isinstance(e, A.BinOp) and e.op == "*":
        for n, k in ((e.left, e.right), (e.right, e.left)):
            if isinstance(n, A.Num) and isinstance(k, A.Count):
                return n.value, k
    return 0, None


def _reads(node: Any, attr: str) -> bool:
    """Whether ``node`` (an AST node or a tuple of them) reads the attribute ``attr``."""
    if isinstance(node, (A.AttrOf, A.SumAttr)) and node.attr == attr:
        return True
    if isinstance(node, (tuple, list)):
        return any(_reads(x, attr) for x in node)
    return isinstance(node, A.Node) and any(_reads(getattr(node, f), attr) for f in node._fields)

"""Calls in words: a call of an effect in its own words, its arguments in place, the
verb agreeing with its subject (``target foe draws a card``); a call with a block as a
keyword ability (``Surge (2): Draw a card.``); and a call through its effect's printed
template (:func:`~cardscript.dsl.tools.render.templates.fill`).
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import EffectSig, _flatten, match_call
from cardscript.dsl.front.loader import Program
from cardscript.dsl.tools.render.blocks import BlockBindings
from cardscript.dsl.tools.render.english import FUNCTION_WORDS, quoted, sentence, title
from cardscript.dsl.tools.render.phrases import PLURAL_PLAYERS, Ctx, Holder
from cardscript.dsl.tools.render.statements import Statements
from cardscript.dsl.tools.render.templates import PLACEHOLDER, Arg, fill


class Calls(Statements):
    """Renders calls (the ``s_call`` of :class:`Statements`)."""

    def __init__(self, program: Program):
        super().__init__(program)
        self.blocks = BlockBindings(self.sym)
        self._card: A.CardDef | None = None  # the card being rendered: its attributes fill templates

    # ------------------------------------------------------------ calls
    def s_call(self, c: A.Call, ctx: Ctx) -> str:
        """A call; a clause its arguments leave for the end ("put up to X cards from your
        discard into your hand, where X is ...") follows its words."""
        outer, self.tails = self.tails, []
        try:
            text = self._call(c, ctx)
            return text + "".join(self.tails)
        finally:
            self.tails = outer

    def _call(self, c: A.Call, ctx: Ctx) -> str:
        match, _ = match_call(c, self.sym, {})
        subject, may = (c.subject, c.may) if c.subject is not None or c.may else (ctx.subject, ctx.may)
        template = _printed(match)
        if template:
            return self.templated(c, match, ctx, template, subject, may)
        if c.block is not None:
            return self.keyword(c, match, ctx)
        words = self.call_words(c, match, ctx)
        verb, rest = words[0], words[1:]
        return " ".join([self.who(subject, may, ctx, verb), *rest])

    def call_words(self, c: A.Call, match: Any, ctx: Ctx) -> list[str]:
        """The words of a call, arguments rendered, the verb first in its base form. A count
        goes to the end ('deal 1 damage to each foe for each X'), another computed number
        after the noun it counts ('take damage equal to its cost')."""
        moving = any(isinstance(i, A.ZoneArg) for i in c.items)
        out, tail, pending = [self.verb(c, match)], [], ""
        for item in c.items[1:]:
            if pending and not isinstance(item, A.Word):
                out.append(pending)
                pending = ""
            if isinstance(item, A.NumArg) and isinstance(item.expr, (A.Count, A.CountTypes)):
                amount, more = self.amount(item.expr, ctx)
                one = self.one_words(out) if item is c.items[-1] else None
                out.extend(one or [amount])  # 'draw (count ...)': "draw a card for each ..."
                tail.append(more.strip())
            elif isinstance(item, A.NumArg) and not isinstance(item.expr, (A.Num, A.Param)):
                pending = f"equal to {self.expr(item.expr, ctx)}"
            else:
                out.extend(self.item_words(item, match, ctx, moving))
        return self.capitalise_names(out + ([pending] if pending else [])) + tail

    def one_words(self, prefix: list[str]) -> list[str] | None:
        """What one of a number slot that ends a pattern reads, from the scripts: 'draw' ->
        ['a', 'card'] when an effect ``draw a card`` is defined beside ``draw {N: number}``
        (None when none is)."""
        n = len(prefix)
        for sig in self.sym.effects:
            toks = sig.tokens
            if len(toks) > n + 1 and all(t[0] == "w" for t in toks) and [t[1] for t in toks[:n]] == prefix \
                    and toks[n][1] == "a":
                return [t[1] for t in toks[n:]]
        return None

    def item_words(self, item: Any, match: Any, ctx: Ctx, moving: bool) -> list[str]:
        if isinstance(item, A.Word):
            return [item.text]
        if isinstance(item, A.CardsArg) and not item.sel.control and (flat := _flatten(item.sel)) is not None:
            return [t[1] if t[0] == "w" else self.expr(t[1], ctx) for t in flat]  # 'a spark': words of a pattern
        return [self.arg(item, match, ctx, moving)]

    def verb(self, c: A.Call, match: Any) -> str:
        first = match.sig.tokens[0] if match is not None and match.sig.tokens else None
        return first[1] if first is not None and first[0] == "w" else c.items[0].text  # type: ignore[union-attr]  # a call's first item is its verb, a Word

    def arg(self, item: Any, match: Any, ctx: Ctx, moving: bool) -> str:
        if isinstance(item, A.NumArg):
            return self.expr(item.expr, ctx)
        if isinstance(item, A.StrArg):
            return self.names.get(item.text.lower(), quoted(item.text))
        if isinstance(item, A.ParamArg):  # in a replacement (issue 12) a cards parameter reads 'it'
            return getattr(self, "param_words", {}).get(item.name, item.name)
        if isinstance(item, A.PlayersArg):
            return self.players(item.sel, ctx)
        if isinstance(item, A.CardsArg):
            return self.cards(item.sel, ctx, moving)
        if isinstance(item, A.ZoneArg):
            return self.zone(item.zone, ctx)
        return getattr(item, "text", "")

    def capitalise_names(self, words: list[str]) -> list[str]:
        """Words that spell a card, type or counter name, printed as the game prints it."""
        out: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(4, len(words) - i), 0, -1):
                key = " ".join(words[i:i + n])
                if key in self.names and (n > 1 or key not in FUNCTION_WORDS):
                    out.append(self.names[key])
                    i += n
                    break
            else:
                out.append(words[i])
                i += 1
        return out

    def keyword(self, c: A.Call, match: Any, ctx: Ctx) -> str:
        """'surge 2: draw a card' -> 'Surge (2): Draw a card' (see :mod:`cardscript.dsl.tools.render`)."""
        them, drop = self.block_subject(c, match, ctx)
        inner = Ctx(them or ctx.them, ctx.it)
        body = self.joined(c.block, inner, ", then ")  # type: ignore[arg-type]  # keyword() is for a call with a block
        if them is None or not inner.them.used:
            drop = None
        head = []
        for item in c.items:
            if item is drop:
                continue
            if isinstance(item, A.Word):
                head.append(title(item.text))
            elif isinstance(item, A.NumArg):
                head.append(f"({self.expr(item.expr, ctx)})")
            else:
                head.append(self.arg(item, match, ctx, False))
        prefix = self.who(c.subject, c.may, ctx, "").strip() if c.subject is not None or c.may else ""
        text = " ".join(head) + ": " + sentence(body).rstrip(".")
        return f"{prefix} {text}" if prefix else text

    def templated(self, c: A.Call, match: Any, ctx: Ctx, template: str, subject: A.PlayerSel | None,
                  may: bool) -> str:
        """A call through its effect's printed template. The block is rendered first, as for
        a keyword: the players it runs for stand in its "they" unless the template names them."""
        moving = any(isinstance(i, A.ZoneArg) for i in c.items)
        values: dict[str, Arg] = {}
        held = ""
        if c.block is not None:
            them = None
            binding = self.blocks.binding(match.sig)
            if binding is not None and binding[0] == "sel":
                them = self._players_holder(binding[1], ctx)
            elif binding is not None and "{" + binding[1] + "}" not in template:
                for name, _kind, tok in match.bound:
                    if name == binding[1] and tok is not None and tok[0] == "players":
                        them, held = self._players_holder(tok[1], ctx), name
            block = self.joined(c.block, Ctx(them or ctx.them, ctx.it), ", then ")
            values[match.sig.params[-1][0]] = Arg(block, block=True)
        for name, _kind, tok in match.bound:
            if tok is not None and name != held:
                values[name] = self.template_arg(tok, ctx, moving)
        values.update(self.attributes(template, values))
        text = fill(template, values)
        if c.block is not None:
            prefix = self.who(c.subject, c.may, ctx, "").strip() if c.subject is not None or c.may else ""
            return f"{prefix} {text}" if prefix else text
        if subject is None and not may:
            return text
        verb, _, rest = text.partition(" ")
        return " ".join(filter(None, [self.who(subject, may, ctx, verb), rest]))

    def attributes(self, template: str, taken: dict[str, Arg]) -> dict[str, Arg]:
        """Placeholders that name an attribute of the card being rendered, with its value
        (a card's name as the card is named)."""
        out: dict[str, Arg] = {}
        card = self._card
        for name in PLACEHOLDER.findall(template):
            if name in taken or name not in self.sym.attributes or card is None:
                continue
            value: int | str = self.sym.attributes[name].default
            value = next((v for n, v, _ in card.attrs if n == name), value)
            out[name] = Arg(self.names.get(value.lower(), value) if isinstance(value, str) else str(value))
        return out

    def template_arg(self, tok: tuple[Any, ...], ctx: Ctx, moving: bool) -> Arg:
        """A call argument as a template value (a count reads '1 ... for each X')."""
        kind, value = tok[0], tok[1]
        if kind == "num":
            if isinstance(value, (A.Count, A.CountTypes)):
                amount, more = self.amount(value, ctx)
                return Arg(amount, tail=more.strip())
            if isinstance(value, (A.Num, A.Param)):
                return Arg(self.expr(value, ctx))
            return Arg("", equal=f"equal to {self.expr(value, ctx)}")
        if kind == "players":
            return Arg(self.players(value, ctx))
        if kind == "cards":
            return Arg(self.cards(value, ctx, moving))
        if kind == "zone":
            return Arg(self.zone(value, ctx))
        if kind == "str":
            return Arg(self.names.get(value.lower(), quoted(value)))
        return Arg(str(value))

    def block_subject(self, c: A.Call, match: Any, ctx: Ctx) -> tuple[Holder | None, Any]:
        """Who 'they' are in a keyword's block, and the call argument that says so."""
        if match is None:
            return None, None
        binding = self.blocks.binding(match.sig)
        if binding is None:
            return None, None
        kind, value = binding
        if kind == "sel":
            return self._players_holder(value, ctx), None
        for name, _kind, tok in match.bound:
            if name == value and tok is not None and tok[0] == "players":
                return self._players_holder(tok[1], ctx), tok[2]
        return None, None

    def _players_holder(self, sel: A.PlayerSel, ctx: Ctx) -> Holder:
        def phrase(_moving: bool) -> str:
            return self.players(sel, ctx)

        return Holder(phrase, sel.kind not in PLURAL_PLAYERS)


#: How the built-ins whose words are not the printed ones read on a card.
_BUILTIN_PRINTED = {"put under": "put {C} on the bottom of {Z}"}


def _printed(match: Any) -> str:
    """The printed template of a matched call's effect ('' for none), or of a built-in
    whose words are not the printed ones ('put C under your deck': "on the bottom of")."""
    sig: EffectSig | None = match.sig if match is not None else None
    if sig is not None and sig.defn is None:
        return _BUILTIN_PRINTED.get(sig.builtin, "")
    return sig.defn.printed if sig is not None and sig.defn is not None else ""

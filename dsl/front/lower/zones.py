"""Lowering of the "zones" area (issue 12): a card's ``instead of PATTERN`` becomes a
:class:`~cardscript.runtime.definition.ReplacementDef` attached to the effect it replaces."""

from __future__ import annotations

from cardscript.dsl.diagnostics import closest
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.lower.bodies import BodyLowerer
from cardscript.dsl.front.patterns import _builtin_keys, _sig
from cardscript.runtime.definition import CardType, ReplacementDef


class ZoneLowerer(BodyLowerer):
    """Replacements: :meth:`replacement` lowers one, :meth:`arm_replacements` hands the
    kept cards' replacements to the effects they replace."""

    def replacement(self, rp: A.Replacement, card: int) -> ReplacementDef | None:
        """Lower ``instead of PATTERN: body``. The pattern must be one of a script effect's
        (same words and parameter kinds, any names): CS230 otherwise (a built-in primitive
        or no effect at all). The body sees the pattern's parameters under their names."""
        sig = _sig(A.EffectDef(rp.span, rp.pattern, rp.body))
        key = sig.full_key
        if key not in self.user:
            if key in _builtin_keys():
                self.err("CS230", f"'instead of {sig.display}' names a built-in primitive", rp.span,
                         "a card replaces an effect written in script: name the effect that moves the cards "
                         "(e.g. 'instead of gain {C: cards}')")
            else:
                shown = [s.display for s in self.sym.effects]
                near = closest(sig.display, shown)
                self.err("CS230", f"'instead of {sig.display}': no effect has this pattern", rp.span,
                         f"did you mean 'instead of {near}'?" if near else
                         "write the words and parameter slots of an effect the game defines")
            self.body(rp.body, dict(sig.params))  # its own mistakes are reported too
            return None
        self.trigger_uid += 1
        body = self.body(rp.body, dict(sig.params))
        self._replaced[self.trigger_uid] = key
        return ReplacementDef(self.trigger_uid, card, sig.display, tuple(n for n, _ in sig.params), body, rp.foes,
                              rp.first_time, f"{rp.span.file}:{rp.span.line}")

    def arm_replacements(self, cards: list[CardType]) -> None:
        """Give each replaced effect the replacements of the cards the game kept, in card order."""
        for ct in cards:
            for rep in ct.replacements:
                ue = self.user[self._replaced[rep.uid]]
                ue.replacements = (*ue.replacements, rep)

"""The lowerer's base: the state every lowering pass shares, its diagnostics, and the
resolution of names (zones, counters, attributes, type and keyword words) to indices."""

from __future__ import annotations

from typing import Any

from cardscript.dsl.diagnostics import Diagnostic, did_you_mean, error
from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Symbols
from cardscript.dsl.front.hints import zone_spelling
from cardscript.runtime import effects as E

_BUILTIN_COUNTERS = {"seat": -1, "turn order": -2}  # turn order: 1 for the first player
_TEXT_HINT = "a text attribute (and 'name of CARD') can only be compared with a quoted text, with == or !="


class NameLowerer:
    """Symbols and indices, the diagnostics collected so far, and name lookups; a name
    that does not resolve is a Diagnostic (and a harmless index), never an exception."""

    def __init__(self, sym: Symbols, lenient: frozenset[str] = frozenset()):
        self.sym = sym
        self.lenient = lenient  # files of mixed-in sets: their cards may be left out, with a warning
        self.diags: list[Diagnostic] = []
        self.zone_index = {name: i for i, name in enumerate(sym.zones)}
        self.counter_index = {name: i for i, name in enumerate(sym.counters)}
        self.user: dict[str, E.UserEffect] = {}
        self.calls: dict[str, set[str]] = {}  # effect key -> effect keys it calls
        self._calls_from: set[str] | None = None
        # 'take actions' reached through effect calls between turns (CS213, lower/timing.py):
        # the effects whose own bodies take actions, the effect being lowered, and the calls
        # made between turns while the effects were not all lowered yet
        self.takes_actions: set[str] = set()
        self._lowering_effect: str | None = None
        #: the verb of the effect being lowered: the purpose of a 'choose' in its body
        #: ('effect discard a card: choose a card ...' is a "discard" decision, for bots)
        self._effect_verb: str | None = None
        self._between_calls: list[tuple[str, Any]] | None = []
        self.trigger_uid = 0
        self._replaced: dict[int, str] = {}  # a replacement's uid -> the key of the effect it replaces
        self.play_zone = next((i for i, z in enumerate(sym.zones.values()) if z.play_zone), -1)

    # ------------------------------------------------------------ diagnostics
    def err(self, code: str, msg: str, span: Any, hint: str = "") -> None:
        self.diags.append(error(code, msg, span, hint))

    def unknown(self, what: str, name: str, span: Any, pool: Any, hint: str = "") -> None:
        self.err("CS201", f"unknown {what} {name!r}", span, hint or did_you_mean(name, list(pool)))

    # ------------------------------------------------------------ names
    def card_key(self, name: str, span: Any) -> str:
        """The card a name in a script means: its own set's first (dsl/front/sets.py);
        CS201 for no such card, CS222 for a name two other sets share."""
        from cardscript.dsl.front.sets import describe, resolve_card

        key, choices = resolve_card(self.sym.cards, self.sym.card_sets, name, span.file if span else "")
        if choices:
            self.err("CS222", f"two cards are named {name!r}, neither of this script's set", span,
                     f"say which: {describe(choices)}")
        elif key not in self.sym.cards:
            self.unknown("card", name, span, self.sym.cards)
        return key

    def zone(self, name: str, span: Any) -> int:
        if name not in self.zone_index:
            # 'the vault' for a zone printed "The Vault": the card's words, not the script's
            self.unknown("zone", name, span, self.zone_index, zone_spelling(name, self.sym))
            return 0
        return self.zone_index[name]

    def counter(self, name: str, span: Any) -> int:
        if name in _BUILTIN_COUNTERS:
            return _BUILTIN_COUNTERS[name]
        if name not in self.counter_index:
            self.unknown("counter", name, span, list(self.counter_index) + list(_BUILTIN_COUNTERS))
            return 0
        return self.counter_index[name]

    def counter_owned(self, owner: str, name: str, span: Any, write: bool = False) -> int:
        """A counter read or set as 'your X' / 'their X' (per player), 'the X' (shared) or
        'X of CARD' (per card)."""
        idx = self.counter(name, span)
        if write and idx < 0:
            self.err("CS204", f"{name!r} is read-only", span)
        decl = self.sym.counters.get(name)
        if decl is not None and (owner == "card") != decl.per_card:
            self.err("CS204", f"counter {name!r} is one per card: say '{name} of CARD'" if decl.per_card
                     else f"counter {name!r} is not one per card", span)
        elif decl is not None and owner != "card":
            if owner == "shared" and decl.per_player:
                self.err("CS204", f"counter {name!r} belongs to each player: say 'your {name}' or 'their {name}'", span)
            elif owner != "shared" and not decl.per_player:
                self.err("CS204", f"counter {name!r} is shared: say 'the {name}'", span)
        return idx

    def check_words(self, words: tuple[str, ...], span: Any, allow_keywords: bool = True) -> None:
        known = set(self.sym.types) | set(self.sym.labels)
        if allow_keywords:
            known |= {s.name for s in self.sym.effects}
        for w in words:
            if w not in known:
                self.unknown("type, keyword or label", w, span, known)

    def attr(self, name: str, span: Any, number: bool = False) -> str:
        """An attribute read from cards; with ``number``, one that must hold numbers (CS204)."""
        if name not in ("name", "face") and name not in self.sym.attributes:
            self.unknown("attribute", name, span, [*self.sym.attributes, "name", "face"])
        elif number and self.attr_kind(name) == "text":
            self.err("CS204", f"attribute {name!r} holds text, not a number", span, _TEXT_HINT)
        return name

    # ------------------------------------------------------------ types
    def attr_kind(self, name: str) -> str:
        """'number' or 'text': what an attribute holds, from its declaration's default
        (``attribute cost = 0`` holds numbers); 'name' and 'face' are texts."""
        if name in ("name", "face"):
            return "text"
        decl = self.sym.attributes.get(name)
        return "text" if decl is not None and isinstance(decl.default, str) else "number"

    def kind(self, e: Any) -> str:
        """'number' or 'text': what an expression evaluates to. Only a quoted text and a
        card's text attribute are texts; arithmetic is checked where it is lowered."""
        if isinstance(e, A.Text):
            return "text"
        if isinstance(e, A.AttrOf):
            decl = self.sym.counters.get(e.attr)
            return "number" if decl is not None and decl.per_card else self.attr_kind(e.attr)
        return "number"

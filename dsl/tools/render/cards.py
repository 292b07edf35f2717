"""A card's rules text: :class:`Renderer` writes each ability and trigger of a card as a
paragraph (an ability through its label's printed template when the scripts give one),
:func:`render_program` gives every card of a program as a :class:`RenderedCard`; and the
helpers ``cardscript render`` loads a program and reads its name and defaults with.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import collect
from cardscript.dsl.front.loader import Program
from cardscript.dsl.tools.render.calls import Calls
from cardscript.dsl.tools.render.english import article, capitalise_sentences, listed, quoted, sentence, title
from cardscript.dsl.tools.render.phrases import Ctx
from cardscript.dsl.tools.render.statics import StaticRender
from cardscript.dsl.tools.render.templates import Arg, fill


@dataclass(frozen=True)
class RenderedCard:
    """A card as printed: name, types, attributes of its first printing, copies, and its
    rules text, one paragraph per ability or trigger."""

    name: str
    types: tuple[str, ...]
    attributes: dict[str, int | str]
    copies: int
    paragraphs: tuple[str, ...]
    faces: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return " ".join(self.paragraphs)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "types": list(self.types), "attributes": self.attributes,
                "copies": self.copies, "text": self.text, "paragraphs": list(self.paragraphs),
                "faces": list(self.faces)}


class Renderer(StaticRender, Calls):
    """Renders the cards of one program; built from its declarations (:func:`collect`)."""

    def card(self, card: A.CardDef) -> RenderedCard:
        self._card = card
        parts: list[A.Ability | A.Trigger | A.Replacement] = sorted(
            [*card.abilities, *card.triggers, *card.replacements], key=lambda a: (a.span.line, a.span.column))
        paragraphs = [self.ability(a) if isinstance(a, A.Ability) else self.replacement(a)
                      if isinstance(a, A.Replacement) else self.trigger(a) for a in parts]
        paragraphs += [self.computed(c) for c in card.computed]  # cards2 area: printed "*"
        attrs: dict[str, int | str] = {n: a.default for n, a in self.sym.attributes.items()}
        attrs.update({n: v for n, v, _ in card.attrs})
        attrs.update({c.attr: "*" for c in card.computed})
        copies = sum(p.copies for p in card.printings) or 1
        return RenderedCard(card.name, tuple(w for w, _ in card.words), attrs, copies,
                            tuple(capitalise_sentences(p) for p in paragraphs if p), card.faces)

    def ability(self, ab: A.Ability) -> str:
        printed = self.sym.printed_labels.get(ab.label)
        if printed is not None:
            return self.labelled(printed.template, ab.body)
        passive = any(p.label == ab.label for p in self.sym.passives)
        body = self.passive_sentences(ab.body) if passive else self.sentences(ab.body, Ctx())
        if ab.label == "play":
            return body
        return f"{title(ab.label)}: {body}" if body else f"{title(ab.label)}."

    def labelled(self, template: str, body: A.Body) -> str:
        """An ability through its label's printed template: ``{text}`` starting a sentence is
        the ability's sentences, inside one its statements as one clause list."""
        at = template.find("{text}")
        if at < 0:
            return sentence(fill(template, {}))
        before = template[:at].rstrip()
        after = template[at + len("{text}"):].lstrip()  # "Defense: {text} to avoid an Attack."
        if (not before or before.endswith((".", "!", "?", ":"))) and not after[:1].isalpha():
            text = self.sentences(body, Ctx())
        else:
            text = listed(self.clauses(body, Ctx()))
        return sentence(fill(template, {"text": Arg(text, block=True)}))

    def trigger(self, tr: A.Trigger) -> str:
        """"When CLAUSE, ..."; "The first time CLAUSE each turn, ..." (the DC sets' wording);
        "At the end of your turn, ..." for an event named 'end of turn'."""
        ev = tr.event
        head = "the first time" if ev.first_time else "when"
        clause = self.event(ev.name, ev.of_this_card) if ev.enters is None else \
            f"{article(title(ev.types[0]) if ev.types else 'card')} enters {self.zone(ev.enters, Ctx())}"  # cards2
        turn = " during your turn" if ev.your_turn else ""
        if ev.first_time:
            turn = " during each of your turns" if ev.your_turn else " each turn"
        edge, _, what = ev.name.partition(" of ")
        if edge in ("start", "end") and what and " " not in what and not (ev.of_this_card or ev.first_time) \
                and ev.enters is None and ev.name not in self.sym.printed_events:
            # a card's trigger hears its player's events: "At the end of your turn, ..."
            head, clause, turn = "at", f"the {edge} of your {what}", ""
        return sentence(f"{head} {clause}{turn}, {self.joined(tr.body, Ctx(), ', then ')}")

    def replacement(self, rp: A.Replacement) -> str:
        """"If you would gain a card, instead ..." (issue 12): the pattern's slots read as
        'a card' (cards), 'a player' (players), nothing (numbers, zones); in the body a cards
        parameter reads 'it'."""
        words = {"cards": "a card", "players": "a player", "type": "a card"}
        said: list[str] = []
        for i in rp.pattern:
            if isinstance(i, A.Slot) and i.type == "number":  # 'draw {N: number}': "draw a card"
                said += (self.one_words([w for w in said if w]) or [""]) if i is rp.pattern[-1] else ["a"]
            elif isinstance(i, A.Slot):
                said.append(words.get(i.type, ""))
            else:
                said.append(self.arg(i, None, Ctx(), False))
        head = "the first time each turn" if rp.first_time else "if"
        who = "a foe" if rp.foes else "you"
        self.param_words = {i.name: "it" for i in rp.pattern if isinstance(i, A.Slot) and i.type == "cards"}
        # the block of the replaced call: what it would have done ('instead of attack {T} {B}: B')
        self.block_words = {i.name: "its effect" for i in rp.pattern if isinstance(i, A.Slot) and i.type == "block"}
        try:
            parts = self.clauses(rp.body, Ctx())
        finally:
            self.param_words, self.block_words = {}, {}
        twice = {2: "twice"}.get(len(parts), f"{len(parts)} times")
        body = f"{parts[0]} {twice}" if len(parts) > 1 and len(set(parts)) == 1 else ", then ".join(parts)
        return sentence(f"{head} {who} would {' '.join(w for w in said if w)}, instead {body}")

    def event(self, name: str, of_this_card: bool) -> str:
        """The clause of a trigger's event: its printed form when the scripts give one
        (``printed event "NAME" as "TEMPLATE"``), else guessed from the name: an effect's
        verb ("you draw a card"), a past participle ("you are attacked")."""
        printed = self.sym.printed_events.get(name)
        if printed is not None:
            return self.event_form(printed, of_this_card)
        verbs = {s.name for s in self.sym.effects} | {"play", "move", "take", "reveal", "flip", "roll", "shuffle"}
        if name in verbs:
            return f"you {name} {'this card' if of_this_card else 'a card'}"
        if " " not in name and name.endswith("ed"):
            return f"{'this card is' if of_this_card else 'you are'} {name}"
        if name.split()[0].endswith("ed"):
            return f"you {name}"
        return f"{quoted(name)} happens" + (" to this card" if of_this_card else "")


# ---------------------------------------------------------------- entry points
def render_program(program: Program) -> list[RenderedCard]:
    """Every card of a program (in declaration order), with its rules text."""
    r = Renderer(program)
    return [r.card(c) for c in r.sym.cards.values()]


def load(target: str) -> Program:
    """The program of a GAME argument: a built-in game, a folder or a script; a folder
    without a game header is read as a library (every script in it).

    Raises:
        CompileError: unknown game, missing file, syntax errors.
    """
    from cardscript.dsl.diagnostics import CompileError
    from cardscript.dsl.front.loader import SCRIPT_SUFFIXES, load_program, resolve_game

    p = Path(target)
    if p.is_dir():
        scripts = sorted(f for f in p.iterdir() if f.suffix in SCRIPT_SUFFIXES and f.suffix != ".scenario")
        try:
            return load_program(resolve_game(target))
        except CompileError:
            if not scripts:
                raise
            return load_program(scripts[0], scripts[1:])
    return load_program(resolve_game(target))


def defaults(program: Program) -> dict[str, Any]:
    """The declared attributes' default values (a card shows only the ones it changes)."""
    sym = collect(program.scripts)[0]
    return {n: a.default for n, a in sym.attributes.items()}


def game_name(program: Program, fallback: str) -> str:
    sym = collect(program.scripts)[0]
    return sym.header.name if sym.header is not None else fallback


"""``cardscript render``: a card's rules text in English, generated from its script.

Game-agnostic: nothing here knows a game. Every phrase comes from the scripts or from
a generic rule of English:

* a call is written in its own words, with its arguments in place (``draw a card`` ->
  "Draw a card."); the verb agrees with its subject (``target foe draws a card``);
* a call with a block is a keyword ability: its words title-cased, a number in
  parentheses, then the block (``surge 2: draw a card`` -> "Surge (2): Draw a card.");
  when the effect's own definition runs the block once for each player of one of its
  parameters (``for each foe in T: ... B``), that argument moves into the block, where
  it stands for "they"/"them" (``attack target foe: they discard a card`` -> "Attack:
  Target foe discards a card.");
* ``choose CARDS: ... it ...`` and ``for each ...: they ...`` put the chosen cards or
  players in place of the first "it" / "they" (``choose the top card of your deck:
  reveal it`` -> "Reveal the top card of your deck.");
* a count as an amount reads "1 ... for each ..." (``+(count all cards you control with
  hero) power`` -> "+1 Power for each Hero you control"), another expression "equal to";
* names are printed as the game prints them: card names as declared, types, counters
  and shared zones title-cased (hyphens read as spaces), per-player zones in lower case.

The scripts may say how their words read on a card (see
:func:`~cardscript.dsl.tools.render.templates.fill`):

* ``effect PATTERN printed "TEMPLATE":`` — a call of the effect is the template, each
  ``{PARAM}`` replaced by the rendered argument (``{B}``, the block parameter, by the
  block's clauses joined with ", then "); a subject still agrees with the first word;
* ``printed LABEL as "TEMPLATE"`` — an ability with that label is the template, ``{text}``
  replaced by the ability's own text: its sentences where ``{text}`` starts a sentence,
  else its statements as one clause list ("a, b, and c");
* ``printed counter NAME as "TEMPLATE"`` — ``+N NAME`` is the template, ``{N}`` the amount;
* ``printed event "NAME" as "TEMPLATE"`` — a trigger on the event is "When TEMPLATE, ..."
  ("The first time TEMPLATE each turn, ..."), ``{C}`` "this card" or "a card"; without
  one, the event reads from its name (an effect's verb, a past participle, else quoted);
* a placeholder that names an attribute of the card being rendered is its value
  (``{cost}``: its cost);
* a sentence of a template whose block or text is empty is left out; "a" before a
  value that starts with a vowel reads "an".

:func:`render_program` gives a :class:`RenderedCard` per card. The parts, each built
on the one before:

* :mod:`~cardscript.dsl.tools.render.english` — title case, articles, verbs, sentences, lists;
* :mod:`~cardscript.dsl.tools.render.templates` — printed templates and their placeholders;
* :mod:`~cardscript.dsl.tools.render.phrases` — players, cards, zones, expressions, conditions;
* :mod:`~cardscript.dsl.tools.render.statements` — bodies and statements;
* :mod:`~cardscript.dsl.tools.render.blocks` — who a keyword's block runs for;
* :mod:`~cardscript.dsl.tools.render.calls` — calls: own words, keywords, templates;
* :mod:`~cardscript.dsl.tools.render.cards` — a card's paragraphs, :class:`RenderedCard`;
* :mod:`~cardscript.dsl.tools.render.html` — the gallery page and print-and-play card faces.
"""

from __future__ import annotations

from typing import Any

from cardscript.dsl.tools.render.cards import RenderedCard, Renderer, defaults, game_name, load, render_program
from cardscript.dsl.tools.render.english import title

__all__ = ["RenderedCard", "Renderer", "defaults", "game_name", "load", "render_program", "title"]

_PAGES = ("gallery_html", "card_svg", "slug", "write_html", "write_svg")


def __getattr__(name: str) -> Any:
    """The gallery and card faces live in :mod:`cardscript.dsl.tools.render.html` (loaded when first asked for)."""
    if name in _PAGES:
        from cardscript.dsl.tools.render import html

        return getattr(html, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

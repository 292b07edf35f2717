"""``cardscript new expansion NAME --for GAME``: a new expansion folder that works at once.

The folder holds a manifest, one card, one scenario for it and a README. The card is
made from what GAME declares, so that it passes ``cardscript check`` and
``cardscript test`` with no edit: a type that the game's setup takes out of the box
(found with :mod:`cardscript.dsl.tools.lint`'s analysis), and, when the game has a ``play`` label, a
play zone and a per-player counter that holds 0 and 1, ``play: +1 COUNTER``. When the
game's setup names each card it takes out (Hero Dice), the card has the type its ``play``
action chooses, and a ``setup:`` of the expansion moves it to that action's zone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cardscript.dsl.front import ast as A
from cardscript.dsl.front.check import Symbols, collect
from cardscript.dsl.front.loader import builtin_games
from cardscript.dsl.front.pipeline import compile_game
from cardscript.dsl.tools.lint import Linter
from cardscript.dsl.tools.manifest import MANIFEST

NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Template:
    """What the new card is made of, read from the game."""

    game: str
    title: str
    players: int
    card_type: str
    counter: str  # '' when the card has no ability
    play_zone: str
    zones: tuple[str, ...]  # every zone a card may be in, as the scenario names them
    setup_to: str = ""  # where the expansion's own setup puts the card; '' when the game's setup takes it out


def title_of(name: str) -> str:
    """'my-fan-pack' -> 'My Fan Pack'."""
    return " ".join(w.capitalize() for w in name.split("-"))


def read_game(game: str) -> Template:
    """Compile GAME and pick the type, counter and zones the new card and scenario use."""
    d, _, program = compile_game(game)
    sym, _ = collect(program.scripts)
    linter = Linter(program, sym, d)
    sels = linter.box_selectors()
    defaults = dict(d.attributes)
    card_type = next((t for t in d.types if any(linter.may_take(s, "", frozenset([t]), [defaults]) for s in sels)),
                     "")
    setup_to = ""
    if not card_type:  # the setup names each card it takes out (Hero Dice): the card joins by a setup of its own
        card_type, setup_to = _played_type(sym, d.types)
    passive = {d.counters[i].name for i in d.passive_counters}
    counter = next((c.name for c in d.counters if c.per_player and not c.per_card and c.name not in passive
                    and (c.low is None or c.low <= 0) and (c.high is None or c.high >= 1)), "")
    play_zone = next((z.name for z in d.zones if z.play_zone), "")
    if "play" not in d.labels or not play_zone:
        counter = ""
    zones = tuple(f"the {z.name} of each player" if z.per_player else f"the {z.name}"
                  for z in d.zones if not z.per_card)
    return Template(game, d.name, d.players[0], card_type, counter, play_zone, zones, setup_to)


def _played_type(sym: Symbols, types: tuple[str, ...]) -> tuple[str, str]:
    """(type, zone as a setup writes it) of the cards the game's 'play' action takes ('choose
    a hero card from your hand'), or else its first type and its first shared zone."""
    for a in sym.actions:
        sel = a.choose
        if a.name == "play" and sel is not None and sel.types and sel.types[0] in types and len(sel.zones) == 1:
            z = sel.zones[0]
            if isinstance(z, A.ZoneRef) and z.owner in ("you", "shared"):
                return sel.types[0], f"{'your' if z.owner == 'you' else 'the'} {z.name}"
    shared = next((z.name for z in sym.zones.values() if z.name != "box" and not z.per_player and not z.per_card),
                  "")
    return (types[0] if types else ""), (f"the {shared}" if shared else "")


def files_for(name: str, t: Template) -> dict[str, str]:
    """The new expansion's files: relative path -> text."""
    title = title_of(name)
    card = f"{title} Sample"
    ability = f"\n  play: +1 {t.counter}" if t.counter else ""
    text = f"+1 {t.counter.capitalize()}." if t.counter else "(no text yet)"
    manifest = (f'# The manifest of the expansion (docs/ci.md): its name, version and the game it extends.\n'
                f'name = "{name}"\nversion = "0.1.0"\ngame = "{t.game}"\n'
                f'description = "{title}: an expansion for {t.title}"\nrequires = []\nconflicts = []\n')
    cards = (f"# {title}: an expansion for {t.title}. Every script in this folder is part of it.\n"
             f'expansion "{title}"\nuses "{t.game}"\n\n'
             f'# "{text}"\ncard "{card}": {t.card_type}, copies 1{ability}\n')
    if t.setup_to:
        cards += ("\n# The game's setup takes out of the box only the cards it names: this setup,\n"
                  "# run after the game's, takes the new card out too (else it never leaves the box, CS504).\n"
                  f'setup:\n  move all "{card}" from the box to {t.setup_to}\n')
    return {MANIFEST: manifest, "cards.cards": cards, f"scenarios/{name}-sample.scenario": _scenario(card, t),
            "README.md": _readme(name, title, t)}


def _scenario(card: str, t: Template) -> str:
    where = " and ".join(t.zones)
    head = (f"# One scenario per card: set a state, use the card, expect what it does.\n"
            f'scenario "{card}"\nuses "{t.game}", "../"\nplayers {t.players}\n\n')
    if not t.counter:
        return head + f'expect count all "{card}" in {where} == 1\n'
    return head + (f"do:\n  set your {t.counter} to 0\n  play 1 \"{card}\" from {where}\n"
                   f'expect count all "{card}" in your {t.play_zone} == 1\nexpect your {t.counter} == 1\n')


def _readme(name: str, title: str, t: Template) -> str:
    return f"""# {title}

An expansion for {t.title}, written in cardscript.

| file | holds |
|---|---|
| `{MANIFEST}` | the manifest: name, version, the game it extends, requires, conflicts |
| `cards.cards` | the cards (every `.cards`, `.rules` and `.variant` file here is part of the expansion) |
| `scenarios/` | one scenario per card |

```sh
cardscript check {name}                  # diagnostics, warnings included
cardscript test {name}                   # run the scenarios (plain `pytest {name}` too)
cardscript play {t.game} --with {name}   # a game with the expansion's cards added
```
"""


def new_expansion(folder: Path, game: str) -> list[Path]:
    """Write a new expansion folder for GAME.

    Raises:
        ValueError: the folder exists, its name is not lower-case words joined by '-',
            or GAME is not a built-in game.
    """
    if not folder.name.strip() or folder.name in (".", ".."):
        raise ValueError("give the expansion a name: lower-case words joined by '-', as my-expansion")
    if folder.exists():
        raise ValueError(f"{folder} already exists")
    if not NAME.match(folder.name):
        raise ValueError(f"{folder.name!r}: an expansion's name is lower-case words joined by '-'")
    if game not in builtin_games():
        raise ValueError(f"unknown game {game!r}; built-in games: {', '.join(builtin_games())}")
    written = []
    for rel, text in files_for(folder.name, read_game(game)).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written

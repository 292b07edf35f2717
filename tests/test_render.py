"""``cardscript render``: rules text generated from the scripts, compared with the
printed text the scripts quote above their cards; the gallery in a real browser.

The printed text of a card is the last passage of the comment block right above
``card "NAME"`` that starts a line with ``# "``, up to its closing quote. Texts are
compared after :func:`normalise` (case, punctuation, dashes and arrows, white space).
A game's ``variants/`` are left out: ``cardscript render GAME`` renders the game without
them (a variant's cards exist only with the variant).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.front.loader import load_program
from cardscript.dsl.tools.render import load, render_program

ROOT = Path(__file__).resolve().parent.parent
CARD = re.compile(r'^card\s+"([^"]+)"')

#: Match ratio reached per built-in game (matched / quoted cards). The renderer may only
#: do better; a game that gains quoted cards the renderer cannot phrase may lower its own
#: floor, with the reason in a comment. First recorded at 7/28, 1/23 and 0/7; raised with
#: the printed templates of the scripts ('effect ... printed "..."', 'printed LABEL as');
#: Injustice to 17/28 with Flying Ground Slam's condition template; to 20/28 and Justice
#: League Dark to 11/23 with the zones' printed names ('printed zone discard as "discard
#: pile"') and one possessive for a list of zones ("your hand or discard pile").
FLOORS = {"injustice": 20 / 28, "justice-league-dark": 11 / 23, "hero-dice-batman": 1 / 7}
#: Cards whose rendered text matches the printed text: they must keep matching.
MATCHING = {
    # Injustice
    "Light Punch", "Heavy Punch", "Defend", "Flying Kick", "Injustice Black Canary", "Grapnel Launcher",
    "Injustice Raven", "Somersault", "Injustice Martian Manhunter", "Sword and Shield", "Cyborg (Earth-1)",
    "Heat Vision", "Injustice Killer Frost", "Running Man Stance", "Injustice The Atom", "Injustice Parasite",
    "Flying Ground Slam", "Injustice Nightwing", "Green Lantern Power Ring", "The Dark Knight",
    "Injustice Lex Luthor",
    # Justice League Dark
    "Billy Batson, Chosen", "Floronic Man, Woodrue", "Magical Shield", "Zatanna Zatara", "Mystic Ritual",
    "Sealed Defense", "Raeppasid", "Houdini Key", "New Avatar of the Green", "Black Adam, Corrupted",
    "Nergal",
    # Hero Dice – Batman
    "Batarang",
}
# Every remaining mismatch, and why:
#
# | card                          | why the rendered text differs from the quote                              |
# |-------------------------------|---------------------------------------------------------------------------|
# | Injustice                     |                                                                           |
# | Weakness                      | "Return this card to its stack if destroyed." is reminder text for its    |
# |                               | home stack; a home prints nothing (Flying Kick has one and no such text). |
# |                               | "... damage and return ...": see Batarangs.                               |
# | Batarangs                     | "+2 Power and charge your Meter": two effects in one sentence, where other |
# |                               | cards print two ("+2 Power. Deal 1 ..." on The Dark Knight, "Draw a card. |
# |                               | Take control ..." on Houdini Key); a script cannot say which.             |
# | Injustice The Joker           | "(This card starts on top of the Nemesis stack.)" is setup reminder text  |
# |                               | (its Ongoing reads through `printed counter damage-bonus as ...`).        |
# | Aquaman (Earth-1)             | "and" (see Batarangs); the Attack is scripted as it                       |
# |                               | resolves (a choice, then damage), printed "destroys it unless they take   |
# |                               | damage equal to its cost" (an effect wrapping it would call Injustice's    |
# |                               | damage, which a mix into Justice League Dark cannot take).                |
# | Injustice Hawkgirl            | "When you gain a card, if it has Attack, ...": a trigger on "gain" with a  |
# |                               | condition, printed "You may put Attack cards you gain ..." (its second    |
# |                               | ability reads as printed, through `printed event`).                       |
# | Injustice The Flash           | "The first time you are attacked each turn, ..., then if you do, ..."     |
# |                               | (printed "When you are attacked for the first time each turn, ... If you  |
# |                               | do, ..."); "When you draw a card during your turn" (printed "Each time    |
# |                               | you draw 1 or more cards during your turn").                              |
# | Mallet Bomb                   | "(including this one)" is reminder text. Nothing else differs.            |
# | Justice League Dark           |                                                                           |
# | Swamp Thing, Ragman,          | a Character's ability is an action of game.rules ("Swamp Thing           |
# | Wonder Woman                  | discards", "Ragman seals", ...): the card has no script to render.        |
# | Seal Token, Weakness, Punch,  | the quote is the rulebook's sentence about the card ("your Punch cards    |
# | Vulnerability, Word of Power  | each give you +1 Power", Word of Power's clarification), not its text.    |
# | Enchantress, Dzamor           | "Transform:" printed inside the Defense, before "If you do": this         |
# |                               | Transform is not optional, so it is `transform this` after the Seal, not  |
# |                               | the `transform: COST` keyword.                                            |
# | Incantation                   | "1 Vulnerability" (a named count reads as a number); the                  |
# |                               | second option, "or Houdini Key" (`also transforms`), is not in the        |
# |                               | Transform template.                                                       |
# | Mordru                        | "(without its condition)" and "the Transformed card goes                  |
# |                               | to your discard pile" are reminder text.                                  |
# | Shazam! Champion of Magic     | "Revert: If there are no Super Powers in your discard pile → ...": a      |
# |                               | condition has no printed template ("If the number of Super Powers in your |
# |                               | discard pile is 0, revert this card").                                    |
# | Hero Dice – Batman            |                                                                           |
# | Gray Die, Batmobile Marker,   | components: the quote is the rulebook's component list ("7 dice: 3x gray, |
# | Target Marker, Damage Marker, | 4x black", "5 Team markers", ...); they have no abilities.                |
# | Team Marker, Gotham City      |                                                                           |


def printed_texts(folder: Path) -> dict[str, str]:
    """Card name -> the printed text quoted in the comment right above the card."""
    out = {}
    for path in sorted(folder.iterdir()):
        if path.suffix not in (".cards", ".rules"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = CARD.match(line)
            block: list[str] = []
            j = i - 1
            while m and j >= 0 and lines[j].startswith("#"):
                block.insert(0, lines[j][1:].strip())
                j -= 1
            starts = [k for k, b in enumerate(block) if b.startswith('"')]
            if m and starts:
                text = " ".join(block[starts[-1]:])[1:]
                out[m.group(1)] = text.split('"')[0]
    return out


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[\u2014\u2013\u2192-]", " ", text)
    return " ".join(re.sub(r"[^\w\s+]", " ", text).split())


GAMES = sorted(FLOORS)


@pytest.mark.parametrize("game", GAMES)
def test_rendered_text_matches_printed_text(game: str) -> None:
    printed = printed_texts(ROOT / "cardscripts" / game)
    rendered = {c.name: c.text for c in render_program(load(game))}
    matched, mismatches = [], []
    for name, text in printed.items():
        if normalise(rendered.get(name, "")) == normalise(text):
            matched.append(name)
        else:
            mismatches.append(f"{name}\n  printed:  {text}\n  rendered: {rendered.get(name, '')}")
    ratio = len(matched) / len(printed) if printed else 1.0
    print(f"\n{game}: {len(matched)}/{len(printed)} = {ratio:.3f} match the printed text")
    print("\n".join(mismatches))
    assert ratio >= FLOORS[game] - 1e-9
    lost = [n for n in MATCHING if n in printed and n not in matched]
    assert lost == []


#: (game, card, printed wording the rendered text must contain, engine internals it must not):
#: a card reads as printed, not as the marks, variables and events its script resolves with.
LEAKS = [
    ("injustice", "Flying Ground Slam", "If you successfully attacked a foe this turn, +2 Power.", "marked"),
    ("injustice", "Injustice Lex Luthor",
     "First Appearance — Attack: Each player discards a random card. The player(s) who discards the card with "
     "the highest cost gains a Weakness.", "Let M"),
    ("injustice", "Injustice Lex Luthor", "Each player discards", "“discarded”"),
    ("injustice", "Aquaman (Earth-1)", "First Appearance — Attack: Each player reveals a random card",
     "attacked by the nemesis"),
    ("injustice", "Injustice Hawkgirl", "you may put it on top of your deck", "move it to your deck"),
    ("injustice", "Weakness", "Return this card to its stack.", "Weakness Stack"),
    ("justice-league-dark", "Weakness", "return this card to its stack.", "Weakness Stack"),
    ("justice-league-dark", "Mordru", "First Appearance — Attack: Each player gains a Weakness.",
     "attacked by the nemesis"),
    ("justice-league-dark", "Nergal",
     "First Appearance — Attack: Each player discards a random card. Each player who discarded the card with "
     "the highest VP gains a Weakness.", "Let M"),
]


@pytest.mark.parametrize(("game", "card", "wording", "internal"), LEAKS,
                         ids=[f"{g}-{c}-{i}" for g, c, _, i in LEAKS])
def test_no_engine_internals_in_card_text(game: str, card: str, wording: str, internal: str) -> None:
    text = {c.name: c.text for c in render_program(load(game))}[card]
    assert wording in text
    assert internal not in text


# ---------------------------------------------------------------- the generic rules, on a small game
MINI = '''game "Mini"
players 2 to 4
types hero, gadget, super power, artifact
attribute cost = 0
abilities play, guard, ward
printed ward as "Ward: Reveal this card. If you do, {text}"
zone deck: per player
zone hand: per player
zone discard: per player
zone played: per player, play zone, active
zone market: shared
counter power: per player, 0
counter energy: per player, 0..8
card "Spark": gadget

effect draw {N: number}:
  repeat N: move the top card of your deck to your hand
  emit "draw"
effect draw a card:
  draw 1
effect discard a card:
  choose a card from your hand: move it to your discard
effect strike {T: players} {B: block}:
  for each foe in T:
    B
effect volley {B: block}:
  strike each foe: B
effect surge {N: number} {B: block}:
  if your energy >= N: B
effect gain a spark:
  move the top card of the market to your discard
effect destroy {C: cards}:
  for each card in C: move it to the market
effect take {N: number} damage:
  -N power
effect hit {P: players} for {N: number} printed "deal {N} damage to {P}":
  for each foe in P: -N power for them
effect charge {N: number} {B: block} printed "Charge ({N}): {B}":
  if your energy >= N: B
effect seek {T: type} printed "search your deck for a {T}":
  choose a card from your deck with T: move it to your hand
effect cash in this card printed "gain {cost} Energy":
  +(cost of this) energy

turn:
  take actions
'''

RULES = [
    ("play: +2 power; strike target foe: they discard a card", "+2 Power. Strike: Target foe discards a card."),
    ("play: volley: they gain a spark", "Volley: Each foe gains a Spark."),
    ("play: surge 2: draw a card; discard a card", "Surge (2): Draw a card, then discard a card."),
    ("play: you may destroy a card from your hand", "You may destroy a card in your hand."),
    ("play: destroy a card from your hand and your discard", "Destroy a card in your hand or discard."),
    ("play: choose the top card of your deck: move it to your hand",
     "Move the top card of your deck to your hand."),
    ("play: you may choose a hero from the market: destroy it", "You may destroy a Hero in the Market."),
    ("play: +(count all cards you control with gadget) power", "+1 Power for each Gadget you control."),
    ("play: move up to 2 cards from your discard where cost of it <= 4 to your hand",
     "Move up to 2 cards with cost 4 or less from your discard to your hand."),
    ("play: for each foe: they discard a card", "Each foe discards a card."),
    # '+N COUNTER for PLAYERS' changes each one's counter: "+1 Power for each foe" would be
    # the printed wording of +1 Power for you, once per foe (found by a fan expansion's trial)
    ("play: +1 power for each foe", "Each foe gets +1 Power."),
    ("play: +1 power for them", "+1 Power for them."),
    ("play: choose a random card from your hand: take (cost of it) damage",
     "Take damage equal to the cost of a random card in your hand."),
    ("guard: draw 2", "Guard: Draw 2."),
    ('when "draw" during your turn: +1 energy', "When you draw a card during your turn, +1 Energy."),
    ("play:\n    you may discard a card\n    if you do: draw a card\n    otherwise: +1 power",
     "You may discard a card. If you do, draw a card. Otherwise, +1 Power."),
    ("play:\n    you may discard a card\n    if you don't: +1 power",
     "You may discard a card. If you choose not to, +1 Power."),
    ("play:\n    surge 2: draw a card\n    if you don't: +1 power", "Surge (2): Draw a card. Otherwise, +1 Power."),
    ("play: choose the top card of your deck: move it to your hand; discard a card",
     "Move the top card of your deck to your hand. Discard a card."),
    ("play: +(count all cards in your played and your discard with gadget) power",
     "+1 Power for each Gadget you control and in your discard."),
    # printed templates: effects ('effect ... printed "..."') and labels ('printed LABEL as "..."')
    ("play: hit target foe for 2", "Deal 2 damage to target foe."),
    ("play: target foe hits each foe for 1", "Target foe deals 1 damage to each foe."),
    ("play: hit each foe for (count all cards you control with gadget)",
     "Deal 1 damage to each foe for each Gadget you control."),
    ("play: choose a random card from your hand: hit target foe for (cost of it)",
     "Deal damage equal to the cost of a random card in your hand to target foe."),
    ("play: charge 3: draw a card; discard a card", "Charge (3): Draw a card, then discard a card."),
    ('play: seek "artifact"', "Search your deck for an Artifact."),
    ('play: seek "gadget"', "Search your deck for a Gadget."),
    ("play: cash in this card", "Gain 0 Energy."),
    ("ward: nothing", "Ward: Reveal this card."),
    ("ward: draw a card; discard a card", "Ward: Reveal this card. If you do, draw a card and discard a card."),
    ("ward: draw a card; you may discard a card",
     "Ward: Reveal this card. If you do, draw a card, then you may discard a card."),
    # examples/dc-classic-fan: the printed words of the older DC sets
    ("play: put a card from your hand under your deck", "Put a card from your hand on the bottom of your deck."),
    ("play: repeat (count all cards you control with gadget): draw a card", "Draw a card for each Gadget you control."),
    ("play: choose a card from the market where cost of it >= 2 and cost of it <= 3: destroy it",
     "Destroy a card with cost 2 or 3 in the Market."),
    ("play: +(count the top card of your deck with gadget) power", "+1 Power if the top card of your deck is a Gadget."),
    ("play: +(count all cards you played this turn with gadget where it is not this card) power",
     "+1 Power for each Gadget you played this turn other than this card."),
    ("play: for each foe: the player to their left gains a spark", "For each foe: The player on their left gains a Spark."),
    ("play: move a card from the top 3 cards of your deck to your hand",
     "Move a card from among the top 3 cards of your deck to your hand."),
    ("play: if count all cards you played this turn with gadget >= 1: draw a card",
     "If you played a Gadget this turn, draw a card."),
    ("play:\n    choose the top card of your deck:\n      reveal it\n      if it has hero: +2 power",
     "Reveal the top card of your deck. If it is a Hero, +2 Power."),
]


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mini")
    cards = "\n".join(f'card "Card {i}": hero\n  {script}\n' for i, (script, _) in enumerate(RULES))
    (folder / "game.rules").write_text(MINI + "\n" + cards)
    return folder


@pytest.mark.parametrize("i", range(len(RULES)), ids=[r[0].split(":")[1].strip()[:40] for r in RULES])
def test_generic_rules(mini: Path, i: int) -> None:
    cards = {c.name: c for c in render_program(load_program(mini / "game.rules"))}
    assert cards[f"Card {i}"].text == RULES[i][1]


# ---------------------------------------------------------------- the command
def test_cli_table_and_json() -> None:
    runner = CliRunner()
    table = runner.invoke(main, ["render", "injustice"])
    assert table.exit_code == 0 and "Heavy Punch" in table.output
    js = runner.invoke(main, ["render", "injustice", "--format", "json"])
    assert js.exit_code == 0 and '"text": "+1 Power. Attack: Deal 2 damage to target foe."' in js.output
    assert runner.invoke(main, ["render", "injustise"]).exit_code == 2


def test_cli_writes_gallery_and_card_faces(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["render", "injustice", "--html", str(tmp_path / "html"),
                                       "--svg", str(tmp_path / "svg")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "html" / "index.html").read_text()
    assert page.count('<article class="card"') == 33 and "<script>" in page
    assert not re.search(r'(src|href)="(https?:)?//', page)  # no external assets
    faces = sorted((tmp_path / "svg").glob("*.svg"))
    assert len(faces) == 33 and "heavy-punch.svg" in [f.name for f in faces]
    assert (tmp_path / "svg" / "heavy-punch.svg").read_text().startswith("<svg ")


def _chromium() -> str | None:
    return next((p for n in ("chromium", "chromium-browser", "google-chrome") if (p := shutil.which(n))), None)


def _browser(binary: str, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tempfile.mkdtemp(prefix="cardscript-chromium-")
    try:
        return subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                               "--disable-component-update", "--disable-sync", "--no-first-run",
                               f"--user-data-dir={profile}", *args], check=False, capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def test_gallery_in_a_headless_browser(tmp_path: Path) -> None:
    binary = _chromium()
    if binary is None:
        pytest.skip("no chromium binary (apt-get install -y chromium)")
    assert CliRunner().invoke(main, ["render", "injustice", "--html", str(tmp_path)]).exit_code == 0
    page = (tmp_path / "index.html").as_uri()
    shot = tmp_path / "gallery.png"
    _browser(binary, f"--screenshot={shot}", "--window-size=1200,900", page)
    assert shot.exists() and shot.stat().st_size > 0
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the type filter, run by the browser: '#villain' shows only the villains
    dom = _browser(binary, "--dump-dom", page + "#villain").stdout
    shown = re.findall(r'<article class="card" data-types="([^"]*)"(?! style="display: none;")', dom)
    assert shown and all("villain" in t.split("|") for t in shown)

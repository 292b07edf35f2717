"""Variants that compose, mixing sets, card names scoped to their set, and checking past
a syntax error (issue 12, area "variants")."""

from __future__ import annotations

from pathlib import Path

from cardscript.dsl.diagnostics import render
from cardscript.dsl.front.pipeline import check_paths
from cardscript.runtime.agents import make_agents
from cardscript.runtime.engine import Engine


def _game_folder(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


_TINY = {
    "game.rules": 'game "Tiny"\nuses "cards.cards", "more.cards"\nplayers 2 to 2\nturn:\n  take actions\n  drwa 3\n',
    "cards.cards": ('card "Jab": hero\n  play: +1 power\n'
                    'card "Broken" hero cost\n  play: +1 power\n'
                    'card "Hook": hero\n  play: +1 pwer\n'),
    "more.cards": '# a card\ncard "Kick": hero, prcie 3\n',
}


def test_check_reports_every_file_past_a_syntax_error(tmp_path: Path):
    rep = check_paths([str(_game_folder(tmp_path, _TINY))])
    found = sorted((Path(d.span.file).name, d.span.line, d.code) for d in rep.diagnostics if d.span)
    assert found == [("cards.cards", 3, "CS101"), ("cards.cards", 6, "CS201"),
                     ("game.rules", 6, "CS202"), ("more.cards", 2, "CS205")]
    bad = next(d for d in rep.diagnostics if d.code == "CS205")
    assert render(bad, rep.sources).splitlines()[0].endswith(
        "more.cards:2:20: error[CS205]: unknown attribute 'prcie' on card 'Kick'")


def test_each_broken_item_reports_its_own_syntax_error(tmp_path: Path):
    files = dict(_TINY, **{"more.cards": '# a card\ncard "Kick": hero\n  play +1 power\ncard "Duck": hero\n'
                                         'card "Roll": hero,\n'})
    rep = check_paths([str(_game_folder(tmp_path, files))])
    syntax = sorted((Path(d.span.file).name, d.span.line) for d in rep.diagnostics if d.code.startswith("CS10"))
    assert syntax == [("cards.cards", 3), ("more.cards", 3), ("more.cards", 5)]


def test_a_name_the_broken_item_may_define_is_not_reported(tmp_path: Path):
    files = dict(_TINY, **{
        "game.rules": 'game "Tiny"\nuses "cards.cards", "more.cards"\nplayers 2 to 2\nturn:\n'
                      '  take actions\n  move all "Broken" from the box to your hand\n'})
    rep = check_paths([str(_game_folder(tmp_path, files))])
    assert not [d for d in rep.diagnostics if "Broken" in d.message]
    assert {d.code for d in rep.diagnostics} == {"CS101", "CS201", "CS205"}


# ---------------------------------------------------------------- JLD-16: mixing into Justice League Dark
_RULEBOOK_ENDS = {"the last Nemesis was defeated", "the Line-Up cannot be refilled"}


def test_mix_into_justice_league_dark_uses_its_mixing_rules():
    from cardscript.dsl.front.variants import mix_scripts

    rules, cards = mix_scripts("justice-league-dark", ["injustice"])
    assert [p.name for p in rules] == ["mixing.variant"] and rules[0].parent.parent.name == "justice-league-dark"
    assert {p.name for p in cards} == {"cards.cards", "characters.cards"}


def test_mixed_justice_league_dark_games_end_by_the_rulebook():
    import warnings

    import cardscript

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cardscript.CompileWarning)
        d = cardscript.compile_game("justice-league-dark", mix=["injustice"])
    for players in (2, 3, 4):
        for seed in (1, 2):  # the heuristic bot: how a game ends is the rules', not the bot's (greedy took 24 s)
            result = cardscript.play_game(d, players=players, agents=["heuristic"] * players, seed=seed)
            assert result.reason in _RULEBOOK_ENDS, (players, seed, result.reason)
    e = Engine(d, 3, make_agents(["greedy"], 3), 1)
    e.setup()
    g = e.game
    deck = [c for z in ("main-deck", "line-up") for c in g.slots[g.slot(d.zone(z).index, 0)]]
    assert len(deck) == 150  # 107 of its own and 46 of Injustice's, kept at 150
    assert {g.card_name(c) for c in deck} & {"Sword and Shield", "Cyborg (Earth-1)"}


# ---------------------------------------------------------------- a mixed-in card brings what it needs
def _mix(game: str, other: str):
    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.dsl.front.variants import mix_scripts

    rules, cards = mix_scripts(game, [other])
    d, warnings, program = compile_game(game, rules, cards)
    return d, {w.message.split("'")[1]: w for w in warnings if w.code == "CS220"}


def test_nergal_comes_into_injustice_with_its_reward():
    d, left_out = _mix("injustice", "justice-league-dark")
    nergal = next(c for c in d.cards if c.name == "Nergal")
    assert "reward" in nergal.abilities and "reward" in d.labels
    assert "Nergal" not in left_out


def test_a_card_that_cannot_come_says_what_is_missing_and_where_it_is_defined():
    _, left_out = _mix("injustice", "justice-league-dark")
    mordru = left_out["Mordru"].message
    assert mordru.startswith("card 'Mordru' is left out: it needs effect 'transform {C: cards} into {Z: zone}' "
                             "(cardscripts/justice-league-dark/game.rules:")
    assert "which needs zone 'score-pile' (Justice League Dark, cardscripts/justice-league-dark/game.rules:26), " \
           "which Injustice does not have" in mordru
    shield = left_out["Magical Shield"].message
    assert "ability label 'ongoing defense'" in shield and "which nothing in Injustice resolves" in shield
    assert "card type 'transformed'" in left_out["Raeppasid"].message
    assert "zone 'mystic-ritual-stack'" in left_out["Mystic Ritual"].message


_FAN_RULES = '''game "Fan Set"
uses "dc-core", "fan.cards"
players 2 to 4
zone fan-pile: shared, public
turn:
  take actions

# Fan Set's own keyword: it only needs what every DC set has.
effect rummage {N: number}:
  draw N
  discard a card

effect bury {C: cards}:
  move C to the fan-pile
'''
_FAN_CARDS = '''card "Rummager": hero, cost 3, vp 1
  play: rummage 2

card "Gravedigger": hero, cost 4, vp 1
  play: bury a card from your hand
'''


def _fan_set(tmp_path: Path) -> Path:
    folder = tmp_path / "fan"
    folder.mkdir()
    (folder / "game.rules").write_text(_FAN_RULES)
    (folder / "fan.cards").write_text(_FAN_CARDS)
    return folder


def test_a_mixed_card_takes_an_effect_of_its_set_but_never_a_zone(tmp_path: Path):
    fan = _fan_set(tmp_path)
    d, left_out = _mix("injustice", str(fan))
    rummager = next(c for c in d.cards if c.name == "Rummager")
    assert "rummage" in rummager.keywords and "Rummager" not in left_out
    why = left_out["Gravedigger"].message
    assert why.startswith("card 'Gravedigger' is left out: it needs effect 'bury {C: cards}' (")
    assert "fan/game.rules:13), which needs zone 'fan-pile' (Fan Set, " in why and "fan/game.rules:4)" in why


def test_a_mixed_card_plays_the_effect_it_took(tmp_path: Path):
    fan = _fan_set(tmp_path)
    d, _ = _mix("injustice", str(fan))
    e = Engine(d, 2, make_agents(["greedy"], 2), 1)
    e.setup()
    g = e.game
    hand = g.slots[g.slot(d.zone("hand").index, 0)]
    before = len(hand)
    rummager = next(c for c in range(len(g.card_type)) if g.card_name(c) == "Rummager")
    g.move(rummager, g.slot(d.zone("hand").index, 0))
    from cardscript.runtime.context import Ctx

    next(c for c in d.cards if c.name == "Rummager").abilities["play"].run(g, Ctx(0))
    assert len(hand) == before + 1 + 2 - 1  # Rummager, then draw 2, discard 1


# ---------------------------------------------------------------- card names scoped to their set
_TOUR = Path(__file__).resolve().parent.parent / "examples" / "language-tour"


def _with_tour():
    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.dsl.tools.manifest import expansion_scripts

    return compile_game("injustice", expansion_scripts(_TOUR))[0]


def test_an_expansion_may_print_a_name_its_game_uses():
    d = _with_tour()
    batmen = {c.name: c for c in d.cards if (c.printed or c.name) == "Batman"}
    assert set(batmen) == {"Batman [injustice]", "Batman [language-tour]"}
    assert "character" in batmen["Batman [injustice]"].types and "hero" in batmen["Batman [language-tour]"].types
    plain = cardscript_compile("injustice")
    assert "Batman" in {c.name for c in plain.cards}  # alone, the game's card keeps its name


def cardscript_compile(game: str):
    from cardscript.dsl.front.pipeline import compile_game

    return compile_game(game)[0]


def test_logs_show_the_qualified_name_only_where_two_cards_share_it():
    import cardscript

    d = _with_tour()
    names: set[str] = set()
    for seed in (1, 2, 3):
        log = cardscript.play_game(d, players=2, agents=["heuristic", "heuristic"], seed=seed).log
        names |= {e["card"] for e in log if isinstance(e.get("card"), str)}
    assert "Batman" not in names and names & {"Batman [injustice]", "Batman [language-tour]"}
    assert "Light Punch" in names  # a name no other set uses is shown as printed


def test_name_of_a_card_is_its_printed_name():
    # Injustice's Super Move "The Dark Knight" belongs to the Character whose name is
    # "Batman": still found when the name is shared (setup 1, "character of it == name of ...")
    d = _with_tour()
    for seed in range(12):
        e = Engine(d, 2, make_agents(["greedy"], 2), seed)
        e.setup()
        g = e.game
        for p in range(2):
            character = g.card_name(g.slots[g.slot(d.zone("character").index, p)][-1])
            moves = [g.card_name(c) for c in g.slots[g.slot(d.zone("super-move").index, p)]]
            if character == "Batman [injustice]":
                assert moves == ["The Dark Knight"]
                return
    raise AssertionError("no seed dealt Batman")


def _fan_game(tmp_path: Path, body: str) -> list:
    from cardscript.dsl.front.lower import compile_program

    (tmp_path / "pack.cards").write_text('expansion "Pack"\nuses "injustice"\n\n' + body)
    from cardscript.dsl.front.loader import load_program, resolve_game

    return compile_program(load_program(resolve_game("injustice"), [tmp_path / "pack.cards"]))[1]


def test_a_name_means_the_card_of_the_scripts_own_set_first(tmp_path: Path):
    diags = _fan_game(tmp_path, 'card "Batman": hero, cost 2\n\n'
                                'card "Signal": equipment, cost 1\n  play: put 1 "Batman" from the line-up into your hand\n')
    assert not [d for d in diags if d.severity == "error"]


def test_a_name_two_other_sets_share_must_be_qualified(tmp_path: Path):
    from cardscript.dsl.harness.scenario import run_scenario

    scenario = tmp_path / "whose.scenario"
    scenario.write_text('scenario "Whose Weakness?"\nuses "injustice"\nmix "justice-league-dark"\nplayers 2\n\n'
                        'expect count all "Weakness" in the box == 16\n')
    (err,) = [d for d in run_scenario(scenario).diagnostics if d.severity == "error"]
    assert (err.code, err.span.line, err.span.column) == ("CS222", 6, 14)
    assert err.message == "two cards are named 'Weakness', neither of this script's set"
    assert err.hint == 'say which: "Weakness [injustice]" or "Weakness [justice-league-dark]"'


def test_one_set_may_not_print_one_name_twice(tmp_path: Path):
    diags = _fan_game(tmp_path, 'card "Kick": hero, cost 2\ncard "Kick": hero, cost 3\n')
    (dup,) = [d for d in diags if d.code == "CS203"]
    assert dup.span.line == 5 and "pack.cards:4" in dup.hint


def test_a_scenario_that_mixes_must_use_a_game(tmp_path: Path):
    from cardscript.dsl.harness.scenario import run_scenario

    scenario = tmp_path / "lost.scenario"
    scenario.write_text('scenario "Lost"\nmix "injustice"\nplayers 2\n')
    (err,) = run_scenario(scenario).diagnostics
    assert (err.code, err.span.line, err.message) == ("CS207", 2, "a scenario with a set mixed in must use a game")
    scenario.write_text('scenario "Lost"\nuses "injustice"\nmix "injustise"\nplayers 2\n')
    (err,) = run_scenario(scenario).diagnostics
    assert (err.code, err.span.line, err.message) == ("CS002", 3, "unknown game 'injustise'")

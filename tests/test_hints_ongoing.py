"""CS501 on the verb of an ongoing trigger (a fan expansion's bug report): 'ongoing: when
you gian a hero: ...' and 'the first time you plya a villain ...' were accepted silently
and never fired, while a card's 'when "gian"' was CS501 with "did you mean 'gain'?"."""

from __future__ import annotations

from pathlib import Path

from snippets import check_pack as _diags


ONGOING = ('card "A": hero, cost 3, vp 1\n'
           '  ongoing: the first time you plya a villain during each of your turns: draw a card\n'
           '\n'
           'card "B": hero, cost 3, vp 1\n'
           '  ongoing: when you gian a hero: draw a card\n')


def test_a_misspelt_verb_in_an_ongoing_trigger_is_cs501_with_did_you_mean(tmp_path: Path) -> None:
    # was: no diagnostic at all (the trigger never fired), while 'when "gian"' was CS501
    found = [d for d in _diags(tmp_path, ONGOING) if d[0] == "CS501"]
    assert found == [
        ("CS501", 5, 31, "no rule or effect emits 'plya': this trigger never fires", "did you mean 'play'?"),
        ("CS501", 8, 21, "no rule or effect emits 'gian': this trigger never fires", "did you mean 'gain'?"),
    ]


def test_ongoing_triggers_on_emitted_events_are_clean(tmp_path: Path) -> None:
    fixed = ONGOING.replace("plya", "play").replace("gian", "gain")
    assert [d for d in _diags(tmp_path, fixed) if d[0] == "CS501"] == []


def test_the_verb_is_found_after_you_even_when_it_is_a_word_of_the_form(tmp_path: Path) -> None:
    # 'time' is also a word of 'the first time you ...': the caret goes under the verb
    text = 'card "A": hero, cost 3, vp 1\n  ongoing: the first time you time a villain each turn: draw a card\n'
    assert [d[:3] for d in _diags(tmp_path, text) if d[0] == "CS501"] == [("CS501", 5, 31)]

"""``after effect PATTERN: body`` (docs/language.md, "after effect"): an expansion adds
steps at the end of an effect a script it uses defines, without replacing it; several
run in the order the scripts are read, and they follow a variant's replacement."""

from __future__ import annotations

from pathlib import Path

from snippets import compile_errors, scenario

HEAD = 'scenario "t"\nuses "injustice"{more}\nplayers 2\nseed 1\n\n'
DRAW_ONE = "do:\n  move all cards from your hand to the box\n  draw a card\n"


def _pack(tmp_path: Path, name: str, body: str) -> str:
    (tmp_path / name).write_text(f'expansion "{name}"\nuses "injustice"\n{body}', encoding="utf-8")
    return name


def test_an_after_effect_runs_at_the_end_of_the_effect(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "a.cards", "after effect draw a card:\n  +2 power\n")
    res = scenario(tmp_path, HEAD.format(more=f', "{pack}"') + DRAW_ONE +
                   "expect count all cards in your hand == 1\nexpect your power == 2\n")
    assert res.passed, [d.message for d in res.diagnostics]


def test_after_effects_run_in_the_order_the_scripts_are_read(tmp_path: Path) -> None:
    a = _pack(tmp_path, "a.cards", "after effect draw a card:\n  set your power to 5\n")
    b = _pack(tmp_path, "b.cards", "after effect draw a card:\n  +1 power\n")
    ab = scenario(tmp_path, HEAD.format(more=f', "{a}", "{b}"') + DRAW_ONE + "expect your power == 6\n")
    assert ab.passed, [d.message for d in ab.diagnostics]
    ba = scenario(tmp_path, HEAD.format(more=f', "{b}", "{a}"') + DRAW_ONE + "expect your power == 5\n")
    assert ba.passed, [d.message for d in ba.diagnostics]


def test_an_after_effect_follows_a_variants_replacement(tmp_path: Path) -> None:
    (tmp_path / "v.variant").write_text(
        'variant "Two"\nuses "injustice"\neffect draw a card replaces:\n  draw 2\n', encoding="utf-8")
    pack = _pack(tmp_path, "a.cards", "after effect draw a card:\n  +1 power\n")
    res = scenario(tmp_path, HEAD.format(more=f', "{pack}", "v.variant"') + DRAW_ONE +
                   "expect count all cards in your hand == 2\nexpect your power == 1\n")
    assert res.passed, [d.message for d in res.diagnostics]


def test_without_after_the_same_pattern_is_a_redefinition(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, 'expansion "X"\nuses "injustice"\neffect draw a card:\n  +2 power\n')
    assert [d.code for d in errors] == ["CS203"]


def test_an_after_effect_must_name_an_effect_a_script_defines(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, "after effect draw a crad:\n  +2 power\n")
    assert [d.code for d in errors] == ["CS201"]
    assert "defined by no script" in errors[0].message and "draw a card" in (errors[0].hint or "")
    assert errors[0].span is not None and (errors[0].span.line, errors[0].span.column) == (1, 1)


def test_an_after_effect_names_the_effects_parameters(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, "after effect draw {M: number}:\n  +1 power\n")
    assert [d.code for d in errors] == ["CS201"]
    assert "'draw {N: number}'" in errors[0].message and "after effect draw {N: number}:" in (errors[0].hint or "")


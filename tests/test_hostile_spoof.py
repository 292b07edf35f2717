"""A hostile trial of expansions and batch options (fix B): a fan card named like a
qualified name took over its game's card, a duplicate card of a headerless expansion file
vanished, the last seed of a batch could pass 2^63 - 1 (exit 3), ``--jobs`` had no bound,
and two output options could name one file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli import main
from cardscript.runtime.errors import MAX_SEED


def _run(*argv: str) -> object:
    return CliRunner().invoke(main, list(argv))


def _expansion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> Path:
    monkeypatch.chdir(tmp_path)
    r = _run("new", "expansion", name, "--for", "injustice")
    assert r.exit_code == 0, r.output
    return tmp_path / name


def _cards(name: str) -> list[dict[str, object]]:
    r = _run("cards", name, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# ---------------------------------------------------------------- 1. a card named like a qualified name
SPOOF = '''expansion "Hx"
uses "injustice"
card "Heavy Punch [injustice]": hero, copies 1
  play: +7 power
card "Heavy Punch": hero, copies 1
  play: +5 power
'''


def test_a_card_named_with_a_set_qualifier_is_cs209_at_its_name(tmp_path, monkeypatch) -> None:
    folder = _expansion(tmp_path, monkeypatch, "spoof")
    (folder / "cards.cards").write_text(SPOOF, encoding="utf-8")
    r = _run("check", "spoof", "--format", "json")
    assert r.exit_code == 1, r.output
    diags = [d for d in json.loads(r.stdout) if d["code"] == "CS209"]
    assert len(diags) == 1, r.output
    d = diags[0]
    assert "qualifier" in d["message"] and d["hint"]
    assert (d["span"]["line"], d["span"]["column"]) == (3, 6)  # the quoted name
    assert d["span"]["file"].endswith("cards.cards")
    text = _run("check", "spoof")
    assert "^^^" in text.output and "Traceback" not in text.output


def test_an_expansion_cannot_replace_its_games_card(tmp_path, monkeypatch) -> None:
    """'cards' and 'play' with the spoof refuse it (before: Injustice's Heavy Punch was the fan's)."""
    folder = _expansion(tmp_path, monkeypatch, "spoof")
    (folder / "cards.cards").write_text(SPOOF, encoding="utf-8")
    for argv in (["cards", "spoof", "--format", "json"], ["play", "injustice", "--with", "spoof", "-q"]):
        r = _run(*argv)
        assert r.exit_code == 1 and "CS209" in r.output, (argv, r.output)
    # the fan's own Heavy Punch, without the spoof, is a second card beside the game's
    (folder / "cards.cards").write_text(SPOOF.replace('card "Heavy Punch [injustice]": hero, copies 1\n'
                                                      "  play: +7 power\n", ""), encoding="utf-8")
    own = next(c for c in _cards("injustice") if c["name"] == "Heavy Punch")
    punches = {c["name"]: c["text"] for c in _cards("spoof") if "Heavy Punch" in str(c["name"])}
    assert punches == {"Heavy Punch [injustice]": own["text"], "Heavy Punch [spoof]": "play: +5 power"}


# ---------------------------------------------------------------- 2. a headerless file of an expansion
def test_a_duplicate_card_in_a_headerless_expansion_file_is_cs203(tmp_path, monkeypatch) -> None:
    folder = _expansion(tmp_path, monkeypatch, "hd")
    (folder / "extra.cards").write_text('card "Hd Sample": villain, cost 9, copies 5\n  play: +9 power\n',
                                        encoding="utf-8")
    r = _run("check", "hd", "--format", "json")
    assert r.exit_code == 1, r.output
    diags = json.loads(r.stdout)
    assert [(d["code"], d["span"]["file"].endswith("extra.cards")) for d in diags] == [("CS203", True)], diags
    assert "defined twice" in diags[0]["message"] and "cards.cards:" in diags[0]["hint"]


def test_a_headerless_card_of_the_games_name_is_a_second_card(tmp_path, monkeypatch) -> None:
    """As with an 'expansion' header: the fan's card beside the game's, neither dropped."""
    folder = _expansion(tmp_path, monkeypatch, "hd")
    (folder / "extra.cards").write_text('card "Heavy Punch": villain, cost 9, copies 5\n  play: +9 power\n',
                                        encoding="utf-8")
    assert _run("check", "hd").exit_code == 0
    names = {c["name"] for c in _cards("hd")}
    assert {"Heavy Punch [injustice]", "Heavy Punch [hd]"} <= names


# ---------------------------------------------------------------- 3. the last seed of a batch
@pytest.mark.parametrize(("argv", "games"), [
    (["simulate", "injustice", "-s", str(MAX_SEED), "-n", "3"], 3),
    (["compare", "injustice", "--games", "2", "--seed", str(MAX_SEED)], 2),
    (["ladder", "injustice", "-n", "2", "--seed", str(MAX_SEED), "--cost-games", "0"], 2),
])
def test_a_batch_past_the_largest_seed_is_a_usage_error(argv, games) -> None:
    r = _run(*argv)
    assert r.exit_code == 2, r.output
    assert "--seed" in r.output and f"at most {MAX_SEED - games + 1}" in r.output, r.output


def test_a_batch_ending_at_the_largest_seed_plays() -> None:
    r = _run("simulate", "injustice", "-s", str(MAX_SEED - 1), "-n", "2", "-j", "1", "--json")
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------- 4. --jobs
def test_jobs_are_capped_per_core(monkeypatch) -> None:
    from cardscript.dsl.cli.common import JOBS_PER_CORE, capped_jobs

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert capped_jobs(None) == 2
    assert capped_jobs(3) == 3
    assert capped_jobs(200) == 2 * JOBS_PER_CORE


@pytest.mark.parametrize("argv", [
    ["simulate", "injustice", "-n", "2", "-j", "200", "--json"],
    ["ladder", "injustice", "-n", "2", "-j", "200", "--bots", "random,greedy", "--cost-games", "0"],
])
def test_too_many_jobs_are_capped_with_a_note(argv, monkeypatch) -> None:
    from cardscript.dsl.cli.common import JOBS_PER_CORE

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    r = _run(*argv)
    assert r.exit_code == 0, r.output
    assert f"--jobs 200 is more than {JOBS_PER_CORE} processes per core" in r.stderr
    assert f"using {2 * JOBS_PER_CORE}" in r.stderr


# ---------------------------------------------------------------- 5. two outputs, one file
@pytest.fixture
def results(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    r = _run("simulate", "injustice", "-n", "2", "-j", "1", "--out", "r.jsonl", "--json")
    assert r.exit_code == 0, r.output
    return tmp_path / "r.jsonl"


@pytest.mark.parametrize("argv", [
    ["--csv", "o.x", "--json", "o.x"],
    ["--csv", "o.x", "--json", "./o.x"],
    ["--csv", "-", "--json", "-"],
])
def test_analyze_refuses_two_outputs_to_one_file(results, argv) -> None:
    r = _run("analyze", str(results), *argv)
    assert r.exit_code == 2 and "give each its own file" in r.output, r.output
    assert not Path("o.x").exists()


def test_analyze_refuses_html_and_csv_in_one_file(results) -> None:
    os.mkdir("page")
    r = _run("analyze", str(results), "--csv", "page/index.html", "--html", "page")
    assert r.exit_code == 2 and "give each its own file" in r.output, r.output


def test_compare_refuses_two_outputs_to_one_file(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = _run("compare", "injustice", "--games", "2", "--json", "same.out", "--csv", "same.out")
    assert r.exit_code == 2 and "give each its own file" in r.output, r.output
    assert not (tmp_path / "same.out").exists()


@pytest.mark.parametrize("option", ["--csv", "--json", "--html"])
def test_analyze_refuses_an_empty_output_path(results, option) -> None:
    r = _run("analyze", str(results), option, "")
    assert r.exit_code == 2 and "empty path" in r.output, r.output


@pytest.mark.parametrize("option", ["--csv", "--json"])
def test_compare_refuses_an_empty_output_path(option) -> None:
    r = _run("compare", "injustice", "--games", "2", option, "")
    assert r.exit_code == 2 and "empty path" in r.output, r.output


def test_with_names_scripts_or_folders_and_a_variant_is_given_once() -> None:
    """A hostile trial: --with README.md was parsed as a script (CS101 at its first line),
    --with a .scenario changed the game, and --variant short twice was taken silently."""
    root = Path(__file__).resolve().parent.parent
    runner = CliRunner()
    for path in ("README.md", "tests/scenarios/injustice/INJ-04-end-of-turn-order.scenario"):
        res = runner.invoke(main, ["play", "injustice", "--with", str(root / path), "-q"])
        assert res.exit_code == 2 and "is not a script: --with reads" in res.output, res.output
    res = runner.invoke(main, ["play", "injustice", "--variant", "short", "--variant", "short", "-q"])
    assert res.exit_code == 2 and "short is given twice" in res.output, res.output

"""Output options never overwrite an input of the command (a script it loaded, a results
file it read) nor an existing script or manifest: a usage error (exit 2) that names the
option, with nothing written. And ``cards``/``compile`` take an expansion's folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main

RUN = CliRunner()


def run(*args: str, cwd: Path | None = None):
    if cwd is None:
        return RUN.invoke(main, list(args), catch_exceptions=False)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return RUN.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.fixture
def fanx(tmp_path: Path) -> Path:
    """An expansion package of Injustice made by 'cardscript new expansion'."""
    folder = tmp_path / "fanx"
    r = run("new", "expansion", str(folder), "--for", "injustice")
    assert r.exit_code == 0, r.output
    return folder


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """A small results file of 'simulate --out'."""
    out = tmp_path / "s.jsonl"
    r = run("simulate", "injustice", "-n", "2", "-p", "2", "-j", "1", "--json", "--out", str(out))
    assert r.exit_code == 0, r.output
    return out


def refused(r, option: str) -> None:
    assert r.exit_code == 2, r.output
    assert option in r.output and "would overwrite" in r.output and "choose another file" in r.output
    assert "Traceback" not in r.output


def no_leftovers(folder: Path) -> None:
    assert not [p for p in folder.rglob(".*.tmp")], "a temp file was left behind"


# ---------------------------------------------------------------- each output option
def test_compile_output_onto_the_compiled_script(fanx):
    script = fanx / "cards.cards"
    before = script.read_bytes()
    r = run("compile", str(script), "-o", str(script))
    refused(r, "-o")
    assert "input script" in r.output
    assert script.read_bytes() == before
    no_leftovers(fanx)


def test_play_log_onto_an_expansion_script(fanx):
    script = fanx / "cards.cards"
    before = script.read_bytes()
    r = run("play", "injustice", "--players", "2", "--seed", "1", "-q", "--with", str(fanx), "--log", str(script))
    refused(r, "--log")
    assert script.read_bytes() == before
    assert "Final scores" not in r.output  # refused before the game, not after it
    no_leftovers(fanx)


def test_play_log_for_onto_an_expansion_script(fanx):
    script = fanx / "cards.cards"
    before = script.read_bytes()
    r = run("play", "injustice", "--players", "2", "--seed", "1", "-q", "--with", str(fanx),
            "--log-for", "1", str(script))
    refused(r, "--log-for")
    assert script.read_bytes() == before
    assert "Final scores" not in r.output


def test_play_log_onto_a_loaded_script_of_any_suffix(tmp_path, fanx):
    """The script was read by the program (no protected suffix: only its path tells). --with
    takes scripts by their suffix, as 'uses' does: the .txt file is read through a link."""
    script = tmp_path / "exp.txt"
    script.write_text((fanx / "cards.cards").read_text().replace("Fanx Sample", "Txt Sample"))
    (tmp_path / "exp.cards").symlink_to(script)
    before = script.read_bytes()
    r = run("play", "injustice", "-p", "2", "-q", "--with", str(tmp_path / "exp.cards"), "--log", str(script))
    refused(r, "--log")
    assert "input script" in r.output
    assert script.read_bytes() == before


def test_simulate_out_onto_an_expansion_script(fanx):
    script = fanx / "cards.cards"
    before = script.read_bytes()
    r = run("simulate", "injustice", "-n", "2", "-p", "2", "-j", "1", "--json", "--with", str(fanx),
            "--out", str(script))
    refused(r, "--out")
    assert script.read_bytes() == before
    assert not (fanx / "cards.cards.partial").exists()


@pytest.mark.parametrize("option", ["--csv", "--json"])
def test_analyze_output_onto_its_results(results, option):
    before = results.read_bytes()
    r = run("analyze", str(results), option, str(results))
    refused(r, option)
    assert "input results file" in r.output
    assert results.read_bytes() == before
    no_leftovers(results.parent)


# ---------------------------------------------------------------- same file by another name
def test_analyze_output_through_a_link_and_a_relative_path(results):
    link = results.parent / "link.jsonl"
    link.symlink_to(results.name)
    before = results.read_bytes()
    r = run("analyze", str(link), "--json", str(results))  # the input is read through a link
    refused(r, "--json")
    sub = results.parent / "sub"
    sub.mkdir()
    r = run("analyze", "s.jsonl", "--csv", "./sub/../s.jsonl", cwd=results.parent)
    refused(r, "--csv")
    assert results.read_bytes() == before


def test_log_onto_a_script_loaded_through_a_linked_folder(tmp_path, fanx):
    linked = tmp_path / "linked"
    linked.symlink_to(fanx, target_is_directory=True)
    script = fanx / "cards.cards"
    before = script.read_bytes()
    r = run("play", "injustice", "-p", "2", "-q", "--with", str(linked), "--log-for", "2", str(script))
    refused(r, "--log-for")
    assert script.read_bytes() == before


# ---------------------------------------------------------------- protected files
@pytest.mark.parametrize("name", ["other.rules", "other.cards", "other.variant", "other.scenario",
                                  "cardscript.toml"])
def test_an_existing_script_or_manifest_is_never_an_output(tmp_path, name):
    """Not an input of the command, but a script all the same."""
    target = tmp_path / name
    target.write_text("# keep me\n")
    r = run("compile", "injustice", "-o", str(target))
    refused(r, "-o")
    assert target.read_text() == "# keep me\n"
    no_leftovers(tmp_path)


def test_refused_then_a_fresh_file_and_an_earlier_output_are_written(tmp_path, fanx):
    script = fanx / "cards.cards"
    before = script.read_bytes()
    refused(run("play", "injustice", "-p", "2", "-q", "--with", str(fanx), "--log", str(script)), "--log")
    log = tmp_path / "game.jsonl"
    for _ in range(2):  # a new file, then the previous log replaced: as before
        r = run("play", "injustice", "-p", "2", "-q", "--with", str(fanx), "--log", str(log))
        assert r.exit_code == 0, r.output
        assert json.loads(log.read_text().splitlines()[0])["t"] == "header"
    fresh = tmp_path / "new.cards"  # a script name that does not exist yet is a fresh output
    r = run("compile", "injustice", "-o", str(fresh))
    assert r.exit_code == 0, r.output
    assert json.loads(fresh.read_text())
    assert script.read_bytes() == before


# ---------------------------------------------------------------- expansion folders
def test_cards_and_compile_take_an_expansion_folder(fanx):
    r = run("cards", str(fanx), "--format", "json")
    assert r.exit_code == 0, r.output
    names = {row["name"] for row in json.loads(r.output)}
    assert "Fanx Sample" in names and "Light Punch" in names  # the expansion's card and its game's
    assert "CS207" not in r.output
    r = run("compile", str(fanx))
    assert r.exit_code == 0, r.output
    ir = json.loads(r.output)
    assert "Fanx Sample" in json.dumps(ir)


def test_expansion_folder_without_manifest(fanx):
    (fanx / "cardscript.toml").unlink()
    r = run("cards", str(fanx), "--format", "json")
    assert r.exit_code == 0, r.output
    assert "Fanx Sample" in {row["name"] for row in json.loads(r.output)}


def test_expansion_folder_with_a_broken_manifest(fanx):
    (fanx / "cardscript.toml").write_text('name = "fanx"\n')
    r = run("cards", str(fanx))
    assert r.exit_code == 1
    assert "CS207" not in r.output and "cardscript.toml" in r.output

"""A demanding new user's review: the mistakes a stranger's downloaded expansion makes,
each answered with its line, column, caret and a hint that says what to type instead."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import CompileError, Diagnostic, render
from cardscript.dsl.front.parse import parse


def _one_error(text: str) -> Diagnostic:
    with pytest.raises(CompileError) as info:
        parse(text, "x.cards")
    (d,) = info.value.diagnostics
    return d


@pytest.mark.parametrize(("text", "line", "column", "above"), [
    # the over-indented line is the third, after a line that opens no block
    ('card "A": hero\n  play: +1 power\n   draw a card\n', 3, 4, 2),
    ('card "A": hero\n  play:\n    +1 power\n      draw a card\n', 4, 7, 4),
    ('card "A": hero\n  play: +1 power\n\n  # a comment\n     draw a card\n', 5, 6, 2),
])
def test_an_unexpected_indent_points_at_the_indented_line(text: str, line: int, column: int, above: int) -> None:
    d = _one_error(text)
    assert d.code == "CS103" and d.span is not None
    assert (d.span.line, d.span.column) == (line, column)  # it was the line before, at column 1
    assert f"the line above by {above}" in d.message
    assert d.hint is not None and f"indent it by {above}" in d.hint and "':'" in d.hint


@pytest.mark.parametrize(("char", "name", "plain"), [
    ("\u043e", "CYRILLIC SMALL LETTER O", "'o'"),
    ("\u201c", "LEFT DOUBLE QUOTATION MARK", "'\"'"),
    ("\u037e", "GREEK QUESTION MARK", "';'"),
    ("\u2212", "MINUS SIGN", "'-'"),
    ("\uff12", "FULLWIDTH DIGIT TWO", "'2'"),
    ("\u00a0", "NO-BREAK SPACE", "a plain space"),
    ("\u200b", "ZERO WIDTH SPACE", "delete it"),
])
def test_a_look_alike_character_is_named_with_what_to_type(char: str, name: str, plain: str) -> None:
    d = _one_error(f'card "A": hero\n  play: +1 p{char}wer\n')
    assert d.code == "CS101" and d.span is not None and (d.span.line, d.span.column) == (2, 13)
    assert name in d.message and f"U+{ord(char):04X}" in d.message
    assert d.hint is not None and plain in d.hint
    assert "^" in render(d, {"x.cards": f'card "A": hero\n  play: +1 p{char}wer\n'})


# ---------------------------------------------------------------- commands
def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("command", ["simulate", "compare", "ladder"])
def test_a_games_count_past_the_limit_is_a_usage_error_not_a_full_memory(command: str) -> None:
    # 10**21 games once made simulate build its list of seeds until the memory was full
    r = _cli(command, "injustice", "-n", "999999999999999999999")
    assert r.exit_code == 2 and "1<=x<=10000000" in r.output, r.output


def test_a_batch_whose_every_game_failed_says_so_instead_of_tables_of_zeros(tmp_path: Path) -> None:
    (tmp_path / "boom.cards").write_text(
        'expansion "Boom"\nuses "injustice"\n\ncard "Boom": hero, cost 0, vp 1, copies 30\n'
        '  play: emit "boom" for you\n  when "boom": emit "boom" for you\n', encoding="utf-8")
    r = _cli("simulate", "injustice", "-n", "2", "-j", "1", "--keep-going", "--with", str(tmp_path / "boom.cards"))
    assert r.exit_code == 1, r.output
    assert "no game of the 2 ran to its end" in r.output and "2 game(s) failed" in r.output
    assert "turns (mean / max)" not in r.output  # it read "0 / 0", as if games had 0 turns


# ---------------------------------------------------------------- uses and manifests
def _expansion(tmp_path: Path, uses: str, game: str = "injustice") -> Path:
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "cardscript.toml").write_text(f'name = "pack"\nversion = "1.0.0"\ngame = "{game}"\n', encoding="utf-8")
    (folder / "x.cards").write_text(f'expansion "Pack"\nuses {uses}\n\ncard "A": hero, cost 0\n  play: +1 power\n',
                                    encoding="utf-8")
    return folder


@pytest.mark.parametrize(("uses", "game", "column", "second"), [
    ('"injustice", "justice-league-dark"', "injustice", 19, "justice-league-dark"),
    ('"injustice"', "justice-league-dark", 6, "injustice"),  # the manifest names another game
])
def test_a_second_game_is_one_cs005_at_its_uses_not_a_flood_in_the_built_in_scripts(
        tmp_path: Path, uses: str, game: str, column: int, second: str) -> None:
    folder = _expansion(tmp_path, uses, game)
    r = _cli("check", str(folder))
    assert r.exit_code == 1, r.output
    assert f"x.cards:2:{column}: error[CS005]: '{second}' is a second game: this program's game is" in r.output
    assert "1 error(s)" in r.output and "CS203" not in r.output  # it was 18 CS203 in cardscripts/


def test_the_built_in_game_itself_named_again_is_no_second_game(tmp_path: Path) -> None:
    r = _cli("check", str(_expansion(tmp_path, '"injustice", "dc-core"')))
    assert r.exit_code == 0, r.output


def test_a_bare_name_of_a_folder_beside_the_script_says_how_to_name_it(tmp_path: Path) -> None:
    folder = _expansion(tmp_path, '"injustice", "extra"')
    (folder / "extra").mkdir()
    r = _cli("check", str(folder))
    assert r.exit_code == 1
    assert "x.cards:2:19: error[CS001]: no built-in library 'extra'" in r.output  # at its string, not column 1
    assert 'write "extra/"' in r.output


def test_a_manifest_byte_that_is_not_utf8_is_given_by_line_and_column(tmp_path: Path) -> None:
    folder = _expansion(tmp_path, '"injustice"')
    (folder / "cardscript.toml").write_bytes(b'name = "pack"\nversion = "1.0.0"\ngame = "injustice"\n\xff\n')
    r = _cli("check", str(folder))
    assert r.exit_code == 1
    assert "cardscript.toml:4:1: error[CS001]" in r.output and "save cardscript.toml as UTF-8" in r.output


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_an_expansion_folder_given_as_the_game_says_how_to_play_it(tmp_path: Path, command: str) -> None:
    folder = _expansion(tmp_path, '"injustice"')
    r = _cli(command, str(folder))
    assert r.exit_code == 1
    assert f"is an expansion: play it with its game, 'cardscript play injustice --with {folder}'" in r.output


def test_the_title_of_the_final_scores_is_one_line_on_an_80_column_terminal() -> None:
    # README's first command: the title was wrapped mid-sentence, "(turn" then "44)"
    r = CliRunner(env={"COLUMNS": "80"}).invoke(main, ["play", "injustice", "--players", "3", "--seed", "7", "-q"])
    assert r.exit_code == 0, r.output
    assert "Final scores — the last Nemesis was defeated (turn 44)\n" in r.output


def test_a_new_results_file_cut_short_says_how_to_go_on(tmp_path: Path) -> None:
    unstable = str(Path(__file__).resolve().parent / "sim" / "unstable.cards")  # runs away in about half the games
    out = tmp_path / "run.jsonl"
    r = _cli("simulate", "injustice", "-n", "20", "-j", "1", "--with", unstable, "--out", str(out))
    assert r.exit_code == 1 and "error[CS401]" in r.output, r.output
    assert f"{out} holds the games played so far, whole rows only (--out {out} --resume plays the rest)" in r.output
    done = _cli("simulate", "injustice", "-n", "20", "-j", "1", "--with", unstable, "--out", str(out), "--resume",
                "--keep-going")
    assert done.exit_code == 1 and "holds the games played so far" not in done.output  # it ran to its end


# ---------------------------------------------------------------- size
def _chain(n: int, closes: bool = False) -> str:
    last = "e0" if closes else "draw a card"
    return ('expansion "X"\nuses "injustice"\n\n' + "".join(f"effect e{i}:\n  e{i + 1}\n" for i in range(n))
            + f'effect e{n}:\n  {last}\n\ncard "A": hero, cost 0\n  play: e0\n  when "boom": emit "boom" for you\n')


def test_a_long_chain_of_effects_is_checked_in_seconds(tmp_path: Path) -> None:
    # 1,500 effects each calling the next took 22 s: three quadratic passes (every call tried
    # against every effect, the emitted-events fixed point, a cycle search from every effect)
    import time

    path = tmp_path / "chain.cards"
    path.write_text(_chain(1500), encoding="utf-8")
    t0 = time.perf_counter()
    r = CliRunner().invoke(main, ["--no-cache", "check", str(path)])
    assert r.exit_code == 0 and "CS505" in r.output, r.output  # the lint still sees the 'boom' loop
    assert time.perf_counter() - t0 < 12


def test_a_call_looks_only_at_the_effects_its_words_can_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A call scanned every signature (the built-ins and every effect) for its length and
    # first word: 4,000 chained effects took 4 s to check, most of it in that scan. Now
    # signatures are indexed by length and first word: a call 'eN' sees the one 'eN'.
    from cardscript.dsl.front import check

    seen: list[int] = []
    real = check.candidates

    def counting(*args: Any) -> Any:
        out = real(*args)
        seen.append(len(out))
        return out

    monkeypatch.setattr(check, "candidates", counting)
    path = tmp_path / "chain.cards"
    path.write_text(_chain(2000), encoding="utf-8")
    r = CliRunner().invoke(main, ["--no-cache", "check", str(path)])
    assert r.exit_code == 0, r.output
    assert len(seen) > 2000 and max(seen) <= 8, (len(seen), max(seen))


def test_the_last_definition_of_a_pattern_still_wins(tmp_path: Path) -> None:
    # the index keeps the order of the signatures: a script's effect with a built-in's
    # pattern ('shuffle {Z: zone}') comes after it, and the last that matches is called
    from cardscript.dsl.front.patterns import candidates as _candidates
    from cardscript.dsl.front.patterns import builtin_sigs

    shuffle = next(s for s in builtin_sigs() if s.display == "shuffle {Z: zone}")

    class Table:  # what _candidates reads of a symbol table
        effects = [shuffle]

    found = _candidates(Table(), 2, "shuffle")  # type: ignore[arg-type]
    assert found == [shuffle, shuffle]  # the built-in, then the table's
    assert _candidates(Table(), 3, "shuffle") == [] and _candidates(Table(), 2, "unknown") == []


def test_a_chain_that_closes_on_itself_is_still_cs214_once(tmp_path: Path) -> None:
    path = tmp_path / "ring.cards"
    path.write_text(_chain(300, closes=True), encoding="utf-8")
    r = _cli("check", str(path))
    assert r.exit_code == 1 and r.output.count("error[CS214]") == 1, r.output
    assert "effect 'e0' calls itself on every path (e0 -> e1 -> " in r.output


def test_a_name_in_either_unicode_form_is_the_same_card(tmp_path: Path) -> None:
    """'Á' typed as one character (NFC) or as 'A' and a combining accent (NFD) looks the
    same, so it names the same card (before: CS201 unknown card, with a did-you-mean
    hint that showed the very same name)."""
    from cardscript.dsl.front.pipeline import compile_game

    composed, decomposed = "\u00c1lvaro", "A\u0301lvaro"
    script = tmp_path / "x.cards"
    script.write_text(f'card "{decomposed}": hero, cost 1\n  play: +1 power\n'
                      f'card "Bet": hero, cost 2\n  play: gain 1 card from the line-up where name of it == "{composed}"\n',
                      encoding="utf-8")
    definition, _warnings, _program = compile_game("injustice", extra=[script])
    assert composed in {c.name for c in definition.cards} and decomposed not in {c.name for c in definition.cards}


def test_a_uses_path_is_looked_up_as_written(tmp_path: Path) -> None:
    """A folder's name is kept byte for byte: a file system may hold it in either form."""
    from cardscript.dsl.front.build import build

    folder = "A\u0301lvaro/"
    (uses,) = [i for i in build(f'uses "injustice", "{folder}"\n', "x.cards").items if type(i).__name__ == "Uses"]
    assert uses.paths[1] == folder

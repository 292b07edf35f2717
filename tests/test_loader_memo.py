"""The loader's one-pass memo (issue 11, "check"): inside one ``check``, each script's header
kind, package root and text is found once; outside it, every question reads the files again, so
that a long-running process (the language server) sees every edit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardscript.dsl.files import FileProblem
from cardscript.dsl.front import loader
from cardscript.dsl.front.pipeline import check_paths

GAME = 'game "Memo"\n'


def _game(tmp_path: Path) -> Path:
    folder = tmp_path / "memo"
    folder.mkdir()
    (folder / "game.rules").write_text(GAME, encoding="utf-8")
    return folder


def test_inside_a_pass_a_header_is_read_once(tmp_path, monkeypatch):
    folder = _game(tmp_path)
    reads: list[str] = []
    real = loader.read_script

    def counting(path, roots=None):
        reads.append(str(path))
        return real(path, roots)

    monkeypatch.setattr(loader, "read_script", counting)
    with loader.one_pass():
        kinds = [loader._header_kind(folder / "game.rules") for _ in range(5)]
        (folder / "game.rules").write_text('card "Now a card"\n', encoding="utf-8")
        kinds.append(loader._header_kind(folder / "game.rules"))
    assert kinds == ["game"] * 6
    assert len(reads) == 1
    assert loader._header_kind(folder / "game.rules") == "card"  # after the pass: read again


def test_outside_a_pass_nothing_is_remembered(tmp_path):
    folder = _game(tmp_path)
    assert loader._header_kind(folder / "game.rules") == "game"
    (folder / "game.rules").write_text('ruleset "Now a ruleset"\n', encoding="utf-8")
    assert loader._header_kind(folder / "game.rules") == "ruleset"
    assert loader._memo is None


def test_a_refused_read_is_remembered_and_raised_again(tmp_path):
    calls = []

    def refuse():
        calls.append(1)
        raise FileProblem("CS001", "cannot read it")

    with loader.one_pass():
        for _ in range(3):
            with pytest.raises(FileProblem, match="cannot read it"):
                loader._remembered(("read", "x"), refuse)
    assert len(calls) == 1


def test_passes_nest_and_the_outermost_holds_the_memo(tmp_path):
    with loader.one_pass():
        outer = loader._memo
        with loader.one_pass():
            assert loader._memo is outer
        assert loader._memo is outer
    assert loader._memo is None


def test_the_memo_is_dropped_when_a_check_raises(tmp_path, monkeypatch):
    def boom(*_a, **_k):
        raise RuntimeError("boom")

    monkeypatch.setattr("cardscript.dsl.front.pipeline._check_paths", boom)
    with pytest.raises(RuntimeError):
        check_paths([str(tmp_path)])
    assert loader._memo is None


def test_two_checks_see_an_edit_between_them(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDSCRIPT_CACHE", "off")
    game = tmp_path / "minideck"
    shutil.copytree(Path(__file__).resolve().parent.parent / "bench" / "minideck", game)
    assert not check_paths([str(game)]).errors
    cards = next(game.glob("*.cards"))
    cards.write_text(cards.read_text(encoding="utf-8") + "\ncard oops\n", encoding="utf-8")
    assert check_paths([str(game)]).errors  # the second check read the file again

"""Save files (``play --resume``), log headers (``replay``) and results files (``analyze``,
``simulate --out --resume``) from strangers, as a hostile tester wrote them:

* a save file names the scripts to compile: like a log's, they must lie inside the save
  file's folder, the current folder or the built-in games (a save naming ``/etc/passwd``
  printed its first line in a CS101 diagnostic);
* the numbers of a save file or a log header are real ints in range (``1.0``, ``true``,
  ``-1`` and ``2**70`` were exit 3); deep nesting is a clean error, not a RecursionError;
* a FIFO or a device (``/dev/zero``) is refused, not read forever or waited on.

Commands that could hang or eat memory run in a subprocess with a timeout and a memory limit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from snippets import run_bounded

from cardscript.dsl.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
FAN = ROOT / "docs" / "examples" / "fan"
SECRET = "SECRET-FIRST-LINE-do-not-print"


def run(*args: str, stdin: str = "") -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args), input=stdin)
    return r.exit_code, r.output




def clean(code: int, out: str, expected: int = 1) -> None:
    assert code == expected, out
    assert "Traceback" not in out and "internal error" not in out, out


def save_file(folder: Path, text: str | None = None, **change: Any) -> str:
    data = {"cardscript_save": 1, "game": "injustice", "with": [], "variants": [], "mix": [], "players": 2,
            "seed": 3, "bots": "random", "humans": [1], "answers": []}
    data.update(change)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "game.json"
    path.write_text(text if text is not None else json.dumps(data), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------- 1. paths in a save file
@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the save's folder and the current folder, which no message may show."""
    folder = tmp_path / "private"
    folder.mkdir()
    path = folder / "notes.cards"
    path.write_text(SECRET + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("change", [
    {"with": ["SECRET"]}, {"with": ["../private/notes.cards"]}, {"with": ["../../private/notes.cards"]},
    {"game": "SECRET"}, {"game": "SECRET_DIR"}, {"game": "../private/notes.cards"}, {"mix": ["SECRET_DIR"]},
    {"variants": ["../private/notes.cards"]}, {"with": ["/etc/passwd"]}, {"game": "/etc/passwd"},
    {"game": "/etc"}, {"with": ["../../../../../../../../etc/passwd"]},
])
def test_a_save_file_reads_no_script_outside_its_folder(tmp_path: Path, secret: Path, change: dict[str, Any],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def fill(v: Any) -> Any:
        if isinstance(v, list):
            return [fill(x) for x in v]
        return {"SECRET": str(secret), "SECRET_DIR": str(secret.parent)}.get(v, v)

    path = save_file(tmp_path / "saves" / "one", **{k: fill(v) for k, v in change.items()})
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out = run("play", "--resume", path)
    clean(code, out)
    assert "outside the save file's folder and the current folder" in out, out
    assert SECRET not in out and "root:" not in out


def test_a_save_beside_its_scripts_resumes_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 'save FILE' stores the scripts relative to the save's folder, as a log's header does
    game = tmp_path / "fan"
    game.mkdir()
    (game / "fan.cards").write_text((FAN / "fan.cards").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fan/fan.cards", "--human", "1", "--seed", "2", stdin="1\nsave fan/game.json\n")
    assert code == 1 and "saved to fan/game.json" in out, out
    assert json.loads((game / "game.json").read_text(encoding="utf-8"))["game"] == "./fan.cards"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out = run("play", "--resume", str(game / "game.json"))
    clean(code, out)
    assert "Resumed" in out and "1 saved answers replayed" in out and "unfinished" in out


# ---------------------------------------------------------------- 2., 3. numbers
def _log(tmp_path: Path) -> list[str]:
    log = tmp_path / "game.jsonl"
    code, out = run("play", "injustice", "--seed", "2", "--bots", "random", "-q", "--log", str(log))
    assert code == 0, out
    return log.read_text(encoding="utf-8").split("\n")


@pytest.mark.parametrize("key, value", [("seed", "1.0"), ("seed", "5e0"), ("players", "2.0"), ("seed", "true"),
                                        ("players", "true"), ("cardscript", "1.0"), ("cardscript", "true")])
def test_a_log_header_holds_real_ints(tmp_path: Path, key: str, value: str) -> None:
    lines = _log(tmp_path)
    head = json.loads(lines[0])
    head[key] = "VALUE"
    lines[0] = json.dumps(head).replace('"VALUE"', value)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines), encoding="utf-8")
    code, out = run("replay", str(bad))
    clean(code, out)
    assert "not a cardscript log" in out and f"'{key}'" in out, out


@pytest.mark.parametrize("key, value", [("seed", -1), ("seed", 2 ** 70), ("seed", 2 ** 63), ("players", 0),
                                        ("players", 10 ** 30), ("seed", 1.0), ("players", 2.0)])
def test_a_save_file_number_out_of_range_names_its_field(tmp_path: Path, key: str, value: Any) -> None:
    code, out = run("play", "--resume", save_file(tmp_path, **{key: value}))
    clean(code, out)
    assert f"the save file's '{key}'" in out, out


@pytest.mark.parametrize("change", [{"with": [1]}, {"mix": [None]}, {"variants": [""]}, {"game": ""},
                                    {"answers": [[True, [0]]]}, {"answers": [[0, [-1]]]}, {"humans": [2 ** 70]}])
def test_a_save_file_with_values_of_the_wrong_kind_is_refused(tmp_path: Path, change: dict[str, Any]) -> None:
    code, out = run("play", "--resume", save_file(tmp_path, **change))
    clean(code, out)
    assert "the save file's" in out, out


def test_a_save_file_naming_an_unknown_game_is_the_file_at_fault(tmp_path: Path) -> None:
    """Exit 1, as for any bad value of a save file, not 2 (a usage error) with CS002."""
    code, out = run("play", "--resume", save_file(tmp_path, game="nosuchgame"))
    clean(code, out)
    assert "the save file names a game this cardscript does not know: 'nosuchgame'" in out, out


# ---------------------------------------------------------------- 4. nesting
def test_a_deeply_nested_save_file_is_refused(tmp_path: Path) -> None:
    text = '{"cardscript_save": 1, "game": "injustice", "answers": ' + "[" * 100_000 + "]" * 100_000 + "}"
    code, out = run("play", "--resume", save_file(tmp_path, text))
    clean(code, out)
    assert "nested too deeply" in out, out


# ---------------------------------------------------------------- 5. FIFOs and devices
@pytest.mark.parametrize("command, code", [(("play", "--resume"), 1), (("analyze",), 2)])
def test_a_fifo_and_a_device_are_refused_unread(tmp_path: Path, command: tuple[str, ...], code: int) -> None:
    """A save file (exit 1) and a results file (a bad RESULTS argument, exit 2)."""
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "FIFO"), (Path("/dev/zero"), "device")):
        out_code, out = run_bounded(*command, str(path), timeout=30)
        clean(out_code, out, code)
        assert f"cannot read {path}: it is a {kind}" in out and "not a regular file" in out, out


def test_a_huge_save_file_is_refused(tmp_path: Path) -> None:
    from cardscript.dsl.files import MAX_LOG_BYTES

    path = tmp_path / "big.json"
    with open(path, "wb") as f:
        f.truncate(MAX_LOG_BYTES + 1)  # sparse: no disk used
    code, out = run_bounded("play", "--resume", str(path), timeout=30)
    clean(code, out)
    assert "it is larger than" in out, out


def test_simulate_resume_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    code, out = run_bounded("simulate", "injustice", "-n", "2", "--bots", "random", "--out", str(fifo), "--resume",
                            timeout=60)
    clean(code, out, 2)
    assert f"{fifo} is not a regular file" in out, out


def test_analyze_reads_a_results_file_a_line_at_a_time(tmp_path: Path) -> None:
    # whole rows, a torn last line left out; a line too long for a row is refused, not read whole
    from cardscript.dsl.sim.results import MAX_ROW_BYTES, ResultsProblem, read_results

    out = tmp_path / "r.jsonl"
    code, text = run("simulate", "injustice", "-n", "2", "--bots", "random", "--out", str(out))
    assert code == 0, text
    whole = out.read_bytes()
    out.write_bytes(whole + b'{"t": "game", "se')
    header, rows, good = read_results(str(out))
    assert header is not None and sorted(rows) == [1, 2] and good == len(whole)
    out.write_bytes(whole + b"x" * (MAX_ROW_BYTES + 2))
    with pytest.raises(ResultsProblem, match="a line longer than"):
        read_results(str(out))

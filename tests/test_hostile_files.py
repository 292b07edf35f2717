"""Issue 10, files: scripts from strangers read only what their package holds, and outputs
are written where asked and nowhere else.

* every read (scripts, manifests, scenarios' variants, replay logs' scripts) resolves
  links and stays inside the package root; regular files only (a FIFO or device cannot
  block or flood a command); at most 1 MiB per script;
* folder walks never follow linked folders (a link loop ends at once);
* a replay log's header is validated before use, its paths resolve from any folder;
* outputs: a regular file is replaced atomically, a device is written through (a full
  disk is an error, not a traceback), a link is refused, no temp file is left behind;
* a byte-order mark and CRLF / CR line ends mean the same to every command.

Commands that could hang or eat memory run in a subprocess with a timeout (and a memory
limit), so that a regression fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from snippets import run_bounded

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import CompileError
from cardscript.dsl.files import MAX_SCRIPT_BYTES, FileProblem, read_text, write_text
from cardscript.dsl.front.loader import load_program, package_root
from cardscript.dsl.front.pipeline import check_paths, compile_game, to_ir

ROOT = Path(__file__).resolve().parent.parent
FAN = ROOT / "examples" / "injustice-fan"
INJUSTICE = ROOT / "cardscripts" / "injustice"
SECRET = "root:x:0:0:a secret line that no diagnostic may show"
CARD = 'card "Jab": hero, cost 1\n  play: +1 power\n'


def run(*args: str) -> tuple[int, str]:
    """A command through click's CliRunner: (exit code, stdout and stderr)."""
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.output




def no_traceback(out: str) -> None:
    assert "Traceback" not in out and "internal error" not in out, out


@pytest.fixture
def fan(tmp_path: Path) -> Path:
    """A copy of the fan expansion (a manifest, scripts, scenarios using '../'), beside a secret file."""
    (tmp_path / "secret.txt").write_text(SECRET + "\n")
    shutil.copytree(FAN, tmp_path / "fan")
    return tmp_path / "fan"


# ---------------------------------------------------------------- links out of the package
def test_a_linked_script_outside_the_package_is_refused_unread(fan: Path) -> None:
    (fan / "evil.cards").symlink_to(fan.parent / "secret.txt")
    code, out = run_bounded("check", str(fan))
    assert code == 1 and "error[CS003]" in out and "evil.cards leads outside its package" in out
    assert "a secret line" not in out and "root:x" not in out
    no_traceback(out)
    code, out = run_bounded("play", "injustice", "--with", str(fan), "-q")
    assert code == 1 and "CS003" in out and "a secret line" not in out
    for check in ([], ["--check"]):  # fmt neither reads it: no line of it in a parse error
        code, out = run_bounded("fmt", *check, str(fan / "evil.cards"))
        assert code == 1 and "error[CS003]" in out and "a secret line" not in out
        no_traceback(out)


def test_a_linked_main_script_is_read_inside_the_folder_holding_the_link(tmp_path: Path) -> None:
    (tmp_path / "game.rules").symlink_to(tmp_path.parent / "secret.rules")
    (tmp_path.parent / "secret.rules").write_text(SECRET + "\n")
    code, out = run_bounded("check", str(tmp_path / "game.rules"))
    assert code == 1 and "error[CS003]" in out and "game.rules leads outside its package" in out
    assert "a secret line" not in out
    (tmp_path / "more").mkdir()  # and a link inside a folder that 'uses' names
    (tmp_path / "more" / "passwd.cards").symlink_to("/etc/passwd")
    (tmp_path / "main.rules").write_text('game "G"\nplayers 2 to 2\nuses "more/"\n')
    with pytest.raises(CompileError) as info:
        load_program(tmp_path / "main.rules")
    (d,) = info.value.diagnostics
    assert d.code == "CS003" and d.span is not None and (d.span.line, d.span.column) == (3, 6)  # at the string "more/"
    assert "passwd.cards" in d.message and d.hint


def test_a_link_to_dev_zero_is_refused_without_reading_it(fan: Path) -> None:
    (fan / "zero.cards").symlink_to("/dev/zero")
    code, out = run_bounded("check", str(fan), timeout=30)
    assert code == 1 and "zero.cards" in out and "CS003" in out
    no_traceback(out)


def test_a_fifo_named_by_uses_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.cards")
    (tmp_path / "game.rules").write_text('# a game\ngame "G"\nplayers 2 to 2\nuses "pipe.cards"\n')
    code, out = run_bounded("compile", str(tmp_path), timeout=30)
    assert code == 1 and "game.rules:4:" in out and "pipe.cards: it is a FIFO (named pipe), not a regular file" in out
    no_traceback(out)
    with pytest.raises(FileProblem) as info:
        read_text("/dev/zero", [Path("/dev")])
    assert info.value.code == "CS001" and "a device, not a regular file" in info.value.message


def test_a_script_over_the_size_cap_is_refused(fan: Path) -> None:
    (fan / "big.cards").write_text("# padding\n" * (MAX_SCRIPT_BYTES // 10 + 1))
    code, out = run("check", str(fan))
    assert code == 1 and "big.cards: it is larger than 1024 KiB" in out
    (fan / "big.cards").write_text(CARD + "#" * (MAX_SCRIPT_BYTES - len(CARD) - 2) + "\n")
    assert os.path.getsize(fan / "big.cards") <= MAX_SCRIPT_BYTES
    assert "larger than" not in run("check", str(fan))[1]


def test_a_linked_folder_loop_ends_at_once(tmp_path: Path) -> None:
    game = tmp_path / "g"
    shutil.copytree(INJUSTICE, game, ignore=shutil.ignore_patterns("variants"))
    sub = game / "more"
    sub.mkdir()
    for name in ("up", "up2", "up3"):  # each level triples: 3**40 folders if followed
        (sub / name).symlink_to("..")
    (sub / "self").symlink_to(".")
    code, out = run_bounded("check", str(tmp_path), timeout=60)
    assert code == 0, out
    code, out = run_bounded("fmt", "--check", str(tmp_path), timeout=60)
    assert code == 0, out


def test_walks_list_files_in_a_fixed_order(tmp_path: Path) -> None:
    from cardscript.dsl.files import walk

    for name in ("b/z.cards", "a.cards", "b/a.rules", "c.txt", "a/x.cards"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(CARD)
    got = [p.relative_to(tmp_path).as_posix() for p in walk(tmp_path, (".cards", ".rules"))]
    assert got == ["a/x.cards", "a.cards", "b/a.rules", "b/z.cards"]


# ---------------------------------------------------------------- FIFOs and devices given as paths
@pytest.mark.parametrize("command", [["check"], ["fmt"], ["fmt", "--check"], ["test"], ["compile"]])
def test_a_fifo_is_refused_and_never_blocks(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / ("game.scenario" if command == ["test"] else "game.rules")
    os.mkfifo(fifo)
    code, out = run_bounded(*command, str(fifo), timeout=30)
    assert code in (1, 2) and ("FIFO" in out or "not a regular file" in out), out
    no_traceback(out)


def test_a_fifo_beside_a_script_does_not_block_check(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.cards")
    (tmp_path / "jab.cards").write_text(CARD)
    code, out = run_bounded("check", str(tmp_path / "jab.cards"), timeout=30)
    no_traceback(out)
    code, out = run_bounded("check", str(tmp_path), timeout=30)
    assert code == 1 and "pipe.cards: it is a FIFO" in out


def test_dev_null_is_refused_by_check_and_fmt(tmp_path: Path) -> None:
    null = _device(tmp_path, "null")
    code, out = run_bounded("check", str(null), timeout=30)
    assert code == 1 and "not a regular file nor a folder" in out
    no_traceback(out)
    code, out = run_bounded("fmt", str(null), timeout=30)
    assert code == 1 and "a device, not a regular file" in out
    no_traceback(out)


def test_an_empty_path_and_an_empty_folder(tmp_path: Path) -> None:
    code, out = run("play", "injustice", "--with", "", "-q")
    assert code == 2 and "--with" in out and "empty path" in out
    (tmp_path / "empty").mkdir()
    code, out = run("play", "injustice", "--with", str(tmp_path / "empty"), "-q")
    assert code != 0 and f"no scripts in {tmp_path / 'empty'}" in out
    code, out = run("check", str(tmp_path / "empty"))
    assert code == 1 and "error[CS001]: no scripts in" in out
    assert run("check", "")[0] == 2 and run("fmt", "")[0] == 2 and run("test", "")[0] == 2


# ---------------------------------------------------------------- scenarios
def _scenario(folder: Path, line: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "s.scenario"
    path.write_text(f'scenario "S"\nuses "injustice"\n{line}\nplayers 2\n\nexpect count all cards in your hand == 5\n')
    return path


@pytest.mark.parametrize("line,code", [
    ('variant "/etc/passwd"', "CS003"),
    ('variant "../../secret.variant"', "CS003"),
    ('variant "notes.txt"', "CS001"),
    ('uses "/etc/passwd"', "CS003"),
    ('uses "../../secret.cards"', "CS003"),
    ('uses "notes.txt"', "CS001"),
])
def test_a_scenario_reads_only_scripts_of_its_package(tmp_path: Path, line: str, code: str) -> None:
    from cardscript.dsl.harness.scenario import run_scenario

    for name in ("secret.variant", "secret.cards"):
        (tmp_path / name).write_text(f"# {SECRET}\n" + CARD)
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "notes.txt").write_text(SECRET + "\n")
    res = run_scenario(_scenario(tmp_path / "a" / "b", line))
    assert [d.code for d in res.diagnostics] == [code], res.diagnostics
    (d,) = res.diagnostics
    assert d.span is not None and d.span.line == 3 and d.hint
    assert all(SECRET not in text for text in res.sources.values())
    assert check_paths([str(tmp_path / "a" / "b" / "s.scenario")]).errors == 1


def test_a_stray_scenario_may_not_read_the_folder_above(tmp_path: Path) -> None:
    (tmp_path / "x.cards").write_text(CARD)
    stray = _scenario(tmp_path / "downloads", 'uses "../x.cards"')
    assert package_root(stray) == tmp_path / "downloads"
    kept = _scenario(tmp_path / "game" / "scenarios", 'uses "../x.cards"')
    assert package_root(kept) == tmp_path / "game"


# ---------------------------------------------------------------- replay
@pytest.fixture
def logged(tmp_path: Path) -> Path:
    """A game of Injustice with the fan expansion, logged in the folder holding the expansion."""
    shutil.copytree(FAN, tmp_path / "fan")
    log = tmp_path / "game.jsonl"
    code, out = run_bounded("play", "injustice", "--with", "fan", "-q", "--seed", "3", "--log", "game.jsonl",
                            cwd=tmp_path)
    assert code == 0, out
    return log


def _with_header(log: Path, **changes: object) -> Path:
    lines = log.read_text().split("\n")
    head = json.loads(lines[0])
    head.update(changes)
    bad = log.with_name("bad.jsonl")
    bad.write_text("\n".join([json.dumps(head), *lines[1:]]))
    return bad


def test_replay_from_another_folder(logged: Path, tmp_path: Path) -> None:
    assert json.loads(logged.read_text().split("\n")[0])["with"] == ["./fan"]
    (tmp_path / "elsewhere").mkdir()
    code, out = run_bounded("replay", str(logged), cwd=tmp_path / "elsewhere")
    assert code == 0 and "replay identical" in out and "scripts changed" not in out, out
    code, out = run_bounded("replay", "../game.jsonl", cwd=tmp_path / "fan")
    assert code == 0 and "scripts changed" not in out, out


@pytest.mark.parametrize("changes,says", [
    ({"with": [1, 2]}, "'with/0' is not valid: 1 is not of type 'string'"),
    ({"with": "abc"}, "'with' is not valid: 'abc' is not of type 'array'"),
    ({"players": True}, "'players' is not valid"),
    ({"seed": "7"}, "'seed' is not valid"),
    ({"game": ["injustice"]}, "'game' is not valid"),
    ({"variants": [None]}, "'variants/0' is not valid"),
    ({"extra": 1}, "unknown key"),
])
def test_replay_validates_the_header(logged: Path, changes: dict[str, object], says: str) -> None:
    code, out = run("replay", str(_with_header(logged, **changes)))
    assert code == 1 and "bad.jsonl:1: not a cardscript log" in out and says in out, out
    no_traceback(out)


@pytest.mark.parametrize("where", ["/etc", "../../../../../../etc", "/etc/passwd"])
def test_replay_refuses_scripts_outside_the_allowed_folders(logged: Path, where: str) -> None:
    for key in ("with", "game"):
        code, out = run_bounded("replay", str(_with_header(logged, **{key: [where] if key == "with" else where})),
                                cwd=logged.parent / "fan")
        assert code == 1 and "outside the log's folder and the current folder" in out, out
        no_traceback(out)


def test_replay_never_echoes_a_huge_line(logged: Path) -> None:
    lines = logged.read_text().split("\n")
    cases = ((500_000, "replay differs at log line 3", "... (500025 characters)"),
             (50_000_000, "game.jsonl:3: not a cardscript log (a line of 50000025 characters", ""))
    for size, says, cut in cases:
        huge = json.dumps({"t": "move", "card": "A" * size})
        logged.write_text("\n".join([lines[0], lines[1], huge, *lines[2:]]))
        code, out = run("replay", str(logged))
        assert code == 1 and says in out and cut in out and len(out) < 1000, out[:2000]
    logged.write_text("[" * 100_000 + "\n")
    code, out = run("replay", str(logged))
    assert code == 1 and "nested too deeply" in out and len(out) < 300


def test_replay_of_a_fifo_does_not_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "game.jsonl")
    code, out = run_bounded("replay", str(tmp_path / "game.jsonl"), timeout=30)
    assert code == 1 and "FIFO" in out


# ---------------------------------------------------------------- outputs
def _device(tmp_path: Path, name: str) -> Path:
    """A private copy of /dev/null or /dev/full (same device numbers) in ``tmp_path``: a
    regression that replaced the device would replace only this copy, not the machine's."""
    real = os.stat(f"/dev/{name}")
    path = tmp_path / name
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, real.st_rdev)
    except (PermissionError, OSError):
        if os.geteuid() == 0:
            pytest.skip("cannot make a device node here")
        return Path(f"/dev/{name}")  # not root: the machine's device cannot be replaced anyway
    return path


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["play", "injustice", "-q", "--log"], ["compile", "injustice", "-o"]])
def test_a_full_device_is_written_through_and_reported(tmp_path: Path, args: list[str]) -> None:
    full = _device(tmp_path, "full")
    before = os.lstat(full)
    code, out = run_bounded(*args, str(full))
    assert code == 1 and f"cannot write {full}: No space left on device" in out, out
    no_traceback(out)
    after = os.lstat(full)
    assert stat.S_ISCHR(after.st_mode) and (after.st_rdev, after.st_ino) == (before.st_rdev, before.st_ino)
    if full.parent == tmp_path:  # no temp file left beside it
        assert [p.name for p in tmp_path.iterdir()] == ["full"]


def test_dev_null_and_stdout_are_written_through(tmp_path: Path) -> None:
    null = _device(tmp_path, "null")
    code, out = run_bounded("play", "injustice", "-q", "--log", str(null))
    assert code == 0 and stat.S_ISCHR(os.lstat(null).st_mode), out
    code, out = run("compile", "injustice", "-o", "-")
    assert code == 0 and json.loads(out[out.index("{"):out.rindex("}") + 1])["game"] == "Injustice"


def test_a_linked_output_is_refused_and_left_alone(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    real.write_text("keep me\n")
    (tmp_path / "link.jsonl").symlink_to(real)
    code, out = run("play", "injustice", "-q", "--log", str(tmp_path / "link.jsonl"))
    assert code == 2 and "symbolic link" in out
    assert (tmp_path / "link.jsonl").is_symlink() and real.read_text() == "keep me\n"
    with pytest.raises(FileProblem, match="symbolic link"):
        write_text(tmp_path / "link.jsonl", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl"]


def test_compile_and_render_refuse_a_linked_output(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("keep me\n")
    (tmp_path / "ir.json").symlink_to(real)
    code, out = run("compile", "injustice", "-o", str(tmp_path / "ir.json"))
    assert code == 2 and "symbolic link" in out
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "index.html").symlink_to(real)
    code, out = run("render", "injustice", "--html", str(tmp_path / "html"))
    assert code == 1 and "index.html is a symbolic link" in out
    no_traceback(out)
    assert real.read_text() == "keep me\n" and (tmp_path / "html" / "index.html").is_symlink()
    assert [p.name for p in (tmp_path / "html").iterdir()] == ["index.html"]


def test_fmt_does_not_replace_a_linked_script(tmp_path: Path) -> None:
    (tmp_path / "real.cards").write_text('card "Jab":   hero\n  play:  +1 power\n')
    (tmp_path / "link.cards").symlink_to(tmp_path / "real.cards")
    code, out = run("fmt", str(tmp_path / "link.cards"))
    assert code == 1 and "symbolic link" in out
    assert (tmp_path / "link.cards").is_symlink() and "Jab\":   hero" in (tmp_path / "real.cards").read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_failed_write_leaves_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.json"
    target.write_text("old\n")

    def broken(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(FileProblem, match="No space left on device"):
        write_text(target, "new\n")
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_fifo_output_without_a_reader_is_an_error_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    code, out = run_bounded("play", "injustice", "-q", "--log", str(fifo), timeout=60)
    assert code == 1 and "nothing is reading the FIFO" in out
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]
    done: list[Exception] = []

    def write() -> None:
        try:
            write_text(fifo, "{}\n")
        except FileProblem as exc:
            done.append(exc)

    t = threading.Thread(target=write, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive() and done and "nothing is reading the FIFO" in str(done[0])


# ---------------------------------------------------------------- BOM and CR
def _as(text: str, bom: bool, ends: str) -> bytes:
    return (b"\xef\xbb\xbf" if bom else b"") + text.replace("\n", ends).encode()


@pytest.fixture(scope="module")
def mangled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Injustice with every script saved with a byte-order mark and CRLF or lone CR line ends."""
    folder = tmp_path_factory.mktemp("mangled") / "injustice"
    shutil.copytree(INJUSTICE, folder, ignore=shutil.ignore_patterns("variants"))
    for i, p in enumerate(sorted(folder.glob("*.*"))):
        p.write_bytes(_as(p.read_text(), bom=i % 2 == 0, ends="\r\n" if i % 3 else "\r"))
    return folder


def test_bom_and_cr_compile_to_the_same_game(mangled: Path) -> None:
    assert to_ir(compile_game(str(mangled))[0]) == to_ir(compile_game(str(INJUSTICE))[0])
    assert check_paths([str(mangled)]).errors == 0


def test_bom_and_cr_play_and_render_the_same(mangled: Path) -> None:
    for args in (["play", "-q", "--seed", "5"], ["render", "--format", "json"]):
        assert run(args[0], str(mangled), *args[1:]) == run(args[0], str(INJUSTICE), *args[1:])


def test_bom_and_cr_in_a_scenario(tmp_path: Path) -> None:
    text = 'scenario "S"\nuses "injustice"\nplayers 2\n\nexpect count all cards in your hand == 5\n'
    for i, (bom, ends) in enumerate([(True, "\n"), (False, "\r\n"), (True, "\r")]):
        (tmp_path / f"s{i}.scenario").write_bytes(_as(text, bom, ends))
    code, out = run("test", str(tmp_path))
    assert code == 0 and "3 passed" in out, out


def test_fmt_accepts_bom_and_cr_and_writes_lf_without_bom(tmp_path: Path) -> None:
    for i, (bom, ends) in enumerate([(True, "\n"), (False, "\r\n"), (False, "\r"), (True, "\r\n")]):
        (tmp_path / f"c{i}.cards").write_bytes(_as(CARD, bom, ends))
    code, out = run("fmt", "--check", str(tmp_path))
    assert code == 1 and "4 file(s) would be reformatted" in out and "byte-order mark" in out and "CR" in out
    code, out = run("fmt", str(tmp_path))
    assert code == 0 and "4 file(s) reformatted" in out
    assert {p.read_bytes() for p in tmp_path.iterdir()} == {CARD.encode()}


def test_a_lone_cr_is_a_line_end_never_an_invisible_character(tmp_path: Path) -> None:
    (tmp_path / "a.cards").write_bytes(b'card "A": hero\r  play: draw 1 \r  bogus line\r')
    code, out = run("check", str(tmp_path / "a.cards"))
    assert "''" not in out and "\r" not in out
    assert code == 1 and "a.cards:3:" in out, out


# ---------------------------------------------------------------- manifests
@pytest.mark.parametrize("value", ["[" * 5000 + "]" * 5000, "{a = " * 3000 + "1" + "}" * 3000])
def test_deeply_nested_toml_is_a_diagnostic(fan: Path, value: str) -> None:
    text = (fan / "cardscript.toml").read_text()
    (fan / "cardscript.toml").write_text(text.replace("requires = []", f"requires = {value}"))
    code, out = run("check", str(fan))
    assert code == 1 and "error[CS004]" in out and "nested too deeply" in out
    no_traceback(out)
    code, out = run("play", "injustice", "--with", str(fan), "-q")
    assert code == 1 and "CS004" in out
    no_traceback(out)


def test_a_linked_manifest_outside_is_refused(fan: Path) -> None:
    (fan / "cardscript.toml").unlink()
    (fan / "cardscript.toml").symlink_to(fan.parent / "secret.txt")
    code, out = run("check", str(fan))
    assert code == 1 and "CS003" in out and "a secret line" not in out


def test_walks_survive_deep_folders_and_skip_hidden_ones(tmp_path: Path) -> None:
    """A downloaded package with folders nested past Python's recursion limit, and a
    virtual environment inside the folder being checked."""
    from cardscript.dsl.files import walk

    deep = tmp_path / "pack"
    deep.mkdir()
    here = deep
    for _ in range(1200):  # past the default recursion limit of 1000
        here = here / "a"
        os.mkdir(here)
    (here / "bottom.cards").write_text("card \"X\": cost 1\n", encoding="utf-8")
    hidden = deep / ".venv" / "lib"
    hidden.mkdir(parents=True)
    (hidden / "copy.cards").write_text("card \"Y\": cost 1\n", encoding="utf-8")
    try:
        found = list(walk(deep, (".cards",)))
    finally:
        # undo the tower bottom-up: pytest's own cleanup of old temp folders recurses
        (here / "bottom.cards").unlink()
        while here != deep:
            os.rmdir(here)
            here = here.parent
    assert [p.name for p in found] == ["bottom.cards"]


def test_a_path_too_long_to_look_up_is_cs001_or_a_usage_error_never_exit_3(tmp_path: Path) -> None:
    """A path longer than the system's limit (a 300-character name) raised OSError from the
    first stat of it: exit 3 from play, check and test, and from compile_game (found by a
    hostile trial). It is CS001 in a check or a scenario, exit 2 on the command line, and a
    CompileError from the API."""
    import pytest
    from click.testing import CliRunner

    import cardscript
    from cardscript.dsl.cli import main
    from cardscript.dsl.diagnostics import CompileError

    long = "a" * 300
    run = CliRunner()
    for argv in (["play", "injustice", "--with", long, "-q"], ["play", long], ["check", long]):
        r = run.invoke(main, argv)
        assert r.exit_code == 2 and "cannot look up" in r.output and "300 characters" in r.output, (argv, r.output)
    (tmp_path / "s.scenario").write_text(f'scenario "S"\nuses "injustice"\nvariant "{long}.variant"\nplayers 2\n',
                                         encoding="utf-8")
    r = run.invoke(main, ["test", str(tmp_path / "s.scenario")])
    assert r.exit_code == 1 and "CS001" in r.output and "internal error" not in r.output, r.output
    r = run.invoke(main, ["check", str(tmp_path)])
    assert r.exit_code == 1 and "CS001" in r.output, r.output
    with pytest.raises(CompileError) as err:
        cardscript.compile_game(long * 10)
    assert err.value.diagnostics[0].code == "CS001"


def test_a_number_too_long_in_a_manifest_is_cs004(tmp_path: Path) -> None:
    """A 5,000-digit number in cardscript.toml (a version part, a required version, a TOML
    integer) passed Python's 4,300-digit limit of int() and gave exit 3 (found by a hostile
    trial). Each is CS004: a version part has at most 9 digits."""
    from click.testing import CliRunner

    from cardscript.dsl.cli import main

    big = "9" * 5000
    (tmp_path / "p.cards").write_text('expansion "P"\nuses "injustice"\n', encoding="utf-8")
    for extra in (f'version = "{big}.0.0"', f'version = "1.0.0"\nrequires = ["base >= {big}"]',
                  f'version = "1.0.0"\nx = {big}'):
        (tmp_path / "cardscript.toml").write_text(f'name = "p"\ngame = "injustice"\n{extra}\n', encoding="utf-8")
        r = CliRunner().invoke(main, ["check", str(tmp_path)])
        assert r.exit_code == 1 and "CS004" in r.output and "internal error" not in r.output, (extra, r.output[-300:])


def test_check_paths_of_an_empty_path_is_cs001_as_the_command_line_says() -> None:
    """check_paths([""]) checked the whole current folder (479 files from the repository's
    root), where 'cardscript check ""' refuses it (found by a hostile trial). CS001, nothing
    checked."""
    from cardscript.dsl.front.pipeline import check_paths

    rep = check_paths([""])
    assert [d.code for d in rep.diagnostics] == ["CS001"] and rep.files == []


def test_an_output_keeps_its_mode_and_a_read_only_one_is_not_replaced(tmp_path: Path) -> None:
    """A private output stays private when it is written again (the rename of a new file
    used to leave it 0o644), and a file nobody may write is refused, not replaced
    through the rename (a hostile trial: `compile -o` over a 0o400 file)."""
    private = tmp_path / "p.jsonl"
    private.write_text("old\n", encoding="utf-8")
    private.chmod(0o640)
    write_text(private, "new\n")
    assert private.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(private.stat().st_mode) == 0o640
    locked = tmp_path / "ro.txt"
    locked.write_text("precious\n", encoding="utf-8")
    locked.chmod(0o400)
    with pytest.raises(FileProblem, match="read-only"):
        write_text(locked, "x\n")
    assert locked.read_text(encoding="utf-8") == "precious\n"
    result = CliRunner().invoke(main, ["compile", "injustice", "-o", str(locked)])
    assert result.exit_code == 1 and "read-only" in result.output, result.output
    assert locked.read_text(encoding="utf-8") == "precious\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp file left


def test_uses_of_an_empty_path_is_cs001_in_check_as_in_play(tmp_path: Path) -> None:
    """`uses ""` named the folder of the built-in games and loaded nothing: check passed
    the script, play then failed on every name it uses (a hostile trial)."""
    script = tmp_path / "x.cards"
    script.write_text('expansion "X"\nuses ""\ncard "Y": hero, cost 1\n  play: +1 power\n', encoding="utf-8")
    report = check_paths([str(script)])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("CS001", 2, 6)]
    assert "empty path" in report.diagnostics[0].message


def test_render_into_a_path_that_is_not_a_folder_says_so(tmp_path: Path) -> None:
    """A hostile trial: `render --html /dev/null` said "File exists" (a regular file is
    refused by the option itself)."""
    code, out = run("render", "injustice", "--html", os.devnull)
    assert code == 1 and "it is not a folder" in out, out

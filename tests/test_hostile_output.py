"""Output is safe with scripts from strangers, bugs are reported as bugs, and every
diagnostic code is documented with a hint and an example that really gives it.

* Names and script text reach the terminal with their control characters shown as
  escapes (``\\x1b``), never as markup (``[bold]``); JSON says the same with ``\\uXXXX``;
  SVG and HTML are escaped and hold no character XML forbids.
* An internal error, from any command, exits 3 with one line that says so and asks for a
  report; ``--debug`` adds the traceback. CS900 is never the answer to a script.
* Each code of ``CODES`` has a hint and an example; the example gives the code.
"""

from __future__ import annotations

import json
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli import logfmt
from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import CODES, CompileError, Diagnostic, Span, error, internal_message, render
from cardscript.dsl.report import format_diagnostics
from cardscript.dsl.textsafe import json_text, terminal, xml

#: a card name that clears the screen, retitles the terminal, rings, reverses the line,
#: and holds rich markup, one of whose tags closes nothing (rich raises on it)
EVIL = "\x1b[2J\x1b]0;pwned\x07[bold]Evil[/bold] \u202eKing[/x]"
SHOWN = "\\x1b[2J\\x1b]0;pwned\\x07[bold]Evil[/bold] \\u202eKing[/x]"
RAW = ("\x1b", "\x07", "\x00", "\u202e", "\x9b")


def _pack(tmp_path: Path, name: str = EVIL, extra: str = "") -> Path:
    """An expansion of Injustice with one card of that name, plentiful enough to be bought."""
    path = tmp_path / "evil.cards"
    path.write_text(f'expansion "Evil {name}"\nuses "injustice"\n\n'
                    f'card "{name}": hero, cost 1, vp 1, copies 60\n  play: +1 power\n{extra}', encoding="utf-8")
    return path


def _run(*args: str) -> Any:
    """Run the CLI, wide enough that rich tables do not fold a name over lines."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env={"COLUMNS": "500"})


def _strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


def _assert_safe(out: str) -> None:
    for ch in RAW:
        assert ch not in out, f"raw {ch!r} in the output:\n{out!r}"
    assert "internal error" not in out and "Traceback" not in out, out


# ---------------------------------------------------------------- the sanitiser
def test_terminal_escapes_controls_and_keeps_what_is_asked() -> None:
    assert terminal("plain [text] é ★") == "plain [text] é ★"
    assert terminal(EVIL) == SHOWN
    assert terminal("a\tb\nc\x00\x9b\udcff") == "a\\tb\\nc\\x00\\x9b\\udcff"
    assert terminal("a\tb\nc\x7f", keep="\t\n") == "a\tb\nc\\x7f"
    # invisible characters that make two names print alike (a hostile trial: "X" and "X\u200b")
    assert terminal("X\u200bY \u2060 \ufeff") == "X\\u200bY \\u2060 \\ufeff"
    assert terminal("\U0001F468\u200d\U0001F467 \u05e9") == "\U0001F468\u200d\U0001F467 \u05e9"  # joiners stay


def test_json_text_says_the_same() -> None:
    data = {"name": "x\x9by\u202e\x7f\u2028", "n": 1}
    text = json_text(json.dumps(data, ensure_ascii=False, indent=1))
    assert json.loads(text) == data
    assert not any(ch in text for ch in "\x9b\u202e\x7f\u2028")


def test_xml_escapes_and_drops_what_xml_forbids() -> None:
    text = xml('<a href="x">&\x00\x1b\x9b\ufffe ok</a>')
    assert text == "&lt;a href=&quot;x&quot;&gt;&amp;\ufffd\ufffd\ufffd\ufffd ok&lt;/a&gt;"
    ET.fromstring(f"<t a='{text}'>{text}</t>")


# ---------------------------------------------------------------- names through the commands
def test_cards_table_shows_names_escaped_not_as_markup(tmp_path: Path) -> None:
    r = _run("cards", str(_pack(tmp_path)))
    assert r.exit_code == 0, r.output
    _assert_safe(r.output)
    assert f"│ {SHOWN} " in r.output, r.output


def test_cards_json_escapes_what_a_terminal_would_obey(tmp_path: Path) -> None:
    r = _run("cards", str(_pack(tmp_path, "C1\x9bcontrol \u202eflip")), "--format", "json")
    assert r.exit_code == 0, r.output
    _assert_safe(r.output)
    assert "C1\x9bcontrol \u202eflip" in [row["name"] for row in json.loads(r.output)]


def test_play_log_and_scores_escape_names(tmp_path: Path) -> None:
    r = _run("play", str(_pack(tmp_path)), "--seed", "1")
    assert r.exit_code == 0, r.output
    _assert_safe(r.output)
    assert f"buys {SHOWN}" in r.output or f"buy {SHOWN}" in r.output, r.output


def test_log_lines_escape_every_text() -> None:
    entry = {"t": "decision", "kind": "choose", "player": 0, "purpose": "pick\x1b[1m", "options": [EVIL], "chose": [0]}
    assert logfmt.format_entry(entry, set(), set()) == f"  P1 pick\\x1b[1m: {SHOWN}"
    assert logfmt.format_entry({"t": "end", "turn": 3, "reason": "gone\x07"}, set(), set()) == \
        "\nGame over after turn 3: gone\\x07"
    event = {"t": "event", "event": "hit\x1b", "player": 1}
    assert logfmt.format_entry(event, set(), set()) == "  P2 · hit\\x1b"
    assert logfmt.format_entry(event, {"hit\x1b"}, set()) is None, "a quiet event stays quiet"


def test_check_excerpt_escapes_and_the_caret_still_points(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cards"
    bad.write_text('expansion "Bad"\nuses "injustice"\n\ncard "\x1b[31mRed": hero, price 3\n', encoding="utf-8")
    r = _run("check", str(bad))
    assert r.exit_code == 1, r.output
    _assert_safe(r.output)
    lines = r.output.splitlines()
    src = next(i for i, ln in enumerate(lines) if ln.startswith(" 4 | "))
    assert lines[src] == ' 4 | card "\\x1b[31mRed": hero, price 3'
    assert lines[src + 1].index("^") == lines[src].index("price")
    assert "unknown attribute 'price' on card '\\x1b[31mRed'" in r.output


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_every_diagnostic_format_is_terminal_safe(fmt: str) -> None:
    span = Span("e\x1bvil.cards", 1, 6, 1, 10)
    diag = error("CS201", f"unknown card '{EVIL}'\x9b", span, "did you mean '\u202eKing'?")
    out = format_diagnostics([diag], fmt, {"e\x1bvil.cards": f'card "{EVIL}": hero\x9b'})
    _assert_safe(out)
    if fmt in ("json", "sarif"):
        assert any(EVIL in s for s in _strings(json.loads(out)))


def test_scenario_and_variant_names_are_escaped(tmp_path: Path) -> None:
    game = tmp_path / "game"
    (game / "variants").mkdir(parents=True)
    rules = Path(__file__).resolve().parent.parent / "cardscripts" / "hero-dice-batman"
    for f in rules.glob("*.*"):
        (game / f.name).write_bytes(f.read_bytes())
    (game / "variants" / "evil.variant").write_text(f'variant "{EVIL}"\n', encoding="utf-8")
    (game / "x.scenario").write_text(f'scenario "{EVIL}"\nuses "game.rules"\nplayers 1\n\nexpect 1 == 2\n',
                                     encoding="utf-8")
    r = _run("variants", str(game))
    assert r.exit_code == 0 and SHOWN in r.output, r.output
    _assert_safe(r.output)
    r = _run("test", str(game / "x.scenario"))
    assert r.exit_code == 1 and f"FAIL  {SHOWN}" in r.output, r.output
    _assert_safe(r.output)


def test_fmt_diff_escapes_script_text(tmp_path: Path) -> None:
    f = _pack(tmp_path)
    f.write_text(f.read_text(encoding="utf-8").replace("+1 power", "+1   power"), encoding="utf-8")
    r = _run("fmt", "--check", str(f))
    assert r.exit_code == 1 and SHOWN in r.output, r.output
    _assert_safe(r.output)


def test_pytest_shows_a_scenario_name_escaped(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "evil.scenario").write_text(f'scenario "{EVIL}"\nuses "injustice"\nplayers 2\n\nexpect 1 == 1\n',
                                            encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "evil.scenario"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert SHOWN in run.stdout, run.stdout + run.stderr
    _assert_safe(run.stdout)


# ---------------------------------------------------------------- SVG and HTML
def test_svg_with_nul_and_controls_parses(tmp_path: Path) -> None:
    from cardscript.dsl.tools.render.cards import RenderedCard
    from cardscript.dsl.tools.render.html import card_svg, gallery_html

    card = RenderedCard(name="N\x00U\x1bL <b>&", types=("hero\x00",), attributes={"cost": 1, "vp": "\x00"},
                        copies=2, paragraphs=("+1 \x0b power </text>",))
    ET.fromstring(card_svg(card, "G\x00", {}))
    page = gallery_html("G\x00<script>", [card], {})
    assert "\x00" not in page and "\x1b" not in page and "\x0b" not in page
    assert "<script>alert" not in page and "G\ufffd&lt;script&gt;" in page and "&lt;b&gt;&amp;" in page


def test_render_writes_parseable_svg_and_escaped_html(tmp_path: Path) -> None:
    r = _run("render", str(_pack(tmp_path, "\x1bEvil <script>alert(1)</script> \x7f&")), "--svg", str(tmp_path / "svg"),
             "--html", str(tmp_path / "html"))
    assert r.exit_code == 0, r.output
    faces = sorted((tmp_path / "svg").glob("*.svg"))
    assert faces
    for face in faces:
        ET.parse(face)
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\x1b" not in page and "\x7f" not in page


# ---------------------------------------------------------------- internal errors
def _boom(*args: Any, **kw: Any) -> Any:
    raise KeyError("\x1b[2Jdeck")


def _log(tmp_path: Path) -> str:
    log = tmp_path / "game.jsonl"
    r = _run("play", "hero-dice-batman", "--seed", "2", "-q", "--log", str(log))
    assert r.exit_code == 0, r.output
    return str(log)


#: (command line, module, function to break) for every command
COMMANDS = [
    (["check", "{game}"], "cardscript.dsl.front.pipeline", "check_paths"),
    (["cards", "hero-dice-batman"], "cardscript.dsl.front.pipeline", "compile_game"),
    (["compile", "hero-dice-batman"], "cardscript.dsl.front.pipeline", "to_ir"),
    (["play", "hero-dice-batman", "-q"], "cardscript.runtime.engine", "Engine.run"),
    (["simulate", "hero-dice-batman", "-n", "2"], "cardscript.runtime.engine", "Engine.run"),
    (["variants", "hero-dice-batman"], "cardscript.dsl.front.variants", "list_variants"),
    (["render", "hero-dice-batman"], "cardscript.dsl.tools.render", "render_program"),
    (["fmt", "--check", "{game}"], "cardscript.dsl.tools.fmt", "format_file"),
    (["test", "{scenario}"], "cardscript.dsl.harness.scenario", "_run"),
    (["replay", "{log}"], "cardscript.runtime.engine", "Engine.run"),
    (["new", "expansion", "{new}", "--for", "injustice"], "cardscript.dsl.tools.scaffold", "new_expansion"),
]


def _patch(monkeypatch: pytest.MonkeyPatch, module: str, name: str) -> None:
    import importlib

    owner: Any = importlib.import_module(module)
    *path, attr = name.split(".")
    for part in path:
        owner = getattr(owner, part)
    monkeypatch.setattr(owner, attr, _boom)


def _args(args: list[str], tmp_path: Path) -> list[str]:
    root = Path(__file__).resolve().parent.parent
    scenario = next((root / "tests" / "scenarios").rglob("*.scenario"))
    values = {"game": str(root / "cardscripts" / "hero-dice-batman"), "scenario": str(scenario),
              "new": str(tmp_path / "pack")}
    if "{log}" in args:
        values["log"] = _log(tmp_path)
    return [a.format(**values) for a in args]


def _one_internal_line(output: str) -> str:
    found = [ln for ln in output.splitlines() if "internal error" in ln]
    assert len(found) == 1, output
    line = found[0]
    assert "please report it" in line and "--debug" in line, line
    return line


@pytest.mark.parametrize("args,module,name", COMMANDS, ids=[c[0][0] for c in COMMANDS])
def test_internal_error_exits_3_with_one_message(args: list[str], module: str, name: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    argv = _args(args, tmp_path)
    _patch(monkeypatch, module, name)
    r = CliRunner().invoke(main, argv)
    assert r.exit_code == 3, (r.exit_code, r.output, r.exception)
    line = _one_internal_line(r.output)
    assert "KeyError" in line and "\\x1b[2Jdeck" in line
    assert "Traceback" not in r.output
    _assert_safe(r.output.replace("internal error", ""))


def test_debug_shows_the_traceback_too(monkeypatch: pytest.MonkeyPatch) -> None:
    _patch(monkeypatch, "cardscript.dsl.front.pipeline", "compile_game")
    r = CliRunner().invoke(main, ["--debug", "cards", "injustice"])
    assert r.exit_code == 3
    assert "Traceback" in r.output and "_boom" in r.output
    _one_internal_line(r.output)


def test_a_builder_bug_is_an_internal_error_not_cs900(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cardscript.dsl.front import build

    monkeypatch.setattr(build._Builder, "card", _boom, raising=True)
    f = _pack(tmp_path, "Plain")
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code == 3, r.output
    assert "CS900" not in r.output
    assert "building the AST of" in _one_internal_line(r.output)


def test_a_formatter_bug_is_an_internal_error_not_cs900(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cardscript.dsl.tools import fmt

    calls = iter(range(1000))
    monkeypatch.setattr(fmt, "structure", lambda node: next(calls))
    r = CliRunner().invoke(main, ["fmt", "--check", str(_pack(tmp_path, "Plain"))])
    assert r.exit_code == 3, r.output
    assert "CS900" not in r.output and "would change what the script says" in _one_internal_line(r.output)


def test_an_ir_that_misses_its_schema_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardscript.dsl.front import pipeline

    monkeypatch.setattr(pipeline, "validate_ir", lambda ir: ["'x' is not allowed"])
    r = CliRunner().invoke(main, ["compile", "hero-dice-batman"])
    assert r.exit_code == 3, r.output
    assert "does not match its schema" in _one_internal_line(r.output)


def test_scenarios_report_an_internal_error_and_go_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cardscript.dsl.harness import scenario

    for name in ("a", "b"):
        (tmp_path / f"{name}.scenario").write_text(f'scenario "{name}"\nuses "injustice"\nplayers 2\n\nexpect 1 == 1\n')
    monkeypatch.setattr(scenario, "_run", _boom)
    res = scenario.run_scenario(tmp_path / "a.scenario")
    (d,) = res.diagnostics
    assert d.code == "CS900" and d.message.startswith("internal error: KeyError") and "please report it" in d.message
    assert "_boom" in res.internal
    r = CliRunner().invoke(main, ["test", str(tmp_path)])
    assert r.exit_code == 3, r.output
    assert r.output.count("FAIL") == 2 and r.output.count("internal error") == 2, r.output


def test_internal_message_is_one_safe_line() -> None:
    msg = internal_message(ValueError("line 1\nline 2 \x1b[2J" + "x" * 1000))
    assert "\n" not in msg and "\x1b" not in msg and len(msg) < 500
    assert msg.startswith("internal error: ValueError: line 1\\nline 2 \\x1b[2J")


# ---------------------------------------------------------------- every code: a hint and an example
def _codes_given(example: str, tmp: Path) -> tuple[set[str], list[Diagnostic]]:
    """Run a CODES example the way its first line says (see dsl/diagnostics.py) and
    return the codes of what it gave, and the diagnostics (none for a command)."""
    from cardscript.dsl.front.loader import load_program, resolve_game
    from cardscript.dsl.front.pipeline import check_paths, check_program
    from cardscript.dsl.harness.scenario import run_scenario
    from cardscript.dsl.tools.manifest import load_expansions

    example = example.replace("OTHER-GAME", "justice-league-dark").replace("GAME", "injustice")
    first = example.splitlines()[0]
    if first.startswith("$ cardscript "):
        r = CliRunner().invoke(main, shlex.split(first)[2:])
        assert r.exit_code in (0, 1, 2), r.output
        return set(re.findall(r"\[(CS\d{3})\]", r.output)), []
    if first.startswith("# cardscript.toml"):
        (tmp / "cardscript.toml").write_text(example, encoding="utf-8")
        (tmp / "pack.cards").write_text('expansion "Pack"\nuses "injustice"\n', encoding="utf-8")
        diags = check_paths([str(tmp)]).diagnostics + load_expansions("injustice", [str(tmp)])[1]
        return {d.code for d in diags}, diags
    if first.startswith("scenario "):
        (tmp / "example.scenario").write_text(example, encoding="utf-8")
        diags = run_scenario(tmp / "example.scenario").diagnostics
        return {d.code for d in diags}, diags
    if first.startswith("# new.cards, beside"):
        import shutil

        game = tmp / "game"
        shutil.copytree(resolve_game("injustice").parent, game)
        (game / "new.cards").write_text(example, encoding="utf-8")
        diags = check_paths([str(game)]).diagnostics
        return {d.code for d in diags}, diags
    if first.startswith("# a file on its own"):
        (tmp / "alone.cards").write_text(example, encoding="utf-8")
        diags = check_paths([str(tmp / "alone.cards")]).diagnostics
        return {d.code for d in diags}, diags
    if first.startswith("game "):
        (tmp / "game.rules").write_text(example, encoding="utf-8")
        diags = check_paths([str(tmp)]).diagnostics
        return {d.code for d in diags}, diags
    (tmp / "example.cards").write_text(example, encoding="utf-8")
    try:
        diags = check_program(load_program(resolve_game("injustice"), [tmp / "example.cards"]))
    except CompileError as exc:
        diags = exc.diagnostics
    return {d.code for d in diags}, diags


@pytest.mark.parametrize("code", list(CODES))
def test_every_code_has_a_title_a_hint_and_an_example(code: str) -> None:
    title, example, hint = CODES[code]
    assert title and example.strip() and len(hint) > 10, code
    doc = (Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    section = doc.split(f"## {code} — ", 1)[1].split("\n## ", 1)[0]
    assert "Example:" in section and f"Hint: {hint}." in section


@pytest.mark.parametrize("code", [c for c in CODES if c != "CS900"])
def test_every_example_gives_its_code_and_every_diagnostic_a_hint(code: str, tmp_path: Path) -> None:
    got, diags = _codes_given(CODES[code][1], tmp_path)
    assert code in got, f"the example of {code} gives {sorted(got)}"
    assert "CS900" not in got, "CS900 is never the answer to a script"
    for d in diags:
        assert d.hint, f"no hint: {render(d)}"


def test_a_diagnostic_without_its_own_hint_gets_its_codes() -> None:
    for code in CODES:
        assert error(code, "m", None).hint == CODES[code][2]
    assert error("CS201", "m", None, "did you mean 'hand'?").hint == "did you mean 'hand'?"
    assert "hint: " in render(error("CS208", "'otherwise' must follow an 'if' statement", None))


def test_every_code_the_compiler_uses_has_an_entry_and_so_a_hint() -> None:
    """A diagnostic built without a hint of its own takes its code's: so every code used
    anywhere in dsl/ must be in CODES."""
    root = Path(__file__).resolve().parent.parent / "dsl"
    used = {code for p in root.rglob("*.py") for code in re.findall(r'"(CS\d{3})"', p.read_text(encoding="utf-8"))}
    assert used and used <= set(CODES), sorted(used - set(CODES))

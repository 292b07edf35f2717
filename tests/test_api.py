"""The public Python API (docs/api.md): every example in it runs, and the API keeps its promises.

Each ```` ```python ```` block of docs/api.md runs on its own, from the repository's root
folder, in a fresh namespace; its ``assert`` lines are the checks.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

import cardscript

ROOT = Path(__file__).resolve().parent.parent
API_MD = ROOT / "docs" / "api.md"
FENCE = re.compile(r"^```python\n(.*?)^```[ \t]*$", re.M | re.S)


def _examples() -> list:
    source = API_MD.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(source):
        line = source.count("\n", 0, m.start()) + 2
        # padded so that a failing example's traceback names its line of docs/api.md
        out.append(pytest.param("\n" * (line - 1) + m.group(1), id=f"api.md:{line}"))
    return out


EXAMPLES = _examples()


def test_api_md_has_an_example_per_section() -> None:
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize("code", EXAMPLES)
def test_api_md_example_runs(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(API_MD), "exec"), {"__name__": "__api_example__"})  # test code, not the engine
    assert out.getvalue().strip(), "every example prints what it shows"


def test_everything_exported_exists_and_is_documented() -> None:
    text = API_MD.read_text(encoding="utf-8")
    for name in cardscript.__all__:
        obj = getattr(cardscript, name)
        assert obj.__doc__, f"{name} has no docstring"
        assert f"`{name}" in text or name in text, f"{name} is exported but docs/api.md does not mention it"


def test_play_game_matches_the_cli(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cardscript.dsl.cli import main

    log = tmp_path / "game.jsonl"
    run = CliRunner().invoke(main, ["play", "injustice", "--players", "3", "--seed", "7", "--bots", "heuristic,random",
                                    "--quiet", "--log", str(log)])
    assert run.exit_code == 0, run.output
    game = cardscript.compile_game("injustice")
    result = cardscript.play_game(game, players=3, agents=["heuristic", "random"], seed=7)
    import json

    cli_end = [json.loads(line) for line in log.read_text().splitlines() if '"t": "score"' in line]
    assert cli_end and cli_end[-1]["scores"] == result.scores


def test_play_games_are_the_seeds_in_order() -> None:
    game = cardscript.compile_game("hero-dice-batman")
    many = list(cardscript.play_games(game, 3, players=1, agents=["random"], seed=5))
    one_by_one = [cardscript.play_game(game, players=1, agents=["random"], seed=s, log=False) for s in (5, 6, 7)]
    assert [(r.scores, r.turns, r.outcome) for r in many] == [(r.scores, r.turns, r.outcome) for r in one_by_one]


def test_bad_arguments_are_type_or_value_errors_before_any_game() -> None:
    game = cardscript.compile_game("injustice")
    with pytest.raises(ValueError, match="2 to"):
        cardscript.play_game(game, players=9)
    with pytest.raises(TypeError, match="int"):
        cardscript.play_game(game, players="3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot"):
        cardscript.play_game(game, players=2, agents=["clever"])
    with pytest.raises(ValueError, match="empty"):
        cardscript.play_game(game, players=2, agents=[])
    with pytest.raises(ValueError, match="3 agents for 2 seats"):
        cardscript.play_game(game, players=2, agents=["greedy", "random", "random"])
    with pytest.raises(ValueError, match="one seat"):
        cardscript.play_game(game, players=2, agents=[cardscript.RandomAgent()])
    same = cardscript.RandomAgent()
    with pytest.raises(ValueError, match="one seat"):
        cardscript.play_game(game, players=2, agents=[same, same])
    with pytest.raises(TypeError, match="instance"):
        cardscript.play_game(game, players=2, agents=[cardscript.GreedyAgent, "random"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="bot name or an Agent"):
        cardscript.play_game(game, players=2, agents=[42, "random"])  # type: ignore[list-item]
    # play_games checks its arguments when called, not when the first result is read
    with pytest.raises(ValueError, match="unknown bot"):
        cardscript.play_games(game, 3, players=2, agents=["nope"])
    with pytest.raises(ValueError, match="0 or more"):
        cardscript.play_games(game, -1, players=2)
    with pytest.raises(TypeError, match="variants"):
        cardscript.compile_game("injustice", variants=[3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="game"):
        cardscript.compile_game("")
    with pytest.raises(ValueError, match="empty path"):
        cardscript.compile_game("injustice", expansions=[""])


def test_one_name_alone_is_a_list_of_one() -> None:
    one = cardscript.compile_game("injustice", variants="short")
    listed = cardscript.compile_game("injustice", variants=["short"])
    from cardscript.dsl.front.pipeline import to_ir

    assert to_ir(one) == to_ir(listed) != to_ir(cardscript.compile_game("injustice"))
    assert cardscript.play_game(one, players=2, agents="random", seed=4).log == \
        cardscript.play_game(listed, players=2, agents=["random"], seed=4).log
    assert cardscript.check_paths(str(ROOT / "examples" / "house-rules")).errors == 0


def test_scenarios_are_found_as_cardscript_test_finds_them() -> None:
    with pytest.raises(FileNotFoundError):
        cardscript.run_scenarios(["no/such/folder"])
    with pytest.raises(ValueError, match="not a scenario"):
        cardscript.run_scenarios([ROOT / "cardscripts" / "injustice" / "game.rules"])
    with pytest.raises(ValueError, match=r"no \.scenario files"):
        cardscript.run_scenarios([ROOT / "grammar"])
    files = cardscript.scenario_files(ROOT / "examples" / "house-rules")
    assert files and all(f.suffix == ".scenario" for f in files)


def test_a_runaway_script_raises_runaway_error() -> None:
    game = cardscript.compile_game("injustice", expansions=[ROOT / "tests" / "broken" / "runaway.cards"])
    with pytest.raises(cardscript.RunawayError):
        cardscript.play_game(game, players=2, seed=1, log=False)


def test_warnings_are_compile_warnings() -> None:
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cardscript.compile_game("injustice", mix=["hero-dice-batman"])
    found = [w.message for w in caught if isinstance(w.message, cardscript.CompileWarning)]
    assert found and all(m.diagnostic.severity == "warning" for m in found)
    assert found[0].diagnostic.code in str(found[0])


def test_python_dash_m_cardscript_is_the_cli() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "cardscript", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and cardscript.__version__ in out.stdout


def test_unknown_game_is_a_compile_error() -> None:
    with pytest.raises(cardscript.CompileError) as exc:
        cardscript.compile_game("injustise")
    assert exc.value.diagnostics[0].code == "CS002"
    assert "injustice" in exc.value.diagnostics[0].hint


def test_variants_and_expansions_change_the_definition() -> None:
    base = cardscript.compile_game("injustice")
    fan = cardscript.compile_game("injustice", expansions=[ROOT / "examples" / "injustice-fan"])
    assert {c.name for c in base.cards} < {c.name for c in fan.cards}
    with pytest.raises(cardscript.CompileError):
        cardscript.compile_game("injustice", variants=["no-such-variant"])


def test_api_runs_from_any_folder(tmp_path: Path) -> None:
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        game = cardscript.compile_game("justice-league-dark")
        assert cardscript.play_game(game, players=2, seed=2, log=False).turns > 0
    finally:
        os.chdir(cwd)

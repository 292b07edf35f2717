"""Issue 15, human play: ``cardscript play GAME --human SEAT`` driven by answers piped in
(no terminal), the HumanAgent through the Python API, undo, save and --resume, bad input,
``?NAME``; and the human seat, like the bots, never gets hold of the game."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_observations import _reachable

import cardscript
from cardscript.dsl.cli import main
from cardscript.dsl.cli.human import HumanAgent, Quit, Session, parse_picks
from cardscript.dsl.cli.humanplay import play_human
from cardscript.dsl.cli.humanview import table_info
from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.engine import Engine
from cardscript.runtime.game import Game, GameState

GAME = ["play", "injustice", "--variant", "short", "--seed", "3"]
ANSWERS = 600  # more "1"s than a short game of seat 1 asks for (about 180)


@pytest.fixture(scope="module")
def definition() -> GameDefinition:
    return cardscript.compile_game("injustice", variants="short")


@pytest.fixture(scope="module")
def info() -> Any:
    from cardscript.dsl.front.pipeline import compile_game
    from cardscript.dsl.front.variants import game_scripts

    extra, cards = game_scripts("injustice", [], ["short"], [])
    d, _, program = compile_game("injustice", extra, cards)
    return table_info(d, program)


def _human(lines: list[str], info: Any) -> HumanAgent:
    return HumanAgent(io.StringIO("".join(f"{x}\n" for x in lines)), io.StringIO(), info=info, tty=False)


def _play(definition: GameDefinition, lines: list[str], info: Any) -> tuple[Any, HumanAgent]:
    h = _human(lines, info)
    result = cardscript.play_game(definition, players=2, seed=3, agents=[h, "heuristic"])
    return result, h


def _scores(output: str) -> list[str]:
    """The score table's rows (place, player, bot, score, tie-breaks)."""
    return [line for line in output.splitlines() if line.startswith("│")]


def test_a_piped_game_reaches_the_final_scores_and_the_same_answers_replay_it() -> None:
    env = {**os.environ, "COLUMNS": "100"}
    answers = "1\n" * ANSWERS
    runs = [subprocess.run([sys.executable, "-m", "cardscript", *GAME, "--human", "1"], input=answers,
                           capture_output=True, text=True, timeout=120, env=env) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "Traceback" not in run.stderr
        assert "Final scores" in run.stdout
        assert "P1, what do you do? (choose one)" in run.stdout  # the prompts are there, piped or not
        assert "P1 > 1" in run.stdout  # each piped answer is echoed after its prompt
    rows = _scores(runs[0].stdout)
    assert len(rows) == 2 and any("human" in r for r in rows) and any("heuristic" in r for r in rows)
    assert rows == _scores(runs[1].stdout)


def test_the_api_plays_the_same_game_as_the_cli(definition: GameDefinition, info: Any) -> None:
    run = CliRunner().invoke(main, [*GAME, "--human", "1"], input="1\n" * ANSWERS)
    assert run.exit_code == 0, run.output
    result, h = _play(definition, ["1"] * ANSWERS, info)
    assert result.turns > 5
    cells = {c[2].strip(): c[4].strip() for c in (r.split("│") for r in _scores(run.stdout))}
    assert cells == {"P1" + (" ★" if 0 in result.winners else ""): str(result.scores[0]),
                     "P2" + (" ★" if 1 in result.winners else ""): str(result.scores[1])}
    assert h.session.answers and all(picks == [0] for _, picks in h.session.answers)


def test_undo_plays_on_as_if_the_answer_taken_back_was_never_given(definition: GameDefinition, info: Any) -> None:
    plain, _ = _play(definition, ["1"] * ANSWERS, info)
    # decision 2 is turn 1's first action (6 options): play Heavy Punch (5) instead, then take it back
    undone, h = _play(definition, ["1", "5", "undo", "1"] + ["1"] * ANSWERS, info)
    other, _ = _play(definition, ["1", "5"] + ["1"] * ANSWERS, info)
    assert "taking back your last choice" in h.output.getvalue()
    assert "Your last choice was taken back: choose again." in h.output.getvalue()
    assert undone.log == plain.log
    assert other.log != plain.log  # the answer undone did change the game: the test can fail
    assert [a for _, a in h.session.answers] == [[0]] * len(h.session.answers)


def test_undo_with_nothing_to_undo_says_so(definition: GameDefinition, info: Any) -> None:
    plain, _ = _play(definition, ["1"] * ANSWERS, info)
    result, h = _play(definition, ["undo"] + ["1"] * ANSWERS, info)
    assert "nothing to undo" in h.output.getvalue()
    assert result.log == plain.log


def test_save_then_resume_finishes_as_the_uninterrupted_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    whole = CliRunner().invoke(main, [*GAME, "--human", "1"], input="1\n" * ANSWERS)
    assert whole.exit_code == 0
    first = CliRunner().invoke(main, [*GAME, "--human", "1"], input="1\n" * 40 + f"save {save}\n")
    assert first.exit_code == 1  # the input ended: the game stops, unfinished, with a hint to save
    assert "Traceback" not in first.output and "unfinished" in first.output
    assert f"saved to {save}" in first.output
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["seed"] == 3 and data["humans"] == [1] and len(data["answers"]) == 40
    resumed = CliRunner().invoke(main, ["play", "--resume", str(save)], input="1\n" * ANSWERS)
    assert resumed.exit_code == 0, resumed.output
    assert f"Resumed {save}: 40 saved answers replayed." in resumed.output
    assert _scores(resumed.stdout) == _scores(whole.stdout)


def test_a_failed_save_keeps_playing_and_clobbers_nothing(definition: GameDefinition, info: Any,
                                                         tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "game.json"
    plain, _ = _play(definition, ["1"] * ANSWERS, info)
    h = _human(["1", f"save {target}", "save"] + ["1"] * ANSWERS, info)
    h_session = Session({"game": "injustice"})
    h.session = h_session
    result = play_human(definition, [h, cardscript.HeuristicAgent()], 3, session=h_session)
    text = h.output.getvalue()
    assert "not saved" in text and "save FILE: give the file" in text
    assert not target.parent.exists()
    assert result.log == plain.log


def test_resume_refuses_a_bad_file_cleanly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    run = CliRunner().invoke(main, ["play", "--resume", str(bad)])
    assert run.exit_code == 1 and "not a save file" in run.output
    other = tmp_path / "other.json"
    other.write_text('{"cardscript_save": 1, "game": "injustice"}', encoding="utf-8")
    run = CliRunner().invoke(main, ["play", "--resume", str(other)])
    assert run.exit_code == 1 and "missing" in run.output
    run = CliRunner().invoke(main, ["play", "injustice", "--resume", str(other)])
    assert run.exit_code == 2 and "give no GAME" in run.output
    run = CliRunner().invoke(main, ["play", "injustice", "--human", "3"])
    assert run.exit_code == 2 and "seats 1 to 2" in run.output


def test_eof_ends_the_game_cleanly_and_suggests_save() -> None:
    run = CliRunner().invoke(main, [*GAME, "--human", "1"], input="1\n1\n")
    assert run.exit_code == 1
    assert "Traceback" not in run.output and "save FILE" in run.output and "--resume" in run.output


def test_bad_input_re_asks_with_a_hint(definition: GameDefinition, info: Any) -> None:
    plain, _ = _play(definition, ["1"] * ANSWERS, info)
    result, h = _play(definition, ["9", "banana", "", "0", "1 2", "1"] + ["1"] * ANSWERS, info)
    text = h.output.getvalue()
    assert "there is no option 9: the options are 1 to 2" in text
    assert "'banana' is not an option nor a command" in text
    assert "type the number of your choice (1 to 2)" in text
    assert "you must choose at least 1" in text
    assert "2 chosen: choose 1 (one number)" in text
    assert result.log == plain.log  # nothing of that was taken as an answer


def test_help_log_and_card_lookup(definition: GameDefinition, info: Any) -> None:
    _, h = _play(definition, ["help", "?light punch", "? HEAVY", "?ligth pnch", "?zzzzqqq", "1", "log 5"]
                 + ["1"] * ANSWERS, info)
    text = h.output.getvalue()
    assert "undo           take back your last choice" in text
    assert "Light Punch\n" in text and "+1 Power." in text
    assert "Heavy Punch\n" in text and "Deal 2 damage to target foe." in text
    assert "no card called 'ligth pnch'; did you mean: Light Punch" in text
    assert "no card called 'zzzzqqq' in Injustice" in text


class _FakeView:
    def __init__(self, n: int, low: int, high: int, kind: str = "card"):
        self.size, self.low, self.high, self.kind = n, low, high, kind
        self.labels = ["no", "yes"] if kind == "yes/no" else [f"Card {i}" for i in range(n)]


def test_multi_picks_take_spaces_or_commas_and_say_the_allowed_range() -> None:
    view: Any = _FakeView(5, 0, 3)
    assert parse_picks("1 3 4", view) == ([0, 2, 3], "")
    assert parse_picks("3,1", view) == ([0, 2], "")
    assert parse_picks("0", view) == ([], "")
    assert parse_picks("", view) == ([], "")
    assert parse_picks("1 2 3 4", view)[1] == "4 chosen: choose up to 3 (0 or an empty line for none)"
    assert parse_picks("2 2", view)[1] == "each option can be chosen once"
    assert parse_picks("6", view)[1] == "there is no option 6: the options are 1 to 5"
    assert parse_picks("card 2", view) == ([2], "")  # a label typed out
    two: Any = _FakeView(4, 2, 2)
    assert parse_picks("1", two)[1] == "1 chosen: choose 2"
    assert parse_picks("", two)[1].startswith("type the number")
    yes: Any = _FakeView(2, 1, 1, "yes/no")
    assert parse_picks("y", yes) == ([1], "") and parse_picks("NO", yes) == ([0], "")


def test_hot_seat_two_humans(tmp_path: Path) -> None:
    run = CliRunner().invoke(main, [*GAME, "--human", "1", "--human", "2"], input="1\n" * (2 * ANSWERS))
    assert run.exit_code == 0, run.output
    rows = _scores(run.stdout)
    assert len(rows) == 2 and all("human" in r for r in rows)
    assert "P2 > " in run.stdout and "P2 (you)" in run.stdout


class _Walker(HumanAgent):
    """A human seat that, at its first decisions, walks everything it holds and was handed."""

    found: list[str]
    walked = 0

    def choose(self, view: Any, decision: Any) -> list[int]:
        if self.walked < 4:
            self.walked += 1
            for x in _reachable((view, decision, self)):
                if isinstance(x, (Game, GameState, GameDefinition, Engine)):
                    self.found.append(f"{type(x).__name__} from a {decision.kind} decision")
        return super().choose(view, decision)


def test_the_human_seat_never_gets_the_game(definition: GameDefinition, info: Any) -> None:
    h = _Walker(io.StringIO("1\n" * ANSWERS), io.StringIO(), info=info, tty=False)
    h.found = []
    cardscript.play_game(definition, players=2, seed=3, agents=[h, "heuristic"])
    assert h.walked == 4
    assert h.found == []


def test_the_input_ending_raises_quit_through_the_api(definition: GameDefinition, info: Any) -> None:
    with pytest.raises(Quit):
        _play(definition, ["1", "1"], info)


class _Responder(io.StringIO):
    """Answers each prompt by reading the screen drawn so far: "1", except at the first
    "choose up to 2" decision (of two dice), where it first picks three options, then two."""

    def __init__(self, screen: io.StringIO):
        super().__init__()
        self.screen, self.step = screen, 0

    def readline(self, size: int | None = -1) -> str:
        asking = [line for line in self.screen.getvalue().splitlines() if line.startswith("P1, ")][-1]
        if "choose up to 2" in asking and self.step < 2:
            self.step += 1
            return "1 2 3\n" if self.step == 1 else "2,1\n"
        return "1\n"


def test_a_multi_pick_in_a_real_game_takes_two_after_a_bad_pick() -> None:
    d = cardscript.compile_game("hero-dice-batman")
    screen = io.StringIO()
    h = HumanAgent(_Responder(screen), screen, game="hero-dice-batman", tty=False)
    cardscript.play_game(d, players=2, seed=5, agents=[h, "heuristic"])
    text = screen.getvalue()
    assert h.input.step == 2  # type: ignore[attr-defined]
    assert "P1 > 1 2 3\nthere is no option 3: the options are 1 to 2\nP1 > 2,1\n" in text
    assert [0, 1] in [picks for _, picks in h.session.answers]


def test_a_human_game_logged_with_log_replays_identically(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    run = CliRunner().invoke(main, [*GAME, "--human", "1", "--log", str(log)], input="1\n" * ANSWERS)
    assert run.exit_code == 0, run.output
    replay = CliRunner().invoke(main, ["replay", str(log)])
    assert replay.exit_code == 0 and "replay identical" in replay.output


def test_resume_of_a_missing_file_is_a_usage_error_as_replay_of_one_is(tmp_path) -> None:
    """'play --resume nofile' exited 1 where 'replay nofile' exits 2 (docs/cli.md, exit
    codes: a missing path given to play is a usage error). Both exit 2 now, naming the file."""
    missing = str(tmp_path / "nofile")
    for argv in (["play", "--resume", missing], ["replay", missing]):
        r = CliRunner().invoke(main, argv)
        assert r.exit_code == 2 and "does not exist" in r.output, (argv, r.output)


def test_log_and_log_for_one_file_is_a_usage_error(tmp_path) -> None:
    """'--log F --log-for 1 ./F': the seat's log overwrote the game's, and replay then said
    the file was not a log (found by a hostile trial). A usage error now, nothing written."""
    f = tmp_path / "y.jsonl"
    r = CliRunner().invoke(main, ["play", "injustice", "-q", "--log", str(f), "--log-for", "1",
                                  str(tmp_path / "." / "y.jsonl")])
    assert r.exit_code == 2 and "give each its own file" in r.output, r.output
    assert not f.exists()

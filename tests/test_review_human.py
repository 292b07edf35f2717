"""Review of human play (``cardscript play --human``) as a careless or hostile user: every
bad answer is re-asked with a hint and never ends the game; a bad save file is named as
such; nothing a user types reaches Python as a traceback."""

from __future__ import annotations

import json

import io
import os
import subprocess
import sys
from typing import Any

from click.testing import CliRunner

from cardscript.dsl.cli import main
from cardscript.dsl.cli.human import HumanAgent, parse_picks

GAME = ["play", "injustice", "--variant", "short", "--seed", "3", "--human", "1"]


class _View:
    """Just what parse_picks reads of a DecisionView."""

    def __init__(self, n: int, low: int = 1, high: int = 1, kind: str = "card"):
        self.size, self.low, self.high, self.kind = n, low, high, kind
        self.player = 0
        self.labels = ["no", "yes"] if kind == "yes/no" else [f"Card {i}" for i in range(n)]


def test_a_digit_that_is_not_a_number_is_no_option() -> None:
    # '²' and '٣' pass str.isdigit(); int('²') raised ValueError, a crash of the whole game
    view: Any = _View(5)
    assert parse_picks("²", view) == ([], "there is no option ²: the options are 1 to 5")
    assert parse_picks("1 ²", view)[1] == "there is no option ²: the options are 1 to 5"
    assert parse_picks("٣", view)[1] == "there is no option ٣: the options are 1 to 5"


def test_a_huge_number_is_no_option_and_is_shown_short() -> None:
    # int() of more than 4,300 digits raises ValueError (Python's int_max_str_digits)
    view: Any = _View(5)
    picks, problem = parse_picks("1" * 5000, view)
    assert picks == [] and problem.startswith("there is no option 1111") and problem.endswith("the options are 1 to 5")
    assert len(problem) < 80
    assert parse_picks("00003", view) == ([2], "")  # leading zeros are still a number


def test_odd_numbers_typed_in_a_real_game_are_re_asked() -> None:
    run = CliRunner().invoke(main, GAME, input="²\n" + "9" * 4000 + "\n1 ²\n" + "1\n" * 600)
    assert "internal error" not in run.output and run.exit_code == 0
    assert run.output.count("there is no option") == 3
    assert "Final scores" in run.output


def _agent(lines: list[str]) -> HumanAgent:
    return HumanAgent(io.StringIO("".join(f"{x}\n" for x in lines)), io.StringIO(), tty=False)


def test_log_with_a_huge_or_odd_count() -> None:
    h = _agent([])
    h.events = [{"t": "x"}]
    for arg in ("9" * 5000, "²", "-3", "lots"):
        h._log(arg)  # no ValueError
    out = h.output.getvalue()
    assert "log N: N is how many events to show" in out


def _play_piped(data: bytes, env_extra: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, **env_extra}
    return subprocess.run([sys.executable, "-m", "cardscript", *GAME], input=data, capture_output=True, env=env,
                          timeout=300, check=False)


def test_binary_bytes_on_a_strict_utf8_stdin_are_re_asked() -> None:
    # PYTHONIOENCODING=utf-8 (or a UTF-8 locale other than C.UTF-8) reads stdin strictly
    run = _play_piped(b"\xff\xfe\x00\n" + b"1\n" * 600, {"PYTHONIOENCODING": "utf-8"})
    out = run.stdout.decode("utf-8", "replace") + run.stderr.decode("utf-8", "replace")
    assert "internal error" not in out and "Traceback" not in out
    assert "is not an option nor a command" in out
    assert run.returncode == 0 and "Final scores" in out


def test_the_echo_of_a_piped_answer_does_not_replay_escape_sequences() -> None:
    run = CliRunner().invoke(main, GAME, input="\x1b[2J\x1b]0;pwned\x07\n" + "1\n" * 600)
    assert "\x1b[2J" not in run.output and "\x1b]0;" not in run.output
    assert "P1 > \\x1b[2J\\x1b]0;pwned\\x07" in run.output


def _save_file(tmp_path: Any, **change: Any) -> str:
    import json

    data = {"cardscript_save": 1, "game": "injustice", "with": [], "variants": ["short"], "mix": [], "players": 2,
            "seed": 3, "bots": "greedy", "humans": [1], "answers": [[0, [0]]]}
    data.update(change)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_save_file_with_a_bad_seat_or_bot_names_the_file_not_an_option(tmp_path: Any) -> None:
    # the user typed no --human nor --bots: the message said "Invalid value for --human"
    for change, key in (({"humans": [5]}, "humans"), ({"bots": "nobot"}, "bots"), ({"players": 9}, "players"),
                        ({"humans": [1, 1]}, "humans")):
        path = _save_file(tmp_path, **change)
        run = CliRunner().invoke(main, ["play", "--resume", path], input="")
        assert run.exit_code == 1, run.output
        assert f"{path}: the save file's '{key}' does not fit the game" in run.output
        assert "Invalid value for --" not in run.output and "Usage:" not in run.output


def test_a_save_file_of_another_format_says_so(tmp_path: Any) -> None:
    run = CliRunner().invoke(main, ["play", "--resume", _save_file(tmp_path, cardscript_save=2)], input="")
    assert run.exit_code == 1
    assert "is a save file of format 2, written by another version of cardscript: this one reads format 1" \
        in run.output
    run = CliRunner().invoke(main, ["play", "--resume", _save_file(tmp_path, seed="three")], input="")
    assert run.exit_code == 1 and "the save file's 'seed' is missing or not a whole number" in run.output


def test_help_lists_quit() -> None:
    h = _agent(["help"])
    h._answer("help", None, None)  # type: ignore[arg-type]
    assert "quit           stop the game" in h.output.getvalue()


def test_save_expands_a_home_folder_as_a_shell_would(tmp_path: Any, monkeypatch: Any) -> None:
    # 'save ~/game.json' is typed at the game's prompt, where no shell expands '~'
    monkeypatch.setenv("HOME", str(tmp_path))
    run = CliRunner().invoke(main, GAME, input="save ~/game.json\n")
    assert f"saved to {tmp_path}/game.json" in run.output, run.output
    assert (tmp_path / "game.json").is_file()


def test_a_seat_beyond_the_default_player_count_suggests_players() -> None:
    # hero-dice-batman defaults to 1 hero: '--human 2' said only "a game of 1 players has seats 1 to 1"
    run = CliRunner().invoke(main, ["play", "hero-dice-batman", "--human", "2"], input="")
    assert run.exit_code == 2
    assert "seat 2: a game of 1 player has seats 1 to 1 (--players 2 or more for seat 2)" in run.output
    run = CliRunner().invoke(main, ["play", "injustice", "--players", "2", "--human", "3"], input="")
    assert run.exit_code == 2 and "seat 3: a game of 2 players has seats 1 to 2" in run.output
    assert "--players 3 or more" not in run.output  # the user chose 2 players
    run = CliRunner().invoke(main, ["play", "injustice", "--human", "0"], input="")
    assert run.exit_code == 2 and "seat 0: a game of 2 players has seats 1 to 2" in run.output
    assert "--players 0" not in run.output  # no player count gives a seat 0
    run = CliRunner().invoke(main, ["play", "injustice", "--human", "9"], input="")
    assert "seat 9: a game of 2 players has seats 1 to 2" in run.output and "or more" not in run.output


def test_ctrl_c_at_a_prompt_reminds_of_save(monkeypatch: Any) -> None:
    # Ctrl-C printed only 'interrupted' (exit 130), where the end of the input reminds of save
    import cardscript.dsl.cli.humanplay as humanplay

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(humanplay, "play_human", interrupted)
    run = CliRunner().invoke(main, GAME, input="")
    assert run.exit_code == 130
    assert "interrupted: the game stops here, unfinished" in run.output and "save FILE" in run.output


def test_save_does_not_replace_a_file_that_is_not_a_save_file(tmp_path: Any, monkeypatch: Any) -> None:
    # 'save game.rules' typed in a game's folder replaced the script with the save's JSON
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.rules").write_text("game \"Mine\"\n", encoding="utf-8")
    run = CliRunner().invoke(main, GAME, input="save game.rules\nsave game.json\n1\nsave game.json\n")
    assert (tmp_path / "game.rules").read_text(encoding="utf-8") == "game \"Mine\"\n"
    assert "not saved: game.rules exists and is not a save file, so it is not replaced" in run.output
    assert run.output.count("saved to game.json") == 2  # a save file is replaced by the next save
    assert '"answers"' in (tmp_path / "game.json").read_text(encoding="utf-8")


def test_log_to_stdout_is_refused_in_human_play() -> None:
    # '--log -' printed the JSON log into the same stdout as the game's screen, after the scores
    run = CliRunner().invoke(main, [*GAME, "--log", "-"], input="1\n" * 600)
    assert run.exit_code == 2
    assert "standard output is the game's screen in human play" in run.output
    assert '"t": "header"' not in run.output


def test_a_huge_line_is_re_asked_without_being_kept_or_echoed_whole() -> None:
    # a 5 MB line was read whole, split into 2.5 million tokens and echoed back whole
    from cardscript.dsl.cli.human import LINE_LIMIT

    huge = "1 " * 1_000_000
    run = CliRunner().invoke(main, GAME, input=huge + "\n" + "1\n" * 600)
    assert run.exit_code == 0 and "Final scores" in run.output
    assert f"that line is too long (2,000,000 characters; an answer has at most {LINE_LIMIT:,})" in run.output
    assert len(run.output) < 1_000_000  # the transcript holds a clip of it, not the line
    h = _agent(["x" * (LINE_LIMIT + 10), "1"])
    view: Any = _View(3)
    assert h._read(view) is None and h._read(view) == "1"


def test_a_log_to_stdout_is_json_lines_only() -> None:
    # the score table (and the readable log) went into the same stdout as the JSON log:
    # a piped log could not be replayed. They go to stderr then.
    run = CliRunner().invoke(main, ["play", "injustice", "--seed", "3", "--log", "-"])
    assert run.exit_code == 0, run.output
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert rows[0]["t"] == "header" and len(rows) > 100
    assert "Final scores" in run.stderr

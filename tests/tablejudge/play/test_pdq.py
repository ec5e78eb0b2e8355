"""``tablejudge play pdq``: the solo game through stdin, a bot game, and bad input."""

from __future__ import annotations

import io
import json

import pytest

from engine.pdq.game import PdqGame
from engine.pdq.moves import NoWord
from engine.pdq.options import PdqOptions
from tablejudge.cli import main
from tablejudge.play.highscore import HighScores


def run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_solo_game_through_stdin(adjudicator, tmp_path, monkeypatch, capsys) -> None:
    game = PdqGame("variant=solo", adjudicator)
    first = game.new_initial_state(3).round.letters
    word = adjudicator.pdq(first, variant="left-to-right", limit=1).words[0]
    scores = tmp_path / "scores.sqlite3"
    typed = f"qqqqqq\n{word}\n?\n"
    code, out, err = run(["play", "pdq", "--solo", "--seed", "3", "--scores", str(scores)], typed, monkeypatch, capsys)
    assert code == 0 and err == ""
    assert f"Round 1 (75 cards left): {' '.join(first)}" in out
    assert "QQQQQQ: " in out and "Try again." in out  # refused, asked again
    assert f"{word.upper()}" in out and f"You took {first}" in out
    assert "Game over (stumped)" in out and "New high score: 3!" in out
    assert HighScores(scores).best(PdqOptions.preset("solo")) == 3
    code, out, _ = run(["play", "pdq", "--solo", "--seed", "3", "--scores", str(scores)], "\n", monkeypatch, capsys)
    assert code == 0 and "High score: 3" in out and "High score to beat: 3" in out


def test_solo_end_of_input_means_stumped_and_json_output(tmp_path, monkeypatch, capsys) -> None:
    argv = ["play", "pdq", "--solo", "--seed", "1", "--json", "--scores", str(tmp_path / "s.sqlite3")]
    code, out, _ = run(argv, "", monkeypatch, capsys)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and lines[0]["report"]["outcome"] == "no_word"
    assert lines[-1]["result"]["reason"] == "stumped" and lines[-1]["result"]["new_high_score"]


def test_bot_game_prints_every_round_and_the_result(monkeypatch, capsys) -> None:
    argv = ["play", "pdq", "--players", "3", "--bots", "quick,steady,slow", "--seed", "3"]
    code, out, err = run(argv, "", monkeypatch, capsys)
    assert code == 0 and err == ""
    rounds = [line for line in out.splitlines() if line.startswith("Round ")]
    assert len(rounds) >= 26 and "most familiar:" in out and "Game over (deck_spent)" in out and "Winner:" in out


def test_bot_game_json_reports_and_options(monkeypatch, capsys) -> None:
    argv = ["play", "pdq", "--bots", "steady,steady", "--variant", "pdl", "--option", "scoring=alternate",
            "--seed", "2", "--json"]  # fmt: skip
    code, out, _ = run(argv, "", monkeypatch, capsys)
    lines = [json.loads(line) for line in out.splitlines()]
    reports = [line["report"] for line in lines if "report" in line]
    assert code == 0 and reports and all("most_familiar" in r for r in reports)
    assert sum(lines[-1]["result"]["scores"]) >= sum(len(c) for c in lines[-1]["result"]["collected"])


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "pdq"],
        ["play", "pdq", "--bots", "genius"],
        ["play", "pdq", "--bots", "quick", "--players", "0"],
        ["play", "pdq", "--bots", "quick,slow", "--variant", "chess"],
        ["play", "pdq", "--bots", "quick,slow", "--option", "colour=red"],
        ["play", "pdq", "--bots", "quick,slow", "--option", "nonsense"],
        ["play", "pdq", "--solo", "--variant", "pdl"],
        ["play", "pdq", "--solo", "--bots", "quick"],
        ["play", "pdq", "--solo", "--option", "variant=pdl"],  # once a PDL game announced as solo
    ],
)
def test_bad_input_exits_2_with_one_line(argv, monkeypatch, capsys) -> None:
    code, out, err = run(argv, "", monkeypatch, capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


class SteppingClock:
    """The referee's clock for a terminal race: each reading is ``step`` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_racing_bots_at_the_terminal_a_quick_word_wins(adjudicator) -> None:
    from tablejudge.play.pdq import _seats, play_race

    game = PdqGame({"players": 3, "window_ms": 300}, adjudicator)  # a short window: the first word wins
    first = game.new_initial_state(3).round.letters
    word = adjudicator.pdq(first, limit=1).words[0]
    out = io.StringIO()
    seats = _seats(game, ["you", "quick", "steady"], 3)
    play_race(game, seats, 3, io.StringIO(f"qqqq\n{word}\n"), out, clock=SteppingClock(0.05))
    text = out.getvalue()
    assert "QQQQ: " in text and "Try again." in text
    assert f"You took {first} (3 cards) with {word.upper()}" in text  # 50 ms: long before any bot
    assert "no-word votes: You" in text  # the end of input votes "no word" in every later round
    assert "Game over (deck_spent)" in text and "Winner:" in text


def test_racing_bots_at_the_terminal_a_slow_word_is_too_late(adjudicator) -> None:
    from tablejudge.play.pdq import _seats, play_race

    game = PdqGame({"players": 2}, adjudicator)
    first = game.new_initial_state(3).round.letters
    word = adjudicator.pdq(first, limit=1).words[0]
    out = io.StringIO()
    play_race(game, _seats(game, ["quick", "you"], 3), 3, io.StringIO(f"{word}\n"), out, clock=SteppingClock(600.0))
    text = out.getvalue()
    assert "Too late!" in text.split("Round 2")[0] and "quick0 took" in text.split("Round 2")[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "pdq", "--bots", "you,you"],
        ["play", "pdq", "--bots", "you,quick", "--players", "3"],
        ["play", "pdq", "--bots", "you,quick", "--variant", "pdl"],
    ],
)
def test_bad_terminal_races_exit_2(argv, monkeypatch, capsys) -> None:
    code, out, err = run(argv, "", monkeypatch, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_a_person_racing_a_bot_sees_every_row_and_gets_every_window(adjudicator) -> None:
    """Issue 10: a word typed 1.4 s after the deal ended the round, and the bot then played the next
    round alone, its row never shown. Every row is shown to the person, whatever ends the round before."""
    from tablejudge.play.pdq import _seats, play_race

    game = PdqGame({"players": 2}, adjudicator)
    state = game.new_initial_state(3)
    words = []
    rows = []
    probe = state.clone()
    while probe.round is not None and len(rows) < 4:  # the first rows, and a word for each
        rows.append(probe.round.letters)
        found = adjudicator.pdq(probe.round.letters, limit=1).words
        words.append(found[0] if found else "?")
        for seat in (0, 1):
            probe.act(seat, NoWord(probe.round.clock_ms))
    typed = "".join(f"{word}\n" for word in words) + "?\n" * 40
    out = io.StringIO()
    play_race(game, _seats(game, ["you", "slow"], 3), 3, io.StringIO(typed), out, clock=SteppingClock(1.4))
    text = out.getvalue()
    shown = [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("Round ")]
    assert [row.replace(" ", "") for row in shown[:4]] == rows  # the person saw each row, in order
    assert text.count("You took") >= 2  # 1.4 s is before the slow bot in each of those rounds


def test_one_person_alone_is_told_to_play_the_solo_game(monkeypatch, capsys) -> None:
    code, _, err = run(["play", "pdq", "--bots", "you"], "", monkeypatch, capsys)
    assert code == 2 and "--solo" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["play", "pdq", "--bots", "quick", "--option", "players=2"], "--players"),
        (["play", "pdq", "--bots", ""], "say who plays"),
    ],
)
def test_seat_mistakes_are_clear_errors(argv, says, monkeypatch, capsys) -> None:
    code, _, err = run(argv, "", monkeypatch, capsys)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1


def test_the_solo_game_in_json_prints_only_json(tmp_path, monkeypatch, capsys) -> None:
    code, out, _ = run(["play", "pdq", "--solo", "--json", "--seed", "3", "--scores", str(tmp_path / "s.db")],
                       "zzzzqq\n12\n", monkeypatch, capsys)  # fmt: skip
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]  # every line is JSON
    assert lines[0]["refused"]["rule"] == "not_a_word" and lines[1]["refused"]["rule"] == "bad_notation"
    assert "result" in lines[-1]


def test_ruling_27_the_terminal_deals_on_past_a_pause(adjudicator, tmp_path, monkeypatch, capsys) -> None:
    """A table's pause between rounds (``pause_ms``) asked at the terminal: the report of each round is printed
    before the next row, so the person at it is ready at once; the solo game and a race go through every row."""
    scores = str(tmp_path / "s.sqlite3")
    game = PdqGame({"variant": "solo", "pause_ms": 30_000}, adjudicator)
    first = game.new_initial_state(3).round.letters
    word = adjudicator.pdq(first, variant="left-to-right", limit=1).words[0]
    argv = ["play", "pdq", "--solo", "--seed", "3", "--option", "pause_ms=30000", "--scores", scores]
    code, out, err = run(argv, f"{word}\n?\n", monkeypatch, capsys)
    assert code == 0 and err == "" and "Round 2 (72 cards left)" in out and "Game over (stumped)" in out
    from tablejudge.play.pdq import _seats, play_race

    race = PdqGame({"players": 2, "window_ms": 300, "pause_ms": 30_000}, adjudicator)
    out_race = io.StringIO()
    play_race(race, _seats(race, ["you", "steady"], 2), 3, io.StringIO(""), out_race, clock=SteppingClock(0.05))
    assert "Game over (deck_spent)" in out_race.getvalue()  # every row, none left waiting in a pause

"""``tablejudge play qwiply``: a person plays a whole game at the terminal, reading only the screen; bot
games; bad input."""

from __future__ import annotations

import io
import json
import re

import pytest

from engine import load_state
from tablejudge.cli import main

BAD_SETUP = "setup x=1,2,3,4,5 bid=3,3,3,3,12"
SETUP = "setup x=2,2,2,2,2 bid=2,3,2,3,2"


class Stranger:
    """stdin for a person who knows only what the screen shows: the set-up's form from its prompt (first
    a bid too high, to be told why), ``lead palm`` when asked to lead, and the first claim the screen
    lists. Everything the game printed is kept in ``screen``."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.screen = ""
        self.typed: list[str] = []

    def readline(self) -> str:
        self.screen += self.capsys.readouterr().out
        prompts = {"Your set-up": "setup", "You declare the lead suit": "lead", "Your claims": "claim"}
        last = max(prompts, key=lambda header: self.screen.rfind(header))
        if prompts[last] == "setup":
            move = SETUP if BAD_SETUP in self.typed else BAD_SETUP
        elif prompts[last] == "lead":
            move = "lead palm"
        else:
            listed = self.screen[self.screen.rfind("Your claims") :].splitlines()[1]
            found = re.match(r"\s+(claim \d(?: \w+)?)\s", listed)
            assert found is not None, listed
            move = found[1]
        self.typed.append(move)
        return move + "\n"


def test_a_person_plays_a_whole_game_with_hidden_bids_from_the_screen(monkeypatch, capsys) -> None:
    stranger = Stranger(capsys)
    monkeypatch.setattr("sys.stdin", stranger)
    argv = ["play", "qwiply", "--bots", "greedy,human,planner:2", "--seed", "3", "--option", "bids=hidden"]
    code = main(argv)
    stranger.screen += capsys.readouterr().out
    screen = stranger.screen
    assert code == 0
    assert "bids are 0 to 11" in screen, "the refused set-up is explained"
    assert stranger.typed.count(SETUP) == 1 and "lead palm" in stranger.typed
    assert stranger.typed.count("lead palm") >= 2, "the start player passes left: player 1 leads again"
    assert "player 0: setup (sealed)" in screen and "player 2: setup (sealed)" in screen
    assert "player 0: bids hidden" in screen and "player 1 (you): 0 points as it stands" in screen
    assert "bid=2,3,2,3,2" not in screen.replace(f"player 1: {SETUP}", ""), "only the typed set-up shows it"
    final = screen[screen.rfind("game over after") :]
    assert "bids hidden" not in final.split("\n", 1)[1] and "game over: player" in final and "winner: player" in final
    assert final.count("total") == 3, "at the end every sheet shows its scoring"


def test_a_bot_game_prints_its_moves_and_the_end(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(["play", "qwiply", "--bots", "greedy,random", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("qwiply, seed 2: greedy, random")
    assert "player 0: setup (sealed)" in out and "player 1: setup (sealed)" in out
    assert re.search(r"player [01]: lead \w+", out) and re.search(r"player [01]: claim \d", out)
    assert "game over:" in out and "winner:" in out


def test_a_bot_game_as_json_is_a_saved_state(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(["play", "qwiply", "--bots", "greedy,greedy,random", "--seed", "5", "--json"])
    data = json.loads(capsys.readouterr().out)
    state = load_state(data)
    assert code == 0 and state.is_terminal() and data["options"]["players"] == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "qwiply", "--bots", "greedy"],  # one player
        ["play", "qwiply", "--bots", "greedy,genius"],
        ["play", "qwiply", "--bots", "greedy,planner:many"],
        ["play", "qwiply", "--bots", "greedy,greedy", "--option", "bids=secret"],
    ],
)
def test_bad_input_exits_2_with_one_line(argv, monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1

"""The grid games' terminal (``tablejudge.play.grid``) through the real CLI entry point, game by game:
a person typing a whole game (bad moves explained, ``hint``, ``help``, ``moves``), the first refusal
naming its rule, the finished state as JSON, people sharing one terminal. Each game's own output is
in ``test_<game>.py`` beside this one."""

from __future__ import annotations

import io
from typing import Any

import pytest

from engine.digit.game import DigitGame
from engine.matchfive.game import MatchFiveGame
from engine.qnto.game import QntoGame
from engine.qnto.text import LEGEND
from engine.three2fifteen.game import END_TEXT, Three2FifteenGame
from tablejudge.cli import main
from tests.tablejudge.play.terminal import finished_json, greedy_moves, people_share, person_plays

#: Each game: bad moves a person types first, and what the game then says of them and at its end.
PEOPLE: dict[str, tuple[Any, list[str], list[str]]] = {
    "digit": (DigitGame, ["pass", "0,0 9z"], [
        "expected 'ROW,COL",
        "the first player starts the game by placing tiles on the centre square (row 0, column 0)",  # no pass first
        "tiles are a face and a colour (9y, ?y, ??)", "game over:",
    ]),
    "matchfive": (MatchFiveGame, ["0,0:1 9r", "5,5:1 *", "0,9:1 1r"], [
        "expected a play ('0,0:1a 3r 2r 1r'", "tile '9r': write 3r (a red 3)",
        "a wild is played as the tile it stands for", "winner: player", "game over: a player placed their last tile",
    ]),
    "qnto": (QntoGame, ["0,0 Zz", "40,40 Sy"], ["expected 'ROW,COL", "tiles are a face and a colour", LEGEND,
                                                "winner: player"]),
    "three2fifteen": (Three2FifteenGame, ["7,7 99", "0,0 1"], [
        "expected 'ROW,COL", "token '99': a token is a whole number from 0 to 15", "winner: player",
        "every token is on the board",
    ]),
}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PEOPLE))
def test_a_person_plays_a_whole_game_and_bad_moves_are_explained(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game, bad, said = PEOPLE[name]
    typed = ["nonsense", *bad, "", "hint", "help", "moves", *greedy_moves(game(), 3, 0)]
    out = person_plays(monkeypatch, capsys, ["play", name, "--bots", "human,greedy", "--seed", "3"], typed)
    assert "legal: " in out and "  1. " in out  # moves, hint
    assert "your hand: " in out and "<- you, to move" in out
    assert [text for text in said if text not in out] == []


@pytest.mark.parametrize(("name", "seed", "typed", "refusals"), [
    ("matchfive", 5, "9,9:1 1r", ("not in your hand", "attaches to the tiles")),
    ("three2fifteen", 1, "0,0 1", ("start square", "in the hand")),
])  # fmt: skip
def test_the_first_refusal_of_a_person_names_the_rule(
    name: str, seed: int, typed: str, refusals: tuple[str, str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\n"))
    assert main(["play", name, "--seed", str(seed)]) == 1  # --bots defaults to you against greedy
    captured = capsys.readouterr()
    assert any(refusal in captured.out for refusal in refusals)
    assert "input ended" in captured.err


@pytest.mark.parametrize(("name", "seed", "ends"), [
    ("digit", 3, {"out"}), ("matchfive", 3, {"went_out"}), ("three2fifteen", 7, set(END_TEXT)),
])  # fmt: skip
def test_json_prints_the_finished_state(
    name: str, seed: int, ends: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["play", name, "--players", "2", "--bots", "greedy,random", "--seed", str(seed)]
    assert finished_json(capsys, command, name)["end_reason"] in ends


@pytest.mark.parametrize("game", [MatchFiveGame, Three2FifteenGame])
def test_people_sharing_the_terminal_hand_it_over_between_turns(
    game: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = people_share(monkeypatch, capsys, game(), 2)  # a short game: nobody can place soon
    assert "Hand the device to player 0" in out and "Hand the device to player 1" in out and "winner:" in out


@pytest.mark.parametrize(("command", "args", "message"), [
    ("digit-hint", ["9y 5g", "--hand", "1y"], "no line"),
    ("digit-hint", ["9y . 5g", "--hand", "1y"], "one piece"),
    ("digit-hint", ["9y", "--hand", "9y"], "more tiles than the box"),
    ("digit-hint", ["9y", "--hand", "1y 2y 3y 4y 5y 6y"], "1 to 5 tiles"),
    ("digit-hint", ["9y", "--hand", "1q"], "--hand"),
    ("digit-hint", ["9y", "--hand", "1y", "--limit", "-1"], "0 or more"),
    ("digit-hint", ["9x 1y", "--hand", "1y"], "not a tile"),
    ("digit-hint", [". .", "--hand", "1y"], "no tiles"),
    ("matchfive-hint", ["0,0:3r", "--hand", "3r", "--limit", "-1"], "--limit"),
    ("matchfive-hint", ["0,0:3r 0,2:1r", "--hand", "3r"], "not one grouping"),
    ("matchfive-hint", ["0,0:3r", "--hand", "3r 3r 3r"], "more tiles than the bag holds"),
    ("matchfive-hint", ["0,0:3r", "--hand", "1r 2r 3r 4r 5r 1b"], "a hand holds 1 to 5"),
    ("matchfive-hint", ["0,0:9r", "--hand", "3r"], "tile '9r'"),
    ("matchfive-hint", ["no-such-file", "--hand", "3r"], "cannot read"),
])  # fmt: skip
def test_the_hint_command_refuses_bad_input_in_one_line(
    command: str, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1

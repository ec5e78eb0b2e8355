"""``tablejudge play digit`` and ``tablejudge digit-hint`` through the real CLI entry point."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from engine.bots import make_bot, play_game
from engine.digit.game import DigitGame
from tablejudge.cli import main

PLAY = ["play", "digit", "--players", "2", "--bots", "greedy,random", "--seed", "3"]


def test_a_bot_game_prints_each_turn_with_what_it_did_then_the_grid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(PLAY) == 0
    out = capsys.readouterr().out
    assert "player 0 starts (the first-player draw: player 0 6k, player 1 0g)" in out
    assert "player 0: -1,0d 1k??\n    2 tiles: 1k, ?? (= black 0, yellow 1, green 1, red 1, blue 1 or black 2)" in out
    assert "player 0 placed a 5th or 10th tile: another turn" in out
    assert "pass (2 tiles traded)" in out  # another's trade shows as a count
    assert not re.search(r"draw (to )?\d", out)  # the draws are the players' own business
    final = out[out.rindex("\n    -6  -5") :]
    assert "*1k" in final and " 9r" in final and "wilds: -7,3 blank black tile = black 1" in final
    assert "game over: a player played their last tile and wins; player 0 wins" in final
    assert "tiles left: player 0 0, player 1 20" in final
    assert main(PLAY) == 0 and capsys.readouterr().out == out  # the same seed plays the same game


def test_json_prints_the_finished_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY, "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["game"] == "digit" and state["state"]["end_reason"] == "out"


def greedy_moves(seed: int, seat: int) -> list[str]:
    """What the greedy bot plays at ``seat`` in a greedy-vs-greedy game from ``seed``: typed by a person
    in that seat, they play the same game."""
    game = DigitGame()
    final = play_game(game, [make_bot("greedy", seed * 1000 + s, game) for s in range(2)], seed)
    return [move.to_text() for s, move in final.history if s == seat]


def test_a_person_plays_a_whole_game_and_bad_moves_are_explained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = ["nonsense", "pass", "0,0 9z", "", "hint", "help", "moves", *greedy_moves(3, 0)]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    assert main(["play", "digit", "--bots", "human,greedy", "--seed", "3"]) == 0  # player 0 starts
    out = capsys.readouterr().out
    assert "How to write a move" in out and "player 0, your move: " in out
    assert "expected 'ROW,COL" in out  # nonsense, explained; then asked again
    # no pass first
    assert "the first player starts the game by placing tiles on the centre square (row 0, column 0)" in out
    assert "tiles are a face and a colour (9y, ?y, ??)" in out
    assert "legal: " in out and "  1. " in out  # moves, hint
    assert "your hand: " in out and "<- you, to move" in out and "game over:" in out


def test_people_sharing_a_terminal_hand_it_over(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
                                                ) -> None:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "digit", "--bots", "human,human", "--seed", "5"]) == 1  # input ended at once
    assert "Hand the device to player" in capsys.readouterr().out


def test_bad_flags_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "digit", "--bots", "greedy,greedy", "--option", "players=4"]) == 2
    assert main(["play", "digit", "--bots", "greedy,greedy,greedy,greedy", "--option", "digit_tiles=4"]) == 2
    err = capsys.readouterr().err
    assert "share out equally" in err and len(err.strip().splitlines()) == 2


def test_hint_lists_the_best_moves_for_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["digit-hint", "9y ?? ./. 0g .", "--hand", "8g 1r 1k ?? 4b", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("     0   1\n 0  9y *??\n 1   .  0g\nhand: 8g 1r 1k ?? 4b\n")
    assert "  1. -2,2d 1k1r??" in out and "across 9y ?? ??: yellow sequence 9 0 1" in out
    assert "  4. " not in out


def test_hint_reads_a_file_and_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "grid.txt"
    board.write_text("     0  1  2  3\n 0  6g 7g 8g 9g\n")
    assert main(["digit-hint", str(board), "--hand", "0g 5g 1y 2y 3y", "--pile", "0", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["hand"] == ["0g", "5g", "1y", "2y", "3y"]
    assert found["moves"][0]["move"] == "0,-1a 5g....0g"  # the 5th and 6th tiles: another turn, two tiles
    kinds = [item["kind"] for item in found["moves"][0]["breakdown"]["items"]]
    assert "another_turn" in kinds


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["9y 5g", "--hand", "1y"], "no line"),
        (["9y . 5g", "--hand", "1y"], "one piece"),
        (["9y", "--hand", "9y"], "more tiles than the box"),
        (["9y", "--hand", "1y 2y 3y 4y 5y 6y"], "1 to 5 tiles"),
        (["9y", "--hand", "1q"], "--hand"),
        (["9y", "--hand", "1y", "--limit", "-1"], "0 or more"),
        (["9x 1y", "--hand", "1y"], "not a tile"),
        ([". .", "--hand", "1y"], "no tiles"),
    ],
)
def test_hint_refuses_bad_input_with_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]
                                              ) -> None:  # fmt: skip
    assert main(["digit-hint", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1

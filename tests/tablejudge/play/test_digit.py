"""``tablejudge play digit`` and ``tablejudge digit-hint`` through the real CLI entry point."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

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



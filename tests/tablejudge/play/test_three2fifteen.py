"""``tablejudge play three2fifteen`` and ``tablejudge three2fifteen-hint`` through the real CLI entry point."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.three2fifteen.board import format_board
from engine.three2fifteen.layout import named_layout
from engine.three2fifteen.movegen import scored_plays
from tablejudge.cli import main

PLAY = ["play", "three2fifteen", "--players", "2", "--bots", "greedy,random", "--seed", "7"]


def test_a_bot_game_prints_each_turn_with_its_breakdown_then_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(PLAY) == 0
    out = capsys.readouterr().out
    assert "player 1 starts (drawn at random)" in out
    assert "player 1: 6,7d 3 5 7  +110" in out and "three at once   +50" in out and "total           110" in out
    assert not re.search(r"draw (to )?\d", out)  # the draws are the players' own business
    assert out.count("\nscores: ") >= 20 and "winner: player" in out
    final = out[out.rindex("    0  1  2") :]
    assert " r " in final and " t " in final and "game over:" in final
    assert main(PLAY) == 0 and capsys.readouterr().out == out  # the same seed plays the same game


# --- three2fifteen-hint ----------------------------------------------------------------------
BOARD = {(7, 6): 9, (7, 7): 4, (6, 7): 3}


def test_hint_lists_the_best_plays_with_their_breakdowns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.txt"
    path.write_text(format_board(BOARD, named_layout("classic")))
    assert main(["three2fifteen-hint", str(path), "--hand", "2 5 11", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    best = scored_plays(BOARD, [2, 5, 11], named_layout("classic"))[0]
    shown = "\n".join("    " + line for line in best.breakdown.text().splitlines())
    assert f"  1. {best.move.to_text()}" in out and f"best play:\n{shown}\n" in out
    assert "  4. " not in out
    assert main(["three2fifteen-hint", "    6  7/ 6  .  3/ 7  9  4", "--hand", "2 5 11", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["plays"][0]["move"] == best.move.to_text() and found["plays"][0]["points"] == best.points


def test_hint_with_no_play_says_exchange(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["three2fifteen-hint", "    7/ 7 15", "--hand", "1 2 3"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("no play: exchange a token (or pass)")


@pytest.mark.parametrize(
    "argv",
    [
        ["three2fifteen-hint", "no-such-board.txt", "--hand", "2"],
        ["three2fifteen-hint", "    7  8/ 7  9  9", "--hand", "2"],  # a two over 15
        ["three2fifteen-hint", "    7/ 7 15", "--hand", "15"],  # one 15 in the bag
        ["three2fifteen-hint", "    7/ 7 15", "--hand", "1 2 3 4 5 6"],
        ["three2fifteen-hint", "    7/ 7 15", "--hand", "16"],
        ["three2fifteen-hint", "    7/ 7 15", "--hand", "1", "--limit", "-1"],
        ["play", "three2fifteen", "--bots", "greedy,wizard"],
        ["play", "three2fifteen", "--bots", "greedy", "--players", "2"],
        ["play", "three2fifteen", "--bots", "greedy,greedy,greedy,greedy,greedy"],
        ["play", "three2fifteen", "--bots", "greedy,greedy", "--option", "hand_size=9"],
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablejudge: ") and err.count("\n") == 1


def test_hint_refuses_a_board_file_that_is_not_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.bin"
    path.write_bytes(b"\xff\xfe\x00board")
    assert main(["three2fifteen-hint", str(path), "--hand", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablejudge: board: cannot read") and err.count("\n") == 1

"""``tablejudge play three2fifteen`` and ``tablejudge three2fifteen-hint`` through the real CLI entry point."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from engine.three2fifteen.board import format_board
from engine.three2fifteen.game import END_TEXT, Three2FifteenGame
from engine.three2fifteen.layout import named_layout
from engine.three2fifteen.movegen import scored_plays
from tablejudge.cli import main
from tests.engine.linegames.terminal import finished_json, greedy_moves, people_share, person_plays

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


def test_json_prints_the_finished_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert finished_json(capsys, PLAY, "three2fifteen")["end_reason"] in END_TEXT


def test_a_person_plays_a_whole_game_and_bad_moves_are_explained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = ["nonsense", "7,7 99", "0,0 1", "", "hint", "help", "moves", *greedy_moves(Three2FifteenGame(), 3, 0)]
    out = person_plays(monkeypatch, capsys, ["play", "three2fifteen", "--bots", "human,greedy", "--seed", "3"], typed)
    assert "expected 'ROW,COL" in out  # nonsense, explained; then asked again
    assert "token '99': a token is a whole number from 0 to 15" in out
    assert "legal: " in out and "  1. " in out  # moves, hint
    assert "your hand: " in out and "<- you, to move" in out
    assert "winner: player" in out and "every token is on the board" in out


def test_the_first_refusal_of_a_person_names_the_rule(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("0,0 1\n"))
    assert main(["play", "three2fifteen", "--seed", "1"]) == 1  # --bots defaults to you against greedy
    captured = capsys.readouterr()
    assert "start square" in captured.out or "in the hand" in captured.out
    assert "input ended" in captured.err


def test_people_sharing_the_terminal_hand_it_over_between_turns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = people_share(monkeypatch, capsys, Three2FifteenGame(), 2)  # a short game: nobody can place soon
    assert "Hand the device to player 0" in out and "Hand the device to player 1" in out and "winner:" in out


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

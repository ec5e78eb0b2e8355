"""``tablejudge play bop`` and ``tablejudge bop-hint`` through the real CLI entry point."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from engine.bop import BopGame
from engine.bop.board import format_board, parse_board
from engine.bop.cli import _print_turn
from engine.bop.moves import Challenge, Pass, parse_move
from engine.bop.tiles import parse_tiles
from tablejudge.cli import main

PLAY = ["play", "bop", "--players", "2", "--bots", "greedy,random", "--seed", "7"]


def test_play_prints_each_turn_with_its_breakdown_and_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(PLAY) == 0
    out = capsys.readouterr().out
    assert "turn 1: player" in out and "total" in out and "game over" in out and "winner: player" in out
    assert out.count("\nturn ") >= 10
    last_board = out[out.rindex("\nscores:") - 2000 : out.rindex("\nscores:")]
    assert " . " in last_board  # the ASCII board
    assert "(no tiles left)" in out and "(0 for" not in out  # seed 7: player 0 goes out
    main(PLAY)
    assert capsys.readouterr().out == out  # the same seed plays the same game


def test_the_report_shows_what_could_have_been_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY, "--report"]) == 0
    assert "could have played:" in capsys.readouterr().out  # the random bot rarely finds the best play


def test_play_json_is_a_finished_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY, "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["over"] is True and state["game"] == "bop" and len(state["history"]) > 5


def test_a_person_can_play_and_bad_moves_are_explained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "nonsense\n5,5 Zz\nhint\n" + "pass\n" * 40
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(["play", "bop", "--bots", "human,greedy", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "expected 'ROW,COL" in out  # the notation error, explained; then asked again
    assert "game over" in out


@pytest.mark.parametrize(
    "argv",
    [
        [*PLAY[:4], "--bots", "greedy,wizard"],
        [*PLAY[:4], "--bots", "greedy"],
        ["play", "bop", "--players", "1", "--bots", "greedy"],
        ["bop-hint", "Fk Rb Sb/. . Hy", "--hand", "Ae"],
        ["bop-hint", "Fk Rb Sb/. . Xx", "--hand", "Mb"],
        ["bop-hint", "Fk Rb Sb/. . Hy", "--hand", "Fk"],
        ["bop-hint", "Fk Rb Sb/. . Hy", "--hand", "Mb Ty Lk Ng Wr Hg"],  # six tiles: no hand holds six
        ["bop-hint", ". . ./. . .", "--hand", "Mb"],  # no tiles: there is always a starter
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablejudge: ") and err.count("\n") == 1


def test_hint_prints_the_best_plays_with_their_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bop-hint", "Fk Rb Sb/. . Hy", "--hand", "Wr Hg My Mb Yb", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "  1. " in out and "whammy" in out and "best play:" in out


def test_hint_reads_the_board_the_game_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main([*PLAY, "--json"])
    state = json.loads(capsys.readouterr().out)
    board = {(r, c): t for r, c, t in state["board"]}
    spare = (state["hands"][0] + state["hands"][1] + state["pile"])[:4]
    path = tmp_path / "board.txt"
    path.write_text(format_board(board))
    assert parse_board(path.read_text()) == board
    assert main(["bop-hint", str(path), "--hand", " ".join(spare), "--json", "--limit", "0"]) == 0
    hints = json.loads(capsys.readouterr().out)
    points = [p["points"] for p in hints["plays"]]
    assert points == sorted(points, reverse=True)


def test_with_a_person_at_the_table_the_report_covers_their_turns_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\n" * 40))
    assert main(["play", "bop", "--bots", "human,greedy", "--seed", "3", "--report"]) == 0
    turns = capsys.readouterr().out.split("\nturn ")[1:]
    reported = [turn.split("\n", 1)[0] for turn in turns if "could have played:" in turn]
    assert reported, "passing throws away plays the report shows"
    assert all("(human)" in heading for heading in reported)  # never a bot's plays: they show its hand


def test_input_ending_mid_game_abandons_it_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\n"))
    assert main(["play", "bop", "--bots", "human,greedy", "--seed", "3"]) == 1
    assert "input ended" in capsys.readouterr().err


def test_a_bots_trade_stays_face_down_and_a_withdrawn_play_leaves_the_board(adjudicator: Any) -> None:
    game = BopGame({"mode": "challenge"}, adjudicator=adjudicator)
    state = game.from_position(parse_board("Fk Rb Sb\n. . Hy"), [parse_tiles("Xk Mb"), parse_tiles("Lk Ty")])
    out = io.StringIO()
    _print_turn(out, 1, 0, "greedy", Pass(("Xk",)), state.clone().apply(Pass(("Xk",))), state, public=True)
    assert "pass (1 tiles traded)" in out.getvalue() and "Xk" not in out.getvalue()
    state.act(state.current, parse_move("2,2 Xk"))  # SHX: a bluff
    upheld = state.act(state.current, Challenge())
    out = io.StringIO()
    _print_turn(out, 2, 1, "human", Challenge(), upheld, state)
    assert "challenge upheld" in out.getvalue() and format_board(state.board) in out.getvalue()
    assert "Xk" not in format_board(state.board)

"""``tablejudge play bop`` and ``tablejudge bop-hint`` through the real CLI entry point."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from engine.bop import BopGame
from engine.bop.board import format_board, parse_board
from engine.bop.moves import Challenge, Pass, parse_move
from engine.bop.options import parse_tiles
from engine.values import CHANCE
from tablejudge.cli import main
from tablejudge.play.bop import _print_turn

PLAY = ["play", "bop", "--players", "2", "--bots", "greedy,random", "--seed", "7"]


@pytest.mark.slow
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


@pytest.mark.slow
def test_the_report_shows_what_could_have_been_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY, "--report"]) == 0
    assert "could have played:" in capsys.readouterr().out  # the random bot rarely finds the best play


@pytest.mark.slow
def test_play_json_is_a_finished_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY, "--json"]) == 0
    saved = json.loads(capsys.readouterr().out)
    assert saved["state"]["over"] is True and saved["game"] == "bop" and saved["options"]["players"] == 2
    players = [seat for seat, _ in saved["history"] if seat >= 0]
    assert len(players) > 5 and set(players) == {0, 1}
    state = BopGame(saved["options"]).state_from_json(saved)
    assert state.is_terminal() and state.to_json() == saved


@pytest.mark.slow
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


@pytest.mark.slow
def test_hint_reads_the_board_the_game_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main([*PLAY, "--json"])
    saved = json.loads(capsys.readouterr().out)
    # Seed 7 ends with every tile on the grid: take the game halfway, where the player on turn holds a hand.
    turns = [index for index, (seat, _) in enumerate(saved["history"]) if seat != CHANCE]
    state = BopGame(saved["options"]).replay(saved["seed"], saved["history"][: turns[len(turns) // 2]])
    path = tmp_path / "board.txt"
    path.write_text(format_board(state.board))
    assert parse_board(path.read_text()) == state.board
    assert main(["bop-hint", str(path), "--hand", " ".join(state.hand()), "--json", "--limit", "0"]) == 0
    hints = json.loads(capsys.readouterr().out)
    expected = [(scored.move.to_text(), scored.points) for scored in state.legal_plays()]
    assert expected and [(p["move"], p["points"]) for p in hints["plays"]] == expected  # best first


@pytest.mark.slow
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
    _print_turn(out, 1, 0, "greedy", Pass(("Xk",)), state.clone().act(0, Pass(("Xk",))), state, public=True)
    assert "pass (1 tiles traded)" in out.getvalue() and "Xk" not in out.getvalue()
    state.act(state.current, parse_move("2,2 Xk"))  # SHX: a bluff
    upheld = state.act(state.current, Challenge())
    out = io.StringIO()
    _print_turn(out, 2, 1, "human", Challenge(), upheld, state)
    assert "challenge upheld" in out.getvalue() and format_board(state.board) in out.getvalue()
    assert "Xk" not in format_board(state.board)


# --- issue 10: the terminal game at a real table ----------------------------------------------------------
@pytest.mark.slow
def test_the_terminal_game_is_the_sheets_challenge_game_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY[:6], "--seed", "7", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["mode"] == "challenge"
    assert main([*PLAY[:6], "--seed", "7", "--mode", "strict", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["mode"] == "strict"


def test_every_other_person_is_offered_the_challenge_and_the_device_is_handed_over(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Three people: whoever plays, each of the two others is asked whether to challenge.
    typed = "\n" + "pass\n" + ("\n" * 3 + "pass\n") * 60
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    argv = ["play", "bop", "--players", "3", "--bots", "human,human,human", "--seed", "3", "--option", "pass_limit=6"]
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0
    assert "Hand the device to player" in out and "\033[2J" in out  # a cleared screen between people
    assert out.count("How to write a move") <= 3  # the notation is shown once per person


@pytest.mark.slow
def test_a_person_sees_the_notation_from_their_own_hand_and_may_type_tiles_with_spaces(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = BopGame({"mode": "strict"})
    state = game.new_initial_state(3)
    hand = state.hands[state.current]
    monkeypatch.setattr("sys.stdin", io.StringIO("0,1a " + " ".join(hand[:2]) + "\n" + "pass\n" * 80))
    assert main(["play", "bop", "--bots", "human,greedy", "--seed", "3", "--mode", "strict", "--option",
                 "pass_limit=8"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    letters = [tile for tile in hand if tile != "?"]
    assert f"0,1a {''.join(letters[:2])}" in out  # the example is made of the person's own tiles
    assert "expected 'ROW,COL" not in out  # "0,1a Ty Ry" reads as a play (refused or not, not a syntax error)


def test_a_hand_holding_only_one_of_a_tile_says_so() -> None:
    state = BopGame({"mode": "strict"}).from_position(parse_board("Fk Rb Sb/. . Hy"), [parse_tiles("? Mb"), []])
    with pytest.raises(Exception, match=r"your hand holds only 1 BOP! tile"):
        state.act(0, "1,0a ??")


def test_a_bad_colour_code_lists_the_colours_in_play() -> None:
    with pytest.raises(Exception, match="y=yellow, g=green, r=red, k=black, b=blue") as error:
        parse_tiles("Sz")
    assert "purple" not in str(error.value)


def test_a_failed_challenge_names_the_word_that_justified_the_play(adjudicator: Any) -> None:
    game = BopGame({"mode": "challenge"}, adjudicator=adjudicator)
    state = game.from_position(parse_board("Fk Rb Sb\n. . Hy"), [parse_tiles("Mb"), parse_tiles("Lk")])
    state.act(0, parse_move("2,2 Mb"))  # SHM: sham, shim, shmo
    failed = state.act(1, Challenge())
    detail = failed.items[0].detail
    assert failed.items[0].label == "challenge failed" and "SHM" in detail and "sham" in detail
    assert detail.startswith("player 0's play SHM stands: ")  # the play by its line, not its notation ("2,2 Mb")

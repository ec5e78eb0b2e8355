"""The ``tablejudge`` command: readable verdicts, the API's JSON, exit code 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from indexes.notation import echo
from tablejudge.cli import main
from tablejudge.play.bop import PATH_ECHO


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bop_listing_and_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bop", "WHMMY")
    assert code == 0 and out.startswith("VALID: 1 word(s) underlie WHMMY") and "whammy" in out
    code, out, _ = run(capsys, "bop", "c?wb", "--word", "cobweb")
    assert code == 0 and out.startswith("VALID") and "standing for B" in out
    code, out, _ = run(capsys, "bop", "FRS", "--word", "fast")
    assert code == 0 and out.startswith("NOT VALID (skeleton_mismatch)")


def test_pdq_listing_check_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "pdq", "PNA", "--word", "painter")
    assert code == 0 and out.startswith("NOT VALID (out_of_order)")
    code, out, _ = run(capsys, "pdq", "TGN", "--variant", "anywhere", "--limit", "3", "--json")
    body = json.loads(out)
    assert body["variant"] == "anywhere" and len(body["words"]) == 3 and body["count"] > 3
    code, out, _ = run(capsys, "pdq", "PNA", "--sort", "longest", "--limit", "0", "--min-length", "12")
    lines = out.splitlines()
    assert lines[0].startswith("VALID") and "... and" not in out and len(lines) > 2


def test_word(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "word", "shmo", "--json")
    assert json.loads(out)["valid"] is True and json.loads(out)["definition"]["lemmas"] == ["shmo"]
    code, out, _ = run(capsys, "word", "mojos")
    assert out.splitlines()[1:] == ["  mojo, noun: a magic power or magic spell"]
    code, out, _ = run(capsys, "word", "the")
    assert out.splitlines()[1:] == ["  WordNet has no definition of the"]
    code, out, _ = run(capsys, "word", "texas")
    assert out.startswith("NOT VALID")
    code, out, _ = run(capsys, "word", "texas", "--lexicon", "complete")
    assert out.startswith("VALID")


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["bop", "FAS"], "is a vowel"),
        (["pdq", "PNABC"], "2 to 4 cards"),
        (["pdq", "PNA", "--variant", "sideways"], "unknown PDQ variant"),
        (["word", "sh1mo"], "only the letters a-z"),
        (["bop", "FRS", "--lexicon", "klingon"], "unknown lexicon"),
        (["bop", "FRS", "--limit", "-3"], "limit must be"),
        (["bop"], "required: letters"),
        (["pdq", "PNA", "--min-length", "four"], "invalid int value"),
        (["frobnicate"], "invalid choice"),
        (["bop", "F???"], "at most 2 BOP! tiles"),
        (["bop", "F"], "at least 2 tiles"),
        (["bop", "FRS", "--word", "fe rs"], "only the letters a-z"),
        (["pdq", "PNA", "--sort", "random"], "unknown sort order"),
        (["pdq", "PNA", "--min-length", "0"], "min_length must be"),
        (["pdq", "P N 4"], "only the letters A-Z"),
        (["pdq", "PNA", "--word", ""], "the word is empty"),
        (["word", "x" * 65], "at most 64"),
        (["word", "caf\u00e9\nbar"], "only the letters a-z"),  # a newline in the input stays on one line
        (["pdq", ""], "PDQ letters: no cards; deal 2 to 4 letter cards"),
        (["pdq", " - "], "PDQ letters: no cards; deal 2 to 4 letter cards"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], complaint: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and complaint in err


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["pdq", "P" * 1000], "PDQ letters 'PPPPPPPPPPPPPPPPPPPP'…: a deal is 2 to 4 cards, got 1000"),
        (["pdq", "P?" * 500], "PDQ letters 'P?P?P?P?P?P?P?P?P?P?'…: only the letters A-Z are cards"),
        (["bop", "B" * 1000], "BOP! letters: at most 32 tiles, got 1000"),
        (["bop", "B" + " " * 998 + "A"], "BOP! letters 'B                   '…: 'A' is a vowel"),
        (["bop", "FRS", "--word", "shmo" * 15 + "1"], "'shmoshmoshmoshmoshmo'… is not a word"),
        (["pdq", "PNA", "--variant", "x" * 1000], "unknown PDQ variant 'xxxxxxxxxxxxxxxxxxxx'…;"),
        (["bop", "FRS", "--lexicon", "k" * 1000], "unknown lexicon 'kkkkkkkkkkkkkkkkkkkk'…;"),
    ],
)
def test_long_input_is_cut_in_complaints(capsys: pytest.CaptureFixture[str], argv: list[str], complaint: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert complaint in err and len(err) < 160


def shown(path: str) -> str:
    return echo(path, width=PATH_ECHO)


def _hint_complaint(capsys: pytest.CaptureFixture[str], board: str) -> str:
    code, out, err = run(capsys, "bop-hint", board, "--hand", "Mb")
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("tablejudge: board: ")
    return err.removeprefix("tablejudge: ").rstrip("\n")


def test_bop_hint_says_when_the_board_file_is_missing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    expected = "board: there is no file {} (a board written out splits cells by spaces, rows by '/')"
    assert _hint_complaint(capsys, "nonexist.txt") == expected.format("'nonexist.txt'")
    missing = str(tmp_path / "boards" / "b1")
    assert _hint_complaint(capsys, missing) == expected.format(shown(missing))
    # A name too long for the file system is no file either (it raised OSError from is_file()).
    assert _hint_complaint(capsys, "x" * 5000) == expected.format(repr("x" * PATH_ECHO) + "…")


def test_bop_hint_says_when_the_board_is_a_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert _hint_complaint(capsys, "/tmp") == "board: '/tmp' is a folder, not a board file"
    assert _hint_complaint(capsys, str(tmp_path)) == f"board: {shown(str(tmp_path))} is a folder, not a board file"


def test_bop_hint_says_when_the_board_file_cannot_be_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\xff\xfe Fk")
    assert _hint_complaint(capsys, str(binary)) == f"board: {shown(str(binary))} is not a text file"
    locked = tmp_path / "c.txt"
    locked.write_text("Fk Rb Sb\n", encoding="utf-8")

    def refuse(self: Path, *args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_text", refuse)  # tests often run as root, whom chmod does not stop
    assert _hint_complaint(capsys, str(locked)) == f"board: cannot read {shown(str(locked))}: Permission denied"


@pytest.mark.parametrize(
    ("board", "complaint"),
    [
        ("", "board: no rows"),
        ("Sy Xq", "'q' is not a colour; the tiles' colours are y=yellow"),
        ("Fk Rb Sb/. . Hy 9z", "'9z' is not a tile"),
    ],
)
def test_a_board_written_out_is_still_judged_as_a_board(
    capsys: pytest.CaptureFixture[str], board: str, complaint: str
) -> None:
    code, _, err = run(capsys, "bop-hint", board, "--hand", "Mb")
    assert code == 2 and err.count("\n") == 1 and complaint in err and "file" not in err


def test_a_board_of_one_column_needs_no_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bop-hint", "Fk/Rb", "--hand", "Mb", "--limit", "1")
    assert code == 0 and out.startswith("    0\n 0 Fk\n 1 Rb\n")


@pytest.mark.parametrize("module", ["tablejudge.cli", "tablejudge"])
def test_the_command_as_a_module(module: str) -> None:
    """``python -m tablejudge`` (and its ``cli`` module) is the command, with its exit codes."""
    done = subprocess.run([sys.executable, "-m", module, "bop", "YSR"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "eyesore" in done.stdout
    bad = subprocess.run([sys.executable, "-m", module, "bop", "AEI"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


@pytest.mark.slow
@pytest.mark.parametrize("game", __import__("engine").registered_games())
def test_every_registered_game_plays_from_the_command_line(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9: ``tablejudge play GAME --players N --bots ... --seed S`` through the shared loop, for every game."""
    assert main(["play", game, "--players", "2", "--bots", "greedy,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out.lower()
    assert "game over" in out and ("winner" in out or "wins" in out)


@pytest.mark.slow
def test_the_levels_play_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``--bots`` takes the levels as every game names them; an unknown name is one line and exit 2."""
    code, out, _ = run(capsys, "play", "three2fifteen", "--bots", "hard,easy", "--seed", "3")
    assert code == 0 and "player 0 (hard)" in out and "player 1 (easy)" in out and "winner" in out
    code, _, err = run(capsys, "play", "three2fifteen", "--bots", "wizard,easy", "--seed", "3")
    assert code == 2 and err.count("\n") == 1 and "easy, normal, hard, random" in err


def test_learn_leaves_refuses_a_game_without_tables_before_writing(capsys: pytest.CaptureFixture[str]) -> None:
    """``tablejudge learn-leaves``: a game that has no leave tables is one line and exit 2 (the byte-for-byte
    regeneration itself is ``tests/engine/test_leaves.py``'s)."""
    code, out, err = run(capsys, "learn-leaves", "pdq", "--check")
    assert code == 2 and out == "" and err.count("\n") == 1 and "no leave tables for 'pdq'" in err


def test_the_hint_command_is_offered_for_every_game_whose_engine_gives_hints() -> None:
    """``tablejudge hint GAME`` exists exactly for the games whose ``Game`` offers ``hints`` (the protocol)."""
    from engine import Game, game_class, registered_games
    from tablejudge.commands.play import GRID_COMMANDS

    offering = {name for name in registered_games() if game_class(name).hints is not Game.hints}
    assert set(GRID_COMMANDS) == offering and offering >= {"bop", "qnto"}


#: One hint for each game that offers them: the game and a position with a hand (issue 25).
HINT_CASES = {
    "bop": ["Fk Rb Sb/. . Hy", "--hand", "Wr Hg My Mb Yb", "--limit", "3"],
    "digit": ["9y ?? ./. 0g .", "--hand", "8g 1r 1k ?? 4b", "--limit", "3"],
    "matchfive": ["0,0:3r 0,1:2r 0,2:1r", "--hand", "5r 4r * 2b 3y", "--limit", "3"],
    "qnto": ["Sy Hy", "--hand", "Sg Dy !b", "--limit", "3"],
    "three2fifteen": ["    6  7/ 6  .  3/ 7  9  4", "--hand", "2 5 11", "--limit", "3"],
}


@pytest.mark.parametrize("game", sorted(HINT_CASES))
def test_hint_game_answers_as_the_old_per_game_command(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tablejudge hint GAME ...`` is the one hint command; ``GAME-hint`` stays as its alias, word for word."""
    outputs = []
    for argv in (["hint", game, *HINT_CASES[game]], [f"{game}-hint", *HINT_CASES[game]]):
        code, out, err = run(capsys, *argv)
        assert code == 0 and err == "" and "hand: " in out and "  1. " in out
        outputs.append(out)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["hint"], "required: game"),
        (["hint", "chess", "board"], "invalid choice: 'chess'"),
        (["hint", "pdq", "board"], "invalid choice: 'pdq'"),  # PDQ has no board to hint on
        (["hint", "bop", "Fk Rb", "--hand", "Mb", "--limit", "-1"], "--limit must be 0 or more"),
        (["hint", "qnto", "Sy Hy", "--hand", "Sg", "--pile", "-1"], "--limit and --pile must be 0 or more"),
        (["hint", "digit", "9y ?? ./. 0g .", "--hand", "8g 1r 1k ?? 4b 5b"], "a hand holds 1 to 5 tiles"),
        (["hint", "matchfive", "0,0:3r", "--hand", "9z"], "tablejudge: --hand: tile '9z'"),  # the flag at fault
        (["hint", "three2fifteen", "nonexist.txt", "--hand", "2"], "board: there is no file 'nonexist.txt'"),
        (["hint", "qnto", "nonexist.txt", "--hand", "Sg"], "grid: there is no file 'nonexist.txt'"),
        (["hint", "matchfive", "0,0:3r"], "required: --hand"),
    ],
)
def test_hint_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], complaint: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and complaint in err

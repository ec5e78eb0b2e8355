"""``tablejudge play matchfive`` and ``tablejudge matchfive-hint`` through the real CLI entry point."""

from __future__ import annotations

import json
import re

import pytest

from tablejudge.cli import main

PLAY = ["play", "matchfive", "--players", "2", "--bots", "greedy,random", "--seed", "3"]


@pytest.mark.slow
def test_a_bot_game_prints_each_turn_with_its_breakdown_then_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(PLAY) == 0
    out = capsys.readouterr().out
    assert "Match Five (matchfive), seed 3: greedy, random" in out and "starts (the highest hand total)" in out
    assert "player 0: 0,0:1u 1b 5b  +6" in out and "vertical    +6  blue 1, 5 (the stack at row 0, column 0)" in out
    assert not re.search(r"draw (to )?\d", out)  # the draws are the players' own business
    assert out.count("\nscores: ") >= 20 and "winner: player" in out
    assert "game over: a player placed their last tile" in out and "stacks, bottom to top: " in out
    assert main(PLAY) == 0 and capsys.readouterr().out == out  # the same seed plays the same game


def test_the_hint_command_lists_the_best_plays_with_their_breakdowns(capsys: pytest.CaptureFixture[str]) -> None:
    table = "0,0:3r 0,1:2r 0,2:1r 0,3:5r 0,4:4r,4b,4y,4o,4g"
    assert main(["matchfive-hint", table, "--hand", "5b 5y 1b 2g 3o", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "1. 0,3:2u 5b 5y" in out and "+33" in out and "5:4g#" in out
    assert "horizontal    +9  yellow 5 with yellow 4 (row 0 at level 3)" in out
    assert main(["matchfive-hint", table, "--hand", "5b 5y", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["plays"][0] == {**found["plays"][0], "move": "0,3:2u 5b 5y", "points": 33}
    assert main(["matchfive-hint", "", "--hand", "3r 2r", "--limit", "0"]) == 0
    assert "the table is empty" in capsys.readouterr().out


def test_the_generic_runner_plays_match_five_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Without commands of its own, the generic runner (``tablejudge.play.runner``) would seat it: the render is
    all it needs."""
    import argparse

    from tablejudge.play.runner import register_generic

    parser = argparse.ArgumentParser()
    register_generic(parser.add_subparsers(dest="game"), "matchfive")
    args = parser.parse_args(["matchfive", "--bots", "greedy,random", "--seed", "3"])
    assert args.run(args) == 0
    out = capsys.readouterr().out
    assert "player 0: 0,0:1u 1b 5b  +6" in out and "HEIGHT:TOP" in out and "winner: player 0" in out

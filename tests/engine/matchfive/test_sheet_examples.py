"""The sheet's game-start example, play by play (``data/sheet_example.json``), and its rules' own examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.matchfive.board import Board, format_stacks, parse_stacks
from engine.matchfive.game import MatchFiveGame
from engine.matchfive.options import is_series
from engine.matchfive.rules import check_play, score_play
from tests.engine.matchfive.conftest import accepted, board, place, refused_play

DATA = json.loads((Path(__file__).parent / "data" / "sheet_example.json").read_text())
PLAYS: list[dict[str, Any]] = DATA["plays"]


def items_of(breakdown: Any) -> list[list[Any]]:
    return [[item.kind, item.label, item.points, item.detail] for item in breakdown.items]


def test_the_example_replays_play_by_play_with_the_sheets_totals_and_breakdowns() -> None:
    table = Board()
    for number, play in enumerate(PLAYS, 1):
        move = place(play["play"])
        checked = check_play(table, play["hand"], move.as_dict())
        breakdown = score_play(checked)
        assert breakdown.total == play["total"], f"play {number}"
        assert items_of(breakdown) == play["items"], f"play {number}"
        for item in breakdown.items:
            assert not item.values or sum(item.values) == item.points
        table = checked.after
        assert format_stacks(table) == play["after"], f"play {number}"
        assert sorted(list(spot) for spot in table.locked) == play["locked"], f"play {number}"
    assert [play["total"] for play in PLAYS] == [6, 25, 12, 30, 33, 18]


@pytest.mark.parametrize("number", range(1, len(PLAYS) + 1))
def test_each_play_through_the_engines_gate_scores_the_same(number: int) -> None:
    """Two players taking turns; the player to move holds the play's hand; the table is the sheet's so far."""
    play = PLAYS[number - 1]
    before = parse_stacks(PLAYS[number - 2]["after"]) if number > 1 else Board()
    seat = (number - 1) % 2
    hands = [play["hand"], ["3y", "3o", "5g", "1g", "2b"]][:: 1 if seat == 0 else -1]
    state = MatchFiveGame().from_position(before, hands, current=seat, seed=number)
    breakdown = state.act(seat, play["play"])
    assert items_of(breakdown) == play["items"]
    assert state.scores()[seat] == play["total"] and state.board == parse_stacks(play["after"])


def test_play_3_cannot_continue_horizontally_off_the_locked_red_4() -> None:
    after_play_2 = parse_stacks(PLAYS[1]["after"])
    refused_play(after_play_2, "1,4:1d 4b 4y", "locked")  # down from red 4
    refused_play(after_play_2, "-2,4:1d 4y 4b", "locked")  # up to red 4 on the table
    refused_play(after_play_2, "1,0:1 3b", "locked")  # beside red 3, the other locked end
    accepted(after_play_2, "0,4:2u 4b 4y")  # the sheet's play: up the stack on red 4
    accepted(after_play_2, "1,1:1d 2b 2y")  # off a middle tile: "play may continue horizontally"


@pytest.mark.parametrize(
    ("tiles", "valid"),
    [
        ("3r 2r 1r 5r 4r", True),  # "the numbers do not have to be connected in numeric order"
        ("3r 2r 3r 1r 4r", False),  # "would not be permitted"
        ("3r 3b 3g 3o 3y", True),
        ("3r 3b 3g 3r 3y", False),  # "could not be permitted"
        ("3r 3r", False),  # "the same color and same number is not permitted"
        ("3r 4b", False),  # neither the same colour nor the same number
    ],
)
def test_the_sheets_series_examples(tiles: str, valid: bool) -> None:
    assert is_series(tiles.split()) is valid
    length = len(tiles.split())
    table = board("0,0:" + tiles.split()[0])
    play = f"0,1:1a {' '.join(tiles.split()[1:])}" if length > 2 else f"0,1:1 {tiles.split()[1]}"
    if valid:
        accepted(table, play)
    else:
        refused_play(table, play, "not_a_series")


def test_a_same_number_series_of_five_locks_red_3_and_yellow_3_which_may_still_be_stacked_on() -> None:
    """ "locking blocks are used to lock the outside surfaces of the red 3 (first) and the yellow 3 (last)
    ... Play may continue horizontally off of any of the middle three tiles (blue 3, green 3, and
    orange 3). Vertical stacking is allowed on any tile, including first level locked tiles"."""
    checked = accepted(board("0,0:3r 0,1:3b 0,2:3g 0,3:3o"), "0,4:1 3y")
    assert sorted(checked.locks) == [(0, 0, 1), (0, 4, 1)]
    table = checked.after
    for locked_end in ("1,0:1 3y", "-1,4:1 1y", "0,5:1 4y"):
        refused_play(table, locked_end, "locked")
    for middle in ("1,1:1 2b", "-1,2:1 1g", "1,3:1 5o"):
        accepted(table, middle)
    accepted(table, "0,0:2u 1r 2r")  # stacked on the locked red 3
    accepted(table, "0,4:2 3g")  # and on the locked yellow 3

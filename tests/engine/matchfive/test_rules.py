"""Every rule of a play, a swap and a board, and every refusal: its rule name, and nothing changed."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMoveError
from engine.matchfive.board import ACROSS, DOWN, UP, Board
from engine.matchfive.options import hand_penalty
from engine.matchfive.rules import (
    board_problems,
    check_hand,
    check_swap,
    hand_breakdown,
    play_direction,
    score_play,
)
from tests.engine.matchfive.conftest import accepted, board, refused_play

ROW = "0,0:3r 0,1:2r 0,2:1r"
FIVE = "0,0:3r 0,1:2r 0,2:1r 0,3:5r 0,4:4r"


# --- the hand ---------------------------------------------------------------------------------
def test_a_play_takes_its_tiles_from_the_hand_a_declared_wild_from_a_wild() -> None:
    check_hand(["3r", "*"], ["3r", "*4y"])
    for hand, tiles in ((["3r", "*"], ["5r"]), (["3r", "4b"], ["*4y"]), (["3r", "3r"], ["3r", "3r", "3r"])):
        with pytest.raises(IllegalMoveError) as caught:
            check_hand(hand, tiles)
        assert caught.value.rule == "not_in_hand"
    refused_play(board(ROW), "0,3:1a *4r 5r", "not_in_hand", hand=["5r", "4r"])


def test_one_to_five_tiles_and_one_wild_a_turn() -> None:
    big = ["1r", "2r", "3r", "4r", "5r", "1b", "*", "*"]
    for tiles, rule in (([], "no_tiles"), (["1r", "2r", "3r", "4r", "5r", "1b"], "too_many_tiles"),
                        (["*1r", "*2r"], "two_wilds")):  # fmt: skip
        with pytest.raises(IllegalMoveError) as caught:
            check_hand(big, tiles)
        assert caught.value.rule == rule
    refused_play(board(ROW), "0,3:1a *4r *5r", "two_wilds", hand=["*", "*"])


# --- where tiles rest -------------------------------------------------------------------------
def test_a_tile_rests_on_the_table_or_on_the_top_of_its_stack() -> None:
    table = board("0,0:3r,3b 0,1:2r")
    accepted(table, "0,0:3 3y")
    message = refused_play(table, "0,0:2 3y", "occupied")
    assert "level 2 of the stack at row 0, column 0 already holds the blue 3" in message
    assert "the next tile there is at level 3" in refused_play(table, "0,0:4 3y", "floating")
    refused_play(table, "1,1:2 2b", "floating")  # an empty cell: level 1 first
    refused_play(table, "0,0:3 3y 0,0:5 3g", "floating")  # a level skipped
    refused_play(table, "0,0:3u 3y 3g 3o 1y", "too_high")  # a sixth tile
    refused_play(board("0,0:1r,2r,3r,4r,5r"), "0,0:6 1b", "too_high")


def test_a_play_is_one_row_or_column_at_one_level_or_one_stack() -> None:
    assert play_direction([(0, 0, 1)]) is None
    assert play_direction([(0, 0, 1), (0, 0, 2)]) == UP
    assert play_direction([(0, 0, 1), (0, 1, 1)]) == ACROSS
    assert play_direction([(0, 0, 1), (1, 0, 1)]) == DOWN
    table = board("0,0:3r 0,1:2r,2b")
    refused_play(table, "0,0:2 3b 0,1:3 2y", "not_in_line")  # one row, two levels
    refused_play(table, "1,0:1 3b 2,1:1 1b", "not_in_line")  # a diagonal
    refused_play(table, "0,0:2 3b 1,0:1 3y", "not_in_line")  # up one stack and beside it
    accepted(table, "1,0:1a 3b 2b")


def test_no_empty_spot_between_a_plays_tiles_but_tiles_between_are_stepped_over() -> None:
    assert "row 1, column 1, level 1 is empty" in refused_play(board(ROW), "1,0:1a 3b . 1b", "gap")
    checked = accepted(board(ROW + " 1,1:2b"), "1,0:1a 3b . 1b")
    assert [s.tiles for s in checked.series if s.direction == ACROSS] == [("3b", "2b", "1b")]


def test_the_first_play_covers_0_0_and_every_later_play_attaches() -> None:
    accepted(Board(), "0,0:1a 3r 2r")
    accepted(Board(), "0,-1:1a 3r 2r")
    accepted(Board(), "0,0:1u 3r 2r")  # a stack may be the first play
    refused_play(Board(), "0,1:1a 3r 2r", "off_centre")
    refused_play(board(ROW), "2,0:1a 3b 2b", "not_connected")
    refused_play(board(ROW), "-1,3:1 1r", "not_connected")  # diagonal to the 1r: no side shared


def test_a_locked_end_takes_no_tile_beside_it_at_its_level_the_middle_ones_do() -> None:
    table = board(FIVE)
    assert "red 4 at row 0, column 4, level 1 is locked" in refused_play(table, "1,4:1 4b", "locked")
    refused_play(table, "-1,0:1 3y", "locked")
    accepted(table, "-1,1:1 2b")


# --- series -----------------------------------------------------------------------------------
def test_every_series_through_a_placed_tile_is_checked_horizontal_and_vertical() -> None:
    table = board("0,0:3r 0,1:2r 1,1:2b")
    accepted(table, "1,0:1 3b")  # across 3b 2b, down 3r 3b
    assert "column 0 at level 1" in refused_play(table, "1,0:1 1b", "not_a_series")  # across 1b 2b fine, down 3r 1b not
    assert "the stack at row 0, column 0" in refused_play(table, "0,0:2 4b", "not_a_series")
    assert "row 1 at level 1" in refused_play(table, "1,0:1 3y", "not_a_series")  # down 3r 3y fine, across 3y 2b not


def test_one_wild_per_series_horizontal_or_vertical() -> None:
    table = board("0,0:3r 0,1:*2r")
    assert "only one wild per series" in refused_play(table, "0,2:1 *1r", "two_wilds_in_series", hand=["*"])
    refused_play(table, "0,1:2 *2b", "two_wilds_in_series", hand=["*"])
    accepted(table, "1,0:1 *3b", hand=["*"])


def test_a_run_of_six_is_too_long() -> None:
    table = board("0,0:1r 0,1:2r 0,2:3r 0,4:4g 0,5:5g")
    assert "at most 5 tiles" in refused_play(table, "0,3:1 4r", "too_long")


# --- scoring ----------------------------------------------------------------------------------
def test_a_lone_first_tile_scores_its_number() -> None:
    breakdown = score_play(accepted(Board(), "0,0:1 4r"))
    assert [(i.kind, i.label, i.points) for i in breakdown.items] == [("series", "single tile", 4)]


def test_one_tile_completing_a_row_and_a_column_earns_both_bonuses_and_both_locks() -> None:
    table = board("0,0:3r 0,1:2r 0,2:1r 0,3:5r 1,4:4b 2,4:4y 3,4:4o 4,4:4g")
    checked = accepted(table, "0,4:1 4r")
    breakdown = score_play(checked)
    assert [(i.kind, i.points) for i in breakdown.items] == [
        ("series", 15), ("five", 10), ("series", 20), ("five", 10), ("lock", 0)
    ]  # fmt: skip
    assert breakdown.total == 55
    assert breakdown.items[-1].detail == (
        "on red 3 at row 0, column 0, level 1 (first) and red 4 at row 0, column 4, level 1 (last); "
        "on red 4 at row 0, column 4, level 1 (first) and green 4 at row 4, column 4, level 1 (last)"
    )
    assert sorted(checked.after.locked) == [(0, 0, 1), (0, 4, 1), (4, 4, 1)]


def test_a_wild_scores_zero_in_every_series_it_is_in() -> None:
    breakdown = score_play(accepted(board("0,0:3r 1,1:4b"), "0,1:1 *4r", hand=["*"]))
    assert [(i.label, i.points, i.values) for i in breakdown.items] == [
        ("horizontal", 3, (3, 0)), ("horizontal", 4, (0, 4))
    ]  # fmt: skip
    assert breakdown.total == 7


# --- swaps and the end ------------------------------------------------------------------------
def test_a_swap_puts_back_one_to_five_tiles_of_the_hand_no_more_than_the_bag_holds() -> None:
    check_swap(["3r", "*", "5b"], ["3r", "*"], 2)
    for tiles, bag, rule in (([], 9, "no_tiles"), (["3r", "5b"], 1, "swap_exceeds_bag"), (["4r"], 9, "not_in_hand"),
                             (["3r", "3r"], 9, "not_in_hand")):  # fmt: skip
        with pytest.raises(IllegalMoveError) as caught:
            check_swap(["3r", "*", "5b"], tiles, bag)
        assert caught.value.rule == rule


def test_a_hand_left_at_the_end_costs_its_numbers_and_25_a_wild() -> None:
    breakdown = hand_breakdown(["3r", "*", "5b"])
    assert [(i.label, i.points, i.detail) for i in breakdown.items] == [
        ("left in hand", -3, "red 3"), ("wild left", -25, "a wild left in hand"), ("left in hand", -5, "blue 5")
    ]  # fmt: skip
    assert breakdown.total == -33 == -hand_penalty(["3r", "*", "5b"])
    assert hand_breakdown([]).total == 0


# --- boards no play makes ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stacks", "problem"),
    [
        ({(0, 0): ("3r", "4b")}, "stack 0,0"),
        ({(0, 0): ("3r",), (0, 1): ("4b",)}, "across from 0,0:1"),
        ({(0, 0): ("3r",), (0, 1): ("*2r",), (0, 2): ("*1r",)}, "only one wild per series"),
        ({(0, 0): ("3r",), (0, 2): ("4b",)}, "not one grouping"),
        ({(0, 1): ("3r",)}, "0,0 holds a tile"),
        ({(0, 0): ("1r", "2r", "3r", "4r", "5r", "1b")}, "at most 5"),
    ],
)
def test_boards_no_play_makes_are_named(stacks: dict, problem: str) -> None:
    found = board_problems(Board(stacks))
    assert any(problem in text for text in found), found


def test_the_sheets_table_has_no_problems() -> None:
    assert board_problems(board("0,0:3r 0,1:2r,2o,2y,2g,*2b 0,2:1r 0,3:5r,5b,5y 0,4:4r,4b,4y,4o,4g")) == []
    assert board_problems(Board()) == []

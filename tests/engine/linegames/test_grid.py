"""The grid: runs, the geometry of a play, the lines it makes, the board as text."""

from __future__ import annotations

import pytest

from engine.errors import NotationError
from engine.linegames.grid import (
    ACROSS,
    ANTIDIAGONAL,
    DIAGONAL,
    DOWN,
    Line,
    check_geometry,
    format_board,
    longest_earlier_run,
    parse_board,
    parse_cell,
    play_lines,
    run_through,
)
from tests.engine.rulings import refused

from .conftest import NUMBERS_KIT, numbers

BOARD = numbers("9y 8y ./7y . .")  # 9y 8y across at row 0; 7y under 9y


def test_a_run_is_maximal_and_stops_at_a_space() -> None:
    assert run_through(BOARD, (0, 0), ACROSS) == ((0, 0), (0, 1))
    assert run_through(BOARD, (0, 0), DOWN) == ((0, 0), (1, 0))
    assert run_through(BOARD, (0, 1), DOWN) == ((0, 1),)


def test_geometry_errors() -> None:
    refused("no_tiles", check_geometry, BOARD, [])
    refused("occupied", check_geometry, BOARD, [(0, 1)])
    refused("not_in_line", check_geometry, BOARD, [(0, 2), (1, 1)])
    refused("not_connected", check_geometry, BOARD, [(3, 3)])
    refused("off_centre", check_geometry, {}, [(1, 1), (1, 2)])


def test_if_there_are_gaps_it_is_not_a_line() -> None:
    refused("gap", check_geometry, BOARD, [(0, 2), (0, 4)])  # 0,3 is empty
    assert check_geometry(BOARD, [(0, -1), (0, 2)]) == ACROSS  # grid tiles fill the middle


def test_the_first_play_covers_the_centre_and_needs_no_connection() -> None:
    assert check_geometry({}, [(0, -1), (0, 0), (0, 1)]) == ACROSS
    assert check_geometry({}, [(0, 0)]) is None


def test_a_play_along_a_row_makes_its_row_and_one_column_per_tile() -> None:
    after = {**BOARD, (1, 1): "7g", (1, 2): "7r"}
    lines = play_lines(after, [(1, 1), (1, 2)])
    assert lines == [
        Line(ACROSS, ((1, 0), (1, 1), (1, 2))),
        Line(DOWN, ((0, 1), (1, 1))),
    ]


def test_a_single_tile_counts_both_its_lines() -> None:
    after = {**BOARD, (1, 1): "7g"}
    assert [line.direction for line in play_lines(after, [(1, 1)])] == [ACROSS, DOWN]


def test_diagonals_come_after_the_straight_lines_and_need_their_length() -> None:
    after = numbers("1y . ./. 2y ./. . 3y")
    assert play_lines(after, [(2, 2)], (ACROSS, DOWN, DIAGONAL, ANTIDIAGONAL), min_length=3) == [
        Line(DIAGONAL, ((0, 0), (1, 1), (2, 2)))
    ]
    assert play_lines(after, [(2, 2)], (ACROSS, DOWN, DIAGONAL), min_length=4) == []


def test_longest_earlier_run_finds_the_line_before_the_play() -> None:
    line = Line(ACROSS, tuple((0, c) for c in range(7)))
    before = {(0, 0), (0, 1), (0, 2), (0, 4), (0, 5), (0, 6)}
    assert longest_earlier_run(before, line) == 3
    assert longest_earlier_run(set(), line) == 0


def test_board_text_round_trip_and_errors() -> None:
    board = {(0, 0): "9y", (0, 1): "??", (-1, 1): "8g", (1, 1): "0g", (1, -1): "?k"}
    assert parse_board(format_board(board, margin=1), NUMBERS_KIT) == board
    with pytest.raises(NotationError):
        parse_board("9y 9x", NUMBERS_KIT)
    with pytest.raises(NotationError):
        parse_board("", NUMBERS_KIT)
    with pytest.raises(NotationError):
        parse_cell("3;4")
    assert parse_cell("-3,4") == (-3, 4)

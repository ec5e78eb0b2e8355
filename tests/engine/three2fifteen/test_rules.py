"""Placement rules, each refusal by name, and the runs a play makes."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMoveError
from engine.three2fifteen.board import ACROSS, DOWN, Run, play_runs
from engine.three2fifteen.rules import check_hand, check_play, check_sums, score
from tests.engine.rulings import refused

from .conftest import CLASSIC, accepted

#: a 9 and a 4 across the centre, a 2 under the 9
BOARD = {(7, 7): 9, (7, 8): 4, (8, 7): 2}


def test_a_play_places_one_to_three_tokens() -> None:
    refused("no_tokens", check_play, BOARD, {}, CLASSIC)
    refused("too_many_tokens", check_play, BOARD, {(6, 5): 1, (6, 6): 1, (6, 7): 1, (6, 8): 1}, CLASSIC)
    runs = accepted(BOARD, {(9, 6): 5, (9, 7): 4, (9, 8): 6})  # 5 4 6 across, 9 2 4 down
    assert [run.values for run in runs] == [(5, 4, 6), (9, 2, 4)]


def test_tokens_go_on_empty_squares_of_the_board() -> None:
    refused("occupied", check_play, BOARD, {(7, 7): 1}, CLASSIC)
    refused("off_board", check_play, {(0, 0): 3}, {(0, -1): 1}, CLASSIC)
    refused("off_board", check_play, {(14, 14): 3}, {(14, 15): 1}, CLASSIC)


def test_the_tokens_of_a_play_are_in_one_row_or_column() -> None:
    refused("not_in_line", check_play, BOARD, {(6, 7): 1, (8, 8): 1}, CLASSIC)
    refused("not_in_line", check_play, BOARD, {(6, 6): 1, (6, 7): 1, (5, 7): 1}, CLASSIC)


def test_played_tokens_may_surround_a_token_but_leave_no_empty_cell_between_them() -> None:
    runs = accepted({(7, 7): 9}, {(7, 6): 2, (7, 8): 4})
    assert [run.values for run in runs] == [(2, 9, 4)]
    refused("gap", check_play, {(7, 7): 9}, {(6, 6): 1, (6, 8): 1}, CLASSIC)  # 6,7 is empty
    refused("run_too_long", check_play, {(7, 7): 9}, {(7, 5): 1, (7, 6): 1, (7, 8): 1}, CLASSIC)  # no gap, but four


def test_the_first_play_covers_the_start_square() -> None:
    refused("start_not_covered", check_play, {}, {(7, 8): 5}, CLASSIC)
    refused("start_not_covered", check_play, {}, {(7, 8): 5, (7, 9): 5}, CLASSIC)
    assert accepted({}, {(7, 7): 5}) == []
    assert [run.values for run in accepted({}, {(6, 7): 5, (7, 7): 5})] == [(5, 5)]


def test_a_later_play_touches_a_token_already_played() -> None:
    message = str(refused("not_connected", check_play, BOARD, {(5, 5): 3}, CLASSIC))
    assert "touch" in message
    refused("not_connected", check_play, BOARD, {(10, 7): 3, (10, 8): 3}, CLASSIC)
    accepted(BOARD, {(9, 7): 4})  # under the 2: touches by its edge
    refused("not_connected", check_play, BOARD, {(6, 6): 3}, CLASSIC)  # diagonal to the 9 does not count


def test_no_run_is_longer_than_three() -> None:
    refused("run_too_long", check_play, BOARD, {(7, 9): 2, (7, 10): 0}, CLASSIC)  # 9 4 2 0 across
    refused("run_too_long", check_play, {(7, 6): 1, (7, 7): 1, (7, 9): 1}, {(7, 8): 12}, CLASSIC)  # joins two runs
    refused("run_too_long", check_play, {(6, 7): 1, (7, 7): 1, (8, 7): 1}, {(5, 7): 12}, CLASSIC)


def test_every_three_sums_to_exactly_fifteen() -> None:
    refused("three_not_fifteen", check_play, BOARD, {(7, 9): 1}, CLASSIC)
    refused("three_not_fifteen", check_play, BOARD, {(7, 9): 3}, CLASSIC)
    accepted(BOARD, {(7, 9): 2})
    refused("three_not_fifteen", check_play, BOARD, {(9, 7): 3}, CLASSIC)  # 9 2 3 down
    refused("three_not_fifteen", check_play, {}, {(7, 6): 5, (7, 7): 5, (7, 8): 6}, CLASSIC)


def test_every_two_sums_to_at_most_fifteen() -> None:
    refused("two_over_fifteen", check_play, {(7, 7): 9}, {(6, 7): 7}, CLASSIC)
    accepted({(7, 7): 9}, {(6, 7): 6})  # exactly 15 is fine
    refused("two_over_fifteen", check_play, {}, {(7, 7): 15, (7, 8): 1}, CLASSIC)


def test_the_cross_run_of_every_played_token_is_checked() -> None:
    # 6 and 5 across under the 9 and the 4: 9 over 6 is fine as a two, 4 over 5 too; 2 is under the 9 though
    refused("three_not_fifteen", check_play, BOARD, {(6, 7): 6, (6, 8): 5}, CLASSIC)  # 6 9 2 down makes 17
    runs = accepted(BOARD, {(6, 7): 4, (6, 8): 5})
    assert [(run.direction, run.values) for run in runs] == [(ACROSS, (4, 5)), (DOWN, (4, 9, 2)), (DOWN, (5, 4))]


def test_a_lone_token_counts_both_its_runs() -> None:
    runs = play_runs({(7, 7): 9, (8, 8): 1}, {(7, 8): 4}, CLASSIC)
    assert runs == [Run(ACROSS, ((7, 7), (7, 8)), (9, 4)), Run(DOWN, ((7, 8), (8, 8)), (4, 1))]


def test_refusals_come_in_a_fixed_order() -> None:
    # occupied before the line, the line before the sums
    refused("occupied", check_play, BOARD, {(7, 7): 1, (6, 6): 1}, CLASSIC)
    refused("gap", check_play, BOARD, {(6, 7): 14, (6, 9): 14}, CLASSIC)


def test_check_sums_names_the_run() -> None:
    with pytest.raises(IllegalMoveError, match=r"across 9\+4\+3 makes 16"):
        check_sums([Run(ACROSS, ((0, 0), (0, 1), (0, 2)), (9, 4, 3))])


def test_tokens_come_from_the_hand() -> None:
    check_hand([7, 7, 1], [7, 7])
    with pytest.raises(IllegalMoveError) as caught:
        check_hand([7, 3, 1], [7, 7])
    assert caught.value.rule == "not_in_hand" and "7" in str(caught.value)


def test_score_checks_first() -> None:
    with pytest.raises(IllegalMoveError):
        score(BOARD, {(7, 9): 3}, CLASSIC)
    assert score(BOARD, {(7, 9): 2}, CLASSIC).total == 30

"""The shared rules: plays, swaps (sequential ones too), lengths reached; every error path."""

from __future__ import annotations

from engine.errors import IllegalMoveError
from engine.linegames.grid import ACROSS, DOWN, Line
from engine.linegames.movegen import single_swaps
from engine.linegames.rules import check_play, check_swaps, lengths_reached
from engine.linegames.solver import LineSolver
from tests.engine.rulings import refused

from .conftest import numbers, shapes


def test_a_legal_play_reports_its_lines_main_first(shared: LineSolver) -> None:
    board = numbers("9y")
    check = check_play(shared, board, {(-1, 1): "8g", (0, 1): "??", (1, 1): "0g"}, ["8g", "??", "0g"])
    assert check.direction == DOWN
    assert [line.direction for line in check.lines] == [DOWN, ACROSS]
    assert check.check.stands_for((0, 1), ACROSS) == "9g"
    assert board == {(0, 0): "9y"}


def test_play_errors(shared: LineSolver) -> None:
    board = numbers("5y 6y 7y 8y 9y 0y 1y 2y 3y")
    refused("too_many_tiles", check_play, shared, board, {(1, c): "1g" for c in range(6)})
    refused("unknown_tile", check_play, shared, board, {(1, 0): "5x"})
    refused("not_in_hand", check_play, shared, board, {(1, 0): "5g"}, hand=["6g"])
    refused("too_long", check_play, shared, board, {(0, 9): "4y", (0, 10): "5y"})
    refused("not_a_line", check_play, shared, board, {(1, 0): "1g"})
    assert check_play(shared, board, {(1, 0): "6y"}).lines[0].direction == DOWN  # 5y 6y down
    refused("not_a_line", check_play, shared, board, {(1, 0): "5y"})  # two yellow 5s
    refused("gap", check_play, shared, board, {(0, 9): "4y", (0, 11): "6y"})


def test_ten_is_the_longest_line_and_the_tenth_tile_fits(shared: LineSolver) -> None:
    board = numbers("5y 6y 7y 8y 9y 0y 1y 2y 3y")
    check = check_play(shared, board, {(0, 9): "4y"})
    assert len(check.lines[0]) == 10


def test_wild_mismatch_when_each_line_works_alone(shared: LineSolver) -> None:
    board = numbers(". 8g/9g ./. 0g")
    refused("wild_mismatch", check_play, shared, board, {(1, 1): "??"})


def test_per_line_wilds_are_free_in_each_direction(per_line: LineSolver) -> None:
    board = shapes(". Sk ./Hg . Hk/. Dk .")
    check = check_play(per_line, board, {(1, 1): "H?"})
    assert check.check.stands_for((1, 1), ACROSS) != check.check.stands_for((1, 1), DOWN)


# --- swaps --------------------------------------------------------------------------------------
SWAP_BOARD = numbers("6y ?r 6g ?? 6b/. 7r 7g 7k ./. . 8g ?k ??")


def test_a_sequential_swap_uses_the_wild_the_first_step_took(shared: LineSolver) -> None:
    # Black 8 for the blank black tile (it was black 8), then that blank for the D!Git tile (black 6).
    check = check_swaps(shared, SWAP_BOARD, ["8k", "1y"], [((2, 3), "8k"), ((0, 3), "?k")])
    assert check.board[(2, 3)] == "8k" and check.board[(0, 3)] == "?k"
    assert sorted(check.hand) == ["1y", "??"]
    assert [step[2] for step in check.steps] == ["?k", "??"]


def test_a_swapped_in_tile_must_work_across_and_down(shared: LineSolver) -> None:
    # Black 6 fits the row of 6s and the black 6 7 8 down.
    assert check_swaps(shared, SWAP_BOARD, ["6k"], [((0, 3), "6k")]).board[(0, 3)] == "6k"
    # Red 6: the row has its red (the blank red tile) and the column is black.
    refused("does_not_fit", check_swaps, shared, SWAP_BOARD, ["6r"], [((0, 3), "6r")])
    # Black 8 works neither across (a row of 6s) nor down (8 7 8).
    refused("does_not_fit", check_swaps, shared, SWAP_BOARD, ["8k"], [((0, 3), "8k")])


def test_swap_errors(shared: LineSolver) -> None:
    refused("no_swaps", check_swaps, shared, SWAP_BOARD, ["6k"], [])
    refused("empty_cell", check_swaps, shared, SWAP_BOARD, ["6k"], [((5, 5), "6k")])
    refused("not_a_wild", check_swaps, shared, SWAP_BOARD, ["6k"], [((0, 0), "6k")])
    refused("not_in_hand", check_swaps, shared, SWAP_BOARD, ["6k"], [((0, 3), "6r")])
    refused("same_tile", check_swaps, shared, SWAP_BOARD, ["??"], [((0, 3), "??")])
    refused("unknown_tile", check_swaps, shared, SWAP_BOARD, ["6x"], [((0, 3), "6x")])
    # A later step that fails refuses the whole swap, the earlier steps included.
    refused("does_not_fit", check_swaps, shared, SWAP_BOARD, ["8k"], [((2, 3), "8k"), ((0, 1), "?k")])


def test_a_wild_may_be_swapped_for_a_wild(shared: LineSolver) -> None:
    check = check_swaps(shared, SWAP_BOARD, ["?k"], [((0, 3), "?k")])
    assert check.hand == ("??",)


# --- lengths reached ----------------------------------------------------------------------------
def line(n: int) -> Line:
    return Line(ACROSS, tuple((0, c) for c in range(n)))


def test_the_nth_tile_is_placed_when_a_line_goes_from_below_n_to_n_or_more() -> None:
    four = {(0, c) for c in range(4)}
    assert lengths_reached(four, [line(5)], (5, 10)) == [(line(5), 5)]
    assert lengths_reached(four, [line(6)], (5, 10)) == [(line(6), 5)]  # the 5th and the 6th: still the 5th
    assert lengths_reached({(0, c) for c in range(5)}, [line(6)], (5, 10)) == []
    assert lengths_reached({(0, c) for c in range(9)}, [line(10)], (5, 10)) == [(line(10), 10)]
    assert lengths_reached(set(), [line(2)], (5, 10)) == []


def test_joining_two_short_runs_places_a_fifth_tile() -> None:
    three_and_three = {(0, 0), (0, 1), (0, 2), (0, 4), (0, 5), (0, 6)}
    assert lengths_reached(three_and_three, [line(7)], (5,)) == [(line(7), 5)]


def test_single_swaps_are_the_one_step_swaps_check_swaps_accepts(shared: LineSolver) -> None:
    hand = ["6k", "8k", "?k", "6r", "1y"]
    listed = {swap.steps[0] for swap in single_swaps(shared, SWAP_BOARD, hand)}
    wilds = [cell for cell, tile in SWAP_BOARD.items() if "?" in tile]
    accepted = set()
    for cell in wilds:
        for tile in set(hand):
            try:
                check_swaps(shared, SWAP_BOARD, hand, [(cell, tile)])
            except IllegalMoveError:
                continue
            accepted.add((cell, tile))
    assert listed == accepted and ((0, 3), "6k") in listed and ((2, 3), "8k") in listed

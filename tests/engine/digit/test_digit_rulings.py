"""D!Git rulings (engine/digit/RULINGS.md), one test each, named after the ruling."""

from __future__ import annotations

import pytest

from engine.digit.rules import SOLVER, pass_turn, play, swap, wild_values
from engine.digit.tiles import KIT, DigitOptions, draw_rank
from engine.errors import ConfigError, IllegalMoveError
from engine.linegames.grid import lines_through, parse_board
from engine.linegames.supply import next_seat

from .digit_example import EXAMPLE, replay


def board(text: str) -> dict:
    return parse_board(text, KIT)


def rule_of(call, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMoveError) as caught:
        call(*args, **kwargs)
    return caught.value.rule


def test_ruling_01_default_box() -> None:
    tiles = DigitOptions().tile_set()
    assert len(tiles) == 60
    assert sorted(t for t in tiles if "?" in t) == ["??"] * 5 + ["?b", "?g", "?k", "?r", "?y"]
    assert len(set(t for t in tiles if "?" not in t)) == 50  # every number in every colour, once


def test_ruling_02_wilds_are_resolved_at_every_check() -> None:
    # Played as "an 8 in green's row": yellow, red or blue 8. A later play may pin it to red 8 ...
    grid = board("8g ?k ??")
    assert wild_values(grid, (0, 2)) == {"8y", "8r", "8b"}
    later = play(grid, {(1, 2): "7r"}, ["7r"]).board  # down: ?? 7r, a red 8 7 sequence
    assert wild_values(later, (0, 2)) == {"8r"}
    # ... and a play that leaves it nothing to be is refused.
    assert rule_of(play, grid, {(1, 2): "7g"}, ["7g"]) == "wild_mismatch"


def test_ruling_03_a_wild_in_a_line_of_ten_also_stands_in_a_number_line() -> None:
    # Green 0 to 9 down column 0 with the D!Git tile as green 4; across, it heads a line of 4s.
    rows = [f"{n}g . . . ." for n in "0123"] + ["?? 4y 4r 4k ."] + [f"{n}g . . . ." for n in "56789"]
    grid = board("/".join(rows))
    assert wild_values(grid, (4, 0)) == {"4g"}
    assert SOLVER.check(grid, {line for cell in grid for line in lines_through(grid, cell)}).valid
    # The 5th 4 completes the line of 4s: the wild is a green 4 in its line of 10 and its line of 5.
    turn = play(grid, {(4, 4): "4b"}, ["4b", "1b"])
    assert [(len(line), n) for line, n in turn.reached] == [(5, 5)] and turn.another_turn
    assert wild_values(turn.board, (4, 0)) == {"4g"}
    # Green 4 would fit the row if the wild were blue 4, but the column needs the wild to be green 4.
    assert rule_of(play, grid, {(4, 4): "4g"}, ["4g"]) == "wild_mismatch"


def test_ruling_04_a_swap_uses_the_extra_turn() -> None:
    steps = replay()
    by_turn = {step.turn["turn"]: step for step in steps}
    assert by_turn["6b"].another_turn and by_turn["6c"].seat == by_turn["6b"].seat
    assert not by_turn["6c"].another_turn and by_turn["7"].seat == next_seat(by_turn["6c"].seat, 5, False)
    assert EXAMPLE["turns"][7]["move"].startswith("swap")


def test_ruling_05_what_placing_a_5th_or_10th_tile_means() -> None:
    # Joining a run of 2 and a run of 2 with one tile places the 5th tile of a line of 5.
    grid = board("6y 6k . 6r 6b")
    assert [n for _, n in play(grid, {(0, 2): "6g"}, ["6g"]).reached] == [5]
    # Extending a line of 5 to 6 places no 5th tile; 4 to 6 does (the 5th and the 6th).
    five = board("1g 2g 3g 4g 5g")
    assert not play(five, {(0, 5): "6g"}, ["6g", "1y"]).another_turn
    four = board("1g 2g 3g 4g")
    assert play(four, {(0, 4): "5g", (0, 5): "6g"}, ["5g", "6g", "1y"]).another_turn


def test_ruling_06_swaps() -> None:
    grid = board("9y ?? 9r")
    # A D!Git tile in place of a blank (and back) is a swap like any other: it must work there.
    assert swap(board("9y ?g 9r"), ["??"], [((0, 1), "??")]).hand == ("?g",)
    # Several swaps in one turn, each in order; a swap that changes nothing is refused.
    assert rule_of(swap, grid, ["??"], [((0, 1), "??")]) == "same_tile"
    done = swap(grid, ["?b", "9b"], [((0, 1), "?b"), ((0, 1), "9b")])
    assert done.board[(0, 1)] == "9b" and sorted(done.hand) == ["??", "?b"]
    # Only played wilds can be swapped.
    assert rule_of(swap, grid, ["9g"], [((0, 0), "9g")]) == "not_a_wild"


def test_ruling_07_first_player_draw() -> None:
    ranked = sorted(["3k", "9b", "?y", "??", "9y"], key=draw_rank, reverse=True)
    assert ranked[:2] == ["??", "?y"] and draw_rank("9b") == draw_rank("9y")  # a tie: those players redraw


def test_ruling_08_two_to_six_players() -> None:
    assert [DigitOptions(players=n).players for n in range(2, 7)] == [2, 3, 4, 5, 6]
    with pytest.raises(ConfigError):
        DigitOptions(players=7)


def test_ruling_09_the_first_play_covers_the_centre() -> None:
    assert play({}, {(0, -1): "5y", (0, 0): "5g"}, ["5y", "5g"]).board == {(0, -1): "5y", (0, 0): "5g"}
    assert rule_of(play, {}, {(2, 2): "5y"}, ["5y"]) == "off_centre"


def test_ruling_10_a_wild_may_stand_for_a_tile_already_on_the_grid() -> None:
    grid = board("9g . ./. . ./9y ?? 9r")
    assert wild_values(grid, (2, 1)) == {"9g", "9k", "9b"}


def test_ruling_11_trades_at_most_the_pile() -> None:
    assert rule_of(pass_turn, ["1y", "2y"], ["3y"], ["1y", "2y"]) == "trade_exceeds_pile"
    assert pass_turn(["1y", "2y"], [], [])[0] == ("1y", "2y")


def test_ruling_12_a_line_is_a_maximal_run() -> None:
    # A tile next to the end of a line joins it: 7g beside 6y 6k makes 6y 6k 7g, no line.
    assert rule_of(play, board("6y 6k"), {(0, 2): "7g"}, ["7g"]) == "not_a_line"
    # So some spaces cannot be filled: between 6y and 8y no tile makes one line of 6y ? 8y ... 5y.
    grid = board("6y . 8y 5y")
    assert all(rule_of(play, grid, {(0, 1): tile}, [tile]) == "not_a_line" for tile in KIT.concrete)


def test_ruling_13_going_out_ends_the_game_even_on_a_fifth_tile() -> None:
    turn = play(board("6g 7g 8g 9g"), {(0, 4): "0g"}, ["0g"], pile=[])
    assert turn.went_out and turn.reached and not turn.another_turn


def test_ruling_14_a_play_uses_hand_tiles_only_five_at_most() -> None:
    assert rule_of(play, board("1y"), {(0, 1): "1g"}, ["1k"]) == "not_in_hand"
    six = {(1, c): f"{c}y" for c in range(6)}
    assert rule_of(play, board("1y"), six, list(six.values())) == "too_many_tiles"

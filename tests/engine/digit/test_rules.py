"""D!Git's rules: the two kinds of line, wilds, plays, another turn, swaps, passes, going out."""

from __future__ import annotations

import pytest

from engine.digit.moves import parse_move
from engine.digit.options import KIT, DigitOptions, draw_rank
from engine.digit.rules import RULE, pass_turn, play, swap, wild_values
from engine.errors import ConfigError
from engine.linegames.grid import parse_board
from tests.engine.rulings import refused


def board(text: str) -> dict:
    return parse_board(text, KIT)


@pytest.mark.parametrize(
    ("tiles", "valid"),
    [
        ("6g 6k 6y 6r 6b", True),  # the same number in all different colours
        ("6g 6k 6y 6r 6b 6g", False),  # at most 5 (and a colour twice)
        ("6g 6g", False),
        ("6g 7g 8g 9g 0g 1g 2g 3g 4g 5g", True),  # sequence of 10, wrapping 9 -> 0
        ("3g 2g 1g 0g 9g", True),  # falling, wrapping 0 -> 9
        ("6g 7g 8g 7g", False),  # "either increase or decrease, but not both"
        ("6g 7g 8k", False),  # one colour
        ("6g 8g", False),  # in sequence: no gaps in the numbers
        ("9g 0g", True),
    ],
)
def test_a_line_is_a_number_line_or_a_sequence(tiles: str, valid: bool) -> None:
    assert RULE.admits(KIT.parse_tiles(tiles)) is valid


def test_eleven_in_sequence_is_too_long() -> None:
    grid = board("5y 6y 7y 8y 9y 0y 1y 2y 3y 4y")
    refused("too_long", play, grid, {(0, 10): "5y"}, ["5y", "1y"])


def test_blank_tiles_keep_their_colour_and_digit_tiles_take_any_tile() -> None:
    grid = board("6g 7g")
    assert play(grid, {(0, 2): "?g"}, ["?g"]).check.check.stands_for((0, 2), "across") == "8g"
    refused("not_a_line", play, grid, {(0, 2): "?y"}, ["?y", "1y"])
    assert wild_values(play(grid, {(0, 2): "??"}, ["??"]).board, (0, 2)) == {"8g"}


def test_a_wild_in_two_lines_is_the_same_tile_in_both() -> None:
    # Down 8g ? 0g needs green 9; across 9g ? needs another 9 or green 8 / 0.
    refused("wild_mismatch", play, board(". 8g/9g ./. 0g"), {(1, 1): "??"}, ["??", "1y"])
    assert play(board(". 8g/9y ./. 0g"), {(1, 1): "??"}, ["??"]).breakdown.items[0].detail == "1 tile: ?? (= green 9)"


def test_placing_a_fifth_tile_gives_another_turn_and_more_tiles_may_follow() -> None:
    grid = board("6g 7g 8g 9g")
    turn = play(grid, {(0, 4): "0g", (0, 5): "1g"}, ["0g", "1g", "3y"], pile=["4y", "5y"])
    assert turn.another_turn and [n for _, n in turn.reached] == [5]
    assert sorted(turn.hand) == ["3y", "4y", "5y"]  # replenished (fewer than 5: the pile ran out)
    assert not play(grid, {(1, 0): "6y"}, ["6y", "1y"]).another_turn  # a line of 2


def test_the_tenth_tile_gives_another_turn() -> None:
    grid = board("6g 7g 8g 9g 0g 1g 2g 3g 4g")
    turn = play(grid, {(0, 9): "5g"}, ["5g", "1y"])
    assert [n for _, n in turn.reached] == [10] and turn.another_turn


def test_two_fifth_tiles_at_once_still_give_one_more_turn() -> None:
    # The FAQ: a row of 4 and a column of 4 sharing a space at one end; filling it completes both.
    grid = board("6g 6k 6y 6r ./. . . . 7b/. . . . 8b/. . . . 9b/. . . . 0b")
    turn = play(grid, {(0, 4): "6b"}, ["6b", "1y"])
    assert len(turn.reached) == 2 and turn.another_turn
    assert [item.kind for item in turn.breakdown.items].count("another_turn") == 2


def test_going_out_wins_and_ends_the_game_even_on_a_fifth_tile() -> None:
    grid = board("6g 7g 8g 9g")
    turn = play(grid, {(0, 4): "0g"}, ["0g"], pile=[])
    assert turn.went_out and not turn.another_turn
    assert turn.breakdown.items[-1].kind == "out"


def test_swaps_return_the_wild_and_score_nothing() -> None:
    grid = board("9y ?? 9r")
    done = swap(grid, ["9g", "1k"], [((0, 1), "9g")])
    assert done.board[(0, 1)] == "9g" and sorted(done.hand) == ["1k", "??"]
    assert done.breakdown.total == 0 and done.breakdown.items[0].detail == "green 9 for the D!Git tile"


def test_a_blank_for_a_digit_tile_swap_reports_what_the_blank_stands_for() -> None:
    done = swap(board("9y ?? 9r"), ["?b"], [((0, 1), "?b")])
    assert done.breakdown.items[0].detail == "blank blue tile (= blue 9) for the D!Git tile"


def test_a_pass_trades_to_the_bottom_of_your_own_pile() -> None:
    hand, pile, breakdown = pass_turn(["1y", "2y", "3y"], ["4y", "5y"], ["2y"])
    assert hand == ("1y", "3y", "4y") and pile == ("5y", "2y")
    assert breakdown.items[0].detail == "traded 1 tile"
    assert pass_turn(["1y"], [], [])[2].items[0].detail == "no trade"


def test_moves_read_back() -> None:
    for text in ("0,0 9y", "-1,1d 8g??0g", "swap -1,2 8k -3,2 ?k", "pass 9y?k", "pass"):
        assert parse_move(text).to_text() == text


def test_options() -> None:
    assert DigitOptions.from_text("players=5").players == 5
    assert len(DigitOptions(blanks="yy", digit_tiles=2).tile_set()) == 54
    for bad in ("players=1", "players=7", "blanks=yx", "digit_tiles=-1"):
        with pytest.raises(ConfigError):
            DigitOptions.from_text(bad)


def test_draw_rank_orders_the_chart() -> None:
    assert draw_rank("??") > draw_rank("?b") > draw_rank("9y") > draw_rank("0k")
    assert draw_rank("9y") == draw_rank("9b")

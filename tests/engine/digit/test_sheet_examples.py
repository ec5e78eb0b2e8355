"""The D!Git sheet's play example as a fixture: all eleven turns (6a, 6b, 6c included), each with the
sheet's outcome, its breakdown, and whose turn follows. The position is rebuilt from the text (the
pictures are lost); engine/digit/README.md says how it was read."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.digit.options import DigitOptions
from engine.digit.rules import SOLVER, wild_values
from engine.linegames.grid import DOWN, lines_through, run_through

from .digit_example import EXAMPLE, Step, replay

TURNS = [turn["turn"] for turn in EXAMPLE["turns"]]


@pytest.fixture(scope="module")
def steps() -> dict[str, Step]:
    return {step.turn["turn"]: step for step in replay()}


def test_the_fixture_has_the_sheets_eleven_turns() -> None:
    assert TURNS == ["1", "2", "3", "4", "5", "6a", "6b", "6c", "7", "8", "9", "10", "11"]


def test_the_deal_is_exactly_the_box() -> None:
    dealt = Counter(tile for stack in EXAMPLE["stacks"] for tile in stack)
    assert dealt == DigitOptions(players=5).tile_counts()
    assert [len(stack) for stack in EXAMPLE["stacks"]] == [12] * 5


@pytest.mark.parametrize("turn", TURNS)
def test_each_turn_replays_with_its_breakdown(steps: dict[str, Step], turn: str) -> None:
    step = steps[turn]
    assert step.seat == step.turn["player"]
    assert step.another_turn is step.turn["another_turn"]
    assert [[i.kind, i.label, i.detail] for i in step.breakdown.items] == step.turn["items"]
    assert step.breakdown.total == 0  # D!Git has no score
    held = Counter(step.board.values())
    for hand, pile in zip(step.supply.hands, step.supply.piles, strict=True):
        held += Counter(hand) + Counter(pile)
    assert held == DigitOptions(players=5).tile_counts()  # tiles conserved


def test_turn_1_yellow_9_is_played(steps: dict[str, Step]) -> None:
    assert steps["1"].board == {(0, 0): "9y"}


def test_turn_2_three_tiles_added_and_the_digit_tile_now_represents_green_9(steps: dict[str, Step]) -> None:
    board = steps["2"].board
    assert len(board) == 4
    wild = next(cell for cell, tile in board.items() if tile == "??")
    assert wild_values(board, wild) == {"9g"}


def test_turn_3_the_green_blank_takes_the_digit_tiles_place(steps: dict[str, Step]) -> None:
    before, after = steps["2"].board, steps["3"].board
    cell = next(cell for cell, tile in before.items() if tile == "??")
    assert after[cell] == "?g" and wild_values(after, cell) == {"9g"}
    assert "??" in steps["3"].supply.hands[steps["3"].seat]


def test_turn_4_a_black_blank_and_a_digit_tile_are_played(steps: dict[str, Step]) -> None:
    new = Counter(steps["4"].board.values()) - Counter(steps["3"].board.values())
    assert new == Counter({"?k": 1, "??": 1})


def test_turn_5_red_green_and_black_7_are_played(steps: dict[str, Step]) -> None:
    new = Counter(steps["5"].board.values()) - Counter(steps["4"].board.values())
    assert new == Counter({"7r": 1, "7g": 1, "7k": 1})
    assert not steps["5"].another_turn


def test_turn_6a_fifth_tile_of_green_6_7_8_blank_0_earns_another_turn(steps: dict[str, Step]) -> None:
    step = steps["6a"]
    green6 = next(cell for cell, tile in step.board.items() if tile == "6g")
    column = run_through(step.board, green6, DOWN)
    assert [step.board[cell] for cell in column] == ["6g", "7g", "8g", "?g", "0g"]
    assert step.another_turn and steps["6b"].seat == step.seat
    assert len(step.supply.hands[step.seat]) == 5  # replenished to 5


def test_turn_6b_fifth_tile_of_the_line_of_6s_earns_yet_another_turn(steps: dict[str, Step]) -> None:
    step = steps["6b"]
    row = [cell for cell in step.board if cell[0] == -3]
    assert sorted(step.board[c] for c in row) == sorted(["?y", "?r", "6g", "??", "6b"])
    assert step.another_turn and steps["6c"].seat == step.seat
    digit = next(c for c in row if step.board[c] == "??")
    assert wild_values(step.board, digit) == {"6k"}  # the D!Git tile is the black 6


def test_turn_6c_a_swap_uses_the_extra_turn_and_ends_the_extended_turn(steps: dict[str, Step]) -> None:
    step = steps["6c"]
    assert not step.another_turn
    assert steps["7"].seat == (step.seat + 1) % EXAMPLE["players"]
    assert "?y" in step.supply.hands[step.seat]


def test_turn_7_black_8_for_the_black_blank_then_the_blank_for_the_digit_tile(steps: dict[str, Step]) -> None:
    before, step = steps["6c"], steps["7"]
    blank_cell = next(c for c, t in before.board.items() if t == "?k")
    digit_cell = next(c for c, t in before.board.items() if t == "??" and c[0] == -3)
    assert step.board[blank_cell] == "8k" and step.board[digit_cell] == "?k"
    assert wild_values(step.board, digit_cell) == {"6k"}  # the blank black tile in the black 6 position
    hand = step.supply.hands[step.seat]
    assert "??" in hand and "8k" not in hand and "?k" not in hand


def test_turns_8_to_10_are_plays_without_another_turn(steps: dict[str, Step]) -> None:
    assert [len(Counter(steps[t].board.values()) - Counter(steps[p].board.values())) for p, t in
            (("7", "8"), ("8", "9"), ("9", "10"))] == [4, 2, 1]  # fmt: skip
    assert not any(steps[t].another_turn for t in ("8", "9", "10"))


def test_turn_11_the_yellow_blank_from_6c_is_swapped_for_a_digit_tile(steps: dict[str, Step]) -> None:
    step = steps["11"]
    assert step.seat == steps["6c"].seat  # five players: turn 11 is turn 6's player again
    cell = next(c for c, t in steps["10"].board.items() if t == "??")
    assert step.board[cell] == "?y" and wild_values(step.board, cell) == {"8y"}
    assert "??" in step.supply.hands[step.seat] and "?y" not in step.supply.hands[step.seat]
    every_line = {line for cell in step.board for line in lines_through(step.board, cell)}
    assert SOLVER.check(step.board, every_line).valid  # the final grid holds together

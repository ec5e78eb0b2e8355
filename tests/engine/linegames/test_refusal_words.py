"""The line games' refusals are sentences a player reads: tiles by name, squares as the page reads them
out ("row 0, column 3"), never the notation ("Sy Sr Dr from 0,0", "?r")."""

from __future__ import annotations

import re

from engine.linegames.rules import check_play, check_swaps
from engine.qnto.rules import SOLVER
from tests.engine.rulings import refusal

#: What a player should never read: a tile code (a letter or symbol followed by a colour letter) or "r,c".
NOTATION = re.compile(r"\b[SDHC!?][ygrkb?]\b|-?\d+,-?\d+")


def test_a_broken_line_is_named_by_its_tiles() -> None:
    error = refusal(lambda: check_play(SOLVER, {(0, 0): "Sy"}, {(0, 1): "Sr", (0, 2): "Dr"}))
    assert error.rule == "not_a_line"
    assert str(error).startswith("The line across of yellow spade, red spade, red diamond is not a line: ")
    assert not NOTATION.search(str(error))


def test_a_taken_square_and_the_centre_are_named_as_the_page_reads_them() -> None:
    taken = refusal(lambda: check_play(SOLVER, {(0, 0): "Sy"}, {(0, 0): "Sr"}))
    assert (taken.rule, str(taken)) == ("occupied", "the square at row 0, column 0 already holds a tile")
    away = refusal(lambda: check_play(SOLVER, {}, {(2, 3): "Sr"}))
    assert (away.rule, str(away)) == ("off_centre", "the first play covers the centre square (row 0, column 0)")


def test_tiles_not_held_are_named() -> None:
    error = refusal(lambda: check_play(SOLVER, {}, {(0, 0): "Sr", (0, 1): "??"}, hand=["Sy", "Dy"]))
    assert (error.rule, str(error)) == ("not_in_hand", "your hand holds no Q!nto tile, red spade")


def test_swap_refusals_name_the_square_and_the_tiles() -> None:
    board = {(0, 0): "Sy", (0, 1): "Dy"}
    error = refusal(lambda: check_swaps(SOLVER, board, ["Sr"], [((0, 1), "Sr")]))
    said = "The swap at row 0, column 1: the yellow diamond is not a wild tile"
    assert (error.rule, str(error)) == ("not_a_wild", said)
    empty = refusal(lambda: check_swaps(SOLVER, board, ["Sr"], [((0, 1), "Sr"), ((5, 5), "Sr")]))
    assert not NOTATION.search(str(empty))

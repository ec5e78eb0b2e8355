"""The wild solver: per-line and shared bindings, the lines reached through wilds, what works where."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.linegames.grid import ACROSS, DOWN, Line, lines_through
from engine.linegames.solver import LineSolver

from .conftest import NUMBER_RULE, NUMBERS_KIT, SHAPES_KIT, numbers, shapes


def test_a_line_is_solved_with_its_wilds_in_domain_order(shared: LineSolver) -> None:
    assert shared.solve_line(("8g", "??", "0g")) == ("8g", "9g", "0g")
    assert shared.solve_line(("?y", "?y")) == ("0y", "1y")
    assert shared.solve_line(("9y", "?y")) == ("9y", "0y")  # rising and wrapping comes first
    assert shared.solve_line(("8g", "?y", "0g")) is None  # a blank yellow tile stays yellow


def test_per_line_a_wild_may_stand_for_different_tiles_in_different_directions(per_line: LineSolver) -> None:
    # The heart wild at 1,1: across (Hg ? Hk: hearts in different colours) it is a yellow, red or
    # blue heart; down (Sk ? Dk: black tiles in different shapes) a black heart.
    board = shapes(". Sk ./Hg H? Hk/. Dk .")
    verdict = per_line.check(board, lines_through(board, (1, 1)))
    assert verdict.valid
    assert verdict.stands_for((1, 1), ACROSS) == "Hy"
    assert verdict.stands_for((1, 1), DOWN) == "Hk"
    # "Such a wild or Q!nto tile would be 'unswappable' since no single tile can work in its position."
    assert per_line.works_at(board, (1, 1)) == frozenset()
    # The shared binding refuses the same position.
    shared = LineSolver(SHAPES_KIT, per_line.rule, shared=True)
    assert not shared.check(board, lines_through(board, (1, 1))).valid


def test_shared_a_wild_is_one_tile_in_both_its_lines(shared: LineSolver) -> None:
    # Across, 9y ?? wants a 9; down, 8g ?? 0g wants green 9: one tile does both.
    board = numbers(". 8g/9y ??/. 0g")
    verdict = shared.check(board, lines_through(board, (1, 1)))
    assert verdict.valid and verdict.stands_for((1, 1), ACROSS) == verdict.stands_for((1, 1), DOWN) == "9g"
    assert shared.can_stand_for(board, (1, 1)) == {"9g"}
    # Down 8g ?? 0g makes it green 9; across 9g ?? can be any 9 but green, or green 8 or 0.
    mismatch = numbers(". 8g/9g ??/. 0g")
    verdict = shared.check(mismatch, lines_through(mismatch, (1, 1)))
    assert not verdict.bad_lines and verdict.readings is None and not verdict.valid


def test_the_shared_binding_follows_wilds_into_lines_not_asked_about(shared: LineSolver) -> None:
    # Row 0: 8g ?k ?? ; the ?? also sits in column 2 above 7r: it must be an 8 across and a red 8
    # (or red 6) down; asking only about row 0 still finds column 2.
    board = numbers("8g ?k ??/. . 7r")
    verdict = shared.check(board, [Line(ACROSS, ((0, 0), (0, 1), (0, 2)))])
    assert Line(DOWN, ((0, 2), (1, 2))) in verdict.lines
    assert verdict.readings is not None
    assert verdict.stands_for((0, 2), ACROSS) == "8r"
    blocked = numbers("8g ?k ??/. . 7g")  # down would need a green 8 or 6; across a non-green 8
    assert not shared.check(blocked, [Line(ACROSS, ((0, 0), (0, 1), (0, 2)))]).valid


def test_a_line_with_no_completion_is_a_bad_line(shared: LineSolver) -> None:
    board = numbers("8g ?y 0g")
    verdict = shared.check(board, lines_through(board, (0, 1)))
    assert verdict.bad_lines == (Line(ACROSS, ((0, 0), (0, 1), (0, 2))),)


@pytest.mark.slow
@given(st.lists(st.sampled_from(["3g", "4g", "5y", "?g", "?y", "??", "6g", "3r"]), min_size=2, max_size=4))
def test_solve_line_equals_trying_every_reading(tiles: list[str]) -> None:
    solver = LineSolver(NUMBERS_KIT, NUMBER_RULE, shared=True)
    readings = itertools.product(*(NUMBERS_KIT.domain(t) for t in tiles))
    expected = any(NUMBER_RULE.admits(reading) for reading in readings)
    assert solver.line_ok(tuple(tiles)) == expected


def test_shapes_kit_domains() -> None:
    assert SHAPES_KIT.domain("H?") == ("Hy", "Hg", "Hr", "Hk", "Hb")
    assert len(SHAPES_KIT.domain("?k")) == 5

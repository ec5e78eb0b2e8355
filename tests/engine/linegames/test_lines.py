"""Line predicates and kinds, and a Match Five series rule built from the core alone."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.linegames.lines import (
    LineKind,
    LineRule,
    all_distinct,
    all_same,
    cyclic_run,
    same_or_distinct,
)
from engine.linegames.solver import LineSolver
from engine.linegames.tiles import TileKit

DIGITS = "0123456789"


def test_cyclic_runs_rise_or_fall_from_any_start_and_wrap() -> None:
    assert cyclic_run(list("6789012"), DIGITS)
    assert cyclic_run(list("2109876"), DIGITS)
    assert not cyclic_run(list("678987"), DIGITS)  # up then down: "either increase or decrease, but not both"
    assert not cyclic_run(list("0123456789") + ["0"], DIGITS)  # more places than numbers
    assert cyclic_run(list("0123456789"), DIGITS)
    assert not cyclic_run(list("13"), DIGITS)


def test_cyclic_runs_with_undecided_places_must_still_fit_the_step() -> None:
    assert cyclic_run(["8", None, "0"], DIGITS)
    assert not cyclic_run(["8", None, "1"], DIGITS)
    assert cyclic_run(["3", None, None, "0"], DIGITS)


@given(st.lists(st.sampled_from(DIGITS), min_size=2, max_size=6))
def test_cyclic_run_equals_the_definition(values: list[str]) -> None:
    def steps(step: int) -> bool:
        return all((int(b) - int(a)) % 10 == step % 10 for a, b in itertools.pairwise(values))

    assert cyclic_run(values, DIGITS) == (steps(1) or steps(-1))


@given(st.lists(st.sampled_from("ygrkb") | st.none(), max_size=5))
def test_same_or_distinct_equals_either_predicate(values: list[str | None]) -> None:
    assert same_or_distinct(values) == (all_same(values) or all_distinct(values))


def test_a_kind_checks_its_length_and_both_attributes() -> None:
    kind = LineKind("number", 5, all_same, all_distinct)
    assert kind.admits(["6g", "6k", "6y"])
    assert not kind.admits(["6g", "6g"])
    assert not kind.admits(["6g", "7k"])
    assert not kind.admits(["6y", "6g", "6r", "6k", "6b", None])


# Match Five (the 2014 blog): "same color / different number OR same number / different color",
# a series of at most 5; numbers 1-5, colours red, blue, yellow, orange, green; wilds.
MATCH_FIVE = TileKit("12345", "rbyog")
SERIES = LineRule(
    (
        LineKind("same colour series", 5, all_distinct, all_same),
        LineKind("same number series", 5, all_same, all_distinct),
    ),
    "same colour and different numbers, or same number and different colours",
)


@pytest.mark.parametrize(
    ("tiles", "valid"),
    [
        (["3r", "2r", "1r", "5r", "4r"], True),  # "red 3, 2, 1, 5 and 4": not in numeric order
        (["3r", "2r", "3r", "1r", "4r"], False),  # "would not be permitted"
        (["3r", "3b", "3g", "3o", "3y"], True),
        (["3r", "3b", "3g", "3r", "3y"], False),
        (["3r", "3r"], False),  # "same color and same number is not permitted"
    ],
)
def test_the_core_expresses_match_fives_series(tiles: list[str], valid: bool) -> None:
    assert SERIES.admits(tiles) is valid


def test_match_five_play_6_wild_as_blue_2() -> None:
    """Play 6: "orange 2, yellow 2, green 2, Wild (as blue 2) with red 2"."""
    solver = LineSolver(MATCH_FIVE, SERIES, shared=True)
    assert solver.solve_line(("2o", "2y", "2g", "??", "2r")) == ("2o", "2y", "2g", "2b", "2r")

"""Move notation: plays, swaps, passes; round trips and refusals; tiles."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.linegames.moves import Pass, Play, Swap, parse_line_move

from .conftest import NUMBERS_KIT, SHAPES_KIT

TILE = st.sampled_from(NUMBERS_KIT.concrete + ("?y", "?k", "??"))
CELL = st.tuples(st.integers(-9, 9), st.integers(-9, 9))


@given(CELL, st.sampled_from([(0, 1), (1, 0)]), st.lists(st.tuples(st.integers(0, 1), TILE), min_size=1, max_size=5))
def test_plays_round_trip(start: tuple[int, int], step: tuple[int, int], tiles: list[tuple[int, str]]) -> None:
    placements: list[tuple[tuple[int, int], str]] = []
    pos = 0
    for skip, tile in tiles:  # leave some cells for grid tiles ('.')
        pos += skip if placements else 0
        placements.append(((start[0] + pos * step[0], start[1] + pos * step[1]), tile))
        pos += 1
    move = Play.of(placements)
    assert parse_line_move(move.to_text(), NUMBERS_KIT) == move


@pytest.mark.slow
@given(st.lists(st.tuples(CELL, TILE), min_size=1, max_size=4))
def test_swaps_round_trip(steps: list) -> None:
    move = Swap(tuple(steps))
    assert parse_line_move(move.to_text(), NUMBERS_KIT) == move


def test_passes_and_shapes() -> None:
    assert parse_line_move("pass", NUMBERS_KIT) == Pass()
    assert parse_line_move("pass 9y ?k", NUMBERS_KIT) == Pass(("9y", "?k"))
    assert parse_line_move("2,3a !yH?", SHAPES_KIT) == Play((((2, 3), "!y"), ((2, 4), "H?")))
    assert parse_line_move("-3,-1a ?y?r..6b", NUMBERS_KIT).cells() == [(-3, -1), (-3, 0), (-3, 3)]  # type: ignore[union-attr]


def test_a_play_not_in_one_line_still_has_a_readable_form() -> None:
    assert Play.of([((0, 0), "1y"), ((1, 1), "2y")]).to_text() == "0,0 1y 1,1 2y"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "swap",
        "swap 1,1",
        "swap 1,1 9y9g",
        "swap 1;1 9y",
        "0,0a 9y.",
        "0,0a .9y",
        "0,0 9y9g",
        "0,0a 9x",
        "pass 9",
        "x",
    ],
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        parse_line_move(text, NUMBERS_KIT)


def test_tiles_and_names() -> None:
    assert NUMBERS_KIT.parse_tiles("9y, ?g ??") == ["9y", "?g", "??"]
    with pytest.raises(NotationError):
        NUMBERS_KIT.parse_tiles("9yy")
    assert SHAPES_KIT.name("Hg") == "green H"
    assert SHAPES_KIT.name("H?") == "H wild" and SHAPES_KIT.name("?y") == "yellow wild"

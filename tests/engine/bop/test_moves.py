"""Move notation: every move reads back as itself; bad text is a NotationError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.bop.board import format_board, parse_board
from engine.bop.moves import Challenge, Pass, Play, Swap, parse_move
from engine.bop.options import BopOptions
from engine.errors import NotationError

TILES = sorted(set(BopOptions().tile_set()))
tiles = st.sampled_from(TILES)
cells = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


@st.composite
def plays(draw: st.DrawFn) -> Play:
    row, col = draw(cells)
    across = draw(st.booleans())
    steps = sorted(draw(st.sets(st.integers(0, 8), min_size=1, max_size=5)))
    placements = [((row, col + s) if across else (row + s, col), draw(tiles)) for s in steps]
    return Play.of(placements)


moves = st.one_of(
    plays(),
    st.builds(Pass, st.lists(tiles, max_size=5).map(tuple)),
    st.builds(Swap, cells, tiles),
    st.just(Challenge()),
)


@given(moves)
def test_every_move_reads_back_as_itself(move: object) -> None:
    text = move.to_text()  # type: ignore[attr-defined]
    assert parse_move(text) == move
    assert text in repr(move) or isinstance(move, Challenge)
    hash(move)


@given(st.dictionaries(cells, tiles, min_size=1, max_size=40))
def test_the_ascii_board_reads_back_as_itself(board: dict) -> None:
    assert parse_board(format_board(board)) == board


@pytest.mark.parametrize(
    "text",
    ["", "play", "3,2 Ae", "3,2 S", "3,2a", "3,2 SyRg", "3,2a .Sy", "3,2a Sy.", "swap 3,2", "swap 3 Sy", "pass Sy Q"],
)
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


def test_single_tiles_have_no_direction_and_dots_step_over_grid_tiles() -> None:
    assert parse_move("5,4a Sr") == parse_move("5,4d Sr") == parse_move("5,4 Sr")
    play = parse_move("4,2d Sr..Tk")
    assert isinstance(play, Play) and play.cells() == [(4, 2), (7, 2)]

"""Move notation: every move reads back as itself; bad text is a NotationError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.three2fifteen.moves import Exchange, Pass, Play, parse_move

values = st.integers(0, 15)
cells = st.tuples(st.integers(0, 20), st.integers(0, 20))


@st.composite
def plays(draw: st.DrawFn) -> Play:
    if draw(st.booleans()):  # in one line, with or without gaps
        row, col = draw(cells)
        across = draw(st.booleans())
        steps = draw(st.sets(st.integers(0, 30), min_size=1, max_size=3))
        return Play.of([((row, col + s) if across else (row + s, col), draw(values)) for s in steps])
    return Play.of(draw(st.dictionaries(cells, values, min_size=1, max_size=3)))  # anywhere


@given(st.one_of(plays(), st.just(Pass()), st.builds(Exchange, values)))
def test_every_move_reads_back_as_itself(move: Play | Pass | Exchange) -> None:
    text = move.to_text()
    assert parse_move(text) == move
    assert parse_move(f"  {text}  ") == move
    assert text in repr(move) or isinstance(move, Pass | Exchange)
    hash(move)


def test_the_notation_table() -> None:
    assert parse_move("7,7 5") == Play((((7, 7), 5),))
    assert parse_move("7,6a 7 8").as_dict() == {(7, 6): 7, (7, 7): 8}
    assert parse_move("6,7d 7 2 6").as_dict() == {(6, 7): 7, (7, 7): 2, (8, 7): 6}
    assert parse_move("7,6a 2 . 4").as_dict() == {(7, 6): 2, (7, 8): 4}
    assert parse_move("7,8=4 7,6=2") == parse_move("7,6a 2 . 4")
    assert parse_move("PASS") == parse_move("pass") == Pass()
    assert parse_move("exchange 7") == parse_move("Exchange 7") == Exchange(7) and Exchange(7).to_text() == "exchange 7"


def test_single_tokens_need_no_direction_and_writing_one_changes_nothing() -> None:
    assert parse_move("5,4a 3") == parse_move("5,4d 3") == parse_move("5,4 3")
    assert parse_move("5,4d 3").to_text() == "5,4 3"


def test_tokens_not_in_one_line_are_written_cell_by_cell() -> None:
    play = Play.of({(1, 1): 3, (2, 2): 4})
    assert play.to_text() == "1,1=3 2,2=4"
    assert play.cells() == [(1, 1), (2, 2)] and play.values() == [3, 4]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "play",
        "7,7",
        "7,7 16",
        "7,7 -1",
        "7,7 a",
        "7,6 7 8",
        "7,6x 7 8",
        "7,6a . 8",
        "7,6a 8 .",
        "-1,6 3",
        "7 3",
        "7,7=3 7,7=4",
        "7,7=3 7,8",
        "7,7=16",
        "pass 3",
        "exchange",
        "exchange 7 8",
        "exchange 16",
        "exchange seven",
    ],
)
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)

"""Tokens, the bag, options, layouts and the board as text."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ConfigError, NotationError
from engine.three2fifteen.board import format_board, parse_board
from engine.three2fifteen.layout import CLASSIC, DOUBLE, REPEAT, START, TRIPLE, Layout, named_layout
from engine.three2fifteen.options import DISTRIBUTION, Three2FifteenOptions, parse_token, parse_tokens


def test_the_bag_holds_81_tokens_valued_0_to_15_as_distributed() -> None:
    tokens = Three2FifteenOptions().token_set()
    assert len(tokens) == 81 and min(tokens) == 0 and max(tokens) == 15
    assert Counter(tokens) == Counter(
        {0: 9, 1: 9, 2: 8, 3: 8, 4: 7, 5: 8, 6: 6, 7: 6, 8: 4, 9: 4, 10: 3, 11: 3, 12: 2, 13: 2, 14: 1, 15: 1}
    )
    assert Three2FifteenOptions().token_counts() == Counter(DISTRIBUTION)


def test_default_options_make_the_sheets_game() -> None:
    options = Three2FifteenOptions()
    assert (options.players, options.hand_size, options.layout) == (2, 3, "classic")
    assert options.board_layout() == named_layout("classic")
    assert Three2FifteenOptions.from_text("players=4,hand_size=5").players == 4


@pytest.mark.parametrize(
    "values",
    [
        {"players": 1},
        {"players": 5},
        {"players": "2"},
        {"hand_size": 2},
        {"hand_size": 6},
        {"layout": "nosuch"},
        {"layout": 7},
        {"colour": "red"},
    ],
)
def test_bad_options_are_config_errors(values: dict) -> None:
    with pytest.raises(ConfigError):
        Three2FifteenOptions.from_mapping(values)


def test_a_layout_is_an_option_in_text() -> None:
    options = Three2FifteenOptions.from_text("layout=..r../.t*d./.....")
    layout = options.board_layout()
    assert (layout.height, layout.width, layout.start) == (3, 5, (1, 2))
    assert layout.multiplier((1, 1)) == 3 and layout.multiplier((1, 3)) == 2 and layout.is_repeat((0, 2))
    assert Layout.parse(layout.to_text()) == layout


@pytest.mark.parametrize(
    "text",
    ["", "../*.", "..../.*../...", "....../..x*../......", "...../...../.....", "*./*./..", ".../.*./...x"],
)
def test_bad_layouts_are_config_errors(text: str) -> None:
    with pytest.raises(ConfigError):
        named_layout(text)


def test_the_classic_layout() -> None:
    layout = named_layout("classic")
    assert (layout.height, layout.width) == (15, 15) and layout.start == (7, 7)
    squares = Counter(square for row in CLASSIC.split("/") for square in row)
    assert (squares[DOUBLE], squares[TRIPLE], squares[REPEAT], squares[START]) == (8, 8, 8, 1)
    assert layout.multiplier(layout.start) == 2
    rows = layout.rows
    turned = tuple("".join(rows[14 - c][r] for c in range(15)) for r in range(15))  # a quarter turn
    mirrored = tuple(row[::-1] for row in rows)
    transposed = tuple("".join(row[c] for row in rows) for c in range(15))
    assert rows == turned == mirrored == transposed


def test_token_notation() -> None:
    assert parse_tokens("0 15, 7") == [0, 15, 7]
    for bad in ("16", "-1", "07", "x", "1.5", ""):
        with pytest.raises(NotationError):
            parse_token(bad)


boards = st.dictionaries(st.tuples(st.integers(0, 14), st.integers(0, 14)), st.integers(0, 15), max_size=40)


@given(boards)
def test_the_board_text_reads_back_as_itself(board: dict) -> None:
    assert parse_board(format_board(board)) == board
    assert parse_board(format_board(board, named_layout("classic"))) == board


def test_the_board_text_shows_the_squares() -> None:
    text = format_board({(7, 7): 9, (7, 8): 12}, named_layout("classic"))
    assert text.splitlines()[8] == " 7  r  .  .  d  .  .  .  9 12  .  .  d  .  .  r"
    assert text.splitlines()[1].split()[8] == "r"


@pytest.mark.parametrize("text", ["", " 7 x", "   7\n 7 16", "   7\n x 9", "   7\n 7 9 9"])
def test_bad_board_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_board(text)

"""Match Five notation: every form reads back, canonical text, and every malformed text is a NotationError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.matchfive.game import MatchFiveGame
from engine.matchfive.moves import Pass, Place, Swap, parse_move
from engine.matchfive.options import FACES, WILD, parse_hand_tiles, tile_name
from engine.values import Draw

GAME = MatchFiveGame()


@pytest.mark.parametrize(
    ("text", "placements"),
    [
        ("0,0:1 3r", {(0, 0, 1): "3r"}),
        ("0,0:1a 3r 2r 1r", {(0, 0, 1): "3r", (0, 1, 1): "2r", (0, 2, 1): "1r"}),
        ("-2,1:1d 2o . 2y", {(-2, 1, 1): "2o", (0, 1, 1): "2y"}),
        ("0,3:2u 5b 5y", {(0, 3, 2): "5b", (0, 3, 3): "5y"}),
        ("0,1:2u 2o 2y 2g *2b", {(0, 1, 2): "2o", (0, 1, 3): "2y", (0, 1, 4): "2g", (0, 1, 5): "*2b"}),
        ("0,3:2 5b 0,4:3 4y", {(0, 3, 2): "5b", (0, 4, 3): "4y"}),
    ],
)
def test_each_form_reads_as_its_placements_and_writes_back_the_same(text: str, placements: dict) -> None:
    move = parse_move(text)
    assert isinstance(move, Place) and move.as_dict() == placements
    assert move.to_text() == text and parse_move(move.to_text()) == move


def test_the_same_play_in_another_form_is_the_same_move_and_writes_the_line_form() -> None:
    assert parse_move("0,4:2 4y 0,3:2 5b") == parse_move("0,3:2a 5b 4y")
    assert parse_move("0,4:2 4y 0,3:2 5b").to_text() == "0,3:2a 5b 4y"
    assert parse_move("0,0:1 3r 0,0:2 3b").to_text() == "0,0:1u 3r 3b"
    assert parse_move("0,0:1d 3r").to_text() == "0,0:1 3r"  # one tile: no direction
    assert parse_move("0,0:1 3r 0,0:3 3b").to_text() == "0,0:1 3r 0,0:3 3b"  # not one line up: spot by spot
    far = Place.of({(0, 0, 1): "3r", (0, 20, 1): "2r"})
    assert far.to_text() == "0,0:1 3r 0,20:1 2r" and parse_move(far.to_text()) == far


def test_swaps_passes_and_draws() -> None:
    assert parse_move("swap * 5b 3r") == Swap(("3r", "5b", WILD)) == Swap.of(["5b", WILD, "3r"])
    assert parse_move("SWAP 3r").to_text() == "swap 3r"
    assert Swap(("3r",)).public_text() == "swap 1 tile"
    assert parse_move("pass") == Pass() and Pass().to_text() == "pass"
    assert GAME.parse_move("draw * to 1") == Draw(WILD, 1)
    assert GAME.parse_move("draw 3r to 0").public_text() == "draw to 0"


@pytest.mark.parametrize(
    "text",
    [
        "", "  ", "pass 3r", "swap", "swap 6r", "swap 3x", "0,0 3r", "0,0:0 3r", "0,0:1", "0,0:1 *",
        "0,0:1a", "0,0:1a . 3r", "0,0:1a 3r .", "0,0:1 3r 2r", "0,0:1 3r 0,1:1", "0,0:1 3r 0,1 2r",
        "0,0:1 3r 0,0:1 2r", "0,0:1x 3r", "a,b:1 3r", "0,0:1 33", "draw", "draw 3r to x", "draw 9q to 1",
        "0,0:1a 3r * 2r",
    ],
)  # fmt: skip
def test_malformed_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_move(text)


def test_a_bare_wild_on_the_table_asks_for_its_declaration() -> None:
    with pytest.raises(NotationError, match=r"\*2b"):
        parse_move("0,0:1 *")


def test_tiles_are_named_as_the_sheet_names_them() -> None:
    assert [tile_name(t) for t in parse_hand_tiles("3r 2b 5y 4o 1g *")] == [
        "red 3", "blue 2", "yellow 5", "orange 4", "green 1", "wild"
    ]  # fmt: skip
    assert tile_name("*2b") == "wild (as blue 2)"


SPOTS = st.tuples(st.integers(-9, 9), st.integers(-9, 9), st.integers(1, 5))
PLACED = st.sampled_from([*FACES, *(WILD + f for f in FACES)])


@given(st.dictionaries(SPOTS, PLACED, min_size=1, max_size=6))
def test_any_placements_write_text_that_reads_back(placements: dict) -> None:
    move = Place.of(placements)
    assert parse_move(move.to_text()) == move


@given(st.lists(st.sampled_from([*FACES, WILD]), min_size=1, max_size=5))
def test_any_swap_writes_text_that_reads_back(tiles: list[str]) -> None:
    move = Swap.of(tiles)
    assert parse_move(move.to_text()) == move and sorted(move.tiles) == sorted(tiles)

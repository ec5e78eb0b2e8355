"""Line-game test helpers: small rule sets built from the core alone (the games have their own)."""

from __future__ import annotations

import pytest

from engine.linegames.grid import Board, parse_board
from engine.linegames.lines import LineKind, LineRule, all_distinct, all_same, cyclic_run, same_or_distinct
from engine.linegames.solver import LineSolver
from engine.linegames.tiles import TileKit

#: Numbers 0-9 in five colours (D!Git's alphabet).
NUMBERS_KIT = TileKit("0123456789", "ygrkb", wild_names={"??": "any tile"})
NUMBER_RULE = LineRule(
    (
        LineKind("number", 5, all_same, all_distinct),
        LineKind("sequence", 10, lambda faces: cyclic_run(faces, "0123456789"), all_same),
    ),
    "one number in different colours, or one colour in sequence",
)
#: Five shapes in five colours, each attribute all the same or all different (Q!nto's alphabet).
SHAPES_KIT = TileKit("S!DHC", "ygrkb")
SHAPE_RULE = LineRule((LineKind("line", 5, same_or_distinct, same_or_distinct),), "all same or all different")


@pytest.fixture
def shared() -> LineSolver:
    return LineSolver(NUMBERS_KIT, NUMBER_RULE, shared=True)


@pytest.fixture
def per_line() -> LineSolver:
    return LineSolver(SHAPES_KIT, SHAPE_RULE, shared=False)


def numbers(text: str) -> Board:
    return parse_board(text, NUMBERS_KIT)


def shapes(text: str) -> Board:
    return parse_board(text, SHAPES_KIT)

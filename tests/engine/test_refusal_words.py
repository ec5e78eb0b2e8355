"""Refusals are sentences a player reads (issue 26, "Words, not codes"): squares as the page reads them out
("row 7, column 7"), tiles and tokens by name, no move notation ("0,0:2", "'exchange 5'", "Sy"); the
``rule`` codes stay for programs. The line games' own are in tests/engine/linegames/test_refusal_words.py."""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.bop.board import play_lines
from engine.bop.options import tile_name
from engine.matchfive.rules import check_resting
from engine.three2fifteen.board import play_runs
from engine.three2fifteen.layout import named_layout
from engine.three2fifteen.rules import check_hand
from tests.engine.matchfive.conftest import board
from tests.engine.rulings import refusal

#: Notation a player should never read: a cell ("7,7"), a spot ("0,0:2"), a quoted move.
NOTATION = re.compile(r"-?\d+,-?\d+|'[a-z]+ \w+'")


def refusal_words(action: Callable[[], object]) -> tuple[str, str]:
    """The rule and the sentence of the refusal ``action()`` raises."""
    error = refusal(action)
    return error.rule, str(error)


def test_bop_names_squares_and_tiles() -> None:
    rule, said = refusal_words(lambda: play_lines({(2, 2): "Mb"}, {(2, 2): "Ty"}))
    assert (rule, said) == ("occupied", "the square at row 2, column 2 already holds a tile")
    assert (tile_name("Sy"), tile_name("?")) == ("yellow S", "BOP! tile")


def test_three2fifteen_names_squares_and_tokens() -> None:
    classic = named_layout("classic")
    rule, said = refusal_words(lambda: play_runs({}, {(0, 0): 7}, classic))
    assert (rule, said) == ("start_not_covered", "the first play must cover the start square ★ (row 7, column 7)")
    rule, said = refusal_words(lambda: play_runs({(7, 7): 5}, {(7, 7): 7}, classic))
    assert (rule, said) == ("occupied", "the square at row 7, column 7 already holds a token")
    rule, said = refusal_words(lambda: check_hand([1, 2, 3], [9]))
    assert (rule, said) == ("not_in_hand", "your hand holds no 9 (it holds 1, 2, 3)")


def test_match_five_names_the_stack_and_level() -> None:
    rule, said = refusal_words(lambda: check_resting(board("0,0:3r 0,1:2r 0,2:1r"), [(0, 0, 1)]))
    assert rule == "occupied" and said == "level 1 of the stack at row 0, column 0 already holds the red 3"
    assert not NOTATION.search(said)

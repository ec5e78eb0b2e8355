"""The sheet's play example as a fixture: all eight turns, each with the sheet's score and breakdown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.adjudicator import LocalAdjudicator
from engine.bop import BopGame
from engine.bop.board import lines_through
from engine.bop.moves import Play, parse_move
from engine.bop.rules import check_words
from engine.values import Breakdown

EXAMPLE = json.loads((Path(__file__).parent / "data" / "play_example.json").read_text())
#: The totals the sheet prints, and what its own items add up to (turn 2: 7 + 3 + 5 + 10, printed 27).
SHEET_PRINTED = [7, 27, 13, 10, 10, 8, 6, 30]
BY_THE_RULES = [7, 25, 13, 10, 10, 8, 6, 30]


def play_example(game: BopGame) -> list[tuple[dict[str, Any], Breakdown]]:
    """Play the eight turns in order, each from a hand holding exactly the tiles it plays."""
    board = {(0, 0): EXAMPLE["starter"]}
    results = []
    for turn in EXAMPLE["turns"]:
        move = parse_move(turn["move"])
        assert isinstance(move, Play)
        state = game.from_position(board, [move.tiles(), []])
        breakdown = state.act(state.current, move)
        results.append((turn, breakdown))
        board = state.board
    return results


def test_the_fixture_holds_the_sheets_scores_and_says_where_the_printed_total_disagrees() -> None:
    assert [turn.get("sheet_printed", turn["points"]) for turn in EXAMPLE["turns"]] == SHEET_PRINTED
    assert [turn["points"] for turn in EXAMPLE["turns"]] == BY_THE_RULES
    disagreeing = [number for number, turn in enumerate(EXAMPLE["turns"], 1) if "disagreement" in turn]
    assert disagreeing == [2] and "7 + 3 = 10" in EXAMPLE["turns"][1]["disagreement"]


@pytest.mark.parametrize("number", range(1, 9))
def test_each_turn_scores_as_the_sheet(game: BopGame, number: int) -> None:
    turn, breakdown = play_example(game)[number - 1]
    assert breakdown.total == turn["points"] == BY_THE_RULES[number - 1]
    got = [[item.label, item.points, list(item.values)] for item in breakdown.items]
    assert got == turn["items"]


def test_every_line_of_the_example_is_a_word_the_sheet_names(adjudicator: LocalAdjudicator) -> None:
    named = {
        "FRS": "fears", "SH": "sha", "WHMMY": "whammy", "SHM": "shmo", "JST": "joust", "MJ": "mojo",
        "YS": "ayes", "CBWB": "cobweb", "WW": "wow", "HB": "hobo", "DT": "audit", "WWD": "wowed",
        "HBT": "habit", "SR": "sore", "MJS": "mojos", "YSR": "eyesore", "GD": "gouda", "GYSR": "geyser",
        "GYSRS": "geysers",
    }  # fmt: skip
    for letters, word in named.items():
        assert adjudicator.bop_check(letters, word).valid, (letters, word)


def test_after_turn_4_the_bop_tile_may_only_be_replaced_by_a_b(game: BopGame) -> None:
    results = play_example(game)
    board = {(0, 0): EXAMPLE["starter"]}
    for turn, _ in results[:4]:
        board.update(parse_move(turn["move"]).as_dict())  # type: ignore[union-attr]
    bop_cell = next(cell for cell, tile in board.items() if tile == "?")
    verdict = check_words(board, lines_through(board, bop_cell), game.judge)
    assert verdict.working == {bop_cell: frozenset("B")}


def test_turn_5_gets_no_bonus_for_hb_as_neither_tile_was_played(game: BopGame) -> None:
    _, breakdown = play_example(game)[4]
    hbt = next(item for item in breakdown.items if item.label == "down HBT")
    assert hbt.values == (1, 1, 1) and "bonus" not in hbt.detail


def test_ruling_25_turn_2_scores_its_items_as_the_sheet_states_them(game: BopGame) -> None:
    """The sheet itemises turn 2 as 7 across + 3 up/down + 5 + 10; its printed 27 is an addition slip."""
    _, breakdown = play_example(game)[1]
    items = {item.label: item.points for item in breakdown.items}
    assert items == {"across WHMMY": 7, "down SHM": 3, "5-letter word": 5, "all 5 tiles": 10}
    assert breakdown.total == 25 != EXAMPLE["turns"][1]["sheet_printed"]

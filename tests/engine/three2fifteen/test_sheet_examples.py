"""The sheet's worked examples, each a fixture: the play, the sheet's total, the breakdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.three2fifteen.layout import named_layout
from engine.three2fifteen.moves import Play, parse_move
from engine.three2fifteen.rules import check_hand, check_play, score_play

DATA = json.loads((Path(__file__).parent / "data" / "sheet_examples.json").read_text())
EXAMPLES = DATA["examples"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["name"] for e in EXAMPLES])
def test_each_sheet_example_scores_as_the_sheet_says(example: dict) -> None:
    layout = named_layout(DATA["layout"])
    board = {(r, c): v for r, c, v in example["board"]}
    play = parse_move(example["play"])
    assert isinstance(play, Play)
    check_hand(example["hand"], play.values())
    breakdown = score_play(layout, play.as_dict(), check_play(board, play.as_dict(), layout))
    assert breakdown.total == example["total"]
    assert [[i.kind, i.label, i.points, i.detail] for i in breakdown.items] == example["items"]
    for item in breakdown.items:
        assert not item.values or sum(item.values) == item.points


def test_the_four_examples_of_points_counting_are_all_there() -> None:
    totals = {e["name"]: e["total"] for e in EXAMPLES}
    assert totals["two_next_to_four"] == 6
    assert totals["seven_with_eight_above_two"] == 24
    assert totals["two_completes_nine_and_four"] == 30
    assert totals["hand_of_fifteen_at_once"] == 80
    assert totals["hand_of_fifteen_plus_adjacent_tokens"] > 80
    assert {totals["three_completed_on_a_double"], totals["three_completed_on_a_triple"]} == {60, 90}


def test_the_sheets_seven_and_eight_count_the_same_with_the_eight_already_down() -> None:
    layout = named_layout("classic")
    board = {(7, 7): 2, (6, 8): 8}
    play = {(6, 7): 7}
    assert score_play(layout, play, check_play(board, play, layout)).total == 24

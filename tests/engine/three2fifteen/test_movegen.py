"""The move generator: regression counts for fixed (board, hand) pairs, the brute-force reference on
many reached boards, ranking, and agreement with the rules."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.three2fifteen.board import parse_board
from engine.three2fifteen.movegen import brute_force_plays, generate_plays, scored_plays
from engine.three2fifteen.options import Three2FifteenOptions, parse_tokens
from engine.three2fifteen.positions import reached_position
from engine.three2fifteen.rules import blocked, can_place, score

from .conftest import CLASSIC

DATA = json.loads((Path(__file__).parent / "data" / "movegen_counts.json").read_text())
CASES = DATA["cases"]
DEFAULT = Three2FifteenOptions()
#: 7 x 7, premium squares close together: the brute force can try every cell set of a line here
SMALL = Three2FifteenOptions(layout="r.d.t.r/.d...d./d.t.t.d/...*.../d.t.t.d/.d...d./r.d.t.r")


def case_id(case: dict) -> str:
    return f"{len(parse_board(case['board']))}tokens-{case['hand'].replace(' ', '.')}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_legal_play_counts_match_the_regression_data(case: dict) -> None:
    board, hand = parse_board(case["board"]), parse_tokens(case["hand"])
    plays = scored_plays(board, hand, CLASSIC)
    assert len(plays) == case["plays"]
    assert (plays[0].points if plays else 0) == case["best"]
    assert [p.placements for p in brute_force_plays(board, hand, CLASSIC)] == [
        p.placements for p in generate_plays(board, hand, CLASSIC)
    ]


def test_the_regression_data_covers_first_turns_blocked_hands_and_full_boards() -> None:
    sizes = [len(parse_board(case["board"])) for case in CASES]
    assert 0 in sizes and max(sizes) >= 50
    assert any(case["plays"] == 0 for case in CASES) and any(case["best"] >= 80 for case in CASES)


def a_hand(draw: st.DrawFn, options: Three2FifteenOptions, board: dict, size: int) -> list[int]:
    left = sorted((options.token_counts() - Counter(board.values())).elements())
    if not left:
        return []
    size = min(size, len(left))  # a board with fewer tokens left than a hand holds: the hand is short
    picks = draw(st.lists(st.integers(0, len(left) - 1), min_size=size, max_size=size, unique=True))
    return [left[i] for i in picks]


@st.composite
def positions(draw: st.DrawFn, options: Three2FifteenOptions = DEFAULT) -> tuple[dict, list[int]]:
    board, _, _ = reached_position(draw(st.integers(0, 10**6)), draw(st.integers(0, 45)), options, draw(st.booleans()))
    return board, a_hand(draw, options, board, options.hand_size)


@pytest.mark.slow
@settings(max_examples=25)
@given(positions())
def test_generator_equals_brute_force_on_reached_boards(position: tuple[dict, list[int]]) -> None:
    board, hand = position
    assert generate_plays(board, hand, CLASSIC) == brute_force_plays(board, hand, CLASSIC)


@pytest.mark.slow
@settings(max_examples=6)
@given(positions(Three2FifteenOptions(hand_size=5)))
def test_generator_equals_brute_force_with_a_hand_of_five(position: tuple[dict, list[int]]) -> None:
    board, hand = position
    assert generate_plays(board, hand, CLASSIC) == brute_force_plays(board, hand, CLASSIC)


@settings(max_examples=15)
@given(positions(SMALL))
def test_no_legal_play_lies_outside_a_window_of_three(position: tuple[dict, list[int]]) -> None:
    board, hand = position
    layout = SMALL.board_layout()
    whole_lines = brute_force_plays(board, hand, layout, reach=layout.width)
    assert brute_force_plays(board, hand, layout) == whole_lines == generate_plays(board, hand, layout)


@settings(max_examples=40)
@given(positions())
def test_a_hand_can_place_exactly_when_it_has_a_legal_play(position: tuple[dict, list[int]]) -> None:
    board, hand = position
    for size in (1, 2, 3):
        assert can_place(board, hand[:size], CLASSIC) == bool(generate_plays(board, hand[:size], CLASSIC))


@pytest.mark.slow
@settings(max_examples=40)
@given(positions(), st.sets(st.integers(0, 15), max_size=4))
def test_blocked_is_no_token_fitting_anywhere(position: tuple[dict, list[int]], values: set[int]) -> None:
    """The end's fast check (each touching cell's range of values) against can_place's rule checks."""
    board, hand = position
    for unplayed in (hand, values, range(16)):
        assert blocked(board, unplayed, CLASSIC) == (bool(set(unplayed)) and not can_place(board, unplayed, CLASSIC))


def test_blocked_boards_from_the_regression_data() -> None:
    found = 0
    for case in CASES:
        board = parse_board(case["board"])
        for value in range(16):
            assert blocked(board, [value], CLASSIC) == (not can_place(board, [value], CLASSIC))
            found += blocked(board, [value], CLASSIC)
    assert found  # some value fits nowhere on some board: both answers are tried


def test_plays_are_ranked_and_each_scores_what_the_rules_give() -> None:
    case = max(CASES, key=lambda c: c["plays"])
    board, hand = parse_board(case["board"]), parse_tokens(case["hand"])
    plays = scored_plays(board, hand, CLASSIC)
    assert [s.points for s in plays] == sorted((s.points for s in plays), reverse=True)
    for scored in plays:
        assert scored.points == scored.breakdown.total == score(board, scored.move.as_dict(), CLASSIC).total
        assert Counter(scored.move.values()) <= Counter(hand)


def test_first_plays_cover_the_start_square() -> None:
    plays = generate_plays({}, [7, 3, 5], CLASSIC)
    assert all(CLASSIC.start in play.cells() for play in plays)
    # 3 lone tokens + 4 pairs of cells x 6 ordered pairs + 6 triples of cells x 6 orders (7 + 3 + 5 = 15)
    assert len(plays) == 3 + 4 * 6 + 6 * 6


def test_no_tokens_no_plays() -> None:
    assert generate_plays({(7, 7): 3}, [], CLASSIC) == [] == brute_force_plays({(7, 7): 3}, [], CLASSIC)

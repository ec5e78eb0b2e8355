"""The Q!nto move generator: regression counts for fixed (board, hand) pairs, the brute-force
reference on small boards (fixed cases and bounded random ones), and agreement with the scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.linegames.grid import parse_board
from engine.linegames.movegen import random_board
from engine.linegames.rules import check_play
from engine.linegames.tiles import is_wild
from engine.qnto.movegen import brute_force_plays, generate_plays, ranked_plays
from engine.qnto.options import KIT, QntoOptions
from engine.qnto.rules import SOLVER, play

CASES = json.loads((Path(__file__).parent / "data" / "movegen_counts.json").read_text())["cases"]


def case_id(case: dict) -> str:
    return f"seed{case['seed']}-{case['hand'].replace(' ', '')}"


def position(case: dict) -> tuple[dict, list[str]]:
    return parse_board(case["board"], KIT), KIT.parse_tiles(case["hand"])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_legal_play_counts_match_the_regression_data(case: dict) -> None:
    board, hand = position(case)
    assert len(generate_plays(board, hand)) == case["plays"]


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if len(position(c)[0]) <= 8], ids=case_id)
def test_generator_equals_brute_force_on_small_boards(case: dict) -> None:
    board, hand = position(case)
    assert generate_plays(board, hand) == brute_force_plays(board, hand)


@settings(max_examples=6)
@given(st.integers(0, 10_000), st.integers(1, 6), st.integers(0, 2), st.integers(2, 4))
def test_generator_equals_brute_force_on_random_positions(seed: int, size: int, wilds: int, hand_size: int) -> None:
    board, rest = random_board(SOLVER, QntoOptions().tile_set(), seed, size)
    hand = [t for t in rest if is_wild(t)][:wilds] + [t for t in rest if not is_wild(t)][: hand_size - wilds]
    assert generate_plays(board, hand) == brute_force_plays(board, hand)


@pytest.mark.parametrize("variant", ["classic", "plus", "light"])
def test_ranked_plays_are_best_first_and_score_what_play_gives(variant: str) -> None:
    case = next(c for c in CASES if len(position(c)[0]) >= 30 and sum(is_wild(t) for t in position(c)[1]) == 2)
    board, hand = position(case)
    pile = ["Sk"] * 10
    ranked = ranked_plays(board, hand, pile, variant)
    points = [s.points for s in ranked]
    assert points == sorted(points, reverse=True)
    assert (max(points) > 0) is (variant != "light")
    for scored in ranked[:: max(1, len(ranked) // 20)]:
        check_play(SOLVER, board, scored.move.as_dict(), hand)
        assert scored.breakdown == play(board, scored.move.as_dict(), hand, pile, variant).breakdown

"""The D!Git move generator: regression counts for fixed (board, hand) pairs, the brute-force
reference on small boards (fixed cases and bounded random ones), and agreement with the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.digit.movegen import brute_force_plays, generate_plays, ranked_plays
from engine.digit.options import KIT, DigitOptions
from engine.digit.rules import SOLVER, play
from engine.linegames.grid import parse_board
from engine.linegames.movegen import random_board
from engine.linegames.rules import check_play
from engine.linegames.tiles import is_wild

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
@given(st.integers(0, 10_000), st.integers(2, 6), st.integers(0, 2), st.integers(2, 4))
def test_generator_equals_brute_force_on_random_positions(seed: int, size: int, wilds: int, hand_size: int) -> None:
    board, rest = random_board(SOLVER, DigitOptions().tile_set(), seed, size)
    hand = [t for t in rest if is_wild(t)][:wilds] + [t for t in rest if not is_wild(t)][: hand_size - wilds]
    assert generate_plays(board, hand) == brute_force_plays(board, hand)


def test_every_generated_play_is_legal_and_ranked_plays_read_as_played() -> None:
    case = next(c for c in CASES if len(position(c)[0]) >= 30 and sum(is_wild(t) for t in position(c)[1]) == 2)
    board, hand = position(case)
    plays = generate_plays(board, hand)
    assert plays and any(is_wild(t) for p in plays for t in p.tiles())
    for move in plays:
        check_play(SOLVER, board, move.as_dict(), hand)
    ranked = ranked_plays(board, hand)
    keys = [(not any(i.kind == "another_turn" for i in s.breakdown.items), -len(s.move.placements)) for s in ranked]
    assert keys == sorted(keys)
    for scored in ranked[:: max(1, len(ranked) // 20)]:
        assert scored.breakdown == play(board, scored.move.as_dict(), hand).breakdown


def test_no_tiles_no_plays_and_the_first_play_covers_the_centre() -> None:
    assert generate_plays({(0, 0): "5y"}, []) == []
    first = generate_plays({}, ["5y", "5g"])
    assert first and all((0, 0) in p.cells() for p in first)
    assert len(first) == 1 + 1 + 2 * 2 * 2  # each single tile; the pair either order, across or down, two shifts

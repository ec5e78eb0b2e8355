"""The move generator: regression counts for fixed (board, hand) pairs, the brute-force reference,
ranking, and agreement with the rules the state applies."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bop import BopGame
from engine.bop.board import parse_board
from engine.bop.movegen import brute_force_plays, generate_plays, move_index
from engine.bop.options import BopOptions, parse_tiles

CASES = json.loads((Path(__file__).parent / "data" / "movegen_counts.json").read_text())["cases"]
SMALL = [case for case in CASES if len(parse_board(case["board"])) <= 5]


def case_id(case: dict) -> str:
    return f"{len(parse_board(case['board']))}tiles-{case['hand'].replace(' ', '')}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_legal_play_counts_match_the_regression_data(case: dict) -> None:
    plays = generate_plays(parse_board(case["board"]), parse_tiles(case["hand"]), move_index())
    assert len(plays) == case["plays"]
    assert plays[0].points == case["best"]


@pytest.mark.slow
@pytest.mark.parametrize("case", SMALL, ids=case_id)
def test_generator_equals_brute_force_on_small_boards(case: dict) -> None:
    board, hand = parse_board(case["board"]), parse_tiles(case["hand"])
    index = move_index()
    fast = generate_plays(board, hand, index)
    slow = brute_force_plays(board, hand, index.judge)
    assert [(s.move, s.points) for s in fast] == [(s.move, s.points) for s in slow]


def spare_tiles(board: dict) -> list[str]:
    return sorted((BopOptions().tile_counts() - Counter(board.values())).elements())


TINY_BOARD = parse_board("Fk Rb Sb/. . Hy")


@pytest.mark.slow
@settings(max_examples=6)
@given(st.lists(st.sampled_from(spare_tiles(TINY_BOARD)), min_size=1, max_size=5))
def test_generator_equals_brute_force_for_random_hands(hand: list[str]) -> None:
    if Counter(hand) - (BopOptions().tile_counts() - Counter(TINY_BOARD.values())):
        return  # more copies than the box holds; not a real hand
    index = move_index()
    fast = generate_plays(TINY_BOARD, hand, index)
    slow = brute_force_plays(TINY_BOARD, hand, index.judge)
    assert [(s.move, s.points) for s in fast] == [(s.move, s.points) for s in slow]


def test_plays_are_ranked_and_each_scores_what_the_state_gives(game: BopGame) -> None:
    case = next(c for c in CASES if len(parse_board(c["board"])) > 30 and "?" in c["hand"])
    board, hand = parse_board(case["board"]), parse_tiles(case["hand"])
    plays = generate_plays(board, hand, move_index())
    points = [s.points for s in plays]
    assert points == sorted(points, reverse=True)
    state = game.from_position(board, [hand, []])
    for scored in plays[:: max(1, len(plays) // 40)]:  # a spread of plays, best to worst
        assert scored.points == scored.breakdown.total
        assert state.clone().act(0, scored.move).total == scored.points


def test_no_tiles_no_plays() -> None:
    assert generate_plays(TINY_BOARD, [], move_index()) == []


@pytest.mark.slow
def test_the_move_index_under_house_rules_knows_the_words_they_add_and_take(lexicon) -> None:
    """A skeleton whose every word the rules deny is no line to play; an allowed word's skeleton is one."""
    from engine.adjudicator import HouseRulesAdjudicator
    from engine.bop.movegen import judge_index
    from indexes.house_rules import HouseRules

    jnk = lexicon.skeleton_words("jnk")
    rules = HouseRules.make("T", allow=["zzxq"], deny=[*jnk, lexicon.skeleton_words("frs")[0]])
    ruled = move_index("standard", rules)
    assert "JNK" in move_index().skeletons and "JNK" not in ruled.skeletons
    assert "FRS" in ruled.skeletons  # one of its words denied, the others still stand
    assert "ZZXQ" in ruled.skeletons and "ZZXQ" not in move_index().skeletons
    from engine.adjudicator import LocalAdjudicator

    assert judge_index(HouseRulesAdjudicator(rules)) is ruled and judge_index(LocalAdjudicator()) is move_index()

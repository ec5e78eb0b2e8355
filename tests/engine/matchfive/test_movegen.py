"""The fast move generator against the brute-force reference, its points against the rules' scoring,
and the recorded legal-play counts (``data/movegen_counts.json``, counted by brute force)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.matchfive.board import Board, parse_stacks
from engine.matchfive.movegen import best_plays, brute_force_plays, generate_plays, scored_plays
from engine.matchfive.options import FACES, WILD
from engine.matchfive.positions import reached_position
from engine.matchfive.rules import check_play, score_play

COUNTS = json.loads((Path(__file__).parent / "data" / "movegen_counts.json").read_text())["positions"]
SHEET = json.loads((Path(__file__).parent / "data" / "sheet_example.json").read_text())["plays"]


def check_generator(board: Board, hand: list[str]) -> list:
    """Fast == brute force, no play twice, and every play's points are what the rules score."""
    ranked = scored_plays(board, hand)
    moves = [scored.move for scored in ranked]
    assert len(set(moves)) == len(moves), "a play listed twice"
    assert set(moves) == brute_force_plays(board, hand)
    assert [s.points for s in ranked] == sorted((s.points for s in ranked), reverse=True)
    for scored in ranked:
        assert scored.points == score_play(check_play(board, hand, scored.move.as_dict())).total, scored.move
    return ranked


@pytest.mark.parametrize("position", COUNTS, ids=[f"seed{p['seed']}-turns{p['turns']}" for p in COUNTS])
def test_the_generator_finds_the_recorded_number_of_plays(position: dict) -> None:
    board, hand = parse_stacks(position["board"]), position["hand"]
    plays = generate_plays(board, hand)
    assert len(plays) == len(set(plays)) == position["plays"]


def test_the_recorded_positions_reach_a_full_middle_game_and_hold_wilds() -> None:
    assert max(len(parse_stacks(p["board"])) for p in COUNTS) >= 30
    assert sum(WILD in p["hand"] for p in COUNTS) >= 4
    assert any(p["hand"].count(WILD) == 2 for p in COUNTS)  # one wild a turn


@pytest.mark.parametrize("number", range(len(SHEET)))
def test_fast_equals_brute_force_on_the_sheets_tables(number: int) -> None:
    board = parse_stacks(SHEET[number - 1]["after"]) if number else Board()
    check_generator(board, ["2b", "4y", "5o", WILD])


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "turns"), [(11, 6), (12, 12), (13, 18)])
def test_fast_equals_brute_force_on_seeded_tables(seed: int, turns: int) -> None:
    board, hand, _ = reached_position(seed, turns)
    check_generator(board, hand[:3] + [WILD])


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    turns=st.integers(0, 16),
    hand=st.lists(st.sampled_from([*FACES, WILD]), min_size=1, max_size=3),
)
@pytest.mark.slow
def test_fast_equals_brute_force_on_random_tables_and_hands(seed: int, turns: int, hand: list[str]) -> None:
    board, _, _ = reached_position(seed, turns)
    check_generator(board, hand)


def test_no_play_goes_beside_a_locked_tile() -> None:
    board = parse_stacks("0,0:3r 0,1:2r 0,2:1r 0,3:5r 0,4:4r")
    for move in generate_plays(board, ["4b", "3b", "4y", "3y", WILD]):
        for r, c, level in move.spots():
            assert board.lock_beside((r, c, level)) is None, move


def test_no_play_joins_two_wilds_into_one_series() -> None:
    # A yellow 3 at 0,1 would join the wilds at 0,0 and 0,2 into one row: as a single tile (the slot's
    # cross row) and along the row over the wild at 0,0 (the play's own line). Both are refused.
    board = parse_stacks("0,0:*4y 1,0:4r 1,1:3r 1,2:1r 0,2:*1y")
    texts = {scored.move.to_text() for scored in check_generator(board, ["3y", "2y"])}
    assert "0,1:1 3y" not in texts and "0,-1:1a 2y . 3y" not in texts
    assert "0,3:1a 3y 2y" in texts  # beside one wild only: still a play


def test_a_wild_is_offered_as_each_tile_it_may_stand_for() -> None:
    board = parse_stacks("0,0:3r")
    singles = {m.to_text() for m in generate_plays(board, [WILD]) if len(m.placements) == 1}
    fitting = {f"*{f}" for f in ("1r", "2r", "4r", "5r", "3b", "3y", "3o", "3g")}
    for spot in ("0,1:1", "1,0:1", "0,-1:1", "-1,0:1", "0,0:2"):  # four sides and the top
        assert {t.split()[1] for t in singles if t.startswith(spot + " ")} == fitting
    assert len(singles) == 5 * len(fitting)


def test_the_best_plays_carry_breakdowns_that_add_up() -> None:
    board = parse_stacks(SHEET[3]["after"])
    best = best_plays(board, ["5b", "5y", "1b", "2g", "3o"], limit=3)
    assert best[0].move.to_text() == "0,3:2u 5b 5y" and best[0].points == 33  # the sheet's play 5
    for scored in best:
        assert scored.breakdown.total == scored.points
    assert len(best_plays(board, ["5b", "5y"], limit=0)) == len(scored_plays(board, ["5b", "5y"]))


def test_an_empty_hand_has_no_play() -> None:
    assert generate_plays(parse_stacks("0,0:3r"), []) == [] == list(brute_force_plays(parse_stacks("0,0:3r"), []))

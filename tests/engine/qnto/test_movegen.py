"""The Q!nto move generator: regression counts for fixed (board, hand) pairs, the brute-force
reference on small boards (fixed cases and bounded random ones), and agreement with the scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.linegames.rules import check_play
from engine.qnto.movegen import brute_force_plays, generate_plays, ranked_plays
from engine.qnto.options import KIT, QntoOptions
from engine.qnto.rules import SOLVER, play
from tests.engine.linegames.checks import MovegenCases, movegen_tests

CASES = MovegenCases(Path(__file__).parent, KIT)
# The recorded counts, and the generator against brute force (grids of 1 to 6 tiles at random).
globals().update(movegen_tests(CASES, generate_plays, brute_force_plays, SOLVER, QntoOptions().tile_set, (1, 6)))


@pytest.mark.parametrize("variant", ["classic", "plus", "light"])
def test_ranked_plays_are_best_first_and_score_what_play_gives(variant: str) -> None:
    board, hand = CASES.wild_position()
    pile = ["Sk"] * 10
    ranked = ranked_plays(board, hand, pile, variant)
    points = [s.points for s in ranked]
    assert points == sorted(points, reverse=True)
    assert (max(points) > 0) is (variant != "light")
    for scored in ranked[:: max(1, len(ranked) // 20)]:
        check_play(SOLVER, board, scored.move.as_dict(), hand)
        assert scored.breakdown == play(board, scored.move.as_dict(), hand, pile, variant).breakdown

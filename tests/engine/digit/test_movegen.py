"""The D!Git move generator: regression counts for fixed (board, hand) pairs, the brute-force
reference on small boards (fixed cases and bounded random ones), and agreement with the rules."""

from __future__ import annotations

from pathlib import Path

from engine.digit.movegen import brute_force_plays, generate_plays, ranked_plays
from engine.digit.options import KIT, DigitOptions
from engine.digit.rules import SOLVER, play
from engine.linegames.rules import check_play
from engine.linegames.tiles import is_wild
from tests.engine.linegames.checks import MovegenCases, movegen_tests

CASES = MovegenCases(Path(__file__).parent, KIT)
# The recorded counts, and the generator against brute force (grids of 2 to 6 tiles at random).
globals().update(movegen_tests(CASES, generate_plays, brute_force_plays, SOLVER, DigitOptions().tile_set, (2, 6)))


def test_every_generated_play_is_legal_and_ranked_plays_read_as_played() -> None:
    board, hand = CASES.wild_position()
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

"""Every legal Q!nto play for a hand on a board, best first, and the brute-force reference.

The generator is the line games' (``engine.linegames.movegen``) with Q!nto's lines: each line's
wilds are solved on their own, so the walk's checks are exact and no play needs confirming.
Diagonals never constrain a play, so Plus has the same plays as Classic; only the scores differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.base import ScoredMove
from engine.linegames import movegen
from engine.linegames.grid import Cell
from engine.linegames.moves import Play
from engine.linegames.solver import LineSolver
from engine.qnto.rules import SOLVER, play


def generate_plays(board: Mapping[Cell, str], hand: Sequence[str], solver: LineSolver = SOLVER) -> list[Play]:
    """Every legal play of tiles from ``hand``, ordered by cells and tiles."""
    return movegen.generate_plays(solver, board, hand)


def brute_force_plays(board: Mapping[Cell, str], hand: Sequence[str], solver: LineSolver = SOLVER) -> list[Play]:
    return movegen.brute_force_plays(solver, board, hand)


def ranked_plays(
    board: Mapping[Cell, str],
    hand: Sequence[str],
    pile: Sequence[str] = (),
    variant: str = "classic",
    solver: LineSolver = SOLVER,
) -> list[ScoredMove[Play]]:
    """Every legal play with its score and breakdown, best first (ties by cells and tiles)."""
    scored = []
    for move in generate_plays(board, hand, solver):
        turn = play(board, move.as_dict(), hand, pile, variant, solver)
        scored.append(ScoredMove(move, turn.points, turn.breakdown))
    scored.sort(key=lambda s: (-s.points, s.move.placements))
    return scored

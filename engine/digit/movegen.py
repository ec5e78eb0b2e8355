"""Every legal D!Git play for a hand on a board, best first, and the brute-force reference.

The generator is the line games' (``engine.linegames.movegen``) with D!Git's lines and the shared
binding: plays in which a wild sits in two lines are confirmed by the exact check. D!Git scores
nothing, so "best" is what wins the race to run out of tiles: a play that earns another turn first,
then more tiles placed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.base import ScoredMove
from engine.digit.rules import SOLVER, play
from engine.linegames import movegen
from engine.linegames.grid import Cell
from engine.linegames.moves import Play
from engine.linegames.solver import LineSolver


def generate_plays(board: Mapping[Cell, str], hand: Sequence[str], solver: LineSolver = SOLVER) -> list[Play]:
    """Every legal play of tiles from ``hand``, ordered by cells and tiles."""
    return movegen.generate_plays(solver, board, hand)


def brute_force_plays(board: Mapping[Cell, str], hand: Sequence[str], solver: LineSolver = SOLVER) -> list[Play]:
    return movegen.brute_force_plays(solver, board, hand)


def ranked_plays(board: Mapping[Cell, str], hand: Sequence[str], solver: LineSolver = SOLVER) -> list[ScoredMove[Play]]:
    """Every legal play with its breakdown: those earning another turn first, then by tiles placed."""
    scored = []
    for move in generate_plays(board, hand, solver):
        turn = play(board, move.as_dict(), hand, solver=solver)
        scored.append((not turn.another_turn, -len(move.placements), move.placements, turn, move))
    scored.sort(key=lambda entry: entry[:3])
    return [ScoredMove(move, 0, turn.breakdown) for *_, turn, move in scored]

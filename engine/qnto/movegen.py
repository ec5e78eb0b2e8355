"""Every legal Q!nto play for a hand on a board, best first, and the brute-force reference.

The generator is the line games' (``engine.linegames.movegen``) with Q!nto's lines: each line's
wilds are solved on their own, so the walk's checks are exact and no play needs confirming.
Diagonals never constrain a play, so Plus has the same plays as Classic; only the scores differ.

Ranking (the greedy bot, hints) needs every play's points, not its whole breakdown: a play the
generator found is legal, so :func:`play_value` counts its lines and bonuses without checking it
again (a property test holds it equal to :func:`engine.qnto.rules.play`'s total), and
:func:`best_plays` builds the full breakdowns of the few best only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.linegames import movegen
from engine.linegames.grid import ORTHOGONAL, Cell, play_lines
from engine.linegames.moves import Play
from engine.linegames.rules import lengths_reached
from engine.linegames.solver import LineSolver
from engine.qnto.rules import ALL_TILES_BONUS, FINAL_PLAY_BONUS, QNTO, QNTO_BONUS, SOLVER, diagonal_lines, play
from engine.values import ScoredMove


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


@dataclass(frozen=True)
class PlayValue:
    """What a legal play earns: its points (0 in Light), the Q!ntos it completes, whether the player
    goes out with it, and (Light) whether it earns another turn."""

    points: int
    qntos: int
    went_out: bool
    another_turn: bool
    tiles: int


def play_value(
    board: Mapping[Cell, str], placements: Mapping[Cell, str], hand_size: int, pile_size: int, variant: str
) -> PlayValue:
    """The value of a play already known to be legal (from the generator), counted as
    :func:`engine.qnto.rules.play` scores it: a point per tile of each line created or extended
    (Plus: valid diagonals of 3 to 5 too), +5 per Q!nto, +5 for the whole hand, +5 for the final play."""
    cells = list(placements)
    after = {**board, **placements}
    lines = play_lines(after, cells, ORTHOGONAL)
    if variant == "plus":
        lines += diagonal_lines(after, cells)
    qntos = len(lengths_reached(board.keys(), lines, (QNTO,)))
    whole_hand = len(placements) == hand_size
    went_out = whole_hand and pile_size == 0
    if variant == "light":
        return PlayValue(0, qntos, went_out, qntos > 0 and not went_out, len(placements))
    points = sum(len(line) for line in lines) + QNTO_BONUS * qntos
    points += ALL_TILES_BONUS * whole_hand + FINAL_PLAY_BONUS * went_out
    return PlayValue(points, qntos, went_out, False, len(placements))


def rank_key(value: PlayValue, move: Play) -> tuple[object, ...]:
    """Best first. Classic and Plus: the most points. Light, where the first out wins and nothing
    scores: going out, then another turn, then the most tiles placed. Ties: cells and tiles."""
    return (-value.points, not value.went_out, not value.another_turn, -value.tiles, move.placements)


def scored_plays(
    board: Mapping[Cell, str], plays: Sequence[Play], hand_size: int, pile_size: int, variant: str
) -> list[ScoredMove[Play]]:
    """``plays`` (legal) with their points, best first (:func:`rank_key`); no breakdowns."""
    valued = [(play_value(board, move.as_dict(), hand_size, pile_size, variant), move) for move in plays]
    valued.sort(key=lambda pair: rank_key(*pair))
    return [ScoredMove(move, value.points) for value, move in valued]


def best_plays(
    board: Mapping[Cell, str],
    hand: Sequence[str],
    pile: Sequence[str] = (),
    variant: str = "classic",
    limit: int = 5,
    plays: Sequence[Play] | None = None,
) -> list[ScoredMove[Play]]:
    """The ``limit`` best plays (0: all) with their full breakdowns: the hints. ``plays``: the legal
    plays when already generated."""
    found = generate_plays(board, hand) if plays is None else plays
    ranked = scored_plays(board, found, len(hand), len(pile), variant)
    chosen = ranked[:limit] if limit else ranked
    return [ScoredMove(s.move, s.points, play(board, s.move.as_dict(), hand, pile, variant).breakdown) for s in chosen]

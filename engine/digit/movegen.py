"""Every legal D!Git play for a hand on a board, best first, and the brute-force reference; the swaps a
hand allows; the ranking the greedy bot and hints use; whether anyone can still place a tile.

The generator is the line games' (``engine.linegames.movegen``) with D!Git's lines and the shared
binding: plays in which a wild sits in two lines are confirmed by the exact check. D!Git scores
nothing, so "best" is what wins the race to run out of tiles: going out, then a play that earns
another turn, then more tiles placed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from engine.digit.moves import DigitMove, DigitPass
from engine.digit.options import KIT
from engine.digit.rules import BONUS_LENGTHS, SOLVER, pass_breakdown, pass_turn, play, race_items, swap
from engine.linegames import movegen
from engine.linegames.grid import Cell, play_lines
from engine.linegames.moves import Play, Swap
from engine.linegames.rules import lengths_reached
from engine.linegames.solver import LineSolver
from engine.linegames.tiles import is_wild
from engine.values import Breakdown, ScoredMove, ScoreItem


def generate_plays(board: Mapping[Cell, str], hand: Sequence[str], solver: LineSolver = SOLVER) -> list[Play]:
    """Every legal play of tiles from ``hand``, ordered by cells and tiles."""
    if solver is not SOLVER:
        return movegen.generate_plays(solver, board, hand)
    return list(_plays(tuple(sorted(board.items())), tuple(sorted(hand))))


@lru_cache(maxsize=64)
def _plays(board: tuple[tuple[Cell, str], ...], hand: tuple[str, ...]) -> tuple[Play, ...]:
    # A turn asks for the same position's plays several times (the legal moves, the bot's ranking,
    # the hints); the answer depends on the grid and the hand's tiles only.
    return tuple(movegen.generate_plays(SOLVER, dict(board), hand))


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


def generate_swaps(board: Mapping[Cell, str], hand: Sequence[str]) -> list[Swap]:
    """Every one-step swap: a hand tile in place of a played wild where it works across and down."""
    return movegen.single_swaps(SOLVER, board, hand)


def rank_moves(board: Mapping[Cell, str], hand: Sequence[str], pile_size: int) -> list[ScoredMove[DigitMove]]:
    """The moves of a player with ``hand`` and a pile of ``pile_size``, best first, every one worth 0
    points (D!Git has none):

    1. plays: going out first, then those earning another turn, then more tiles, then fewer wilds
       spent (a wild kept is a play kept), then by cells;
    2. swaps putting a numbered tile in for a played wild (the wild comes back to the hand for a later
       play); a wild for a wild is left out: it gains nothing and two players could trade the same
       two wilds back and forth for ever;
    3. a pass trading the tiles longest in hand (the first in hand order, as many as the pile holds):
       passing again and again brings every tile of the pile round to the hand.

    Each breakdown says why the move ranks there (tiles placed, 5th or 10th tiles, going out); the
    move's own breakdown, with what every wild stands for, comes from playing it (:func:`explained`).
    """
    ranked: list[tuple[tuple[object, ...], ScoredMove[DigitMove]]] = []
    before = board.keys()
    for move in generate_plays(board, hand):
        after = {**board, **move.as_dict()}
        reached = lengths_reached(before, play_lines(after, move.cells()), BONUS_LENGTHS)
        went_out = len(move.placements) == len(hand) and pile_size == 0
        another = bool(reached) and not went_out
        wilds = sum(is_wild(tile) for tile in move.tiles())
        count = len(move.placements)
        items = [ScoreItem("tiles", "tiles placed", 0, f"{count} tile{'s' * (count > 1)}: {', '.join(move.tiles())}")]
        items += race_items(after, reached if not went_out else (), went_out)
        key = (not went_out, not another, -count, wilds, move.placements)
        ranked.append((key, ScoredMove(move, 0, Breakdown(tuple(items)))))
    ranked.sort(key=lambda entry: entry[0])
    moves: list[ScoredMove[DigitMove]] = [scored for _, scored in ranked]
    if not board:
        return moves  # the first turn is a play
    for option in generate_swaps(board, hand):
        ((cell, tile),) = option.steps
        if not is_wild(tile):
            detail = f"{KIT.name(tile)} for the {KIT.name(board[cell])}: the wild back in hand"
            moves.append(ScoredMove(option, 0, Breakdown((ScoreItem("swap", "swap", 0, detail),))))
    trade = tuple(hand[: min(len(hand), pile_size)])
    moves.append(ScoredMove(DigitPass(trade), 0, pass_breakdown(trade)))
    return moves


def explained(board: Mapping[Cell, str], hand: Sequence[str], pile: Sequence[str], scored: ScoredMove[DigitMove]
              ) -> ScoredMove[DigitMove]:  # fmt: skip
    """``scored`` with the breakdown making the move gives: each wild with what it can stand for, the
    lines made, a swap's steps, a pass's trade."""
    move = scored.move
    if isinstance(move, Play):
        breakdown = play(board, move.as_dict(), hand, pile).breakdown
    elif isinstance(move, Swap):
        breakdown = swap(board, hand, move.steps).breakdown
    else:
        breakdown = pass_turn(hand, pile, move.trade)[2]
    return ScoredMove(move, 0, breakdown)


def best_moves(board: Mapping[Cell, str], hand: Sequence[str], pile: Sequence[str], limit: int = 5
               ) -> list[ScoredMove[DigitMove]]:  # fmt: skip
    """The ``limit`` best moves (0: all) for ``hand`` on ``board`` with ``pile`` behind it, each with the
    breakdown making it gives (the hints)."""
    ranked = rank_moves(board, hand, len(pile))
    return [explained(board, hand, pile, scored) for scored in (ranked[:limit] if limit else ranked)]


def can_act(board: Mapping[Cell, str], tiles: Sequence[str]) -> bool:
    """Could a player holding ``tiles`` place one of them alone, or swap a numbered one for a played
    wild? False: such a player can only pass (the line games' test, with D!Git's lines)."""
    return movegen.can_act(SOLVER, board, tiles)

"""Three2Fifteen boards reached by seeded play, for the move generator's tests and regression data:
tokens dealt and drawn from the end of a shuffled bag, a stuck player passing, the repeat squares
ignored. Not the game's turn sequencing (``state.py``): any sequence of legal plays is worth testing.

>>> board, hand, bag = reached_position(seed=3, turns=6)
>>> len(hand), len(board) + len(bag) + len(hand) <= 81
(3, True)
>>> reached_position(seed=3, turns=6) == (board, hand, bag)
True
"""

from __future__ import annotations

from engine.rng import Rng
from engine.three2fifteen.board import Board
from engine.three2fifteen.movegen import generate_plays, scored_plays
from engine.three2fifteen.options import Three2FifteenOptions


def reached_position(
    seed: int, turns: int, options: Three2FifteenOptions | None = None, greedy: bool = False
) -> tuple[Board, list[int], list[int]]:
    """``(board, hand of the player to move, bag)`` after ``turns`` turns from a bag shuffled by
    ``Rng(seed)``: each player in turn makes a random legal play (the best-scoring one if
    ``greedy``) or passes, and draws back up to a full hand. Repeat squares are ignored: any
    sequence of legal plays is a position worth testing."""
    options = options or Three2FifteenOptions()
    layout = options.board_layout()
    rng = Rng(seed)
    bag = options.token_set()
    rng.shuffle(bag)
    hands = [[bag.pop() for _ in range(options.hand_size)] for _ in range(options.players)]
    board: Board = {}
    seat = 0
    for _ in range(turns):
        hand = hands[seat]
        if greedy:
            scored = scored_plays(board, hand, layout)
            plays = [scored[0].move] if scored else []
        else:
            plays = generate_plays(board, hand, layout)
        if plays:
            play = rng.choice(plays)
            board.update(play.placements)
            for value in play.values():
                hand.remove(value)
            while bag and len(hand) < options.hand_size:
                hand.append(bag.pop())
        seat = (seat + 1) % options.players
    return board, list(hands[seat]), bag

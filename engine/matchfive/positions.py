"""Positions reached by seeded play, for tests, regression data and benchmarks: a quick deal and
draw of its own, without the game's turn sequencing (``state.py``), so that any sequence of legal
plays gives a board worth testing the move generator on.

>>> board, hand, bag = reached_position(seed=3, turns=6)
>>> len(hand), len(board) + len(bag) + len(hand) <= 55
(5, True)
>>> reached_position(seed=3, turns=6) == (board, hand, bag)
True
"""

from __future__ import annotations

from engine.matchfive.board import Board
from engine.matchfive.movegen import generate_plays, scored_plays
from engine.matchfive.options import HAND_SIZE, MatchFiveOptions
from engine.rng import Rng


def reached_position(
    seed: int, turns: int, options: MatchFiveOptions | None = None, greedy: bool = False
) -> tuple[Board, list[str], list[str]]:
    """``(board, hand of the player to move, bag)`` after ``turns`` turns from a bag shuffled by
    ``Rng(seed)``: each player in turn makes a random legal play (the best-scoring one if
    ``greedy``), or puts the hand back at the bottom of the bag for five new tiles when it has no
    play, and draws back up to a full hand."""
    options = options or MatchFiveOptions()
    rng = Rng(seed)
    bag = options.tile_set()
    rng.shuffle(bag)
    hands = [[bag.pop(0) for _ in range(HAND_SIZE)] for _ in range(options.players)]
    board = Board()
    seat = 0
    for _ in range(turns):
        hand = hands[seat]
        if greedy:
            scored = scored_plays(board, hand)
            plays = [scored[0].move] if scored else []
        else:
            plays = generate_plays(board, hand)
        if plays:
            play = rng.choice(plays)
            board = board.with_placements(play.as_dict())
            for tile in play.hand_tiles():
                hand.remove(tile)
        elif len(bag) >= len(hand):
            bag.extend(hand)
            hand.clear()
        while bag and len(hand) < HAND_SIZE:
            hand.append(bag.pop(0))
        seat = (seat + 1) % options.players
    return board, list(hands[seat]), bag


def wild_position(seed: int, turns: int = 10, options: MatchFiveOptions | None = None) -> tuple[Board, list[str]]:
    """A board after ``turns`` greedy turns and a hand of five that holds a wild (the benchmark's case):
    the player's hand with its first tile made a wild when it holds none."""
    board, hand, _ = reached_position(seed, turns, options, greedy=True)
    if "*" not in hand:
        hand = ["*", *hand[1:]]
    return board, hand

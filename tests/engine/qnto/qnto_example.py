"""Replaying the Q!nto sheet's play example (``data/play_example.json``) with the rules functions:
the sheet's set-up (5 tiles each, the common pile's top tile as the starter), turns in order."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.linegames.grid import Cell
from engine.linegames.supply import Supply, next_seat
from engine.qnto.moves import Pass, Play, Swap, parse_move
from engine.qnto.rules import pass_turn, play, swap
from engine.values import Breakdown

EXAMPLE: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "play_example.json").read_text())


@dataclass
class Step:
    """One turn of the replay: who moved, its breakdown, and the board and supply after it."""

    turn: dict[str, Any]
    seat: int
    breakdown: Breakdown
    board: dict[Cell, str]
    supply: Supply


def replay(variant: str = "classic", example: dict[str, Any] = EXAMPLE) -> list[Step]:
    pile = tuple(example["pile"])
    board: dict[Cell, str] = {(0, 0): pile[0]}
    supply = Supply(tuple(tuple(hand) for hand in example["hands"]), (pile[1:],), personal=False)
    seat = 0
    steps = []
    for turn in example["turns"]:
        move = parse_move(turn["move"])
        hand, pile = supply.hands[seat], supply.pile_of(seat)
        if isinstance(move, Play):
            done = play(board, move.as_dict(), hand, pile, variant)
            board, breakdown = dict(done.board), done.breakdown
            supply = supply.with_seat(seat, done.hand, done.pile)
        elif isinstance(move, Swap):
            swapped = swap(board, hand, move.steps)
            board, breakdown = dict(swapped.board), swapped.breakdown
            supply = supply.with_seat(seat, swapped.hand, pile)
        else:
            assert isinstance(move, Pass)
            new_hand, new_pile, breakdown = pass_turn(hand, pile, move.trade)
            supply = supply.with_seat(seat, new_hand, new_pile)
        steps.append(Step(turn, seat, breakdown, board, supply))
        seat = next_seat(seat, example["players"], False)
    return steps

"""Replaying the D!Git sheet's play example (``data/play_example.json``) with the rules functions
and the line games' turn order: each player's own pile, another turn for a 5th tile."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.digit.moves import Pass, Play, Swap, parse_move
from engine.digit.rules import pass_turn, play, swap
from engine.linegames.grid import Cell
from engine.linegames.supply import Supply, next_seat
from engine.values import Breakdown

EXAMPLE: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "play_example.json").read_text())


@dataclass
class Step:
    """One turn of the replay: who moved, the move, its breakdown, whether it earned another turn, and
    the board and supply after it."""

    turn: dict[str, Any]
    seat: int
    breakdown: Breakdown
    another_turn: bool
    board: dict[Cell, str]
    supply: Supply


def replay(example: dict[str, Any] = EXAMPLE) -> list[Step]:
    stacks = [tuple(stack) for stack in example["stacks"]]
    supply = Supply(tuple(s[:5] for s in stacks), tuple(s[5:] for s in stacks), personal=True)
    board: dict[Cell, str] = {}
    seat = 0
    steps = []
    for turn in example["turns"]:
        move = parse_move(turn["move"])
        hand, pile = supply.hands[seat], supply.pile_of(seat)
        another = False
        if isinstance(move, Play):
            done = play(board, move.as_dict(), hand, pile)
            board, breakdown = dict(done.board), done.breakdown
            supply = supply.with_seat(seat, done.hand, done.pile)
            another = done.another_turn
        elif isinstance(move, Swap):
            swapped = swap(board, hand, move.steps)
            board, supply, breakdown = (
                dict(swapped.board),
                supply.with_seat(seat, swapped.hand, pile),
                swapped.breakdown,
            )
        else:
            assert isinstance(move, Pass)
            new_hand, new_pile, breakdown = pass_turn(hand, pile, move.trade)
            supply = supply.with_seat(seat, new_hand, new_pile)
        steps.append(Step(turn, seat, breakdown, another, board, supply))
        seat = next_seat(seat, example["players"], another)
    return steps

"""Regenerate ``movegen_counts.json``: legal Q!nto plays for fixed (board, hand) pairs, counted by the
brute-force enumerator and checked against the generator (a minute or two).

    .venv/bin/python tests/engine/qnto/data/make_qnto_movegen_counts.py
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.linegames.grid import format_board
from engine.linegames.movegen import brute_force_plays, generate_plays, position_hand, wild_position
from engine.qnto.options import QntoOptions as Options
from engine.qnto.rules import SOLVER

#: (seed, tiles on the grid, wilds in the hand): from an empty grid to mid-game grids of 30 tiles.
POSITIONS = ((1, 0, 1), (2, 4, 0), (3, 6, 1), (4, 8, 2), (5, 12, 0), (6, 12, 2), (7, 20, 1), (8, 30, 0), (9, 30, 2))
#: Whether the first play on an empty grid is a position of this game (Q!nto always has a starter tile).
EMPTY_GRID = False


def main() -> None:
    cases = []
    for first_seed, size, wilds in POSITIONS:
        if size == 0 and not EMPTY_GRID:
            continue
        board, rest, seed = wild_position(SOLVER, Options().tile_set(), first_seed, size, wilds)
        hand = position_hand(rest, wilds)
        slow = brute_force_plays(SOLVER, board, hand)
        assert generate_plays(SOLVER, board, hand) == slow, (seed, size, hand)
        cases.append({"seed": seed, "board": format_board(board), "hand": " ".join(hand), "plays": len(slow)})
    (Path(__file__).parent / "movegen_counts.json").write_text(json.dumps({"cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()

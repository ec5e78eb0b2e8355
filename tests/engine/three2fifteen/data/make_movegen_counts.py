"""Regenerate ``movegen_counts.json``: legal-play counts for fixed (board, hand) pairs on the classic
board (python-chess's perft files, for tokens). Positions come from seeded play
(``engine.three2fifteen.positions``); each count is confirmed by the brute-force enumerator before
it is written.

    .venv/bin/python tests/engine/three2fifteen/data/make_movegen_counts.py
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.three2fifteen.board import format_board
from engine.three2fifteen.movegen import brute_force_plays, scored_plays
from engine.three2fifteen.options import Three2FifteenOptions, format_tokens
from engine.three2fifteen.positions import reached_position

OUT = Path(__file__).with_name("movegen_counts.json")
#: (seed, turns, greedy): first turns, boards of about 5 to 75 tokens, a blocked hand, hands of 15 at once.
POSITIONS = [
    (1, 0, False),
    (2, 0, False),
    (3, 2, True),
    (4, 4, False),
    (5, 6, True),
    (6, 10, False),
    (7, 12, True),
    (8, 20, False),
    (9, 24, True),
    (10, 30, True),
    (11, 40, False),
    (12, 40, True),
    (33, 8, True),
    (16, 34, True),
]


def main() -> None:
    options = Three2FifteenOptions()
    layout = options.board_layout()
    cases = []
    for seed, turns, greedy in POSITIONS:
        board, hand, _ = reached_position(seed, turns, options, greedy=greedy)
        fast = scored_plays(board, hand, layout)
        slow = brute_force_plays(board, hand, layout)
        assert sorted(s.move.placements for s in fast) == [p.placements for p in slow], (seed, turns)
        cases.append(
            {
                "board": format_board(board),
                "hand": format_tokens(hand),
                "plays": len(fast),
                "best": fast[0].points if fast else 0,
            }
        )
        print(f"seed {seed} +{turns}{' greedy' if greedy else ''}: {len(board)} tokens, hand {hand}: {len(fast)} plays")
    about = "legal Three2Fifteen plays for fixed (board, hand) pairs on the classic board; confirmed by brute force"
    OUT.write_text(json.dumps({"about": about, "layout": "classic", "cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()

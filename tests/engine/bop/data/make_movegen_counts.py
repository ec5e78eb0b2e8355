"""Regenerate ``movegen_counts.json``: legal-play counts for fixed (board, hand) pairs (python-chess's
perft files, for tiles). Positions come from seeded greedy games; each count is confirmed by the
brute-force enumerator before it is written.

    /work/venv/bin/python tests/engine/bop/data/make_movegen_counts.py
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.bop import BopGame
from engine.bop.board import format_board
from engine.bop.movegen import brute_force_plays, generate_plays, move_index
from engine.bots import GreedyBot

OUT = Path(__file__).with_name("movegen_counts.json")
#: (seed, moves played first): boards of about 1, 5, 10, 20 and 35 tiles.
POSITIONS = [(1, 0), (2, 1), (3, 2), (4, 4), (5, 8), (6, 12), (8, 9), (9, 10)]


def main() -> None:
    game = BopGame()
    index = move_index()
    bot = GreedyBot()
    cases = []
    for seed, moves in POSITIONS:
        state = game.new_initial_state(seed)
        for _ in range(moves):
            state.act(state.current, bot.choose_move(state))
        hand = list(state.hand())
        on_board = sum(tile == "?" for tile in state.board.values())
        # The same hand with a BOP! tile in place of its last tile, when one is left to hold.
        hands = [hand] if "?" in hand or on_board == 2 else [hand, hand[:4] + ["?"]]
        for tiles in hands:
            fast = generate_plays(state.board, tiles, index)
            slow = brute_force_plays(state.board, tiles, index.judge)
            assert [s.move for s in fast] == [s.move for s in slow], (seed, moves, tiles)
            cases.append(
                {
                    "board": format_board(state.board),
                    "hand": " ".join(tiles),
                    "plays": len(fast),
                    "best": fast[0].points if fast else 0,
                }
            )
            print(f"seed {seed} +{moves}: {len(state.board)} tiles, hand {' '.join(tiles)}: {len(fast)} plays")
    about = "legal BOP! plays for fixed (board, hand) pairs, standard lexicon; confirmed by brute force"
    OUT.write_text(json.dumps({"about": about, "cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()

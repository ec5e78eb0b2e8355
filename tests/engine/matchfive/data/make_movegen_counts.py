"""Write ``movegen_counts.json``: legal-play counts for fixed (board, hand) pairs, counted by brute force.

    .venv/bin/python tests/engine/matchfive/data/make_movegen_counts.py

Positions come from seeded play (``engine.matchfive.positions``), from an empty table to about 30
tiles, hands with and without wilds. Each count is the brute-force enumerator's; the fast generator
must agree before anything is written. Run it when a rule changes on purpose, and read the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from engine.matchfive.board import format_stacks  # noqa: E402
from engine.matchfive.movegen import brute_force_plays, generate_plays  # noqa: E402
from engine.matchfive.positions import reached_position, wild_position  # noqa: E402

#: (seed, turns, with a wild in hand): from an empty table to a full middle game.
POSITIONS = [(1, 0, False), (2, 0, True), (3, 3, False), (4, 5, True), (5, 8, False), (6, 10, True),
             (7, 14, False), (8, 16, True), (9, 20, False)]  # fmt: skip


def main() -> None:
    found = []
    for seed, turns, wild in POSITIONS:
        if wild:
            board, hand = wild_position(seed, turns)
        else:
            board, hand, _ = reached_position(seed, turns, greedy=True)
        brute = brute_force_plays(board, hand)
        fast = generate_plays(board, hand)
        assert set(fast) == brute and len(fast) == len(brute), (seed, turns)
        found.append({"seed": seed, "turns": turns, "board": format_stacks(board), "hand": hand, "plays": len(brute)})
        print(f"seed {seed}, {turns} turns, {len(board)} tiles, hand {' '.join(hand)}: {len(brute)} plays", flush=True)
    about = "Legal plays for fixed (board, hand) pairs, counted by brute force: python " + str(
        Path(__file__).relative_to(Path(__file__).resolve().parents[4])
    )
    out = Path(__file__).parent / "movegen_counts.json"
    out.write_text(json.dumps({"about": about, "positions": found}, indent=1) + "\n")


if __name__ == "__main__":
    main()

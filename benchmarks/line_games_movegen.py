"""D!Git and Q!nto speed: every legal play for a 5-tile hand holding two wilds on mid-game grids of
about 30 tiles, against the brute-force enumerator timed in the same run.

    taskset -c 1 .venv/bin/python benchmarks/line_games_movegen.py            # about 20 s
    taskset -c 1 .venv/bin/python benchmarks/line_games_movegen.py --quick    # brute force on a 12-tile grid
    taskset -c 1 .venv/bin/python benchmarks/line_games_movegen.py --full     # more grids, brute force on 3

The grids come from seeded random self-play (``engine.linegames.movegen.random_board``), the hands
from the tiles left off them. "cold" times each generation with a fresh solver (no line answers
remembered); "warm" with the game's solver after one generation on that grid, as a bot sees it
turn after turn. Target (issue 14): p50 under 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

from engine.digit.options import DigitOptions
from engine.digit.rules import new_solver as digit_solver
from engine.linegames.movegen import brute_force_plays, generate_plays, position_hand, wild_position
from engine.linegames.solver import LineSolver
from engine.qnto.options import QntoOptions
from engine.qnto.rules import new_solver as qnto_solver

GAMES: dict[str, tuple[Callable[[], LineSolver], list[str]]] = {
    "D!Git": (digit_solver, DigitOptions().tile_set()),
    "Q!nto": (qnto_solver, QntoOptions().tile_set()),
}
TARGET_MS = 50
MID_GAME = 30


def ms(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return (time.perf_counter() - start) * 1000


def positions(make: Callable[[], LineSolver], box: Sequence[str], count: int, size: int) -> list[tuple[dict, list]]:
    solver = make()
    found = []
    for seed in range(11, 11 + count):
        board, rest, _ = wild_position(solver, box, seed, size, wilds=2)
        found.append((board, position_hand(rest, wilds=2)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="brute force on a 12-tile grid instead of a 30-tile one")
    parser.add_argument("--full", action="store_true", help="10 grids, brute force on 3")
    args = parser.parse_args()
    count, repeats, brute_count = (10, 5, 3) if args.full else (4, 3, 1)
    met = True
    for name, (make, box) in GAMES.items():
        grids = positions(make, box, count, MID_GAME)
        cold, warm, plays = [], [], []
        for board, hand in grids:
            cold += [ms(partial(generate_plays, make(), board, hand)) for _ in range(repeats)]
            solver = make()
            plays.append(len(generate_plays(solver, board, hand)))
            warm += [ms(partial(generate_plays, solver, board, hand)) for _ in range(repeats)]
        brute_grids = positions(make, box, 1, 12) if args.quick else grids[:brute_count]
        brute, fast_same = [], []
        for board, hand in brute_grids:
            brute.append(ms(partial(brute_force_plays, make(), board, hand)))
            fast_same.append(statistics.median(ms(partial(generate_plays, make(), board, hand)) for _ in range(3)))
        tiles = sorted({len(board) for board, _ in grids})
        ratio = statistics.median(brute) / statistics.median(fast_same)
        p50_cold, p50_warm = statistics.median(cold), statistics.median(warm)
        met = met and p50_cold < TARGET_MS
        print(
            f"{name}: {len(grids)} grids of {tiles[0]}-{tiles[-1]} tiles, hands with two wilds, "
            f"legal plays median {statistics.median(plays):.0f}\n"
            f"  generator  p50 {p50_cold:6.1f} ms cold, {p50_warm:6.1f} ms warm "
            f"(p90 cold {max(statistics.quantiles(cold, n=10)[-1], p50_cold):6.1f} ms)\n"
            f"  brute force {statistics.median(brute):8.0f} ms on {len(brute_grids)} grid(s) of "
            f"{len(brute_grids[0][0])} tiles -> generator {ratio:5.0f}x faster there"
        )
    print(f"target (p50 < {TARGET_MS} ms, cold): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()

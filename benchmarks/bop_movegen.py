"""BOP! speed: all legal plays for a 5-tile hand on mid-game boards (30+ tiles), without and with a
BOP! tile in hand, against the brute-force enumerator timed in the same run; and complete
greedy-vs-greedy games per second on one core.

    /work/venv/bin/python benchmarks/bop_movegen.py            # the full run
    /work/venv/bin/python benchmarks/bop_movegen.py --quick    # fewer positions and games

Targets (issue 4): p50 < 50 ms without a BOP! tile, < 250 ms with one, >= 20x the brute force.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from timing import time_ms  # benchmarks/timing.py

from engine.bop import BopGame, BopState
from engine.bop.movegen import brute_force_plays, generate_plays, move_index
from engine.bop.options import BOP
from engine.bots import GreedyBot, Turn, parse_bots, play_game
from engine.values import CHANCE

MIN_TILES = 30


def mid_game_positions(game: BopGame, count: int) -> list[tuple[BopState, list[str], list[str]]]:
    """(state, hand without a BOP! tile, the same hand with one) from seeded greedy games."""
    bot = GreedyBot()
    found: list[tuple[BopState, list[str], list[str]]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = game.new_initial_state(seed)
        while len(state.board) < MIN_TILES and not state.is_terminal():
            state.act(state.current, bot.choose(Turn(state, state.current)))
        bops_on_board = sum(t == BOP for t in state.board.values())
        if state.is_terminal() or bops_on_board == 2:
            continue
        spare = sorted((game.tile_counts - Counter(state.board.values())).elements())
        letters = [t for t in state.hand() if t != BOP]
        letters += [t for t in spare if t != BOP and t not in letters][: 5 - len(letters)]
        found.append((state, letters[:5], letters[:4] + [BOP]))
    return found



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    positions_count, repeats, brute_count, games = (4, 3, 2, 3) if args.quick else (10, 5, 3, 10)

    game = BopGame()
    started = time.perf_counter()
    index = move_index()
    print(
        f"move index (skeletons + prefixes) built in {(time.perf_counter() - started) * 1000:.0f} ms, once per process"
    )
    positions = mid_game_positions(game, positions_count)
    tiles = [len(state.board) for state, _, _ in positions]
    print(f"{len(positions)} mid-game boards, {min(tiles)}-{max(tiles)} tiles down; {repeats} runs each\n")

    results = {}
    for label, pick in (("no BOP! tile in hand", 1), ("a BOP! tile in hand", 2)):
        fast = []
        plays = []
        for state, *hands in positions:
            hand = hands[pick - 1]
            plays.append(len(generate_plays(state.board, hand, index)))
            fast += [time_ms(generate_plays, state.board, hand, index) for _ in range(repeats)]
        brute, fast_same = [], []
        for state, *hands in positions[:brute_count]:
            hand = hands[pick - 1]
            brute.append(time_ms(brute_force_plays, state.board, hand, index.judge))
            fast_same.append(
                statistics.median(time_ms(generate_plays, state.board, hand, index) for _ in range(repeats))
            )
        p50 = statistics.median(fast)
        ratio = statistics.median(brute) / statistics.median(fast_same)
        results[label] = (p50, ratio)
        print(
            f"{label:<22} p50 {p50:7.1f} ms  p90 {statistics.quantiles(fast, n=10)[-1]:7.1f} ms  "
            f"plays/position median {statistics.median(plays):.0f}  "
            f"brute force p50 {statistics.median(brute):8.0f} ms on {len(brute)} boards -> {ratio:5.0f}x faster"
        )

    started = time.perf_counter()
    moves = 0
    for seed in range(games):
        final = play_game(game, parse_bots("greedy,greedy", 2, seed), seed=seed)
        moves += sum(seat != CHANCE for seat, _ in final.history)  # the players' moves, not the draws
    elapsed = time.perf_counter() - started
    print(
        f"\ngreedy vs greedy: {games} complete games in {elapsed:.1f} s = {games / elapsed:.2f} games/s "
        f"on one core ({moves / games:.0f} moves a game)"
    )
    no_bop, with_bop = results["no BOP! tile in hand"], results["a BOP! tile in hand"]
    ok = no_bop[0] < 50 and with_bop[0] < 250 and min(no_bop[1], with_bop[1]) >= 20
    print(f"targets (p50 < 50 ms / < 250 ms, >= 20x brute force): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()

"""Match Five speed: every legal play for a hand of five with a wild on mid-game tables (20+ tiles,
stacks up to five high), the fast generator against the brute-force enumerator timed in the same run
(the same plays); then complete bot games per second on the engine (``play_game``), the greedy bot's
fast ranking against the protocol's default one (each legal move tried on a clone) in the same run.

    .venv/bin/python benchmarks/matchfive_movegen.py              # a short run (about half a minute)
    .venv/bin/python benchmarks/matchfive_movegen.py --positions 40 --repeats 10 --brute 4 --games 40

Target (issue 15): p50 < 100 ms for all legal plays of a five-tile hand with a wild on a mid-game table.
"""

from __future__ import annotations

import statistics
import time

from timing import movegen_arguments, time_ms  # benchmarks/timing.py

from engine.base import State
from engine.bots import Bot, Turn, make_bot, play_game
from engine.matchfive.board import Board
from engine.matchfive.game import MatchFiveGame
from engine.matchfive.movegen import brute_force_plays, generate_plays, scored_plays
from engine.matchfive.positions import wild_position
from engine.values import Move

MIN_TILES = 20
TARGET_MS = 100.0


def mid_game_positions(count: int) -> list[tuple[Board, list[str]]]:
    """(table, hand) pairs with 20+ tiles down after seeded greedy turns, a hand of five with a wild."""
    found: list[tuple[Board, list[str]]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        board, hand = wild_position(seed, 10 + seed % 8)
        if len(board) >= MIN_TILES and len(hand) == 5 and generate_plays(board, hand):
            found.append((board, hand))
    return found


class CloneRankingGreedy:
    """The greedy bot on the protocol's default ranking (``State.scored_moves``: each legal move played
    on a clone): the baseline for the engine's own ranking from the fast generator."""

    name = "greedy (clone ranking)"

    def choose(self, turn: Turn) -> Move | None:
        return State.scored_moves(turn._state, turn.seat)[0].move


def bot_games(game: MatchFiveGame, bots: list[Bot], seeds: range) -> tuple[float, list[str]]:
    """(seconds, each game's history as text) for complete games."""
    histories = []
    start = time.perf_counter()
    for seed in seeds:
        state = play_game(game, bots, seed)
        histories.append(" | ".join(move.to_text() for _, move in state.history))
    return time.perf_counter() - start, histories



def main() -> None:
    parser = movegen_arguments(__doc__, "table", brute=2, games=10, games_help="complete greedy games")
    parser.add_argument("--clone-games", type=int, default=2, help="games of the clone-ranking baseline (default 2)")
    args = parser.parse_args()

    positions = mid_game_positions(args.positions)
    tiles = [len(board) for board, _ in positions]
    plays = [len(generate_plays(board, hand)) for board, hand in positions]
    print(f"{len(positions)} tables of {min(tiles)}-{max(tiles)} tiles, hands of five with a wild; "
          f"{min(plays)}-{max(plays)} legal plays (median {statistics.median(plays):.0f})")  # fmt: skip

    fast = [min(time_ms(scored_plays, board, hand) for _ in range(args.repeats)) for board, hand in positions]
    p50 = statistics.median(fast)
    print(f"fast generator (every play, scored)  p50 {p50:7.1f} ms   max {max(fast):7.1f} ms   "
          f"target < {TARGET_MS:.0f} ms: {'met' if p50 < TARGET_MS else 'NOT met'}")  # fmt: skip

    brute_ms, fast_ms = [], []
    for board, hand in positions[: args.brute]:
        start = time.perf_counter()
        reference = brute_force_plays(board, hand)
        brute_ms.append((time.perf_counter() - start) * 1000)
        fast_ms.append(min(time_ms(scored_plays, board, hand) for _ in range(args.repeats)))
        assert {scored.move for scored in scored_plays(board, hand)} == reference, "the generators differ"
    if brute_ms:
        ratio = statistics.median(brute_ms) / statistics.median(fast_ms)
        print(f"brute force (same tables, same plays) p50 {statistics.median(brute_ms):7.0f} ms   "
              f"on {len(brute_ms)} table(s): the fast generator is {ratio:,.0f}x faster")  # fmt: skip

    game = MatchFiveGame()
    greedy: list[Bot] = [make_bot("greedy", 0, game), make_bot("greedy", 1, game)]
    seconds, histories = bot_games(game, greedy, range(args.games))
    print(f"greedy vs greedy: {args.games / seconds:.1f} complete games a second ({args.games} games)")
    if args.clone_games:
        slow, slow_histories = bot_games(game, [CloneRankingGreedy(), CloneRankingGreedy()], range(args.clone_games))
        same = slow_histories == histories[: args.clone_games]
        print(f"  the protocol's clone-and-play ranking: {args.clone_games / slow:.2f} games a second "
              f"({seconds / args.games and slow / args.clone_games / (seconds / args.games):.0f}x slower; "
              f"same moves: {same})")  # fmt: skip


if __name__ == "__main__":
    main()

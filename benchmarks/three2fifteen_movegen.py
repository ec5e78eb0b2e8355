"""Three2Fifteen speed: every legal play for a hand of 3 on mid-game boards (20+ tokens), the fast
generator against the brute-force enumerator timed in the same run; then complete bot games per
second on the engine (``play_game``), the greedy bot's fast ranking against the protocol's default
one (each legal move tried on a clone of the state) in the same run.

    .venv/bin/python benchmarks/three2fifteen_movegen.py              # a short run (a few seconds)
    .venv/bin/python benchmarks/three2fifteen_movegen.py --positions 60 --repeats 20 --games 100

Target (issue 13): p50 < 5 ms for all legal plays on mid-game boards.
"""

from __future__ import annotations

import statistics
import time

from timing import movegen_arguments, time_ms  # benchmarks/timing.py

from engine.base import State
from engine.bots import Bot, Turn, make_bot, play_game
from engine.three2fifteen.board import Board
from engine.three2fifteen.game import Three2FifteenGame
from engine.three2fifteen.movegen import brute_force_plays, generate_plays, scored_plays
from engine.three2fifteen.options import Three2FifteenOptions
from engine.three2fifteen.positions import reached_position
from engine.values import Move

MIN_TOKENS = 20
TARGET_MS = 5.0


def mid_game_positions(options: Three2FifteenOptions, count: int) -> list[tuple[Board, list[int]]]:
    """(board, hand) pairs with 20+ tokens down, from seeded greedy play (a hand that can play)."""
    layout = options.board_layout()
    found: list[tuple[Board, list[int]]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        board, hand, _ = reached_position(seed, 16 + seed % 24, options, greedy=True)
        if len(board) >= MIN_TOKENS and len(hand) == options.hand_size and generate_plays(board, hand, layout):
            found.append((board, hand))
    return found


class CloneRankingGreedy:
    """The greedy bot on the protocol's default ranking (``State.scored_moves``: each legal move
    played on a clone): the baseline for the engine's own ranking from the fast generator."""

    name = "greedy (clone ranking)"

    def choose(self, turn: Turn) -> Move | None:
        return State.scored_moves(turn._state, turn.seat)[0].move


def bot_games(game: Three2FifteenGame, bots: list[Bot], seeds: range) -> tuple[float, list[int], list[str]]:
    """(seconds, tokens placed in each game, each game's history as text) for complete games."""
    placed, histories = [], []
    start = time.perf_counter()
    for seed in seeds:
        state = play_game(game, bots, seed)
        placed.append(len(state.to_body()["board"]))
        histories.append(" | ".join(move.to_text() for _, move in state.history))
    return time.perf_counter() - start, placed, histories



def main() -> None:
    parser = movegen_arguments(__doc__, "board", brute=4, games=20, games_help="complete bot games per pairing")
    args = parser.parse_args()

    options = Three2FifteenOptions()
    layout = options.board_layout()
    positions = mid_game_positions(options, args.positions)
    sizes = [len(board) for board, _ in positions]
    print(f"{len(positions)} mid-game boards, {min(sizes)}-{max(sizes)} tokens down; {args.repeats} runs each\n")

    fast, scored, plays = [], [], []
    for board, hand in positions:
        plays.append(len(generate_plays(board, hand, layout)))
        fast += [time_ms(generate_plays, board, hand, layout) for _ in range(args.repeats)]
        scored += [time_ms(scored_plays, board, hand, layout) for _ in range(args.repeats)]
    brute, fast_same = [], []
    for board, hand in positions[: args.brute]:
        brute.append(time_ms(brute_force_plays, board, hand, layout))
        fast_same.append(statistics.median(time_ms(generate_plays, board, hand, layout) for _ in range(args.repeats)))
    p50 = statistics.median(fast)
    ratio = statistics.median(brute) / statistics.median(fast_same)
    print(
        f"all legal plays       p50 {p50:6.2f} ms  p90 {statistics.quantiles(fast, n=10)[-1]:6.2f} ms  "
        f"plays/position median {statistics.median(plays):.0f} (max {max(plays)})"
    )
    print(f"  ... scored, ranked  p50 {statistics.median(scored):6.2f} ms  (each play's breakdown: greedy bots, hints)")
    print(
        f"brute force           p50 {statistics.median(brute):6.1f} ms on {len(brute)} boards "
        f"-> the generator is {ratio:.0f}x faster on the same boards"
    )
    print(f"target (p50 < {TARGET_MS:g} ms): {'met' if p50 < TARGET_MS else 'NOT met'}")

    game = Three2FifteenGame()
    seeds = range(1, args.games + 1)
    print(f"\ncomplete games, 2 players, classic board, one core ({args.games} seeds; the same seeds for each line):")
    for names in (["greedy", "greedy"], ["random", "random"], ["greedy", "random"]):
        bots = [make_bot(name, seat, game) for seat, name in enumerate(names)]
        elapsed, placed, histories = bot_games(game, bots, seeds)
        if names == ["greedy", "greedy"]:
            fast_elapsed, fast_histories = elapsed, histories
        print(
            f"  {' vs '.join(names):<17} {args.games / elapsed:7.1f} games/s  "
            f"(tokens placed a game: median {statistics.median(placed):.0f}, {sum(placed) / elapsed:,.0f} a second)"
        )
    few = range(1, max(2, args.games // 5) + 1)
    elapsed, _, histories = bot_games(game, [CloneRankingGreedy(), CloneRankingGreedy()], few)
    assert histories == fast_histories[: len(few)], "the two rankings must choose the same moves"
    baseline = len(few) / elapsed
    print(
        f"  baseline: greedy ranking each legal move on a clone (the protocol's default), {len(few)} games: "
        f"{baseline:.1f} games/s -> the engine's ranking is {args.games / fast_elapsed / baseline:.0f}x faster"
    )


if __name__ == "__main__":
    main()

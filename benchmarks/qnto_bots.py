"""Q!nto bot games per second, per variant, on the engine (``play_game`` through the one gate); and the
greedy bot's ranking (the fast scorer of ``engine.qnto.movegen``) against the protocol's default
ranking (each legal move played on a clone of the state) on mid-game positions, in the same run.

    .venv/bin/python benchmarks/qnto_bots.py                      # a short run (about half a minute)
    .venv/bin/python benchmarks/qnto_bots.py --games 20 --positions 6

Issue 14 asks for bot games per second for each variant; the movegen figure (all legal plays for a
5-tile hand with two wilds, p50 < 50 ms) is ``benchmarks/line_games_movegen.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.base import State
from engine.bots import make_bot, next_move, play_game
from engine.qnto.game import QntoGame
from engine.qnto.state import QntoState
from engine.values import CHANCE

SPECS = ("variant=classic", "variant=plus", "variant=light")


def games_per_second(game: QntoGame, bot: str, seeds: range) -> tuple[float, float]:
    """(games per second, mean moves a game) for complete games of ``bot`` against itself."""
    moves = []
    start = time.perf_counter()
    for seed in seeds:
        state = play_game(game, [make_bot(bot, seed * 1000 + seat, game) for seat in range(game.players)], seed)
        moves.append(sum(1 for seat, _ in state.history if seat != CHANCE))
    elapsed = time.perf_counter() - start
    return len(seeds) / elapsed, statistics.mean(moves)


def mid_game_positions(game: QntoGame, count: int) -> list[QntoState]:
    """Positions with 20 or more tiles down and a player to move, from seeded random games."""
    found: list[QntoState] = []
    seed = 100
    while len(found) < count:
        seed += 1
        state = game.new_initial_state(seed)
        bots = [make_bot("random", seed + seat, game) for seat in range(game.players)]
        while not state.is_terminal() and len(state.board) < 20:
            chosen = next_move(state, bots)
            assert chosen is not None
            state.act(*chosen)
        if not state.is_terminal():
            found.append(state)
    return found


def ranking(states: list[QntoState]) -> None:
    fast, slow = [], []
    for state in states:
        seat = state.current
        start = time.perf_counter()
        ranked = state.scored_moves(seat)
        fast.append(time.perf_counter() - start)
        start = time.perf_counter()
        default = State.scored_moves(state, seat)
        slow.append(time.perf_counter() - start)
        assert ranked[0].points == default[0].points, "the fast ranking's best differs from the default's"
    f, s = statistics.median(fast) * 1000, statistics.median(slow) * 1000
    moves = statistics.mean(len(state.legal_moves(state.current)) for state in states)
    print(f"greedy ranking, {len(states)} mid-game positions (about {moves:.0f} legal moves each): "
          f"fast p50 {f:.0f} ms, default (clone and play each) p50 {s:.0f} ms: {s / f:.0f}x")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per variant and bot (default: %(default)s)")
    parser.add_argument("--positions", type=int, default=3, help="positions for the ranking comparison")
    args = parser.parse_args()
    print(f"bot games per second, {args.games} two-player games each (moves: player moves a game)")
    for spec in SPECS:
        game = QntoGame(spec)
        for bot in ("random", "greedy"):
            rate, moves = games_per_second(game, bot, range(args.games))
            print(f"  {game.spec():<22} {bot:<7} {rate:6.2f} games/s  ({moves:.0f} moves a game)")
    ranking(mid_game_positions(QntoGame("variant=plus"), args.positions))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Qwiply bots: the planner's gain over greedy in bot games, and bot games per second.

    .venv/bin/python benchmarks/qwiply_bots.py [--players 3] [--games 10] [--planner-games 12] [--seed 1]

For each seed, two engine games (``engine.bots.play_game``, the shared loop) on the same dice: seat 0
played by ``planner:N`` (it plans its set-up from N simulated games per bid, then plays greedily)
against greedy bots, and the baseline, seat 0 played by ``greedy`` (the sheet's advised bids, 3 each,
then greedy play) against the same greedy bots. A seeded game draws its start player and dice from
its own generator in the same order whatever the bots do, so both games of a pair roll the same dice
(common random numbers) and the paired difference is the planner's gain. Printed: seat 0's mean
score and win share (ties shared) each way, the mean gain with its standard error, and greedy-only
and planner games per second on one core, timed in the same run. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import load_game  # noqa: E402
from engine.bots import make_bot, play_game  # noqa: E402
from engine.qwiply.bots import PlannerBot  # noqa: E402


def seat0_result(spec: str, first: str, seed: int) -> tuple[float, float, float, list[float]]:
    """Seat 0's score and win share (1 / winners, 0 for a loss), the seconds taken, and the plan's
    expected total (empty for a bot without one)."""
    game = load_game(spec)
    bots = [make_bot(first, seed * 1000, game)] + [make_bot("greedy", seed * 1000 + s, game) for s in
                                                   range(1, game.players)]  # fmt: skip
    started = time.perf_counter()
    state = play_game(game, bots, seed)
    elapsed = time.perf_counter() - started
    outcome = state.outcome()
    assert outcome is not None
    share = 1 / len(outcome.winners) if 0 in outcome.winners else 0.0
    plan = bots[0].plan if isinstance(bots[0], PlannerBot) else None
    return outcome.scores[0], share, elapsed, [] if plan is None else [plan.expected_total]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=10, help="pairs of games (default: %(default)s)")
    parser.add_argument("--planner-games", type=int, default=12, help="simulated games per bid the planner plays")
    parser.add_argument("--seed", type=int, default=1, help="first seed; the pairs use seed, seed + 1, ...")
    parser.add_argument("--bids", default="public", choices=("public", "hidden"))
    args = parser.parse_args()
    spec = f"qwiply(players={args.players},bids={args.bids})"
    planner = f"planner:{args.planner_games}"
    rows = []
    for seed in range(args.seed, args.seed + args.games):
        greedy = seat0_result(spec, "greedy", seed)
        planned = seat0_result(spec, planner, seed)
        rows.append((greedy, planned))
        print(f"seed {seed:>4}: greedy {greedy[0]:>4}  planner {planned[0]:>4}  "
              f"(plan expected {planned[3][0]:.1f}, {planned[2]:.1f} s)", flush=True)  # fmt: skip
    gains = [planned[0] - greedy[0] for greedy, planned in rows]
    error = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
    greedy_time = sum(greedy[2] for greedy, _ in rows)
    planner_time = sum(planned[2] for _, planned in rows)
    print(f"\n{spec}, seat 0 against {args.players - 1} greedy bots, {args.games} pairs on the same dice")
    print(f"{'seat 0':<24}{'mean score':>12}{'win share':>12}{'games/s':>10}")
    for label, index, seconds in (("greedy (bids 3 each)", 0, greedy_time), (planner, 1, planner_time)):
        scores = [pair[index][0] for pair in rows]
        shares = [pair[index][1] for pair in rows]
        print(f"{label:<24}{statistics.mean(scores):>12.1f}{statistics.mean(shares):>12.0%}"
              f"{len(rows) / seconds:>10.2f}")  # fmt: skip
    expected = statistics.mean(planned[3][0] for _, planned in rows)
    print(f"planner's gain over greedy: {statistics.mean(gains):+.1f} points a game (standard error {error:.1f}); "
          f"its plans expected {expected:.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

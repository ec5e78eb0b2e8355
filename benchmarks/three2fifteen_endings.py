"""How Three2Fifteen games end, with and without exchanges: seeded bot games for each setting, and how
many end with tokens never played (``benchmarks/RESULTS.md`` holds its figures).

    .venv/bin/python benchmarks/three2fifteen_endings.py [--games 200]

For each setting: the games' ends by reason; how many end with tokens unplayed (any, 10 or more, 25
or more); how many with fewer than 10 tokens on the board; the longest run of turns without a
placement (exchanges and passes) met in any game; milliseconds a game. Seeds 0 to N-1; the bots of
seat i in game s are seeded ``s * 10 + i``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.bots import make_bot, play_game  # noqa: E402
from engine.three2fifteen.game import Three2FifteenGame  # noqa: E402
from engine.three2fifteen.moves import Play  # noqa: E402
from engine.three2fifteen.state import Three2FifteenState  # noqa: E402
from engine.values import CHANCE  # noqa: E402

SETTINGS = [
    ("stuck=pass", "greedy,greedy"),
    ("stuck=exchange", "greedy,greedy"),
    ("stuck=pass", "random,random"),
    ("stuck=exchange", "random,random"),
    ("players=4,stuck=pass", "greedy,greedy,greedy,greedy"),
    ("players=4,stuck=exchange", "greedy,greedy,greedy,greedy"),
]


def longest_idle_run(state: Three2FifteenState) -> int:
    longest = run = 0
    for seat, move in state.history:
        if seat == CHANCE:
            continue
        run = 0 if isinstance(move, Play) else run + 1
        longest = max(longest, run)
    return longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    games = parser.parse_args().games
    print(f"{games} seeded games per setting\n")
    print("| options | bots | ends | tokens unplayed: any / 10+ / 25+ | < 10 on the board | longest idle run | ms |")
    print("|---|---|---|---|---|---|---|")
    for options, bots in SETTINGS:
        game = Three2FifteenGame(options)
        names = bots.split(",")
        reasons: Counter[str] = Counter()
        left: list[int] = []
        idle = 0
        started = time.perf_counter()
        for seed in range(games):
            seats = [make_bot(name, seed * 10 + seat, game) for seat, name in enumerate(names)]
            state: Three2FifteenState = play_game(game, seats, seed)  # type: ignore[assignment]
            reasons[state.end_reason or "?"] += 1
            left.append(state.tokens_left())
            idle = max(idle, longest_idle_run(state))
        ms = (time.perf_counter() - started) * 1000 / games
        ends = ", ".join(f"{reason} {count}" for reason, count in reasons.most_common())
        counts = " / ".join(str(sum(n >= least for n in left)) for least in (1, 10, 25))
        few = sum(81 - n < 10 for n in left)
        print(f"| {options} | {bots} | {ends} | {counts} | {few} | {idle} | {ms:.0f} |")


if __name__ == "__main__":
    main()

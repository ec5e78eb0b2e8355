"""How strong each level is: two-player games between levels, seats alternated, seeds fixed.

    .venv/bin/python benchmarks/bot_strength.py GAME [--games 400] [--start 0] [--jobs 1] [--pairs hard-normal,...]

GAME is a registered game or a spec (``"qnto(variant=plus)"``). Each pairing plays ``--games`` games: every
deal (seed) twice, the first level in seat 0 and then in seat 1, so that neither the deal nor the seat
favours a side. It prints the first level's win rate (a tie counts half) with its 95% Wilson interval, the
mean margin, and the think time per move of each level on this process (one engine worker, as a match's
bot thinks in one): p50 and p95 on the wall clock and in CPU time, the normal level's beside the hard
one's as the baseline. The issue's targets: hard wins at least 60% against normal in every tile game,
normal at least 75% against easy, and hard's p95 at most 1.5 s. The figures for every game are in
``engine/README.md`` ("Bot levels"), with the command and the machine's load when they were taken.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from engine.bots import Bot, Turn, make_bot, play_game
from engine.registry import load_game
from engine.values import Move

#: The first deal's seed; deal i is seed SEED + i.
SEED = 36_000


@dataclass
class Timed:
    """A bot whose every choice is timed (wall clock and this process's CPU time)."""

    bot: Bot
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self, turn: Turn) -> Move | None:
        wall, cpu = time.perf_counter(), time.process_time()
        move = self.bot.choose(turn)
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return move


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson(240, 400)]
    [0.551, 0.647]
    """
    if not games:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


@dataclass
class Pairing:
    first: str
    second: str
    wins: float = 0.0
    games: int = 0
    margins: list[int] = field(default_factory=list)
    times: dict[str, Timed] = field(default_factory=dict)


Times = dict[str, tuple[list[float], list[float]]]


def one_game(spec: str, first: str, second: str, number: int) -> tuple[float, int, Times]:
    """Game ``number`` of a pairing: the first level's share of the win, its margin, and each level's
    think times (wall, CPU). Deal ``number // 2``; the first level in seat ``number % 2``."""
    game = load_game(spec)
    seed = SEED + number // 2
    first_seat = number % 2
    timed = {name: Timed(make_bot(name, seed * 10, game)) for name in (first, second)}
    bots: list[Any] = []
    for seat in range(game.players):
        name = first if seat == first_seat else second
        timed[name].bot = make_bot(name, seed * 10 + seat, game)  # a fresh bot per game, its seed fixed
        bots.append(timed[name])
    outcome = play_game(game, bots, seed).outcome()
    assert outcome is not None
    share = 1 / len(outcome.winners) if first_seat in outcome.winners else 0.0
    others = [score for seat, score in enumerate(outcome.scores) if seat != first_seat]
    return share, outcome.scores[first_seat] - max(others), {name: (t.wall, t.cpu) for name, t in timed.items()}


def play(spec: str, pairing: Pairing, games: range, progress: bool, jobs: int) -> None:
    """The pairing's games ``games`` (their numbers), in ``jobs`` processes (each game's think times are its
    own process's)."""
    for name in (pairing.first, pairing.second):
        pairing.times.setdefault(name, Timed(make_bot(name, 0, load_game(spec))))
    tasks = [(spec, pairing.first, pairing.second, number) for number in games]
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    results = pool.imap(_one_game, tasks) if pool is not None else map(_one_game, tasks)
    try:
        for share, margin, times in results:
            pairing.wins += share
            pairing.margins.append(margin)
            pairing.games += 1
            for name, (wall, cpu) in times.items():
                pairing.times[name].wall += wall
                pairing.times[name].cpu += cpu
            if progress and pairing.games % 20 == 0:
                done = f"{pairing.wins:g}/{pairing.games}"
                print(f"  {pairing.first} vs {pairing.second}: {done}", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def _one_game(task: tuple[str, str, str, int]) -> tuple[float, int, Times]:
    return one_game(*task)


def report(spec: str, pairing: Pairing) -> str:
    low, high = wilson(pairing.wins, pairing.games)
    rate = pairing.wins / pairing.games
    lines = [f"{spec}: {pairing.first} vs {pairing.second}: {rate:.1%} of {pairing.games} games ({pairing.wins:g} won) "
             f"(95% CI {low:.1%} to {high:.1%}), mean margin {statistics.mean(pairing.margins):+.1f}"]  # fmt: skip
    for name, timed in pairing.times.items():
        wall = [percentile(timed.wall, share) * 1000 for share in (0.5, 0.95)]
        cpu = [percentile(timed.cpu, share) * 1000 for share in (0.5, 0.95)]
        lines.append(f"  {name:>7} think per move ({len(timed.wall)} moves): wall p50 {wall[0]:.0f} ms, "
                     f"p95 {wall[1]:.0f} ms; CPU p50 {cpu[0]:.0f} ms, p95 {cpu[1]:.0f} ms")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help='a game or spec: bop, digit, "qnto(variant=plus)", matchfive, three2fifteen ...')
    parser.add_argument("--games", type=int, default=400, help="games per pairing (default %(default)s)")
    parser.add_argument("--start", type=int, default=0, help="the first game's number: runs of games 0-199 and "
                        "200-399 (--games 200 --start 200) add up to the 400 (default %(default)s)")  # fmt: skip
    parser.add_argument("--pairs", default="hard-normal,normal-easy", help="FIRST-SECOND,... (default %(default)s)")
    parser.add_argument("--progress", action="store_true", help="a line on stderr every 20 games")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, one process each (default 1)")
    args = parser.parse_args()
    spec = args.game if "players" in args.game else (
        f"{args.game[:-1]},players=2)" if args.game.endswith(")") else f"{args.game}(players=2)"
    )
    games = range(args.start, args.start + args.games)
    print(f"{spec}, games {games.start} to {games.stop - 1} of each pairing (deals {SEED + games.start // 2} to "
          f"{SEED + (games.stop - 1) // 2}), load average {os.getloadavg()[0]:.1f}")
    for pair in args.pairs.split(","):
        first, _, second = pair.partition("-")
        pairing = Pairing(first, second)
        play(spec, pairing, games, args.progress, args.jobs)
        print(report(spec, pairing), flush=True)


if __name__ == "__main__":
    main()

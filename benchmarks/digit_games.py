"""D!Git bot games per second on the engine (``play_game`` through the one gate, every draw a chance node),
and the greedy bot's ranking (``DigitState.scored_moves``: the generator's plays ranked by what they do)
against the protocol's default ranking (each legal move played on a clone of the state), timed in the
same run on the same positions.

    .venv/bin/python benchmarks/digit_games.py                 # a short run (about 30 s)
    .venv/bin/python benchmarks/digit_games.py --games 20 --positions 20

The default ranking is far too slow for whole games (every play, swap and pass tried on a clone, each
play checked again with every wild's values for its breakdown), so it is timed per turn only.
"""

from __future__ import annotations

import argparse
import statistics
import time

from timing import time_ms  # benchmarks/timing.py

from engine.base import State
from engine.bots import make_bot, play_game
from engine.digit.game import DigitGame
from engine.digit.movegen import _plays
from engine.digit.state import DigitState

PAIRINGS = (
    ("digit", "greedy,greedy"),
    ("digit", "random,random"),
    ("digit(players=4)", "greedy,random,greedy,random"),
    ("digit(players=6)", "greedy,greedy,greedy,greedy,greedy,greedy"),
)


def bot_games(spec: str, bots: str, games: int) -> tuple[float, list[int], list[str]]:
    """(seconds, player turns per game, each game's end) for ``games`` complete games from seeds 1, 2, ..."""
    game = DigitGame(spec.partition("(")[2].rstrip(")"))
    names = bots.split(",")
    turns, ends = [], []
    start = time.perf_counter()
    for seed in range(1, games + 1):
        state = play_game(game, [make_bot(name, seed * 1000 + seat, game) for seat, name in enumerate(names)], seed)
        assert isinstance(state, DigitState)
        turns.append(state.turns)
        ends.append(state.end_reason or "")
    return time.perf_counter() - start, turns, ends


def mid_game_states(count: int) -> list[DigitState]:
    """Mid-game positions met in greedy games (every other turn with 20 to 40 tiles on the grid, seeds 1, 2,
    ...), the player to move acting."""
    game = DigitGame()
    found: list[DigitState] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = game.new_initial_state(seed)
        while not state.is_terminal() and len(found) < count:
            if state.turns % 2 and 20 <= len(state.board) <= 40:
                found.append(state.clone())
            seat = state.current
            state.act(seat, state.scored_moves(seat)[0].move)
    return found



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6, help="complete games per pairing (default 6)")
    parser.add_argument("--positions", type=int, default=6, help="positions for the ranking comparison (default 6)")
    args = parser.parse_args()

    print("complete bot games (seeds 1, 2, ...):")
    for spec, bots in PAIRINGS:
        seconds, turns, ends = bot_games(spec, bots, args.games)
        blocked = ends.count("blocked")
        print(
            f"  {spec:<18} {bots:<44} {args.games / seconds:6.2f} games/s  "
            f"({statistics.median(turns):.0f} turns median, {blocked} blocked)"
        )

    states = mid_game_states(args.positions)
    fast, slow = [], []
    for state in states:
        seat = state.current
        _plays.cache_clear()  # each ranking generates the plays itself
        fast.append(time_ms(state.scored_moves, seat))
        _plays.cache_clear()
        slow.append(time_ms(State.scored_moves, state, seat))
    print(
        f"greedy ranking on {len(states)} positions with 20-40 tiles down: engine {statistics.median(fast):7.1f} ms, "
        f"protocol default (each legal move on a clone) {statistics.median(slow):8.1f} ms median per turn, "
        f"{statistics.median(slow) / statistics.median(fast):.1f}x"
    )


if __name__ == "__main__":
    main()

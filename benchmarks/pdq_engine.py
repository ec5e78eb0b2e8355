#!/usr/bin/env python3
"""PDQ engine figures: deal difficulty per variant, and bot games per second.

    /work/venv/bin/python benchmarks/pdq_engine.py [--shuffles 400] [--games 20]

1. Deal difficulty: shuffles the default deck ``--shuffles`` times per sheet variant, deals every
   row, and prints how many answers the rows have (share with none, percentiles) and the share in
   each band of ``engine.pdq.difficulty.BANDS``: the figures the bands were set from.
2. Speed: complete bot games per second on one core for each variant (the adjudicator in-process),
   and the cost of one adjudicated claim against the bare ``lexicon.pdq_check`` it wraps, timed in
   the same run (the ratio is the engine's overhead: recording, window, JSON-free bookkeeping).
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.adjudicator import LocalAdjudicator  # noqa: E402
from engine.bots import parse_bots, play_game  # noqa: E402
from engine.errors import EngineError, IllegalMoveError  # noqa: E402
from engine.pdq import PRESETS, Claim, PdqGame, PdqOptions  # noqa: E402
from engine.pdq.deck import place  # noqa: E402
from engine.pdq.difficulty import BANDS, band  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.values import CHANCE  # noqa: E402


def difficulty(adjudicator: LocalAdjudicator, shuffles: int) -> None:
    print(f"Deal difficulty ({shuffles} shuffles of each variant's deck, every row dealt)")
    names = [label for _, label in BANDS]
    print(f"{'variant':<20} {'rows':>6} {'none':>6} {'p10':>6} {'p25':>6} {'p50':>6} {'p75':>6}  "
          + " ".join(f"{n:>6}" for n in names))  # fmt: skip
    for variant in PRESETS:
        options = PdqOptions.preset(variant)
        rng = Rng(1)
        counts = []
        minimum = min(options.min_length_for(p) for p in range(options.players))
        for _ in range(shuffles):
            deck = options.deck()
            rng.shuffle(deck)
            size = options.cards_per_round
            for start in range(0, len(deck) - size + 1, size):
                letters = place(deck[start : start + size])
                counts.append(adjudicator.pdq(letters, variant=options.word_rule, min_length=minimum, limit=1).count)
        array = np.array(counts)
        shares = [np.mean([band(int(c)) == n for c in array]) for n in names]
        p10, p25, p50, p75 = np.percentile(array, [10, 25, 50, 75])
        print(f"{variant:<20} {len(array):>6} {np.mean(array == 0):>6.1%} {p10:>6.0f} {p25:>6.0f} {p50:>6.0f} "
              f"{p75:>6.0f}  " + " ".join(f"{s:>6.1%}" for s in shares))  # fmt: skip


def speed(adjudicator: LocalAdjudicator, games: int) -> None:
    print(f"\nBot games per second (one core, {games} games each, bots quick/steady/slow)")
    for variant in PRESETS:
        extra = {} if variant == "solo" else {"players": 3}
        game = PdqGame({"variant": variant, **extra}, adjudicator)
        names = "quick" if variant == "solo" else "quick,steady,slow"
        start = time.perf_counter()
        moves = 0
        for seed in range(games):
            final = play_game(game, parse_bots(names, game.options.players, seed, game), seed)
            moves += sum(seat != CHANCE for seat, _ in final.history)  # the players' and referee's, not the deals
        elapsed = time.perf_counter() - start
        print(f"  {variant:<20} {games / elapsed:>8.1f} games/s  {moves / elapsed:>9.0f} moves/s")

    game = PdqGame({"players": 12}, adjudicator)
    lexicon = adjudicator.lex
    words = ["pineapple", "painter", "pendant", "catnip", "pancreas", "zzzz", "peninsula", "phenomenal"]
    engine_times, bare_times = [], []
    for seed in range(300):
        state = game.new_initial_state(seed)
        letters = state.round.letters if state.round else "PNA"
        for player, word in enumerate(words):
            t0 = time.perf_counter()
            lexicon.pdq_check(letters, word, variant="classic", min_length=4)
            t1 = time.perf_counter()
            try:
                state.act(player, Claim(word, 0))
            except IllegalMoveError as error:
                if error.rule != "not_a_word":
                    continue  # refused before the judge was asked: not a claim's cost
            except EngineError:
                continue  # not this seat's move now
            t2 = time.perf_counter()  # a wrong word is judged, refused and rolled back: timed too
            bare_times.append(t1 - t0)
            engine_times.append(t2 - t1)
    engine_p50, bare_p50 = statistics.median(engine_times), statistics.median(bare_times)
    print(f"\nOne claim: engine p50 {engine_p50 * 1e6:.1f} us, bare pdq_check p50 {bare_p50 * 1e6:.1f} us, "
          f"ratio {engine_p50 / bare_p50:.1f}x")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shuffles", type=int, default=400)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    adjudicator = LocalAdjudicator()
    difficulty(adjudicator, args.shuffles)
    speed(adjudicator, args.games)


if __name__ == "__main__":
    main()

"""Regenerate ``playthroughs.json``: recorded reference games (OpenSpiel's playthroughs) — every
move with its points, and the final scores — that ``test_playthroughs.py`` replays and diffs.
Only the player on turn is asked for a move (challenges are made on one's own turn), as when the
games were first recorded; the draws in between are the game's own chance.

    /work/venv/bin/python tests/engine/bop/data/make_playthroughs.py
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.bop import BopGame
from engine.bots import Turn, parse_bots

OUT = Path(__file__).with_name("playthroughs.json")
GAMES = [
    ({"players": 2}, "greedy,greedy", 7),
    ({"players": 3, "mode": "challenge"}, "greedy,random,greedy", 8),
]


def main() -> None:
    records = []
    for options, bots_text, seed in GAMES:
        game = BopGame(options)
        bots = parse_bots(bots_text, game.options.players, seed, game)
        state = game.new_initial_state(seed)
        moves = []
        while not state.is_terminal():
            player = state.current
            move = bots[player].choose(Turn(state, player))
            assert move is not None
            points = state.act(player, move).total
            moves.append(f"{player} {move.to_text()} {points:+d}")
        outcome = state.outcome()
        assert outcome is not None
        records.append(
            {"options": options, "bots": bots_text, "seed": seed, "moves": moves, "final": outcome.to_json()}
        )
        print(f"{bots_text} seed {seed}: {len(moves)} moves, scores {outcome.scores}")
    OUT.write_text(json.dumps({"about": "recorded BOP! games, standard lexicon", "games": records}, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""Record seeded bot games of a tile game for its table-mode re-entry test.

    python tests/engine/make_table_games.py GAME [--games 200]

Writes ``tests/engine/GAME/data/table_games.json``: for each game its spec, bots and seed and the players'
moves in order (``"SEAT MOVE|SEAT MOVE|..."``; no draws: the seed deals them again). Nothing the test
compares is stored: ``tests/engine/test_table_reentry.py`` replays each game on the dealing engine and enters
its moves at the table, and both engines score them then. Recording only saves the bots' thinking (seconds a
game), so that all the games replay within the slow lane's time. Run it again when a rule changes on purpose.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import load_game  # noqa: E402
from engine.bots import make_bot, next_move  # noqa: E402
from engine.values import CHANCE  # noqa: E402

#: The specs and bots recorded for each game, in turn (game k uses entry k % len): the default table, more
#: players, the variants; a random bot where its choices differ (challenges and bluffs, swaps by choice).
MIXES: dict[str, list[tuple[str, str]]] = {
    "bop": [("bop", "greedy,greedy"), ("bop(players=3,mode=challenge)", "greedy,random,greedy")],
    "digit": [("digit", "greedy,greedy"), ("digit(players=3)", "greedy,random,greedy")],
    "qnto": [("qnto", "greedy,greedy"), ("qnto(variant=plus,players=3)", "greedy,random,greedy"),
             ("qnto(variant=light)", "greedy,random")],  # fmt: skip
    "matchfive": [("matchfive", "greedy,greedy"), ("matchfive(players=3)", "greedy,random,greedy"),
                  ("matchfive(players=4,copies=1,wilds=2)", "random,greedy,random,greedy")],  # fmt: skip
    "three2fifteen": [("three2fifteen", "greedy,greedy"), ("three2fifteen(players=3)", "greedy,random,greedy"),
                      ("three2fifteen(players=4,hand_size=5)", "greedy,greedy,random,greedy"),
                      ("three2fifteen(stuck=pass)", "greedy,greedy")],  # fmt: skip
}


def record(spec: str, bots: str, seed: int) -> dict[str, object]:
    game = load_game(spec)
    seats = [make_bot(name.strip(), seed * 1000 + seat, game) for seat, name in enumerate(bots.split(","))]
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        chosen = next_move(state, seats)
        assert chosen is not None
        state.act(*chosen)
    moves = "|".join(f"{seat} {move.to_text()}" for seat, move in state.history if seat != CHANCE)
    return {"spec": spec, "bots": bots, "seed": seed, "moves": moves}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(MIXES))
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    mix = MIXES[args.game]
    games = [record(*mix[seed % len(mix)], seed) for seed in range(1, args.games + 1)]
    out = Path(__file__).parent / args.game / "data" / "table_games.json"
    about = (
        "Seeded bot games of the dealing engine, players' moves only (the seed deals the draws again), for the "
        "table-mode re-entry test; made by tests/engine/make_table_games.py"
    )
    out.write_text(json.dumps({"about": about, "games": games}, indent=0) + "\n", encoding="utf-8")
    print(f"{out}: {len(games)} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

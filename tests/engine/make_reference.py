"""Record an engine's reference games and legal-move counts for the conformance suite.

    python tests/engine/make_reference.py GAME [--spec SPEC --bots NAMES --seed S ...]

Writes ``tests/engine/GAME/data/reference.json`` (seeded bot games: every move with its breakdown,
and the end) and ``legal_counts.json`` (positions met in those games, with the number of legal moves
of each seat that may act). Run it when an engine's rules change on purpose, and read the diff.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import load_game, load_state  # noqa: E402
from engine.bots import make_bot, next_move  # noqa: E402
from engine.registry import register  # noqa: E402
from tests.engine.conformance import legal_counts, record_game  # noqa: E402

register("highcard", "tests.engine.toy:HighcardGame")

T2F_SMALL = "r.d.t.r/.d...d./d.t.t.d/...*.../d.t.t.d/.d...d./r.d.t.r"
#: The games recorded for each engine by default: (spec, bots, seed).
DEFAULTS: dict[str, list[tuple[str, str, int]]] = {
    "bop": [("bop", "greedy,greedy", 7), ("bop(players=3,mode=challenge)", "greedy,random,greedy", 8)],
    "pdq": [("pdq(players=3)", "sharp,steady,relaxed", 3), ("pdq(players=3)", "random,greedy,random", 4),
            ("pdq(variant=pdl,players=2)", "steady,sharp", 5)],  # fmt: skip
    "qwiply": [("qwiply", "greedy,greedy", 7), ("qwiply(players=3,bids=hidden)", "greedy,random,greedy", 8),
               ("qwiply(players=3)", "planner:4,greedy,random", 9)],
    # Every token played, with repeats and passes; three players; a 7 x 7 board of close squares; a deadlock.
    "three2fifteen": [("three2fifteen", "greedy,greedy", 3), ("three2fifteen(players=3)", "greedy,random,greedy", 12),
                      (f"three2fifteen(layout={T2F_SMALL})", "random,greedy", 6),
                      ("three2fifteen", "greedy,greedy", 2), ("three2fifteen(stuck=pass)", "greedy,greedy", 2)],
    # Two greedy players to the end; three with a random one; six players on a bag of one of each tile.
    "matchfive": [("matchfive", "greedy,greedy", 3), ("matchfive(players=3)", "greedy,random,greedy", 8),
                  ("matchfive(players=6,copies=1,wilds=5)", "greedy,random,greedy,random,greedy,random", 4)],
    # Two greedy players; three with a random one; five, as in the sheet's play example; no wilds at all.
    "digit": [("digit", "greedy,greedy", 7), ("digit(players=3)", "greedy,random,greedy", 8),
              ("digit(players=5)", "greedy,greedy,random,greedy,greedy", 5),
              ('digit(blanks="",digit_tiles=0)', "random,greedy", 4)],
    "highcard": [("highcard(players=3)", "random,greedy,random", 1)],
    # Classic, Plus with three players, Light (another turns), a blocked Light game (idle_limit=1: the first
    # turn without a tile placed ends it; the fewest tiles left win).
    "qnto": [("qnto", "greedy,greedy", 7), ("qnto(variant=plus,players=3)", "greedy,random,greedy", 8),
             ("qnto(variant=light)", "greedy,random", 9), ("qnto(variant=light,players=3,idle_limit=1)",
                                                            "random,random,random", 4)],
}


def positions(spec: str, bots: str, seed: int, every: int) -> list[dict[str, object]]:
    game = load_game(spec)
    names = [name.strip() for name in bots.split(",")]
    seats = [make_bot(name, seed * 1000 + seat, game) for seat, name in enumerate(names)]
    state = game.new_initial_state(seed)
    found = []
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            saved = state.to_json()
            found.append({"state": saved, "counts": legal_counts(load_state(saved))})
        chosen = next_move(state, seats)
        assert chosen is not None
        state.act(*chosen)
        step += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--every", type=int, default=7, help="keep every n-th position's legal-move counts")
    parser.add_argument("--positions", type=int, default=6, help="legal-move count positions to keep")
    args = parser.parse_args()
    games = DEFAULTS.get(args.game, [(args.game, ",".join(["greedy"] * load_game(args.game).players), 1)])
    data = Path(__file__).parent / args.game / "data"
    data.mkdir(parents=True, exist_ok=True)
    records = [record_game(load_game(spec), bots, seed) for spec, bots, seed in games]
    about = f"recorded {args.game} games: python tests/engine/make_reference.py {args.game}"
    (data / "reference.json").write_text(json.dumps({"about": about, "games": records}, indent=1) + "\n")
    spec, bots, seed = games[0]
    kept = positions(spec, bots, seed, args.every)[: args.positions]
    (data / "legal_counts.json").write_text(json.dumps({"about": about, "positions": kept}) + "\n")
    print(f"{data}: {len(records)} games, {len(kept)} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())

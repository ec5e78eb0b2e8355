"""``tablejudge learn-leaves [GAME ...]``: learn the tile games' leave tables by self-play and write them beside
each game (``engine/<game>/leaves.json``), or, with ``--check``, compare a fresh learning with the committed
files and write nothing. The learning itself is the engine's (``engine.leaves.learn``); this is its front."""

from __future__ import annotations

import argparse
import sys

from engine.leaves import RECIPES, learn, table_path


def register(subparsers: argparse._SubParsersAction) -> None:
    command = subparsers.add_parser(
        "learn-leaves", help="learn the tile games' leave values by self-play (the hard bot's tables)"
    )
    command.add_argument(
        "games", nargs="*", metavar="GAME", help=f"games to learn (default: all of {', '.join(RECIPES)})"
    )
    command.add_argument("--check", action="store_true", help="compare with the committed files; write nothing")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    games = args.games or list(RECIPES)
    texts = {game: learn(game) for game in games}  # an unknown game is refused before anything is written
    differ = []
    for game, text in texts.items():
        path = table_path(f"engine.{game}")
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                differ.append(str(path))
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if differ:
        print(f"tablejudge: differs from a fresh learning: {', '.join(differ)}", file=sys.stderr)
        return 1
    if args.check:
        print(f"the same as a fresh learning: {', '.join(games)}")
    return 0

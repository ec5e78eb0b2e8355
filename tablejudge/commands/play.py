"""``tablejudge play GAME ...`` and each game's extra commands (hints and the like).

Each game's CLI module has ``register(play_subparsers)`` for its ``play`` subcommand and may have
``register_commands(subparsers)`` for top-level commands of its own.
"""

from __future__ import annotations

import argparse
import importlib

#: One CLI module per game engine, in the order ``tablejudge play --help`` lists them.
GAMES: tuple[str, ...] = ("engine.bop.cli", "engine.pdq.cli")


def register(subparsers: argparse._SubParsersAction) -> None:
    modules = [importlib.import_module(name) for name in GAMES]
    play = subparsers.add_parser("play", help="play a game in the terminal (people and bots)")
    games = play.add_subparsers(dest="game", required=True, parser_class=type(play))
    for module in modules:
        module.register(games)
        if hasattr(module, "register_commands"):
            module.register_commands(subparsers)

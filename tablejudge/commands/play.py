"""``tablejudge play GAME ...`` for every registered game.

A game whose package has a ``cli`` module with ``register(play_subparsers)`` adds its own
``play`` subcommand (built on ``engine.play``'s shared flags and loop); every other registered game
gets the generic ``engine.play`` runner. Its hints are ``tablejudge hint GAME`` (``commands/hint.py``).
Nothing here names a game: the registry does.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from types import ModuleType

from engine.play import register_generic
from engine.registry import GAMES, registered_games


def game_cli(name: str) -> ModuleType | None:
    """The game's own CLI module (``engine.bop.cli`` beside ``engine.bop.game``), if it has one."""
    package = GAMES[name].partition(":")[0].rpartition(".")[0]
    module = f"{package}.cli"
    return importlib.import_module(module) if importlib.util.find_spec(module) is not None else None


def register(subparsers: argparse._SubParsersAction) -> None:
    play = subparsers.add_parser("play", help="play a game in the terminal (people and bots)")
    games = play.add_subparsers(dest="game", required=True, parser_class=type(play))
    for name in registered_games():
        module = game_cli(name)
        if module is not None and hasattr(module, "register"):
            module.register(games)
        else:
            register_generic(games, name)

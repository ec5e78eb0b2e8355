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


def game_commands(subparsers: argparse._SubParsersAction, command: str,
                  summary: str) -> tuple[argparse._SubParsersAction, list[tuple[str, ModuleType | None]]]:  # fmt: skip
    """``tablejudge COMMAND GAME ...``: the subparsers of the command (added with its ``summary``) that take
    a game's name, and every registered game with its own CLI module (None where it has none)."""
    parser = subparsers.add_parser(command, help=summary)
    games = parser.add_subparsers(dest="game", required=True, parser_class=type(parser))
    return games, [(name, game_cli(name)) for name in registered_games()]


def register(subparsers: argparse._SubParsersAction) -> None:
    games, clis = game_commands(subparsers, "play", "play a game in the terminal (people and bots)")
    for name, module in clis:
        if module is not None and hasattr(module, "register"):
            module.register(games)
        else:
            register_generic(games, name)

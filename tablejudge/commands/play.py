"""``tablejudge play GAME ...`` for every registered game.

A game with a ``play`` of its own (:data:`OWN_PLAY`: its flags, its runner) registers it; every other
registered game plays on the generic runner (``tablejudge/play/runner.py``), which needs nothing of a game
but the engine protocol. Its hints are ``tablejudge hint GAME`` (``commands/hint.py``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from engine.registry import registered_games
from tablejudge.play import bop, digit, matchfive, pdq, qnto, three2fifteen
from tablejudge.play.grid import GridCommands
from tablejudge.play.runner import register_generic

#: The grid games' commands (``tablejudge/play/grid.py``): a ``play`` of their own, and ``hint``.
GRID_COMMANDS: dict[str, GridCommands] = {
    commands.name: commands
    for commands in (bop.COMMANDS, digit.COMMANDS, matchfive.COMMANDS, qnto.COMMANDS, three2fifteen.COMMANDS)
}
#: Every game whose ``play`` is its own, and how it registers it (PDQ's: the solo game, racing bots).
OWN_PLAY: dict[str, Callable[[argparse._SubParsersAction], None]] = {
    **{name: commands.register for name, commands in GRID_COMMANDS.items()},
    "pdq": pdq.register,
}


def game_commands(subparsers: argparse._SubParsersAction, command: str, summary: str) -> argparse._SubParsersAction:
    """``tablejudge COMMAND GAME ...``: the subparsers of the command (added with its ``summary``) that take
    a game's name."""
    parser = subparsers.add_parser(command, help=summary)
    return parser.add_subparsers(dest="game", required=True, parser_class=type(parser))


def register(subparsers: argparse._SubParsersAction) -> None:
    games = game_commands(subparsers, "play", "play a game in the terminal (people and bots)")
    for name in registered_games():
        own = OWN_PLAY.get(name)
        if own is not None:
            own(games)
        else:
            register_generic(games, name)

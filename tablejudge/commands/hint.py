"""``tablejudge hint GAME ...``: the best plays for a hand on a board, for every game that offers hints.

A game offers them through the engine protocol (``Game.hints``: the five grid games); its commands
(``tablejudge/play/<game>.py``) say how the board is given and each play is shown. The older per-game
names (``tablejudge bop-hint ...``) stay as aliases of the same parser, so scripts and notes keep working.
"""

from __future__ import annotations

import argparse

from engine.registry import registered_games
from tablejudge.commands.play import GRID_COMMANDS, game_commands


def register(subparsers: argparse._SubParsersAction) -> None:
    games = game_commands(subparsers, "hint", "the best plays for a hand on a board: tablejudge hint GAME ...")
    for name in registered_games():
        own = GRID_COMMANDS.get(name)
        if own is None:  # no hints: no board and hand to write out (PDQ, Qwiply)
            continue
        own.add_hint_arguments(games.add_parser(name, help=own.hint_help))
        own.add_hint_arguments(subparsers.add_parser(f"{name}-hint", help=f"the same as: tablejudge hint {name}"))

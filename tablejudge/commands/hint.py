"""``tablejudge hint GAME ...``: the best plays for a hand on a board, for every game that offers hints.

A game offers them when its CLI module (``engine/<game>/cli.py``) has ``add_hint_arguments(parser)``
(its arguments, with ``run`` set) and ``HINT_HELP`` (one line). The older per-game names
(``tablejudge bop-hint ...``) stay as aliases of the same parser, so scripts and notes keep working.
"""

from __future__ import annotations

import argparse

from engine.registry import registered_games
from tablejudge.commands.play import game_cli


def register(subparsers: argparse._SubParsersAction) -> None:
    hint = subparsers.add_parser("hint", help="the best plays for a hand on a board: tablejudge hint GAME ...")
    games = hint.add_subparsers(dest="game", required=True, parser_class=type(hint))
    for name in registered_games():
        module = game_cli(name)
        if module is None or not hasattr(module, "add_hint_arguments"):
            continue
        module.add_hint_arguments(games.add_parser(name, help=module.HINT_HELP))
        module.add_hint_arguments(subparsers.add_parser(f"{name}-hint", help=f"the same as: tablejudge hint {name}"))

"""``tablejudge hint GAME ...``: the best plays for a hand on a board, for every game that offers hints.

A game offers them when its CLI module (``engine/<game>/cli.py``) has ``add_hint_arguments(parser)``
(its arguments, with ``run`` set) and ``HINT_HELP`` (one line). The older per-game names
(``tablejudge bop-hint ...``) stay as aliases of the same parser, so scripts and notes keep working.
"""

from __future__ import annotations

import argparse

from tablejudge.commands.play import game_commands


def register(subparsers: argparse._SubParsersAction) -> None:
    games, clis = game_commands(subparsers, "hint", "the best plays for a hand on a board: tablejudge hint GAME ...")
    for name, module in clis:
        if module is None or not hasattr(module, "add_hint_arguments"):
            continue
        module.add_hint_arguments(games.add_parser(name, help=module.HINT_HELP))
        module.add_hint_arguments(subparsers.add_parser(f"{name}-hint", help=f"the same as: tablejudge hint {name}"))

"""``tablejudge play matchfive`` (people and bots in the terminal) and ``tablejudge hint matchfive``.

    tablejudge play matchfive --bots human,greedy --seed 3          # you against the greedy bot
    tablejudge play matchfive --players 4 --bots greedy,random,greedy,random --seed 7
    tablejudge play matchfive --bots human,greedy --option copies=1 --option wilds=2
    tablejudge hint matchfive "0,0:3r 0,1:2r 0,2:1r" --hand "5r 4r * 2b 3y"

The game runs on the shared loop and seats (``runner.py``); a person sees the table from above
(``MatchFiveGame.render``) and their own hand, types moves in the notation of
``engine.matchfive.moves``, and may ask for ``hint`` (the best plays now, with their breakdowns),
``moves`` (every legal move) or ``help``. The hint command reads the table as ``MatchFiveGame.hints`` does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.base import Game, State
from engine.bots import Turn
from engine.errors import ConfigError
from engine.matchfive.board import Board
from engine.matchfive.game import LEGEND
from engine.matchfive.movegen import best_plays
from engine.matchfive.options import sort_tiles
from engine.matchfive.rules import hand_breakdown
from engine.matchfive.state import MatchFiveState
from engine.values import Breakdown, Move, ScoredMove
from tablejudge.play import grid as terminal


# --- hints ---------------------------------------------------------------------------------------
def hint_text(number: int, scored: ScoredMove[Any]) -> str:
    """``  1. 0,3:2u 5b 5y      +33  vertical +15; horizontal +9; horizontal +9``"""
    return terminal.hint_line(
        number, scored, 24, lambda item: f"{item.label} {item.points:+d}" if item.points else None
    )


def _table_text(arg: str) -> str:
    """The table ``arg`` names: stdin for ``-``, the stacks written out (``ROW,COL:...``; '' an empty table),
    or a file's text."""
    if arg == "-":
        return sys.stdin.read()
    if ":" in arg or not arg.strip():
        return arg
    path = Path(arg)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"table: cannot read {arg!r}: {error}") from None


NO_PLAY = "no play: swap tiles (or pass, with the bag empty)"


# --- a person at the terminal --------------------------------------------------------------------
def notation_help(hand: Sequence[str], board: Board) -> str:
    """How to write a move, with the player's own tiles and spots of this table in the examples."""
    tiles = sort_tiles(t for t in hand if t != "*") or ["3r", "2r"]
    a, b = tiles[0], tiles[-1]
    free, stack, level = _example_cells(board)
    return "\n".join(
        (
            "How to write a move (a spot is ROW,COL:LEVEL; level 1 is on the table, 2 on one tile, up to 5):",
            f"  {free}:1 {a}            one tile, on the table at {free}",
            f"  {free}:1a {a} {b}         across (a) from that spot, left to right; d goes down the column",
            f"  {free}:1a {a} . {b}       '.' steps over a tile already at that level",
            f"  {stack}:{level}u {a} {b}         up (u) the stack on {stack}: {a} at level {level}, {b} on it",
            "  *2b                  a wild, played as a blue 2 (any colour-number it fits)",
            f"  swap {a} *            put tiles back in the bag for as many new ones",
            "  pass                 only with no play and an empty bag",
            "  hint  the best plays now;  moves  every legal move;  help  this text",
            "A series (side by side at one level, or a stack) is one colour in different numbers or one number in",
            "different colours, at most five; the ends of a row of five are locked (#): nothing beside them.",
        )
    )


def _example_cells(board: Board) -> tuple[str, str, int]:
    """An empty cell beside the grouping, and a stack to build on with its next level (0,0 on an empty table)."""
    if not board:
        return "0,0", "0,0", 1
    right = board.bounds()[3]
    row = min(r for r, c in board.stacks if c == right)
    stack = min((cell for cell, tiles in board.stacks.items() if len(tiles) < 5), default=(row, right))
    return f"{row},{right + 1}", f"{stack[0]},{stack[1]}", board.height(stack) + 1


class MatchFivePerson(terminal.GridPerson):
    """A person at the terminal (``GridPerson``) with Match Five's help and hints."""

    def help_text(self, turn: Turn) -> str:
        state: MatchFiveState = turn._state  # type: ignore[assignment]
        return notation_help(turn.view["hands"][turn.seat], state.board)

    def hint_text(self, turn: Turn) -> str:
        state: MatchFiveState = turn._state  # type: ignore[assignment]
        plays = best_plays(state.board, turn.view["hands"][turn.seat], terminal.HINTS)
        return "\n".join(hint_text(n, s) for n, s in enumerate(plays, 1)) or f"  {NO_PLAY}"


def run_play(args: argparse.Namespace) -> int:
    def after_move(state: State[Any], seat: int, move: Move, breakdown: Breakdown, people: list[int]) -> str:
        assert isinstance(state, MatchFiveState)
        said = ""
        if state.went_out == seat and state.final_turns == state.players - 1:
            said += f"player {seat} placed their last tile: one final play each for the others\n"
        return said + terminal.bag_tally(state, people)

    def ending(game: Game[Any, Any, Any], state: State[Any], names: list[str]) -> str:
        assert isinstance(state, MatchFiveState)
        scores = state.scores()

        def tally(seat: int) -> str:
            cost = hand_breakdown(state.hands[seat]).total
            return f"{scores[seat]}" + (f" (hand left: {cost})" if cost else "")

        return terminal.final_table(game, state, names, tally)

    return terminal.run_grid_play(
        args, "matchfive", person=lambda shared: MatchFivePerson(sys.stdout, sys.stdin, shared),
        intro=terminal.first_player_intro("Match Five", args.seed, "the highest hand total", LEGEND),
        after_move=after_move, ending=ending,
    )  # fmt: skip


COMMANDS = terminal.GridCommands(
    "matchfive",
    "Match Five: colour and number series of five, side by side and stacked five high",
    "Play Match Five: you (human) against bots, or bots alone. Without --bots: you against a greedy "
    "bot. Options: players (2-6), copies (of each colour-number tile, 1-4; default 2), wilds (0-10; default 5).",
    "Match Five: the best plays for a hand on a table",
    "table",
    'the stacks, each ROW,COL:BOTTOM,...,TOP (e.g. "0,0:3r 0,1:2r,2b"), a file holding them, '
    "'-' for stdin, or '' for an empty table",
    'your tiles, e.g. "5r 4r * 2b 3y" (* is a wild)',
    run_play,
    hint_text,
    NO_PLAY,
    read_board=_table_text,
)

"""``tablejudge play three2fifteen`` (people and bots in the terminal) and ``tablejudge hint three2fifteen``.

    tablejudge play three2fifteen --bots human,greedy --seed 3          # you against the greedy bot
    tablejudge play three2fifteen --players 3 --bots greedy,random,greedy --seed 7
    tablejudge play three2fifteen --bots human,greedy --option hand_size=4
    tablejudge hint three2fifteen board.txt --hand "2 5 11"

The game runs on the shared loop (``runner.py``); a person sees the board with its squares and
their own hand, types moves in the notation of ``engine.three2fifteen.moves`` and may ask for
``hint`` (the best plays now), ``moves`` (every legal one) or ``help``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from engine.base import State
from engine.bots import Turn
from engine.three2fifteen.game import LEGEND
from engine.three2fifteen.layout import Layout
from engine.three2fifteen.movegen import best_plays
from engine.three2fifteen.moves import Play
from engine.three2fifteen.state import Three2FifteenState
from engine.values import Breakdown, Move, ScoredMove
from tablejudge.play import grid as terminal


# --- hints ---------------------------------------------------------------------------------------
def hint_text(number: int, scored: ScoredMove[Any]) -> str:
    """``  1. 7,6a 7 8        +24  across 7+8 +15; down 7+2 +9``"""
    return terminal.hint_line(number, scored, 16)


# --- a person at the terminal --------------------------------------------------------------------
def notation_help(hand: Sequence[int], layout: Layout) -> str:
    """How to write a move, with examples made from the player's own hand."""
    tokens = sorted(hand) or [2, 4]
    a, b = tokens[0], tokens[-1]
    r, c = layout.start
    return "\n".join(
        (
            f"How to write a move (cells are ROW,COL from the top-left 0,0; the start square * is {r},{c}):",
            f"  {r},{c} {a}          one token: a {a} on row {r}, column {c}",
            f"  {r},{c - 1}a {a} {b}       across ('a') from {r},{c - 1}: {a} on {r},{c - 1}, {b} on {r},{c}"
            " ('d' goes down)",
            f"  {r},{c - 1}a {a} . {b}     '.' steps over a token already on the board",
            f"  exchange {b}     no token of your hand fits anywhere: {b} goes back into the bag"
            " for one of another value",
            "  pass           only when no token fits and none can be exchanged (or the game has no exchanges)",
            "  hint  the best plays now;  moves  every legal move;  help  this text",
            "Every three side by side makes exactly 15, every two at most 15; a play touches a token already down.",
        )
    )


class Three2FifteenPerson(terminal.GridPerson):
    """A person at the terminal (``GridPerson``) with Three2Fifteen's help and hints."""

    def help_text(self, turn: Turn) -> str:
        state: Three2FifteenState = turn._state  # type: ignore[assignment]
        return notation_help(turn.view["hands"][turn.seat], state.game.layout)

    def hint_text(self, turn: Turn) -> str:
        state: Three2FifteenState = turn._state  # type: ignore[assignment]
        plays = best_plays(state.board, turn.view["hands"][turn.seat], state.game.layout, terminal.HINTS)
        stuck = ", ".join(move.to_text() for move in turn.legal)
        return "\n".join(hint_text(n, s) for n, s in enumerate(plays, 1)) or f"  no play: {stuck}"


def run_play(args: argparse.Namespace) -> int:
    def after_move(state: State[Any], seat: int, move: Move, breakdown: Breakdown, people: list[int]) -> str:
        assert isinstance(state, Three2FifteenState)
        said = ""
        if isinstance(move, Play) and state.current == seat and not state.over:
            said += f"player {seat} plays again (repeat square)\n"
        return said + terminal.bag_tally(state, people)

    return terminal.run_grid_play(
        args, "three2fifteen", person=lambda shared: Three2FifteenPerson(sys.stdout, sys.stdin, shared),
        intro=terminal.first_player_intro("Three2Fifteen", args.seed, "drawn at random", LEGEND),
        after_move=after_move, ending=terminal.final_table,
    )  # fmt: skip


def layout_flag(hint: argparse.ArgumentParser) -> None:
    hint.add_argument("--layout", default="classic", help="the board's squares: classic, or rows split by '/'")


COMMANDS = terminal.GridCommands(
    "three2fifteen",
    "Three2Fifteen: tokens crossword-style, every three making 15",
    "Play Three2Fifteen: you (human) against bots, or bots alone. Without --bots: you against "
    "greedy bots. Options: players (2-4), hand_size (3-5), layout (classic, or rows split by '/').",
    "Three2Fifteen: the best plays for a hand on a board",
    "board",
    "a file with the board as 'tablejudge play three2fifteen' prints it, '-' for stdin, "
    "or the board written out with its rows split by '/'",
    'your tokens, e.g. "2 5 11"',
    run_play,
    hint_text,
    "no play: exchange a token (or pass)",
    hint_flags=layout_flag,
    hint_options=lambda args: {"layout": args.layout},
    split_rows=True,
)

"""``tablejudge play digit`` (people and bots in the terminal) and ``tablejudge hint digit``.

    tablejudge play digit --bots human,greedy --seed 3                  # you against the greedy bot
    tablejudge play digit --players 5 --bots greedy,random,greedy,greedy,random --seed 7
    tablejudge play digit --bots human,greedy --option blanks=yyggr --option digit_tiles=5
    tablejudge hint digit "9y ?? ./. 0g ." --hand "8g 1r 1k ?? 4b"

The game runs on the shared loop and flags (``runner.py``); a person sees the grid (every tile's
number and colour letter, each wild as what it stands for), their own hand, and may ask for ``hint``
(the best moves now, with what each does), ``moves`` (every legal one) or ``help`` (the notation).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Sequence
from typing import Any

from engine.base import Game, State
from engine.bots import Turn
from engine.digit.rules import SOLVER
from engine.digit.state import DigitState
from engine.linegames.grid import Cell
from engine.linegames.moves import Play
from engine.values import Breakdown, JsonDict, Move, ScoredMove
from tablejudge.play import grid as terminal


# --- hints ---------------------------------------------------------------------------------------
def hint_text(number: int, scored: ScoredMove[Any]) -> str:
    """``  1. 0,3a 4g??        tiles placed: 2 tiles: 4g, ?? (= green 5); 5th tile: ...``"""
    return terminal.hint_line(number, scored, 18, lambda item: f"{item.label}: {item.detail}", "none")


def move_json(scored: ScoredMove[Any]) -> JsonDict:
    """A hinted move as JSON, without points: D!Git has none."""
    return {"move": scored.move.to_text(), "breakdown": scored.breakdown.to_json()}


# --- a person at the terminal --------------------------------------------------------------------
def notation_help(hand: Sequence[str], board: dict[Cell, str]) -> str:
    """How to write a move, with examples from the player's own hand (two tiles that make a line, when
    it holds two)."""
    pairs = [(a, b) for a, b in itertools.permutations(hand, 2) if SOLVER.line_ok((a, b))]
    a, b = pairs[0] if pairs else (list(hand) + ["9y", "9g"])[:2]
    cell = "0,0" if not board else "ROW,COL"
    examples = (
        (f"{cell} {a}", "one tile"),
        (f"{cell}a {a}{b}", "tiles across from that cell ('d': down); '.' steps over a tile on the grid"),
        (f"swap ROW,COL {a}", "a tile of your hand for the wild there (several pairs: one after another)"),
        (f"pass  /  pass {a}{b}", "pass, trading those tiles to the bottom of your own pile"),
        ("hint / moves / help", "the best moves now / every legal move / this text"),
    )
    width = max(len(example) for example, _ in examples)
    return "\n".join(
        (
            "How to write a move (cells are ROW,COL; rows grow downwards, columns to the right; the first play "
            "covers 0,0):",
            *(f"  {example:<{width}}  {meaning}" for example, meaning in examples),
            "A line is one number in all different colours (at most 5) or one colour in sequence, up or down, "
            "wrapping 9 to 0 (at most 10). A 5th or 10th tile of a line gives another turn; first out of tiles wins.",
        )
    )


class DigitPerson(terminal.GridPerson):
    """A person at the terminal (``GridPerson``) with D!Git's help and hints."""

    def help_text(self, turn: Turn) -> str:
        state: DigitState = turn._state  # type: ignore[assignment]
        return notation_help(state.hands[turn.seat], state.board)

    def hint_text(self, turn: Turn) -> str:
        state: DigitState = turn._state  # type: ignore[assignment]
        return "\n".join(hint_text(n, s) for n, s in enumerate(state.hints(turn.seat), 1))


def run_play(args: argparse.Namespace) -> int:
    def intro(game: Game[Any, Any, Any], names: list[str], people: list[int]) -> str:
        first = game.new_initial_state(args.seed)
        assert isinstance(first, DigitState)
        drawn = ", ".join(f"player {seat} {tile}" for seat, tile in first.first_draws[-1])
        return (f"D!Git ({game.spec()}), seed {args.seed}: {', '.join(names)}\n"
                f"player {first.first_player} starts (the first-player draw: {drawn})\n")  # fmt: skip

    def after_move(state: State[Any], seat: int, move: Move, breakdown: Breakdown, people: list[int]) -> str:
        assert isinstance(state, DigitState)
        said = "\n".join("    " + item.detail for item in breakdown.items) + "\n"
        if isinstance(move, Play) and state.another_turn and state.current == seat:
            said += f"player {seat} placed a 5th or 10th tile: another turn\n"
        return said

    def ending(game: Game[Any, Any, Any], state: State[Any], names: list[str]) -> str:
        return f"\n{game.render(state.view(None))}\n"

    return terminal.run_grid_play(
        args, "digit", person=lambda shared: DigitPerson(sys.stdout, sys.stdin, shared),
        intro=intro, after_move=after_move, ending=ending,
    )  # fmt: skip


def pile_flag(hint: argparse.ArgumentParser) -> None:
    hint.add_argument("--pile", type=int, default=10, help="tiles left in your pile (0: a play of your whole "
                      "hand goes out); default %(default)s")  # fmt: skip


COMMANDS = terminal.GridCommands(
    "digit",
    "D!Git: numbered tiles in lines of one number or one colour in sequence; first out of tiles wins",
    "Play D!Git: you (human) against bots, or bots alone. Without --bots: you against greedy "
    "bots. Options: players (2-6), blanks (the blank tiles' colours, default ygrkb), digit_tiles (default 5).",
    "D!Git: the best moves for a hand on a grid",
    "board",
    "the grid: rows of tiles and dots split by '/' (top-left is 0,0), e.g. '9y ?? ./. 0g .', "
    "or a file holding it (rows on lines; a header of column numbers and row numbers first is read too), "
    "'-' for stdin",
    'your tiles, e.g. "8g 1r 1k ?? 4b"',
    run_play,
    hint_text,
    None,
    hint_flags=pile_flag,
    written_out=lambda _: True,  # any text may be a grid written out
    shown="moves",
    limit=terminal.HINTS,
    key="moves",
    move_json=move_json,
)

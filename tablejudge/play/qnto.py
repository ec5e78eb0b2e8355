"""``tablejudge play qnto`` (people and bots in the terminal) and ``tablejudge hint qnto``.

    tablejudge play qnto --bots human,greedy --seed 3                   # Classic, you against the greedy bot
    tablejudge play qnto --variant plus --players 3 --bots greedy,random,greedy --seed 7
    tablejudge play qnto --variant light --bots human,human             # two people at one terminal
    tablejudge hint qnto grid.txt --hand "Sy ?? Hg Dk !b" --variant plus

The game runs on the shared loop (``runner.py``); ``--variant V`` is ``--option variant=V``. A person
sees the grid (each tile's shape symbol and colour letter, painted in its colour on a terminal), what
the wilds on it stand for, and their own hand; types moves in the notation of ``engine.qnto.moves``;
and may ask for ``hint`` (the best plays now), ``moves`` (every legal move listed) or ``help``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.base import Game, State
from engine.bots import Turn
from engine.errors import ConfigError
from engine.linegames.grid import Cell, format_cell
from engine.linegames.tiles import is_wild
from engine.qnto.moves import Play
from engine.qnto.options import KIT, VARIANTS
from engine.qnto.state import QntoState
from engine.qnto.text import VARIANT_NAMES, Paint, ansi, plain, render_view, symbol
from engine.values import Breakdown, Move, ScoredMove
from tablejudge.play import grid as terminal
from tablejudge.play.runner import read_options

RULE_TEXT = (
    "Tiles: shape S ! D H C (or ♠ ! ♦ ♥ ♣) then colour y g r k b; ? is wild. A line holds 2 to 5 tiles,",
    "their colours all the same or all different, and their shapes likewise.",
)


# --- hints ---------------------------------------------------------------------------------------
NO_PLAY = "no play: swap or pass"


def hint_text(number: int, scored: ScoredMove[Any]) -> str:
    """``  1. 0,2d Db!r           +5  up/down Db !r +2; across Sk ?? Db +3`` (Light, scoring nothing: no points)."""
    return terminal.hint_line(
        number, scored, 18, lambda item: f"{item.label} {item.points:+d}" if item.points else item.label, "nonzero"
    )


def _written_out(arg: str) -> bool:
    """A grid written out splits its rows by '/' or its cells by spaces."""
    return "/" in arg or terminal.has_space(arg)


# --- a person at the terminal --------------------------------------------------------------------
def notation_help(hand: Sequence[str], board: dict[Cell, str]) -> str:
    """How to write a move, with examples made from the player's own hand and the grid."""
    tiles = list(hand) or ["Sy", "!y"]
    a, b = tiles[0], tiles[-1]
    if not board:  # Light's first play covers the centre
        return "\n".join(
            (
                "How to write a move (cells are ROW,COL; the first play covers the centre, 0,0):",
                f"  {f'0,0 {a}':<17} one tile: {KIT.name(a)} on row 0, column 0",
                f"  {f'0,0a {a}{b}':<17} across ('a') from 0,0: {a} then {b} ('d' goes down)",
                f"  {'pass':<17} pass;  pass {a}{b}: pass, trading those tiles to the bottom of your pile",
                "  hint  the best plays now;  moves  every legal move;  help  this text",
                *RULE_TEXT,
            )
        )
    r, c = max(board)
    wild = next((cell for cell in sorted(board) if is_wild(board[cell])), None)
    swap = f"swap {format_cell(wild)} {a}" if wild else "swap ROW,COL TILE"
    return "\n".join(
        (
            "How to write a move (cells are ROW,COL; the grid's row numbers run down the left, columns along the top):",
            f"  {f'{r},{c + 1} {a}':<17} one tile: {KIT.name(a)} on row {r}, column {c + 1}",
            f"  {f'{r + 1},{c}a {a}{b}':<17} across ('a') from {r + 1},{c}: {a} then {b} ('d' goes down)",
            f"  {f'{r},{c - 1}a {a}.{b}':<17} '.' steps over a tile already on the grid",
            f"  {swap:<17} a tile of your hand for a wild on the grid (several: 'swap 0,1 Sy 2,3 ?b')",
            f"  {'pass':<17} pass;  pass {a}{b}: pass, trading those tiles to the bottom of the pile",
            "  hint  the best plays now;  moves  every legal move;  help  this text",
            *RULE_TEXT,
        )
    )


class QntoPerson(terminal.GridPerson):
    """A person at the terminal (``GridPerson``) with Q!nto's painted grid, help and hints."""

    def __init__(self, out: TextIO, inp: TextIO, shared: bool, paint: Paint) -> None:
        super().__init__(out, inp, shared)
        self.paint = paint

    def screen(self, turn: Turn) -> str:
        return render_view(turn.game.options, turn.view, self.paint)

    def help_text(self, turn: Turn) -> str:
        state: QntoState = turn._state  # type: ignore[assignment]
        return notation_help(turn.view["hands"][turn.seat], state.board)

    def hint_text(self, turn: Turn) -> str:
        state: QntoState = turn._state  # type: ignore[assignment]
        hints = state.hints(turn.seat, terminal.HINTS)
        return "\n".join(hint_text(n, s) for n, s in enumerate(hints, 1)) or f"  {NO_PLAY}"


def painter(choice: str, out: TextIO) -> Paint:
    if choice == "always" or (choice == "auto" and out.isatty()):
        return ansi
    return plain


def run_play(args: argparse.Namespace) -> int:
    fixed = {} if args.variant is None else {"variant": args.variant}
    if fixed and "variant" in read_options(args.option):
        raise ConfigError("give the variant once: --variant V or --option variant=V")
    paint = painter(args.colour, sys.stdout)

    def intro(game: Game[Any, Any, Any], names: list[str], people: list[int]) -> str:
        first = game.new_initial_state(args.seed)
        assert isinstance(first, QntoState)
        lines = [f"{VARIANT_NAMES[first.game.options.variant]} ({game.spec()}), seed {args.seed}: {', '.join(names)}"]
        for number, drawn in enumerate(first.first_draws, 1):
            tiles = ", ".join(f"player {s} {paint(t, symbol(t))}" for s, t in drawn)
            lines.append(f"draw for first player{f' (round {number})' if number > 1 else ''}: {tiles}")
        lines.append(f"player {first.first_player} starts (high suit ♠ ! ♦ ♥ ♣ goes first)")
        return "\n".join(lines) + "\n"

    def after_move(state: State[Any], seat: int, move: Move, breakdown: Breakdown, people: list[int]) -> str:
        assert isinstance(state, QntoState)
        said = ""
        if state.another_turn and isinstance(move, Play):
            said += f"player {seat} completed a Q!nto and plays again\n"
        if not people:
            left = ", ".join(str(state.tiles_left(p)) for p in range(state.players))
            scores = f"scores: {' | '.join(map(str, state.scores()))}   " if state.game.options.scored else ""
            said += f"{scores}tiles left: {left}\n"
        return said

    def ending(game: Game[Any, Any, Any], state: State[Any], names: list[str]) -> str:
        outcome = state.outcome()
        assert outcome is not None and isinstance(state, QntoState)
        scored = state.game.options.scored
        shown = render_view(state.game.options, state.view(None), paint)

        def tally(seat: int) -> str:
            return f"{outcome.scores[seat]}" if scored else f"{state.tiles_left(seat)} tiles left"

        return f"\n{shown}\ngame over: {outcome.reason}\n" + terminal.standings(outcome, names, tally)

    return terminal.run_grid_play(
        args, "qnto", person=lambda shared: QntoPerson(sys.stdout, sys.stdin, shared, paint),
        intro=intro, after_move=after_move, ending=ending, fixed=fixed, ensure_ascii=False,
    )  # fmt: skip


def play_flags(play: argparse.ArgumentParser) -> None:
    play.add_argument("--variant", choices=VARIANTS, help="classic (the default), plus (diagonals score) or light")
    play.add_argument(
        "--colour", choices=("auto", "always", "never"), default="auto",
        help="paint the tiles in their colours (auto: on a terminal); shapes and colour letters always show",
    )  # fmt: skip


def hint_flags(hint: argparse.ArgumentParser) -> None:
    hint.add_argument("--variant", choices=VARIANTS, default="classic", help="how plays score (default: classic)")
    hint.add_argument("--pile", type=int, default=40, help="tiles left in your pile (0: a play may be the final one)")


COMMANDS = terminal.GridCommands(
    "qnto",
    "Q!nto: colour-by-shape tiles in lines of 2 to 5 (Classic, Plus, Light)",
    "Play Q!nto: you (human) against bots, or bots alone. Without --bots: you against greedy "
    "bots. Options: variant (classic, plus, light), players (2-6), colour_wilds, shape_wilds, qnto_tiles, "
    "idle_limit.",
    "Q!nto: the best plays for a hand on a grid",
    "grid",
    "a file with the grid as 'tablejudge play qnto' prints it (symbols or letters), '-' for "
    "stdin, or the grid written out with its rows split by '/' (top-left cell 0,0)",
    'your tiles, shape then colour, e.g. "Sy ?? Hg Dk !b"',
    run_play,
    hint_text,
    NO_PLAY,
    play_flags,
    hint_flags,
    hint_options=lambda args: {"variant": args.variant},
    written_out=_written_out,
    ensure_ascii=False,
)

"""``tablejudge play qnto`` (people and bots in the terminal) and ``tablejudge qnto-hint``.

    tablejudge play qnto --bots human,greedy --seed 3                   # Classic, you against the greedy bot
    tablejudge play qnto --variant plus --players 3 --bots greedy,random,greedy --seed 7
    tablejudge play qnto --variant light --bots human,human             # two people at one terminal
    tablejudge qnto-hint grid.txt --hand "Sy ?? Hg Dk !b" --variant plus

The game runs on the shared loop (``engine.play``); ``--variant V`` is ``--option variant=V``. A person
sees the grid (each tile's shape symbol and colour letter, painted in its colour on a terminal), what
the wilds on it stand for, and their own hand; types moves in the notation of ``engine.qnto.moves``;
and may ask for ``hint`` (the best plays now), ``moves`` (every legal move listed) or ``help``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from engine.base import CHANCE, Breakdown, Move, ScoredMove, State
from engine.bots import Turn
from engine.errors import ConfigError
from engine.linegames.grid import Cell, format_cell, parse_board
from engine.linegames.tiles import is_wild
from engine.play import (
    HUMAN,
    HumanSeat,
    add_game_arguments,
    game_from_args,
    indent,
    make_seats,
    print_move,
    read_options,
)
from engine.play import run_game as run_loop
from engine.qnto.game import QntoGame
from engine.qnto.movegen import best_plays
from engine.qnto.moves import Play
from engine.qnto.state import QntoState
from engine.qnto.text import VARIANT_NAMES, Paint, ansi, format_grid, hand_text, plain, render_view, symbol
from engine.qnto.tiles import KIT, SYMBOLS, VARIANTS, QntoOptions

HINTS = 5
RULE_TEXT = (
    "Tiles: shape S ! D H C (or ♠ ! ♦ ♥ ♣) then colour y g r k b; ? is wild. A line holds 2 to 5 tiles,",
    "their colours all the same or all different, and their shapes likewise.",
)


def register(play_subparsers: argparse._SubParsersAction) -> None:
    play = play_subparsers.add_parser(
        "qnto",
        help="Q!nto: colour-by-shape tiles in lines of 2 to 5 (Classic, Plus, Light)",
        description="Play Q!nto: you (human) against bots, or bots alone. Without --bots: you against greedy "
        "bots. Options: variant (classic, plus, light), players (2-6), colour_wilds, shape_wilds, qnto_tiles, "
        "idle_limit.",
    )
    add_game_arguments(play, "qnto", default_bots=None)
    play.add_argument("--variant", choices=VARIANTS, help="classic (the default), plus (diagonals score) or light")
    play.add_argument(
        "--colour", choices=("auto", "always", "never"), default="auto",
        help="paint the tiles in their colours (auto: on a terminal); shapes and colour letters always show",
    )  # fmt: skip
    play.set_defaults(run=run_play)


def register_commands(subparsers: argparse._SubParsersAction) -> None:
    hint = subparsers.add_parser("qnto-hint", help="Q!nto: the best plays for a hand on a grid")
    hint.add_argument(
        "grid", help="a file with the grid as 'tablejudge play qnto' prints it (symbols or letters), '-' for "
        "stdin, or the grid written out with its rows split by '/' (top-left cell 0,0)",
    )  # fmt: skip
    hint.add_argument("--hand", required=True, help='your tiles, shape then colour, e.g. "Sy ?? Hg Dk !b"')
    hint.add_argument("--variant", choices=VARIANTS, default="classic", help="how plays score (default: classic)")
    hint.add_argument("--pile", type=int, default=40, help="tiles left in your pile (0: a play may be the final one)")
    hint.add_argument("--limit", type=int, default=10, help="plays to show; 0 shows all (default: %(default)s)")
    hint.add_argument("--json", action="store_true", help="print JSON")
    hint.set_defaults(run=run_hint)


# --- hints ---------------------------------------------------------------------------------------
def hint_text(number: int, scored: ScoredMove[Any]) -> str:
    """``  1. 0,2d Db!r           +5  up/down Db !r +2; across Sk ?? Db +3`` (Light, scoring nothing: no points)."""
    items = "; ".join(
        f"{item.label} {item.points:+d}" if item.points else item.label for item in scored.breakdown.items
    )
    points = f"{scored.points:>+4}" if scored.points else " " * 4
    return f"{number:>3}. {scored.move.to_text():<18} {points}  {items}"


def read_grid(text: str) -> dict[Cell, str]:
    """A grid as ``tablejudge play qnto`` prints it (shape symbols) or in the notation's letters."""
    for letter, shown in SYMBOLS.items():
        text = text.replace(shown, letter)
    return parse_board(text, KIT)


def _grid_text(arg: str) -> str:
    if arg == "-":
        return sys.stdin.read()
    path = Path(arg)
    try:
        is_file = path.is_file()
    except OSError:  # a name the file system refuses (too long): a grid written out, or nothing
        is_file = False
    if is_file:
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(f"grid: cannot read {arg!r}: {error}") from None
    if "/" not in arg and not any(char.isspace() for char in arg):
        raise ConfigError(f"grid: there is no file {arg!r} (a grid written out splits cells by spaces, rows by '/')")
    return arg


def run_hint(args: argparse.Namespace) -> int:
    grid = read_grid(_grid_text(args.grid))
    hand = KIT.parse_tiles(args.hand)
    if not 1 <= len(hand) <= 5:
        raise ConfigError(f"--hand: a hand holds 1 to 5 tiles, not {len(hand)}")
    extra = Counter(grid.values()) + Counter(hand) - QntoOptions().tile_counts()
    if extra:
        raise ConfigError(f"more tiles than the box holds: {' '.join(sorted(extra.elements()))}")
    if args.limit < 0 or args.pile < 0:
        raise ConfigError("--limit and --pile must be 0 or more")
    plays = best_plays(grid, hand, ["??"] * args.pile, args.variant, args.limit)
    if args.json:
        found = [{"move": s.move.to_text(), "points": s.points, "breakdown": s.breakdown.to_json()} for s in plays]
        print(json.dumps({"hand": hand, "plays": found}, ensure_ascii=False))
        return 0
    print(format_grid(grid))
    print(f"hand: {hand_text(hand)}")
    if not plays:
        print("no play: swap or pass")
        return 0
    for number, scored in enumerate(plays, 1):
        print(hint_text(number, scored))
    print("\nbest play:\n" + indent(plays[0].breakdown.text()))
    return 0


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


class QntoPerson(HumanSeat):
    """A person at the terminal: the grid and their hand, hints, and (when several people share the
    terminal) a cleared screen between turns, so that nobody sees another's hand."""

    def __init__(self, out: TextIO, inp: TextIO, shared: bool, paint: Paint) -> None:
        super().__init__(out, inp)
        self.shared = shared
        self.paint = paint
        self.helped = False

    def _line(self) -> str:
        line = self.inp.readline()
        if not line:
            raise EOFError("input ended")
        return line.strip()

    def choose(self, turn: Turn) -> Move | None:
        state: QntoState = turn._state  # type: ignore[assignment]
        game, seat = state.game, turn.seat
        if self.shared:
            self.out.write("\033[2J\033[H" + f"Hand the device to player {seat}, then press Enter. ")
            self.out.flush()
            self._line()
        view = turn.view
        self.out.write(f"\n{render_view(game.options, view, self.paint)}\n")
        hand = view["hands"][seat]
        if not self.helped:
            self.out.write(notation_help(hand, state.board) + "\n")
            self.helped = True
        while True:
            self.out.write(f"player {seat}, your move: ")
            self.out.flush()
            text = self._line()
            if not text:
                continue
            if text == "hint":
                hints = state.hints(seat, HINTS)
                self.out.write("\n".join(hint_text(n, s) for n, s in enumerate(hints, 1)) or "  no play: swap or pass")
                self.out.write("\n")
                continue
            if text == "help":
                self.out.write(notation_help(hand, state.board) + "\n")
                continue
            if text == "moves":
                self.list_moves(turn, 30)
                continue
            move = self.tried(turn, text)
            if move is not None:
                return move


def painter(choice: str, out: TextIO) -> Paint:
    if choice == "always" or (choice == "auto" and out.isatty()):
        return ansi
    return plain


def run_play(args: argparse.Namespace) -> int:
    if args.bots is None:
        args.bots = ",".join([HUMAN] + ["greedy"] * ((args.players or 2) - 1))
    fixed = {} if args.variant is None else {"variant": args.variant}
    if fixed and "variant" in read_options(args.option):
        raise ConfigError("give the variant once: --variant V or --option variant=V")
    game, names = game_from_args("qnto", args, **fixed)
    assert isinstance(game, QntoGame)
    out = sys.stdout
    paint = painter(args.colour, out)
    people = [seat for seat, name in enumerate(names) if name == HUMAN]
    seats: list[Any] = make_seats(game, names, args.seed, out, sys.stdin)
    for seat in people:
        seats[seat] = QntoPerson(out, sys.stdin, shared=len(people) > 1, paint=paint)
    viewer = people[0] if len(people) == 1 else None
    quiet = args.json
    if not quiet:
        first = game.new_initial_state(args.seed)
        out.write(f"{VARIANT_NAMES[game.options.variant]} ({game.spec()}), seed {args.seed}: {', '.join(names)}\n")
        for number, drawn in enumerate(first.first_draws, 1):
            tiles = ", ".join(f"player {s} {paint(t, symbol(t))}" for s, t in drawn)
            out.write(f"draw for first player{f' (round {number})' if number > 1 else ''}: {tiles}\n")
        out.write(f"player {first.first_player} starts (high suit ♠ ! ♦ ♥ ♣ goes first)\n")

    def show(state: State[Any], seat: int, move: Move, breakdown: Breakdown) -> None:
        if quiet or seat == CHANCE:
            return  # a draw shows in the hand it fills
        assert isinstance(state, QntoState)
        out.write("\n")
        print_move(out, state, seat, move, breakdown, viewer)
        if state.another_turn and isinstance(move, Play):
            out.write(f"player {seat} completed a Q!nto and plays again\n")
        if not people:
            left = ", ".join(str(state.tiles_left(p)) for p in range(state.players))
            scores = f"scores: {' | '.join(map(str, state.scores()))}   " if game.options.scored else ""
            out.write(f"{scores}tiles left: {left}\n")

    try:
        state = run_loop(game, seats, args.seed, on_move=show)
    except EOFError:
        print("tablejudge: input ended; the game is abandoned", file=sys.stderr)
        return 1
    outcome = state.outcome()
    assert outcome is not None and isinstance(state, QntoState)
    if quiet:
        print(json.dumps(state.to_json(), ensure_ascii=False))
        return 0
    out.write(f"\n{render_view(game.options, state.view(None), paint)}\ngame over: {outcome.reason}\n")
    for seat in range(game.players):
        tally = f"{outcome.scores[seat]}" if game.options.scored else f"{state.tiles_left(seat)} tiles left"
        out.write(f"  player {seat} ({names[seat]}): {tally}\n")
    out.write(f"winner: {' and '.join(f'player {w}' for w in outcome.winners)}\n")
    return 0

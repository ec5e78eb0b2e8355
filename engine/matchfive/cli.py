"""``tablejudge play matchfive`` (people and bots in the terminal) and ``tablejudge matchfive-hint``.

    tablejudge play matchfive --bots human,greedy --seed 3          # you against the greedy bot
    tablejudge play matchfive --players 4 --bots greedy,random,greedy,random --seed 7
    tablejudge play matchfive --bots human,greedy --option copies=1 --option wilds=2
    tablejudge matchfive-hint "0,0:3r 0,1:2r 0,2:1r" --hand "5r 4r * 2b 3y"

The game runs on the shared loop and seats (``engine.play``); a person sees the table from above
(``MatchFiveGame.render``) and their own hand, types moves in the notation of
``engine.matchfive.moves``, and may ask for ``hint`` (the best plays now, with their breakdowns),
``moves`` (every legal move) or ``help``.
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
from engine.matchfive.board import Board, parse_stacks
from engine.matchfive.game import LEGEND, MatchFiveGame, format_above
from engine.matchfive.movegen import best_plays
from engine.matchfive.rules import board_problems, hand_breakdown
from engine.matchfive.state import MatchFiveState
from engine.matchfive.tiles import HAND_SIZE, MatchFiveOptions, format_tiles, hand_tile, parse_hand_tiles, sort_tiles
from engine.play import HUMAN, HumanSeat, add_game_arguments, game_from_args, indent, make_seats, print_move, run_game

HINTS = 5


def register(play_subparsers: argparse._SubParsersAction) -> None:
    play = play_subparsers.add_parser(
        "matchfive",
        help="Match Five: colour and number series of five, side by side and stacked five high",
        description="Play Match Five: you (human) against bots, or bots alone. Without --bots: you against a greedy "
        "bot. Options: players (2-6), copies (of each colour-number tile, 1-4; default 2), wilds (0-10; default 5).",
    )
    add_game_arguments(play, "matchfive", default_bots=None)
    play.set_defaults(run=run_play)


def register_commands(subparsers: argparse._SubParsersAction) -> None:
    hint = subparsers.add_parser("matchfive-hint", help="Match Five: the best plays for a hand on a table")
    hint.add_argument(
        "table", help='the stacks, each ROW,COL:BOTTOM,...,TOP (e.g. "0,0:3r 0,1:2r,2b"), a file holding them, '
        "'-' for stdin, or '' for an empty table",
    )  # fmt: skip
    hint.add_argument("--hand", required=True, help='your tiles, e.g. "5r 4r * 2b 3y" (* is a wild)')
    hint.add_argument("--limit", type=int, default=10, help="plays to show; 0 shows all (default: %(default)s)")
    hint.add_argument("--json", action="store_true", help="print JSON")
    hint.set_defaults(run=run_hint)


# --- hints ---------------------------------------------------------------------------------------
def hint_text(number: int, scored: ScoredMove[Any]) -> str:
    """``  1. 0,3:2u 5b 5y      +33  vertical +15; horizontal +9; horizontal +9``"""
    items = "; ".join(f"{item.label} {item.points:+d}" for item in scored.breakdown.items if item.points)
    return f"{number:>3}. {scored.move.to_text():<24} {scored.points:>+4}  {items}"


def _table_text(arg: str) -> str:
    if arg == "-":
        return sys.stdin.read()
    if ":" in arg or not arg.strip():
        return arg
    path = Path(arg)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"table: cannot read {arg!r}: {error}") from None


def run_hint(args: argparse.Namespace) -> int:
    board = parse_stacks(_table_text(args.table))
    problems = board_problems(board)
    if problems:
        raise ConfigError(f"table: {problems[0]}")
    hand = parse_hand_tiles(args.hand)
    if not 1 <= len(hand) <= HAND_SIZE:
        raise ConfigError(f"--hand: a hand holds 1 to {HAND_SIZE} tiles, not {len(hand)}")
    counts = MatchFiveOptions().tile_counts()
    extra = Counter(hand_tile(t) for t in board.tiles()) + Counter(hand) - counts
    if extra:
        raise ConfigError(f"more tiles than the bag holds: {format_tiles(sort_tiles(extra.elements()))}")
    if args.limit < 0:
        raise ConfigError("--limit must be 0 or more")
    plays = best_plays(board, hand, args.limit)
    if args.json:
        found = [{"move": s.move.to_text(), "points": s.points, "breakdown": s.breakdown.to_json()} for s in plays]
        print(json.dumps({"hand": hand, "plays": found}))
        return 0
    print(format_above(board, board.locked))
    print(f"hand: {format_tiles(sort_tiles(hand))}")
    if not plays:
        print("no play: swap tiles (or pass, with the bag empty)")
        return 0
    for number, scored in enumerate(plays, 1):
        print(hint_text(number, scored))
    print("\nbest play:\n" + indent(plays[0].breakdown.text()))
    return 0


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


class MatchFivePerson(HumanSeat):
    """A person at the terminal: the table, their hand, hints; when several people share the terminal,
    a cleared screen between turns, so that nobody sees another's hand."""

    def __init__(self, out: TextIO, inp: TextIO, shared: bool) -> None:
        super().__init__(out, inp)
        self.shared = shared
        self.helped = False

    def _line(self) -> str:
        line = self.inp.readline()
        if not line:
            raise EOFError("input ended")
        return line.strip()

    def choose(self, turn: Turn) -> Move | None:
        state: MatchFiveState = turn._state  # type: ignore[assignment]
        game, seat = state.game, turn.seat
        if self.shared:
            self.out.write("\033[2J\033[H" + f"Hand the device to player {seat}, then press Enter. ")
            self.out.flush()
            self._line()
        view = turn.view
        self.out.write(f"\n{game.render(view)}\n")
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
                plays = best_plays(state.board, hand, HINTS)
                shown = "\n".join(hint_text(n, s) for n, s in enumerate(plays, 1))
                self.out.write((shown or "  no play: swap tiles (or pass, with the bag empty)") + "\n")
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


def run_play(args: argparse.Namespace) -> int:
    if args.bots is None:
        args.bots = ",".join([HUMAN] + ["greedy"] * ((args.players or 2) - 1))
    game, names = game_from_args("matchfive", args)
    assert isinstance(game, MatchFiveGame)
    out = sys.stdout
    people = [seat for seat, name in enumerate(names) if name == HUMAN]
    seats: list[Any] = make_seats(game, names, args.seed, out, sys.stdin)
    for seat in people:
        seats[seat] = MatchFivePerson(out, sys.stdin, shared=len(people) > 1)
    viewer = people[0] if len(people) == 1 else None
    quiet = args.json
    if not quiet:
        first = game.new_initial_state(args.seed).first_player
        out.write(f"Match Five ({game.spec()}), seed {args.seed}: {', '.join(names)}\n")
        out.write(f"player {first} starts (the highest hand total)\n")
        if not people:
            out.write(LEGEND + "\n")

    def show(state: State[Any], seat: int, move: Move, breakdown: Breakdown) -> None:
        if quiet or seat == CHANCE:
            return  # a draw shows in the hand it fills
        assert isinstance(state, MatchFiveState)
        out.write("\n")
        print_move(out, state, seat, move, breakdown, viewer)
        if state.went_out == seat and state.final_turns == state.players - 1:
            out.write(f"player {seat} placed their last tile: one final play each for the others\n")
        if not people:
            out.write(f"scores: {' | '.join(map(str, state.scores()))}   bag: {len(state.bag)}\n")

    try:
        state = run_game(game, seats, args.seed, on_move=show)
    except EOFError:
        print("tablejudge: input ended; the game is abandoned", file=sys.stderr)
        return 1
    outcome = state.outcome()
    assert outcome is not None and isinstance(state, MatchFiveState)
    if quiet:
        print(json.dumps(state.to_json()))
        return 0
    out.write(f"\n{game.render(state.view(None))}\n")
    for seat, score in enumerate(outcome.scores):
        cost = hand_breakdown(state.hands[seat]).total
        left = f" (hand left: {cost})" if cost else ""
        out.write(f"  player {seat} ({names[seat]}): {score}{left}\n")
    out.write(f"winner: {' and '.join(f'player {w}' for w in outcome.winners)}\n")
    return 0

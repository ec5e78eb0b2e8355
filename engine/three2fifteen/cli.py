"""``tablejudge play three2fifteen`` (people and bots in the terminal) and ``tablejudge three2fifteen-hint``.

    tablejudge play three2fifteen --bots human,greedy --seed 3          # you against the greedy bot
    tablejudge play three2fifteen --players 3 --bots greedy,random,greedy --seed 7
    tablejudge play three2fifteen --bots human,greedy --option hand_size=4
    tablejudge three2fifteen-hint board.txt --hand "2 5 11"

The game runs on the shared loop (``engine.play``); a person sees the board with its squares and
their own hand, types moves in the notation of ``engine.three2fifteen.moves`` and may ask for
``hint`` (the best plays now), ``moves`` (every legal one) or ``help``.
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
from engine.play import HUMAN, HumanSeat, add_game_arguments, game_from_args, indent, make_seats, print_move, run_game
from engine.three2fifteen.board import Board, format_board, parse_board
from engine.three2fifteen.game import LEGEND, Three2FifteenGame
from engine.three2fifteen.layout import Layout
from engine.three2fifteen.movegen import scored_plays
from engine.three2fifteen.moves import Play
from engine.three2fifteen.rules import board_problems
from engine.three2fifteen.state import Three2FifteenState
from engine.three2fifteen.tokens import DISTRIBUTION, MAX_HAND_SIZE, Three2FifteenOptions, format_tokens, parse_tokens

HINTS = 5


def register(play_subparsers: argparse._SubParsersAction) -> None:
    play = play_subparsers.add_parser(
        "three2fifteen",
        help="Three2Fifteen: tokens crossword-style, every three making 15",
        description="Play Three2Fifteen: you (human) against bots, or bots alone. Without --bots: you against "
        "greedy bots. Options: players (2-4), hand_size (3-5), layout (classic, or rows split by '/').",
    )
    add_game_arguments(play, "three2fifteen", default_bots=None)
    play.set_defaults(run=run_play)


def register_commands(subparsers: argparse._SubParsersAction) -> None:
    hint = subparsers.add_parser("three2fifteen-hint", help="Three2Fifteen: the best plays for a hand on a board")
    hint.add_argument(
        "board", help="a file with the board as 'tablejudge play three2fifteen' prints it, '-' for stdin, "
        "or the board written out with its rows split by '/'",
    )  # fmt: skip
    hint.add_argument("--hand", required=True, help='your tokens, e.g. "2 5 11"')
    hint.add_argument("--layout", default="classic", help="the board's squares: classic, or rows split by '/'")
    hint.add_argument("--limit", type=int, default=10, help="plays to show; 0 shows all (default: %(default)s)")
    hint.add_argument("--json", action="store_true", help="print JSON")
    hint.set_defaults(run=run_hint)


# --- hints ---------------------------------------------------------------------------------------
def hint_text(number: int, scored: ScoredMove[Any]) -> str:
    """``  1. 7,6a 7 8        +24  across 7+8 +15; down 7+2 +9``"""
    items = "; ".join(f"{item.label} {item.points:+d}" for item in scored.breakdown.items)
    return f"{number:>3}. {scored.move.to_text():<16} {scored.points:>+4}  {items}"


def best_plays(board: Board, hand: Sequence[int], layout: Layout, limit: int = HINTS) -> list[ScoredMove[Play]]:
    """The ``limit`` best plays (0: all) for ``hand`` on ``board``, each with its breakdown."""
    ranked = scored_plays(board, hand, layout)
    return ranked[:limit] if limit else ranked


def _board_text(arg: str) -> str:
    """The board ``arg`` names: stdin for ``-``, a file's text, or the board itself written out (its
    cells split by spaces, its rows by ``/`` or new lines)."""
    if arg == "-":
        return sys.stdin.read()
    path = Path(arg)
    try:
        is_file = path.is_file()
    except OSError:  # a name the file system refuses (too long): a board written out, or nothing
        is_file = False
    if is_file:
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(f"board: cannot read {arg!r}: {error}") from None
    if not any(char.isspace() for char in arg):
        raise ConfigError(f"board: there is no file {arg!r} (a board written out splits cells by spaces, rows by '/')")
    return arg.replace("/", "\n")


def run_hint(args: argparse.Namespace) -> int:
    layout = Three2FifteenOptions(layout=args.layout).board_layout()
    board = parse_board(_board_text(args.board))
    problems = board_problems(board, layout)
    if problems:
        raise ConfigError(f"board: {problems[0]}")
    hand = parse_tokens(args.hand)
    if not 1 <= len(hand) <= MAX_HAND_SIZE:
        raise ConfigError(f"--hand: a hand holds 1 to {MAX_HAND_SIZE} tokens, not {len(hand)}")
    extra = Counter(board.values()) + Counter(hand) - Counter(DISTRIBUTION)
    if extra:
        raise ConfigError(f"more tokens than the bag holds: {format_tokens(sorted(extra.elements()))}")
    if args.limit < 0:
        raise ConfigError("--limit must be 0 or more")
    plays = best_plays(board, hand, layout, args.limit)
    if args.json:
        found = [{"move": s.move.to_text(), "points": s.points, "breakdown": s.breakdown.to_json()} for s in plays]
        print(json.dumps({"hand": hand, "plays": found}))
        return 0
    print(format_board(board, layout))
    print(f"hand: {format_tokens(hand)}")
    if not plays:
        print("no play: exchange a token (or pass)")
        return 0
    for number, scored in enumerate(plays, 1):
        print(hint_text(number, scored))
    print("\nbest play:\n" + indent(plays[0].breakdown.text()))
    return 0


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


class Three2FifteenPerson(HumanSeat):
    """A person at the terminal: the board and their hand, hints, and (when several people share the
    terminal) a cleared screen between turns, so that nobody sees another's hand."""

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
        state: Three2FifteenState = turn._state  # type: ignore[assignment]
        game, seat = state.game, turn.seat
        if self.shared:
            self.out.write("\033[2J\033[H" + f"Hand the device to player {seat}, then press Enter. ")
            self.out.flush()
            self._line()
        view = turn.view
        self.out.write(f"\n{game.render(view)}\n")
        hand = view["hands"][seat]
        if not self.helped:
            self.out.write(notation_help(hand, game.layout) + "\n")
            self.helped = True
        while True:
            self.out.write(f"player {seat}, your move: ")
            self.out.flush()
            text = self._line()
            if not text:
                continue
            if text == "hint":
                plays = best_plays(state.board, hand, game.layout)
                stuck = ", ".join(move.to_text() for move in turn.legal)
                self.out.write("\n".join(hint_text(n, s) for n, s in enumerate(plays, 1)) or f"  no play: {stuck}")
                self.out.write("\n")
                continue
            if text == "help":
                self.out.write(notation_help(hand, game.layout) + "\n")
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
    game, names = game_from_args("three2fifteen", args)
    assert isinstance(game, Three2FifteenGame)
    out = sys.stdout
    people = [seat for seat, name in enumerate(names) if name == HUMAN]
    seats: list[Any] = make_seats(game, names, args.seed, out, sys.stdin)
    for seat in people:
        seats[seat] = Three2FifteenPerson(out, sys.stdin, shared=len(people) > 1)
    viewer = people[0] if len(people) == 1 else None
    quiet = args.json
    if not quiet:
        first = game.new_initial_state(args.seed).first_player
        out.write(f"Three2Fifteen ({game.spec()}), seed {args.seed}: {', '.join(names)}\n")
        out.write(f"player {first} starts (drawn at random)\n")
        if not people:
            out.write(LEGEND + "\n")

    def show(state: State[Any], seat: int, move: Move, breakdown: Breakdown) -> None:
        if quiet or seat == CHANCE:
            return  # a draw shows in the hand it fills
        assert isinstance(state, Three2FifteenState)
        out.write("\n")
        print_move(out, state, seat, move, breakdown, viewer)
        if isinstance(move, Play) and state.current == seat and not state.over:
            out.write(f"player {seat} plays again (repeat square)\n")
        if not people:
            out.write(f"scores: {' | '.join(map(str, state.scores()))}   bag: {len(state.bag)}\n")

    try:
        state = run_game(game, seats, args.seed, on_move=show)
    except EOFError:
        print("tablejudge: input ended; the game is abandoned", file=sys.stderr)
        return 1
    outcome = state.outcome()
    assert outcome is not None
    if quiet:
        print(json.dumps(state.to_json()))
        return 0
    out.write(f"\n{game.render(state.view(None))}\n")
    for seat, score in enumerate(outcome.scores):
        out.write(f"  player {seat} ({names[seat]}): {score}\n")
    out.write(f"winner: {' and '.join(f'player {w}' for w in outcome.winners)}\n")
    return 0

"""``tablejudge play bop`` (people and bots play in the terminal) and ``tablejudge bop-hint``.

tablejudge play bop --players 2 --bots greedy,random --seed 7
tablejudge play bop --bots human,greedy --mode challenge
tablejudge bop-hint board.txt --hand "Qr Jr Sb Ly ?"
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from engine.adjudicator import Adjudicator, LocalAdjudicator
from engine.base import Breakdown
from engine.bop.board import format_board, parse_board
from engine.bop.hints import best_plays, play_words
from engine.bop.moves import BopMove, Challenge, Pass, Play
from engine.bop.state import BopGame, BopState
from engine.bop.tiles import COLOUR_NAMES, HAND_SIZE, MODES, parse_tiles
from engine.bots import Bot, make_bot
from engine.errors import ConfigError, EngineError
from indexes import DEFAULT_LEXICON
from indexes.notation import echo

HUMAN = "human"


def register(play_subparsers: argparse._SubParsersAction) -> None:
    play = play_subparsers.add_parser("bop", help="BOP!: build consonant words crossword-style")
    play.add_argument("--players", type=int, default=2, help="2 to 8 (default: %(default)s)")
    play.add_argument(
        "--bots", default=None, help="one per seat: greedy, random or human (default: human then greedy bots)"
    )
    play.add_argument("--seed", type=int, default=0, help="the game's seed: the same seed deals the same game")
    play.add_argument(
        "--mode", default="strict", choices=MODES, help="strict: non-words refused; challenge: as the sheet"
    )
    play.add_argument("--lexicon", default=DEFAULT_LEXICON, help="word list to judge by (default: %(default)s)")
    play.add_argument(
        "--report",
        action="store_true",
        help="after each turn, show the best plays that were possible (only after people's turns when people play:"
        " a bot's best plays would show its hand)",
    )
    play.add_argument("--json", action="store_true", help="print the finished game's state as JSON instead")
    play.set_defaults(run=run_play)


def register_commands(subparsers: argparse._SubParsersAction) -> None:
    hint = subparsers.add_parser("bop-hint", help="BOP!: the best plays for a hand on a board")
    hint.add_argument(
        "board", help="a file with the board as 'tablejudge play bop' prints it, '-' for stdin, or rows split by '/'"
    )
    hint.add_argument("--hand", required=True, help="your tiles, letter + colour code (Sy Rg ? ...)")
    hint.add_argument("--limit", type=int, default=10, help="plays to show; 0 shows all (default: %(default)s)")
    hint.add_argument("--lexicon", default=DEFAULT_LEXICON, help="word list to judge by (default: %(default)s)")
    hint.add_argument("--json", action="store_true", help="print JSON")
    hint.set_defaults(run=run_hint)


def _adjudicator(lexicon: str) -> Adjudicator:
    return LocalAdjudicator(lexicon)  # an unknown name fails in ensure_index before any build


#: A file name is echoed longer than typed letters: its end is usually the part that is wrong.
PATH_ECHO = 80


def _board_text(arg: str) -> str:
    """The board ``arg`` names: stdin for ``-``, a file's text, or the argument itself written out."""
    if arg == "-":
        return sys.stdin.read()
    if "\n" in arg or not arg.strip():  # Path("") is the current folder
        return arg
    path, shown = Path(arg), echo(arg, width=PATH_ECHO)
    try:
        is_folder, is_file = path.is_dir(), path.is_file()
    except OSError:  # a name the file system refuses (too long): no file, so a board written out
        is_folder = is_file = False
    if is_folder:
        raise ConfigError(f"board: {shown} is a folder, not a board file")
    if is_file:
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ConfigError(f"board: {shown} is not a text file") from None
        except OSError as error:
            raise ConfigError(f"board: cannot read {shown}: {error.strerror or error}") from None
    # A board written out splits its cells by spaces; one without a space that is not a board
    # either (one tile a row) was meant as a file name: "nonexist.txt" is no tile.
    if not any(c.isspace() for c in arg):
        try:
            parse_board(arg)
        except EngineError:
            raise ConfigError(
                f"board: there is no file {shown} (a board written out splits cells by spaces, rows by '/')"
            ) from None
    return arg


def run_hint(args: argparse.Namespace) -> int:
    board = parse_board(_board_text(args.board))
    if not board:
        raise ConfigError("board: no tiles (a BOP! grid always holds at least the starter tile)")
    hand = parse_tiles(args.hand)
    if not 1 <= len(hand) <= HAND_SIZE:
        raise ConfigError(f"--hand: a hand holds 1 to {HAND_SIZE} tiles, not {len(hand)}")
    if args.limit < 0:
        raise ConfigError("--limit must be 0 or more")
    adjudicator = _adjudicator(args.lexicon)
    BopGame(adjudicator=adjudicator).from_position(board, [hand, []])  # the tiles must be in the box
    hints = best_plays(board, hand, adjudicator, limit=args.limit)
    if args.json:
        print(json.dumps({"hand": hand, "plays": [h.to_json() for h in hints]}, ensure_ascii=False))
        return 0
    print(format_board(board))
    print(f"hand: {' '.join(hand)}")
    if not hints:
        print("no play: pass (and trade tiles)")
        return 0
    for number, hint in enumerate(hints, 1):
        print(f"{number:>3}. {hint.text()}")
    print("\nbest play:\n" + _indent(hints[0].breakdown.text()))
    return 0


class HumanPlayer:
    """A person at the terminal: sees their view, types moves; a bad move is explained and asked again."""

    name = HUMAN

    def __init__(self, out: TextIO, inp: TextIO) -> None:
        self.out, self.inp = out, inp

    def choose_move(self, state: BopState) -> BopMove:
        view = state.view(state.current)
        self.out.write(f"\nplayer {state.current}, your hand: {' '.join(view['hand'])}   (pile: {view['pile_size']})\n")
        while True:
            self.out.write("move ('3,-2a Cg?WkBg', 'pass [tiles]', 'swap 3,-1 Bg', 'challenge', 'hint'): ")
            self.out.flush()
            text = self.inp.readline()
            if not text:
                raise EOFError("input ended")
            text = text.strip()
            if text == "hint":
                for hint in best_plays(state.board, state.hand(), state.game.adjudicator, limit=5):
                    self.out.write(f"  {hint.text()}\n")
                continue
            try:
                move = state.game.parse_move(text)
                state.clone().apply(move, player=state.current)  # refused moves are explained, not played
                return move
            except EngineError as error:
                self.out.write(f"  {error}\n")


def _indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line for line in text.splitlines())


def run_play(args: argparse.Namespace) -> int:
    game = BopGame({"players": args.players, "mode": args.mode}, adjudicator=_adjudicator(args.lexicon))
    names = (args.bots or ",".join([HUMAN] + ["greedy"] * (args.players - 1))).split(",")
    names = [name.strip() for name in names]
    if len(names) != args.players:
        raise ConfigError(f"{args.players} players need {args.players} --bots entries, got {len(names)}")
    out = sys.stdout
    seats: list[Bot | HumanPlayer] = [
        HumanPlayer(out, sys.stdin) if name == HUMAN else make_bot(name, args.seed * 1000 + seat)
        for seat, name in enumerate(names)
    ]
    state = game.new_initial_state(args.seed)
    quiet = args.json
    if not quiet:
        colours = ", ".join(f"{code}={name}" for code, name in COLOUR_NAMES.items() if code in "ygrkb")
        out.write(f"BOP! {args.players} players ({', '.join(names)}), seed {args.seed}, {args.mode} mode\n")
        out.write(f"tiles are letter + colour ({colours}); ? is a BOP! tile\n")
        for round_number, draw in enumerate(state.first_draws, 1):
            drawn = ", ".join(f"player {p} drew {t}" for p, t in draw)
            out.write(f"draw for first player{' (redraw)' if round_number > 1 else ''}: {drawn}\n")
        out.write(f"player {state.first_player} goes first; starter tile {state.board[(0, 0)]}\n\n")
        out.write(format_board(state.board) + "\n")
    people = names.count(HUMAN)
    turn = 0
    while not state.is_terminal():
        player = state.current
        # With people at the table, only their own turns are reported: a bot's best plays show its hand.
        report = args.report and (names[player] == HUMAN or not people)
        before = state.clone() if report else None
        try:
            move = seats[player].choose_move(state)
        except EOFError:
            print(f"tablejudge: input ended at player {player}'s turn; the game is abandoned", file=sys.stderr)
            return 1
        breakdown = state.apply(move, player=player)
        turn += 1
        if not quiet:
            # Traded tiles are face down: with people at the table, a bot's trade shows only its size.
            # Several people in challenge mode: the words a play makes would tell them whether to challenge.
            public = people > 0 and names[player] != HUMAN
            show_words = not (args.mode == "challenge" and people > 1)
            _print_turn(out, turn, player, names[player], move, breakdown, state, public, show_words)
            if before is not None:
                _print_report(out, before, move)
    outcome = state.outcome()
    assert outcome is not None
    if quiet:
        print(json.dumps(state.to_json(), ensure_ascii=False))
        return 0
    out.write(f"\ngame over: {outcome.reason}\n")
    for player, (score, penalty) in enumerate(zip(outcome.scores, state.penalties or [], strict=True)):
        left = f"{-penalty} for {' '.join(state.hands[player])} left" if penalty else "no tiles left"
        out.write(f"  player {player} ({names[player]}): {score} ({left})\n")
    out.write(f"winner: {' and '.join(f'player {w}' for w in outcome.winners)}\n")
    return 0


def _print_turn(
    out: TextIO,
    turn: int,
    player: int,
    name: str,
    move: BopMove,
    breakdown: Breakdown,
    state: BopState,
    public: bool = False,
    show_words: bool = True,
) -> None:
    text = (
        f"pass ({len(move.trade)} tiles traded)" if public and isinstance(move, Pass) and move.trade else move.to_text()
    )
    out.write(f"\nturn {turn}: player {player} ({name}) {text}  +{breakdown.total}\n")
    out.write(_indent(breakdown.text()) + "\n")
    withdrawn = isinstance(move, Challenge) and breakdown.items[0].label == "challenge upheld"
    if isinstance(move, Pass) or (isinstance(move, Challenge) and not withdrawn):
        out.write(f"scores: {' | '.join(str(s) for s in state.scores())}\n")
        return
    if isinstance(move, Play) and show_words:
        placed = move.as_dict()
        before = {cell: tile for cell, tile in state.board.items() if cell not in placed}
        words = play_words(before, move, state.game.adjudicator)
        out.write(
            "    words: " + "; ".join(f"{letters} ({', '.join(ex) or 'no word'})" for letters, ex in words) + "\n"
        )
    out.write(format_board(state.board) + "\n")  # changed by the play, the swap or the withdrawal
    out.write(f"scores: {' | '.join(str(s) for s in state.scores())}   pile: {len(state.pile)}\n")


def _print_report(out: TextIO, before: BopState, move: BopMove) -> None:
    hints = best_plays(before.board, before.hand(), before.game.adjudicator, limit=3)
    if hints and hints[0].move != move:
        out.write("  could have played:\n")
        for hint in hints:
            out.write(f"    {hint.text()}\n")

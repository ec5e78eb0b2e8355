"""``tablejudge play bop`` (people and bots play in the terminal) and ``tablejudge hint bop``.

tablejudge play bop --players 2 --bots greedy,random --seed 7
tablejudge play bop --bots human,greedy                     # the sheet's challenge game (the default)
tablejudge play bop --bots human,human,greedy --mode strict # non-words refused outright
tablejudge hint bop board.txt --hand "Qr Jr Sb Ly ?"

The game runs on the shared loop (``runner.py``): every seat that may act is asked, so in the
challenge game every other player is offered the challenge of each play, people as well as bots.
The hint command reads the board as ``BopGame.hints`` does and shows each play with its words.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.base import State
from engine.bop.board import format_board, parse_board
from engine.bop.game import BopGame
from engine.bop.hints import Hint, best_plays, play_words
from engine.bop.moves import Challenge, Pass, Play
from engine.bop.options import BOP, COLOUR_NAMES, DEFAULT_PALETTE, MODES
from engine.bop.state import BopState
from engine.bots import Turn
from engine.errors import ConfigError, EngineError
from engine.values import CHANCE, Breakdown, JsonDict, Move, ScoredMove
from indexes.notation import echo
from indexes.paths import DEFAULT_LEXICON
from tablejudge.play.grid import GridCommands
from tablejudge.play.runner import HUMAN, HumanSeat, game_from_args, indent, make_seats, run_game


def play_flags(play: argparse.ArgumentParser) -> None:
    play.add_argument(
        "--mode", default=None, choices=MODES,
        help="challenge (the sheet's game, the default): plays stand unless challenged; strict: non-words refused",
    )  # fmt: skip
    play.add_argument(
        "--report",
        action="store_true",
        help="after each turn, show the best plays that were possible (only after people's turns when people play:"
        " a bot's best plays would show its hand)",
    )


def lexicon_flag(hint: argparse.ArgumentParser) -> None:
    hint.add_argument("--lexicon", default=DEFAULT_LEXICON, help="word list to judge by (default: %(default)s)")


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


def hint_line(number: int, scored: ScoredMove[Any]) -> str:
    """``  1. -3,3d WrHgMyMbYb        34  WHMMY: whammy; ...``: a play, its points and the words it makes."""
    assert isinstance(scored, Hint)
    return f"{number:>3}. {scored.text()}"


def hint_json(scored: ScoredMove[Any]) -> JsonDict:
    """A hinted play as JSON, with its words and what each BOP! tile stands for after it."""
    assert isinstance(scored, Hint)
    return scored.to_json()


def notation_help(hand: list[str]) -> str:
    """How to write a move, with examples made from the player's own hand (shown once)."""
    letters = [tile for tile in hand if tile != BOP] or ["Sy", "Tk"]
    two = "".join(letters[:2])
    colours = ", ".join(f"{code}={COLOUR_NAMES[code]}" for code in DEFAULT_PALETTE)
    return (
        "How to write a move (cells are ROW,COL; the starter tile is at 0,0; rows grow down, columns right):\n"
        f"  0,1a {two}     play across from 0,1 ('a' across, 'd' down); tiles are letter + colour ({colours})\n"
        f"  1,0d {letters[0]}.{letters[-1]}    '.' steps over a tile already on the grid\n"
        "  0,1 ?          the BOP! tile is '?' (you say what it stands for only when challenged)\n"
        f"  pass {letters[0]}       pass, trading those tiles ('pass' alone trades none)\n"
        "  swap 3,-1 Bg   put Bg in place of the BOP! tile at 3,-1 and take it back\n"
        "  challenge      challenge the play just made;  hint  the best plays;  moves  every legal move"
    )


class BopPerson(HumanSeat):
    """A person at the terminal playing BOP!: the board and their rack, hints, and (when several people
    share the terminal) a cleared screen between turns, so nobody sees another's rack."""

    def __init__(self, out: TextIO, inp: TextIO, shared: bool) -> None:
        super().__init__(out, inp)
        self.shared = shared
        self.helped = False

    def choose(self, turn: Turn) -> Move | None:
        view = turn.view
        seat = turn.seat
        if self.shared:
            self.out.write("\033[2J\033[H" + f"Hand the device to player {seat}, then press Enter. ")
            self.out.flush()
            self._line()
        state: BopState = turn._state  # type: ignore[assignment]
        if not turn.required:
            pending = view["pending"]
            self.out.write(
                f"\nplayer {seat}: player {pending['player']} played {pending['move']} (+{pending['points']}). "
                "Challenge it? ('challenge', or Enter to let it stand): "
            )
            self.out.flush()
            return Challenge() if self._line().lower() in ("challenge", "c", "y", "yes") else None
        hand = view["hands"][seat]
        self.out.write(f"\n{format_board(state.board)}\nplayer {seat}, your hand: {' '.join(hand)}   "
                       f"(pile: {view['pile_size']})\n")  # fmt: skip
        if not self.helped:
            self.out.write(notation_help(hand) + "\n")
            self.helped = True
        while True:
            self.out.write("move: ")
            self.out.flush()
            text = self._line()
            if text == "hint":
                for hint in best_plays(state.board, hand, state.game.adjudicator, limit=5):
                    self.out.write(f"  {hint.text()}\n")
                continue
            if text in ("help", "moves"):
                self.out.write(notation_help(hand) + "\n")
                continue
            try:
                move = state.game.parse_move(text)
                state.clone().act(seat, move)  # refused moves are explained, not played
                return move
            except ValueError as error:
                self.out.write(f"  {error}\n")


def run_play(args: argparse.Namespace) -> int:
    players = args.players or 2
    if args.bots is None:
        args.bots = ",".join([HUMAN] + ["greedy"] * (players - 1))
    fixed: dict[str, Any] = {}
    if args.mode is not None:
        fixed["mode"] = args.mode
    elif not any(item.startswith("mode=") for item in args.option):
        fixed["mode"] = "challenge"  # the sheet's own game
    game, names = game_from_args("bop", args, **fixed)
    assert isinstance(game, BopGame)
    out = sys.stdout
    people = names.count(HUMAN)
    seats: list[Any] = make_seats(game, names, args.seed, out, sys.stdin)
    for seat, name in enumerate(names):
        if name == HUMAN:
            seats[seat] = BopPerson(out, sys.stdin, shared=people > 1)
    quiet = args.json
    mode = game.options.mode
    turn = 0
    reports: dict[str, BopState] = {}

    def show(state: State[Any], seat: int, move: Move, breakdown: Breakdown) -> None:
        nonlocal turn
        assert isinstance(state, BopState)
        if seat == CHANCE or quiet:
            return
        turn += 1
        # Traded tiles are face down: with people at the table, a bot's trade shows only its size.
        # Several people in challenge mode: the words a play makes would tell them whether to challenge.
        public = people > 0 and names[seat] != HUMAN
        show_words = not (mode == "challenge" and people > 1)
        _print_turn(out, turn, seat, names[seat], move, breakdown, state, public, show_words)
        before = reports.pop("before", None)
        if before is not None and isinstance(move, Play | Pass):
            _print_report(out, before, move)

    state = game.new_initial_state(args.seed)
    if not quiet:
        colours = ", ".join(f"{code}={name}" for code, name in COLOUR_NAMES.items() if code in DEFAULT_PALETTE)
        out.write(f"BOP! {game.players} players ({', '.join(names)}), seed {args.seed}, {mode} mode\n")
        out.write(f"tiles are letter + colour ({colours}); ? is a BOP! tile\n")
        for round_number, draw in enumerate(state.first_draws, 1):
            drawn = ", ".join(f"player {p} drew {t}" for p, t in draw)
            out.write(f"draw for first player{' (redraw)' if round_number > 1 else ''}: {drawn}\n")
        out.write(f"player {state.first_player} goes first; starter tile {state.board[(0, 0)]}\n\n")
        out.write(format_board(state.board) + "\n")

    class Reporting:
        """Keeps the position before each turn that --report covers (people's turns when people play)."""

        def __init__(self, seat: int, inner: Any) -> None:
            self.seat, self.inner, self.name = seat, inner, inner.name

        def choose(self, turn_: Turn) -> Move | None:
            move = self.inner.choose(turn_)
            if move is not None and turn_.required:
                reports["before"] = turn_._state.clone()  # type: ignore[assignment]
            return move

    if args.report:
        seats = [Reporting(seat, bot) if names[seat] == HUMAN or not people else bot for seat, bot in enumerate(seats)]
    try:
        state = run_game(game, seats, args.seed, on_move=show)  # type: ignore[assignment]
    except EOFError:
        print("tablejudge: input ended; the game is abandoned", file=sys.stderr)
        return 1
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
    move: Move,
    breakdown: Breakdown,
    state: BopState,
    public: bool = False,
    show_words: bool = True,
) -> None:
    text = move.public_text() or move.to_text() if public else move.to_text()
    out.write(f"\nturn {turn}: player {player} ({name}) {text}  +{breakdown.total}\n")
    out.write(indent(breakdown.text()) + "\n")
    withdrawn = isinstance(move, Challenge) and breakdown.items[0].label == "challenge upheld"
    if isinstance(move, Challenge) and not withdrawn:
        out.write(f"scores: {' | '.join(str(s) for s in state.scores())}\n")
        return
    if isinstance(move, Play) and show_words:
        placed = move.as_dict()
        before = {cell: tile for cell, tile in state.board.items() if cell not in placed}
        words = play_words(before, move, state.game.adjudicator)
        said = [f"{line.said()} ({', '.join(line.examples) or 'no word'})" for line in words]
        out.write("    words: " + "; ".join(said) + "\n")
    out.write(format_board(state.board) + "\n")  # changed by the play, the swap or the withdrawal (or a pass: again)
    out.write(f"scores: {' | '.join(str(s) for s in state.scores())}   pile: {len(state.pile)}\n")


def _print_report(out: TextIO, before: BopState, move: Move) -> None:
    hints = best_plays(before.board, before.hand(), before.game.adjudicator, limit=3)
    if hints and hints[0].move != move:
        out.write("  could have played:\n")
        for hint in hints:
            out.write(f"    {hint.text()}\n")


COMMANDS = GridCommands(
    "bop",
    "BOP!: build consonant words crossword-style",
    None,
    "BOP!: the best plays for a hand on a board",
    "board",
    "a file with the board as 'tablejudge play bop' prints it, '-' for stdin, or rows split by '/'",
    "your tiles, letter + colour code (Sy Rg ? ...)",
    run_play,
    hint_line,
    "no play: pass (and trade tiles)",
    play_flags,
    lexicon_flag,
    read_board=_board_text,
    move_json=hint_json,
    ensure_ascii=False,
)

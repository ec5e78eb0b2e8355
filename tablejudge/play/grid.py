"""The terminal parts every grid game shares (BOP!, D!Git, Match Five, Q!nto, Three2Fifteen): the commands,
a person's seat, the play runner, and the hint command on ``Game.hints``.

A grid game's module beside this one keeps only what is its own (its texts and flags, a person's help,
what it says after a move and at the end, how a hinted move reads) and declares it once in a
:class:`GridCommands`. The flags and the loop are ``runner.py``'s; ``tablejudge/commands`` registers the
commands (``tablejudge play GAME``, ``tablejudge hint GAME`` and the older ``GAME-hint`` names).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO

from engine.base import Game, State
from engine.bots import Turn
from engine.errors import ConfigError, PositionError
from engine.registry import load_game
from engine.values import CHANCE, Breakdown, Hints, JsonDict, Move, Outcome, ScoredMove
from tablejudge.play.runner import (
    HUMAN,
    HumanSeat,
    add_game_arguments,
    game_from_args,
    indent,
    make_seats,
    print_move,
    run_game,
)

#: Plays a person is shown when they type ``hint``.
HINTS = 5
#: Moves ``moves`` lists before it says "...".
LISTED = 30


Run = Callable[[argparse.Namespace], int]
AddFlags = Callable[[argparse.ArgumentParser], None]


# --- hints ---------------------------------------------------------------------------------------
def points_item(item: Any) -> str | None:
    """``across 7+8 +15``: a breakdown item with its points."""
    return f"{item.label} {item.points:+d}"


def hint_line(
    number: int,
    scored: ScoredMove[Any],
    width: int,
    item: Callable[[Any], str | None] = points_item,
    points: Literal["always", "nonzero", "none"] = "always",
) -> str:
    """``  1. 7,6a 7 8        +24  across 7+8 +15; down 7+2 +9``: one ranked play, its points (``none``:
    no column, for a game without points; ``nonzero``: blank when it scores nothing) and its items
    (``item`` returns None for an item not worth a mention)."""
    items = "; ".join(text for text in map(item, scored.breakdown.items) if text is not None)
    if points == "none":
        return f"{number:>3}. {scored.move.to_text():<{width}} {items}"
    total = f"{scored.points:>+4}" if scored.points or points == "always" else " " * 4
    return f"{number:>3}. {scored.move.to_text():<{width}} {total}  {items}"


def board_argument(arg: str, what: str, written_out: Callable[[str], bool], split_rows: bool = False) -> str:
    """The board a hint command's argument names: stdin for ``-``, a file's text, or the board itself
    written out (``written_out(arg)`` says whether it can be one: a name that cannot is a missing file;
    ``split_rows``: its rows split by ``/`` become lines)."""
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
            raise ConfigError(f"{what}: cannot read {arg!r}: {error}") from None
    if not written_out(arg):
        raise ConfigError(
            f"{what}: there is no file {arg!r} (a {what} written out splits cells by spaces, rows by '/')"
        )
    return arg.replace("/", "\n") if split_rows else arg


def has_space(arg: str) -> bool:
    """A board written out splits its cells by spaces."""
    return any(char.isspace() for char in arg)


def scored_json(scored: ScoredMove[Any]) -> JsonDict:
    """A hinted move as JSON: ``{"move", "points", "breakdown"}``."""
    return {"move": scored.move.to_text(), "points": scored.points, "breakdown": scored.breakdown.to_json()}


def check_limits(args: argparse.Namespace) -> None:
    """``--limit`` (and ``--pile`` where the command has it) must be 0 or more."""
    if getattr(args, "pile", 0) < 0 or args.limit < 0:
        named = "--limit and --pile" if hasattr(args, "pile") else "--limit"
        raise ConfigError(f"{named} must be 0 or more")


# --- the commands --------------------------------------------------------------------------------
@dataclass(frozen=True)
class GridCommands:
    """A grid game's ``tablejudge play NAME`` and ``tablejudge hint NAME`` (also ``NAME-hint``): their
    texts, its own flags, what runs ``play``, and how the hints (``Game.hints``) are asked for and shown.
    A game's module declares one as ``COMMANDS``; ``tablejudge/commands`` registers it."""

    #: the game's registry name
    name: str
    #: ``play``'s one line of help and its description
    play_help: str
    play_description: str | None
    #: ``hint``'s one line of help, its board argument's name and help, and ``--hand``'s help
    hint_help: str
    board: str
    board_help: str
    hand_help: str
    run_play: Run
    #: one hinted move as a line, given its number
    hint_line: Callable[[int, ScoredMove[Any]], str]
    #: what ``hint`` says when there is no play (None: nothing, and no best play's breakdown either)
    none_text: str | None
    #: the game's own flags of each command (``hint``'s come after ``--hand``)
    play_flags: AddFlags | None = None
    hint_flags: AddFlags | None = None
    #: the game's options that ``hint``'s own flags set (default: none)
    hint_options: Callable[[argparse.Namespace], dict[str, Any]] = field(default=lambda args: {})
    #: the text of the board argument (default: :func:`board_argument` with ``written_out`` and ``split_rows``)
    read_board: Callable[[str], str] | None = None
    written_out: Callable[[str], bool] = has_space
    split_rows: bool = False
    #: what ``hint --limit`` counts, and how many it shows by default
    shown: str = "plays"
    limit: int = 10
    #: ``hint --json``: the key of the list, each move's JSON, and whether the JSON is plain ASCII
    key: str = "plays"
    move_json: Callable[[ScoredMove[Any]], JsonDict] = scored_json
    ensure_ascii: bool = True

    def register(self, play_subparsers: argparse._SubParsersAction) -> None:
        play = play_subparsers.add_parser(self.name, help=self.play_help, description=self.play_description)
        add_game_arguments(play, self.name, default_bots=None)
        if self.play_flags is not None:
            self.play_flags(play)
        play.set_defaults(run=self.run_play)

    def add_hint_arguments(self, hint: argparse.ArgumentParser) -> None:
        hint.add_argument(self.board, help=self.board_help)
        hint.add_argument("--hand", required=True, help=self.hand_help)
        if self.hint_flags is not None:
            self.hint_flags(hint)
        shows = f"{self.shown} to show; 0 shows all (default: %(default)s)"
        hint.add_argument("--limit", type=int, default=self.limit, help=shows)
        hint.add_argument("--json", action="store_true", help="print JSON")
        hint.set_defaults(run=self.run_hint)

    def run_hint(self, args: argparse.Namespace) -> int:
        """``tablejudge hint NAME``: the game's hints for the position the arguments write out, printed."""
        check_limits(args)
        game = load_game(self.name, self.hint_options(args), lexicon=getattr(args, "lexicon", None))
        arg = getattr(args, self.board)
        text = self.read_board(arg) if self.read_board else board_argument(arg, self.board, self.written_out,
                                                                              self.split_rows)  # fmt: skip
        try:
            found = game.hints(text, args.hand, args.limit, getattr(args, "pile", None))
        except PositionError as error:
            if error.part != "hand":
                raise
            raise ConfigError(f"--hand: {error}") from None
        return self.print_hints(found, as_json=args.json)

    def print_hints(self, found: Hints[Any], as_json: bool) -> int:
        """The hint command's output: JSON (``{"hand", key: [each move's JSON]}``) or the board, the hand,
        one line a move and the best move's breakdown (no :attr:`none_text`: neither the 'no play' line nor
        the best move's breakdown, for a game whose hints are no plays' scores)."""
        if as_json:
            moves = [self.move_json(scored) for scored in found.moves]
            print(json.dumps({"hand": list(found.hand), self.key: moves}, ensure_ascii=self.ensure_ascii))
            return 0
        print(found.board)
        print(f"hand: {found.hand_text}")
        if not found.moves and self.none_text is not None:
            print(self.none_text)
            return 0
        for number, scored in enumerate(found.moves, 1):
            print(self.hint_line(number, scored))
        if self.none_text is not None:
            print("\nbest play:\n" + indent(found.moves[0].breakdown.text()))
        return 0


# --- a person at the terminal --------------------------------------------------------------------
class GridPerson(HumanSeat):
    """A person at the terminal: the board and their hand, the notation's help once, ``hint``, ``moves``
    and ``help``; when several people share the terminal, a cleared screen between turns, so that
    nobody sees another's hand. A game says what its screen, help and hints are."""

    def __init__(self, out: TextIO, inp: TextIO, shared: bool) -> None:
        super().__init__(out, inp)
        self.shared = shared
        self.helped = False

    def screen(self, turn: Turn) -> str:
        """What the person sees before their move: the game's own rendering of their view."""
        return turn.game.render(turn.view)

    def help_text(self, turn: Turn) -> str:
        """How to write a move, with examples from this hand and board."""
        raise NotImplementedError

    def hint_text(self, turn: Turn) -> str:
        """The best plays now, one line each (or what to do when there is none)."""
        raise NotImplementedError

    def choose(self, turn: Turn) -> Move | None:
        seat = turn.seat
        if self.shared:
            self.out.write("\033[2J\033[H" + f"Hand the device to player {seat}, then press Enter. ")
            self.out.flush()
            self._line()
        self.out.write(f"\n{self.screen(turn)}\n")
        if not self.helped:
            self.out.write(self.help_text(turn) + "\n")
            self.helped = True
        while True:
            self.out.write(f"player {seat}, your move: ")
            self.out.flush()
            text = self._line()
            if not text:
                continue
            if text == "hint":
                self.out.write(self.hint_text(turn) + "\n")
                continue
            if text == "help":
                self.out.write(self.help_text(turn) + "\n")
                continue
            if text == "moves":
                self.list_moves(turn, LISTED)
                continue
            move = self.tried(turn, text)
            if move is not None:
                return move


# --- the play runner ----------------------------------------------------------------------------
def first_line(title: str, game: Game[Any, Any, Any], seed: int, names: Sequence[str]) -> str:
    """``Match Five (matchfive(players=2)), seed 3: human, greedy``: what a game at the terminal begins with."""
    return f"{title} ({game.spec()}), seed {seed}: {', '.join(names)}"


def first_player_intro(
    title: str, seed: int, why: str, legend: str
) -> Callable[[Game[Any, Any, Any], list[str], list[int]], str]:
    """The beginning of a game at the terminal: :func:`first_line`, who starts and ``why``, and for a game
    of bots only the board's ``legend`` (a person has it in their help)."""

    def intro(game: Game[Any, Any, Any], names: list[str], people: list[int]) -> str:
        first = game.new_initial_state(seed).first_player  # type: ignore[attr-defined]
        shown = "" if people else legend + "\n"
        return f"{first_line(title, game, seed, names)}\nplayer {first} starts ({why})\n{shown}"

    return intro


def bag_tally(state: Any, people: Sequence[int]) -> str:
    """The scores and the bag after each move of a game of bots only (Match Five, Three2Fifteen)."""
    return "" if people else f"scores: {' | '.join(map(str, state.scores()))}   bag: {len(state.bag)}\n"


def final_table(
    game: Game[Any, Any, Any], state: State[Any], names: Sequence[str], tally: Callable[[int], str] | None = None
) -> str:
    """The end of a game at the terminal: the table as everyone sees it, then the standings."""
    outcome = state.outcome()
    assert outcome is not None
    return f"\n{game.render(state.view(None))}\n" + standings(outcome, names, tally)


def standings(outcome: Outcome, names: Sequence[str], tally: Callable[[int], str] | None = None) -> str:
    """``  player 0 (human): 31`` a seat, then ``winner: player 0``."""
    lines = [
        f"  player {seat} ({names[seat]}): {tally(seat) if tally else outcome.scores[seat]}\n"
        for seat in range(len(names))
    ]
    return "".join(lines) + f"winner: {' and '.join(f'player {w}' for w in outcome.winners)}\n"


def run_grid_play(
    args: argparse.Namespace,
    name: str,
    *,
    person: Callable[[bool], HumanSeat],
    intro: Callable[[Game[Any, Any, Any], list[str], list[int]], str],
    after_move: Callable[[State[Any], int, Move, Breakdown, list[int]], str],
    ending: Callable[[Game[Any, Any, Any], State[Any], list[str]], str],
    fixed: dict[str, Any] | None = None,
    ensure_ascii: bool = True,
) -> int:
    """``tablejudge play GAME`` for a grid game: without ``--bots`` a person against greedy bots; people
    at their seats (``person(shared)``); every move but the draws printed as the table sees it (the
    viewer: the one person, if one), with what the game adds (``after_move``); then ``ending``, or the
    saved state with ``--json``. ``intro`` is printed first (given the game, the seat names, the people)."""
    if args.bots is None:
        args.bots = ",".join([HUMAN] + ["greedy"] * ((args.players or 2) - 1))
    game, names = game_from_args(name, args, **(fixed or {}))
    out = sys.stdout
    people = [seat for seat, seat_name in enumerate(names) if seat_name == HUMAN]
    seats: list[Any] = make_seats(game, names, args.seed, out, sys.stdin)
    for seat in people:
        seats[seat] = person(len(people) > 1)
    viewer = people[0] if len(people) == 1 else None
    quiet = args.json
    if not quiet:
        out.write(intro(game, names, people))

    def show(state: State[Any], seat: int, move: Move, breakdown: Breakdown) -> None:
        if quiet or seat == CHANCE:
            return  # a draw shows in the hand it fills
        out.write("\n")
        print_move(out, state, seat, move, breakdown, viewer)
        out.write(after_move(state, seat, move, breakdown, people))

    try:
        state = run_game(game, seats, args.seed, on_move=show)
    except EOFError:
        print("tablejudge: input ended; the game is abandoned", file=sys.stderr)
        return 1
    if quiet:
        print(json.dumps(state.to_json(), ensure_ascii=ensure_ascii))
        return 0
    out.write(ending(game, state, names))
    return 0

"""``tablejudge play GAME``: any registered game in the terminal, people and bots, on the shared loop.

    tablejudge play GAME [--option NAME=VALUE ...] [--players N] [--bots NAME,...] [--seed S] [--json]

Every seat is a bot (``random``, ``greedy`` or one of the game's own) or ``human``: a person at this
terminal, who sees their own view (``game.render``), types moves in the game's notation, and is
told why a refused move is refused. A game's own module beside this one (``tablejudge/play/bop.py``)
may add flags of its own on top of these, or replace the runner; every other registered game gets this one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from engine.base import Game, State
from engine.bots import Bot, Turn, bot_names, make_bot, play_game
from engine.errors import ConfigError, EngineError
from engine.registry import game_class, load_game
from engine.values import CHANCE, REFEREE, Breakdown, Move, option_value, seat_name

HUMAN = "human"


def add_game_arguments(parser: argparse.ArgumentParser, name: str, default_bots: str | None = None) -> None:
    """The flags every ``tablejudge play GAME`` takes."""
    cls = game_class(name)
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a game option, repeatable (e.g. --option players=3); values are read as JSON when they parse",
    )  # fmt: skip
    parser.add_argument("--players", type=int, help="seats at the table (default: one per --bots entry)")
    parser.add_argument(
        "--bots", default=default_bots,
        help=f"one per seat, comma-separated: {HUMAN} (a person at this terminal) or a bot "
        f"({', '.join(bot_names(cls))})",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="the game's seed: the same seed deals the same game")
    if cls.word_questions:
        parser.add_argument("--lexicon", default=None, help="word list to judge by (default: standard)")
    parser.add_argument("--json", action="store_true", help="print the finished game's saved state as JSON")


def read_options(items: Sequence[str]) -> dict[str, Any]:
    """``--option NAME=VALUE`` items as a dict (ConfigError for one without ``=``)."""
    chosen: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"--option {item!r} is not NAME=VALUE")
        chosen[name.strip()] = option_value(raw)
    return chosen


def seat_list(text: str | None, players: int | None) -> list[str]:
    """The ``--bots`` names, one per seat (ConfigError when they do not fit ``--players``)."""
    if text is None or not text.strip():
        raise ConfigError("say who plays: --bots NAMES, one per seat (e.g. --bots human,greedy)")
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise ConfigError(f"--bots {text!r}: an empty seat name")
    if players is not None and len(names) != players:
        raise ConfigError(f"{players} players need {players} --bots entries, got {len(names)}")
    return names


def game_from_args(name: str, args: argparse.Namespace, **fixed: Any) -> tuple[Game[Any, Any, Any], list[str]]:
    """The game the flags describe, and the seat names."""
    options = {**read_options(args.option), **fixed}
    names = seat_list(args.bots, args.players)
    if "players" in options and options["players"] != len(names):
        raise ConfigError(f"--option players={options['players']} but --bots names {len(names)} seats")
    options.setdefault("players", len(names))
    return load_game(name, options, lexicon=getattr(args, "lexicon", None)), names


class HumanSeat:
    """A person at the terminal: sees their own view, types a move; a refused one is explained."""

    name = HUMAN

    def __init__(self, out: TextIO, inp: TextIO, describe: Callable[[Turn], str] | None = None) -> None:
        self.out, self.inp = out, inp
        self.describe = describe

    def choose(self, turn: Turn) -> Move | None:
        game = turn.game
        self.out.write(f"\n{seat_name(turn.seat)}, your move\n{game.render(turn.view)}\n")
        if self.describe is not None:
            self.out.write(self.describe(turn) + "\n")
        while True:
            self.out.write("move ('moves' lists them, 'skip' lets an optional move go): " if not turn.required
                           else "move ('moves' lists them): ")  # fmt: skip
            self.out.flush()
            text = self._line()
            if text == "moves":
                self.list_moves(turn)
                continue
            if text == "skip" and not turn.required:
                return None
            move = self.tried(turn, text)
            if move is not None:
                return move

    def _line(self) -> str:
        """The next line typed, without its spaces; EOFError when the input has ended."""
        line = self.inp.readline()
        if not line:
            raise EOFError("input ended")
        return line.strip()

    def list_moves(self, turn: Turn, shown: int = 20) -> None:
        """'moves': how many legal moves there are, and the first ``shown`` of them."""
        legal = turn.legal
        listed = ", ".join(move.to_text() for move in legal[:shown])
        self.out.write(f"  {len(legal)} legal: {listed}{' ...' if len(legal) > shown else ''}\n")

    def tried(self, turn: Turn, text: str) -> Move | None:
        """The move ``text`` reads as, if the rules take it here (tried on a copy: nothing is played);
        else None, with the reason written for the person."""
        try:
            move = turn.game.parse_move(text)
            turn._state.clone().act(turn.seat, move)
            return move
        except EngineError as error:
            self.out.write(f"  {error}\n")
            return None


def indent(text: str, by: str = "    ") -> str:
    """Every line of ``text`` indented: breakdowns and boards under a move in the terminal."""
    return "\n".join(by + line for line in text.splitlines())


def make_seats(game: Game[Any, Any, Any], names: Sequence[str], seed: int, out: TextIO, inp: TextIO) -> list[Any]:
    return [
        HumanSeat(out, inp) if name == HUMAN else make_bot(name, seed * 1000 + seat, game)
        for seat, name in enumerate(names)
    ]


def run_game(
    game: Game[Any, Any, Any],
    seats: Sequence[Bot | HumanSeat],
    seed: int,
    on_move: Callable[[State[Any], int, Move, Breakdown], None] | None = None,
    max_moves: int = 20_000,
) -> State[Any]:
    """The shared loop (``engine.bots.play_game``) with people at some seats: a person's seat chooses
    its moves as a bot does."""
    return play_game(game, seats, seed, on_move, max_moves)  # type: ignore[arg-type]


def print_move(out: TextIO, state: State[Any], seat: int, move: Move, breakdown: Breakdown, viewer: int | None) -> None:
    """One move as a player at the table sees it (hidden parts as their public text)."""
    if seat == CHANCE and move.public_text() is not None and move.owner(seat) != viewer:
        return  # another seat's draw: nothing to show
    public = move.public_text()
    text = move.to_text() if public is None or move.owner(seat) == viewer else public
    who = seat_name(seat) if seat not in (CHANCE, REFEREE) else SEAT_LABELS[seat]
    out.write(f"{who}: {text}" + (f"  {breakdown.total:+d}" if breakdown.total else "") + "\n")
    if breakdown.total:
        out.write("\n".join("    " + line for line in breakdown.text().splitlines()) + "\n")


SEAT_LABELS = {CHANCE: "chance", REFEREE: "clock"}


def run(args: argparse.Namespace) -> int:
    """The generic runner: every seat's move printed, the final scores, or the saved state (--json)."""
    game, names = game_from_args(args.game, args)
    out = sys.stdout
    seats = make_seats(game, names, args.seed, out, sys.stdin)
    people = [seat for seat, name in enumerate(names) if name == HUMAN]
    viewer = people[0] if len(people) == 1 else None
    if not args.json:
        out.write(f"{game.spec()}, seed {args.seed}: {', '.join(names)}\n")

    def show(state: State[Any], seat: int, move: Move, breakdown: Breakdown) -> None:
        if not args.json:
            print_move(out, state, seat, move, breakdown, viewer)

    try:
        state = run_game(game, seats, args.seed, on_move=show)
    except EOFError:
        print("tablejudge: input ended; the game is abandoned", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(state.to_json(), ensure_ascii=False))
        return 0
    outcome = state.outcome()
    assert outcome is not None
    out.write(f"\n{game.render(state.view(None))}\ngame over: {outcome.reason}\n")
    for seat, score in enumerate(outcome.scores):
        out.write(f"  player {seat} ({names[seat]}): {score}\n")
    out.write(f"winner: {' and '.join(f'player {w}' for w in outcome.winners)}\n")
    return 0


def register_generic(games: argparse._SubParsersAction, name: str) -> None:
    """``tablejudge play NAME`` with the shared flags and runner."""
    cls = game_class(name)
    parser = games.add_parser(name, help=(cls.__doc__ or name).strip().splitlines()[0])
    add_game_arguments(parser, name)
    parser.set_defaults(run=run)

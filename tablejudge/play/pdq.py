"""``tablejudge play pdq``: the solo game for a person at the terminal, or a game of bots.

    tablejudge play pdq --solo --seed 3                      # type words; "?" or an empty line: stumped
    tablejudge play pdq --players 3 --bots sharp,steady,relaxed --seed 3
    tablejudge play pdq --players 3 --bots random,greedy,random --seed 4   # the shared bots, the shared loop
    tablejudge play pdq --players 2 --bots steady --variant pdl --json
    tablejudge play pdq --bots you,sharp,steady --seed 3          # race two bots yourself

Bad input raises a ``ValueError`` subclass (``engine.errors.ConfigError`` and friends); the
``tablejudge`` command turns it into exit code 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from engine.base import State
from engine.bots import BOTS, Bot, make_bot, next_move
from engine.errors import ConfigError, IllegalMoveError
from engine.pdq.bots import PROFILES, seat_names
from engine.pdq.game import PdqGame, PdqState
from engine.pdq.moves import Claim, NoWord, Ready
from engine.pdq.options import PRESETS, PdqOptions
from engine.pdq.records import Verdict
from engine.pdq.report import reason_text, round_report
from engine.values import Breakdown, Move
from indexes.paths import DEFAULT_LEXICON
from tablejudge.play.highscore import HighScores
from tablejudge.play.runner import read_options

STUMPED = {"", "?"}
#: The seat name in ``--bots`` for the person at the terminal (``--bots you,sharp,steady``).
HUMAN = "you"


def register(play_subparsers: argparse._SubParsersAction) -> None:
    parser = play_subparsers.add_parser(
        "pdq",
        help="PDQ: the solo game at the terminal, or a game of bots",
        description="Play PDQ: --solo for yourself (type words, '?' or an empty line when stumped), "
        "--players N --bots NAMES for a game of bots printed round by round, or --bots you,NAMES to race them.",
    )
    parser.add_argument("--solo", action="store_true", help="play the solo game yourself (reads words from stdin)")
    parser.add_argument("--players", type=int, help="seats at the table (bot game; default: one per bot)")
    parser.add_argument(
        "--bots",
        help=f"one bot per seat, comma-separated ({', '.join([*PROFILES, *BOTS])}; the PDQ bots optionally NAME:MS); "
        f"one name fills every seat; '{HUMAN}' in one seat races the bots yourself",
    )
    parser.add_argument("--seed", type=int, default=0, help="shuffle seed (default: %(default)s)")
    parser.add_argument("--variant", help=f"the sheet's way to play: {', '.join(PRESETS)} (default: standard)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any other option, repeatable (e.g. --option window_ms=500 --option min_lengths=[5,4,4])",
    )
    parser.add_argument("--lexicon", default=DEFAULT_LEXICON, help="word list to judge by (default: %(default)s)")
    parser.add_argument(
        "--scores", help="solo high-score SQLite database (default: $XDG_DATA_HOME/tablejudge/pdq-solo.sqlite3)"
    )
    parser.add_argument("--json", action="store_true", help="print only JSON: each round report, then the result")
    parser.set_defaults(run=run)


def _options(args: argparse.Namespace, players: int | None) -> PdqOptions:
    if args.solo and args.variant not in (None, "solo"):
        raise ConfigError("--solo is its own variant; leave out --variant (or use --variant solo)")
    chosen = read_options(args.option)
    if "variant" in chosen:  # it would mix a second preset into the first (a "solo" PDL)
        raise ConfigError("choose the way to play with --variant (or --solo), not --option variant=...")
    if "players" in chosen:
        raise ConfigError("say the number of seats with --players (or one --bots name per seat), not --option")
    preset = "solo" if args.solo else (args.variant or "standard")
    if players is not None:
        chosen["players"] = players
    return PdqOptions.preset(preset, **chosen)


def run(args: argparse.Namespace) -> int:
    if args.solo:
        if args.bots or (args.players not in (None, 1)):
            raise ConfigError("--solo is one person alone: no --bots, no --players")
        game = PdqGame(_options(args, None), lexicon=args.lexicon)
        return play_solo(game, args.seed, sys.stdin, sys.stdout, HighScores(args.scores), as_json=args.json)
    if args.bots is None or not args.bots.strip():
        raise ConfigError("say who plays: --solo, or --bots NAMES (e.g. --players 3 --bots sharp,steady,relaxed)")
    players = args.players if args.players is not None else len([n for n in args.bots.split(",") if n.strip()])
    names = seat_names(args.bots, players)
    if names == [HUMAN]:
        raise ConfigError(f"one person alone is the solo game: use --solo (or race bots: --bots {HUMAN},sharp)")
    game = PdqGame(_options(args, players), lexicon=args.lexicon)
    if HUMAN in names:
        return play_race(game, _seats(game, names, args.seed), args.seed, sys.stdin, sys.stdout)
    bots = [make_bot(name, args.seed * 1000 + seat, game) for seat, name in enumerate(names)]
    return play_bots(game, bots, args.seed, sys.stdout, as_json=args.json)


def _seats(game: PdqGame, names: list[str], seed: int) -> list[Bot | None]:
    """One seat per name: ``you`` (the person at the terminal, once) or a bot."""
    if names.count(HUMAN) != 1:
        raise ConfigError(f"one seat can be '{HUMAN}' (the person at the terminal), not {names.count(HUMAN)}")
    return [None if name == HUMAN else make_bot(name, seed * 1000 + seat, game) for seat, name in enumerate(names)]


def _print_report(game: PdqGame, verdict: Breakdown, out: TextIO, as_json: bool, names: list[str]) -> None:
    if not isinstance(verdict, Verdict) or verdict.finished is None:
        return
    report = round_report(game, verdict.finished)
    if as_json:
        out.write(json.dumps({"report": report.to_json()}) + "\n")
    else:
        out.write(report.text(names) + "\n\n")


def _next_row(state: PdqState) -> bool:
    """Whether a row is in play, once past a pause between rounds (``pause_ms``, RULINGS.md 27): the
    terminal prints each round's report before the next row, so everyone at it is ready at once."""
    while state.pause is not None:
        state.act(state.acting_players()[0], Ready(state.pause.clock_ms))
    return state.round is not None


def _print_result(state: PdqState, out: TextIO, as_json: bool, names: list[str], extra: dict[str, Any]) -> None:
    outcome = state.outcome()
    assert outcome is not None
    if as_json:
        out.write(json.dumps({"result": {**outcome.to_json(), "collected": state.collected, **extra}}) + "\n")
        return
    out.write(f"Game over ({outcome.reason}). Cards left in the deck: {len(state.deck)}; "
              f"set aside for nobody: {state.set_aside or '-'}\n")  # fmt: skip
    for player, score in enumerate(outcome.scores):
        out.write(f"  {names[player]:>10}: {score:>3}  {state.collected[player] or '-'}\n")
    if len(names) > 1:
        out.write(f"Winner: {' and '.join(names[p] for p in outcome.winners)}\n")


def play_bots(game: PdqGame, bots: list[Bot], seed: int, out: TextIO, as_json: bool = False) -> int:
    """A game of bots on the shared loop, each round's report printed as it ends."""
    from engine.bots import play_game

    names = [f"{bot.name}{seat}" for seat, bot in enumerate(bots)]
    if not as_json:
        out.write(f"PDQ ({game.options.variant}), seed {seed}: {', '.join(names)}\n\n")

    def report(_state: State[Any], _seat: int, _move: Move, breakdown: Breakdown) -> None:
        _print_report(game, breakdown, out, as_json, names)

    state = play_game(game, bots, seed, on_move=report)
    assert isinstance(state, PdqState)
    _print_result(state, out, as_json, names, {})
    return 0


def _refusal(error: IllegalMoveError, word_rule: str) -> str:
    reason = error.details.get("reason", error.rule)
    return reason_text(reason, word_rule)


def play_solo(
    game: PdqGame, seed: int, stdin: TextIO, out: TextIO, scores: HighScores, as_json: bool = False
) -> int:
    """The solo game: a word a line for the row shown; "?" or an empty line (or the end of input) when stumped."""
    state = game.new_initial_state(seed)
    names = ["You"]
    best = scores.best(game.options)
    if not as_json:
        to_beat = best if best is not None else "none yet"
        out.write(f"PDQ solo, seed {seed}: words left to right, {game.options.min_length_for(0)}+ letters. "
                  f"High score: {to_beat}. '?' or an empty line when stumped.\n")  # fmt: skip
    while _next_row(state):
        rnd = state.round
        assert rnd is not None
        dealt = time.monotonic()
        if not as_json:
            out.write(f"\nRound {rnd.number} ({len(state.deck)} cards left): {' '.join(rnd.letters)}\n")
        while state.round is rnd:
            if not as_json:
                out.write("> ")
                out.flush()
            line = stdin.readline()
            text = line.strip()
            elapsed = max(rnd.clock_ms, int((time.monotonic() - dealt) * 1000))
            try:
                move = NoWord(elapsed) if text in STUMPED or not line else Claim(text, elapsed)
                verdict = state.act(0, move)
            except IllegalMoveError as error:  # a wrong word: say why, ask again
                why = _refusal(error, game.options.word_rule)
                if as_json:
                    out.write(json.dumps({"refused": {"word": text, "rule": error.rule, "why": why}}) + "\n")
                else:
                    out.write(f"  {text.upper()}: {why}. {error.details.get('explanation', error)}. Try again.\n")
                continue
            except ValueError as error:  # not a word at all (digits, punctuation): say so, ask again
                if as_json:
                    out.write(json.dumps({"refused": {"word": text, "rule": "bad_notation", "why": str(error)}}) + "\n")
                else:
                    out.write(f"  {error}\n")
                continue
            _print_report(game, verdict, out, as_json, names)
    score = state.scores()[0]
    high = scores.record(game.options, score, seed)
    _print_result(state, out, as_json, names, {"high_score": max(score, high.previous_best or 0),
                                               "new_high_score": high.is_new_best})  # fmt: skip
    if not as_json:
        if high.is_new_best:
            out.write(f"New high score: {score}!\n")
        else:
            out.write(f"High score to beat: {high.previous_best}\n")
    return 0


def play_race(
    game: PdqGame,
    seats: list[Bot | None],
    seed: int,
    stdin: TextIO,
    out: TextIO,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """A person races bots at the terminal (the main game and its word-rule variants).

    The terminal cannot interrupt typing, so the race is settled when the word is entered: the
    time it took is the claim's time, every bot move planned before it is played first, and a
    word entered after the round was won is too late. Every row is shown, and the person's window
    is the bots' window. ``clock`` is the referee's clock (seconds).
    """
    if game.options.mode != "race":
        raise ConfigError("racing bots at the terminal is for the main game and its word rules, not PDL or Word Count")
    human = seats.index(None)
    names = ["You" if bot is None else f"{bot.name}{seat}" for seat, bot in enumerate(seats)]
    state = game.new_initial_state(seed)
    minimum = game.options.min_length_for(human)
    out.write(f"PDQ ({game.options.variant}), seed {seed}: {', '.join(names)}. Type a word ({minimum}+ letters) "
              "as fast as you can; '?' or an empty line: no word.\n")  # fmt: skip

    def run_bots(number: int, until: int | None) -> None:
        """Play the bots' (and the referee's) moves of round ``number`` up to ``until`` ms, or to its end.
        It never touches a later round: the person sees every row before anyone plays it."""
        while state.round is not None and state.round.number == number:
            event = next_move(state, seats)
            if event is None:
                return  # only the person can act now
            seat, move = event
            if until is not None and (move.time_ms or 0) > until:
                return
            _print_report(game, state.act(seat, move), out, False, names)

    while _next_row(state):
        rnd = state.round
        assert rnd is not None
        if human not in rnd.eligible:
            out.write(f"\nRound {rnd.number}: {' '.join(rnd.letters)} (a tie-break without you)\n")
            run_bots(rnd.number, None)
            continue
        out.write(f"\nRound {rnd.number} ({len(state.deck)} cards left): {' '.join(rnd.letters)}\n> ")
        out.flush()
        dealt = clock()
        while state.round is rnd:
            line = stdin.readline()
            at = max(rnd.clock_ms, int((clock() - dealt) * 1000))
            run_bots(rnd.number, at)
            if state.round is not rnd:
                out.write("  Too late!\n")
                break
            text = line.strip()
            try:
                move = NoWord(at) if text in STUMPED or not line else Claim(text, at)
                verdict = state.act(human, move)
            except IllegalMoveError as error:
                out.write(f"  {text.upper()}: {_refusal(error, game.options.word_rule)}. Try again.\n> ")
                out.flush()
                continue
            except ValueError as error:  # not a word at all; not this seat's move now
                out.write(f"  {error}\n> ")
                out.flush()
                continue
            _print_report(game, verdict, out, False, names)
            run_bots(rnd.number, None)  # nothing more for you this round: the bots and the window finish it
    _print_result(state, out, False, names, {})
    return 0

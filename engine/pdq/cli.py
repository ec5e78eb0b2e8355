"""``tablejudge play pdq``: the solo game for a person at the terminal, or a game of bots.

    tablejudge play pdq --solo --seed 3                      # type words; "?" or an empty line: stumped
    tablejudge play pdq --players 3 --bots quick,steady,slow --seed 3
    tablejudge play pdq --players 2 --bots steady --variant pdl --json
    tablejudge play pdq --bots you,quick,steady --seed 3          # race two bots yourself

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

from engine.adjudicator import LocalAdjudicator
from engine.base import option_value
from engine.errors import ConfigError, IllegalMoveError, StateError
from engine.pdq.actions import Claim, NoWord
from engine.pdq.bots import PROFILES, PdqBot, next_event, parse_bots, parse_profile, play_pdq_game
from engine.pdq.config import PRESETS, PdqOptions
from engine.pdq.game import PdqGame, PdqState
from engine.pdq.highscore import HighScores
from engine.pdq.records import Verdict
from engine.pdq.report import reason_text, round_report
from indexes import DEFAULT_LEXICON

STUMPED = {"", "?"}
#: The seat name in ``--bots`` for the person at the terminal (``--bots you,quick,steady``).
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
        help=f"one bot per seat, comma-separated ({', '.join(PROFILES)}, each optionally NAME:MS); one name fills "
        f"every seat; '{HUMAN}' in one seat races the bots yourself",
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
    parser.add_argument("--json", action="store_true", help="print each round report (and the result) as JSON")
    parser.set_defaults(run=run)


def _options(args: argparse.Namespace, players: int | None) -> PdqOptions:
    if args.solo and args.variant not in (None, "solo"):
        raise ConfigError("--solo is its own variant; leave out --variant (or use --variant solo)")
    chosen: dict[str, Any] = {}
    for item in args.option:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"--option {item!r} is not NAME=VALUE")
        if name.strip() == "variant":  # it would mix a second preset into the first (a "solo" PDL)
            raise ConfigError("choose the way to play with --variant (or --solo), not --option variant=...")
        chosen[name.strip()] = option_value(raw)
    preset = "solo" if args.solo else (args.variant or "standard")
    if players is not None:
        chosen["players"] = players
    return PdqOptions.preset(preset, **chosen)


def run(args: argparse.Namespace) -> int:
    adjudicator = LocalAdjudicator(args.lexicon)
    if args.solo:
        if args.bots or (args.players not in (None, 1)):
            raise ConfigError("--solo is one person alone: no --bots, no --players")
        game = PdqGame(_options(args, None), adjudicator)
        return play_solo(game, args.seed, sys.stdin, sys.stdout, HighScores(args.scores), as_json=args.json)
    if not args.bots:
        raise ConfigError("say who plays: --solo, or --bots NAMES (e.g. --players 3 --bots quick,steady,slow)")
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    players = args.players if args.players is not None else len(names)
    game = PdqGame(_options(args, players), adjudicator)
    if HUMAN in names:
        return play_race(game, _seats(names, game.options.players, args.seed), args.seed, sys.stdin, sys.stdout)
    bots = parse_bots(args.bots, game.options.players, args.seed)
    return play_bots(game, bots, args.seed, sys.stdout, as_json=args.json)


def _seats(names: list[str], players: int, seed: int) -> list[PdqBot | None]:
    """One seat per name: ``you`` (the person at the terminal, once) or a bot."""
    if len(names) != players:
        raise ConfigError(f"{players} players need {players} seats in --bots, got {len(names)}")
    if names.count(HUMAN) != 1:
        raise ConfigError(f"one seat can be '{HUMAN}' (the person at the terminal), not {names.count(HUMAN)}")
    return [
        None if name == HUMAN else PdqBot(parse_profile(name), seed * 1000 + seat) for seat, name in enumerate(names)
    ]


def _print_report(game: PdqGame, verdict: Verdict, out: TextIO, as_json: bool, names: list[str]) -> None:
    if verdict.finished is None:
        return
    report = round_report(game, verdict.finished)
    if as_json:
        out.write(json.dumps({"report": report.to_json()}) + "\n")
    else:
        out.write(report.text(names) + "\n\n")


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


def play_bots(game: PdqGame, bots: list[Any], seed: int, out: TextIO, as_json: bool = False) -> int:
    names = [f"{bot.name}{seat}" for seat, bot in enumerate(bots)]
    if not as_json:
        out.write(f"PDQ ({game.options.variant}), seed {seed}: {', '.join(names)}\n\n")
    state = play_pdq_game(
        game, bots, seed, on_move=lambda _s, _p, _m, verdict: _print_report(game, verdict, out, as_json, names)
    )
    _print_result(state, out, as_json, names, {})
    return 0


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
    while state.round is not None:
        rnd = state.round
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
            if text in STUMPED or not line:
                verdict = state.apply(NoWord(elapsed), player=0)
            else:
                try:
                    verdict = state.apply(Claim(text, elapsed), player=0)
                except ValueError as error:  # not a word at all (digits, punctuation): say so, ask again
                    out.write(f"  {error}\n")
                    continue
                if not verdict.accepted:
                    why = reason_text(verdict.reason, game.options.word_rule)
                    out.write(f"  {text.upper()}: {why}. {verdict.explanation}. Try again.\n")
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
    seats: list[PdqBot | None],
    seed: int,
    stdin: TextIO,
    out: TextIO,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """A person races bots at the terminal (the main game and its word-rule variants).

    The terminal cannot interrupt typing, so the race is settled when the word is entered: the
    time it took is the claim's time, every bot move planned before it is played first, and a
    word entered after the round was won is too late. ``clock`` is the referee's clock (seconds).
    """
    if game.options.mode != "race":
        raise ConfigError("racing bots at the terminal is for the main game and its word rules, not PDL or Word Count")
    human = seats.index(None)
    names = ["You" if bot is None else f"{bot.name}{seat}" for seat, bot in enumerate(seats)]
    state = game.new_initial_state(seed)
    minimum = game.options.min_length_for(human)
    out.write(f"PDQ ({game.options.variant}), seed {seed}: {', '.join(names)}. Type a word ({minimum}+ letters) "
              "as fast as you can; '?' or an empty line: no word.\n")  # fmt: skip

    def run_bots(until: int | None) -> None:
        """Play the bots' (and the referee's) moves up to ``until`` ms, or to the end of the round."""
        rnd = state.round
        while state.round is rnd and rnd is not None:
            event = next_event(state, seats)
            if event is None:
                if until is None:
                    raise StateError(f"round {rnd.number}: nobody left to end it")
                return
            player, move = event
            if until is not None and move.at_ms > until:
                return
            _print_report(game, state.apply(move, player=player), out, False, names)

    while state.round is not None:
        rnd = state.round
        if human not in rnd.eligible:
            out.write(f"\nRound {rnd.number}: {' '.join(rnd.letters)} (a tie-break without you)\n")
            run_bots(None)
            continue
        out.write(f"\nRound {rnd.number} ({len(state.deck)} cards left): {' '.join(rnd.letters)}\n> ")
        out.flush()
        dealt = clock()
        while state.round is rnd:
            line = stdin.readline()
            at = max(rnd.clock_ms, int((clock() - dealt) * 1000))
            run_bots(at)
            if state.round is not rnd:
                out.write("  Too late!\n")
                break
            text = line.strip()
            try:
                move = NoWord(at) if text in STUMPED or not line else Claim(text, at)
                verdict = state.apply(move, player=human)
            except (IllegalMoveError, ValueError) as error:  # not a word at all; a second vote
                out.write(f"  {error}\n> ")
                continue
            if not verdict.accepted:
                out.write(f"  {text.upper()}: {reason_text(verdict.reason, game.options.word_rule)}. Try again.\n> ")
                out.flush()
                continue
            _print_report(game, verdict, out, False, names)
            run_bots(None)  # nothing more for you this round: the bots and the window finish it
    _print_result(state, out, False, names, {})
    return 0

"""The engine calls a worker of the pool runs (``matches.work``), by name (:data:`JOBS`); with a pool of
size 0 the caller runs them itself. Each takes the game first, then plain values (a state as JSON, moves
as text), so that a call and its answer cross to a worker process as a pickle."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from engine.adjudicator import HouseRulesAdjudicator
from engine.base import Game, State
from engine.bots import Bot, make_bot, next_move
from engine.errors import ConfigError
from engine.registry import game_class
from engine.table import edit
from engine.values import CHANCE, JsonDict, Move
from indexes.house_rules import HouseRules
from indexes.paths import DEFAULT_LEXICON

#: A game as a worker builds it: (name, options as sorted JSON, lexicon, house rules as
#: (name, allow, deny) or None). Plain values, so that it crosses to a worker and keys its cache.
GameKey = tuple[str, str, str | None, tuple[str, tuple[str, ...], tuple[str, ...]] | None]
#: A bot seat as a worker makes its bot: (bot name, seed); None for a seat no bot plays.
BotSeat = tuple[str, int] | None


def build_game(name: str, options: JsonDict, lexicon: str | None, rules: HouseRules | None) -> Game[Any, Any, Any]:
    """The game a match plays; a word game under house rules is judged by them."""
    cls = game_class(name)
    if cls.word_questions and rules is not None:
        return cls(options, adjudicator=HouseRulesAdjudicator(rules, lexicon or DEFAULT_LEXICON))
    return cls(options, lexicon=lexicon if cls.word_questions else None)


def game_key(name: str, options: JsonDict, lexicon: str | None, rules: HouseRules | None) -> GameKey:
    held = None if rules is None else (rules.name, tuple(rules.allow), tuple(rules.deny))
    return (name, json.dumps(options, sort_keys=True), lexicon, held)


def game_from_key(key: GameKey) -> Game[Any, Any, Any]:
    name, options, lexicon, held = key
    rules = None if held is None else HouseRules.make(held[0], held[1], held[2])
    return build_game(name, json.loads(options), lexicon, rules)


def seat_bots(game: Game[Any, Any, Any], seats: Sequence[BotSeat]) -> list[Bot | None]:
    return [None if seat is None else bot_or_greedy(seat[0], seat[1], game) for seat in seats]


def bot_or_greedy(name: str, seed: int, game: Game[Any, Any, Any]) -> Bot:
    """The bot called ``name``; a name the server no longer makes (stored before a limit, such as a
    ``planner:999999999`` from before ``MAX_PLANNER_GAMES``) plays as the greedy bot, the same in
    every process, rather than stopping the bots of every seat."""
    try:
        return make_bot(name, seed, game)
    except ConfigError:
        return make_bot("greedy", seed, game)


def bot_move(game: Game[Any, Any, Any], state: JsonDict, seats: Sequence[BotSeat]) -> tuple[int, Move] | None:
    """``engine.bots.next_move`` for the bots of ``seats`` (each made from its name and seed)."""
    return next_move(game.state_from_json(state), seat_bots(game, seats))


def legal_moves(game: Game[Any, Any, Any], state: JsonDict, seat: int, limit: int) -> tuple[int, list[str]]:
    """How many legal moves ``seat`` has, and the first ``limit`` as text."""
    moves = game.state_from_json(state).legal_moves(seat)
    return len(moves), [move.to_text() for move in moves[:limit]]


def turns_of(
    game: Game[Any, Any, Any], seed: int | None, moves: Sequence[tuple[int, str]], seat: int | None, over: bool
) -> JsonDict:
    """Every move with its version, breakdown, the scores after it (as ``seat`` saw them then; every
    line once the match is over) and the chance outcomes that followed it: the score sheet."""
    state = game.new_initial_state(seed)
    steps: list[JsonDict] = []
    for mover, text in moves:
        breakdown = state.act(mover, text)
        scores = list(state.scores()) if over else state.shown_scores(seat)
        steps.append({"version": state.version, "seat": mover, "breakdown": breakdown.to_json(), "scores": scores})
    shown = state.public_history(seat)
    acts = acted(state)
    ends = [*acts[1:], len(shown)] if acts else []
    for step, index, following in zip(steps, acts, ends, strict=True):
        step["move"] = shown[index][1]
        step["chance"] = [text for _, text in shown[index + 1 : following]]
    opening = [text for _, text in shown[: acts[0] if acts else len(shown)]]
    return {"version": state.version, "opening": opening, "turns": steps}


def turns_json(
    game: Game[Any, Any, Any], match_id: str, seed: int | None, moves: Sequence[tuple[int, str]], seat: int | None,
    over: bool,
) -> bytes:
    """:func:`turns_of` as the JSON answer of ``GET /turns``: encoded here, so that the server neither
    unpickles nor encodes a long match's sheet (tens of milliseconds of its event loop at 7,000 moves)."""
    return orjson.dumps({"match": match_id, **turns_of(game, seed, moves, seat, over)})


def checkpoints(
    game: Game[Any, Any, Any],
    seed: int | None,
    start: bytes | None,
    moves: Sequence[tuple[int, str]],
    every: int,
) -> list[tuple[int, bytes]]:
    """The state every ``every`` versions (as compact JSON) while ``moves`` are replayed from ``start``
    (a state as JSON; None: the seed): where a replay's steps start from, so that none replays more
    than ``every``."""
    state = game.new_initial_state(seed) if start is None else game.state_from_json(json.loads(start))
    kept: list[tuple[int, bytes]] = []
    for mover, text in moves:
        state.act(mover, text)
        if state.version % every == 0:
            kept.append((state.version, json.dumps(state.to_json(), separators=(",", ":")).encode()))
    return kept


def _replayed(
    game: Game[Any, Any, Any], seed: int | None, start: bytes | None, moves: Sequence[tuple[int, str]]
) -> Any:
    state = game.new_initial_state(seed) if start is None else game.state_from_json(json.loads(start))
    for mover, text in moves:
        state.act(mover, text)
    return state


def replay_step(
    game: Game[Any, Any, Any], seed: int | None, start: bytes | None, moves: Sequence[tuple[int, str]]
) -> JsonDict:
    """A replay's step: ``moves`` played from ``start`` (a kept state as JSON; None: the seed), and the
    spectator's view there (without its history), with the last move as a spectator saw it."""
    state = _replayed(game, seed, start, moves)
    view = state.view(None)
    view.pop("history", None)
    seat, move = None, None
    if state.version:
        index = act_index(state, state.version)
        seat, move = state.history[index][0], state.public_history(None, index)[0][1]
    return {"version": state.version, "seat": seat, "move": move, "view": view}


def review_at(
    game: Game[Any, Any, Any], seed: int | None, start: bytes | None, moves: Sequence[tuple[int, str]],
    subject: int | None,
) -> JsonDict:
    """The review (``State.review``) of ``subject`` (None: the first seat that could act) at the position
    ``moves`` lead to from ``start``, and that position's clock epoch (whether it is behind the table)."""
    state = _replayed(game, seed, start, moves)
    if subject is None:
        subject = next((seat for seat in state.acting_players() if seat >= 0), 0)
    return {"epoch": state.clock_epoch(), "seat": subject, "review": state.review(subject)}


def best_plays(game: Game[Any, Any, Any], seed: int, moves: Sequence[tuple[int, str]]) -> dict[int, tuple[int, int]]:
    """Each seat's single best-scoring move over a whole match: its points and version (the first of equal
    ones; a seat with no move has none). What a table's league keeps of a finished match."""
    state = game.new_initial_state(seed)
    best: dict[int, tuple[int, int]] = {}
    for mover, text in moves:
        points = state.act(mover, text).total
        if mover >= 0 and (mover not in best or points > best[mover][0]):
            best[mover] = (points, state.version)
    return best


def last_breakdown(
    game: Game[Any, Any, Any], seed: int, start: bytes | None, moves: Sequence[tuple[int, str]]
) -> JsonDict:
    """The breakdown of the last of ``moves``, played from ``start`` (a kept state as JSON; None: the seed):
    what a device's list of games says of a match's last move."""
    state = _replayed(game, seed, start, moves[:-1])
    mover, text = moves[-1]
    return state.act(mover, text).to_json()


def act_index(state: State[Any], version: int) -> int:
    """Where move ``version`` (counted from 1, chance draws not counted) is in ``state.history``."""
    return acted(state)[version - 1]


def acted(state: State[Any]) -> list[int]:
    """Where in ``state.history`` each move made through ``act`` is, in order (version 1 first): every entry
    but the chance draws a seeded state made itself. A state without a seed draws nothing itself: its chance
    entries were made through ``act`` too (a table's set-up, the cards it turned up)."""
    if state.seed is None:
        return list(range(len(state.history)))
    return [index for index, (seat, _) in enumerate(state.history) if seat != CHANCE]


def table_edit(
    game: Game[Any, Any, Any], seed: int | None, entries: Sequence[tuple[int, str]], index: int,
    replacement: tuple[int, str] | None, insert: bool,
) -> JsonDict:  # fmt: skip
    """A table game's entries with one replaced, removed or inserted (``engine.table.edit``), checked and scored
    again from the set-up: the entries as they now stand, how many the state holds, the first that no longer
    fits (with its history index), if any, and whether the game is over."""
    done = edit(game, entries, index, replacement, insert=insert, seed=seed)
    flag = None if done.flagged is None else done.flagged.to_json()
    edited = [list(entry) for entry in done.entries]
    return {"entries": edited, "applied": done.applied, "flag": flag, "over": done.state.is_terminal()}


#: What a worker can be asked, by name (the first argument of each is the game).
JOBS: dict[str, Callable[..., Any]] = {
    "bot": bot_move,
    "legal": legal_moves,
    "turns": turns_json,
    "checkpoints": checkpoints,
    "replay_step": replay_step,
    "review_at": review_at,
    "table_edit": table_edit,
    "best_plays": best_plays,
    "last_breakdown": last_breakdown,
}

"""What the engines' tests share about refusals: a refused move names its rule and changes nothing (a state's
``act``, or a rule function and what it was handed); the check that a game's ``RULINGS.md`` table and its
``test_ruling_NN_...`` tests name each other, numbered 1, 2, 3, ...; and the positions a ruling on a seat that
leaves is tried on (``played_until``, ``ahead``)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.base import State
from engine.bots import GreedyBot, next_move
from engine.errors import EngineError, IllegalMoveError
from engine.values import Outcome

ROOT = Path(__file__).resolve().parents[2]


def refusal(call: Callable[..., Any], *args: Any, **kwargs: Any) -> IllegalMoveError:
    """The IllegalMoveError ``call(*args, **kwargs)`` raises (it must raise one), having changed nothing it was
    handed: each argument that compares by value is compared with a deep copy made before the call."""
    handed = [value for value in (*args, *kwargs.values()) if type(value).__eq__ is not object.__eq__]
    before = copy.deepcopy(handed)
    with pytest.raises(IllegalMoveError) as caught:
        call(*args, **kwargs)
    assert handed == before, "a refusal changes nothing it was handed"
    return caught.value


def rule_of(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """The rule of the IllegalMoveError ``call(*args, **kwargs)`` raises (it must raise one, changing nothing)."""
    return refusal(call, *args, **kwargs).rule


def refused(rule: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> IllegalMoveError:
    """``call(*args, **kwargs)`` raises an IllegalMoveError for ``rule``, changing nothing; the error, for its
    message."""
    error = refusal(call, *args, **kwargs)
    assert error.rule == rule, f"refused by {error.rule!r} ({error}), not {rule!r}"
    return error


def refused_move(
    state: State[Any], seat: int, move: Any, rule: str | None = None, error: type[EngineError] = IllegalMoveError
) -> EngineError:
    """``state.act(seat, move)`` raises ``error`` (an IllegalMoveError for ``rule``, when given) and leaves the state
    exactly as it was, saved form and all; the error."""
    before = state.to_json()
    with pytest.raises(error) as caught:
        state.act(seat, move)
    if rule is not None:
        assert getattr(caught.value, "rule", None) == rule, f"refused by {caught.value!r}, not {rule!r}"
    assert state.to_json() == before, "a refused move changes nothing"
    return caught.value


def check_rulings_table(game: str, names: Iterable[str]) -> None:
    """``engine/GAME/RULINGS.md`` names exactly the ``test_ruling_...`` tests among ``names`` (a test
    module's globals), its rows are numbered from 1 in order, and each row's test carries its number."""
    table = (ROOT / "engine" / game / "RULINGS.md").read_text()
    named = set(re.findall(r"`(test_ruling_\w+)`", table))
    assert named == {name for name in names if name.startswith("test_ruling_")}
    numbers = [int(n) for n in re.findall(r"^\| (\d+) \|", table, flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(any(name.startswith(f"test_ruling_{n:02d}_") for name in named) for n in numbers)


def played_until(state: State[Any], until: Callable[[State[Any]], bool], most: int = 600) -> State[Any]:
    """``state`` played on by greedy bots (each seeded by its seat) until ``until(state)`` holds; the game must
    still run then (a ruling on a game stopped early is tried on a game that has not ended)."""
    bots = [GreedyBot(seat) for seat in range(state.game.players)]
    for _ in range(most):
        if until(state):
            return state
        chosen = next_move(state, bots)
        assert chosen is not None and not state.is_terminal(), "the game ended before the position looked for"
        state.act(*chosen)
    raise AssertionError(f"no such position within {most} moves")


def ahead(state: State[Any]) -> int | None:
    """The one seat ahead of every other by the game's own measure (``State.standing``), None on a tie."""
    standing = state.standing()
    best = max(standing)
    leaders = [seat for seat, value in enumerate(standing) if value == best]
    return leaders[0] if len(leaders) == 1 else None


def finished(state: State[Any], most: int = 5000) -> State[Any]:
    """``state`` played to its end by greedy bots (each seeded by its seat)."""
    bots = [GreedyBot(seat) for seat in range(state.game.players)]
    for _ in range(most):
        if state.is_terminal():
            return state
        chosen = next_move(state, bots)
        assert chosen is not None
        state.act(*chosen)
    raise AssertionError(f"the game did not end within {most} moves")


def check_leaving(state: State[Any], stopped: Sequence[int], end: State[Any] | None = None) -> None:
    """What every game's ruling on a seat that leaves shares (``State.forfeit_outcome``), tried on ``state``: a game
    that runs, with one seat ahead. The leader leaves: the game stops with ``stopped`` as its scores (each game's
    ruling says what they are), and the win goes to the best of the others by ``standing`` (equal best share); with
    every seat gone nobody wins. Played on to its end (or ``end``, a finished game), the game's own scores stand,
    a leaving winner's win passes to the best of the others, and with nobody gone the game's own winners win
    (``standing`` agrees with ``outcome``)."""
    leader = ahead(state)
    assert leader is not None and not state.is_terminal()
    before = state.to_json()
    why = f"player {leader} resigned"
    outcome = state.forfeit_outcome({leader}, why)
    assert state.to_json() == before, "asking changes nothing"
    standing = state.standing()
    others = [seat for seat in range(state.game.players) if seat != leader]
    best = max(standing[seat] for seat in others)
    assert outcome == Outcome(tuple(stopped), tuple(seat for seat in others if standing[seat] == best), why)
    assert leader not in outcome.winners and standing[leader] > best
    assert state.forfeit_outcome(range(state.game.players), "abandoned").winners == ()
    end = finished(state.clone()) if end is None else end
    final = end.outcome()
    assert final is not None
    assert end.forfeit_outcome((), "over").winners == final.winners
    winner = final.winners[0]
    passed = end.forfeit_outcome({winner}, f"player {winner} resigned")
    rest = [seat for seat in range(end.game.players) if seat != winner]
    top = max(end.standing()[seat] for seat in rest)
    assert passed.scores == final.scores and passed.winners == tuple(s for s in rest if end.standing()[s] == top)

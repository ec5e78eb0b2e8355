"""What the engines' tests share about refusals: a refused move names its rule and changes nothing (a state's
``act``, or a rule function and what it was handed), and the check that a game's ``RULINGS.md`` table and its
``test_ruling_NN_...`` tests name each other, numbered 1, 2, 3, ..."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.base import State
from engine.errors import EngineError, IllegalMoveError

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

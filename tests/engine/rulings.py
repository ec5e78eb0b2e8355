"""What the engines' rulings tests share: the rule a refused move names, and the check that a game's
``RULINGS.md`` table and its ``test_ruling_NN_...`` tests name each other, numbered 1, 2, 3, ..."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.errors import IllegalMoveError

ROOT = Path(__file__).resolve().parents[2]


def rule_of(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """The rule of the IllegalMoveError ``call(*args, **kwargs)`` raises (it must raise one)."""
    with pytest.raises(IllegalMoveError) as caught:
        call(*args, **kwargs)
    return caught.value.rule


def check_rulings_table(game: str, names: Iterable[str]) -> None:
    """``engine/GAME/RULINGS.md`` names exactly the ``test_ruling_...`` tests among ``names`` (a test
    module's globals), its rows are numbered from 1 in order, and each row's test carries its number."""
    table = (ROOT / "engine" / game / "RULINGS.md").read_text()
    named = set(re.findall(r"`(test_ruling_\w+)`", table))
    assert named == {name for name in names if name.startswith("test_ruling_")}
    numbers = [int(n) for n in re.findall(r"^\| (\d+) \|", table, flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(any(name.startswith(f"test_ruling_{n:02d}_") for name in named) for n in numbers)

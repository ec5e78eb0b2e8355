"""The shared refusal checks (``tests/engine/rulings.py``) can fail: a refusal that changed what it was handed, or
named another rule, or a refused move that changed the state, is caught."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalMoveError
from tests.engine.rulings import refusal, refused, refused_move, rule_of


def spoils(board: dict[str, int], code: str = "occupied") -> None:
    board["spoiled"] = 1
    raise IllegalMoveError(code, "refused, after writing on the board")


def refuses(board: dict[str, int], code: str = "occupied") -> None:
    raise IllegalMoveError(code, "refused")


def test_a_refusal_that_changes_what_it_was_handed_is_caught() -> None:
    assert refusal(refuses, {"a": 1}).rule == "occupied"
    with pytest.raises(AssertionError, match="changes nothing it was handed"):
        refusal(spoils, {"a": 1})
    with pytest.raises(AssertionError, match="changes nothing it was handed"):
        rule_of(spoils, board={"a": 1})


def test_a_refusal_for_another_rule_is_caught() -> None:
    assert str(refused("gap", refuses, {}, code="gap")) == "refused"
    with pytest.raises(AssertionError, match="refused by 'occupied'"):
        refused("gap", refuses, {})


class Counter:
    """Just enough of a state for the gate's check: a saved form, and a move that may change it."""

    def __init__(self, careless: bool) -> None:
        self.count = 0
        self.careless = careless

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count}

    def act(self, seat: int, move: str) -> None:
        if self.careless:
            self.count += 1
        raise IllegalMoveError("not_now", f"player {seat} may not {move} now")


def test_a_refused_move_that_changes_the_state_is_caught() -> None:
    assert refused_move(Counter(careless=False), 0, "count", "not_now").rule == "not_now"  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="changes nothing"):
        refused_move(Counter(careless=True), 0, "count")  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="not 'other'"):
        refused_move(Counter(careless=False), 0, "count", "other")  # type: ignore[arg-type]

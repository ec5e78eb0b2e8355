"""Turn clocks (``matches.clock``): what a create body may ask for, deadlines as stored times, the lag
allowance, a chess clock's banks, and what a body shows of them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.clock import GRACE, MAX_SECONDS, Clock
from matches.errors import BadRequest


@pytest.mark.parametrize("asked", [None, {}])
def test_no_clock_asked_is_no_clock(asked: Any) -> None:
    assert Clock.from_request(asked) is None


@pytest.mark.parametrize(
    ("asked", "says"),
    [
        ([60], "must be an object"),
        ({"turn_seconds": 60, "bank": 5}, "unknown field(s) bank"),
        ({"turn_seconds": True}, "turn_seconds must be a number"),
        ({"turn_seconds": "60"}, "turn_seconds must be a number"),
        ({"total_seconds": MAX_SECONDS + 1}, "total_seconds must be a number"),
        ({"turn_seconds": -1}, "turn_seconds must be a number"),
        ({"turn_seconds": 60, "total_seconds": 300}, "not both"),
        ({"increment_seconds": 5}, "not both"),
        ({"turn_seconds": 0.5}, "at least one second"),
        ({"total_seconds": 0}, "at least one second"),
        ({"turn_seconds": 60, "increment_seconds": 5}, "increment_seconds goes with total_seconds"),
    ],
)
def test_a_clock_the_server_cannot_keep_is_refused_in_words(asked: Any, says: str) -> None:
    with pytest.raises(BadRequest, match="clock") as refused:
        Clock.from_request(asked)
    assert says in str(refused.value)


@pytest.mark.parametrize("asked", [{"turn_seconds": 60}, {"total_seconds": 300, "increment_seconds": 5}])
def test_a_clock_is_stored_as_it_was_asked_for(asked: dict[str, Any]) -> None:
    clock = Clock.from_request(asked)
    assert clock is not None
    assert Clock.from_request(clock.to_json()) == clock
    assert clock.to_json() == ({**asked, "increment_seconds": 5.0} if "total_seconds" in asked else asked)


def test_a_turn_clock_gives_each_waiting_seat_its_turn_and_forgives_network_lag() -> None:
    clock = Clock(turn=30)
    state = clock.start([0, 2], now=100.0)
    assert state["deadline"] == 130.0 and state["running"] == [0, 2]
    assert clock.expired(state, 130.0 + GRACE / 2) == []  # just after the deadline: the network's lag
    assert clock.expired(state, 130.0 + GRACE) == [0, 2]
    after = clock.after_move(state, 0, [2], now=110.0)
    assert after["deadline"] == 140.0 and after["running"] == [2]  # a fresh turn from the move


def test_nobody_waiting_stops_the_clock() -> None:
    clock = Clock(turn=30)
    state = clock.after_move(clock.start([0], now=0.0), 0, [], now=5.0)
    assert state["deadline"] is None and clock.expired(state, 10_000.0) == []


def test_a_bank_runs_only_while_its_seat_is_waited_for_and_grows_by_the_increment() -> None:
    clock = Clock(total=60, increment=5)
    state = clock.start([0], now=0.0, seats=2)
    assert state["banks"] == [60.0, 60.0] and state["deadline"] == 60.0
    state = clock.after_move(state, 0, [1], now=10.0)  # seat 0 thought 10 s, then gained 5
    assert state["banks"] == [55.0, 60.0] and state["deadline"] == 70.0
    state = clock.after_move(state, 1, [0, 1], now=30.0)  # both waited for: the first bank to run out
    assert state["banks"] == [55.0, 45.0] and state["deadline"] == 75.0
    assert clock.expired(state, 75.0 + GRACE - 0.01) == []
    assert clock.expired(state, 75.0 + GRACE) == [1]  # seat 0 still has 10 s


def test_a_body_shows_the_deadline_the_banks_left_and_the_servers_time() -> None:
    clock = Clock(total=60, increment=0)
    state = clock.start([1], now=1000.0, seats=2)
    shown = clock.public(state, now=1010.25)
    assert shown == {"total_seconds": 60, "increment_seconds": 0.0, "deadline_ms": 1_060_000, "running": [1],
                     "banks_ms": [60_000, 49_750], "now_ms": 1_010_250}  # fmt: skip
    assert clock.public(state, now=2000.0)["banks_ms"] == [60_000, 0]  # never below nothing
    waiting = Clock(turn=20).public(None, now=5.0)
    assert waiting == {"turn_seconds": 20, "deadline_ms": None, "running": [], "banks_ms": None, "now_ms": 5000}


@given(
    total=st.integers(1, 600),
    increment=st.integers(0, 30),
    thinking=st.lists(st.floats(0, 100, allow_nan=False), min_size=1, max_size=12),
)
def test_a_bank_is_what_it_started_with_less_the_time_used_plus_the_increments(
    total: int, increment: int, thinking: list[float]
) -> None:
    """Two seats taking turns: each bank is exactly its start, less its own thinking, plus an increment a move."""
    clock = Clock(total=total, increment=increment)
    now, seat = 0.0, 0
    state = clock.start([seat], now=now, seats=2)
    used, moves = [0.0, 0.0], [0, 0]
    for spent in thinking:
        now += spent
        used[seat] += spent
        moves[seat] += 1
        seat = 1 - seat
        state = clock.after_move(state, 1 - seat, [seat], now=now)
    for each in (0, 1):
        assert state["banks"][each] == pytest.approx(total - used[each] + increment * moves[each])
    assert state["deadline"] == pytest.approx(now + max(0.0, state["banks"][seat]))

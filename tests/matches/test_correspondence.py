"""Correspondence clocks (``matches.correspondence``): what a create body may ask for, each move's deadline and
grace, the reminders (each once, at its time), a vacation (once, up to 7 days, paused and resumed), the
downtime shift, and what a body shows: arithmetic on the stored state and the time it is handed."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.correspondence import DAY, HALF, HOUR, LAG, LATE, LEFT_HOUR, Correspondence, shift
from matches.errors import BadRequest, VacationRefused

THREE = Correspondence(days=3, grace_days=3)


@pytest.mark.parametrize("days", [1, 2, 3, 7, 14])
def test_each_period_is_offered_with_one_more_period_of_grace_by_default(days: int) -> None:
    clock = Correspondence.from_request({"days_per_move": days})
    assert clock == Correspondence(days, days) and Correspondence.from_request(clock.to_json()) == clock
    assert clock.to_json() == {"days_per_move": days, "grace_days": days}


@pytest.mark.parametrize(
    ("asked", "says"),
    [
        ({"days_per_move": 4}, "one of 1, 2, 3, 7, 14"),
        ({"days_per_move": True}, "one of"),
        ({"days_per_move": "3"}, "one of"),
        ({"days_per_move": 3.0001}, "one of"),
        ({"days_per_move": 3, "grace_days": -1}, "grace_days is a whole number"),
        ({"days_per_move": 3, "grace_days": 15}, "grace_days is a whole number"),
        ({"days_per_move": 3, "grace_days": 1.5}, "grace_days is a whole number"),
        ({"days_per_move": 3, "turn_seconds": 60}, "unknown field(s) turn_seconds"),
    ],
)
def test_a_correspondence_clock_the_server_does_not_offer_is_refused_in_words(asked: Any, says: str) -> None:
    with pytest.raises(BadRequest, match="clock") as refused:
        Correspondence.from_request(asked)
    assert says in str(refused.value)


def test_each_move_has_its_days_then_the_grace_and_the_server_acts_once_both_are_up() -> None:
    state = THREE.start([1], now=0.0)
    assert THREE.deadline(state, 1) == 3 * DAY and THREE.acts_at(state, 1) == 6 * DAY
    assert THREE.expired(state, 6 * DAY) == []  # the network's lag is forgiven
    assert THREE.expired(state, 6 * DAY + LAG) == [1]
    no_grace = Correspondence(days=3, grace_days=0)
    assert no_grace.expired(no_grace.start([1], 0.0), 3 * DAY + LAG) == [1]


def test_a_seat_still_waited_for_keeps_its_deadline_and_a_new_move_begins_at_the_move() -> None:
    state = THREE.start([0, 1], now=0.0)  # everyone at once (Qwiply's set-up)
    after = THREE.after_move(state, 0, [1, 2], now=DAY)
    assert THREE.deadline(after, 1) == 3 * DAY  # still its first move: no fresh days for waiting on others
    assert THREE.deadline(after, 2) == 4 * DAY and after["running"] == [1, 2]
    again = THREE.after_move(after, 1, [1], now=2 * DAY)  # a move that earns another turn (D!Git)
    assert THREE.deadline(again, 1) == 5 * DAY and THREE.after_move(again, 1, [], 2 * DAY)["deadline"] is None


def test_reminders_come_at_half_time_an_hour_left_and_the_deadline_each_once() -> None:
    state = THREE.start([0], now=0.0)
    assert THREE.reminders(state, 1.5 * DAY - 1) == [] and state["deadline"] == 1.5 * DAY
    assert THREE.reminders(state, 1.5 * DAY) == [(0, HALF)]
    state = THREE.reminded(state, [(0, HALF)])
    assert THREE.reminders(state, 2 * DAY) == [] and state["deadline"] == 3 * DAY - HOUR
    assert THREE.reminders(state, 3 * DAY - HOUR) == [(0, LEFT_HOUR)]
    state = THREE.reminded(state, [(0, LEFT_HOUR)])
    assert state["deadline"] == 3 * DAY and THREE.reminders(state, 3 * DAY) == [(0, LATE)]
    state = THREE.reminded(state, [(0, LATE)])
    assert state["deadline"] == 6 * DAY and THREE.reminders(state, 6 * DAY - 1) == []
    assert THREE.reminders(state, 6 * DAY) == []  # out of time: the table's choice, not a reminder
    # Without a grace there is no "late": the hour's reminder is the last.
    bare = Correspondence(days=1, grace_days=0)
    told = bare.reminded(bare.start([0], 0.0), [(0, LEFT_HOUR)])
    assert told["deadline"] == DAY and bare.reminders(told, DAY) == []


def test_a_server_that_comes_late_sends_one_reminder_the_latest_due_and_marks_the_earlier_sent() -> None:
    state = THREE.start([0, 1], now=0.0)
    assert THREE.reminders(state, 3 * DAY - 1) == [(0, LEFT_HOUR), (1, LEFT_HOUR)]
    state = THREE.reminded(state, [(0, LEFT_HOUR)])
    assert state["moves"]["0"]["sent"] == [HALF, LEFT_HOUR] and THREE.reminders(state, 3 * DAY - 1) == [(1, LEFT_HOUR)]


def test_a_new_move_is_reminded_afresh() -> None:
    state = THREE.reminded(THREE.start([0], 0.0), [(0, LATE)])
    after = THREE.after_move(THREE.after_move(state, 0, [1], 4 * DAY), 1, [0], 5 * DAY)
    assert after["moves"]["0"]["sent"] == [] and THREE.reminders(after, 6.5 * DAY) == [(0, HALF)]


def test_a_vacation_pauses_a_running_move_and_resuming_early_gives_back_the_unused_days() -> None:
    state = THREE.reminded(THREE.start([0], now=0.0), [(0, HALF)])
    paused = THREE.pause(state, 0, 7, now=2 * DAY)
    assert THREE.deadline(paused, 0) == 10 * DAY and THREE.acts_at(paused, 0) == 13 * DAY
    assert THREE.expired(paused, 6 * DAY + LAG) == [] and THREE.reminders(paused, 9 * DAY) == []
    assert THREE.public(paused, 3 * DAY)["vacations"] == {"0": {"until_ms": int(9 * DAY * 1000), "used": True}}
    back = THREE.resume(paused, 0, now=4 * DAY)  # two of the seven days used: the move has 1 day left
    assert THREE.deadline(back, 0) == 5 * DAY
    assert THREE.public(back, 4 * DAY)["vacations"] == {"0": {"until_ms": None, "used": True}}
    with pytest.raises(VacationRefused) as refused:
        THREE.resume(back, 0, now=4 * DAY)
    assert refused.value.extra == {"reason": "not_on_vacation"}


def test_a_move_made_on_vacation_ends_it() -> None:
    paused = THREE.pause(THREE.start([0], now=0.0), 0, 5, now=DAY)
    moved = THREE.after_move(paused, 0, [1], now=2 * DAY)
    assert moved["vacations"]["0"] == {"from": DAY, "until": 2 * DAY}
    assert THREE.deadline(THREE.after_move(moved, 1, [0], 3 * DAY), 0) == 6 * DAY  # no pause left


def test_a_move_that_begins_on_vacation_begins_when_it_ends() -> None:
    state = THREE.start([1], now=0.0)
    paused = THREE.pause(state, 0, 4, now=DAY)  # player 0 is away while player 1 thinks
    turn = THREE.after_move(paused, 1, [0], now=2 * DAY)
    assert THREE.deadline(turn, 0) == 5 * DAY + 3 * DAY
    assert THREE.deadline(THREE.after_move(turn, 0, [1], 6 * DAY), 1) == 9 * DAY


@pytest.mark.parametrize("days", [0, 8, True, 2.5, "3"])
def test_a_vacation_is_one_to_seven_whole_days(days: Any) -> None:
    with pytest.raises(BadRequest, match="1 to 7"):
        THREE.pause(THREE.start([0], 0.0), 0, days, now=0.0)


def test_a_vacation_is_once_a_match_and_not_when_the_time_is_up() -> None:
    state = THREE.start([0, 1], now=0.0)
    once = THREE.resume(THREE.pause(state, 0, 1, now=0.0), 0, now=DAY / 2)
    with pytest.raises(VacationRefused) as refused:
        THREE.pause(once, 0, 1, now=DAY)
    assert refused.value.extra == {"reason": "used"}
    with pytest.raises(VacationRefused) as late:
        THREE.pause(state, 1, 1, now=3 * DAY)  # in the grace
    assert late.value.extra == {"reason": "time_up"}
    assert THREE.pause(state, 1, 1, now=3 * DAY - 1)["vacations"]["1"]["until"] == 4 * DAY - 1


def test_a_restarts_downtime_moves_every_time_on() -> None:
    state = THREE.pause(THREE.start([0, 1], now=0.0), 1, 2, now=DAY)
    moved = shift(state, 100.0)
    assert THREE.deadline(moved, 0) == 3 * DAY + 100 and THREE.deadline(moved, 1) == 5 * DAY + 100
    assert moved["vacations"]["1"] == {"from": DAY + 100, "until": 3 * DAY + 100}
    assert moved["deadline"] == state["deadline"] + 100 and THREE.next_event(moved) == moved["deadline"]


def test_a_body_shows_the_soonest_deadline_each_seats_and_when_the_server_acts() -> None:
    state = THREE.after_move(THREE.start([0], now=0.0), 0, [0, 1], now=DAY)
    shown = THREE.public(state, 1.5 * DAY)
    assert shown["deadline_ms"] == int(4 * DAY * 1000) and shown["now_ms"] == int(1.5 * DAY * 1000)
    assert shown["deadlines_ms"] == {"0": int(4 * DAY * 1000), "1": int(4 * DAY * 1000)}
    assert shown["acts_at_ms"]["1"] == int(7 * DAY * 1000) and shown["days_per_move"] == 3
    assert THREE.public(None, 0.0)["deadline_ms"] is None


#: Things that happen to a two-seat match: a move by a seat, a reminder sent, a vacation taken or ended.
EVENTS = st.lists(
    st.tuples(st.sampled_from(["move", "remind", "pause", "resume"]), st.integers(0, 1), st.floats(0, 4 * DAY)),
    max_size=12,
)


@settings(max_examples=100, deadline=None)
@given(EVENTS)
def test_nothing_falls_due_before_the_next_event_and_something_does_at_it(events: list[Any]) -> None:
    clock, now = Correspondence(days=2, grace_days=1), 0.0
    state = clock.start([0], now)
    for kind, seat, wait in events:
        now += wait
        if clock.expired(state, now):
            break
        if kind == "move" and seat in state["running"]:
            state = clock.after_move(state, seat, [1 - seat], now)
        elif kind == "remind":
            state = clock.reminded(state, clock.reminders(state, now))
        elif kind in ("pause", "resume"):
            with contextlib.suppress(VacationRefused):
                state = clock.pause(state, seat, 3, now) if kind == "pause" else clock.resume(state, seat, now)
        at = clock.next_event(state)
        assert at == state["deadline"] and at is not None
        if at > now:  # (a reminder left unsent is due already)
            assert clock.reminders(state, at - 1e-3) == [] and clock.expired(state, at - 1e-3) == []
        assert clock.reminders(state, max(at, now)) or clock.expired(state, max(at, now) + LAG)

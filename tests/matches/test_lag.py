"""Lag compensation (``matches/lag.py``): what a phone's time for a claim may say, given the round
trips the server measured on its connection."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import IllegalMoveError, StaleVersionError
from matches.lag import (
    MARGIN_MS,
    MAX_ALLOWANCE_MS,
    PENDING_PINGS,
    REFEREE_GRACE_MS,
    SAMPLES,
    STORE_STEP_MS,
    UNMEASURED_RTT_MS,
    LagBook,
    allowance_ms,
    judge_time,
    stated_ms,
)
from matches.service import MatchService
from matches.store import SCHEMA_VERSION, open_store
from tests.matches.conftest import FakeClock, in_process, sqlite_made_at

times = st.integers(0, 120_000)
allowances = st.integers(0, MAX_ALLOWANCE_MS)


@given(elapsed=times, lag=st.integers(0, MAX_ALLOWANCE_MS), allowance=allowances)
def test_an_honest_phone_within_the_allowance_keeps_its_own_time(elapsed: int, lag: int, allowance: int) -> None:
    """A phone whose cards and claim together spent ``lag`` ms on the way: its time is taken as it
    says whenever the lag is within the allowance, and refused otherwise."""
    phone = max(0, elapsed - lag)
    if elapsed - phone <= allowance:
        assert judge_time(phone, elapsed, allowance) == phone
    else:
        with pytest.raises(IllegalMoveError) as refused:
            judge_time(phone, elapsed, allowance)
        assert refused.value.rule == "too_fast"
        assert refused.value.details["earliest_ms"] == elapsed - allowance > phone


@given(phone=st.one_of(st.none(), times), elapsed=times, allowance=allowances)
def test_a_taken_time_is_never_later_than_the_arrival_nor_earlier_than_the_allowance(
    phone: int | None, elapsed: int, allowance: int
) -> None:
    try:
        taken = judge_time(phone, elapsed, allowance)
    except IllegalMoveError:
        assert phone is not None and phone < elapsed - allowance
        return
    assert elapsed - allowance <= taken <= elapsed
    assert taken == (elapsed if phone is None else min(phone, elapsed))


def test_the_edges() -> None:
    assert judge_time(2300, 3000, 700) == 2300  # exactly the allowance: taken
    with pytest.raises(IllegalMoveError):
        judge_time(2299, 3000, 700)  # one ms faster than the connection allows
    assert judge_time(9999, 3000, 700) == 3000  # later than the arrival: the arrival
    assert judge_time(None, -5, 700) == 0


@given(round_trips=st.lists(st.integers(0, 60_000), max_size=8))
def test_the_allowance_follows_the_slowest_round_trip_with_a_margin_and_a_cap(round_trips: list[int]) -> None:
    allowed = allowance_ms(round_trips)
    largest = max(round_trips, default=UNMEASURED_RTT_MS)
    assert allowed == min(MAX_ALLOWANCE_MS, largest + MARGIN_MS)
    assert all(allowed >= min(MAX_ALLOWANCE_MS, rtt) for rtt in round_trips)


def test_the_time_written_in_a_move() -> None:
    assert stated_ms("claim pendant @2350") == 2350
    assert stated_ms("noword @ 0") == 0
    assert stated_ms("claim pendant") is None and stated_ms("noword") is None
    assert stated_ms("claim pendant @-5") is None and stated_ms("claim x @1234567890") is None


def test_only_pongs_for_pings_the_server_sent_measure_a_round_trip() -> None:
    book = LagBook()
    assert book.allowance_ms("m", 0) == UNMEASURED_RTT_MS + MARGIN_MS
    book.ping_sent("m", 0, 1000, now=50.0)
    assert book.pong("m", 0, 999, now=50.1) is None  # a stamp of the page's choosing: nothing
    assert book.pong("m", 1, 1000, now=50.1) is None  # another seat's ping: nothing
    assert book.pong("m", 0, True, now=50.1) is None and book.pong("m", 0, "1000", now=50.1) is None
    assert book.pong("m", 0, 1000, now=50.3) == 300
    assert book.pong("m", 0, 1000, now=59.0) is None  # answered once: a late copy measures nothing
    assert book.allowance_ms("m", 0) == 300 + MARGIN_MS


def test_a_seat_keeps_its_last_round_trips_and_pings() -> None:
    book = LagBook()
    for n in range(SAMPLES + 2):
        book.ping_sent("m", 0, n, now=float(n))
        assert book.pong("m", 0, n, now=n + (0.9 if n == 0 else 0.1)) is not None
    assert book.allowance_ms("m", 0) == 100 + MARGIN_MS  # the 900 ms trip is no longer among the last
    for n in range(PENDING_PINGS + 1):
        book.ping_sent("m", 0, 100 + n, now=200.0)
    assert book.pong("m", 0, 100, now=200.1) is None  # the oldest waiting ping was forgotten
    assert book.pong("m", 0, 100 + PENDING_PINGS, now=200.1) == 100


def test_the_book_forgets_the_least_recently_measured_seats() -> None:
    book = LagBook(max_seats=2)
    for match in ("a", "b", "c"):
        book.ping_sent(match, 0, 1, now=0.0)
        book.pong(match, 0, 1, now=1.4)
    assert book.allowance_ms("a", 0) == UNMEASURED_RTT_MS + MARGIN_MS
    assert book.allowance_ms("c", 0) == MAX_ALLOWANCE_MS


# --- the gate: a PDQ match decided by the phones' times, within what each connection allows ------------


def _pdq_match(service: MatchService) -> tuple[str, str]:
    made = service.lobby.create("pdq", {"players": 2, "window_ms": 300, "only_solvable": True}, name="Ann")
    service.lobby.join(made.match, made.invite, "Bob")
    loaded = service.core.load(made.match)
    assert loaded.state is not None
    letters = loaded.state.view(None)["round"]["letters"]
    word = loaded.game.adjudicator.pdq(letters, min_length=4, limit=1).words[0]
    return made.match, str(word)


def test_the_faster_phone_wins_although_its_claim_arrives_later(service: MatchService, clock: FakeClock) -> None:
    match_id, word = _pdq_match(service)
    service.core.lag.ping_sent(match_id, 1, 7, now=0.0)
    assert service.core.lag.pong(match_id, 1, 7, now=0.8) == 800  # Bob's connection: 800 ms round trips
    clock.advance(3.2)
    service.gate.move(match_id, 0, f"claim {word} @3100", 0)  # Ann: 3.1 s on her phone, arrives first
    clock.advance(0.4)
    # Bob: 2.7 s on his phone, arrives 0.4 s later, made before his page heard of Ann's (version 0):
    # still a claim of this round.
    moved = service.gate.move(match_id, 1, f"claim {word} @2700", 0)
    state = service.core.load(match_id).state
    assert state is not None and moved.breakdown.total == 3
    record = state.rounds[-1]  # both have claimed: decided at once, by the phones' times
    assert [(c.player, c.at_ms) for c in record.claims] == [(1, 2700), (0, 3100)]
    assert record.winner == 1 and state.collected[1] == record.letters  # Ann's 3.1 s is outside 2.7 + 0.3
    with pytest.raises(StaleVersionError):  # a version of the round before is not one of this round
        service.gate.move(match_id, 0, "noword", 1)


def test_a_claim_faster_than_the_connection_allows_is_refused(service: MatchService, clock: FakeClock) -> None:
    match_id, word = _pdq_match(service)
    clock.advance(3.0)
    before = service.core.load(match_id).state.to_json()  # type: ignore[union-attr]
    with pytest.raises(IllegalMoveError) as refused:  # unmeasured: 400 + 250 ms allowed, so 2.35 s at the earliest
        service.gate.move(match_id, 0, f"claim {word} @2000", 0)
    assert refused.value.rule == "too_fast" and refused.value.status == 422
    assert refused.value.details["earliest_ms"] == 3000 - UNMEASURED_RTT_MS - MARGIN_MS
    assert service.core.load(match_id).state.to_json() == before  # type: ignore[union-attr]
    moved = service.gate.move(match_id, 0, f"claim {word}", 0)  # without a time: timed on arrival
    state = service.core.load(match_id).state
    assert moved.version == 1 and state is not None and state.round.claims[0].at_ms == 3000  # type: ignore[attr-defined]


def test_ruling_08_the_referee_closes_only_after_the_largest_lag_allowance(
    service: MatchService, clock: FakeClock
) -> None:
    """RULINGS.md 8: a claim made inside the window can still arrive up to the largest allowance
    after its end; the close waits for it, so the result shown is the result."""
    match_id, word = _pdq_match(service)
    clock.advance(1.0)
    service.gate.move(match_id, 0, f"claim {word} @1000", 0)  # the window: 1.0 to 1.3 s
    clock.advance(0.3 + REFEREE_GRACE_MS / 1000 - 0.01)
    assert not service.scheduler.run_due(match_id)  # just inside the grace: the round stays open
    service.core.lag.ping_sent(match_id, 1, 3, now=0.0)
    service.core.lag.pong(match_id, 1, 3, now=2.0)  # Bob's connection: the largest allowance
    late = service.gate.move(match_id, 1, f"claim {word} @1300", 1)  # made at the window's end, arrives 1.5 s later
    state = service.core.load(match_id).state
    assert state is not None and late.breakdown.total == 0 and state.rounds[-1].outcome == "tie"


# --- several server processes: the allowance stored with the seat ----------------------------------------


def test_an_allowance_is_stored_when_it_moves_by_a_step_not_per_pong() -> None:
    """``to_store`` asks for a write the first time a seat is measured here, then only when its
    allowance has moved by ``STORE_STEP_MS``: a connection's jitter writes nothing."""
    book = LagBook()
    writes = []
    round_trips = [300, 320, 290, 310, 350, 305, 900, 330, 310, 300, 290, 280]
    for stamp, round_trip in enumerate(round_trips):
        book.ping_sent("m", 1, stamp, now=float(stamp))
        book.pong("m", 1, stamp, now=stamp + round_trip / 1000)
        allowed = book.to_store("m", 1)
        if allowed is not None:
            book.stored("m", 1, allowed)
            writes.append(allowed)
    # 550 at first (not 570 nor 600: jitter), 1150 with the slow 900, 580 once it left the last five
    assert writes == [300 + MARGIN_MS, 900 + MARGIN_MS, 330 + MARGIN_MS]
    assert len(writes) < len(round_trips) / 2
    assert book.to_store("m", 2) is None  # a seat not measured here: nothing to tell
    book.stored("gone", 0, 500)  # (a seat this book forgot meanwhile: nothing to remember)
    assert all(abs(a - b) >= STORE_STEP_MS for a, b in zip(writes, writes[1:], strict=False))


def test_a_seat_measured_here_is_allowed_its_own_lag_else_the_stored_one() -> None:
    book = LagBook()
    assert book.allowance_ms("m", 0) == book.allowance_ms("m", 0, stored=None) == UNMEASURED_RTT_MS + MARGIN_MS
    assert book.allowance_ms("m", 0, stored=1_200) == 1_200  # measured by the process holding its socket
    assert book.allowance_ms("m", 0, stored=60_000) == MAX_ALLOWANCE_MS  # never beyond the cap
    assert book.allowance_ms("m", 0, stored="900") == UNMEASURED_RTT_MS + MARGIN_MS  # not a number: none
    book.ping_sent("m", 0, 1, now=0.0)
    book.pong("m", 0, 1, now=0.1)
    assert book.allowance_ms("m", 0, stored=1_200) == 100 + MARGIN_MS  # its socket is here: measured here


def test_a_claim_to_another_process_is_allowed_the_lag_measured_on_the_seats_socket(
    store_url: str, clock: FakeClock
) -> None:
    """Two services on one store, as two server processes: Bob's socket is on the first, which measures
    800 ms round trips and stores his allowance with his seat; his claim, sent to the second, is taken
    at his phone's time. Ann, never measured, gets the unmeasured allowance there (and is refused)."""
    settings = in_process(public_url="http://table.test", bot_delay_ms=0, lexicon="standard")
    here, there = (MatchService(open_store(store_url), settings, clock_now=clock) for _ in range(2))
    try:
        match_id, word = _pdq_match(here)
        here.core.lag.ping_sent(match_id, 1, 7, now=0.0)
        here.core.lag.pong(match_id, 1, 7, now=0.8)
        allowed = here.core.lag.to_store(match_id, 1)
        assert allowed == 800 + MARGIN_MS
        here.lobby.seen(match_id, 1, lag_ms=allowed)  # what the live socket's pong does (matches/live.py)
        here.core.lag.stored(match_id, 1, allowed)
        clock.advance(3.0)
        with pytest.raises(IllegalMoveError) as refused:  # Ann, 0.9 s behind: more than 650 ms allows
            there.gate.move(match_id, 0, f"claim {word} @2100", 0)
        assert refused.value.details["allowance_ms"] == UNMEASURED_RTT_MS + MARGIN_MS
        there.gate.move(match_id, 1, f"claim {word} @2100", 0)  # Bob, 0.9 s behind: within his 1050 ms
        state = there.core.load(match_id).state
        assert state is not None and [(c.player, c.at_ms) for c in state.round.claims] == [(1, 2100)]  # type: ignore[attr-defined]
    finally:
        here.store.close()
        there.store.close()


def test_a_store_made_at_schema_6_gains_the_seats_lag(tmp_path: Path) -> None:
    """Schema 7 (the allowance stored with the seat) on a database made before it: seats read None
    (never measured, so the unmeasured allowance) until a live socket's pong stores one."""
    store = open_store(sqlite_made_at(tmp_path / "old.sqlite3", 6))
    try:
        assert store.migrate() == SCHEMA_VERSION
        service = MatchService(store, clock_now=lambda: 1000.0)
        made = service.lobby.create("bop", {"players": 2}, name="Ann")
        assert [s.lag_ms for s in store.seats(made.match)] == [None, None]
        service.lobby.seen(made.match, 0, lag_ms=640)
        assert [s.lag_ms for s in store.seats(made.match)] == [640, None]
    finally:
        store.close()

"""The gate (``matches.gate``) on both stores: its checks in order, a refused move changes nothing, an
acknowledged one is in the store and rebuilds the same state."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMoveError, NotationError, StaleVersionError, WrongPlayerError
from matches.errors import NotPlaying
from matches.service import MatchService
from tests.matches.conftest import FakeClock
from tests.matches.playing import pdq_word, two_players, whose_turn


def test_the_gate_checks_in_order_and_a_refusal_changes_nothing(service: MatchService) -> None:
    match_id, _ = two_players(service)
    mover = whose_turn(service, match_id)
    waiting = 1 - mover
    before = service.core.load(match_id).state.to_json()  # type: ignore[union-attr]
    with pytest.raises(WrongPlayerError):  # not your turn comes before a stale version or bad notation
        service.gate.move(match_id, waiting, "garbage", 99)
    with pytest.raises(StaleVersionError):  # a stale version comes before the notation
        service.gate.move(match_id, mover, "garbage", 99)
    with pytest.raises(NotationError):
        service.gate.move(match_id, mover, "garbage", 0)
    with pytest.raises(IllegalMoveError) as refused:
        service.gate.move(match_id, mover, "5,5 Zy", 0)  # a tile not in the hand, far from the grid
    assert refused.value.rule in ("not_in_hand", "not_connected")
    assert service.core.load(match_id).state.to_json() == before  # type: ignore[union-attr]
    assert service.store.moves(match_id) == [] and service.store.version(match_id) == 0


def test_an_acknowledged_move_is_in_the_store_and_rebuilds_the_same_state(service: MatchService) -> None:
    match_id, _ = two_players(service, mode="challenge")
    for _ in range(4):
        service.gate.move(match_id, whose_turn(service, match_id), "pass", service.core.load(match_id).row.version)
    assert [(m.version, m.move) for m in service.store.moves(match_id)] == [
        (1, "pass"),
        (2, "pass"),
        (3, "pass"),
        (4, "pass"),
    ]
    cached = service.core.load(match_id).state
    service.core.states.clear()  # another process, or after a restart: rebuilt from seed + log
    rebuilt = service.core.load(match_id).state
    assert rebuilt is not None and cached is not None and rebuilt.to_json() == cached.to_json()


def test_a_match_that_has_not_started_takes_no_moves(service: MatchService) -> None:
    made = service.lobby.create("bop", {"players": 2})
    assert made.seat is not None
    with pytest.raises(NotPlaying):
        service.gate.move(made.match, made.seat, "pass", 0)


def test_a_real_time_move_is_timed_by_its_phone_within_the_lag_allowed(service: MatchService, clock: FakeClock) -> None:
    """PDQ's claims are timed by the gate (``Gate._move_time_ms``), in ms since the round's cards were
    dealt: the time the client wrote, if the seat's connection allows it (``matches/lag.py``: 650 ms
    for a connection not yet measured); without one, on the server's clock when the claim arrived."""
    match_id, _ = two_players(service, "pdq", only_solvable=True)
    loaded = service.core.load(match_id)
    started, state = loaded.row.epoch_started, loaded.state
    assert started is not None and state is not None and state.clock_epoch() is not None
    assert service.gate._move_time_ms(loaded, 0, "claim word", started + 1.25) == 1250
    assert service.gate._move_time_ms(loaded, 0, "claim word @900", started + 1.25) == 900
    assert service.gate._move_time_ms(loaded, 0, "claim word @9000", started + 1.25) == 1250  # not after arrival
    assert service.gate._move_time_ms(loaded, 0, "claim word", started - 5.0) == 0
    clock.advance(0.75)
    moved = service.gate.move(match_id, 0, f"claim {pdq_word(service, match_id)} @500", 0)
    assert moved.move.time_ms == 500
    assert service.store.moves(match_id)[0].move.endswith("@500")


def test_a_turn_based_move_carries_no_time(service: MatchService, clock: FakeClock) -> None:
    match_id, _ = two_players(service)
    clock.advance(3.0)
    moved = service.gate.move(match_id, whose_turn(service, match_id), "pass", 0)
    assert moved.move.time_ms is None and service.store.moves(match_id)[0].move == "pass"

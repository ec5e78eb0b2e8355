"""The gate (``matches.gate``) on both stores: its checks in order, a refused move changes nothing, an
acknowledged one is in the store and rebuilds the same state."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMoveError, NotationError, StaleVersionError, WrongPlayerError
from matches.errors import NotPlaying
from matches.service import MatchService
from tests.matches.playing import two_players, whose_turn


def test_the_gate_checks_in_order_and_a_refusal_changes_nothing(service: MatchService) -> None:
    match_id, _ = two_players(service)
    mover = whose_turn(service, match_id)
    waiting = 1 - mover
    before = service.load(match_id).state.to_json()  # type: ignore[union-attr]
    with pytest.raises(WrongPlayerError):  # not your turn comes before a stale version or bad notation
        service.move(match_id, waiting, "garbage", 99)
    with pytest.raises(StaleVersionError):  # a stale version comes before the notation
        service.move(match_id, mover, "garbage", 99)
    with pytest.raises(NotationError):
        service.move(match_id, mover, "garbage", 0)
    with pytest.raises(IllegalMoveError) as refused:
        service.move(match_id, mover, "5,5 Zy", 0)  # a tile not in the hand, far from the grid
    assert refused.value.rule in ("not_in_hand", "not_connected")
    assert service.load(match_id).state.to_json() == before  # type: ignore[union-attr]
    assert service.store.moves(match_id) == [] and service.store.version(match_id) == 0


def test_an_acknowledged_move_is_in_the_store_and_rebuilds_the_same_state(service: MatchService) -> None:
    match_id, _ = two_players(service, mode="challenge")
    for _ in range(4):
        service.move(match_id, whose_turn(service, match_id), "pass", service.load(match_id).row.version)
    assert [(m.version, m.move) for m in service.store.moves(match_id)] == [
        (1, "pass"),
        (2, "pass"),
        (3, "pass"),
        (4, "pass"),
    ]
    cached = service.load(match_id).state
    service._states.clear()  # another process, or after a restart: rebuilt from seed + log
    rebuilt = service.load(match_id).state
    assert rebuilt is not None and cached is not None and rebuilt.to_json() == cached.to_json()


def test_a_match_that_has_not_started_takes_no_moves(service: MatchService) -> None:
    made = service.create("bop", {"players": 2})
    assert made.seat is not None
    with pytest.raises(NotPlaying):
        service.move(made.match, made.seat, "pass", 0)

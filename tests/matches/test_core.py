"""The core (``matches.core``) on both stores: tokens and seats, the bodies each reader is sent (hidden
things stay hidden), the clock in a body."""

from __future__ import annotations

import pytest

from matches.errors import Unauthorized
from matches.service import MatchService
from tests.matches.conftest import FakeClock
from tests.matches.playing import two_players


def test_tokens_authenticate_only_their_own_seat_and_match(service: MatchService) -> None:
    match_id, tokens = two_players(service)
    other_id, other_tokens = two_players(service)
    assert service.authenticate(match_id, tokens[1]) == 1
    with pytest.raises(Unauthorized):
        service.authenticate(match_id, None)
    with pytest.raises(Unauthorized):
        service.authenticate(match_id, other_tokens[1])  # a token of another match
    with pytest.raises(Unauthorized):
        service.authenticate(match_id, tokens[1] + "x")


def test_simultaneous_hidden_bids_stay_hidden_until_everyone_has_bid(service: MatchService) -> None:
    match_id, _ = two_players(service, "highcard")
    state = service.load(match_id).state
    assert state is not None and state.acting_players() == [0, 1]
    card = state.legal_moves(0)[-1]
    service.move(match_id, 0, card.to_text(), 0)
    seen_by_1 = service.body(service.load(match_id), 1, history=True)
    assert seen_by_1["view"]["bids"][0] is True and seen_by_1["view"]["history"][-1] == [0, "bid"]
    assert card.to_text() not in str(seen_by_1)
    seen_by_0 = service.body(service.load(match_id), 0, history=True)
    assert seen_by_0["view"]["history"][-1] == [0, card.to_text()]


def test_the_clock_says_the_servers_time_with_its_deadline(service: MatchService, clock: FakeClock) -> None:
    made = service.create("bop", {"players": 2}, clock={"turn_seconds": 30})
    service.join(made.match, made.invite, "Bob")
    clock.advance(12.5)
    shown = service.body(service.load(made.match), 0)["clock"]
    assert shown["now_ms"] == int(clock.now * 1000) and shown["deadline_ms"] - shown["now_ms"] == 17_500

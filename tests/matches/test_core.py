"""The core (``matches.core``) on both stores: tokens and seats, the bodies each reader is sent (hidden
things stay hidden), the clock in a body."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from matches.core import Steps
from matches.departures import end_steps
from matches.errors import Unauthorized
from matches.gone import RESIGNED, ending
from matches.service import MatchService
from matches.store import Call
from tests.matches.conftest import FakeClock
from tests.matches.playing import two_players


def test_tokens_authenticate_only_their_own_seat_and_match(service: MatchService) -> None:
    match_id, tokens = two_players(service)
    other_id, other_tokens = two_players(service)
    assert service.core.authenticate(match_id, tokens[1]) == 1
    with pytest.raises(Unauthorized):
        service.core.authenticate(match_id, None)
    with pytest.raises(Unauthorized):
        service.core.authenticate(match_id, other_tokens[1])  # a token of another match
    with pytest.raises(Unauthorized):
        service.core.authenticate(match_id, tokens[1] + "x")


def test_simultaneous_hidden_bids_stay_hidden_until_everyone_has_bid(service: MatchService) -> None:
    match_id, _ = two_players(service, "highcard")
    state = service.core.load(match_id).state
    assert state is not None and state.acting_players() == [0, 1]
    card = state.legal_moves(0)[-1]
    service.gate.move(match_id, 0, card.to_text(), 0)
    seen_by_1 = service.core.body(service.core.load(match_id), 1, history=True)
    assert seen_by_1["view"]["bids"][0] is True and seen_by_1["view"]["history"][-1] == [0, "bid"]
    assert card.to_text() not in str(seen_by_1)
    seen_by_0 = service.core.body(service.core.load(match_id), 0, history=True)
    assert seen_by_0["view"]["history"][-1] == [0, card.to_text()]


def test_the_clock_says_the_servers_time_with_its_deadline(service: MatchService, clock: FakeClock) -> None:
    made = service.lobby.create("bop", {"players": 2}, clock={"turn_seconds": 30})
    service.lobby.join(made.match, made.invite, "Bob")
    clock.advance(12.5)
    shown = service.core.body(service.core.load(made.match), 0)["clock"]
    assert shown["now_ms"] == int(clock.now * 1000) and shown["deadline_ms"] - shown["now_ms"] == 17_500


def test_both_drivers_answer_the_cores_calls_and_throw_a_failed_calls_error_back_into_it(
    service: MatchService,
) -> None:
    """The core is a generator of store calls (``matches.core``): the sync driver and the async one
    send each answer back, and a call that fails is raised in the core where it asked, which may
    catch it; what the core returns is the driver's answer."""
    match_id, _ = two_players(service)

    def steps() -> Steps[tuple[Any, ...]]:
        version = yield Call("version", (match_id,))
        try:
            yield Call("no_such_call", ())
        except AttributeError as error:
            caught = type(error).__name__
        missing = yield Call("match", ("not-a-match",))
        return version, caught, missing

    assert service.core.run(steps()) == (0, "AttributeError", None)
    assert asyncio.run(service.core.run_async(steps())) == (0, "AttributeError", None)

    def uncaught() -> Steps[None]:
        yield Call("no_such_call", ())

    with pytest.raises(AttributeError):
        service.core.run(uncaught())
    with pytest.raises(AttributeError):
        asyncio.run(service.core.run_async(uncaught()))


def test_the_games_a_process_keeps_built_are_bounded_and_one_dropped_is_built_again(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game is built once per game, options, lexicon and house rules; clients make house rules at will,
    so a process keeps only the ``GAMES_KEPT`` most recently used. A match whose game was dropped is
    played on with it built again."""
    monkeypatch.setattr("matches.core.GAMES_KEPT", 2)
    made = [service.lobby.create("bop", options={"pass_limit": limit}, seats=2, name="Ann") for limit in (6, 7, 8)]
    for match in made:
        service.lobby.join(match.match, match.invite_token, "Bob")
    assert len(service.core._games) == 2
    first = service.core.load(made[0].match)  # its game was the least recently used: built again
    state = first.state
    assert state is not None and len(service.core._games) == 2
    moved = service.gate.move(made[0].match, state.acting_players()[0], "pass", state.version)
    assert moved.loaded.state is not None and moved.loaded.state.version == 1


def test_the_seats_bodies_at_a_version_share_the_matchs_parts_and_a_change_at_that_version_shows(
    service: MatchService, clock: FakeClock
) -> None:
    """The parts of a match's body that are the same for every seat are built once a version
    (``Loaded.shared_body``); each seat keeps its own view, and a change that keeps the version (a match
    ended by ``matches.departures.end_steps``) is shown in the bodies built after it, not the kept parts."""
    match_id, _ = two_players(service)
    loaded = service.core.load(match_id)
    first, second = service.core.body(loaded, 0), service.core.body(loaded, 1)
    assert (first["you"], second["you"]) == (0, 1)
    assert first["view"]["hands"] != second["view"]["hands"]  # each seat sees its own hand, not the other's
    shared = {key: value for key, value in first.items() if key not in ("you", "view")}
    assert shared == {key: value for key, value in second.items() if key not in ("you", "view")}
    assert list(first) == list(second) and list(first).index("you") < list(first).index("view")
    assert first["status"] == "playing" and first["ending"] is None
    assert loaded.state is not None
    made = ending(loaded.state, RESIGNED, 1, [])
    assert service.core.run(end_steps(service.core, loaded, made, clock.now, resigned=1))
    assert loaded.state.version == first["version"]  # the same version, another match
    after = service.core.body(loaded, 0)
    assert after["status"] == "over" and after["ending"] == {"kind": RESIGNED, "seat": 1}
    assert after["seats"][1]["resigned"] and after["outcome"] is not None

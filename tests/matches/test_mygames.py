"""A device's list of its games (``matches.mygames``) in process, on SQLite and PostgreSQL: one request for
every seat token the device holds, your turn first, then waiting, then finished; the last move with its
breakdown (kept, or worked out again after a restart), hidden moves as your seat may see them, your time
left; tokens that hold no seat, and games finished long ago, named as gone; the request's bound."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from matches.errors import BadRequest
from matches.service import MatchService
from matches.store import Store
from tests.matches.conftest import FakeClock, in_process
from tests.matches.playing import play_a_few_bop_turns, two_players, whose_turn


def listed(service: MatchService, held: list[tuple[str, str]]) -> dict[str, Any]:
    answer: dict[str, Any] = asyncio.run(service.my_games.list_async(held))
    return answer


def test_three_games_in_three_states_your_turn_first(service: MatchService, clock: FakeClock) -> None:
    finished, finished_tokens = two_players(service, "highcard", cards=2)
    for _ in range(2):  # both rounds: both bid
        for seat in (0, 1):
            state = service.core.load(finished).state
            assert state is not None
            card = max(int(m.to_text().split()[1]) for m in state.legal_moves(seat))
            service.gate.move(finished, seat, f"bid {card}", state.version)
    clock.advance(60)
    waiting, waiting_tokens = two_players(service)
    clock.advance(60)
    mine, mine_tokens = two_players(service)
    # In ``waiting`` Ann (seat 0) has moved and waits for Bob; in ``mine`` Bob moves first if he must.
    if whose_turn(service, waiting) == 0:
        play_a_few_bop_turns(service, waiting, 1)
    if whose_turn(service, mine) == 1:
        play_a_few_bop_turns(service, mine, 1)
    answer = listed(service, [(finished, finished_tokens[0]), (waiting, waiting_tokens[0]), (mine, mine_tokens[0])])
    games = answer["games"]
    assert [g["match"] for g in games] == [mine, waiting, finished] and answer["gone"] == []
    assert [g["your_turn"] for g in games] == [True, False, False]
    assert [g["status"] for g in games] == ["playing", "playing", "over"]
    assert games[1]["to_act"] == [1] and [p["name"] for p in games[1]["players"]] == ["Bob"]
    assert games[2]["outcome"]["reason"] and all(g["you"] == 0 for g in games)


def test_the_last_move_with_its_breakdown_kept_or_worked_out_again_after_a_restart(
    service: MatchService, store: Store, clock: FakeClock
) -> None:
    match_id, tokens = two_players(service)
    played = play_a_few_bop_turns(service, match_id, 3)
    last = played[-1]
    clock.advance(3600)
    (game,) = listed(service, [(match_id, tokens[0])])["games"]
    assert game["last"]["seat"] == last["seat"] and game["last"]["version"] == last["version"]
    assert game["last"]["breakdown"] == last["breakdown"] and game["last"]["name"] == ["Ann", "Bob"][last["seat"]]
    assert game["last"]["at_ms"] == int((clock.now - 3600) * 1000) and game["last"]["move"] == last["move"]
    # Another process (a restart) keeps no breakdown: it works it out from the match again, the same.
    again = MatchService(store, in_process(public_url="http://table.test", lexicon="standard"), clock_now=clock)
    (game,) = listed(again, [(match_id, tokens[1])])["games"]
    assert game["last"]["breakdown"] == last["breakdown"]


def test_a_hidden_move_is_shown_as_the_reader_may_see_it(service: MatchService) -> None:
    match_id, tokens = two_players(service, "highcard", cards=3)
    state = service.core.load(match_id).state
    assert state is not None
    service.gate.move(match_id, 0, "bid 3", state.version)
    (mine,) = listed(service, [(match_id, tokens[0])])["games"]
    (theirs,) = listed(service, [(match_id, tokens[1])])["games"]
    assert mine["last"]["move"] == "bid 3" and theirs["last"]["move"] == "bid"  # face down until both bid
    assert theirs["your_turn"] and not mine["your_turn"]


def test_tokens_that_hold_no_seat_and_games_over_long_ago_are_gone(service: MatchService, clock: FakeClock) -> None:
    match_id, tokens = two_players(service, "highcard", cards=2)
    other, other_tokens = two_players(service)
    answer = listed(service, [(match_id, "forged-token-forged-token"), ("nosuchmatch1", tokens[0]),
                              (other, tokens[0]), (other, other_tokens[1])])  # fmt: skip
    assert answer["gone"] == [match_id, "nosuchmatch1", other] and [g["match"] for g in answer["games"]] == [other]
    # A seat moved to another device: the old token is gone.
    link = service.lobby.seat_link(other, 1, other_tokens[1])
    service.lobby.take_seat_by_code(other, link.code)
    assert listed(service, [(other, other_tokens[1])])["gone"] == [other]
    # A finished game stays 30 days.
    for _ in range(2):
        for seat in (0, 1):
            state = service.core.load(match_id).state
            assert state is not None
            service.gate.move(match_id, seat, f"bid {state.legal_moves(seat)[0].to_text().split()[1]}", state.version)
    clock.advance(29 * 86_400)
    assert [g["match"] for g in listed(service, [(match_id, tokens[0])])["games"]] == [match_id]
    clock.advance(2 * 86_400)
    assert listed(service, [(match_id, tokens[0])]) == {
        "games": [],
        "gone": [match_id],
        "now_ms": int(clock.now * 1000),
    }


def test_your_time_left_on_a_turn_clock_and_on_a_bank(service: MatchService, clock: FakeClock) -> None:
    made = service.lobby.create("bop", {"players": 2}, clock={"turn_seconds": 600}, name="Ann")
    _, bob = service.lobby.join(made.match, made.invite, "Bob")
    banked = service.lobby.create(
        "bop", {"players": 2}, clock={"total_seconds": 300, "increment_seconds": 5}, name="Ann"
    )
    service.lobby.join(banked.match, banked.invite, "Bob")
    clock.advance(100)
    first = whose_turn(service, made.match)
    token = made.token if first == 0 else bob
    assert token is not None
    (game,) = listed(service, [(made.match, token)])["games"]
    assert game["clock"] == {"left_ms": 500_000, "running": True, "now_ms": int(clock.now * 1000)}
    (other,) = listed(service, [(made.match, bob if first == 0 else made.token or "")])["games"]
    assert other["clock"]["left_ms"] is None and other["clock"]["running"] is False
    assert made.token is not None and banked.token is not None
    (bank,) = listed(service, [(banked.match, banked.token)])["games"]
    assert bank["clock"]["left_ms"] in (200_000, 300_000)  # Ann's bank runs while it is her turn


def test_a_list_longer_than_the_bound_is_refused(store: Store, clock: FakeClock) -> None:
    service = MatchService(store, in_process(tables={"my_games": 2}), clock_now=clock)
    with pytest.raises(BadRequest) as refused:
        listed(service, [("m1", "t1"), ("m2", "t2"), ("m3", "t3")])
    assert refused.value.status == 422

"""The match service on both stores: creating, joining, the gate's order and its errors, bots, clocks,
rematches and the log. A refused move changes nothing; an acknowledged one is in the store."""

from __future__ import annotations

from typing import Any

import pytest

from engine import load_game
from engine.errors import GameOverError, IllegalMoveError, NotationError, StaleVersionError, WrongPlayerError
from engine.registry import register
from matches.errors import BadInvite, BadRequest, MatchFull, NotOver, NotPlaying, Unauthorized, UnknownMatch
from matches.service import MatchService
from tests.matches.conftest import FakeClock

register("highcard", "tests.engine.toy:HighcardGame")


def two_players(service: MatchService, game: str = "bop", **options: Any) -> tuple[str, dict[int, str]]:
    made = service.create(game, {"players": 2, **options}, name="Ann")
    seat, token = service.join(made.match, made.invite, "Bob")
    assert made.seat == 0 and made.token is not None and seat == 1
    return made.match, {0: made.token, 1: token}


def whose_turn(service: MatchService, match_id: str) -> int:
    state = service.load(match_id).state
    assert state is not None
    return [seat for seat in state.acting_players() if state.must_act(seat)][0]


def test_a_match_waits_for_every_seat_then_starts(service: MatchService) -> None:
    made = service.create("bop", {"players": 3}, name="Ann")
    loaded = service.load(made.match)
    assert loaded.row.status == "waiting" and loaded.state is None
    body = service.body(loaded, 0)
    assert body["status"] == "waiting" and body["view"] is None and body["seats"][0]["name"] == "Ann"
    service.join(made.match, made.invite, "Bob")
    assert service.load(made.match).row.status == "waiting"
    service.join(made.match, made.invite.rsplit("=", 1)[1], "Cy")  # the token alone works too
    loaded = service.load(made.match)
    assert loaded.row.status == "playing" and loaded.state is not None and loaded.state.version == 0


def test_joining_a_full_match_or_with_a_wrong_invite_is_refused(service: MatchService) -> None:
    full = service.create("bop", {"players": 2})
    service.join(full.match, full.invite, "Bob")
    match_id, made_invites = full.match, {full.match: full.invite}
    made = service.load(match_id)
    with pytest.raises(MatchFull):
        service.join(match_id, made_invites[match_id], "Eve")
    other = service.create("bop", {"players": 2})
    with pytest.raises(BadInvite):
        service.join(other.match, "not-the-invite", "Eve")
    with pytest.raises(UnknownMatch):
        service.join("nosuchmatch", other.invite, "Eve")
    assert made.row.status == "playing"


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


def test_two_servers_on_one_store_never_both_apply_a_move(store_url: str, clock: FakeClock) -> None:
    from matches.service import MatchSettings
    from matches.store import open_store

    first = MatchService(open_store(store_url), MatchSettings(bot_delay_ms=0), clock_now=clock)
    second = MatchService(open_store(store_url), MatchSettings(bot_delay_ms=0), clock_now=clock)
    try:
        race(first, second)
    finally:
        first.store.close()
        second.store.close()


def race(first: MatchService, second: MatchService) -> None:
    match_id, _ = two_players(first)
    mover = whose_turn(first, match_id)
    commit = second.store.commit_move

    def racing(*args: Any, **kwargs: Any) -> bool:
        first.move(match_id, mover, "pass", 0)  # the other server commits between the check and the commit
        return commit(*args, **kwargs)

    second.store.commit_move = racing  # type: ignore[method-assign]
    with pytest.raises(StaleVersionError):  # refused by the store's transaction, not by a cache
        second.move(match_id, mover, "pass", 0)
    second.store.commit_move = commit  # type: ignore[method-assign]
    assert [(m.version, m.seat) for m in first.store.moves(match_id)] == [(1, mover)]
    caught_up = second.load(match_id).state
    assert caught_up is not None and caught_up.version == 1  # rebuilt from the log, not its own attempt
    assert caught_up.to_json() == first.load(match_id).state.to_json()  # type: ignore[union-attr]


def test_bad_create_requests_are_refused(service: MatchService) -> None:
    with pytest.raises(BadRequest, match="no game called"):
        service.create("chess")
    with pytest.raises(BadRequest, match="bots"):
        service.create("bop", {"players": 2}, bots={"5": "greedy"})
    with pytest.raises(BadRequest, match="unknown bot"):
        service.create("bop", {"players": 2}, bots={"1": "wizard"})
    with pytest.raises(BadRequest, match="clock"):
        service.create("bop", {"players": 2}, clock={"turn_seconds": -1})
    with pytest.raises(BadRequest, match="seats"):
        service.create("bop", {"players": 3}, seats=2)
    with pytest.raises(BadRequest, match="players"):  # the engine's own option check, as a refusal
        service.create("bop", {"players": 9})


def test_bots_in_seats_move_through_the_gate(service: MatchService, clock: FakeClock) -> None:
    made = service.create("bop", {"players": 2}, bots={"1": "greedy"}, name="Ann")
    assert made.seat == 0
    for _ in range(6):  # the person passes; the bot plays whenever it is its turn
        if whose_turn(service, made.match) == 0:
            service.move(made.match, 0, "pass", service.load(made.match).row.version)
        clock.advance(1)
        service.run_due(made.match)
    moves = service.store.moves(made.match)
    assert any(move.seat == 1 and move.move != "pass" for move in moves)
    state = service.load(made.match).state
    game = load_game(service.load(made.match).game.spec())
    assert (
        state is not None
        and game.replay(service.load(made.match).row.seed, [(m.seat, m.move) for m in moves]).to_json()
        == state.to_json()
    )


def test_a_turn_clock_runs_out_into_the_engines_timeout_move(service: MatchService, clock: FakeClock) -> None:
    made = service.create("bop", {"players": 2}, clock={"turn_seconds": 30})
    service.join(made.match, made.invite, "Bob")
    mover = whose_turn(service, made.match)
    clock.advance(20)
    assert not service.run_due(made.match)  # time left
    clock.advance(11)  # 31 s: past the deadline and its lag allowance
    assert service.run_due(made.match)
    assert [(m.seat, m.move) for m in service.store.moves(made.match)] == [(mover, "pass")]
    body = service.body(service.load(made.match), 0)
    assert body["clock"]["turn_seconds"] == 30 and body["clock"]["running"] == [1 - mover]


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


def test_the_log_and_the_seed_come_out_only_at_the_end_and_replay_the_match(
    service: MatchService, clock: FakeClock
) -> None:
    made = service.create("highcard", {"players": 2, "cards": 3}, bots={"0": "random", "1": "greedy"})
    assert made.seat is None and made.token is None  # all bots: the creator watches
    with pytest.raises(NotOver):
        service.log(made.match)
    for _ in range(20):
        clock.advance(1)
        service.run_due(made.match)
    loaded = service.load(made.match)
    assert loaded.row.status == "over" and loaded.state is not None
    log = service.log(made.match)
    replayed = load_game(log["spec"]).replay(log["seed"], log["moves"])
    assert replayed.to_json() == loaded.state.to_json()
    with pytest.raises(GameOverError):
        service.move(made.match, 0, "bid 1", loaded.state.version)


def test_leaving_hands_the_seat_to_a_bot_and_a_rematch_keeps_the_seats(service: MatchService, clock: FakeClock) -> None:
    match_id, tokens = two_players(service, "highcard", cards=2)
    service.leave(match_id, 1, "random")
    assert service.load(match_id).seats[1].bot == "random"
    with pytest.raises(Unauthorized):
        service.authenticate(match_id, tokens[1])  # the token no longer holds the seat
    with pytest.raises(NotOver):
        service.rematch(match_id, 0)
    for _ in range(4):
        state = service.load(match_id).state
        assert state is not None
        if 0 in state.acting_players():
            service.move(match_id, 0, state.legal_moves(0)[0].to_text(), state.version)
        clock.advance(1)
        service.run_due(match_id)
    assert service.load(match_id).row.status == "over"
    again = service.rematch(match_id, 0)
    assert service.rematch(match_id, 0) == again  # the same rematch for everyone who asks
    assert service.authenticate(again, tokens[0]) == 0
    assert service.load(again).row.status == "playing" and service.load(match_id).row.rematch == again


def test_a_match_that_has_not_started_takes_no_moves(service: MatchService) -> None:
    made = service.create("bop", {"players": 2})
    assert made.seat is not None
    with pytest.raises(NotPlaying):
        service.move(made.match, made.seat, "pass", 0)

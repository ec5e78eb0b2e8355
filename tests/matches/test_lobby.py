"""The lobby (``matches.lobby``) on both stores: creating a match, joining it (by invite, or a public one
without), refusals, leaving to a bot, rematches, and the lists a page offers."""

from __future__ import annotations

import pytest

from engine.registry import registered_games
from matches.errors import BadInvite, BadRequest, MatchFull, NotOver, Unauthorized, UnknownMatch
from matches.service import MatchService
from tests.matches.conftest import FakeClock
from tests.matches.playing import two_players


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


def test_the_game_list_offers_every_registered_game_with_its_options_and_bots(service: MatchService) -> None:
    listed = {game["game"]: game for game in service.games()}
    assert list(listed) == registered_games()
    assert listed["bop"]["options"]["mode"] == "strict" and listed["bop"]["players"] == 2
    assert listed["pdq"]["options"]["variant"] == "standard" and "sharp" in listed["pdq"]["bots"]
    assert "quick" not in listed["pdq"]["bots"]  # a retired level: saved matches keep it, menus do not offer it
    assert "greedy" in listed["bop"]["bots"] and listed["bop"]["word_game"] is True


def test_a_public_match_seats_anyone_and_a_private_one_only_with_its_invite(service: MatchService) -> None:
    public = service.create("bop", {"players": 3}, public=True, name="Ann")
    assert service.join(public.match, "", "Bob")[0] == 1
    with pytest.raises(BadInvite):
        service.join(public.match, "a-wrong-invite", "Eve")  # a wrong invite is still wrong
    private = service.create("bop", {"players": 2}, public=False, name="Ann")
    with pytest.raises(BadInvite):
        service.join(private.match, "", "Eve")
    assert service.join(private.match, private.invite, "Bob")[0] == 1


def test_a_seat_taken_marks_the_match_for_other_servers(service: MatchService, clock: FakeClock) -> None:
    made = service.create("bop", {"players": 2}, name="Ann")
    before = service.store.changes([made.match])[made.match]
    clock.advance(2)
    service.join(made.match, made.invite, "Bob")  # the start changes no version: the mark must move
    after = service.store.changes([made.match])[made.match]
    assert after[0] == before[0] == 0 and after[1] > before[1]
    assert service.store.versions([made.match]) == {made.match: 0}

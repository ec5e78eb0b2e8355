"""The lobby (``matches.lobby``) on both stores: creating a match, joining it (by invite, or a public one
without), refusals, leaving to a bot, rematches, and the lists a page offers."""

from __future__ import annotations

import threading

import pytest

from engine.registry import registered_games
from matches.errors import (
    BadInvite,
    BadRequest,
    BadSeatCode,
    MatchFull,
    NotOver,
    SeatCodeExpired,
    SeatCodeUsed,
    Unauthorized,
    UnknownMatch,
)
from matches.lobby import SEAT_CODE_SECONDS
from matches.service import MatchService
from matches.store import open_store
from tests.matches.conftest import FakeClock
from tests.matches.playing import two_players


def test_a_match_waits_for_every_seat_then_starts(service: MatchService) -> None:
    made = service.lobby.create("bop", {"players": 3}, name="Ann")
    loaded = service.core.load(made.match)
    assert loaded.row.status == "waiting" and loaded.state is None
    body = service.core.body(loaded, 0)
    assert body["status"] == "waiting" and body["view"] is None and body["seats"][0]["name"] == "Ann"
    service.lobby.join(made.match, made.invite, "Bob")
    assert service.core.load(made.match).row.status == "waiting"
    service.lobby.join(made.match, made.invite.rsplit("=", 1)[1], "Cy")  # the token alone works too
    loaded = service.core.load(made.match)
    assert loaded.row.status == "playing" and loaded.state is not None and loaded.state.version == 0


def test_joining_a_full_match_or_with_a_wrong_invite_is_refused(service: MatchService) -> None:
    full = service.lobby.create("bop", {"players": 2})
    service.lobby.join(full.match, full.invite, "Bob")
    match_id, made_invites = full.match, {full.match: full.invite}
    made = service.core.load(match_id)
    with pytest.raises(MatchFull):
        service.lobby.join(match_id, made_invites[match_id], "Eve")
    other = service.lobby.create("bop", {"players": 2})
    with pytest.raises(BadInvite):
        service.lobby.join(other.match, "not-the-invite", "Eve")
    with pytest.raises(UnknownMatch):
        service.lobby.join("nosuchmatch", other.invite, "Eve")
    assert made.row.status == "playing"


def test_bad_create_requests_are_refused(service: MatchService) -> None:
    with pytest.raises(BadRequest, match="no game called"):
        service.lobby.create("chess")
    with pytest.raises(BadRequest, match="bots"):
        service.lobby.create("bop", {"players": 2}, bots={"5": "greedy"})
    with pytest.raises(BadRequest, match="unknown bot"):
        service.lobby.create("bop", {"players": 2}, bots={"1": "wizard"})
    with pytest.raises(BadRequest, match="clock"):
        service.lobby.create("bop", {"players": 2}, clock={"turn_seconds": -1})
    with pytest.raises(BadRequest, match="seats"):
        service.lobby.create("bop", {"players": 3}, seats=2)
    with pytest.raises(BadRequest, match="players"):  # the engine's own option check, as a refusal
        service.lobby.create("bop", {"players": 9})


def test_leaving_hands_the_seat_to_a_bot_and_a_rematch_keeps_the_seats(service: MatchService, clock: FakeClock) -> None:
    match_id, tokens = two_players(service, "highcard", cards=2)
    service.lobby.leave(match_id, 1, "random")
    assert service.core.load(match_id).seats[1].bot == "random"
    with pytest.raises(Unauthorized):
        service.core.authenticate(match_id, tokens[1])  # the token no longer holds the seat
    with pytest.raises(NotOver):
        service.lobby.rematch(match_id, 0)
    for _ in range(4):
        state = service.core.load(match_id).state
        assert state is not None
        if 0 in state.acting_players():
            service.gate.move(match_id, 0, state.legal_moves(0)[0].to_text(), state.version)
        clock.advance(1)
        service.scheduler.run_due(match_id)
    assert service.core.load(match_id).row.status == "over"
    again = service.lobby.rematch(match_id, 0)
    assert service.lobby.rematch(match_id, 0) == again  # the same rematch for everyone who asks
    assert service.core.authenticate(again, tokens[0]) == 0
    assert service.core.load(again).row.status == "playing" and service.core.load(match_id).row.rematch == again


def test_the_game_list_offers_every_registered_game_with_its_options_and_bots(service: MatchService) -> None:
    listed = {game["game"]: game for game in service.lobby.games()}
    assert list(listed) == registered_games()
    assert listed["bop"]["options"]["mode"] == "strict" and listed["bop"]["players"] == 2
    assert listed["pdq"]["options"]["variant"] == "standard" and "sharp" in listed["pdq"]["bots"]
    assert "quick" not in listed["pdq"]["bots"]  # a retired level: saved matches keep it, menus do not offer it
    assert listed["bop"]["bots"][:3] == ["easy", "normal", "hard"] and listed["bop"]["word_game"] is True
    assert "greedy" not in listed["bop"]["bots"]  # another name for normal: seated, not offered


def test_a_match_says_which_levels_sat_at_the_table(service: MatchService) -> None:
    """Each seat a bot holds names its level (``greedy`` is normal's other name; a game's own bots
    have theirs: Qwiply's planner is hard); a person's seat has none."""
    made = service.lobby.create("qnto", {"players": 4}, bots={"1": "easy", "2": "hard", "3": "greedy"}, name="Ann")
    seats = service.core.body(service.core.load(made.match), 0)["seats"]
    assert [(seat["bot"], seat["level"]) for seat in seats] == [(None, None), ("easy", "easy"), ("hard", "hard"),
                                                                ("greedy", "normal")]  # fmt: skip
    planner = service.lobby.create("qwiply", {"players": 2}, bots={"1": "planner"}, name="Ann")
    assert service.core.body(service.core.load(planner.match), 0)["seats"][1]["level"] == "hard"


def test_a_public_match_seats_anyone_and_a_private_one_only_with_its_invite(service: MatchService) -> None:
    public = service.lobby.create("bop", {"players": 3}, public=True, name="Ann")
    assert service.lobby.join(public.match, "", "Bob")[0] == 1
    with pytest.raises(BadInvite):
        service.lobby.join(public.match, "a-wrong-invite", "Eve")  # a wrong invite is still wrong
    private = service.lobby.create("bop", {"players": 2}, public=False, name="Ann")
    with pytest.raises(BadInvite):
        service.lobby.join(private.match, "", "Eve")
    assert service.lobby.join(private.match, private.invite, "Bob")[0] == 1


def test_a_seat_taken_marks_the_match_for_other_servers(service: MatchService, clock: FakeClock) -> None:
    made = service.lobby.create("bop", {"players": 2}, name="Ann")
    before = service.store.changes([made.match])[made.match]
    clock.advance(2)
    service.lobby.join(made.match, made.invite, "Bob")  # the start changes no version: the mark must move
    after = service.store.changes([made.match])[made.match]
    assert after[0] == before[0] == 0 and after[1] > before[1]
    assert service.store.versions([made.match]) == {made.match: 0}


# --- seats that travel ----------------------------------------------------------------------------------
def test_a_seat_link_moves_the_seat_once_and_the_old_token_stops_working(
    service: MatchService, clock: FakeClock
) -> None:
    match_id, tokens = two_players(service)
    made = service.lobby.seat_link(match_id, 1, tokens[1])
    assert made.link == f"{service.core.settings.public_url}/play/{match_id}#seat={made.code}"  # in the fragment
    assert made.expires_in == SEAT_CODE_SECONDS and made.code not in str(service.store.seats(match_id))
    told: list[str] = []
    service.core.listeners.append(lambda event: told.append(event.kind))
    seat, token = service.lobby.take_seat_by_code(match_id, made.code)
    assert seat == 1 and token not in tokens.values() and told == ["seats"]
    assert service.core.authenticate(match_id, token) == 1
    with pytest.raises(Unauthorized):  # the seat moved: the old device watches now
        service.core.authenticate(match_id, tokens[1])
    assert service.core.authenticate(match_id, tokens[0]) == 0  # the other seat is as it was
    with pytest.raises(SeatCodeUsed, match="used already"):
        service.lobby.take_seat_by_code(match_id, made.code)
    assert service.core.load(match_id).seats[1].name == "Bob"  # the seat, its name and its place are kept


def test_a_seat_link_expires_and_a_newer_one_replaces_it(service: MatchService, clock: FakeClock) -> None:
    match_id, tokens = two_players(service)
    first = service.lobby.seat_link(match_id, 0, tokens[0])
    second = service.lobby.seat_link(match_id, 0, tokens[0])
    with pytest.raises(BadSeatCode):  # replaced by the newer link
        service.lobby.take_seat_by_code(match_id, first.code)
    clock.advance(SEAT_CODE_SECONDS)
    with pytest.raises(SeatCodeExpired, match="10 minutes"):
        service.lobby.take_seat_by_code(match_id, second.code)
    assert service.core.authenticate(match_id, tokens[0]) == 0  # nothing moved
    third = service.lobby.seat_link(match_id, 0, tokens[0])
    clock.advance(SEAT_CODE_SECONDS - 1)
    assert service.lobby.take_seat_by_code(match_id, third.code)[0] == 0


def test_a_seat_link_is_its_own_matchs_and_its_seats_while_the_seat_is_the_askers(service: MatchService) -> None:
    match_id, tokens = two_players(service)
    other_id, _ = two_players(service)
    made = service.lobby.seat_link(match_id, 0, tokens[0])
    with pytest.raises(BadSeatCode):
        service.lobby.take_seat_by_code(other_id, made.code)
    with pytest.raises(BadSeatCode):
        service.lobby.take_seat_by_code(match_id, "x" * 22)
    service.lobby.leave(match_id, 0)  # a bot takes the seat: the link moves nothing
    with pytest.raises(SeatCodeUsed, match="changed hands"):
        service.lobby.take_seat_by_code(match_id, made.code)
    assert service.core.load(match_id).seats[0].bot == "greedy"
    with pytest.raises(UnknownMatch):
        service.lobby.take_seat_by_code("no-such-match", made.code)


def test_of_two_devices_taking_one_seat_link_at_once_one_has_the_seat(store_url: str, clock: FakeClock) -> None:
    """Two server processes on one store redeem the same code: the store's conditional update decides."""
    first, second = (MatchService(open_store(store_url), clock_now=clock) for _ in range(2))
    try:
        match_id, tokens = two_players(first)
        code = first.lobby.seat_link(match_id, 1, tokens[1]).code
        answers: list[object] = []

        def take(service: MatchService) -> None:
            try:
                answers.append(service.lobby.take_seat_by_code(match_id, code))
            except SeatCodeUsed as refused:
                answers.append(refused)

        racers = [threading.Thread(target=take, args=(service,)) for service in (first, second)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=30)
        taken = [answer for answer in answers if isinstance(answer, tuple)]
        assert len(answers) == 2 and len(taken) == 1
        assert first.core.authenticate(match_id, taken[0][1]) == 1
    finally:
        first.store.close()
        second.store.close()


def test_an_invite_to_a_full_match_says_the_seats_are_full_and_where_to_watch(service: MatchService) -> None:
    made = service.lobby.create("bop", {"players": 2}, name="Ann")
    service.lobby.join(made.match, made.invite, "Bob")
    with pytest.raises(MatchFull, match="The seats are full") as full:
        service.lobby.join(made.match, made.invite, "Cy")
    assert full.value.extra == {"spectate": service.core.spectate_link(made.match)}


@pytest.mark.parametrize(
    ("given", "kept"), [("\x85", "Player 1"), (" Ann\n", "Ann"), ("Ann\x85", "Ann"), ("\t", "Player 1")]
)
def test_white_space_at_a_names_ends_is_trimmed_before_the_control_check(
    service: MatchService, given: str, kept: str
) -> None:
    """A line break or a NEL (U+0085, a C1 control and white space) at a name's end is trimmed as a space
    is (a pasted name), not refused; inside a name it is refused (``test_quotas.CONTROLS``)."""
    made = service.lobby.create("bop", seats=2, name=given)
    assert service.core.load(made.match).seats[0].name == kept
    with pytest.raises(BadRequest, match="control characters"):
        service.lobby.create("bop", seats=2, name="A\x85n")

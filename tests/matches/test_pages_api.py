"""What the web pages need from the match server beyond the gate: the game list, joining a public
match without an invite, every turn's breakdown, a spectator's view at any version (the replay), and
reviews that wait until their position is behind the table. On both stores, and over real HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from engine.base import REFEREE
from engine.registry import registered_games
from matches.errors import BadInvite, BadRequest, NotOver, NotPlaying
from matches.service import MatchService
from tests.matches.conftest import FakeClock
from tests.matches.test_service import two_players, whose_turn


def play_a_few_bop_turns(service: MatchService, match_id: str, turns: int) -> list[dict[str, Any]]:
    """Best plays (a trade when there is none) for both seats; what each move answered, and what a
    spectator was sent after it."""
    seen = []
    for _ in range(turns):
        state = service.load(match_id).state
        assert state is not None
        seat = whose_turn(service, match_id)
        plays = [scored.move for scored in state.scored_moves(seat)]
        move = plays[0].to_text() if plays else "pass"
        moved = service.move(match_id, seat, move, state.version)
        spectator = service.body(service.load(match_id), None)["view"]
        seen.append({"seat": seat, "move": move, "version": moved.version, "breakdown": moved.breakdown.to_json(),
                     "spectator": spectator})  # fmt: skip
    return seen


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


def test_turns_give_each_moves_breakdown_the_scores_after_it_and_hide_a_trade(service: MatchService) -> None:
    match_id, _ = two_players(service)
    assert service.turns(match_id, 0)["turns"] == []
    made = play_a_few_bop_turns(service, match_id, 3)
    mover = whose_turn(service, match_id)
    trade = "".join(service.load(match_id).state.hands[mover][:2])  # type: ignore[union-attr]
    service.move(match_id, mover, f"pass {trade}", 3)

    own, other = service.turns(match_id, mover), service.turns(match_id, 1 - mover)
    assert [step["version"] for step in own["turns"]] == [1, 2, 3, 4]
    assert [step["breakdown"] for step in own["turns"][:3]] == [step["breakdown"] for step in made]
    assert [step["move"] for step in own["turns"][:3]] == [step["move"] for step in made]
    assert [step["scores"] for step in own["turns"][:3]] == [step["spectator"]["scores"] for step in made]
    assert own["turns"][3]["move"] == f"pass {trade}" and own["turns"][3]["chance"][0].startswith("draw ")
    assert other["turns"][3]["move"] == "pass (2 tiles traded)" and trade not in str(other)
    assert other["turns"][3]["chance"] == [f"draw to {mover}"] * 2  # the drawn tiles face down too
    assert trade not in str(service.turns(match_id, None))


def test_the_replay_at_a_version_is_what_a_spectator_was_sent_then(service: MatchService) -> None:
    match_id, _ = two_players(service, mode="challenge")
    start = service.body(service.load(match_id), None)["view"]
    made = play_a_few_bop_turns(service, match_id, 4)
    step = service.replay_view(match_id, 0)
    assert step["view"] == start and step["move"] is None
    for seen in made:
        step = service.replay_view(match_id, seen["version"])
        assert step["view"] == seen["spectator"] and (step["seat"], step["move"]) == (seen["seat"], seen["move"])
    with pytest.raises(BadRequest):
        service.replay_view(match_id, 5)
    waiting = service.create("bop", {"players": 2})
    with pytest.raises(NotPlaying):
        service.replay_view(waiting.match, 0)


def test_a_bop_review_is_the_movers_own_at_once_and_anyones_after_the_end(service: MatchService) -> None:
    match_id, _ = two_players(service)
    made = play_a_few_bop_turns(service, match_id, 2)
    first, second = made[0]["seat"], made[1]["seat"]
    review = service.review(match_id, 1, first)
    assert review["seat"] == first and review["review"]["best"][0]["points"] == made[0]["breakdown"]["total"]
    assert service.review(match_id, 1, second, subject=second)["seat"] == second  # my options then, at once
    with pytest.raises(NotOver):
        service.review(match_id, 1, second)  # the other's options: after the end
    with pytest.raises(NotOver):
        service.review(match_id, 1, None)
    with pytest.raises(BadRequest):
        service.review(match_id, 1, first, subject=5)


def pdq_word(service: MatchService, match_id: str) -> str:
    loaded = service.load(match_id)
    assert loaded.state is not None
    letters = loaded.state.view(None)["round"]["letters"]
    options = loaded.game.options
    listing = loaded.game.adjudicator.pdq(letters, variant=options.word_rule, min_length=options.min_length, limit=1)
    return str(listing.words[0])


def test_a_pdq_round_report_waits_until_the_round_has_ended(service: MatchService, clock: FakeClock) -> None:
    match_id, _ = two_players(service, "pdq", only_solvable=True)
    moved = service.move(match_id, 0, f"claim {pdq_word(service, match_id)}", 0)
    with pytest.raises(NotOver):  # the row's words would be a hint while the round is in play
        service.review(match_id, moved.version, 0)
    clock.advance(2)  # the window's end (2 s)
    assert not service.run_due(match_id)  # the referee waits for claims still on their way (the lag grace)
    clock.advance(1.5)
    assert service.run_due(match_id)  # the referee closes the window
    moves = service.store.moves(match_id)
    assert moves[-1].seat == REFEREE
    for seat in (0, 1):  # the round is over: each seat sees the words it could have said
        report = service.review(match_id, len(moves), seat)
        assert report["seat"] == seat and report["mover"] == REFEREE
        assert report["review"]["count"] > 0 and report["review"]["common"]
        assert report["review"]["letters"] == service.review(match_id, moved.version, 0)["review"]["letters"]
    with pytest.raises(NotOver):
        service.review(match_id, len(moves), 1, subject=0)  # another seat's options: after the end
    with pytest.raises(NotOver):
        service.review(match_id, len(moves), None)  # a spectator: after the end


def test_the_clock_says_the_servers_time_with_its_deadline(service: MatchService, clock: FakeClock) -> None:
    made = service.create("bop", {"players": 2}, clock={"turn_seconds": 30})
    service.join(made.match, made.invite, "Bob")
    clock.advance(12.5)
    shown = service.body(service.load(made.match), 0)["clock"]
    assert shown["now_ms"] == int(clock.now * 1000) and shown["deadline_ms"] - shown["now_ms"] == 17_500


@pytest.mark.server
def test_the_pages_calls_over_http(live_server: str) -> None:
    with httpx.Client(base_url=live_server, timeout=30) as http:
        qr = http.get("/v1/qr", params={"text": f"{live_server}/play/abc?invite=xyz"})
        assert qr.headers["content-type"] == "image/svg+xml" and qr.text.startswith("<svg")
        assert 'xmlns="http://www.w3.org/2000/svg"' in qr.text  # a document an <img> can show
        games = http.get("/v1/games").json()["games"]
        assert {"bop", "pdq"} <= {game["game"] for game in games}
        made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann", "public": True}).json()
        joined = http.post(f"/v1/matches/{made['match']}/join", json={"name": "Bob"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        tokens = {0: made["token"], 1: joined.json()["token"]}
        body = http.get(f"/v1/matches/{made['match']}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        mover = body["must_act"][0]
        headers = {"Authorization": f"Bearer {tokens[mover]}"}
        http.post(f"/v1/matches/{made['match']}/moves", json={"move": "pass", "version": 0}, headers=headers)
        turns = http.get(f"/v1/matches/{made['match']}/turns", headers=headers).json()
        assert [(t["version"], t["seat"], t["move"]) for t in turns["turns"]] == [(1, mover, "pass")]
        step = http.get(f"/v1/matches/{made['match']}/replay", params={"version": 1}).json()
        assert step["view"]["passes_in_row"] == 1 and "hands" in step["view"] and "history" not in step["view"]
        review = http.get(f"/v1/matches/{made['match']}/review", params={"version": 1, "seat": mover}, headers=headers)
        assert review.status_code == 200 and review.json()["seat"] == mover
        other = http.get(f"/v1/matches/{made['match']}/review", params={"version": 1, "seat": 1 - mover},
                         headers=headers)  # fmt: skip
        assert other.status_code == 409 and other.json()["error"]["code"] == "not_over"


def test_a_seat_taken_marks_the_match_for_other_servers(service: MatchService, clock: FakeClock) -> None:
    made = service.create("bop", {"players": 2}, name="Ann")
    before = service.store.changes([made.match])[made.match]
    clock.advance(2)
    service.join(made.match, made.invite, "Bob")  # the start changes no version: the mark must move
    after = service.store.changes([made.match])[made.match]
    assert after[0] == before[0] == 0 and after[1] > before[1]
    assert service.store.versions([made.match]) == {made.match: 0}


@pytest.mark.server
def test_the_start_reaches_sockets_on_every_server_process(live_server: str) -> None:
    """``tablejudge serve --workers 2``: of eight watchers some sit on each worker; the join goes
    through one of them, and every watcher hears that the game has begun."""
    from contextlib import ExitStack

    from tests.matches.test_http import live, receive

    with httpx.Client(base_url=live_server, timeout=30) as http, ExitStack() as stack:
        made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
        sockets = [stack.enter_context(live(live_server, made["match"])) for _ in range(8)]
        for socket in sockets:
            assert receive(socket)["match"]["status"] == "waiting"
        http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"})
        for socket in sockets:
            event = receive(socket)
            assert event["type"] == "update" and event["match"]["status"] == "playing"
            assert [seat["name"] for seat in event["match"]["seats"]] == ["Ann", "Bob"]


def test_a_qwiply_score_sheet_with_hidden_bids_shows_only_the_readers_own_score_until_the_end(
    service: MatchService,
) -> None:
    """A score as it stands would tell a hidden bid (a bid of 0 scores 20 until a win): the turns give
    each reader only their own, as their view does, and every score once the match is over."""
    match_id, _ = two_players(service, "qwiply", bids="hidden")
    service.move(match_id, 0, "setup x=1,1,1,1,1 bid=0,0,0,0,0", 0)
    service.move(match_id, 1, "setup x=6,6,6,6,6 bid=4,4,4,4,4", 1)
    while service.load(match_id).row.status == "playing":
        state = service.load(match_id).state
        assert state is not None
        seat = whose_turn(service, match_id)
        move = state.timeout_move(seat)
        assert move is not None
        service.move(match_id, seat, move.to_text(), state.version)
        if state.version == 4:  # set-ups, the lead and a claim: a standing score on each sheet
            for reader in (0, 1, None):
                turns = service.turns(match_id, reader)["turns"]
                view = service.body(service.load(match_id), reader)["view"]
                assert turns[-1]["scores"] == view["scores"]
                assert [score is None for score in view["scores"]] == [reader != 0, reader != 1]
    final = service.body(service.load(match_id), None)["view"]["scores"]
    for reader in (0, 1, None):
        turns = service.turns(match_id, reader)["turns"]
        assert turns[-1]["scores"] == final and all(None not in step["scores"] for step in turns)

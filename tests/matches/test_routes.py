"""The match server's routes (``matches.routes``) over real HTTP and WebSockets (``tablejudge serve
--workers 2`` on SQLite): every bad input a readable 4xx, live events to seats and spectators,
reconnection from a version, a move made through one worker reaching a socket held by the other, and
the calls the pages make."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from matches.errors import Unauthorized
from matches.routes import MATCH_ID, MoveBody, _is_json, bearer, make_move, reader, router
from service.app import create_app
from service.settings import Settings
from tests.matches.clients import auth, live, receive
from tests.matches.conftest import FakeClock


@pytest.fixture
def http(live_server: str) -> Any:
    with httpx.Client(base_url=live_server, timeout=30) as client:
        yield client


def new_bop(http: httpx.Client, **extra: Any) -> tuple[str, dict[int, str]]:
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann", **extra})
    assert made.status_code == 201, made.text
    body = made.json()
    joined = http.post(f"/v1/matches/{body['match']}/join", json={"invite": body["invite"], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    return body["match"], {0: body["token"], 1: joined.json()["token"]}


def current(http: httpx.Client, match_id: str, token: str) -> dict[str, Any]:
    answer = http.get(f"/v1/matches/{match_id}", headers=auth(token))
    assert answer.status_code == 200
    return answer.json()


@pytest.mark.server
def test_create_join_and_move_over_http(http: httpx.Client) -> None:
    match_id, tokens = new_bop(http)
    body = current(http, match_id, tokens[0])
    assert body["status"] == "playing" and body["you"] == 0 and body["version"] == 0
    assert isinstance(body["view"]["hands"][0], list) and body["view"]["hands"][1] == 5  # only its own hand
    mover = body["must_act"][0]
    moved = http.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": 0}, headers=auth(tokens[mover]))
    assert moved.status_code == 200
    assert moved.json()["version"] == 1 and moved.json()["breakdown"]["total"] == 0
    assert moved.json()["must_act"] == [1 - mover]


def error(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code and len(body["message"]) > 10
    return dict(body)


@pytest.mark.server
def test_every_bad_input_is_a_readable_4xx_and_changes_nothing(http: httpx.Client) -> None:
    match_id, tokens = new_bop(http)
    body = current(http, match_id, tokens[0])
    mover, other = body["must_act"][0], 1 - body["must_act"][0]
    url = f"/v1/matches/{match_id}/moves"
    error(http.get("/v1/matches/nosuchmatch"), 404, "unknown_match")
    error(http.post(url, json={"move": "pass", "version": 0}), 401, "unauthorized")
    error(
        http.post(url, json={"move": "pass", "version": 0}, headers={"Authorization": "Bearer nope"}),
        401,
        "unauthorized",
    )
    other_match, other_tokens = new_bop(http)
    error(http.post(url, json={"move": "pass", "version": 0}, headers=auth(other_tokens[0])), 401, "unauthorized")
    error(http.post(url, json={"move": "pass", "version": 0}, headers=auth(tokens[other])), 403, "wrong_player")
    stale = error(
        http.post(url, json={"move": "pass", "version": 7}, headers=auth(tokens[mover])), 409, "stale_version"
    )
    assert stale["match"]["version"] == 0 and stale["match"]["you"] == mover  # the view to resync from
    error(http.post(url, json={"move": "9,9x ZZZ", "version": 0}, headers=auth(tokens[mover])), 422, "bad_notation")
    illegal = error(
        http.post(url, json={"move": "5,5 Zy", "version": 0}, headers=auth(tokens[mover])), 422, "illegal_move"
    )
    assert illegal["rule"] in ("not_in_hand", "not_connected")
    error(http.post(url, json={"move": "pass"}, headers=auth(tokens[mover])), 422, "malformed_body")
    error(
        http.post(url, content=b"{", headers={**auth(tokens[mover]), "Content-Type": "application/json"}),
        422,
        "malformed_body",
    )
    # The move route reads its own body (matches.routes.make_move_plain): it must refuse as FastAPI would.
    as_text = error(http.post(url, content=b'{"move": "pass", "version": 0}', headers=auth(tokens[mover])), 422,
                    "malformed_body")  # fmt: skip
    assert "Content-Type: application/json" in as_text["message"]
    plain = {**auth(tokens[mover]), "Content-Type": "text/plain"}
    assert "got 'text/plain'" in error(http.post(url, content=b"pass", headers=plain), 422, "malformed_body")["message"]
    # A seat named is a table match's entry (matches/table.py): a match dealt online says it is not one.
    extra = error(http.post(url, json={"move": "pass", "version": 0, "seat": 1}, headers=auth(tokens[mover])), 422,
                  "not_a_table")  # fmt: skip
    assert "dealt online" in extra["message"]
    long = error(http.post(url, json={"move": "x" * 401, "version": 0}, headers=auth(tokens[mover])), 422,
                 "malformed_body")  # fmt: skip
    assert "move: " in long["message"]
    assert "version: " in error(http.post(url, json={"move": "pass", "version": -1}, headers=auth(tokens[mover])),
                                   422, "malformed_body")["message"]  # fmt: skip
    error(http.post(url, json=[], headers=auth(tokens[mover])), 422, "malformed_body")
    error(http.post(url, content=b"", headers={**auth(tokens[mover]), "Content-Type": "application/json"}), 422,
          "malformed_body")  # fmt: skip
    bad_id = error(http.post("/v1/matches/no%20such/moves", json={"move": "pass", "version": 0}), 400, "bad_option")
    assert "match_id" in bad_id["message"]
    error(http.post(url, json={"move": "x" * 20_000, "version": 0}, headers=auth(tokens[mover])), 413, "body_too_large")
    error(http.post(f"/v1/matches/{match_id}/join", json={"invite": "wrong", "name": "Eve"}), 403, "bad_invite")
    error(http.get(f"/v1/matches/{match_id}/log"), 409, "not_over")
    error(http.post("/v1/matches", json={"game": "Chess!"}), 422, "malformed_body")  # not a game's name at all
    error(http.post("/v1/matches", json={"game": "nosuchgame"}), 422, "bad_match_request")
    assert current(http, match_id, tokens[0])["version"] == 0  # nothing changed
    assert current(http, other_match, other_tokens[0])["version"] == 0


@pytest.mark.server
def test_joining_twice_is_refused_and_changes_nothing(http: httpx.Client) -> None:
    made = http.post("/v1/matches", json={"game": "bop", "seats": 3, "public": False}).json()
    again = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]}, headers=auth(made["token"]))
    assert error(again, 409, "already_seated")["seat"] == 0
    body = http.get(f"/v1/matches/{made['match']}").json()
    assert [seat["joined"] for seat in body["seats"]] == [True, False, False]


@pytest.mark.server
def test_a_full_match_answers_409_and_the_spectator_sees_no_hand(http: httpx.Client) -> None:
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2}).json()
    assert http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]}).status_code == 200
    error(http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]}), 409, "match_full")
    spectator = http.get(f"/v1/matches/{made['match']}").json()
    assert spectator["you"] is None and spectator["view"]["hands"] == [5, 5]


@pytest.mark.server
def test_live_events_reach_seats_and_spectators_and_a_reconnect_catches_up(
    http: httpx.Client, live_server: str
) -> None:
    match_id, tokens = new_bop(http, options={"mode": "challenge"})
    mover = current(http, match_id, tokens[0])["must_act"][0]
    with (
        live(live_server, match_id, tokens[1 - mover]) as seat_socket,
        live(live_server, match_id) as watcher,
    ):
        assert receive(seat_socket)["type"] == "hello" and receive(watcher)["type"] == "hello"
        # The move goes in over HTTP (to either worker); both sockets hear of it.
        http.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": 0}, headers=auth(tokens[mover]))
        for socket, seat in ((seat_socket, 1 - mover), (watcher, None)):
            event = receive(socket)
            assert event["type"] == "update" and event["version"] == 1
            assert event["moves"] == [{"seat": mover, "move": "pass"}] and event["match"]["you"] == seat
        # A move sent on the socket is answered on it.
        seat_socket.send(json.dumps({"type": "move", "move": "pass", "version": 1, "id": 9}))
        answers = [receive(seat_socket), receive(seat_socket)]
        assert {"ack", "update"} == {a["type"] for a in answers}
        ack = next(a for a in answers if a["type"] == "ack")
        assert ack["id"] == 9 and ack["version"] == 2
        seat_socket.send(json.dumps({"type": "move", "move": "pass", "version": 1, "id": 10}))
        refused = receive(seat_socket)
        assert refused["type"] == "error" and refused["error"]["code"] in ("wrong_player", "stale_version")
    with live(live_server, match_id, tokens[mover], since=1) as again:
        hello = receive(again)
        assert hello["version"] == 2 and hello["moves"] == [{"seat": 1 - mover, "move": "pass"}]


@pytest.mark.server
def test_a_socket_whose_seat_was_left_cannot_move_for_the_bot(http: httpx.Client, live_server: str) -> None:
    """A socket opened with a seat's token shows that token with every move: once the seat is left
    (a bot plays it on), the socket's moves are refused (401), over the socket as over HTTP, and the
    match does not move."""
    match_id, tokens = new_bop(http, options={"mode": "challenge"})
    mover = current(http, match_id, tokens[0])["must_act"][0]
    with live(live_server, match_id, tokens[mover]) as socket:
        assert receive(socket)["type"] == "hello"
        left = http.post(f"/v1/matches/{match_id}/leave", headers=auth(tokens[mover]))
        assert left.status_code == 200, left.text
        version = current(http, match_id, tokens[1 - mover])["version"]
        socket.send(json.dumps({"type": "move", "move": "pass", "version": version, "id": 1}))
        answer = receive(socket)
        while answer["type"] == "update":  # the seat's change, told to its socket
            answer = receive(socket)
        assert answer["type"] == "error" and answer["error"]["code"] == "unauthorized", answer
        refused = http.post(
            f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version}, headers=auth(tokens[mover])
        )
        assert refused.status_code == 401, refused.text
    after = current(http, match_id, tokens[1 - mover])
    assert after["seats"][mover]["bot"] is not None and after["version"] >= version


@pytest.mark.server
def test_a_trade_stays_face_down_in_other_seats_events(http: httpx.Client, live_server: str) -> None:
    match_id, tokens = new_bop(http)
    body = current(http, match_id, tokens[0])
    mover = body["must_act"][0]
    hand = current(http, match_id, tokens[mover])["view"]["hands"][mover]
    with (
        live(live_server, match_id, tokens[1 - mover]) as other,
        live(live_server, match_id) as watcher,
    ):
        receive(other), receive(watcher)
        trade = "pass " + "".join(hand[:2])
        assert (
            http.post(
                f"/v1/matches/{match_id}/moves", json={"move": trade, "version": 0}, headers=auth(tokens[mover])
            ).status_code
            == 200
        )
        for socket in (other, watcher):
            text = socket.recv(timeout=20)
            while json.loads(text)["type"] == "ping":
                text = socket.recv(timeout=20)
            assert "".join(hand[:2]) not in text and "pass (2 tiles traded)" in text


@pytest.mark.slow
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


@pytest.mark.server
def test_the_start_reaches_sockets_on_every_server_process(live_server: str) -> None:
    """``tablejudge serve --workers 2``: of eight watchers some sit on each worker; the join goes
    through one of them, and every watcher hears that the game has begun."""
    from contextlib import ExitStack

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


# --- in process: the routes' own pieces, and the move route declared once -----------------------------
@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(Settings(lexicons=("standard",), data_dir=str(tmp_path)))


def ask(app: FastAPI, method: str, path: str, **request: Any) -> httpx.Response:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://play.test") as client:
            return await client.request(method, path, **request)

    return asyncio.run(send())


@pytest.mark.parametrize(
    ("header", "token"),
    [(None, None), ("", None), ("Bearer abc", "abc"), ("bearer  abc ", "abc"), ("BEARER abc", "abc")],
)
def test_a_bearer_header_gives_its_token(header: str | None, token: str | None) -> None:
    assert bearer(header) == token


@pytest.mark.parametrize("header", ["Basic abc", "Bearer", "Bearer    ", "abc"])
def test_any_other_authorization_is_a_401_that_says_how(header: str) -> None:
    with pytest.raises(Unauthorized, match="Authorization: Bearer <token>"):
        bearer(header)


@pytest.mark.parametrize(
    ("content_type", "json_body"),
    [("application/json", True), ("Application/JSON; charset=utf-8", True), ("application/merge-patch+json", True),
     ("text/plain", False), ("application/x-www-form-urlencoded", False), ("text/json", False)],
)  # fmt: skip
def test_the_move_route_reads_a_body_as_json_as_fastapi_does(content_type: str, json_body: bool) -> None:
    assert _is_json(content_type) is json_body


def test_the_move_route_is_declared_once_and_documented_from_the_types_it_reads_with(app: FastAPI) -> None:
    path = "/v1/matches/{match_id}/moves"
    declared = [route for route in router.routes if getattr(route, "path", None) == path]
    assert len(declared) == 1
    served = [route for route in app.router.routes if getattr(route, "endpoint", None) is make_move]
    assert len(served) == 1 and getattr(served[0], "path", None) == path
    assert getattr(served[0], "methods", None) == {"POST"}
    assert served[0] is app.router.routes[0]  # the hot path is tried first
    schema = app.openapi()
    documented = schema["paths"][path]["post"]
    assert [parameter["name"] for parameter in documented["parameters"]] == ["match_id", "authorization"]
    assert documented["parameters"][0]["schema"]["pattern"] == MATCH_ID
    assert schema["components"]["schemas"]["MoveBody"] == MoveBody.model_json_schema(
        ref_template="#/components/schemas/{model}"
    )


def test_a_malformed_move_is_fastapis_own_422_and_changes_nothing(app: FastAPI) -> None:
    made = ask(app, "POST", "/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    joined = ask(app, "POST", f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]}).json()
    tokens = {made["seat"]: made["token"], joined["seat"]: joined["token"]}
    url = f"/v1/matches/{made['match']}/moves"
    for body in ({"move": "pass"}, {"move": "pass", "version": "zero"}, {"move": 7, "version": 0}):
        refused = ask(app, "POST", url, json=body, headers=auth(tokens[0]))
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "malformed_body", body
    as_text = ask(app, "POST", url, content=b'{"move": "pass", "version": 0}', headers={**auth(tokens[0]),
                  "Content-Type": "text/plain"})  # fmt: skip
    assert as_text.status_code == 422 and "Content-Type: application/json" in as_text.json()["error"]["message"]
    bad_id = ask(app, "POST", "/v1/matches/not%20an%20id/moves", json={"move": "pass", "version": 0})
    assert bad_id.status_code == 400 and bad_id.json()["error"]["code"] == "bad_option"
    seen = ask(app, "GET", f"/v1/matches/{made['match']}", headers=auth(tokens[0])).json()
    assert seen["version"] == 0


def test_an_optional_token_reads_as_a_seat_or_a_spectator_and_a_wrong_one_is_refused(app: FastAPI) -> None:
    made = ask(app, "POST", "/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    ask(app, "POST", f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]})
    service = app.state.matches
    assert reader(service, made["match"], None) is None
    assert reader(service, made["match"], f"Bearer {made['token']}") == made["seat"]
    with pytest.raises(Unauthorized):
        reader(service, made["match"], "Bearer someone-elses")
    sheet = ask(app, "GET", f"/v1/matches/{made['match']}/turns", headers={"Authorization": "Bearer nope"})
    assert sheet.status_code == 401 and sheet.json()["error"]["code"] == "unauthorized"


# --- seats that travel, over HTTP (in process, the service's clock in the test's hand) ------------------
def seated_pair(app: FastAPI) -> tuple[str, dict[int, str]]:
    made = ask(app, "POST", "/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    joined = ask(app, "POST", f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"})
    return made["match"], {made["seat"]: made["token"], joined.json()["seat"]: joined.json()["token"]}


def refused(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and len(error["message"]) > 20
    return str(error["message"])


def test_a_seat_link_over_http_moves_the_seat_once(app: FastAPI) -> None:
    match_id, tokens = seated_pair(app)
    made = ask(app, "POST", f"/v1/matches/{match_id}/seat-link", headers=auth(tokens[1]))
    assert made.status_code == 201, made.text
    link = made.json()
    assert (
        link["seat"] == 1
        and link["expires_in"] == 600
        and link["link"].endswith(f"/play/{match_id}#seat={link['code']}")
    )
    take = f"/v1/matches/{match_id}/seat-link/take"
    taken = ask(app, "POST", take, json={"code": link["code"]})
    assert taken.status_code == 200 and taken.json()["seat"] == 1 and taken.json()["match"] == match_id
    new_token = taken.json()["token"]
    assert ask(app, "GET", f"/v1/matches/{match_id}", headers=auth(new_token)).json()["you"] == 1
    refused(ask(app, "GET", f"/v1/matches/{match_id}", headers=auth(tokens[1])), 401, "unauthorized")
    assert "used already" in refused(ask(app, "POST", take, json={"code": link["code"]}), 409, "seat_code_used")
    mover = ask(app, "GET", f"/v1/matches/{match_id}", headers=auth(new_token)).json()["must_act"][0]
    mover_token = new_token if mover == 1 else tokens[0]
    moved = ask(
        app, "POST", f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": 0}, headers=auth(mover_token)
    )
    assert moved.status_code == 200  # the seat plays on from the new device


def test_a_seat_link_is_refused_in_words_expired_elsewhere_or_unseated(app: FastAPI) -> None:
    clock = FakeClock()
    app.state.matches.core.clock_now = clock
    match_id, tokens = seated_pair(app)
    other_id, _ = seated_pair(app)
    link = ask(app, "POST", f"/v1/matches/{match_id}/seat-link", headers=auth(tokens[0])).json()
    refused(
        ask(app, "POST", f"/v1/matches/{other_id}/seat-link/take", json={"code": link["code"]}), 403, "bad_seat_code"
    )
    refused(ask(app, "POST", f"/v1/matches/{match_id}/seat-link"), 401, "unauthorized")  # no seat, no link
    refused(ask(app, "POST", f"/v1/matches/{match_id}/seat-link", headers=auth("not-a-seat")), 401, "unauthorized")
    refused(ask(app, "POST", "/v1/matches/nosuchmatch/seat-link", headers=auth(tokens[0])), 401, "unauthorized")
    take = f"/v1/matches/{match_id}/seat-link/take"
    refused(ask(app, "POST", take, json={"code": "short"}), 422, "malformed_body")
    refused(ask(app, "POST", take, json={"code": link["code"], "seat": 1}), 422, "malformed_body")
    clock.advance(601)
    assert "expired" in refused(ask(app, "POST", take, json={"code": link["code"]}), 410, "seat_code_expired")
    assert ask(app, "GET", f"/v1/matches/{match_id}", headers=auth(tokens[0])).json()["you"] == 0  # nothing moved


def test_an_invite_to_a_full_match_answers_409_seats_full_with_the_watch_link(app: FastAPI) -> None:
    made = ask(app, "POST", "/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    ask(app, "POST", f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]})
    answer = ask(app, "POST", f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Cy"})
    assert "The seats are full" in refused(answer, 409, "match_full")
    assert answer.json()["error"]["spectate"].endswith(f"/play/{made['match']}?watch=1")


MOVE_BODIES = [
    b'{"move": "pass", "version": 3}',
    b'{"version": 0, "move": "x"}',
    b'{"move": "pass", "move": "swap", "version": 1}',  # a key twice: the last, as pydantic reads it
    b'{"move": "pass", "version": 3.0}',  # lax: pydantic takes a whole float
    b'{"move": "pass", "version": "3"}',
    b'{"move": "pass", "version": true}',
    b'{"move": "pass", "version": -1}',
    b'{"move": "", "version": 1}',
    b'{"move": "' + b"a" * 400 + b'", "version": 1}',
    b'{"move": "' + b"a" * 401 + b'", "version": 1}',
    b'{"move": "pass", "version": 1, "more": 1}',
    b'{"move": "pass"}',
    b'{"move": 5, "version": 1}',
    b'{"move": "\\ud800", "version": 1}',
    b'{"move": "a\\u0000", "version": 18446744073709551616}',
    b'\xef\xbb\xbf{"move": "pass", "version": 1}',
    b'{"move": "\xff", "version": 1}',
    b"[1, 2]",
    b"null",
    b"",
    b'{"move": "pass", "version": 1} x',
]


@pytest.mark.parametrize("raw", MOVE_BODIES)
def test_move_body_is_read_as_pydantic_reads_it(raw: bytes) -> None:
    """The move route's own reading of its body (orjson, checked by hand) takes what ``MoveBody`` takes, with the
    same values, and refuses the rest with pydantic's own errors."""
    from fastapi.exceptions import RequestValidationError
    from pydantic import ValidationError

    from matches.live import MAX_MOVE_CHARS
    from matches.routes import MOVE_BODY_TYPE, _move_body

    assert MAX_MOVE_CHARS == 400  # (the bodies above are built around it)
    try:
        expected = MOVE_BODY_TYPE.validate_json(raw)
    except ValidationError as error:
        with pytest.raises(RequestValidationError) as raised:
            _move_body(raw)
        assert [problem["type"] for problem in raised.value.errors()] == [p["type"] for p in error.errors()]
        return
    read = _move_body(raw)
    assert read == (expected.move, expected.version) and type(read[1]) is int


def test_move_headers_are_the_first_of_each() -> None:
    from matches.routes import _move_headers

    headers = [(b"authorization", b"Bearer a"), (b"content-type", b"application/json"), (b"authorization", b"Bearer b"),
               (b"content-type", b"text/plain")]  # fmt: skip
    assert _move_headers(headers) == ("application/json", "Bearer a")
    assert _move_headers([(b"host", b"x")]) == (None, None)


@pytest.mark.server
def test_resigning_ending_and_a_vacation_over_http_refuse_in_4xx_and_are_in_the_schema(http: httpx.Client) -> None:
    """``matches.departure_routes``: each refusal a readable 4xx that changes nothing, an ask to end shown on its
    seat and taken back, a resignation that ends a two-person match where the table chose ``end``, and every
    route in the OpenAPI schema."""
    paths = http.get("/openapi.json").json()["paths"]
    assert {"post", "delete"} <= set(paths["/v1/matches/{match_id}/end"])
    assert {"post", "delete"} <= set(paths["/v1/matches/{match_id}/vacation"])
    assert "post" in paths["/v1/matches/{match_id}/resign"]
    match_id, tokens = new_bop(http, when_gone="end")
    def unclocked() -> dict[str, Any]:
        return {**current(http, match_id, tokens[0]), "clock": None}

    kept = unclocked()
    error(http.post(f"/v1/matches/{match_id}/resign"), 401, "unauthorized")
    error(http.post(f"/v1/matches/{match_id}/vacation", json={"days": 2}, headers=auth(tokens[0])), 409,
          "vacation_refused")  # fmt: skip
    error(http.post(f"/v1/matches/{match_id}/vacation", json={"days": 8}, headers=auth(tokens[0])), 422,
          "malformed_body")  # fmt: skip
    error(http.post("/v1/matches/nosuchmatch/end", headers=auth(tokens[0])), 404, "unknown_match")
    assert unclocked() == kept
    asked = http.post(f"/v1/matches/{match_id}/end", headers=auth(tokens[0]))
    assert asked.status_code == 200 and [seat["end_asked"] for seat in asked.json()["seats"]] == [True, False]
    taken_back = http.delete(f"/v1/matches/{match_id}/end", headers=auth(tokens[0]))
    assert [seat["end_asked"] for seat in taken_back.json()["seats"]] == [False, False]
    resigned = http.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens[1]))
    assert resigned.status_code == 200 and resigned.json()["ending"] == {"kind": "resigned", "seat": 1}
    assert resigned.json()["outcome"]["winners"] == [0]
    error(http.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens[0])), 409, "not_playing")


def answered(socket: Any, deadline: float | None = None) -> dict[str, Any]:
    """The next message on ``socket`` but a ping, which is answered as a page does (a server whose heartbeat
    another test made short closes a socket that stays silent). Past ``deadline`` (20 s from now by default),
    a failure: pings alone must not keep a test waiting."""
    deadline = time.monotonic() + 20 if deadline is None else deadline
    while True:
        message = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] != "ping":
            return dict(message)
        socket.send(json.dumps({"type": "pong", "t": message.get("t")}))


def told_of(
    socket: Any,
    kind: str,
    seen: list[dict[str, Any]] | None = None,
    until: Callable[[dict[str, Any]], bool] | None = None,
) -> dict[str, Any]:
    """The next update on ``socket`` that shows the state ``until`` asks for (by default: an update of ``kind``),
    others passed over (a sync a change elsewhere brings); each message read is put in ``seen``. Updates
    coalesce, so a state is waited for rather than the kind of one change. Within 30 s."""
    deadline = time.monotonic() + 30
    while True:
        message = answered(socket, deadline)
        if seen is not None:
            seen.append(message)
        if message["type"] == "update" and (message["kind"] == kind if until is None else until(message)):
            return message


@pytest.mark.server
def test_takebacks_and_reactions_over_http_and_the_live_socket(http: httpx.Client, live_server: str) -> None:
    """The table-talk routes (``matches/social.py``), in the OpenAPI schema: a takeback asked and accepted, each
    step told to the other seat's socket; a reaction told with itself in the update; the refusals as 4xx."""
    paths = http.get("/openapi.json").json()["paths"]
    for path in ("/takeback", "/takeback/answer", "/reactions"):
        assert "post" in paths["/v1/matches/{match_id}" + path], path
    assert "get" in paths["/v1/matches/{match_id}/reactions"]
    match_id, tokens = new_bop(http)
    mover = current(http, match_id, tokens[0])["must_act"][0]
    other = 1 - mover
    url = f"/v1/matches/{match_id}"
    with contextlib.ExitStack() as stack:
        socket = stack.enter_context(live(live_server, match_id, tokens[other]))
        assert answered(socket)["type"] == "hello"
        moved = http.post(f"{url}/moves", json={"move": "pass", "version": 0}, headers=auth(tokens[mover]))
        assert moved.status_code == 200 and told_of(socket, "move", until=lambda m: m["version"] >= 1)["version"] == 1
        error(http.post(f"{url}/takeback", json={"version": 1}, headers=auth(tokens[other])), 422, "illegal_move")
        error(http.post(f"{url}/takeback", json={"version": 1}), 401, "unauthorized")
        asked = http.post(f"{url}/takeback", json={"version": 1}, headers=auth(tokens[mover]))
        assert asked.status_code == 200 and asked.json()["takeback"]["seat"] == mover, asked.text
        told = told_of(socket, "takeback", until=lambda m: (m["match"].get("takeback") or {}).get("seat") == mover)
        assert told["match"]["takeback"]["seat"] == mover
        error(http.post(f"{url}/takeback/answer", json={"version": 1, "accept": "maybe"}, headers=auth(tokens[other])),
              422, "malformed_body")  # fmt: skip
        accepted = http.post(f"{url}/takeback/answer", json={"version": 1, "accept": True}, headers=auth(tokens[other]))
        assert accepted.status_code == 200 and accepted.json()["version"] == 2, accepted.text
        told = told_of(socket, "move", until=lambda m: m["version"] >= 2)
        assert told["version"] == 2 and told["match"]["must_act"] == [mover]
        assert [move["move"] for move in told["moves"]][-1:] in ([], ["takeback"])
        said = http.post(f"{url}/reactions", json={"reaction": "thanks"}, headers=auth(tokens[mover]))
        assert said.status_code == 201 and said.json()["reaction"] == "thanks"
        told = told_of(socket, "reaction")
        assert told["reaction"]["reaction"] == "thanks"
        assert told["match"]["reactions"][-1]["seat"] == mover
        # The same over the socket: a reaction acked, then told with itself; a takeback of nothing refused.
        socket.send(json.dumps({"type": "react", "reaction": "good_game", "id": 7}))
        seen: list[dict[str, Any]] = []  # the ack and the update, in either order
        told = told_of(socket, "reaction", seen)
        assert told["reaction"]["seat"] == other
        assert {"type": "ack", "id": 7} in seen or answered(socket) == {"type": "ack", "id": 7}
        socket.send(json.dumps({"type": "takeback", "version": 2, "id": 8}))
        refused = next(message for message in iter(lambda: answered(socket), None) if message["type"] == "error")
        assert refused["type"] == "error" and refused["id"] == 8 and refused["error"]["rule"] == "nothing_to_take_back"
    error(http.post(f"{url}/reactions", json={"text": "hi"}, headers=auth(tokens[mover])), 403, "chat_off")
    too_long = http.post(f"{url}/reactions", json={"reaction": "x" * 17}, headers=auth(tokens[mover]))
    error(too_long, 422, "malformed_body")
    assert [said["reaction"] for said in http.get(f"{url}/reactions").json()["reactions"]] == ["thanks", "good_game"]

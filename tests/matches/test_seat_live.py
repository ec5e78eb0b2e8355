"""Seats that travel (issue 26) on the live socket, on real ``tablejudge serve`` processes: when a seat
link moves a seat, the old device's socket is told and closed with 4409 ("seat moved"), whether the
link was taken through its own server or another one on the same store; the spectators and the other
seats stay, and the seat's new token says hello and moves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import ClientConnection

from matches.live_outbox import CLOSE_SEAT_MOVED
from tests.matches.clients import auth, live, receive
from tests.matches.servers import Server
from tests.matches.test_live import close_code_of

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("seat-live")).start()
    yield running
    running.stop()


def started_bop(http: httpx.Client) -> tuple[str, dict[int, str]]:
    """A two-seat BOP! match of Ann (seat 0) and Bob (seat 1), started: its id and the seats' tokens."""
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"}).json()
    return made["match"], {made["seat"]: made["token"], joined["seat"]: joined["token"]}


def said_hello(socket: ClientConnection, seat: int | None) -> None:
    greeting = receive(socket)
    assert greeting["type"] == "hello" and greeting["match"]["you"] == seat


def move_seat(taker: httpx.Client, match_id: str, token: str) -> str:
    """Ann's seat moves by its link, taken through ``taker``: the seat's new token."""
    link = taker.post(f"/v1/matches/{match_id}/seat-link", headers=auth(token))
    assert link.status_code == 201, link.text
    taken = taker.post(f"/v1/matches/{match_id}/seat-link/take", json={"code": link.json()["code"]})
    assert taken.status_code == 200, taken.text
    return str(taken.json()["token"])


def test_the_old_devices_socket_is_closed_when_its_seat_moves(server: Server, http: httpx.Client) -> None:
    match_id, tokens = started_bop(http)
    with (
        live(server.url, match_id, tokens[0]) as old_phone,
        live(server.url, match_id, tokens[1]) as other_seat,
        live(server.url, match_id) as watcher,
    ):
        said_hello(old_phone, 0)
        said_hello(other_seat, 1)
        said_hello(watcher, None)
        new_token = move_seat(http, match_id, tokens[0])
        told = receive(old_phone)
        assert told["type"] == "error" and told["error"]["code"] == "seat_moved"
        assert close_code_of(old_phone) == CLOSE_SEAT_MOVED == 4409
        for staying in (other_seat, watcher):  # the others are told of the seats, and stay
            update = receive(staying)
            assert update["type"] == "update" and update["kind"] == "seats"
            staying.send(json.dumps({"type": "ping", "t": 1}))
            assert receive(staying) == {"type": "pong", "t": 1}
        with live(server.url, match_id, new_token) as new_phone:  # the seat plays on from the new device
            said_hello(new_phone, 0)
            with live(server.url, match_id, tokens[0]) as old_again:  # the old token holds no seat now
                assert receive(old_again)["error"]["code"] == "unauthorized"
                assert close_code_of(old_again) == 4401


def test_a_seat_left_to_a_bot_keeps_its_socket(server: Server, http: httpx.Client) -> None:
    """Leaving takes the seat's token too, but nothing moved: the leaver's socket is not told "seat moved";
    a link made before leaving moves nothing after, and says why (``reason``, for the page's words)."""
    match_id, tokens = started_bop(http)
    code = http.post(f"/v1/matches/{match_id}/seat-link", headers=auth(tokens[0])).json()["code"]
    with live(server.url, match_id, tokens[0]) as leaver:
        said_hello(leaver, 0)
        left = http.post(f"/v1/matches/{match_id}/leave", json={"bot": "greedy"}, headers=auth(tokens[0]))
        assert left.status_code == 200, left.text
        update = receive(leaver)
        assert update["type"] == "update" and update["match"]["seats"][0]["bot"] == "greedy"
        leaver.send(json.dumps({"type": "ping", "t": 2}))
        while (answer := receive(leaver))["type"] == "update":  # the bot may move meanwhile
            pass
        assert answer == {"type": "pong", "t": 2}
    late = http.post(f"/v1/matches/{match_id}/seat-link/take", json={"code": code})
    assert late.status_code == 409 and late.json()["error"]["code"] == "seat_code_used"
    assert late.json()["error"]["reason"] == "changed_hands"


@pytest.mark.slow
def test_a_seat_moved_through_another_server_closes_the_socket_here(tmp_path: Path) -> None:
    """Two server processes on one SQLite store: the old device's socket is on the first, the link is
    taken through the second; the first hears of the change of seats and closes the socket."""
    first = Server(tmp_path).start()
    second = Server(tmp_path).start()
    try:
        with (
            httpx.Client(base_url=first.url, timeout=30) as here,
            httpx.Client(base_url=second.url, timeout=30) as there,
        ):
            match_id, tokens = started_bop(here)
            with live(first.url, match_id, tokens[0]) as old_phone:
                said_hello(old_phone, 0)
                move_seat(there, match_id, tokens[0])
                while (told := receive(old_phone))["type"] == "update":  # a seats update may come first
                    pass
                assert told["type"] == "error" and told["error"]["code"] == "seat_moved"
                assert close_code_of(old_phone) == CLOSE_SEAT_MOVED
    finally:
        first.stop()
        second.stop()

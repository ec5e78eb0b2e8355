"""The live sockets' per-address limits (issue 24, the hostile tester's F3 and F4), on a real
``tablejudge serve`` that trusts loopback as a proxy, so that each client names its own address:

- the moves sent on live sockets draw from the address's move budget, the one its HTTP moves draw from
  (``TABLEJUDGE_RATE_MOVES``): many sockets of one address, each under its own message rate, get no more
  moves through than one HTTP client; a hello that resyncs costs from it too; another address's moves go on;
- at most ``TABLEJUDGE_LIVE_MAX_SOCKETS_PER_ADDRESS`` sockets open from one address (an IPv6 one by its
  /64, as the rate limits count it): the next is refused before its upgrade (429, ``too_many_sockets``),
  and a place is given back when one closes.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.matches.clients import auth, ws_url
from tests.matches.servers import Server

pytestmark = pytest.mark.server

#: The test server's move budget per address: 30 in 600 s (a token back every 20 s, so that none comes
#: back while a test runs), and its cap on an address's sockets.
MOVES, MOVES_SECONDS = 30, 600
MAX_SOCKETS = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {
        "TABLEJUDGE_TRUSTED_PROXIES": "127.0.0.1",
        "TABLEJUDGE_RATE_MOVES": f"{MOVES}/{MOVES_SECONDS}",
        "TABLEJUDGE_LIVE_MAX_SOCKETS_PER_ADDRESS": str(MAX_SOCKETS),
    }
    running = Server(tmp_path_factory.mktemp("socket-limits"), env=env).start()
    yield running
    running.stop()


def client(server: Server, address: str) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30, headers={"X-Forwarded-For": address})


def new_bop(http: httpx.Client) -> tuple[str, dict[int, str], int]:
    """A two-seat BOP! match, both seats taken: its id, the seats' tokens and the seat to move."""
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    body = http.get(f"/v1/matches/{made['match']}", headers=auth(tokens[0])).json()
    return made["match"], tokens, body["must_act"][0]


def socket_from(
    server: Server, address: str, match_id: str, token: str | None = None, since: int | None = None
) -> ClientConnection:
    """A live socket as a trusted proxy would pass on ``address``'s, its hello said (not yet answered)."""
    socket = connect(
        ws_url(server.url, match_id), additional_headers={"X-Forwarded-For": address}, max_queue=None, legacy=True
    )
    hello: dict[str, Any] = {"type": "hello", "token": token}
    if since is not None:
        hello["since"] = since
    socket.send(json.dumps(hello))
    return socket


def answer(socket: ClientConnection) -> dict[str, Any]:
    """The next message that is not a ping."""
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=20))
        if message["type"] != "ping":
            return message


def refusal(socket: ClientConnection) -> tuple[dict[str, Any], int | None, str]:
    """What a refused socket is told (its error), and the code and reason it is closed with."""
    told = answer(socket)
    try:
        while True:
            socket.recv(timeout=10)
    except ConnectionClosed as error:
        return told, (error.rcvd.code if error.rcvd else None), (error.rcvd.reason if error.rcvd else "")


def test_moves_from_many_sockets_of_one_address_share_its_move_budget(server: Server) -> None:
    """The F3 flood, scaled down: three sockets of one seat and one address, each well under its own
    message rate (20 a second, 60 at once), send 60 moves between them; only the address's budget of
    30 is played or judged, the rest answered ``rate_limited`` with the wait; the address's HTTP moves
    are refused too (one bucket), and so is its hello that resyncs; another address plays on."""
    flooder, bystander = "203.0.113.10", "203.0.113.11"
    with client(server, flooder) as http, client(server, bystander) as other:
        match_id, tokens, mover = new_bop(http)
        sockets = [socket_from(server, flooder, match_id, tokens[mover]) for _ in range(MAX_SOCKETS - 1)]
        try:
            assert all(answer(socket)["type"] == "hello" for socket in sockets)
            per_socket = 2 * MOVES // len(sockets)
            for number in range(per_socket):
                for index, socket in enumerate(sockets):
                    socket.send(json.dumps({"type": "move", "move": "pass", "version": 0, "id": f"{index}-{number}"}))
            answers: Counter[str] = Counter()
            waits = []
            for socket in sockets:
                for _ in range(per_socket):
                    message = answer(socket)
                    while message["type"] == "update":  # the match as moves change it
                        message = answer(socket)
                    code = "ack" if message["type"] == "ack" else message["error"]["code"]
                    answers[code] += 1
                    if code == "rate_limited":
                        waits.append(message["error"]["retry_after"])
                        assert "try again in" in message["error"]["message"]
            served = sum(count for code, count in answers.items() if code != "rate_limited")
            assert served <= MOVES, answers  # (a token comes back every 20 s: none in this test)
            assert answers["rate_limited"] >= 2 * MOVES - served >= MOVES, answers
            assert min(waits) >= 1
            # One bucket, whichever transport: the address's HTTP move is refused as well ...
            refused = http.post(
                f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": 1}, headers=auth(tokens[mover])
            )
            assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
            # ... and a hello that resends what the address missed (a resync costs as moves do).
            told, code, reason = refusal(socket_from(server, flooder, match_id, tokens[mover], since=0))
            assert code == 4429 and told["error"]["code"] == "rate_limited" and "try again in" in reason
        finally:
            for socket in sockets:
                socket.close()
        # Another address's moves go through, on a socket and over HTTP.
        match_id, tokens, mover = new_bop(other)
        with socket_from(server, bystander, match_id, tokens[mover]) as calm:
            assert answer(calm)["type"] == "hello"
            calm.send(json.dumps({"type": "move", "move": "pass", "version": 0, "id": 1}))
            message = answer(calm)
            while message["type"] == "update":
                message = answer(calm)
            assert message["type"] == "ack", message
        body = other.get(f"/v1/matches/{match_id}", headers=auth(tokens[1 - mover])).json()
        moved = other.post(
            f"/v1/matches/{match_id}/moves",
            json={"move": "pass", "version": body["version"]},
            headers=auth(tokens[body["must_act"][0]]),
        )
        assert moved.status_code == 200, moved.text


def refused_upgrade(server: Server, address: str, match_id: str) -> tuple[int, dict[str, Any], Any]:
    """A socket the server refuses before the upgrade: the answer's status, error and headers."""
    with pytest.raises(InvalidStatus) as refused:
        socket_from(server, address, match_id).close()
    response = refused.value.response
    return response.status_code, json.loads(response.body)["error"], response.headers


def test_one_address_may_hold_only_so_many_sockets_and_a_closed_one_frees_its_place(server: Server) -> None:
    """The F4 flood, scaled down: an address holds MAX_SOCKETS sockets; the next is refused before its
    upgrade (429, ``too_many_sockets``: nothing held, not even for a closing handshake) while another
    address's is served; one closed, the address may open one again."""
    crowd, bystander = "203.0.113.20", "203.0.113.21"
    with client(server, crowd) as http:
        match_id, _, _ = new_bop(http)
    held = [socket_from(server, crowd, match_id) for _ in range(MAX_SOCKETS)]
    try:
        assert all(answer(socket)["type"] == "hello" for socket in held)
        status, error, headers = refused_upgrade(server, crowd, match_id)
        assert status == 429 and int(headers["Retry-After"]) >= 1
        assert error["code"] == "too_many_sockets" and f"at most {MAX_SOCKETS}" in error["message"]
        with socket_from(server, bystander, match_id) as other:
            assert answer(other)["type"] == "hello"
        held.pop().close()
        deadline = time.monotonic() + 5
        while True:  # the server sees the close a moment after the client has it
            try:
                again = socket_from(server, crowd, match_id)
            except InvalidStatus as refused:
                assert refused.response.status_code == 429
                assert time.monotonic() < deadline, "the closed socket's place was never given back"
                time.sleep(0.1)
                continue
            held.append(again)
            assert answer(again)["type"] == "hello"
            break
        assert refused_upgrade(server, crowd, match_id)[0] == 429  # full again
        # A refusal is the handshake's end: uvicorn's error line for it ("returned without completing
        # handshake") is dropped, so a client opening sockets in a loop writes no error per refusal.
        log = server.log.read_text(errors="replace")
        assert "without completing handshake" not in log
    finally:
        for socket in held:
            socket.close()


def test_the_addresses_of_one_ipv6_64_share_one_cap(server: Server) -> None:
    """One home or phone is given a whole /64: its addresses count as one client, as for the rate limits."""
    with client(server, "203.0.113.30") as http:
        match_id, _, _ = new_bop(http)
    held = [socket_from(server, f"2001:db8:7:7::{number + 1}", match_id) for number in range(MAX_SOCKETS)]
    try:
        assert all(answer(socket)["type"] == "hello" for socket in held)
        assert refused_upgrade(server, "2001:db8:7:7:ffff::9", match_id)[0] == 429
        with socket_from(server, "2001:db8:7:8::1", match_id) as neighbour:  # the next /64: another client
            assert answer(neighbour)["type"] == "hello"
    finally:
        for socket in held:
            socket.close()

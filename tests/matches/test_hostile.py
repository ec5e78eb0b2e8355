"""One careless or hostile client must never stall the server (issue 24).

Each test does one row of the issue's table against a real ``tablejudge serve`` on loopback, while a
probe asks ``/healthz`` every 20 ms beside it: no probe may wait more than 250 ms. Every client here
comes from 127.0.0.1, which the server trusts as a proxy, and names its own address in
``X-Forwarded-For``, so each test has quotas of its own, as separate people would. The last test
reads the server's whole log: no seat token, no traceback.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from matches.live_input import LiveLimits
from matches.service import MatchService
from matches.store import open_store
from service.settings import Settings
from tests.matches.clients import SocketReader, silent_until_closed
from tests.matches.conftest import in_process
from tests.matches.hostile import Probe, closed_within, group_rss_mb, raw_connection
from tests.matches.playing import bop_of_passes
from tests.matches.servers import Server

pytestmark = [pytest.mark.server, pytest.mark.slow]

#: Moves in the long match the reads are asked of (the issue's example had 7,225).
LONG_MATCH_MOVES = 7_225
#: The server's whole memory (its process, its worker pool) may not pass this during any attack.
MEMORY_BOUND_MB = 1_500
#: Every token a test was given: none may reach the server's log.
TOKENS: list[str] = []


def build_long_match(data: Path) -> str:
    """A BOP! match of ``LONG_MATCH_MOVES`` passes (an all-pass game runs on: BOP! ruling 20), written
    through the match service into the data folder's SQLite before the server starts."""
    store = open_store(f"sqlite:///{data / 'matches.sqlite3'}")
    try:
        service = MatchService(store, in_process(lexicon="standard"))
        return bop_of_passes(service, LONG_MATCH_MOVES)
    finally:
        store.close()


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile")


@pytest.fixture(scope="module")
def long_match(data: Path) -> str:
    return build_long_match(data)


@pytest.fixture(scope="module")
def server(data: Path, long_match: str) -> Iterator[Server]:
    del long_match  # made before the server starts
    env = {
        "TABLEJUDGE_TRUSTED_PROXIES": "127.0.0.1",
        "TABLEJUDGE_LOG_LEVEL": "info",  # uvicorn's access log on: it must not carry a token either
        "TABLEJUDGE_ACCESS_LOG": "1",
        "TABLEJUDGE_REQUEST_TIMEOUT_S": "2",
        "TABLEJUDGE_LIVE_SEND_TIMEOUT_S": "2",
    }
    # The limits at their defaults (the suite's conftest lifts them for servers that every test reaches
    # from loopback; here each client names its own address).
    defaults = Settings.from_env({}).to_env()
    for name in ("rate_create", "rate_join", "rate_moves", "rate_judge", "rate_lists", "rate_talk", "rate_seats",
                 "max_waiting_per_client",
                 "max_waiting", "max_bot_only_per_client", "max_bot_only"):  # fmt: skip
        env[f"TABLEJUDGE_{name.upper()}"] = defaults[f"TABLEJUDGE_{name.upper()}"]
    started = Server(data, bot_delay_ms=50, env=env).start()
    yield started
    started.stop()


_addresses = iter(range(1, 250))


def person() -> str:
    """A new client address (as a trusted proxy would name it): quotas of its own."""
    return f"203.0.113.{next(_addresses)}"


#: Clients the tests keep to the end of the module (closed then by ``close_clients``).
CLIENTS: list[httpx.Client] = []


@pytest.fixture(scope="module", autouse=True)
def close_clients() -> Iterator[None]:
    yield
    for each in CLIENTS:
        each.close()


def client(server: Server, address: str | None = None) -> httpx.Client:
    made = httpx.Client(base_url=server.url, timeout=30, headers={"X-Forwarded-For": address or person()})
    CLIENTS.append(made)
    return made


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_match(http: httpx.Client, game: str = "bop", **extra: Any) -> dict[str, Any]:
    made = http.post("/v1/matches", json={"game": game, **extra})
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    if body.get("token"):
        TOKENS.append(body["token"])
    return body


def two_people(server: Server) -> tuple[httpx.Client, str, dict[int, str]]:
    """A BOP! match between two people: the client, the match and each seat's token."""
    http = client(server)
    made = new_match(http, seats=2, name="Ann")
    joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    TOKENS.append(joined.json()["token"])
    return http, made["match"], {made["seat"]: made["token"], joined.json()["seat"]: joined.json()["token"]}


def live(server: Server, match_id: str, token: str | None = None, since: int | None = None) -> ClientConnection:
    """A live socket that says hello with its token (never in the URL) and has read the hello back."""
    ws = connect(server.url.replace("http://", "ws://") + f"/v1/matches/{match_id}/live", max_size=None, legacy=True)
    hello: dict[str, Any] = {"type": "hello"}
    if token is not None:
        hello["token"] = token
    if since is not None:
        hello["since"] = since
    ws.send(json.dumps(hello))
    assert next_message(ws)["type"] == "hello"
    return ws


def next_message(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if message["type"] != "ping":
            return message


def to_move(http: httpx.Client, match_id: str, token: str) -> tuple[int, int]:
    body = http.get(f"/v1/matches/{match_id}", headers=auth(token)).json()
    return body["must_act"][0], body["version"]


def assert_memory_bounded(server: Server) -> None:
    assert server.process is not None
    used = group_rss_mb(server.process.pid)
    assert used < MEMORY_BOUND_MB, f"the server holds {used:.0f} MiB"


# --- bots that think ---------------------------------------------------------------------------------
def test_a_planner_past_its_documented_budget_is_refused_with_the_limit(server: Server) -> None:
    with client(server) as http, Probe(server.url) as probe:
        for bots in ({"1": "planner:999999999"}, {"0": "planner:999999999", "1": "planner"}):
            refused = http.post("/v1/matches", json={"game": "qwiply", "seats": 2, "bots": bots})
            assert 400 <= refused.status_code < 500, refused.text
            message = refused.json()["error"]["message"]
            assert "planner" in message and any(char.isdigit() for char in message), message
    probe.assert_never_waited()


def test_planner_bots_think_off_the_event_loop(server: Server) -> None:
    """Matches of planner bots, each watched: /healthz never waits, the matches move on, and the
    memory stays bounded."""
    qwiply = next(game for game in httpx.get(f"{server.url}/v1/games").json()["games"] if game["game"] == "qwiply")
    assert "hard" in qwiply["bots"]  # the planner: Qwiply's hard level (planner still seats it, unoffered)
    with client(server) as http:
        ids = [new_match(http, "qwiply", seats=2, bots={"0": "planner", "1": "planner"})["match"] for _ in range(4)]
        sockets = [live(server, match_id) for match_id in ids]
        try:
            updates = 0
            with Probe(server.url) as probe:
                started = time.monotonic()
                # At least 8 s of thinking; then until the bots have made a few moves (a cold worker
                # pool on a loaded machine makes the first ones slow), 60 s at most.
                while time.monotonic() - started < 8 or (updates < 4 and time.monotonic() - started < 60):
                    for ws in sockets:
                        with contextlib.suppress(TimeoutError):
                            updates += json.loads(ws.recv(timeout=0.05))["type"] == "update"
                    assert_memory_bounded(server)
            probe.assert_never_waited()
            versions = [http.get(f"/v1/matches/{match_id}").json()["version"] for match_id in ids]
            assert sum(versions) >= 4, f"the planner bots made {sum(versions)} moves; the probe: {probe.summary()}"
        finally:
            for ws in sockets:
                ws.close()


# --- what comes in on a socket ----------------------------------------------------------------------
def test_a_four_million_character_move_on_the_socket_is_refused_at_once(server: Server) -> None:
    http, match_id, tokens = two_people(server)
    mover, version = to_move(http, match_id, tokens[0])
    with live(server, match_id, tokens[mover]) as ws, Probe(server.url) as probe:
        started = time.monotonic()
        with pytest.raises(ConnectionClosed):  # over the frame limit: closed (1009), nothing read
            ws.send(json.dumps({"type": "move", "move": "x" * 4_000_000, "version": version, "id": 1}))
            while True:
                ws.recv(timeout=10)
        assert time.monotonic() - started < 5
    probe.assert_never_waited()
    assert to_move(http, match_id, tokens[0]) == (mover, version), "the match moved"
    # A long move under the frame limit is refused as over HTTP, and the socket stays open.
    with live(server, match_id, tokens[mover]) as again:
        again.send(json.dumps({"type": "move", "move": "p" * 5_000, "version": version, "id": 2}))
        answer = next_message(again)
        assert answer["type"] == "error" and answer["id"] == 2 and "400" in answer["error"]["message"], answer


def test_binary_and_deeply_nested_frames_get_a_readable_refusal(server: Server) -> None:
    http, match_id, tokens = two_people(server)
    with live(server, match_id, tokens[0]) as ws:
        ws.send(json.dumps({"type": "ping", "t": json.loads("[" * 30 + "1" + "]" * 30)}))
        ws.send("[" * 5_000 + "]" * 5_000)
        ws.send(b"\x00\x01binary")
        seen = []
        with pytest.raises((ConnectionClosed, TimeoutError)):
            while len(seen) < 4:
                seen.append(next_message(ws, timeout=3))
        assert all(message["type"] in ("pong", "error") for message in seen), seen
    assert http.get("/healthz").status_code == 200


# --- a reader that never reads ------------------------------------------------------------------------
def stuck_spectator(server: Server, match_id: str, big_ping: bool) -> socket.socket:
    """A spectator socket whose client says hello, then (``big_ping``) sends an 8 MiB ping, and never
    reads again: a raw connection with the smallest receive buffer the kernel allows."""
    host, port = server.url.removeprefix("http://").split(":")
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # before connecting: the window it offers
    raw.settimeout(10)
    raw.connect((host, int(port)))
    raw.sendall(
        f"GET /v1/matches/{match_id}/live HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    raw.sendall(_masked_text_frame(json.dumps({"type": "hello"}).encode()))
    if big_ping:
        with contextlib.suppress(OSError):  # the server may refuse the frame and close: its right
            raw.sendall(_masked_text_frame(json.dumps({"type": "ping", "t": "x" * (8 << 20)}).encode()))
    return raw


def _masked_text_frame(payload: bytes) -> bytes:
    mask = b"\x01\x02\x03\x04"
    size = len(payload)
    if size < 126:
        head = bytes([0x81, 0x80 | size])
    elif size < 1 << 16:
        head = bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
    else:
        head = bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big")
    return head + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def test_a_spectator_that_never_reads_slows_no_one(server: Server) -> None:
    """The issue's row: a spectator sends an 8 MiB ping and never reads. The seated players of that
    match still get every update, each soon after its move, and so does another match's player."""
    http, match_id, tokens = two_people(server)
    other_http, other_id, other_tokens = two_people(server)
    stuck = [stuck_spectator(server, match_id, big_ping=index == 0) for index in range(4)]
    seats = {seat: live(server, match_id, token) for seat, token in tokens.items()}
    other = live(server, other_id, other_tokens[0])
    try:
        with Probe(server.url) as probe:
            for _ in range(54):
                mover, version = to_move(http, match_id, tokens[0])
                moved_at = time.monotonic()
                answer = http.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version},
                                   headers=auth(tokens[mover]))  # fmt: skip
                assert answer.status_code == 200, answer.text
                for ws in seats.values():
                    update = next_message(ws, timeout=5)
                    assert update["type"] == "update" and update["version"] == version + 1, update
                assert time.monotonic() - moved_at < 2, "an update came late"
            other_mover, other_version = to_move(other_http, other_id, other_tokens[0])
            other_http.post(f"/v1/matches/{other_id}/moves", json={"move": "pass", "version": other_version},
                            headers=auth(other_tokens[other_mover]))  # fmt: skip
            assert next_message(other, timeout=5)["version"] == other_version + 1
        probe.assert_never_waited()
    finally:
        for ws in [*seats.values(), other]:
            ws.close()
        for raw in stuck:
            raw.close()


# --- quotas -------------------------------------------------------------------------------------------
def test_a_socket_that_falls_silent_is_closed_within_a_minute_at_the_production_setting(server: Server) -> None:
    """A phone whose page froze, or whose network went, says nothing more: at the production heartbeat
    (15 s, the default: this module's server does not set ``TABLEJUDGE_LIVE_HEARTBEAT_S``) the server
    closes its socket (1001) at the first heartbeat more than 45 s after it last heard from it, so
    between 45 and 60 s; a socket that answers the pings stays open. (``test_live.py`` tests the same
    rule at a 0.5 s heartbeat.) About a minute."""
    heartbeat = LiveLimits().heartbeat
    assert heartbeat == 15.0
    _, match_id, _ = two_people(server)
    answering = SocketReader(server.url, match_id)
    answering.start()
    assert answering.ready.wait(10)
    try:
        with Probe(server.url, every=0.5) as probe:
            after, code, reason = silent_until_closed(server.url, match_id, 4 * heartbeat + 10)
        assert code == 1001 and "silent" in reason
        assert 3 * heartbeat < after < 4 * heartbeat + 2, f"closed {after:.1f} s after its hello"
        assert answering.is_alive() and len(answering.pings()) >= 4
        probe.assert_never_waited()
    finally:
        answering.stop.set()
        answering.join(timeout=5)


def test_creating_matches_in_a_loop_meets_a_429_with_retry_after(server: Server) -> None:
    """The issue's row: matches created in a loop. The waiting cap stops them first (20 waiting from
    one address), then the rate limit (30 creations a minute) with ``Retry-After``; someone else is
    not held back, and the lobby stays bounded."""
    spammer = person()
    limits = Settings.from_env({})  # the defaults, as the module's server has them
    with client(server, spammer) as http, Probe(server.url) as probe:
        codes: list[str] = []
        for _ in range(200):
            answer = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "spam"})
            codes.append("created" if answer.status_code == 201 else answer.json()["error"]["code"])
            if answer.status_code == 201:
                continue
            assert answer.status_code == 429 and len(answer.json()["error"]["message"]) > 20, answer.text
            if codes[-1] == "rate_limited":
                assert int(answer.headers["Retry-After"]) >= 1
                break
        assert codes.count("created") == limits.quotas.max_waiting_per_client, codes
        assert set(codes) == {"created", "too_many_waiting", "rate_limited"}, codes
        assert len(codes) == (limits.rate("create") or (0, 0))[0] + 1, codes
    probe.assert_never_waited()
    with client(server) as neighbour:  # someone else is not held back by the spammer
        assert neighbour.post("/v1/matches", json={"game": "bop", "seats": 2}).status_code == 201
    listed = httpx.get(f"{server.url}/v1/matches?status=open").json()["matches"]
    assert len(listed) <= limits.quotas.max_waiting


def test_all_bot_matches_leave_the_judge_fast(server: Server) -> None:
    """20 all-bot BOP! matches, each watched (from three addresses: one may have 8 playing), and judge
    queries beside them stay fast."""
    makers = [client(server) for _ in range(3)]
    with client(server) as http:
        def judge_waits(count: int) -> list[float]:
            waits = []
            for index in range(count):
                started = time.perf_counter()
                assert http.get(f"/v1/bop/{'FRS' if index % 2 else 'WHMMY'}?limit=5").status_code == 200
                waits.append(time.perf_counter() - started)
            return waits

        judge_waits(5)
        bots = {"0": "greedy", "1": "greedy"}
        ids = [new_match(makers[index % 3], "bop", seats=2, bots=bots)["match"] for index in range(20)]
        sockets = [live(server, match_id) for match_id in ids]
        try:
            with Probe(server.url) as probe:
                busy = judge_waits(100)
            probe.assert_never_waited()
            assert max(busy) < 0.250, f"a judge query waited {max(busy) * 1000:.0f} ms"
        finally:
            for ws in sockets:
                ws.close()


def test_all_bot_planner_matches_leave_room_for_a_persons_bot_and_reads(server: Server) -> None:
    """Issue 24's F1: one address's all-bot matches of ``planner:48`` bots (seconds a choice), each watched,
    as many as it may have (the 9th is refused, 429 with Retry-After); their bots think in the pool's
    background share, so a person's match beside them gets its legal moves and its greedy bot's moves
    at once, not after the planners' queue (before: 503 busy after the read budget, 5 s)."""
    planners = {"0": "planner:48", "1": "planner:48"}
    spammer = client(server)
    ids = [new_match(spammer, "qwiply", seats=2, bots=planners)["match"] for _ in range(8)]
    refused = spammer.post("/v1/matches", json={"game": "qwiply", "seats": 2, "bots": planners})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_bot_matches", refused.text
    assert int(refused.headers["Retry-After"]) >= 1
    sockets = [live(server, match_id) for match_id in ids]
    try:
        time.sleep(2)  # the planners' setups are being chosen, two or more seconds each
        http = client(server)
        made = new_match(http, "bop", seats=2, name="Ann", bots={"1": "greedy"})
        match_id, token = made["match"], made["token"]
        started = time.monotonic()
        legal = http.get(f"/v1/matches/{match_id}/legal?limit=5", headers=auth(token))
        legal_in = time.monotonic() - started
        assert legal.status_code == 200 and legal_in < 3.0, (legal_in, legal.text)
        for _ in range(2):  # the person passes; the greedy bot answers
            deadline = time.monotonic() + 5
            while (body := http.get(f"/v1/matches/{match_id}", headers=auth(token)).json())["must_act"] != [0]:
                assert time.monotonic() < deadline, f"the bot did not move within 5 s: {body['version']}"
                time.sleep(0.05)
            moved = http.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": body["version"]},
                              headers=auth(token))  # fmt: skip
            assert moved.status_code == 200, moved.text
    finally:
        for ws in sockets:
            ws.close()


# --- reads of a long match ---------------------------------------------------------------------------------
def test_reads_of_a_long_match_do_not_stall_the_server(server: Server, long_match: str) -> None:
    with client(server) as http, Probe(server.url) as probe:
        for version in (LONG_MATCH_MOVES, 10, 3_333, LONG_MATCH_MOVES - 1, 7_000):
            for path in (f"/v1/matches/{long_match}/turns", f"/v1/matches/{long_match}/replay?version={version}"):
                answer = http.get(path)
                if answer.status_code == 503:  # the pool was busy: a clear answer, never a wait
                    assert int(answer.headers["Retry-After"]) >= 1 and answer.json()["error"]["message"]
                else:
                    assert answer.status_code == 200, answer.text
        turns = http.get(f"/v1/matches/{long_match}/turns").json()
        assert len(turns["turns"]) == LONG_MATCH_MOVES and turns["version"] == LONG_MATCH_MOVES
    probe.assert_never_waited()


# --- names and headers --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Ann\x00", "\x1b[31mred", "a\u202ez"])
def test_a_name_with_control_characters_is_a_4xx(server: Server, name: str) -> None:
    with client(server) as http:
        answer = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": name})
        assert 400 <= answer.status_code < 500 and answer.json()["error"]["message"], answer.text
        assert http.get("/healthz").status_code == 200  # the same keep-alive connection still serves


def test_a_64_mib_request_header_is_cut_off_early(server: Server) -> None:
    with Probe(server.url) as probe:
        raw = raw_connection(server.url)
        raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        try:
            chunk = b"a" * 65536
            while sent < 64 << 20:
                raw.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass  # the server closed it: what it should do
        assert sent < 64 << 20 or closed_within(raw, 5), "a 64 MiB header was read to its end"
        raw.close()
    probe.assert_never_waited()


def test_slow_and_idle_connections_are_dropped(server: Server) -> None:
    """200 connections that send nothing, or a header a byte at a time, are closed within the
    request timeout (2 s here) while everyone else is served."""
    with Probe(server.url) as probe:
        idle = [raw_connection(server.url) for _ in range(100)]
        slow = [raw_connection(server.url) for _ in range(100)]
        for raw in slow:
            raw.sendall(b"GET /healthz HTTP/1.1\r\n")
        deadline = time.monotonic() + 6
        while time.monotonic() < deadline:
            for raw in slow:
                with contextlib.suppress(OSError):
                    raw.sendall(b"X")
            time.sleep(0.5)
        still_open = [raw for raw in idle + slow if not closed_within(raw, 0.05)]
        for raw in idle + slow:
            raw.close()
    probe.assert_never_waited()
    assert not still_open, f"{len(still_open)} of 200 slow or idle connections still open after 6 s"


def test_pages_carry_safe_headers_and_redirects_stay_on_this_server(server: Server) -> None:
    for path in ("/", "/play"):
        page = httpx.get(server.url + path)
        assert page.status_code == 200
        csp = page.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp.split(
            "script-src"
        )[1].split(";")[0]
        assert page.headers["X-Frame-Options"] == "DENY"
        assert page.headers["X-Content-Type-Options"] == "nosniff"
        assert page.headers["Referrer-Policy"] == "no-referrer"
    moved = httpx.get(server.url + "/static", headers={"Host": "evil.example"})
    assert moved.status_code in (301, 307, 308) and "evil.example" not in moved.headers["location"], moved.headers


def passes_at_once(other: httpx.Client, match_id: str, tokens: dict[int, str]) -> int:
    """The seat to move passes through ``other`` (a client of its own), answered within a second, while a
    flood goes on; the match's version after it."""
    started = time.monotonic()
    mover, version = to_move(other, match_id, tokens[0])
    moved = other.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version},
                       headers=auth(tokens[mover]))  # fmt: skip
    assert moved.status_code == 200, moved.text
    assert time.monotonic() - started < 1.0
    return version + 1


# --- the log, last ---------------------------------------------------------------------------------------
def test_a_flood_of_reactions_and_takeback_asks_stalls_no_one(server: Server) -> None:
    """One seat sends reactions and takeback asks in a loop: its seat's reactions meet 429 at the seat's
    rate (``reactions_per_minute``, with ``Retry-After``), its address's at ``rate_talk``; the asks are
    refused (one a move); the other seat's moves are answered on time all along, the health probe
    never waits, and the record holds only the reactions let through."""
    limits = Settings.from_env({})
    http, match_id, tokens = two_people(server)
    other = client(server)
    seat, version = to_move(http, match_id, tokens[0])
    flooder = tokens[seat]
    codes: list[str] = []
    with Probe(server.url) as probe:
        for round_number in range(150):
            said = http.post(f"/v1/matches/{match_id}/reactions", json={"reaction": "nice"}, headers=auth(flooder))
            codes.append("said" if said.status_code == 201 else said.json()["error"]["code"])
            if said.status_code == 429:
                assert int(said.headers["Retry-After"]) >= 1
            asked = http.post(f"/v1/matches/{match_id}/takeback", json={"version": version}, headers=auth(flooder))
            assert asked.status_code in (200, 409, 422, 429), asked.text  # (200: asked, once after its own move)
            if round_number % 25 == 0:
                version = passes_at_once(other, match_id, tokens)
    probe.assert_never_waited()
    # (as many a minute: more only if the loop outlasted one, on a loaded machine)
    assert limits.match.reactions_per_minute <= codes.count("said") < 3 * limits.match.reactions_per_minute, codes
    assert set(codes) == {"said", "rate_limited"}
    record = other.get(f"/v1/matches/{match_id}/reactions").json()["reactions"]
    assert len(record) == codes.count("said")


def test_a_flood_of_asks_to_end_and_back_stalls_no_one(server: Server) -> None:
    """One seat asks to end the game and takes it back in a loop (``POST``/``DELETE /end``, the seat routes with
    resigning and vacations): past ``rate_seats`` its address meets 429 with ``Retry-After``, and nothing it sent
    after that changed the match; the other seat's moves are answered on time all along, and the health probe
    never waits."""
    limits = Settings.from_env({})
    rate = limits.rate("seats")
    assert rate is not None
    http, match_id, tokens = two_people(server)
    other = client(server)
    seat, version = to_move(http, match_id, tokens[0])
    flooder = tokens[1 - seat]  # (not the one to move: the other plays on)
    codes: list[int] = []
    with Probe(server.url) as probe:
        for round_number in range(2 * rate.requests):
            method = "POST" if round_number % 2 == 0 else "DELETE"
            answer = http.request(method, f"/v1/matches/{match_id}/end", headers=auth(flooder))
            codes.append(answer.status_code)
            if answer.status_code == 429:
                assert answer.json()["error"]["code"] == "rate_limited" and int(answer.headers["Retry-After"]) >= 1
            else:
                assert answer.status_code == 200, answer.text
            if round_number % 10 == 0:
                passes_at_once(other, match_id, tokens)
    probe.assert_never_waited()
    # (as many a window: more only if the loop outlasted one, on a loaded machine)
    assert rate.requests <= codes.count(200) < 2 * rate.requests and 429 in codes, codes
    body = other.get(f"/v1/matches/{match_id}").json()
    assert body["status"] == "playing"  # an ask alone (the other did not ask) never ends it


def test_the_server_log_holds_no_token_and_no_traceback(server: Server) -> None:
    """A whole match played over HTTP and sockets, then the log of everything this module did."""
    http, match_id, tokens = two_people(server)
    seats = {seat: live(server, match_id, token) for seat, token in tokens.items()}
    try:
        for _ in range(6):
            mover, version = to_move(http, match_id, tokens[0])
            seats[mover].send(json.dumps({"type": "move", "move": "pass", "version": version, "id": version}))
            while next_message(seats[mover])["type"] != "ack":
                pass
    finally:
        for ws in seats.values():
            ws.close()
    server.stop()  # the log complete
    text = server.log.read_text(errors="replace")
    assert "GET /v1/matches" in text or "/live" in text, "the access log is off: nothing to check"
    assert len(TOKENS) >= 8
    leaked = [token for token in TOKENS if token in text]
    assert not leaked, f"{len(leaked)} seat tokens in the server's log"
    assert "Traceback" not in text and "Exception in ASGI application" not in text, text[-3000:]

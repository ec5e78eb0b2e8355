"""The live socket against careless and hostile clients (issue 24), on a real ``tablejudge serve``:
a reader that never reads and an 8 MiB ping delay no one else's updates or heartbeats, and a socket
whose send times out or whose queue fills is closed (4504); an oversized
move is refused from its frame header while ``/healthz`` keeps answering; binary, deep and malformed
frames get a readable error and leave no traceback in the log; the hello, its timeout and the
message rate; and no seat token ever reaches the server's log, after a whole match."""

from __future__ import annotations

import base64
import json
import os
import re
import select
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from matches.live_input import MAX_MOVE_CHARS, LiveLimits
from matches.live_outbox import join_updates
from tests.matches.clients import SocketReader, auth, hello, live, receive, silent_until_closed, ws_url
from tests.matches.hostile import PROBE_BOUND, Probe
from tests.matches.servers import Server
from tests.matches.waiting import wait_for

pytestmark = pytest.mark.server

#: The test server's live limits: quick heartbeats and timeouts, so that a drop shows within seconds.
HEARTBEAT = 0.5
SEND_TIMEOUT = 1.0
HELLO_TIMEOUT = 1.0
#: The most an update may take to reach a seat's socket while a hostile client does its worst.
UPDATE_BOUND = 1.0
#: The most moves the slow-reader test makes before it gives up waiting for the drop.
MOST_MOVES = 4000
#: The most ``/healthz`` may wait meanwhile (issue 24).

#: Every seat token the tests of this module were given: none may be in the server's log.
TOKENS: set[str] = set()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {
        "TABLEJUDGE_LOG_LEVEL": "info",  # uvicorn then logs every handshake's URL, as in production
        "TABLEJUDGE_ACCESS_LOG": "1",
        "TABLEJUDGE_LIVE_HEARTBEAT_S": str(HEARTBEAT),
        "TABLEJUDGE_LIVE_SEND_TIMEOUT_S": str(SEND_TIMEOUT),
        "TABLEJUDGE_LIVE_HELLO_TIMEOUT_S": str(HELLO_TIMEOUT),
        "TABLEJUDGE_RATE_MOVES": "off",  # the slow-reader test makes thousands of moves from one address
    }
    running = Server(tmp_path_factory.mktemp("live"), env=env).start()
    yield running
    running.stop()


def new_bop(http: httpx.Client, **options: Any) -> tuple[str, dict[int, str], int]:
    """A two-seat BOP! match, both seats taken: its id, the seats' tokens and the seat to move."""
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann", "options": options}).json()
    joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    TOKENS.update(tokens.values())
    body = http.get(f"/v1/matches/{made['match']}", headers=auth(tokens[0])).json()
    return made["match"], tokens, body["must_act"][0]


# --- a WebSocket by hand: it can send any frame, and leave what it is sent unread ------------------------
class RawSocket:
    def __init__(self, base: str, path: str, receive_buffer: int | None = None) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:  # the kernel's smallest: the server's sends back up at once
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            assert chunk, "the server closed during the handshake"
            data += chunk
        head, self.buffer = data.split(b"\r\n\r\n", 1)
        assert b" 101 " in head.split(b"\r\n")[0], head

    @staticmethod
    def header(length: int, opcode: int = 1) -> bytes:
        """A final, masked frame's header (the mask is zero: the payload goes as it is)."""
        first = bytes([0x80 | opcode])
        if length < 126:
            return first + bytes([0x80 | length]) + bytes(4)
        if length < 65536:
            return first + bytes([0x80 | 126]) + struct.pack(">H", length) + bytes(4)
        return first + bytes([0x80 | 127]) + struct.pack(">Q", length) + bytes(4)

    def send(self, payload: bytes, opcode: int = 1) -> None:
        self.sock.sendall(self.header(len(payload), opcode) + payload)

    def send_some(self, data: bytes, seconds: float) -> int:
        """Send what the server takes within ``seconds`` (it may stop reading); the bytes sent."""
        sent, deadline = 0, time.monotonic() + seconds
        self.sock.setblocking(False)
        try:
            while sent < len(data) and time.monotonic() < deadline:
                if not select.select([], [self.sock], [], 0.05)[1]:
                    continue
                try:
                    sent += self.sock.send(data[sent : sent + 65536])
                except (BrokenPipeError, ConnectionResetError):
                    break
        finally:
            self.sock.setblocking(True)
        return sent

    def frame(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next frame the server sent: (opcode, payload); (-1, b"") when the connection ended."""
        self.sock.settimeout(timeout)
        while True:
            if len(self.buffer) >= 2:
                length, start = self.buffer[1] & 0x7F, 2
                if length == 126 and len(self.buffer) >= 4:
                    length, start = struct.unpack(">H", self.buffer[2:4])[0], 4
                elif length == 127 and len(self.buffer) >= 10:
                    length, start = struct.unpack(">Q", self.buffer[2:10])[0], 10
                if (length < 126 or start > 2) and len(self.buffer) >= start + length:
                    opcode, payload = self.buffer[0] & 0x0F, self.buffer[start : start + length]
                    self.buffer = self.buffer[start + length :]
                    return opcode, payload
            try:
                chunk = self.sock.recv(65536)
            except (ConnectionResetError, BrokenPipeError):
                chunk = b""
            if not chunk:
                return -1, b""
            self.buffer += chunk

    def close_code(self, timeout: float = 10) -> int:
        """Read on to the server's close frame: its code (1006: the connection ended without one)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            opcode, payload = self.frame(max(0.1, deadline - time.monotonic()))
            if opcode == 8:
                return int(struct.unpack(">H", payload[:2])[0]) if len(payload) >= 2 else 1005
            if opcode == -1:
                return 1006
        raise AssertionError("no close within the time")

    def close(self) -> None:
        self.sock.close()


def new_log(server: Server, since: int) -> str:
    return server.log.read_text(errors="replace")[since:]


def log_size(server: Server) -> int:
    return len(server.log.read_text(errors="replace"))


# --- one slow socket hurts only itself ------------------------------------------------------------------
@pytest.mark.slow
def test_a_spectator_that_never_reads_delays_no_seat_and_no_other_match(server: Server, http: httpx.Client) -> None:
    """Issue 24's row: a spectator sent an 8 MiB ping and never read, and the seats of its match got
    0 of 54 updates for 55 s while other matches lost their heartbeats. Now: two such spectators
    (one with the big ping, one that only never reads), 54 moves, every update at each seat within
    UPDATE_BOUND, the other match's pings at their pace, and the silent reader dropped (4504)."""
    start = log_size(server)
    match_id, tokens, mover = new_bop(http)
    other_match, _, _ = new_bop(http)
    seats = [SocketReader(server.url, match_id, tokens[seat]) for seat in (0, 1)]
    elsewhere = SocketReader(server.url, other_match)
    for reader in (*seats, elsewhere):
        reader.start()
        assert reader.ready.wait(10)
    path = f"/v1/matches/{match_id}/live"
    big_ping = RawSocket(server.url, path, receive_buffer=1)
    big_ping.send(hello().encode())
    never_reads = RawSocket(server.url, path, receive_buffer=1)
    never_reads.send(hello().encode())
    ping = json.dumps({"type": "ping", "t": "x" * (8 * 1024 * 1024)}).encode()
    big_ping.send_some(RawSocket.header(len(ping)) + ping, seconds=2)
    sent_at: dict[int, float] = {}
    version = 0
    alive, talked = RawSocket.header(len(b'{"type":"pong"}')) + b'{"type":"pong"}', 0.0

    def move() -> None:
        nonlocal version, mover, talked
        if time.monotonic() - talked > HEARTBEAT / 2:  # it talks (within the rate), so it is not silent
            never_reads.send_some(alive, seconds=0.05)
            talked = time.monotonic()
        moved = http.post(
            f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version}, headers=auth(tokens[mover])
        )
        assert moved.status_code == 200, moved.text
        version, mover = version + 1, 1 - mover
        sent_at[version] = time.monotonic()

    try:
        with Probe(server.url) as probe:  # the 54 moves, paced as people play, beside a health probe
            for _ in range(54):
                move()
                time.sleep(0.02)
        # Then on, as fast as the server answers, until the reader that never reads has its pipe full
        # and is dropped: each update holds the whole match (about 1 KiB); the kernel takes about 2 MiB.
        for count in range(MOST_MOVES):
            if count % 20 == 0 and "closed: 4504" in new_log(server, start):
                break
            move()
        else:
            pytest.fail(f"the reader that never reads was not dropped after {MOST_MOVES} moves")
        for reader in seats:
            wait_for(lambda r=reader: r.version_seen() >= version, "an update to reach every seat", 10, every=0.005)
        beats = len(elsewhere.pings())  # the other match's heartbeat goes on after the drop too: two more
        wait_for(lambda: len(elsewhere.pings()) >= beats + 2, "the other match's pings to go on", 6 * HEARTBEAT)
    finally:
        for reader in (*seats, elsewhere):
            reader.stop.set()
            reader.join(timeout=5)
        big_ping.close()
        never_reads.close()
    delays: list[float] = []
    for reader in seats:
        # An update that finds an older one still queued joins it, so one message may bring several
        # moves: a version arrived with the first update whose moves reach back to it.
        arrived: dict[int, float] = {}
        for at, message in reader.arrived:
            if message["type"] == "update":
                for covered in range(message["version"] - len(message["moves"]) + 1, message["version"] + 1):
                    arrived.setdefault(covered, at)
        assert set(arrived) >= set(sent_at), f"a seat missed moves {sorted(set(sent_at) - set(arrived))[:5]}"
        delays += [arrived[v] - sent_at[v] for v in sent_at]
    print(f"{version} moves; updates reached the seats in at most {max(delays) * 1000:.0f} ms")
    assert max(delays) < UPDATE_BOUND, f"slowest update {max(delays):.3f} s"
    beats = elsewhere.pings()
    gaps = [later - earlier for earlier, later in zip(beats, beats[1:], strict=False)]
    assert len(beats) >= 4 and max(gaps) < 3 * HEARTBEAT, f"the other match's pings came {gaps}"
    waits = sorted(probe.waits)
    print(f"/healthz beside the first 54 moves: {len(waits)} waits, the longest {waits[-1] * 1000:.0f} ms")
    assert max(probe.waits) < PROBE_BOUND, f"/healthz waited {max(probe.waits):.3f} s"
    log = new_log(server, start)
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


@pytest.mark.slow
def test_a_socket_whose_queue_fills_is_closed(tmp_path: Path) -> None:
    """The queue's bound, on a server whose other limits are out of the way (no rate limit, a long
    send timeout, a queue of 4): a seat that sends bad messages and never reads the errors has its
    buffers filled, then its queue, and is closed (4504); another socket on the match is served on."""
    env = {"TABLEJUDGE_LIVE_QUEUE": "4", "TABLEJUDGE_LIVE_RATE": "100000", "TABLEJUDGE_LIVE_BURST": "1000000",
           "TABLEJUDGE_LIVE_SEND_TIMEOUT_S": "60", "TABLEJUDGE_RATE_MOVES": "off"}  # fmt: skip
    server = Server(tmp_path, env=env).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            match_id, tokens, mover = new_bop(http)
            flood = RawSocket(server.url, f"/v1/matches/{match_id}/live", receive_buffer=1)
            flood.send(hello(tokens[0]).encode())
            bad = RawSocket.header(len(b"not json")) + b"not json"
            with live(server.url, match_id, tokens[1]) as calm:
                assert receive(calm)["type"] == "hello"
                deadline = time.monotonic() + 60
                while "closed: 4504" not in server.log.read_text(errors="replace"):
                    assert time.monotonic() < deadline, "the socket that never reads was not closed"
                    if flood.send_some(bad * 2000, seconds=0.2) == 0:
                        time.sleep(0.05)  # the server stopped reading it: the close is on its way
                assert "4 messages waiting" in server.log.read_text(errors="replace")
                calm.send(json.dumps({"type": "ping", "t": 5}))
                assert receive(calm) == {"type": "pong", "t": 5}
                moved = http.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": 0},
                                  headers=auth(tokens[mover]))  # fmt: skip
                assert moved.status_code == 200 and receive(calm)["version"] == 1
            flood.close()
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text(errors="replace")


def test_a_newer_update_joins_the_one_still_queued() -> None:
    """A slow reader is sent the latest match, with every move it missed, not a backlog."""
    first: dict[str, Any] = {"type": "update", "version": 3, "kind": "move", "moves": [{"seat": 0, "move": "pass"}],
             "match": {"version": 3}, "breakdown": {"total": 0}}  # fmt: skip
    second: dict[str, Any] = {"type": "update", "version": 4, "kind": "move", "moves": [{"seat": 1, "move": "a"}],
              "match": {"version": 4}, "breakdown": {"total": 9}}  # fmt: skip
    join_updates(first, second)
    assert first["version"] == 4 and first["match"] == {"version": 4} and first["kind"] == "move"
    assert first["moves"] == [{"seat": 0, "move": "pass"}, {"seat": 1, "move": "a"}]
    assert "breakdown" not in first  # one breakdown for two moves would be the wrong one's
    seats: dict[str, Any] = {
        "type": "update",
        "version": 4,
        "kind": "seats",
        "moves": [],
        "match": {"version": 4, "seats": 2},
    }
    one: dict[str, Any] = {"type": "update", "version": 4, "kind": "move", "moves": [{"seat": 1, "move": "a"}],
           "match": {"version": 4}, "breakdown": {"total": 9}}  # fmt: skip
    join_updates(one, seats)
    assert one["kind"] == "move" and one["breakdown"] == {"total": 9} and one["match"]["seats"] == 2


# --- bounded input --------------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_four_million_character_move_is_refused_from_its_header(server: Server, http: httpx.Client) -> None:
    """It stalled the server 10-13 s. Now the frame's header says it is over the limit (1009),
    and ``/healthz`` never waits PROBE_BOUND meanwhile; the move's text is capped as over HTTP."""
    start = log_size(server)
    match_id, tokens, mover = new_bop(http)
    with Probe(server.url) as probe:
        raw = RawSocket(server.url, f"/v1/matches/{match_id}/live")
        raw.send(hello(tokens[mover]).encode())
        assert json.loads(raw.frame()[1])["type"] == "hello"
        move = json.dumps({"type": "move", "move": "x" * 4_000_000, "version": 0, "id": 1}).encode()
        began = time.monotonic()
        raw.send_some(RawSocket.header(len(move)) + move, seconds=2)
        assert raw.close_code() == 1009
        assert time.monotonic() - began < 2.5
        raw.close()
        probed = len(probe.waits)  # and a few more answers after the close
        wait_for(lambda: len(probe.waits) >= probed + 5, "five probes after the close", 10)
    assert max(probe.waits) < PROBE_BOUND, f"/healthz waited {max(probe.waits):.3f} s"
    with live(server.url, match_id, tokens[mover]) as socket:
        assert receive(socket)["type"] == "hello"
        for length, code in ((MAX_MOVE_CHARS + 1, "bad_message"), (MAX_MOVE_CHARS, "bad_notation")):
            socket.send(json.dumps({"type": "move", "move": "x" * length, "version": 0, "id": length}))
            answer = receive(socket)
            assert answer["type"] == "error" and answer["id"] == length and answer["error"]["code"] == code, answer
    refused = http.post(
        f"/v1/matches/{match_id}/moves", json={"move": "x" * (MAX_MOVE_CHARS + 1), "version": 0},
        headers=auth(tokens[mover]),
    )  # fmt: skip
    assert refused.status_code == 422  # the same cap over HTTP
    assert http.get(f"/v1/matches/{match_id}", headers=auth(tokens[0])).json()["version"] == 0
    assert "Traceback" not in new_log(server, start)


def test_binary_deep_and_malformed_frames_get_a_readable_error_and_no_traceback(
    server: Server, http: httpx.Client
) -> None:
    """They were logged as "Exception in ASGI application" with a stack. Each now gets an error
    the client can read, the socket stays open, and the log holds no traceback."""
    start = log_size(server)
    match_id, tokens, mover = new_bop(http)
    bad_frames: list[str | bytes] = [
        b"\x00\x01binary",
        "[" * 8000 + "]" * 8000,  # deeper than any parser's recursion
        '{"type": "ping", "t": ' + "[" * 5000 + "]" * 5000 + "}",
        "not json at all",
        "[1, 2, 3]",
        '{"type": "move", "move": {"nested": ["x"]}, "version": 0}',
        '{"type": "move", "move": "pass", "version": "zero", "id": 1}',
        '{"type": "move", "move": "pass", "version": 0, "id": "' + "i" * 100 + '"}',
        '{"type": "teleport"}',
        "\u00e9\u0000\ud7ff",
    ]
    with connect(ws_url(server.url, match_id)) as socket:
        socket.send(hello(tokens[mover]))
        assert receive(socket)["type"] == "hello"
        for frame in bad_frames:
            socket.send(frame)
            answer = receive(socket)
            assert answer["type"] == "error" and answer["error"]["code"] == "bad_message", (frame[:40], answer)
            assert len(answer["error"]["message"]) > 5
        socket.send(json.dumps({"type": "ping", "t": 7}))
        assert receive(socket) == {"type": "pong", "t": 7}  # still open
        socket.send(json.dumps({"type": "ping", "t": "a long text the server should not echo"}))
        assert receive(socket) == {"type": "pong", "t": None}  # a pong echoes a number only
    raw = RawSocket(server.url, f"/v1/matches/{match_id}/live")  # text that is not UTF-8: uvicorn closes it
    raw.send(hello().encode())
    assert json.loads(raw.frame()[1])["type"] == "hello"
    raw.send(b'{"type": "ping", "t": "\xff\xfe"}')
    assert raw.close_code() == 1007
    raw.close()
    assert http.get(f"/v1/matches/{match_id}", headers=auth(tokens[0])).json()["version"] == 0
    wait_for(lambda: "Invalid UTF-8" in new_log(server, start), "uvicorn's line, written as it closes", 10)
    log = new_log(server, start)
    assert "Invalid UTF-8" in log  # said in a line ...
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]  # ... without a stack


def test_a_socket_over_its_message_rate_is_closed_and_the_others_are_not(server: Server, http: httpx.Client) -> None:
    match_id, tokens, _ = new_bop(http)
    limits = LiveLimits()
    # The flood's client keeps every pong it is sent (max_queue=None) so that its own reading never holds the
    # server's sends back: what is tested is the server's count of the messages, not TCP's back-pressure (a
    # client that reads nothing is the slow-reader test's, above).
    with live(server.url, match_id, tokens[0]) as calm, connect(ws_url(server.url, match_id), max_queue=None) as flood:
        flood.send(hello())
        assert receive(calm)["type"] == "hello" and receive(flood)["type"] == "hello"
        closed = None
        try:
            for index in range(limits.burst + int(limits.rate) * 5):
                flood.send(json.dumps({"type": "ping", "t": index}))
            while True:
                flood.recv(timeout=10)
        except ConnectionClosed as error:
            closed = error.rcvd.code if error.rcvd is not None else None
        assert closed == 4429
        calm.send(json.dumps({"type": "ping", "t": 1}))
        assert receive(calm) == {"type": "pong", "t": 1}


@pytest.mark.slow
def test_a_socket_silent_for_three_heartbeats_is_closed_and_one_that_answers_is_not(
    server: Server, http: httpx.Client
) -> None:
    """The server pings every HEARTBEAT (here 0.5 s; 15 s in production, tested at that setting in
    ``test_hostile.py``) and closes a socket that has sent nothing for three (1001): at the first
    heartbeat past 3 * HEARTBEAT. A socket that answers the pings, as a page does, stays open."""
    match_id, _, _ = new_bop(http)
    answering = SocketReader(server.url, match_id)
    answering.start()
    assert answering.ready.wait(10)
    try:
        after, code, reason = silent_until_closed(server.url, match_id, 10 * HEARTBEAT + 5)
        assert code == 1001 and "silent" in reason
        assert 3 * HEARTBEAT < after < 4 * HEARTBEAT + 1.0, f"closed {after:.2f} s after its hello"
        beats = len(answering.pings())
        wait_for(lambda: len(answering.pings()) >= beats + 2, "two more pings to the socket that answers", 10)
        assert answering.is_alive()
    finally:
        answering.stop.set()
        answering.join(timeout=5)


# --- the hello ------------------------------------------------------------------------------------------
def close_code_of(socket: ClientConnection) -> int | None:
    try:
        while True:
            socket.recv(timeout=10)
    except ConnectionClosed as error:
        return error.rcvd.code if error.rcvd is not None else None


def test_the_token_goes_in_the_hello_never_in_the_url(server: Server, http: httpx.Client) -> None:
    match_id, tokens, mover = new_bop(http)
    with connect(ws_url(server.url, match_id) + f"?token={tokens[mover]}") as socket:
        refused = json.loads(socket.recv(timeout=10))
        assert refused["error"]["code"] == "token_in_url" and close_code_of(socket) == 4400
    with connect(ws_url(server.url, match_id)) as socket:
        socket.send(json.dumps({"type": "move", "move": "pass", "version": 0}))
        assert json.loads(socket.recv(timeout=10))["error"]["code"] == "bad_hello" and close_code_of(socket) == 4400
    with connect(ws_url(server.url, match_id)) as socket:
        socket.send(hello("not-a-seat-token"))
        assert json.loads(socket.recv(timeout=10))["error"]["code"] == "unauthorized"
        assert close_code_of(socket) == 4401
    with connect(ws_url(server.url, "nosuchmatch")) as socket:
        socket.send(hello())
        assert close_code_of(socket) == 4404
    with connect(ws_url(server.url, match_id)) as socket:  # says nothing
        began = time.monotonic()
        assert json.loads(socket.recv(timeout=10))["error"]["code"] == "no_hello" and close_code_of(socket) == 4408
        assert HELLO_TIMEOUT * 0.9 < time.monotonic() - began < HELLO_TIMEOUT + 2
    with live(server.url, match_id, tokens[mover]) as socket:  # and the token in the hello moves
        first = receive(socket)
        assert first["type"] == "hello" and first["match"]["you"] == mover
        socket.send(json.dumps({"type": "move", "move": "pass", "version": 0, "id": "a"}))
        answers = [receive(socket), receive(socket)]
        assert {"ack", "update"} == {answer["type"] for answer in answers}


def test_no_seat_token_reaches_the_log_after_a_whole_match(server: Server, http: httpx.Client) -> None:
    """139 seat tokens were in a server's log: uvicorn logs each handshake's query string. A whole
    match through the real server (sockets for both seats, moves on the socket and over HTTP, a
    reconnect, an old client with ``?token=`` in its URL, HTTP requests with a token in the query),
    then the log at info level with the access log on holds none of this module's tokens."""
    match_id, tokens, mover = new_bop(http, pass_limit=6)
    version = 0
    with live(server.url, match_id, tokens[0]) as first, live(server.url, match_id, tokens[1]) as second:
        sockets = {0: first, 1: second}
        assert receive(first)["type"] == "hello" and receive(second)["type"] == "hello"
        while True:
            body = http.get(f"/v1/matches/{match_id}", headers=auth(tokens[mover])).json()
            if body["status"] == "over":
                break
            assert version < 20, "the match did not end"
            if version % 2:
                sockets[mover].send(json.dumps({"type": "move", "move": "pass", "version": version, "id": version}))
                answer = receive(sockets[mover])
                while answer["type"] != "ack":
                    assert answer["type"] == "update", answer
                    answer = receive(sockets[mover])
            else:
                moved = http.post(
                    f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version},
                    headers=auth(tokens[mover]),
                )  # fmt: skip
                assert moved.status_code == 200, moved.text
            version, mover = version + 1, 1 - mover
    with live(server.url, match_id, tokens[0], since=1) as again:
        assert receive(again)["match"]["status"] == "over"
    with connect(ws_url(server.url, match_id) + f"?token={tokens[1]}&since=0") as old_client:
        assert close_code_of(old_client) == 4400
    http.get(f"/v1/matches/{match_id}", params={"token": tokens[0]})
    http.get("/healthz", params={"token": tokens[1]})
    invite = "an-invite-token-of-the-link"
    http.get(f"/play/{match_id}", params={"invite": invite})  # an invite link opened: the page's address
    wait_for(lambda: "/healthz?token=" in server.log.read_text(errors="replace"), "the access log's line", 10)
    log = server.log.read_text(errors="replace")
    assert f'"WebSocket /v1/matches/{match_id}/live?token=[redacted]' in log  # the URL was logged, redacted
    assert f"/v1/matches/{match_id}?token=[redacted]" in log  # the access log is on and redacted
    found = [token for token in TOKENS if token in log]
    assert not found and len(TOKENS) >= 2, f"{len(found)} seat tokens in {Path(server.log)}"
    assert not re.search(r"token=(?!\[redacted\])", log)
    assert f"/play/{match_id}?invite=[redacted]" in log and invite not in log

"""The ``tablejudge.frames`` extension (``service.live_frames``) under a real uvicorn (uvloop, httptools), in
this process, with a small ASGI app that writes through it: what a client receives, in what order, in how
many writes, and what happens when the client stops reading or the socket closes."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from service.live_frames import EXTENSION, FramedWebSocketsProtocol, text_frame_head
from tests.conftest import free_port
from tests.matches.waiting import wait_for

#: The test server's limit on a client's frame (bytes).
MAX_SIZE = 100_000
#: Each served connection's protocol, to count its writes.
SERVED: list[CountingProtocol] = []


class CountingWrites:
    """The connection's real transport, its writes counted (everything else passed through)."""

    def __init__(self, transport: Any) -> None:
        self._transport, self.writes = transport, 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self._transport.write(data)

    def writelines(self, data: list[bytes]) -> None:
        self.writes += 1
        self._transport.writelines(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class CountingProtocol(FramedWebSocketsProtocol):
    def connection_made(self, transport: Any) -> None:
        super().connection_made(CountingWrites(transport))  # type: ignore[arg-type]
        SERVED.append(self)


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Says what it is asked to: ``echo:TEXT`` answers ``{"echo": TEXT}`` (a binary frame, its length);
    ``{"pads": [P, ...], "then": "asgi"|"close"|null}`` writes a frame for each
    pad (P characters "é", two bytes each) through the extension in one turn, then one message through ASGI
    or a close; ``{"flood": BYTES}`` writes frames of
    that size until the writer refuses one, then says through ASGI how many it took."""
    if scope["type"] == "lifespan":
        while (message := await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    assert scope["type"] == "websocket"
    await receive()
    await send({"type": "websocket.accept"})
    writer = scope["extensions"][EXTENSION]
    while (message := await receive())["type"] == "websocket.receive":
        if message.get("text") is None:
            await send({"type": "websocket.send", "text": json.dumps({"binary": len(message["bytes"])})})
            continue
        if message["text"].startswith("echo:"):
            assert writer.send_text(json.dumps({"echo": message["text"][5:]}, ensure_ascii=False).encode())
            continue
        asked = json.loads(message["text"])
        if "flood" in asked:
            taken = 0
            while taken < 5_000 and writer.send_text(
                json.dumps({"flood": taken, "pad": "x" * asked["flood"]}).encode()
            ):
                taken += 1
            await send({"type": "websocket.send", "text": json.dumps({"taken": taken})})
            continue
        for index, pad in enumerate(asked["pads"]):
            assert writer.send_text(json.dumps({"frame": index, "pad": "é" * pad}, ensure_ascii=False).encode())
        if asked.get("then") == "asgi":
            await send({"type": "websocket.send", "text": json.dumps({"asgi": True})})
        elif asked.get("then") == "close":
            await send({"type": "websocket.close", "code": 4000, "reason": "asked"})
            return


@pytest.fixture
def server() -> Iterator[str]:
    SERVED.clear()
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, loop="uvloop", http="httptools", ws=CountingProtocol,
                            log_level="warning", ws_per_message_deflate=False, ws_max_size=MAX_SIZE,
                            ws_ping_interval=None)  # fmt: skip
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    wait_for(lambda: served.started, "uvicorn started", seconds=30)
    yield f"ws://127.0.0.1:{port}/"
    served.should_exit = True
    thread.join(timeout=10)


def test_a_frame_head_says_the_length_in_one_two_or_eight_bytes() -> None:
    assert text_frame_head(0) == b"\x81\x00"
    assert text_frame_head(125) == b"\x81\x7d"
    assert text_frame_head(126) == b"\x81\x7e\x00\x7e"
    assert text_frame_head(65535) == b"\x81\x7e\xff\xff"
    assert text_frame_head(65536) == b"\x81\x7f" + (65536).to_bytes(8, "big")


def test_the_frames_of_one_turn_arrive_whole_in_order_in_one_write(server: str) -> None:
    async def run() -> None:
        async with connect(server, max_size=None) as socket:
            await socket.send(json.dumps({"pads": [0, 0, 0], "then": "asgi"}))
            got = [json.loads(await socket.recv()) for _ in range(4)]
            assert got == [{"frame": 0, "pad": ""}, {"frame": 1, "pad": ""}, {"frame": 2, "pad": ""}, {"asgi": True}]
            writes = SERVED[0].transport.writes  # type: ignore[attr-defined]
            # Payloads whose lengths take the head's one, two and eight bytes, under WRITE_AT together.
            pads = [0, 50, 20, 300, 25_000, 3]
            await socket.send(json.dumps({"pads": pads}))
            got = [json.loads(await socket.recv()) for _ in pads]
            assert got == [{"frame": index, "pad": "é" * pad} for index, pad in enumerate(pads)]
            assert SERVED[0].transport.writes == writes + 1  # type: ignore[attr-defined]

    asyncio.run(run())


def test_a_burst_past_the_high_water_mark_is_written_as_it_comes_still_in_order(server: str) -> None:
    async def run() -> None:
        async with connect(server, max_size=None) as socket:
            writes = SERVED[0].transport.writes  # type: ignore[attr-defined]
            pads = [40_000] * 6  # 80 KB each: each past WRITE_AT
            await socket.send(json.dumps({"pads": pads, "then": "asgi"}))
            got = [json.loads(await socket.recv()) for _ in range(len(pads) + 1)]
            assert [each.get("frame") for each in got] == [*range(len(pads)), None]
            assert got[-1] == {"asgi": True}
            assert SERVED[0].transport.writes >= writes + len(pads)  # type: ignore[attr-defined]

    asyncio.run(run())


def test_frames_given_before_a_close_go_out_before_it(server: str) -> None:
    async def run() -> None:
        async with connect(server, max_size=None) as socket:
            await socket.send(json.dumps({"pads": [0, 10, 0, 200, 0], "then": "close"}))
            got = []
            with pytest.raises(ConnectionClosed):
                while True:
                    got.append(json.loads(await socket.recv()))
            assert [each["frame"] for each in got] == list(range(5))
            assert socket.close_code == 4000

    asyncio.run(run())


def test_a_reader_that_stops_gets_asgi_sends_after_the_writer_refuses_and_then_everything(server: str) -> None:
    """A client that reads nothing: the writer takes frames until the socket's buffer passes its high-water
    mark, then refuses; the app's ASGI send waits until the client reads, and every frame arrives in order."""

    async def run() -> None:
        async with connect(server, max_size=None, max_queue=1) as socket:
            await socket.send(json.dumps({"flood": 8_000}))
            received = []
            while "taken" not in (message := json.loads(await socket.recv())):
                received.append(message["flood"])
            assert received == list(range(message["taken"]))
            assert 2 <= message["taken"] < 5_000  # it wrote a few, then the full buffer refused one

    asyncio.run(run())


def test_tablejudge_serve_runs_this_protocol() -> None:
    from service.server import server_options
    from service.settings import Settings

    assert server_options(Settings.from_env({}))["ws"] == "service.live_frames:FramedWebSocketsProtocol"


# --- what a client sends: read by the protocol itself, or by websockets for the rest of the connection ---------
class RawClient:
    """A client that frames its messages with websockets' sans-I/O protocol and writes the bytes as the test
    says (cut anywhere, several frames in one write); what comes back is read by that protocol."""

    def __init__(self, url: str) -> None:
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        self.protocol = ClientProtocol(parse_uri(url), max_size=None)
        self.url = url

    async def __aenter__(self) -> RawClient:
        port = int(self.url.rsplit(":", 1)[1].strip("/"))
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.protocol.send_request(self.protocol.connect())
        await self.flush()
        while self.protocol.handshake_exc is None and self.protocol.state.name == "CONNECTING":
            self.protocol.receive_data(await self.reader.read(65536))
        self.events: list[Any] = [each for each in self.protocol.events_received() if hasattr(each, "opcode")]
        return self

    async def __aexit__(self, *_: Any) -> None:
        self.writer.close()

    def frames(self, *messages: str | bytes, fragments: int = 1) -> bytes:
        """The bytes of these messages as frames (a text message in ``fragments`` frames), not written yet."""
        for message in messages:
            if isinstance(message, bytes):
                self.protocol.send_binary(message)
                continue
            raw = message.encode()
            step = -(-len(raw) // fragments)
            parts = [raw[index : index + step] for index in range(0, len(raw), step)] or [b""]
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                if index == 0:
                    self.protocol.send_text(part, fin=last)
                else:
                    self.protocol.send_continuation(part, fin=last)
        return b"".join(self.protocol.data_to_send())

    async def write(self, data: bytes, cuts: list[int] | None = None) -> None:
        """Write ``data``, in pieces cut at ``cuts`` (each piece its own write and drain)."""
        edges = [0, *(cuts or []), len(data)]
        for begin, end in zip(edges, edges[1:], strict=False):
            self.writer.write(data[begin:end])
            await self.writer.drain()

    async def flush(self) -> None:
        await self.write(b"".join(self.protocol.data_to_send()))

    async def received(self, count: int) -> list[Any]:
        """The next ``count`` texts (as JSON), pongs (``"pong"``) and closes (``("close", code)``)."""
        from websockets.frames import Opcode

        got: list[Any] = []
        while len(got) < count:
            for event in self.events:
                if event.opcode is Opcode.TEXT:
                    got.append(json.loads(event.data))
                elif event.opcode is Opcode.PONG:
                    got.append("pong")
                elif event.opcode is Opcode.CLOSE:
                    got.append(("close", self.protocol.close_rcvd.code if self.protocol.close_rcvd else None))
            self.events = []
            if len(got) >= count:
                break
            data = await asyncio.wait_for(self.reader.read(65536), 20)
            if not data:
                self.protocol.receive_eof()
                got.append(("eof", None))
                break
            self.protocol.receive_data(data)
            self.events = list(self.protocol.events_received())
            await self.flush()  # (the client's answer to a close)
        return got


def test_frames_cut_anywhere_or_sent_together_are_read_whole_and_in_order(server: str) -> None:
    async def run() -> None:
        async with RawClient(server) as client:
            long = "é" * 30_000  # a two-byte length; 60,000 bytes
            data = client.frames("echo:a", "echo:" + long, "echo:b")
            await client.write(data, cuts=[1, 2, 3, 5, 9, 10, 4_000, len(data) - 2])
            assert await client.received(3) == [{"echo": "a"}, {"echo": long}, {"echo": "b"}]
            first = client.frames("echo:c")
            client.protocol.send_ping(b"p")
            await client.write(first + b"".join(client.protocol.data_to_send()) + client.frames("echo:d"))
            got = await client.received(3)  # (the pong is written at once, the echoes by the app after)
            assert [each for each in got if each != "pong"] == [{"echo": "c"}, {"echo": "d"}] and "pong" in got

    asyncio.run(run())


def test_what_the_protocol_does_not_read_itself_is_read_by_websockets_from_then_on(server: str) -> None:
    """A binary frame, then a fragmented text message, then plain text frames again: each answered, in
    order (websockets reads the rest of the connection)."""

    async def run() -> None:
        async with RawClient(server) as client:
            await client.write(client.frames("echo:before"))
            assert await client.received(1) == [{"echo": "before"}]
            await client.write(client.frames(b"\x00\x01\x02", "echo:in three", "echo:after", fragments=3))
            assert await client.received(3) == [{"binary": 3}, {"echo": "in three"}, {"echo": "after"}]

    asyncio.run(run())


@pytest.mark.parametrize(
    "bad, code",
    [
        ("not utf-8", 1007),
        ("too big", 1009),
        ("not masked", 1002),
    ],
)
def test_a_bad_frame_is_refused_as_uvicorn_refuses_it(server: str, bad: str, code: int) -> None:
    async def run() -> None:
        async with RawClient(server) as client:
            await client.write(client.frames("echo:first"))
            assert await client.received(1) == [{"echo": "first"}]
            if bad == "not utf-8":
                client.protocol.send_text(b"echo:\xff\xfe")
                data = b"".join(client.protocol.data_to_send())
            elif bad == "too big":  # (its head only: the server refuses it from there, and resets the rest)
                data = client.frames("echo:" + "x" * MAX_SIZE)[:20]
            else:  # a text frame of 2 bytes without the mask bit
                data = b"\x81\x02hi"
            await client.write(data)
            got = await client.received(1)
            assert got[0][0] == "close" and got[0][1] == code, got

    asyncio.run(run())


def test_a_close_from_the_client_ends_the_connection_with_the_closing_handshake(server: str) -> None:
    async def run() -> None:
        async with connect(server, max_size=None) as socket:
            await socket.send("echo:x")
            assert json.loads(await socket.recv()) == {"echo": "x"}
        assert socket.close_code == 1000  # the server answered the close

    asyncio.run(run())


def test_a_live_move_is_answered_and_told_to_its_mover_in_one_write(tmp_path: Any) -> None:
    """The match server's live sockets write through the extension: the mover's answer and the update that
    follows it, given in the same turn, reach the mover's socket in one write (through ASGI, two)."""
    from service.app import create_app
    from service.settings import Settings
    from tests.matches.clients import auth, hello

    SERVED.clear()
    port = free_port()
    settings = Settings.from_env({"TABLEJUDGE_DATA": str(tmp_path), "TABLEJUDGE_LIVE_HEARTBEAT_S": "3600",
                                  "TABLEJUDGE_PUBLIC_URL": f"http://127.0.0.1:{port}"})  # fmt: skip
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, loop="uvloop", http="httptools",
                            ws=CountingProtocol, log_level="warning", ws_per_message_deflate=False,
                            ws_ping_interval=None)  # fmt: skip
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: served.started, "uvicorn started", seconds=60)
        base = f"http://127.0.0.1:{port}"
        import httpx

        with httpx.Client(base_url=base, timeout=30) as http:
            made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
            joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]}).json()
            tokens = {0: made["token"], 1: joined["token"]}
            mover = http.get(f"/v1/matches/{made['match']}", headers=auth(tokens[0])).json()["must_act"][0]

        async def move_live() -> tuple[list[dict[str, Any]], int]:
            async with connect(f"ws://127.0.0.1:{port}/v1/matches/{made['match']}/live") as socket:
                await socket.send(hello(tokens[mover]))
                assert json.loads(await socket.recv())["type"] == "hello"
                assert json.loads(await socket.recv())["type"] == "ping"  # (a seat's first round trip)
                protocol = SERVED[-1]
                before = protocol.transport.writes  # type: ignore[attr-defined]
                await socket.send(json.dumps({"type": "move", "move": "pass", "version": 0, "id": 1}))
                heard = [json.loads(await socket.recv()) for _ in range(2)]
                return heard, protocol.transport.writes - before  # type: ignore[attr-defined]

        heard, writes = asyncio.run(move_live())
        assert sorted(message["type"] for message in heard) == ["ack", "update"], heard
        assert all(message["version"] == 1 for message in heard), heard
        assert writes == 1
    finally:
        served.should_exit = True
        thread.join(timeout=10)

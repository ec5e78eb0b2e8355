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
    """Says what it is asked to: ``{"pads": [P, ...], "then": "asgi"|"close"|null}`` writes a frame for each
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
    config = uvicorn.Config(app, host="127.0.0.1", port=port, loop="uvloop", http="httptools",
                            ws=CountingProtocol, log_level="warning", ws_per_message_deflate=False)  # fmt: skip
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

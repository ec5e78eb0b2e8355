"""Clients of a running match server for the tests: the seat token's header and the live socket
(``hello`` first, the token in it, never in the URL)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def ws_url(base: str, match_id: str) -> str:
    """A match's live socket: nothing in the URL, the token goes in the hello (``live``)."""
    return base.replace("http://", "ws://") + f"/v1/matches/{match_id}/live"


def hello(token: str | None = None, since: int | None = None) -> str:
    return json.dumps({"type": "hello", "token": token, "since": since})


@contextmanager
def live(base: str, match_id: str, token: str | None = None, since: int | None = None) -> Iterator[ClientConnection]:
    """A live socket that has said its hello (as a seat with ``token``, else as a spectator)."""
    with connect(ws_url(base, match_id)) as socket:
        socket.send(hello(token, since))
        yield socket


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def receive(socket: Any) -> dict[str, Any]:
    while True:
        message = json.loads(socket.recv(timeout=20))
        if message["type"] != "ping":
            return dict(message)


class SocketReader(threading.Thread):
    """A live socket in a thread of its own that reads everything it is sent, noting when each message
    arrived, and answers the heartbeat as a page does. ``stop`` ends it; ``ready``: its hello came."""

    def __init__(self, base: str, match_id: str, token: str | None = None) -> None:
        super().__init__(daemon=True)
        self.base, self.match_id, self.token = base, match_id, token
        self.arrived: list[tuple[float, dict[str, Any]]] = []
        self.stop, self.ready = threading.Event(), threading.Event()

    def run(self) -> None:
        with live(self.base, self.match_id, self.token) as socket:
            while not self.stop.is_set():
                try:
                    text = socket.recv(timeout=0.1)
                except TimeoutError:
                    continue
                message = json.loads(text)
                self.arrived.append((time.monotonic(), message))
                if message["type"] == "hello":
                    self.ready.set()
                elif message["type"] == "ping":  # as a page does: a socket that never answers is dropped
                    socket.send(json.dumps({"type": "pong", "t": message["t"]}))

    def version_seen(self) -> int:
        return max((m["version"] for _, m in self.arrived if m["type"] in ("hello", "update")), default=-1)

    def pings(self) -> list[float]:
        return [at for at, message in self.arrived if message["type"] == "ping"]


def silent_until_closed(base: str, match_id: str, seconds: float) -> tuple[float, int, str]:
    """A live socket that says hello and then never says a word (a phone whose page froze or whose
    network went: its WebSocket library still answers the protocol's own pings, as a browser does),
    reading all it is sent until the server closes it: how long after the hello, and the close's code
    and reason. Fails if it is still open after ``seconds``."""
    with connect(ws_url(base, match_id)) as socket:
        socket.send(hello())
        said = time.monotonic()
        while time.monotonic() - said < seconds:
            try:
                socket.recv(timeout=max(0.01, seconds - (time.monotonic() - said)))
            except TimeoutError:
                break
            except ConnectionClosed as closed:
                assert closed.rcvd is not None, "the connection ended without the server's close frame"
                return time.monotonic() - said, closed.rcvd.code, closed.rcvd.reason
    raise AssertionError(f"a silent socket was still open {seconds} s after its hello")

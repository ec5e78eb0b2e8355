"""Clients of a running match server for the tests: the seat token's header and the live socket
(``hello`` first, the token in it, never in the URL)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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

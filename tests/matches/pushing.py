"""A push service of the tests' own on loopback, and a browser's side of a push subscription: its keys, and
the decryption of what the server sends (``tests/matches/test_push.py``, ``tests/web/test_push_page.py``)."""

from __future__ import annotations

import base64
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import orjson
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from matches.push import PushSender
from matches.push_setup import PushSettings, load_key
from matches.service import MatchService
from matches.store import PushRow
from matches.tokens import digest
from tests.matches.waiting import eventually
from tests.matches.waiting import wait_for as wait_for  # (tests/web/test_push_page.py imports it from here)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Browser:
    """What a browser holds for one push subscription: its P-256 key pair and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return dict(orjson.loads(plain))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """A push service on loopback: records every POST, answers 201, or 410 on paths under ``/gone``."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with service.lock:
                    service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(410 if self.path.startswith("/gone") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def at(self, path: str) -> list[Received]:
        with self.lock:
            return [message for message in self.received if message.path == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    """A push service of the tests' own on loopback, for a module's tests."""
    service = PushService()
    yield service
    service.close()


# --- a service's own sender, in process (``tests/matches/test_push.py``, ``test_departures.py``) -----------------
def started_sender(service: MatchService) -> PushSender:
    """A started sender (from inside the event loop) that may send to the loopback push service."""
    sender = PushSender(service, load_key(service.store), PushSettings(http_loopback=True), "mailto:t@localhost")
    sender.start()
    return sender


def subscribe_seats(service: MatchService, match_id: str, tokens: dict[int, str], base: str) -> dict[int, Browser]:
    """A browser subscribed for each seat of ``tokens``, at ``base/<match>/inproc<seat>``, straight in the store."""
    browsers = {}
    for seat, token in tokens.items():
        browsers[seat] = browser = Browser(f"{base}/{match_id}/inproc{seat}")
        keys = browser.subscription()["keys"]
        row = PushRow(seat, browser.endpoint, keys["p256dh"], keys["auth"], digest(token), 0.0)
        assert service.store.add_push(match_id, row, limit=5)
    return browsers


async def drained(sender: PushSender, seconds: float = 10.0) -> None:
    """Until the sender has nothing queued or in flight (bounded)."""

    def done() -> bool:
        return not (sender._pending or (sender._queue is not None and not sender._queue.empty()) or sender.busy)

    await eventually(done, "the sender to drain", seconds, every=0.01)


def told(push_service: PushService, browsers: dict[int, Browser], match_id: str) -> list[tuple[int, dict[str, Any]]]:
    """Every message each seat's browser was sent, decrypted: (seat, message), in the order they came."""
    with push_service.lock:
        received = list(push_service.received)
    paths = {f"/{match_id}/inproc{seat}": seat for seat in browsers}
    return [(paths[m.path], browsers[paths[m.path]].decrypt(m.body)) for m in received if m.path in paths]


def alert_kinds(push_service: PushService, browsers: dict[int, Browser], match_id: str) -> list[tuple[int, str]]:
    """Each seat's alerts by kind, sorted."""
    return sorted((seat, message["kind"]) for seat, message in told(push_service, browsers, match_id))

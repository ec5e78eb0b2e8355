"""A push service of the tests' own on loopback, and a browser's side of a push subscription: its keys, and
the decryption of what the server sends (``tests/matches/test_push.py``, ``tests/web/test_push_page.py``)."""

from __future__ import annotations

import base64
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

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

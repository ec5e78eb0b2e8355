"""uvicorn's httptools protocol with two bounds it lacks: the size of a request head, and the time a
client has to send a request.

uvicorn bounds neither with httptools (``h11_max_incomplete_event_size`` is h11's alone): a 64 MiB
header was read whole, and 1,070 connections that sent nothing, or a byte now and then, were all
held for 40 s. Here:

- a request head (request line and headers) longer than ``TABLEJUDGE_MAX_HEADER_BYTES`` is answered
  431 with the JSON error body and the connection closed, as soon as that many bytes came without
  the head's end (the parser holds at most one read beyond the limit), or the parser read that much
  of a head that came whole in one read (``_count_head``);
- a connection has ``TABLEJUDGE_REQUEST_TIMEOUT_S`` to send a whole request (head and body) from the
  moment it opens or its last answer was sent; a slow one (slowloris) is answered 408 and closed, a
  silent one just closed. Between requests, uvicorn's keep-alive timeout (``TABLEJUDGE_KEEP_ALIVE_S``)
  applies as before. A WebSocket leaves this timer at its upgrade.

The request timer is a deadline on each connection that one sweep per process looks at a few times a
second (``_Sweeper``), not a timer armed and cancelled per request: that cost about a twentieth of a
match move under load (``benchmarks/matches.py``). A slow request is cut between ``REQUEST_TIMEOUT_S``
and a quarter of it (at most a second) later.

``service.server.server_options`` names this class as uvicorn's ``http`` protocol when httptools is
installed; each worker's app, as it is made, hands the class its two bounds (``service.server.bound_connections``).
"""

from __future__ import annotations

import asyncio
from asyncio import AbstractEventLoop, TimerHandle
from typing import Any

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.settings import Limits

_DEFAULTS = Limits()


def _answer(status: int, reason: str, code: str, message: str) -> bytes:
    body = orjson.dumps({"error": {"code": code, "message": message}})
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    ).encode() + body


class _HeadTooLarge(Exception):
    """Raised from the parser's callbacks once a head passes the limit: it stops the parse."""


class _Sweeper:
    """The connections of one event loop that have a request deadline, looked at every ``every`` seconds
    while there are any: each one past its deadline is told (``_too_slow``)."""

    def __init__(self, loop: AbstractEventLoop, every: float) -> None:
        self.loop, self.every = loop, every
        self.watched: set[BoundedHttpToolsProtocol] = set()
        self._timer: TimerHandle | None = None

    def watch(self, connection: BoundedHttpToolsProtocol) -> None:
        self.watched.add(connection)
        if self._timer is None:
            self._timer = self.loop.call_later(self.every, self._sweep)

    def _sweep(self) -> None:
        now = self.loop.time()
        late = [each for each in self.watched if each.deadline is not None and each.deadline <= now]
        for connection in late:
            connection.deadline = None
            connection._too_slow()
        self._timer = self.loop.call_later(self.every, self._sweep) if self.watched else None


_sweepers: dict[AbstractEventLoop, _Sweeper] = {}


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    #: The two bounds: ``Limits``' defaults until the process's settings are handed down (``bound``).
    max_head_bytes, request_timeout = _DEFAULTS.max_header_bytes, _DEFAULTS.request_timeout_s

    @classmethod
    def bound(cls, max_head_bytes: int, request_timeout: int) -> None:
        cls.max_head_bytes, cls.request_timeout = max_head_bytes, request_timeout

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Bytes received since the current request began, while its head is not complete (None: not in a head).
        self._head_bytes: int | None = None
        #: The current head's bytes as the parser has read them (``_count_head``), and whether they passed the limit.
        self._head_parsed, self._head_overflow = 0, False
        #: Bytes of the current request received at all (a silent connection is closed without an answer).
        self._request_started = False
        #: When (``loop.time()``) the current request must have arrived; None: no request under way.
        self.deadline: float | None = None
        sweeper = _sweepers.get(self.loop)
        if sweeper is None:
            sweeper = _sweepers[self.loop] = _Sweeper(self.loop, min(1.0, self.request_timeout / 4))
        self._sweeper = sweeper

    # --- the request timer ---------------------------------------------------------------------------
    def _arm(self) -> None:
        self._request_started = False
        self.deadline = self.loop.time() + self.request_timeout

    def _disarm(self) -> None:
        self.deadline = None

    def _too_slow(self) -> None:
        if self.transport.is_closing():
            return
        answering = self.cycle is not None and self.cycle.response_started and not self.cycle.response_complete
        if self._request_started and not answering:  # never a 408 in the middle of an answer
            self.transport.write(
                _answer(408, "Request Timeout", "request_timeout",
                        f"the request took longer than {self.request_timeout} s to arrive")  # fmt: skip
            )
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()
        self._sweeper.watch(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._sweeper.watched.discard(self)
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # The next request's time starts when its first byte comes; until then keep-alive applies.
        self._disarm()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._sweeper.watched.discard(self)
        self._head_bytes = None
        super().handle_websocket_upgrade()

    # --- the parser's callbacks ------------------------------------------------------------------------
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = 0
        self._head_parsed, self._head_overflow = 0, False
        if self.deadline is None:  # a keep-alive connection's next request
            self._arm()
        self._request_started = True

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value) + 4)  # (": " and the line's end)
        super().on_header(name, value)

    def _count_head(self, size: int) -> None:
        """The head as the parser reads it, piece by piece: a head that came whole in one read is
        parsed before ``data_received`` can count it (a 64 KB head sent in one write was served)."""
        self._head_parsed += size
        if self._head_parsed > self.max_head_bytes:
            self._head_overflow = True
            raise _HeadTooLarge  # httptools stops and raises a parser error: ``send_400_response``

    def send_400_response(self, msg: str) -> None:
        if not self._head_overflow:
            super().send_400_response(msg)
        elif not self.transport.is_closing():
            self._disarm()
            self.transport.write(self._too_large())
            self.transport.close()

    def _too_large(self) -> bytes:
        return _answer(431, "Request Header Fields Too Large", "headers_too_large",
                       f"the request's headers are longer than {self.max_head_bytes} bytes")  # fmt: skip

    def on_headers_complete(self) -> None:
        self._head_bytes = None
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def data_received(self, data: bytes) -> None:
        in_head = self._head_bytes is not None
        if self._head_bytes is not None:
            self._head_bytes += len(data)
        elif self.deadline is not None:
            self._request_started = True
        super().data_received(data)
        if not in_head and self._head_bytes is not None:  # a request began in this read: count all of it
            self._head_bytes += len(data)
        if (
            self._head_bytes is not None
            and self._head_bytes > self.max_head_bytes
            and self.transport is not None
            and not self.transport.is_closing()
        ):
            self._disarm()
            self.transport.write(self._too_large())
            self.transport.close()  # nothing more is read from this connection

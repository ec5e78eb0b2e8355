"""uvicorn's WebSocket protocol with one ASGI extension more, ``tablejudge.frames``: a socket's text
frames written from bytes the app has already encoded, gathered and written once a turn of the event loop.

uvicorn's own way to send a message is ASGI's ``send``: the text goes through every middleware's wrapper
of ``send`` (Starlette's exception handlers among them), waits for the socket to be writable, is encoded
again (the app had JSON bytes, ASGI wants ``str``), framed by websockets' Python and written: one system
call a message. A live move sends three messages (the mover's answer, an update to each seat), and those
were about a fifth of a move's CPU (``benchmarks/profile_matches.py``). Here:

- ``FrameWriter.send_text(payload)`` frames ``payload`` (UTF-8 JSON, as ``orjson.dumps`` gives it) and
  keeps it; every frame given to a socket in one turn of the event loop goes out in one write at the end
  of that turn (the mover's answer and its update: one write, not two). It answers False, and keeps
  nothing, when the socket cannot take it now: its buffer is past the transport's high-water mark (a
  slow reader), or it is closing. The app then sends through ASGI, which waits for the socket, so that
  a slow reader is still timed and closed by the app (``matches.live_outbox``).
- Order holds: a message sent through ASGI after frames given to the writer goes out after them (``send``
  writes the gathered frames first), and nothing is written once the socket's close frame has been.

The extension is the app's to use or not (``scope["extensions"]["tablejudge.frames"]``); without it (another
server, Starlette's test client) the app sends through ASGI as before. ``service.server`` names this
protocol as uvicorn's ``ws``: it is uvicorn's default (websockets' sans-I/O protocol), which measured
cheaper than its two others, wsproto and websockets' legacy one (``benchmarks/profile_matches.py --ws``).
"""

from __future__ import annotations

import struct
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

#: The key of the writer in a WebSocket scope's ``extensions``.
EXTENSION = "tablejudge.frames"
#: The first byte of an unfragmented text frame: FIN and opcode 1 (RFC 6455, 5.2).
_TEXT = 0x81
#: Frames held for the turn's write are written at once past this many bytes (the transport's default
#: high-water mark): the socket's buffer, not the writer, holds a long burst, and tells when it is full.
WRITE_AT = 64 * 1024


def text_frame_head(length: int) -> bytes:
    """The head of a server's unfragmented, unmasked text frame carrying ``length`` bytes."""
    if length < 126:
        return struct.pack("!BB", _TEXT, length)
    if length < 1 << 16:
        return struct.pack("!BBH", _TEXT, 126, length)
    return struct.pack("!BBQ", _TEXT, 127, length)


class FrameWriter:
    """One socket's frames written from encoded bytes, once a turn (see the module's docstring)."""

    __slots__ = ("_protocol", "_pending", "_size")

    def __init__(self, protocol: FramedWebSocketsProtocol) -> None:
        self._protocol = protocol
        #: The frames given this turn, heads and payloads in turn, and their bytes; written by ``flush``.
        self._pending: list[bytes] = []
        self._size = 0

    def send_text(self, payload: bytes) -> bool:
        """Keep a text frame of ``payload`` (valid UTF-8) for this turn's write; False, keeping nothing, when
        the socket cannot take it now (past its high-water mark, or closing): send it through ASGI then."""
        protocol = self._protocol
        if not protocol.writable.is_set() or not protocol.open_for_frames():
            return False
        pending = self._pending
        if not pending:
            protocol.loop.call_soon(self.flush)
        pending.append(text_frame_head(len(payload)))
        pending.append(payload)
        self._size += len(payload)
        if self._size > WRITE_AT:
            self.flush()
        return True

    def flush(self) -> None:
        """Write the frames given since the last write, in one write (none once the socket is closing)."""
        pending = self._pending
        if not pending:
            return
        self._pending, self._size = [], 0
        if self._protocol.open_for_frames():
            self._protocol.transport.writelines(pending)


class FramedWebSocketsProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets (sans-I/O) protocol, whose scope offers a ``FrameWriter`` (``EXTENSION``)."""

    frame_writer: FrameWriter

    def handle_connect(self, event: Any) -> None:
        self.frame_writer = FrameWriter(self)
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # (none when the handshake was refused)
        if scope is not None:
            scope["extensions"][EXTENSION] = self.frame_writer

    def open_for_frames(self) -> bool:
        """May a data frame be written now: the handshake done, no close frame sent or received?"""
        return (
            self.handshake_complete
            and self.initial_response is None
            and not self.close_sent
            and self.conn.state is State.OPEN
            and not self.transport.is_closing()
        )

    async def send(self, message: Any) -> None:
        """ASGI's ``send``, after the frames the writer holds (the order the app gave them in)."""
        writer = getattr(self, "frame_writer", None)
        if writer is not None:
            writer.flush()
        await super().send(message)

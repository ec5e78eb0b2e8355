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
from websockets.frames import apply_mask
from websockets.protocol import State

from matches.live_outbox import FRAMES_EXTENSION

#: The key of the writer in a WebSocket scope's ``extensions`` (the name the live sockets look for).
EXTENSION = FRAMES_EXTENSION
#: The first byte of an unfragmented text frame: FIN and opcode 1 (RFC 6455, 5.2).
_TEXT = 0x81
#: The opcodes of the frames ``FramedWebSocketsProtocol.data_received`` reads itself: text, and the control
#: frames (close, ping, pong), which it hands whole to websockets.
_TEXT_OPCODE = 0x1
_READ_HERE = frozenset({_TEXT_OPCODE, 0x8, 0x9, 0xA})
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
    """uvicorn's websockets (sans-I/O) protocol, whose scope offers a ``FrameWriter`` (``EXTENSION``), and
    which reads a client's plain text frames itself (``data_received``)."""

    frame_writer: FrameWriter
    #: Bytes received after the handshake that do not yet make a whole frame (``data_received``).
    _unread: bytes = b""
    #: Once something came that this protocol does not read itself, websockets reads everything after it.
    _parsed_by_websockets: bool = False

    def data_received(self, data: bytes) -> None:
        """The client's frames. What a client sends in play is one whole text frame at a time, masked, well
        under the size limit: such a frame is read here, as websockets would read it, without its
        generator-driven parser (its head in one look, the mask taken off by websockets' C speedup); a
        control frame (ping, pong, close) is handed to websockets whole, so that its parser is always
        between frames. Anything else, from its first byte on, goes to websockets and uvicorn as it always
        did, for the rest of the connection, and is answered as they answer it (1009, 1007, 1002): a
        fragment, a binary frame, a frame past the size limit, reserved bits, a frame not masked, text that
        is not UTF-8, bytes sent before the handshake was answered."""
        if self._parsed_by_websockets or not self.handshake_complete:
            if self.handshake_initiated:  # (the first bytes are the upgrade request, from uvicorn's HTTP side)
                self._parsed_by_websockets = True
            super().data_received(data)
            return
        buffer = self._unread + data if self._unread else data
        self._unread = b""
        start = 0
        while start < len(buffer):
            if self._parsed_by_websockets:
                super().data_received(buffer[start:])
                return
            read = self._read_frame(buffer, start)
            if read is None:  # the frame is not all here yet
                self._unread = buffer[start:]
                return
            if read < 0:  # websockets' to read, from here on
                self._parsed_by_websockets = True
            else:
                start = read

    def _read_frame(self, buffer: bytes, start: int) -> int | None:
        """Read the frame at ``start``: where the next begins; None when it is not all there yet; -1 when it
        is websockets' to read, and everything after it (``data_received``)."""
        size = len(buffer)
        if size - start < 2:
            return None
        head1, head2 = buffer[start], buffer[start + 1]
        opcode, length, offset = head1 & 0x0F, head2 & 0x7F, start + 2
        if head2 & 0x80 == 0 or head1 & 0x70 or opcode not in _READ_HERE:
            return -1  # not masked, reserved bits, a binary frame or a continuation
        if opcode == _TEXT_OPCODE and not head1 & 0x80:
            return -1  # a fragment
        if length == 126:
            if size - offset < 2:
                return None
            length, offset = int.from_bytes(buffer[offset : offset + 2], "big"), offset + 2
        elif length == 127:
            if size - offset < 8:
                return None
            length, offset = int.from_bytes(buffer[offset : offset + 8], "big"), offset + 8
        if length > self.config.ws_max_size:
            return -1  # too big: refused from its head
        end = offset + 4 + length
        if end > size:
            return None
        if opcode != _TEXT_OPCODE:  # a control frame: websockets answers it (a pong, the closing handshake)
            super().data_received(buffer[start:end])
            if self.conn.state is not State.OPEN:  # a close: what follows is websockets' (it discards it)
                self._parsed_by_websockets = True
            return end
        try:
            text = apply_mask(buffer[offset + 4 : end], buffer[offset : offset + 4]).decode()
        except UnicodeDecodeError:
            return -1  # uvicorn's 1007, from websockets' read of this frame
        if not self.close_sent:  # (past its close, uvicorn drops what comes)
            self.queue.put_nowait({"type": "websocket.receive", "text": text})
            if not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()
        return end

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

"""Sending to live sockets: one slow or hostile socket hurts only itself.

Each socket has its own bounded queue of messages and a writer task that sends them, so a broadcast,
the heartbeat and every answer only put a message in a queue (or, when nothing is queued, send it at
once: a send to a socket that can take it never waits) and never wait for another socket's send. A
newer update replaces an older one still queued (it holds the whole match, and its moves are joined),
so a slow reader gets the latest state rather than a backlog; answers to its own moves stay queued in
order. A socket whose queue is full, or whose one send waits longer than the send timeout, is closed
(4504) and catches up from its version when it comes back.

Under ``tablejudge serve`` a message is framed from orjson's bytes by the server's frame writer
(``Connection.frames``, ``service.live_frames``), and every frame a socket is given in one turn of the
event loop goes out in one write (a mover's answer and its update: one); when the writer cannot take it
(the socket's buffer is past its high-water mark) the message goes through ASGI's ``send``, which waits
and is timed as above."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import types
from collections import deque
from collections.abc import Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import WebSocket

from engine.values import JsonDict
from matches.live_input import LiveLimits

log = logging.getLogger("tablejudge.matches")

#: How long (seconds) a closing socket is given for its close frame before it is let go.
CLOSE_WAIT = 2.0

# Close codes (RFC 6455 keeps 4000-4999 for applications; the last three digits echo HTTP's).
CLOSE_GOING_AWAY = 1001  # the server stops, or the client fell silent for three heartbeats
CLOSE_TRY_AGAIN = 1013  # a hello the server cannot answer now (its store is down, its workers busy): come back
CLOSE_TOO_BIG = 1009  # a frame over the size limit (uvicorn sends it too, before reading the frame)
CLOSE_BAD_HELLO = 4400  # the first message was not a hello, or a token came in the URL
CLOSE_UNAUTHORIZED = 4401  # the hello's token holds no seat of this match
CLOSE_UNKNOWN_MATCH = 4404
CLOSE_NO_HELLO = 4408  # no hello within the hello timeout
CLOSE_SEAT_MOVED = 4409  # the seat moved to another device (a seat link): this socket's token holds it no more
CLOSE_TOO_MANY = 4429  # more messages than the socket's token bucket allows; a hello that resyncs past the
#                        address's move budget (and too many sockets from the address, on a server that cannot
#                        refuse an upgrade with 429)
CLOSE_TOO_SLOW = 4504  # the send queue was full, or one send waited over the send timeout
#: Not a close code: the client went away, there is nothing to send it.
GONE = -1
#: The ASGI extension through which the server writes frames from encoded bytes (``service.live_frames``;
#: named here, not imported: the server's layer is above this one).
FRAMES_EXTENSION = "tablejudge.frames"


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    match: str
    seat: int | None
    #: The client's address, as the rate limits count it (behind a trusted proxy: the one it names).
    address: str = "unknown"
    #: The seat's token, shown again with every move: a seat left (its token gone) cannot move on.
    token: str | None = None
    #: The token's digest, to see at each change that the seat still has it (a seat link rotates it).
    token_hash: str | None = None
    version: int = 0
    last_heard: float = field(default_factory=time.monotonic)
    last_seen_stored: float = 0.0
    #: Messages waiting for the writer, oldest first.
    outbox: deque[JsonDict] = field(default_factory=deque)
    #: The update in ``outbox`` that a newer one is joined into (None: none waiting).
    queued_update: JsonDict | None = None
    ping_queued: bool = False
    #: The pong in ``outbox`` that answers a newer ping instead (its ``t`` replaced).
    queued_pong: JsonDict | None = None
    #: When the send under way began (``time.monotonic()``; 0: none), for ``_watch_sends``.
    sending_since: float = 0.0
    #: Set by ``_watch_sends`` when it cancels the send under way (the writer then closes the socket).
    send_expired: bool = False
    #: Set when ``outbox`` has something, or the socket is to close.
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    #: The writer waits for ``ready`` with nothing queued: a message may be sent at once (``_send_now``).
    idle: bool = False
    #: A send begun by ``_send_now`` that had to wait (the socket's buffer full): the writer finishes it first.
    unfinished: Any = None
    #: Once set, nothing more is queued: the writer sends this close (or nothing, ``GONE``) and ends.
    close_code: int | None = None
    close_reason: str = ""
    writer: asyncio.Task[None] | None = None
    #: The task reading the socket, and whether it is waiting for a frame (it may then be cancelled).
    reader: asyncio.Task[Any] | None = None
    receiving: bool = False
    #: The token bucket of messages this socket may still send, and when it was last filled.
    allowance: float = 0.0
    filled_at: float = field(default_factory=time.monotonic)
    #: The server's frame writer for this socket (``service.live_frames``, the scope's ``tablejudge.frames``
    #: extension), or None under a server without it: ASGI's ``send`` then carries every message.
    frames: Any = None

    def __post_init__(self) -> None:
        self.frames = self.socket.scope.get("extensions", {}).get(FRAMES_EXTENSION)


class Outboxes:
    """The sockets' queues and writers (``LiveHub`` is one): queue or send, close, write, and the watch on
    sends that wait too long."""

    limits: LiveLimits
    #: The sockets of this process, by match.
    connections: dict[str, set[Connection]]

    def _enqueue(self, connection: Connection, message: JsonDict) -> None:
        """Give a message to the socket's writer; never waits. An update joins one still queued, a ping
        is not queued twice, a pong answers the latest ping; a full queue closes the socket (it is
        reading far too slowly)."""
        if connection.close_code is not None:
            return
        kind = message.get("type")
        if kind == "update" and connection.queued_update is not None:
            join_updates(connection.queued_update, message)
            return
        if kind == "ping" and connection.ping_queued:
            return
        if kind == "pong" and connection.queued_pong is not None:
            connection.queued_pong["t"] = message["t"]
            return
        if connection.idle and not connection.outbox and self._send_now(connection, message):
            return
        if len(connection.outbox) >= self.limits.queue:
            connection.outbox.clear()
            self._close(connection, CLOSE_TOO_SLOW, f"too slow: {self.limits.queue} messages waiting; reconnect")
            return
        connection.outbox.append(message)
        if kind == "update":
            connection.queued_update = message
        elif kind == "ping":
            connection.ping_queued = True
        elif kind == "pong":
            connection.queued_pong = message
        connection.ready.set()

    def _send_now(self, connection: Connection, message: JsonDict) -> bool:
        """Send a message to a socket whose writer has nothing queued, here and now rather than through a
        switch to the writer task (a fifth of a live message's cost): a send to a socket that can take it
        completes without waiting. One that must wait (its buffer is full) is not waited for here: the
        writer finishes it, timed as its own sends, and the next messages queue behind it. False: the
        message was not sent (the socket is gone, and closed)."""
        payload = orjson.dumps(message)
        if connection.frames is not None and connection.frames.send_text(payload):
            return True  # framed from these bytes, written with the turn's other frames to this socket
        send = connection.socket.send_text(payload.decode())
        connection.sending_since = time.monotonic()
        try:
            waiting = send.send(None)
        except StopIteration:
            connection.sending_since = 0.0
            return True
        except Exception:  # the socket is gone: nothing more can be sent, not even a close
            connection.sending_since = 0.0
            self._close(connection, GONE)
            connection.outbox.clear()
            return True
        connection.unfinished = finish_send(send, waiting)
        connection.idle = False
        connection.ready.set()
        return True

    def _close(self, connection: Connection, code: int, reason: str = "") -> None:
        """Close the socket once its writer has finished the send under way (or with nothing sent, for
        ``GONE``); it is forgotten at once, so nothing more is queued for it."""
        self._forget(connection)
        if connection.close_code is None:
            connection.close_code, connection.close_reason = code, reason
            # A client's fault is worth a line, once per socket; the server's own outage is logged once for all.
            if code not in (GONE, CLOSE_GOING_AWAY, CLOSE_TRY_AGAIN):
                log.warning("live socket of match %s closed: %d %s", connection.match, code, reason)
        connection.ready.set()
        if connection.writer is None:  # never started (a refused hello): close from here
            connection.writer = asyncio.get_running_loop().create_task(self._write(connection))

    async def _write(self, connection: Connection) -> None:
        """The socket's only sender: its queued messages in order, each send bounded in time, then
        the close it was given."""
        socket = connection.socket
        try:
            while (
                connection.close_code is None
                or connection.unfinished is not None
                or (connection.outbox and connection.close_code != GONE)
            ):
                if connection.unfinished is not None:  # begun by _send_now: its clock already runs
                    send, connection.unfinished = connection.unfinished, None
                elif not connection.outbox:
                    connection.ready.clear()
                    connection.idle = connection.close_code is None
                    try:
                        await connection.ready.wait()
                    finally:
                        connection.idle = False
                    continue
                else:
                    message = connection.outbox.popleft()
                    if message is connection.queued_update:
                        connection.queued_update = None
                    elif message is connection.queued_pong:
                        connection.queued_pong = None
                    elif message.get("type") == "ping":
                        connection.ping_queued = False
                    payload = orjson.dumps(message)
                    if connection.frames is not None and connection.frames.send_text(payload):
                        continue  # the socket takes it now: nothing to wait for or to time
                    # Timed by ``_watch_sends`` (a look a second at every socket), not a timer per send:
                    # asyncio.timeout costs about 6 us a message, wait_for a task of its own.
                    connection.sending_since = time.monotonic()
                    send = socket.send_text(payload.decode())
                try:
                    await send
                except asyncio.CancelledError:
                    if not connection.send_expired:
                        raise  # the server stops
                    task = asyncio.current_task()
                    if task is not None:
                        task.uncancel()  # the watch gave up on this send: close the socket below
                    connection.outbox.clear()
                except Exception:  # the socket is gone: nothing more can be sent, not even a close
                    self._close(connection, GONE)
                    connection.close_code = GONE
                    connection.outbox.clear()
                finally:
                    connection.sending_since = 0.0
            if connection.close_code != GONE:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(
                        socket.close(connection.close_code or 1000, connection.close_reason), CLOSE_WAIT
                    )
        finally:
            self._forget(connection)
            reader = connection.reader
            if reader is not None and connection.receiving and not reader.done():
                reader.cancel()  # it waits for a frame that may never come; the socket is done

    def _forget(self, connection: Connection) -> None:
        connections = self.connections.get(connection.match)
        if connections is not None:
            connections.discard(connection)
            if not connections:
                self.connections.pop(connection.match, None)

    async def _watch_sends(self) -> None:
        """Close each socket whose one send has waited past the send timeout (it stopped reading and its
        buffers are full): its writer's send is cancelled, and the writer closes it with 4504."""
        timeout = self.limits.send_timeout
        while True:
            await asyncio.sleep(min(1.0, timeout / 4))
            now = time.monotonic()
            for connections in list(self.connections.values()):
                for connection in list(connections):
                    since, writer = connection.sending_since, connection.writer
                    if since and now - since > timeout and writer is not None and not writer.done():
                        connection.outbox.clear()
                        connection.send_expired = True
                        self._close(
                            connection, CLOSE_TOO_SLOW, f"too slow: a send waited over {timeout:g} s; reconnect"
                        )
                        writer.cancel()


@types.coroutine
def finish_send(send: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """The rest of a send begun outside any task (``LiveHub._send_now``) that stopped at ``waiting``: awaited
    by the writer task, which waits for that, then lets the send go on (or throws into it what the task is
    thrown: a cancellation), to its end."""
    while True:
        try:
            answer = yield waiting
        except BaseException as error:
            try:
                waiting = send.throw(error)
            except StopIteration:
                return
            continue
        try:
            waiting = send.send(answer)
        except StopIteration:
            return


def join_updates(older: JsonDict, newer: JsonDict) -> None:
    """Make the queued ``older`` update say what ``older`` then ``newer`` say: the newer match and
    version, the moves of both (each was built from the version the other left off at)."""
    moves = [*older["moves"], *newer["moves"]]
    kind = "move" if moves and "move" in (older["kind"], newer["kind"]) else newer["kind"]
    breakdown = (newer if newer["moves"] else older).get("breakdown") if len(moves) == 1 else None
    older.update(newer)
    older["moves"], older["kind"] = moves, kind
    if breakdown is None:
        older.pop("breakdown", None)
    else:
        older["breakdown"] = breakdown

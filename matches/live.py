"""Live play: a WebSocket per client, versioned events, reconnection, heartbeats, and the scheduler that
plays bots, runs out clocks and closes claim windows.

A client opens ``/v1/matches/{id}/live`` (nothing in the URL: a token there would land in access logs
and proxies' logs) and says first ``{"type": "hello", "token": ..., "since": N}`` (both optional: no
token is a spectator). Every event a socket receives holds the match's new ``version`` and the match
body as that socket's seat may see it (``MatchService.body``), built afresh for each reader; the move
itself is shown as its reader may see it (another seat's trade, face down). A client that reconnects
says the last version it saw (``since``) and is sent the moves it missed, as it may see them, with the
current body: it never needs a reload.

One slow or hostile socket hurts only itself: each socket has its own bounded queue of messages and a
writer task that sends them, so a broadcast, the heartbeat and every answer only put a message in a
queue and never wait for another socket's send. A newer update replaces an older one still queued (it
holds the whole match, and its moves are joined), so a slow reader gets the latest state rather than
a backlog; answers to its own moves stay queued in order. A socket whose queue is full, or whose one
send waits longer than the send timeout, is closed (4504) and catches up from its version when it
comes back. What comes in is bounded too: frame size, plain JSON objects only, the move's length (as
over HTTP), and a token bucket of messages per socket (``LiveLimits``).

Moves committed by another server process reach this one's sockets too: with PostgreSQL through
``LISTEN``/``NOTIFY``; with SQLite (one machine) by looking at the versions of the matches that
have sockets here a few times a second. Changes that are not moves (a seat taken or left, the start,
a rematch) mark the match too (``Store.touch``), so they reach every server's sockets the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from collections import defaultdict, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import WebSocket

from engine.base import CHANCE, JsonDict
from engine.errors import EngineError, StaleVersionError
from indexes.errors import TablejudgeError
from matches.env import bounded_numbers
from matches.errors import MatchError
from matches.service import Event, MatchService
from matches.store import NOTIFY_CHANNEL, PostgresStore

log = logging.getLogger("tablejudge.matches")

#: How often (seconds) this process looks for moves made by other processes (SQLite).
POLL = 0.2
#: The longest move accepted, in characters, over HTTP (``MoveBody``) and on the live socket alike.
MAX_MOVE_CHARS = 400
#: The longest message id a client may give (it is echoed in the answer).
MAX_ID_CHARS = 64
#: The longest token accepted in a hello (tokens are 43 characters).
MAX_TOKEN_CHARS = 256
#: How long (seconds) a closing socket is given for its close frame before it is let go.
CLOSE_WAIT = 2.0

# Close codes (RFC 6455 keeps 4000-4999 for applications; the last three digits echo HTTP's).
CLOSE_GOING_AWAY = 1001  # the server stops, or the client fell silent for three heartbeats
CLOSE_TOO_BIG = 1009  # a frame over the size limit (uvicorn sends it too, before reading the frame)
CLOSE_BAD_HELLO = 4400  # the first message was not a hello, or a token came in the URL
CLOSE_UNAUTHORIZED = 4401  # the hello's token holds no seat of this match
CLOSE_UNKNOWN_MATCH = 4404
CLOSE_NO_HELLO = 4408  # no hello within the hello timeout
CLOSE_TOO_MANY = 4429  # more messages than the socket's token bucket allows
CLOSE_TOO_SLOW = 4504  # the send queue was full, or one send waited over the send timeout
#: Not a close code: the client went away, there is nothing to send it.
_GONE = -1

#: ``token=...`` in a logged URL (uvicorn logs each handshake's path and query string).
_TOKEN_IN_TEXT = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)


class LiveLimitsError(ValueError):
    """A live-socket setting that cannot be used; the message names the variable."""


@dataclass(frozen=True)
class LiveLimits:
    """The live sockets' limits. Each is read from a ``TABLEJUDGE_LIVE_*`` environment variable
    (``from_env``) so that every uvicorn worker sees the same values; the defaults are far above
    what a table of friends does (a page sends a message every few seconds at most)."""

    #: Seconds between the server's pings; a socket silent for three of them is dropped.
    heartbeat: float = 15.0
    #: Messages waiting for one socket (updates coalesce, so these are mostly answers); full: dropped.
    queue: int = 64
    #: The longest one send to one socket may wait (a reader that stopped reading), in seconds.
    send_timeout: float = 10.0
    #: The largest frame a client may send, in bytes (uvicorn's ``ws_max_size``); a move needs < 1 KiB.
    max_frame_bytes: int = 16384
    #: Seconds a new socket has to say hello.
    hello_timeout: float = 10.0
    #: Messages per second a socket may send on average (a token bucket) ...
    rate: float = 20.0
    #: ... and in one burst.
    burst: int = 60

    #: name -> (environment variable, lowest, highest)
    _ENV = {
        "heartbeat": ("LIVE_HEARTBEAT_S", 0.2, 3600.0),
        "queue": ("LIVE_QUEUE", 4, 100_000),
        "send_timeout": ("LIVE_SEND_TIMEOUT_S", 0.1, 600.0),
        "max_frame_bytes": ("LIVE_MAX_FRAME_BYTES", 1024, 16 * 1024 * 1024),
        "hello_timeout": ("LIVE_HELLO_TIMEOUT_S", 0.1, 600.0),
        "rate": ("LIVE_RATE", 0.1, 100_000.0),
        "burst": ("LIVE_BURST", 1, 1_000_000),
    }

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LiveLimits:
        """The limits from ``TABLEJUDGE_LIVE_*`` variables; each one missing keeps its default.

        >>> LiveLimits.from_env({"TABLEJUDGE_LIVE_QUEUE": "8"}).queue
        8
        >>> LiveLimits.from_env({"TABLEJUDGE_LIVE_RATE": "fast"})
        Traceback (most recent call last):
        ...
        matches.live.LiveLimitsError: TABLEJUDGE_LIVE_RATE must be a number from 0.1 to 100000.0, got 'fast'
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        values.update(bounded_numbers(env, cls._ENV, LiveLimitsError))
        return cls(**values)


class TokenRedactor(logging.Filter):
    """Writes ``token=[redacted]`` for any ``token=...`` in a log record's message and arguments:
    uvicorn logs each WebSocket handshake's and each request's path with its query string, and an
    old client (or a hand-made URL) may still put a seat's token there."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg.lower():
            record.msg = _TOKEN_IN_TEXT.sub(r"\1[redacted]", record.msg)
        if isinstance(record.args, tuple) and any(isinstance(arg, str) and "oken=" in arg for arg in record.args):
            record.args = tuple(
                _TOKEN_IN_TEXT.sub(r"\1[redacted]", arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


class ClientFaultWithoutTraceback(logging.Filter):
    """Keeps uvicorn's one line for a text frame that is not UTF-8 (it closes the socket with 1007)
    but drops the traceback it logs with it: a client's fault, not the server's, and a client must not
    be able to fill the log with stacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Invalid UTF-8 sequence received from client"):
            record.exc_info, record.exc_text = None, None
        return True


def redact_tokens_in_logs() -> None:
    """Put a ``TokenRedactor`` on uvicorn's loggers and their handlers, and a
    ``ClientFaultWithoutTraceback`` on uvicorn's error log (once; each worker calls it after uvicorn
    has set its logging up). A filter on a logger sees only records made on that
    logger, so the handlers get one too, for records that propagate from elsewhere."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "tablejudge", ""):
        logger = logging.getLogger(name)
        for holder in (logger, *logger.handlers):
            if not any(isinstance(each, TokenRedactor) for each in holder.filters):
                holder.addFilter(TokenRedactor())
    error_log = logging.getLogger("uvicorn.error")  # where uvicorn's WebSocket protocol logs
    if not any(isinstance(each, ClientFaultWithoutTraceback) for each in error_log.filters):
        error_log.addFilter(ClientFaultWithoutTraceback())


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    match: str
    seat: int | None
    #: The seat's token, shown again with every move: a seat left (its token gone) cannot move on.
    token: str | None = None
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
    #: Once set, nothing more is queued: the writer sends this close (or nothing, ``_GONE``) and ends.
    close_code: int | None = None
    close_reason: str = ""
    writer: asyncio.Task[None] | None = None
    #: The task reading the socket, and whether it is waiting for a frame (it may then be cancelled).
    reader: asyncio.Task[Any] | None = None
    receiving: bool = False
    #: The token bucket of messages this socket may still send, and when it was last filled.
    allowance: float = 0.0
    filled_at: float = field(default_factory=time.monotonic)


class LiveHub:
    """The sockets of this process, by match, and what they are sent."""

    def __init__(self, service: MatchService, limits: LiveLimits | None = None) -> None:
        self.service = service
        self.limits = limits or LiveLimits.from_env()
        self.connections: dict[str, set[Connection]] = defaultdict(set)
        self.known: dict[str, int] = {}
        #: When each match last changed, as this process last told its sockets (``Store.changes``).
        self.changed: dict[str, float] = {}
        self._wake = asyncio.Event()
        #: When the scheduler will look at the store next by itself (``time.time()``).
        self._next_look = 0.0
        self._tasks: list[asyncio.Task[Any]] = []
        self._broadcasts: set[asyncio.Task[Any]] = set()
        service.listeners.append(self.on_event)

    # --- running -----------------------------------------------------------------------------------
    def start(self) -> None:
        redact_tokens_in_logs()
        self._tasks = [
            asyncio.create_task(self._schedule()),
            asyncio.create_task(self._heartbeat()),
            asyncio.create_task(self._watch_sends()),
        ]
        if isinstance(self.service.store, PostgresStore):
            self._tasks.append(asyncio.create_task(self._listen(self.service.store.url)))
        else:
            self._tasks.append(asyncio.create_task(self._poll()))

    async def stop(self) -> None:
        tasks = [*self._tasks, *self._broadcasts]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        writers = []
        for connections in list(self.connections.values()):
            for connection in list(connections):
                connection.outbox.clear()
                self._close(connection, CLOSE_GOING_AWAY, "the server is stopping")
                if connection.writer is not None:
                    writers.append(connection.writer)
        if writers:  # each writer sends its close; one stuck socket does not hold the others
            _done, stuck = await asyncio.wait(writers, timeout=CLOSE_WAIT + 0.5)
            for writer in stuck:
                writer.cancel()

    def wake(self) -> None:
        self._wake.set()

    # --- events ------------------------------------------------------------------------------------
    def on_event(self, event: Event) -> None:
        """A change committed by this process: tell this process's sockets, and the scheduler when it
        has something to do before it would look again (a bot's move, a clock)."""
        if event.kind != "move" or (event.due is not None and event.due < self._next_look):
            self.wake()
        if self.connections.get(event.match):
            task = asyncio.get_running_loop().create_task(self.broadcast(event.match, event))
            self._broadcasts.add(task)  # kept until done: the loop holds only a weak reference
            task.add_done_callback(self._broadcasts.discard)

    async def broadcast(self, match_id: str, event: Event | None = None) -> None:
        """Queue for each socket of the match what it has not seen, as its seat may see it. Only the
        store is awaited (when the event has no state to give), never a socket."""
        if not self.connections.get(match_id):
            return
        loaded = None if event is None else event.loaded
        if loaded is None or loaded.state is None or loaded.state.version != event.version:  # type: ignore[union-attr]
            try:
                loaded = await self.service.load_async(match_id)
            except MatchError:
                return
        version = 0 if loaded.state is None else loaded.state.version
        self.known[match_id] = version
        self.changed[match_id] = max(self.changed.get(match_id, 0.0), loaded.row.updated)
        # Every message is built from this state before anything else runs (no await below): a move
        # applied to it later cannot show up in a message meant for this version.
        for connection in list(self.connections.get(match_id, ())):
            if connection.version >= version and (event is None or event.kind == "move"):
                continue
            self._enqueue(connection, self.update(loaded, connection, event))
            connection.version = version

    def update(self, loaded: Any, connection: Connection, event: Event | None) -> JsonDict:
        """The message for one socket: the moves it missed (as its seat sees them), and the match."""
        state = loaded.state
        missed: list[JsonDict] = []
        if state is not None and connection.version < state.version:
            # The history entries after the version the socket saw: versions count the moves, not
            # the chance entries among them, so walk back from the end (usually one move or two).
            history, wanted, start = state.history, state.version - connection.version, len(state.history)
            while wanted and start:
                start -= 1
                wanted -= history[start][0] != CHANCE
            for seat, text in state.public_history(connection.seat, start):
                if seat != CHANCE:
                    missed.append({"seat": seat, "move": text})
        message: JsonDict = {
            "type": "update",
            "version": 0 if state is None else state.version,
            "kind": "sync" if event is None else event.kind,
            "moves": missed,
            "match": self.service.body(loaded, connection.seat),
        }
        if event is not None and event.breakdown is not None and len(missed) == 1:
            message["breakdown"] = event.breakdown.to_json()
        return message

    # --- sending: a queue and a writer per socket ------------------------------------------------------
    def _enqueue(self, connection: Connection, message: JsonDict) -> None:
        """Give a message to the socket's writer; never waits. An update joins one still queued, a ping
        is not queued twice, a pong answers the latest ping; a full queue closes the socket (it is
        reading far too slowly)."""
        if connection.close_code is not None:
            return
        kind = message.get("type")
        if kind == "update" and connection.queued_update is not None:
            _join_updates(connection.queued_update, message)
            return
        if kind == "ping" and connection.ping_queued:
            return
        if kind == "pong" and connection.queued_pong is not None:
            connection.queued_pong["t"] = message["t"]
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

    def _close(self, connection: Connection, code: int, reason: str = "") -> None:
        """Close the socket once its writer has finished the send under way (or with nothing sent, for
        ``_GONE``); it is forgotten at once, so nothing more is queued for it."""
        self._forget(connection)
        if connection.close_code is None:
            connection.close_code, connection.close_reason = code, reason
            if code not in (_GONE, CLOSE_GOING_AWAY):  # a client's fault: worth a line, once per socket
                log.warning("live socket of match %s closed: %d %s", connection.match, code, reason)
        connection.ready.set()
        if connection.writer is None:  # never started (a refused hello): close from here
            connection.writer = asyncio.get_running_loop().create_task(self._write(connection))

    async def _write(self, connection: Connection) -> None:
        """The socket's only sender: its queued messages in order, each send bounded in time, then
        the close it was given."""
        socket = connection.socket
        try:
            while connection.close_code is None or (connection.outbox and connection.close_code != _GONE):
                if not connection.outbox:
                    connection.ready.clear()
                    await connection.ready.wait()
                    continue
                message = connection.outbox.popleft()
                if message is connection.queued_update:
                    connection.queued_update = None
                elif message is connection.queued_pong:
                    connection.queued_pong = None
                elif message.get("type") == "ping":
                    connection.ping_queued = False
                # Timed by ``_watch_sends`` (a look a second at every socket), not a timer per send:
                # asyncio.timeout costs about 6 us a message, wait_for a task of its own.
                connection.sending_since = time.monotonic()
                try:
                    await socket.send_text(orjson.dumps(message).decode())
                except asyncio.CancelledError:
                    if not connection.send_expired:
                        raise  # the server stops
                    task = asyncio.current_task()
                    if task is not None:
                        task.uncancel()  # the watch gave up on this send: close the socket below
                    connection.outbox.clear()
                except Exception:  # the socket is gone: nothing more can be sent, not even a close
                    self._close(connection, _GONE)
                    connection.close_code = _GONE
                    connection.outbox.clear()
                finally:
                    connection.sending_since = 0.0
            if connection.close_code != _GONE:
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

    # --- one socket ------------------------------------------------------------------------------------
    async def serve(self, socket: WebSocket, match_id: str, token_in_url: bool = False) -> None:
        """A client's live socket: the seat's (with a token in its hello) or a spectator's; moves may
        come in on it."""
        await socket.accept()
        connection = Connection(socket, match_id, None)
        connection.reader = asyncio.current_task()
        try:
            await self._serve(socket, match_id, token_in_url, connection)
        except asyncio.CancelledError:
            if connection.close_code is None:
                raise  # the server stops
            # The writer closed this socket while it waited for a frame: the end of it, not an error.
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()

    async def _serve(self, socket: WebSocket, match_id: str, token_in_url: bool, connection: Connection) -> None:
        if token_in_url:
            error = {"code": "token_in_url", "message": "send the seat's token in the hello message, not in the URL"}
            return await self._refuse(connection, CLOSE_BAD_HELLO, error)
        try:
            first = await asyncio.wait_for(socket.receive(), self.limits.hello_timeout)
        except TimeoutError:
            error = {"code": "no_hello", "message": f"no hello within {self.limits.hello_timeout:g} s"}
            return await self._refuse(connection, CLOSE_NO_HELLO, error)
        if first.get("type") == "websocket.disconnect":
            return None
        if _too_big(first, self.limits.max_frame_bytes):
            return await self._refuse(connection, CLOSE_TOO_BIG, _TOO_BIG)
        hello = _parse(first)
        if isinstance(hello, str) or hello.get("type") != "hello" or not _is_hello(hello):
            why = hello if isinstance(hello, str) else 'the first message is {"type": "hello", "token"?, "since"?}'
            return await self._refuse(connection, CLOSE_BAD_HELLO, {"code": "bad_hello", "message": why})
        token, since = hello.get("token"), hello.get("since")
        try:
            loaded = await self.service.load_async(match_id)
            seat = None if not token else self.service.authenticate(match_id, token, loaded.seats)
        except TablejudgeError as failure:
            code = CLOSE_UNAUTHORIZED if getattr(failure, "status", 400) == 401 else CLOSE_UNKNOWN_MATCH
            return await self._refuse(connection, code, _error(failure))
        connection.seat, connection.token = seat, token if seat is not None else None
        current = 0 if loaded.state is None else loaded.state.version
        connection.version = since if isinstance(since, int) and 0 <= since <= current else current
        connection.allowance = float(self.limits.burst)
        # Registered, greeted and given its writer with no await in between: a broadcast cannot
        # come before the hello.
        self.connections[match_id].add(connection)
        self.known.setdefault(match_id, current)
        self.changed.setdefault(match_id, loaded.row.updated)
        self._mark_seen(connection, force=True)
        self._enqueue(connection, {**self.update(loaded, connection, None), "type": "hello"})
        connection.version = current
        connection.writer = asyncio.get_running_loop().create_task(self._write(connection))
        self._ping(connection, int(time.time() * 1000))  # a first round trip before the first claim
        try:
            while connection.close_code is None:
                connection.receiving = True
                try:
                    frame = await socket.receive()
                finally:
                    connection.receiving = False
                if frame.get("type") == "websocket.disconnect":
                    self._close(connection, _GONE)
                    break
                connection.last_heard = time.monotonic()
                if _too_big(frame, self.limits.max_frame_bytes):  # uvicorn refuses these first when it has the limit
                    self._close(connection, CLOSE_TOO_BIG, f"a frame is at most {self.limits.max_frame_bytes} bytes")
                    break
                if not self._allowed(connection):
                    self._close(connection, CLOSE_TOO_MANY, f"over {self.limits.rate:g} messages a second")
                    break
                self._mark_seen(connection)
                await self._handle(connection, frame)
        finally:
            if connection.close_code is None:
                self._close(connection, _GONE)
            self._forget(connection)
            writer = connection.writer
            if writer is not None and writer is not asyncio.current_task():
                # The close frame goes out before the app returns (uvicorn then ends the connection).
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(writer), self.limits.send_timeout + CLOSE_WAIT)
                if not writer.done():  # stuck in a send to a socket no longer watched: give it up
                    connection.send_expired = True
                    writer.cancel()
        return None

    async def _refuse(self, connection: Connection, code: int, error: JsonDict) -> None:
        """Say why, then close: a socket that never got as far as being served."""
        connection.outbox.append({"type": "error", "error": error})
        self._close(connection, code, str(error.get("message", ""))[:120])
        if connection.writer is not None:
            with contextlib.suppress(Exception):
                await connection.writer

    def _allowed(self, connection: Connection) -> bool:
        """The socket's token bucket: ``rate`` messages a second on average, ``burst`` at once."""
        now = time.monotonic()
        limits = self.limits
        connection.allowance = min(
            float(limits.burst), connection.allowance + (now - connection.filled_at) * limits.rate
        )
        connection.filled_at = now
        if connection.allowance < 1.0:
            return False
        connection.allowance -= 1.0
        return True

    async def _handle(self, connection: Connection, frame: Mapping[str, Any]) -> None:
        message = _parse(frame)
        if isinstance(message, str):
            self._enqueue(connection, _bad_message(message))
            return
        ident = message.get("id")
        if not _is_id(ident):
            complaint = f"an id is a number or a text of at most {MAX_ID_CHARS} characters"
            self._enqueue(connection, _bad_message(complaint))
            return
        kind = message.get("type")
        if kind == "ping":
            stamp = message.get("t")  # echoed only as a number: nothing a client sends comes back larger
            number = isinstance(stamp, (int, float)) and not isinstance(stamp, bool)
            self._enqueue(connection, {"type": "pong", "t": stamp if number else None})
        elif kind == "move":
            await self._move(connection, message, ident)
        elif kind == "pong":
            self._pong(connection, message)
        elif kind == "hello":
            pass
        else:
            complaint = "a message's type is move, ping or pong"
            self._enqueue(connection, _bad_message(complaint, ident))

    async def _move(self, connection: Connection, message: JsonDict, ident: Any) -> None:
        if connection.seat is None:
            error = {"code": "unauthorized", "message": "a spectator's socket cannot move; say hello with a token"}
            self._enqueue(connection, {"type": "error", "id": ident, "error": error})
            return
        text, version = message.get("move"), message.get("version")
        if not isinstance(text, str) or not 1 <= len(text) <= MAX_MOVE_CHARS:
            complaint = f"a move is a text of 1 to {MAX_MOVE_CHARS} characters"
            self._enqueue(connection, _bad_message(complaint, ident))
            return
        if version is not None and (not isinstance(version, int) or isinstance(version, bool) or version < 0):
            complaint = "a move's version is a whole number, 0 or more"
            self._enqueue(connection, _bad_message(complaint, ident))
            return
        try:
            moved = await self.service.play_async(connection.match, connection.token, text, version)
        except TablejudgeError as error:
            body = _error(error)
            if isinstance(error, StaleVersionError):
                loaded = await self.service.load_async(connection.match)
                body["match"] = self.service.body(loaded, connection.seat)
            self._enqueue(connection, {"type": "error", "id": ident, "error": body})
            return
        self._enqueue(
            connection,
            {"type": "ack", "id": ident, "version": moved.version, "breakdown": moved.breakdown.to_json()},
        )

    def _mark_seen(self, connection: Connection, force: bool = False) -> None:
        if connection.seat is None:
            return
        now = time.monotonic()
        if force or now - connection.last_seen_stored > self.limits.heartbeat:
            connection.last_seen_stored = now
            with contextlib.suppress(Exception):
                self.service.seen(connection.match, connection.seat)

    # --- lag compensation (issue 26, ``matches/lag.py``): each seat's round trips, timed by our pings ----
    def _ping(self, connection: Connection, stamp: int) -> None:
        """Queue a ping; a seat's is remembered, so that its pong measures the connection's round trip
        (a real-time game's claims are allowed that much lag)."""
        self._enqueue(connection, {"type": "ping", "t": stamp})
        if connection.seat is not None:
            self.service.lag.ping_sent(connection.match, connection.seat, stamp, time.monotonic())

    def _pong(self, connection: Connection, message: Mapping[str, Any]) -> None:
        if connection.seat is not None:
            self.service.lag.pong(connection.match, connection.seat, message.get("t"), time.monotonic())

    # --- background work -------------------------------------------------------------------------------
    async def _heartbeat(self) -> None:
        """A ping queued for every socket (never awaited: a stuck socket does not hold the next one);
        a socket silent for three heartbeats is closed."""
        while True:
            await asyncio.sleep(self.limits.heartbeat)
            now = time.monotonic()
            stamp = int(time.time() * 1000)
            for connections in list(self.connections.values()):
                for connection in list(connections):
                    if now - connection.last_heard > 3 * self.limits.heartbeat:
                        self._close(connection, CLOSE_GOING_AWAY, "silent for three heartbeats")
                    else:
                        self._ping(connection, stamp)

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

    async def _schedule(self) -> None:
        """Play what is due (bots, clocks, the referee) in every match, this process's and others'."""
        store = self.service.store
        while True:
            self._next_look = 0.0  # while it works, every change wakes it again
            self._wake.clear()
            try:
                for match_id in await store.call_async("due", time.time()):
                    while await self.service.run_due_async(match_id):
                        await asyncio.sleep(0)
                next_due = await store.call_async("next_due")
            except Exception:
                log.exception("the match scheduler failed; it goes on")
                next_due = None
            wait = 0.5 if next_due is None else min(0.5, max(0.005, next_due - time.time()))
            self._next_look = time.time() + wait
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def _poll(self) -> None:
        """SQLite: moves made by other processes on this machine reach this process's sockets."""
        while True:
            await asyncio.sleep(POLL)
            ids = list(self.connections)
            if not ids:
                continue
            try:
                if not self.service.store.written_elsewhere():  # only this process wrote: it told its own
                    continue
                changes = self.service.store.changes(ids)
            except Exception:
                log.exception("polling match versions failed")
                continue
            for match_id, (version, updated) in changes.items():
                if version > self.known.get(match_id, -1):
                    await self.broadcast(match_id)
                elif updated > self.changed.get(match_id, updated):  # seats, the start, a rematch
                    await self.broadcast(match_id, Event(match_id, version, kind="seats"))

    async def _listen(self, url: str) -> None:
        """PostgreSQL: every server's commits arrive as notifications (on an asyncpg connection, as
        the store's event-loop round trips: its listener is a plain callback, no generator per note)."""
        import asyncpg

        store = self.service.store
        assert isinstance(store, PostgresStore)
        notes: asyncio.Queue[str | None] = asyncio.Queue()  # None: the connection closed

        def noted(_conn: Any, pid: int, _channel: str, payload: str) -> None:
            # This process's own commits were told to its sockets as they were made (``on_event``);
            # heard back, one could even beat that broadcast and cost a read of the store.
            if not store.notified_by_me(pid):
                notes.put_nowait(payload)

        while True:
            conn = None
            try:
                conn = await asyncpg.connect(url)
                conn.add_termination_listener(lambda _conn: notes.put_nowait(None))
                await conn.add_listener(NOTIFY_CHANNEL, noted)
                while (payload := await notes.get()) is not None:
                    await self._noted(payload)
                raise ConnectionError("the PostgreSQL listener's connection closed")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the PostgreSQL listener failed; reconnecting")
                await asyncio.sleep(1)
            finally:
                if conn is not None:
                    conn.terminate()

    async def _noted(self, payload: str) -> None:
        match_id, version, *changed = payload.split(":")
        if changed:  # a seat taken or left, the start: bots may have a move to make
            self.wake()
        if match_id not in self.connections:
            return
        if int(version) > self.known.get(match_id, -1):
            await self.broadcast(match_id)
        elif changed:  # seats, the start, a rematch
            await self.broadcast(match_id, Event(match_id, int(version), kind="seats"))


def _error(error: Exception) -> JsonDict:
    body: JsonDict = {"code": getattr(error, "code", "error"), "message": str(error)}
    if isinstance(error, EngineError) and hasattr(error, "rule"):
        body["rule"] = error.rule
        body["details"] = getattr(error, "details", {})
    if isinstance(error, MatchError):
        body.update(error.extra)
    return body


def _join_updates(older: JsonDict, newer: JsonDict) -> None:
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


_TOO_BIG: JsonDict = {"code": "too_big", "message": "a frame over the size limit"}


def _too_big(frame: Mapping[str, Any], max_frame_bytes: int) -> bool:
    data = frame.get("text")
    if data is None:
        data = frame.get("bytes") or b""
    return len(data) > max_frame_bytes


def _parse(frame: Mapping[str, Any]) -> JsonDict | str:
    """A frame's message (a JSON object of plain values), or why it is not one."""
    text = frame.get("text")
    if text is None:
        return "binary frames are not read: send JSON text"
    try:
        message = orjson.loads(text)  # refuses nesting past 1024 levels without recursing in Python
    except orjson.JSONDecodeError:
        return "not JSON"
    if not isinstance(message, dict):
        return "a message is a JSON object"
    if any(isinstance(value, (dict, list)) for value in message.values()):
        return "a message's values are plain: text, numbers, true/false or null"
    return message


def _bad_message(complaint: str, ident: Any = None) -> JsonDict:
    return {"type": "error", "id": ident, "error": {"code": "bad_message", "message": complaint}}


def _is_hello(message: JsonDict) -> bool:
    token, since = message.get("token"), message.get("since")
    good_token = token is None or (isinstance(token, str) and len(token) <= MAX_TOKEN_CHARS)
    good_since = since is None or (isinstance(since, int) and not isinstance(since, bool) and since >= 0)
    return good_token and good_since


def _is_id(ident: Any) -> bool:
    if ident is None or (isinstance(ident, str) and len(ident) <= MAX_ID_CHARS):
        return True
    return isinstance(ident, int) and not isinstance(ident, bool) and abs(ident) < 2**53

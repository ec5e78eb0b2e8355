"""Live play: a WebSocket per client, versioned events, reconnection and heartbeats; the fan-out of every
change to the sockets that watch its match.

A client opens ``/v1/matches/{id}/live`` (nothing in the URL: a token there would land in access logs
and proxies' logs) and says first ``{"type": "hello", "token": ..., "since": N}`` (both optional: no
token is a spectator). Every event a socket receives holds the match's new ``version`` and the match
body as that socket's seat may see it (``MatchCore.body``), built afresh for each reader; the move
itself is shown as its reader may see it (another seat's trade, face down). A client that reconnects
says the last version it saw (``since``) and is sent the moves it missed, as it may see them, with the
current body: it never needs a reload.

One slow or hostile socket hurts only itself: each socket has its own bounded queue and writer, and
nothing here waits for another socket's send (``matches.live_outbox``). What comes in is bounded too:
frame size, plain JSON objects only, the move's length (as over HTTP), a token bucket of messages
per socket, a cap on the sockets open from one client address, and the address's move budget, which
its moves and resyncs share with its HTTP moves (``matches.live_input``).

The hub hears of changes two ways. This process's own, as they are committed: it listens to the core's
events (``MatchCore.listeners``). Other server processes', through the store's change feed
(``Store.changes_feed``: SQLite looks at the versions of the matches with sockets here a few times a
second, PostgreSQL listens for ``NOTIFY``), given what the sockets here were told of each match so that
it catches up from there. Changes that are not moves (a seat taken or left, the start, a rematch, a
takeback asked or answered, a reaction) mark the match too (``Store.touch``, ``set_takeback``,
``add_reaction``), so they reach every server's sockets the same way (``_other_change`` names them); one made elsewhere
also wakes this process's scheduler (a bot may have a move to make). The scheduler's own loop is the
scheduler's (``matches.scheduler``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import orjson
from fastapi import WebSocket

from engine.errors import EngineError, StaleVersionError
from engine.values import JsonDict
from indexes.errors import TablejudgeError
from matches.encoded import missed_moves
from matches.errors import MatchError
from matches.http import error_response
from matches.live_input import (
    MAX_ID_CHARS,
    MAX_MOVE_CHARS,
    TOO_BIG,
    AddressBudget,
    LiveLimits,
    bad_message,
    is_hello,
    is_id,
    parse_frame,
    redact_tokens_in_logs,
    resync_cost,
    too_big,
)
from matches.live_outbox import (
    CLOSE_BAD_HELLO,
    CLOSE_GOING_AWAY,
    CLOSE_NO_HELLO,
    CLOSE_SEAT_MOVED,
    CLOSE_TOO_BIG,
    CLOSE_TOO_MANY,
    CLOSE_TRY_AGAIN,
    CLOSE_UNAUTHORIZED,
    CLOSE_UNKNOWN_MATCH,
    CLOSE_WAIT,
    GONE,
    Connection,
    Outboxes,
)
from matches.service import Event, MatchService
from matches.store import Change, StorageUnavailable
from matches.tokens import digest

log = logging.getLogger("tablejudge.matches")

#: The ``Retry-After`` of a socket refused for its address's cap: the page's longest pause between two
#: reconnections (``net.js``); when one of the address's sockets closes is not known.
CROWDED_RETRY_S = 5


class LiveHub(Outboxes):
    """The sockets of this process, by match, and what they are sent."""

    def __init__(self, service: MatchService, limits: LiveLimits | None = None) -> None:
        self.service = service
        self.limits = limits or LiveLimits()
        self.connections: dict[str, set[Connection]] = defaultdict(set)
        #: Open sockets by client address (``LiveLimits.max_sockets_per_address``); an address leaves with its last.
        self.sockets_from: dict[str, int] = {}
        #: The address's budget that moves and resyncs draw from, shared with HTTP's moves (set by the app).
        self.move_budget: AddressBudget | None = None
        #: Each match's version, as this process last told its sockets.
        self.known: dict[str, int] = {}
        #: When each match last changed, as this process last told its sockets (``MatchRow.updated``).
        self.changed: dict[str, float] = {}
        #: Each match's table talk as this process last told its sockets: its newest reaction's number and the
        #: takeback asked, to name a change heard from another server process (``_other_change``).
        self.talk_told: dict[str, tuple[int, Any]] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._broadcasts: set[asyncio.Task[Any]] = set()
        service.core.listeners.append(self.on_event)

    # --- running -----------------------------------------------------------------------------------
    def start(self) -> None:
        """The hub's background work: heartbeats, the watch on sends, and other servers' changes."""
        redact_tokens_in_logs()
        self._tasks = [
            asyncio.create_task(self._heartbeat()),
            asyncio.create_task(self._watch_sends()),
            asyncio.create_task(self._hear_other_servers()),
        ]

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

    # --- events ------------------------------------------------------------------------------------
    def on_event(self, event: Event) -> None:
        """A change committed by this process: tell this process's sockets of it."""
        if self.connections.get(event.match):
            # Told once the step that committed it is done (the mover's answer goes out first), by a
            # callback rather than a task of its own (a task's creation and switch cost more).
            asyncio.get_running_loop().call_soon(self._tell_soon, event)

    def _tell_soon(self, event: Event) -> None:
        """Tell the sockets of a change committed just before: from the state it left, when that is still
        the match's state (never awaited: queued or sent), else from the store (``broadcast``)."""
        loaded = event.loaded
        if loaded is not None and loaded.state is not None and loaded.state.version == event.version:
            try:
                self._tell(event.match, loaded, event)
            except Exception:  # the change is committed whatever its telling does: the sockets resync
                log.exception("telling the sockets of %s failed", event.match)
            return
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
                loaded = await self.service.core.load_async(match_id)
            except MatchError:
                return
        self._tell(match_id, loaded, event)

    def _tell(self, match_id: str, loaded: Any, event: Event | None) -> None:
        """Queue (or send) each socket of the match what it has not seen of ``loaded``, as its seat may see it."""
        version = 0 if loaded.state is None else loaded.state.version
        self.known[match_id] = version
        self.changed[match_id] = max(self.changed.get(match_id, 0.0), loaded.row.updated)
        self.talk_told[match_id] = _talk_of(loaded.row)
        self._close_moved_seats(match_id, loaded.seats)
        # Every message is built from this state before anything else runs (no await below): a move
        # applied to it later cannot show up in a message meant for this version.
        for connection in list(self.connections.get(match_id, ())):
            if connection.version >= version and (event is None or event.kind == "move"):
                continue
            self._enqueue(connection, self.update(loaded, connection, event))
            connection.version = version

    def _close_moved_seats(self, match_id: str, seat_rows: list[Any]) -> None:
        """Close (4409) each socket whose seat now has another token: a seat link moved the seat to another
        device, here or in another process. Looked at on every change, moves too: a change of seats made
        elsewhere may reach this process only with a move made here after it. A seat left to a bot has no
        token, and its socket stays (it watches the bot; the page that left has gone on)."""
        held: dict[int, str | None] | None = None
        for connection in list(self.connections.get(match_id, ())):
            if connection.token_hash is None:
                continue
            if held is None:
                held = {row.seat: row.token_hash for row in seat_rows}
            now_held = held.get(connection.seat)  # type: ignore[arg-type]
            if now_held is None or hmac.compare_digest(now_held, connection.token_hash):
                continue
            connection.outbox.clear()  # the seat's view is not this device's any more
            connection.queued_update = None
            error = {"code": "seat_moved", "message": "your seat moved to another device: this one may watch"}
            self._enqueue(connection, {"type": "error", "error": error})
            self._close(connection, CLOSE_SEAT_MOVED, "the seat moved to another device")

    def update(self, loaded: Any, connection: Connection, event: Event | None, hello: bool = False) -> JsonDict:
        """The message for one socket: the moves it missed (as its seat sees them), and the match. A
        hello's moves (every move of a long match, for ``since`` 0) are kept encoded (``missed_json``):
        a hello is never joined with an update (``join_updates``), so they may stay bytes."""
        state = loaded.state
        seat, since = connection.seat, connection.version
        missed = orjson.Fragment(self.service.encoded.missed_json(loaded, seat, since)) if hello else None
        moves = missed if missed is not None else missed_moves(state, seat, since)
        message: JsonDict = {
            "type": "hello" if hello else "update",
            "version": 0 if state is None else state.version,
            "kind": "sync" if event is None else event.kind,
            "moves": moves,
            # Encoded once per seat and version (the mover's answer holds the same bytes): ``body_json``.
            "match": orjson.Fragment(self.service.core.body_json(loaded, connection.seat)),
        }
        if event is not None and event.breakdown is not None and isinstance(moves, list) and len(moves) == 1:
            message["breakdown"] = event.breakdown_json()
        if event is not None and event.said is not None:  # a reaction (``matches.social``)
            message["reaction"] = event.said
        return message

    # --- one socket ------------------------------------------------------------------------------------
    async def serve(
        self, socket: WebSocket, match_id: str, token_in_url: bool = False, address: str = "unknown"
    ) -> None:
        """A client's live socket: the seat's (with a token in its hello) or a spectator's; moves may
        come in on it. ``address``: the client's, as the rate limits count it."""
        open_now = self.sockets_from.get(address, 0)
        if open_now >= self.limits.max_sockets_per_address:
            return await self._refuse_one_too_many(socket, match_id, address, open_now)
        # Counted from before the upgrade (two handshakes at once cannot both take the last place) to the
        # socket's end, hello or not.
        self.sockets_from[address] = open_now + 1
        try:
            await socket.accept()
            connection = Connection(socket, match_id, None, address=address)
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
        finally:
            left = self.sockets_from[address] - 1
            if left:
                self.sockets_from[address] = left
            else:
                del self.sockets_from[address]
        return None

    async def _refuse_one_too_many(self, socket: WebSocket, match_id: str, address: str, open_now: int) -> None:
        """An address's socket past ``max_sockets_per_address``: refused before the upgrade with 429 (uvicorn
        answers and ends the connection at once: no socket, no closing handshake to wait for), or, on a
        server without ASGI's denial response, accepted and closed 4429."""
        most = self.limits.max_sockets_per_address
        error = {
            "code": "too_many_sockets",
            "message": f"{open_now} live sockets are open from your address (at most {most}): close one",
        }
        if "websocket.http.response" in socket.scope.get("extensions", {}):
            headers = {"Retry-After": str(CROWDED_RETRY_S), "Cache-Control": "no-store"}
            await socket.send_denial_response(error_response(429, error["code"], error["message"], headers))
            return
        await socket.accept()
        await self._refuse(Connection(socket, match_id, None, address=address), CLOSE_TOO_MANY, error)

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
        # Its silence is counted from the hello, not from the accept: a client slow to say hello (a loaded
        # phone, a slow network) is not closed sooner than three heartbeats after it has spoken.
        connection.last_heard = time.monotonic()
        if too_big(first, self.limits.max_frame_bytes):
            return await self._refuse(connection, CLOSE_TOO_BIG, TOO_BIG)
        hello = parse_frame(first)
        if isinstance(hello, str) or hello.get("type") != "hello" or not is_hello(hello):
            why = hello if isinstance(hello, str) else 'the first message is {"type": "hello", "token"?, "since"?}'
            return await self._refuse(connection, CLOSE_BAD_HELLO, {"code": "bad_hello", "message": why})
        token, since = hello.get("token"), hello.get("since")
        try:
            loaded = await self.service.core.load_async(match_id)
            seat = None if not token else self.service.core.authenticate(match_id, token, loaded.seats)
        except TablejudgeError as failure:
            status = getattr(failure, "status", 400)
            code = {401: CLOSE_UNAUTHORIZED, 503: CLOSE_TRY_AGAIN}.get(status, CLOSE_UNKNOWN_MATCH)
            return await self._refuse(connection, code, _error(failure))
        connection.seat, connection.token = seat, token if seat is not None else None
        connection.token_hash = None if connection.token is None else digest(connection.token)
        current = 0 if loaded.state is None else loaded.state.version
        connection.version = since if isinstance(since, int) and 0 <= since <= current else current
        wait = self._over_budget(connection, resync_cost(current - connection.version))
        if wait and self.move_budget is not None:  # a resync costs as moves do: the client comes back later
            return await self._refuse(connection, CLOSE_TOO_MANY, self.move_budget.refusal(wait))
        connection.allowance = float(self.limits.burst)
        # Registered, greeted and given its writer with no await in between: a broadcast cannot
        # come before the hello.
        self.connections[match_id].add(connection)
        self.known.setdefault(match_id, current)
        self.changed.setdefault(match_id, loaded.row.updated)
        self.talk_told.setdefault(match_id, _talk_of(loaded.row))
        self._mark_seen(connection, force=True)
        self._enqueue(connection, self.update(loaded, connection, None, hello=True))
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
                    self._close(connection, GONE)
                    break
                connection.last_heard = time.monotonic()
                if too_big(frame, self.limits.max_frame_bytes):  # uvicorn refuses these first when it has the limit
                    self._close(connection, CLOSE_TOO_BIG, f"a frame is at most {self.limits.max_frame_bytes} bytes")
                    break
                if not self._allowed(connection):
                    self._close(connection, CLOSE_TOO_MANY, f"over {self.limits.rate:g} messages a second")
                    break
                self._mark_seen(connection)
                await self._handle(connection, frame)
        finally:
            if connection.close_code is None:
                self._close(connection, GONE)
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

    def _over_budget(self, connection: Connection, cost: float) -> float:
        """0 when the client's address may spend ``cost`` of its move budget (taken then), else the seconds
        until it may (``AddressBudget``: shared with HTTP's moves)."""
        if not cost or self.move_budget is None:
            return 0.0
        return self.move_budget.take(connection.address, cost)

    async def _handle(self, connection: Connection, frame: Mapping[str, Any]) -> None:
        message = parse_frame(frame)
        if isinstance(message, str):
            self._enqueue(connection, bad_message(message))
            return
        ident = message.get("id")
        if not is_id(ident):
            complaint = f"an id is a number or a text of at most {MAX_ID_CHARS} characters"
            self._enqueue(connection, bad_message(complaint))
            return
        kind = message.get("type")
        if kind == "ping":
            stamp = message.get("t")  # echoed only as a number: nothing a client sends comes back larger
            number = isinstance(stamp, (int, float)) and not isinstance(stamp, bool)
            self._enqueue(connection, {"type": "pong", "t": stamp if number else None})
        elif kind == "move":
            await self._move(connection, message, ident)
        elif kind in ("takeback", "answer", "react"):
            await self._talk(connection, message, ident, kind)
        elif kind == "pong":
            self._pong(connection, message)
        elif kind == "hello":
            pass
        else:
            complaint = "a message's type is move, takeback, answer, react, ping or pong"
            self._enqueue(connection, bad_message(complaint, ident))

    async def _move(self, connection: Connection, message: JsonDict, ident: Any) -> None:
        if connection.seat is None:
            error = {"code": "unauthorized", "message": "a spectator's socket cannot move; say hello with a token"}
            self._enqueue(connection, {"type": "error", "id": ident, "error": error})
            return
        text, version = message.get("move"), message.get("version")
        if not isinstance(text, str) or not 1 <= len(text) <= MAX_MOVE_CHARS:
            complaint = f"a move is a text of 1 to {MAX_MOVE_CHARS} characters"
            self._enqueue(connection, bad_message(complaint, ident))
            return
        if version is not None and (not isinstance(version, int) or isinstance(version, bool) or version < 0):
            complaint = "a move's version is a whole number, 0 or more"
            self._enqueue(connection, bad_message(complaint, ident))
            return
        wait = self._over_budget(connection, 1.0)
        if wait and self.move_budget is not None:  # as HTTP's 429: answered, and the socket stays open
            self._enqueue(connection, {"type": "error", "id": ident, "error": self.move_budget.refusal(wait)})
            return
        try:
            moved = await self.service.gate.play_async(connection.match, connection.token, text, version)
        except TablejudgeError as error:
            body = _error(error)
            if isinstance(error, StaleVersionError):
                with contextlib.suppress(StorageUnavailable):  # (the match to resync from, when it can be read)
                    loaded = await self.service.core.load_async(connection.match)
                    body["match"] = self.service.core.body(loaded, connection.seat)
            self._enqueue(connection, {"type": "error", "id": ident, "error": body})
            return
        self._enqueue(
            connection,
            {"type": "ack", "id": ident, "version": moved.version, "breakdown": moved.breakdown_json()},
        )

    async def _talk(self, connection: Connection, message: JsonDict, ident: Any, kind: str) -> None:
        """Table talk on the socket (``matches.social``), as over HTTP: ``takeback`` (a ``version``), ``answer``
        (a ``version`` and ``accept``), ``react`` (a ``reaction`` or a ``text``); acked, or refused with the
        HTTP refusal's code. Each counts against the address's move budget, as a move does; the change itself
        comes as an update, to every socket of the match."""
        if connection.seat is None:
            error = {"code": "unauthorized", "message": "a spectator's socket cannot talk; say hello with a token"}
            self._enqueue(connection, {"type": "error", "id": ident, "error": error})
            return
        wait = self._over_budget(connection, 1.0)
        if wait and self.move_budget is not None:
            self._enqueue(connection, {"type": "error", "id": ident, "error": self.move_budget.refusal(wait)})
            return
        social, match_id, token = self.service.social, connection.match, connection.token
        reaction, text = message.get("reaction"), message.get("text")
        if (isinstance(reaction, str) and len(reaction) > 16) or (isinstance(text, str) and len(text) > 800):
            self._enqueue(
                connection, bad_message("a reaction is a short name; a chat line at most 200 characters", ident)
            )
            return
        try:
            if kind == "takeback":
                await social.ask_takeback_async(match_id, token, message.get("version"))
            elif kind == "answer":
                await social.answer_takeback_async(match_id, token, message.get("version"), message.get("accept"))
            else:
                await social.react_async(match_id, token, reaction, text)
        except TablejudgeError as error:
            self._enqueue(connection, {"type": "error", "id": ident, "error": _error(error)})
            return
        self._enqueue(connection, {"type": "ack", "id": ident})

    def _mark_seen(self, connection: Connection, force: bool = False, lag_ms: int | None = None) -> None:
        if connection.seat is None:
            return
        now = time.monotonic()
        if force or now - connection.last_seen_stored > self.limits.heartbeat:
            connection.last_seen_stored = now
            with contextlib.suppress(Exception):
                self.service.lobby.seen(connection.match, connection.seat, lag_ms)
                if lag_ms is not None:
                    self.service.core.lag.stored(connection.match, connection.seat, lag_ms)

    # --- lag compensation (issue 26, ``matches/lag.py``): each seat's round trips, timed by our pings ----
    def _ping(self, connection: Connection, stamp: int) -> None:
        """Queue a ping; a seat's is remembered, so that its pong measures the connection's round trip
        (a real-time game's claims are allowed that much lag)."""
        self._enqueue(connection, {"type": "ping", "t": stamp})
        if connection.seat is not None:
            self.service.core.lag.ping_sent(connection.match, connection.seat, stamp, time.monotonic())

    def _pong(self, connection: Connection, message: Mapping[str, Any]) -> None:
        """A pong measures the seat's round trip; when its allowance has moved by a step, it is stored
        with the heartbeat's ``seen`` (a write then, not per ping), for the other server processes."""
        seat = connection.seat
        lag = self.service.core.lag
        if seat is None or lag.pong(connection.match, seat, message.get("t"), time.monotonic()) is None:
            return
        to_store = lag.to_store(connection.match, seat)
        if to_store is not None:
            self._mark_seen(connection, force=True, lag_ms=to_store)

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

    async def _hear_other_servers(self) -> None:
        """Other server processes' changes reach this process's sockets (the store's change feed, caught
        up from what the sockets here were told); a change that is not a move wakes the scheduler."""
        feed = self.service.store.changes_feed(self._told)
        async with contextlib.aclosing(feed) as changes:
            async for change in changes:
                try:
                    await self._heard(change)
                except Exception:  # one change's telling failed: the sockets resync at the next
                    log.exception("telling the sockets of %s failed", change.match)

    def _told(self) -> dict[str, tuple[int, float]]:
        """The matches with sockets here, each with the version and change time they were last told of."""
        return {match_id: (self.known.get(match_id, -1), self.changed.get(match_id, 0.0))
                for match_id in self.connections}  # fmt: skip

    async def _heard(self, change: Change) -> None:
        if not change.moved:  # a seat taken or left, the start: a bot may have a move to make
            self.service.scheduler.wake()
        if change.match not in self.connections:
            return
        if change.version > self.known.get(change.match, -1):
            await self.broadcast(change.match)
        elif not change.moved:  # seats, the start, a rematch, a takeback asked or answered, a reaction
            try:
                loaded = await self.service.core.load_async(change.match)
            except MatchError:
                return
            if self.connections.get(change.match):
                self._tell(change.match, loaded, self._other_change(change.match, loaded))

    def _other_change(self, match_id: str, loaded: Any) -> Event:
        """What a change that is not a move, made by another server process, was, as this process's own
        would have told it: a reaction (sent with itself), a takeback asked or answered, else the seats."""
        version = 0 if loaded.state is None else loaded.state.version
        newest, takeback = _talk_of(loaded.row)
        told_newest, told_takeback = self.talk_told.get(match_id, (newest, takeback))
        if newest > told_newest:
            said = (loaded.row.reactions_recent or [])[-1]
            return Event(match_id, version, said.get("seat"), kind="reaction", said=said)
        if takeback != told_takeback:
            return Event(match_id, version, kind="takeback")
        return Event(match_id, version, kind="seats")

    def _forget(self, connection: Connection) -> None:
        super()._forget(connection)
        if connection.match not in self.connections:  # its last socket here: nothing of it is kept
            for kept in (self.known, self.changed, self.talk_told):
                kept.pop(connection.match, None)


def _talk_of(row: Any) -> tuple[int, Any]:
    """A match row's table talk, as ``LiveHub.talk_told`` keeps it: its newest reaction's number, its takeback."""
    reactions = row.reactions_recent or []
    return (int(reactions[-1]["n"]) if reactions else 0), row.takeback


def _error(error: Exception) -> JsonDict:
    """A refusal as a socket's error message says it (the same ``code``, ``message`` and extras as over HTTP)."""
    if isinstance(error, StorageUnavailable):
        error.refused()  # counted for the outage's line in the log, as an HTTP 503 is
    body: JsonDict = {"code": getattr(error, "code", "error"), "message": str(error)}
    if isinstance(error, EngineError) and hasattr(error, "rule"):
        body["rule"] = error.rule
        body["details"] = getattr(error, "details", {})
    if isinstance(error, MatchError):
        body.update(error.extra)
    return body

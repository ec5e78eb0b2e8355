"""Live play: a WebSocket per client, versioned events, reconnection, heartbeats, and the scheduler that
plays bots, runs out clocks and closes claim windows.

Every event a socket receives holds the match's new ``version`` and the match body as that socket's
seat may see it (``MatchService.body``), built afresh for each reader; the move itself is shown
as its reader may see it (another seat's trade, face down). A client that reconnects says the last
version it saw (``?since=N``) and is sent the moves it missed, as it may see them, with the current
body: it never needs a reload.

Moves committed by another server process reach this one's sockets too: with PostgreSQL through
``LISTEN``/``NOTIFY``; with SQLite (one machine) by looking at the versions of the matches that
have sockets here a few times a second. Changes that are not moves (a seat taken or left, the start,
a rematch) mark the match too (``Store.touch``), so they reach every server's sockets the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from engine.base import CHANCE, JsonDict
from engine.errors import EngineError, StaleVersionError
from indexes.errors import TablejudgeError
from matches.errors import MatchError
from matches.service import Event, MatchService
from matches.store import NOTIFY_CHANNEL, PostgresStore

log = logging.getLogger("tablejudge.matches")

#: Seconds between the server's pings; a socket silent for three of them is dropped.
HEARTBEAT = 15.0
#: How often (seconds) this process looks for moves made by other processes (SQLite).
POLL = 0.2


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


class LiveHub:
    """The sockets of this process, by match, and what they are sent."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
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
        self._tasks = [asyncio.create_task(self._schedule()), asyncio.create_task(self._heartbeat())]
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
        for connections in list(self.connections.values()):
            for connection in list(connections):
                with contextlib.suppress(Exception):
                    await connection.socket.close(code=1001)

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
        """Send each socket of the match what it has not seen, as its seat may see it."""
        connections = list(self.connections.get(match_id, ()))
        if not connections:
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
        # Every message is built before the first is sent: while a send waits, another move may be
        # applied to this state (and not yet committed).
        messages = []
        for connection in connections:
            if connection.version >= version and (event is None or event.kind == "move"):
                continue
            messages.append((connection, self.update(loaded, connection, event)))
            connection.version = version
        for connection, message in messages:
            await self._send(connection, message)

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

    async def _send(self, connection: Connection, message: JsonDict) -> None:
        try:
            await connection.socket.send_text(orjson.dumps(message).decode())
        except Exception:  # a socket gone: forget it
            self._drop(connection)

    def _drop(self, connection: Connection) -> None:
        connections = self.connections.get(connection.match)
        if connections is not None:
            connections.discard(connection)
            if not connections:
                self.connections.pop(connection.match, None)

    # --- one socket ------------------------------------------------------------------------------------
    async def serve(self, socket: WebSocket, match_id: str, token: str | None, since: int | None) -> None:
        """A client's live socket: the seat's (with a token) or a spectator's; moves may come in on it."""
        await socket.accept()
        try:
            loaded = await self.service.load_async(match_id)
            seat = None if not token else self.service.authenticate(match_id, token, loaded.seats)
        except TablejudgeError as error:
            await socket.send_text(json.dumps({"type": "error", "error": _error(error)}))
            await socket.close(code=4401 if getattr(error, "status", 400) == 401 else 4404)
            return
        connection = Connection(socket, match_id, seat, token if seat is not None else None)
        current = 0 if loaded.state is None else loaded.state.version
        connection.version = since if isinstance(since, int) and 0 <= since <= current else current
        self.connections[match_id].add(connection)
        self.known.setdefault(match_id, current)
        self.changed.setdefault(match_id, loaded.row.updated)
        self._mark_seen(connection, force=True)
        await self._send(connection, {**self.update(loaded, connection, None), "type": "hello"})
        connection.version = current
        try:
            while True:
                text = await socket.receive_text()
                connection.last_heard = time.monotonic()
                self._mark_seen(connection)
                await self._handle(connection, text)
        except WebSocketDisconnect:
            pass
        finally:
            self._drop(connection)

    async def _handle(self, connection: Connection, text: str) -> None:
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            await self._send(connection, {"type": "error", "error": {"code": "bad_message", "message": "not JSON"}})
            return
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind == "ping":
            await self._send(connection, {"type": "pong", "t": message.get("t")})
        elif kind == "move":
            if connection.seat is None:
                error = {"code": "unauthorized", "message": "a spectator's socket cannot move; connect with a token"}
                await self._send(connection, {"type": "error", "id": message.get("id"), "error": error})
                return
            try:
                moved = await self.service.play_async(
                    connection.match, connection.token, message.get("move"), message.get("version")
                )
            except TablejudgeError as error:
                body = _error(error)
                if isinstance(error, StaleVersionError):
                    loaded = await self.service.load_async(connection.match)
                    body["match"] = self.service.body(loaded, connection.seat)
                await self._send(connection, {"type": "error", "id": message.get("id"), "error": body})
                return
            await self._send(
                connection,
                {
                    "type": "ack",
                    "id": message.get("id"),
                    "version": moved.version,
                    "breakdown": moved.breakdown.to_json(),
                },
            )
        elif kind == "pong":
            pass

    def _mark_seen(self, connection: Connection, force: bool = False) -> None:
        if connection.seat is None:
            return
        now = time.monotonic()
        if force or now - connection.last_seen_stored > HEARTBEAT:
            connection.last_seen_stored = now
            with contextlib.suppress(Exception):
                self.service.seen(connection.match, connection.seat)

    # --- background work -------------------------------------------------------------------------------
    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            now = time.monotonic()
            for connections in list(self.connections.values()):
                for connection in list(connections):
                    if now - connection.last_heard > 3 * HEARTBEAT:
                        self._drop(connection)
                        with contextlib.suppress(Exception):
                            await connection.socket.close(code=1001)
                    else:
                        await self._send(connection, {"type": "ping", "t": int(time.time() * 1000)})

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

"""The PostgreSQL store, for several servers on several machines: the same SQL as SQLite, a
``NOTIFY`` on every committed change (heard by the other servers through ``changes_feed``), and the
calls on a move's path awaited on the event loop through asyncpg (one statement each: ``ON_THE_LOOP``)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from matches.store.base import Store
from matches.store.rows import Change, CommitCheck, MoveRow, Told
from matches.store.schema import NOTIFY_CHANNEL
from matches.store.sql import (
    DUE,
    LATEST_SNAPSHOT,
    MATCH_SEATS_AND_MOVES,
    MOVES_SINCE,
    MOVES_SINCE_AT_MOST,
    NEXT_DUE,
    NO_MOVES,
    SAVE_SNAPSHOT,
    VERSION,
    commit_where,
    read_due,
    read_match_seats_and_moves,
    read_moves,
    read_next_due,
    read_snapshot,
    read_version,
    snapshot_text,
    to_column,
)

log = logging.getLogger("tablejudge.matches")

#: The advisory lock key creations serialise on (``PostgresStore._lock_creations``): any fixed number
#: no other user of the database takes; these are the bytes of "tjwait".
CREATION_LOCK = 0x746A77616974


class PostgresStore(Store):
    """For several servers on several machines: the same SQL, and NOTIFY on every committed move."""

    awaits = True

    def __init__(self, url: str, sync: str = "normal") -> None:
        super().__init__()
        import psycopg  # only when PostgreSQL is used

        self.url = url
        self._conn = psycopg.connect(url, autocommit=True)
        # The commit is in the database when it answers; its flush to disk follows.
        self._session = "SET synchronous_commit = off" if sync != "full" else None
        if self._session:
            self._conn.execute(self._session)
        self._async = _AsyncConnections(url, self._session)

    @property
    def kind(self) -> str:
        return "postgresql"

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._lock:
            cursor = self._conn.execute(self._sql(sql), list(params))  # type: ignore[call-overload]
            return int(cursor.rowcount)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._conn.execute(self._sql(sql), list(params)).fetchall())  # type: ignore[call-overload]

    @contextmanager
    def _outermost(self) -> Iterator[None]:
        with self._conn.transaction():
            yield

    def _notify(self, match_id: str, version: int, changed: bool = False) -> None:
        payload = f"{match_id}:{version}" + (":changed" if changed else "")
        self._execute("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, payload))

    def _lock_creations(self) -> None:
        """A transaction-scoped advisory lock that every creation takes: under READ COMMITTED two
        transactions would each count the waiting matches without the other's, and both insert. Only
        creations wait for it (a few milliseconds each); moves and reads never take it."""
        self._execute("SELECT pg_advisory_xact_lock(?)", (CREATION_LOCK,))

    def commit_move(
        self, match_id: str, expected_version: int, move: MoveRow, check: CommitCheck | None = None, **values: Any
    ) -> bool:
        """As the base, in one statement (one round trip, its own transaction): the match moves from
        ``expected_version`` only if it is still there; the move is stored and announced only then."""
        return len(self._query(*_commit_statement(match_id, expected_version, move, check, values))) == 1

    # --- from the event loop ---------------------------------------------------------------------------
    async def call_async(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """The calls on a move's path (read the match, catch up, commit, the snapshot every
        ``SNAPSHOT_EVERY`` moves) and the scheduler's looks (``ON_THE_LOOP``) are awaited on a pool
        of async connections, so that one process has many moves in flight while PostgreSQL
        answers; the rarer ones run on a worker thread over the shared connection (it is locked)."""
        statement = ON_THE_LOOP.get(method)
        if statement is None:
            return await asyncio.to_thread(getattr(self, method), *args, **kwargs)
        sql, params, read = statement(*args, **kwargs)
        return read(await self._async.query(sql, params))

    # --- the change feed between servers ------------------------------------------------------------
    async def changes_feed(self, told: Callable[[], Told]) -> AsyncGenerator[Change, None]:
        """Every other server's commits, as PostgreSQL notifies them (``_notify``, ``_commit_statement``),
        heard on a connection of its own (``_listening``); this process's own commits are let go
        (``notified_by_me``). Once a connection listens, the watched matches are caught up with what
        changed while none did (``Store.catch_up``, from ``told()``): before the first one, and while a
        dropped one was opened again. A change both caught up with and heard is given twice (a listener
        tells its sockets only what they have not seen)."""
        while True:
            try:
                async with self._listening() as heard:
                    for change in await self.call_async("catch_up", told()):
                        yield change
                    while (change := await heard.get()) is not None:
                        yield change
                raise ConnectionError("the PostgreSQL listener's connection closed")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the PostgreSQL listener failed; reconnecting")
                await asyncio.sleep(1)

    @contextlib.asynccontextmanager
    async def _listening(self) -> AsyncIterator[asyncio.Queue[Change | None]]:
        """The listener's connection (the one place it is opened and closed), listening on the channel while
        the block runs: what it hears of other servers' changes, in a queue (None: the connection closed).
        asyncpg, as the event loop's round trips: its listener is a plain callback, no generator per note."""
        import asyncpg

        heard: asyncio.Queue[Change | None] = asyncio.Queue()

        def noted(_conn: Any, pid: int, _channel: str, payload: str) -> None:
            change = _change_noted(payload)
            if change is not None and not self.notified_by_me(pid):
                heard.put_nowait(change)

        conn = await asyncpg.connect(self.url)
        try:
            conn.add_termination_listener(lambda _conn: heard.put_nowait(None))
            await conn.add_listener(NOTIFY_CHANNEL, noted)
            yield heard
        finally:
            conn.terminate()

    def notified_by_me(self, backend_pid: int) -> bool:
        """Was a notification from ``backend_pid`` sent by this store's own commits? Their changes
        were told to this process's sockets when committed (``MatchCore.emit``): heard back, one could
        even beat that and cost a read of the store."""
        return self._async.sent_here(backend_pid)

    def close(self) -> None:
        self._async.close()
        with self._lock:
            self._conn.close()


def _commit_statement(
    match_id: str, expected_version: int, move: MoveRow, check: CommitCheck | None, values: dict[str, Any]
) -> tuple[str, list[Any]]:
    """PostgreSQL's move commit as one statement: the match row moves from ``expected_version`` only if
    it is still there; only then is the move stored and announced (``NOTIFY``). It returns one row
    when it committed, none when another move got there first."""
    assert move.version == expected_version + 1
    names = ", ".join([*(f"{key} = ?" for key in ("version", *values)), "revision = revision + 1"])
    checked, check_params = commit_where(check)
    params = [move.version, *(to_column(key, value) for key, value in values.items()), match_id, expected_version]
    params += check_params
    params += [move.version, move.seat, move.move, move.at, NOTIFY_CHANNEL, f"{match_id}:{move.version}"]
    sql = (
        f"WITH moved AS (UPDATE matches SET {names} WHERE id = ? AND version = ?{checked} RETURNING id), "
        "stored AS (INSERT INTO moves (match_id, version, seat, move, at) SELECT id, ?, ?, ?, ? FROM moved "
        "RETURNING match_id) SELECT pg_notify(?, ?) FROM stored"
    )
    return sql, params


def _change_noted(payload: str) -> Change | None:
    """A notification's change: ``match:version`` for a move, ``match:version:changed`` for another change
    (``_notify``); None for anything else sent on the channel."""
    match_id, _, rest = payload.partition(":")
    version, _, changed = rest.partition(":")
    if not match_id or not version.isdigit():
        log.warning("a notification that is not a change: %r", payload[:80])
        return None
    return Change(match_id, int(version), moved=not changed)


Rows = list[tuple[Any, ...]]
#: A store call made as one statement: its SQL, its parameters, and what its rows answer.
Statement = tuple[str, Sequence[Any], Callable[[Rows], Any]]

#: PostgreSQL's calls awaited on the event loop's connections (``PostgresStore.call_async``), by
#: store method, with that method's parameters: each one statement, its own transaction.
ON_THE_LOOP: dict[str, Callable[..., Statement]] = {
    "match_and_moves": lambda match_id, since, most=NO_MOVES: (
        MATCH_SEATS_AND_MOVES,
        (NO_MOVES if since is None else since, most, match_id),
        read_match_seats_and_moves,
    ),
    "moves": lambda match_id, since=0, most=None: (
        (MOVES_SINCE, (match_id, since), read_moves)
        if most is None
        else (MOVES_SINCE_AT_MOST, (match_id, since, most), read_moves)
    ),
    "snapshot": lambda match_id: (LATEST_SNAPSHOT, (match_id,), read_snapshot),
    "version": lambda match_id: (VERSION, (match_id,), read_version),
    "due": lambda now, limit=100: (DUE, (now, limit), read_due),
    "next_due": lambda: (NEXT_DUE, (), read_next_due),
    "save_snapshot": lambda match_id, version, state: (
        SAVE_SNAPSHOT,
        (match_id, match_id, version, snapshot_text(state)),
        lambda rows: None,
    ),
    "commit_move": lambda match_id, expected_version, move, check=None, **values: (
        *_commit_statement(match_id, expected_version, move, check, values),
        lambda rows: len(rows) == 1,
    ),
}


#: Async connections one server process keeps to PostgreSQL: the moves it can have in flight at once.
ASYNC_CONNECTIONS = 8


class _AsyncConnections:
    """A small pool of asyncpg connections (each statement its own transaction), opened as they are
    first needed, on the running event loop. A connection that fails is closed and a new one opened
    next time; when the loop changes (a test's app started again), the old loop's connections are
    let go.

    asyncpg, not psycopg's async connections, on the event loop: a round trip costs the server about
    40% of the CPU (``benchmarks/pg_drivers.py``), and a move makes two or three of them."""

    def __init__(self, url: str, session: str | None, size: int = ASYNC_CONNECTIONS) -> None:
        self.url, self.session, self.size = url, session, size
        self._idle: list[Any] = []
        #: This pool's connections by their PostgreSQL backend's process id (``sent_here``).
        self._backends: dict[int, Any] = {}
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closer: AsyncIterator[None] | None = None  # held: the loop keeps only a weak reference

    async def query(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        loop = asyncio.get_running_loop()
        if loop is not self._loop or self._slots is None:
            self.close()
            self._loop, self._slots, self._idle = loop, asyncio.Semaphore(self.size), []
            self._closer = self._close_with_loop(self._idle)
            await anext(self._closer)
        async with self._slots:
            conn = self._idle.pop() if self._idle else await self._connect()
            try:
                rows = await conn.fetch(numbered(sql), *params)
            except BaseException:
                if not conn.is_closed():  # an SQL error leaves the connection usable; a dropped one is not
                    self._idle.append(conn)
                raise
            self._idle.append(conn)
            return [tuple(row) for row in rows]

    @staticmethod
    async def _close_with_loop(idle: list[Any]) -> AsyncIterator[None]:
        """Started once per event loop, it is an async generator the loop knows of, and a loop that
        ends (``asyncio.run``, uvicorn's) finalises those while it still runs: the loop's connections
        close on their own loop. (Once it has closed, a connection can only be dropped, unclosed.)"""
        try:
            yield
        finally:
            while idle:
                with contextlib.suppress(Exception):
                    await idle.pop().close(timeout=1)

    async def _connect(self) -> Any:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        if self.session:
            await conn.execute(self.session)
        self._backends[conn.get_server_pid()] = conn
        return conn

    def sent_here(self, backend_pid: int) -> bool:
        """Did one of this pool's open connections send a notification from ``backend_pid``? (A
        closed one's process id may since have gone to another server's connection.)"""
        conn = self._backends.get(backend_pid)
        if conn is None:
            return False
        if conn.is_closed():
            del self._backends[backend_pid]
            return False
        return True

    def close(self) -> None:
        """Drop the connections (synchronous: this may be called with no loop running)."""
        for conn in self._idle:
            with contextlib.suppress(Exception):
                conn.terminate()
        self._idle = []
        self._backends = {}


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """The store's ``?`` placeholders as asyncpg's ``$1, $2, ...`` (no statement here has a ``?`` in a
    literal).

    >>> numbered("UPDATE matches SET due = ? WHERE id = ? AND version = ?")
    'UPDATE matches SET due = $1 WHERE id = $2 AND version = $3'
    """
    parts = sql.split("?")
    return "".join(part + (f"${index}" if index < len(parts) else "") for index, part in enumerate(parts, 1))

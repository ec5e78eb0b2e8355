"""The PostgreSQL store, for several servers on several machines: the same SQL as SQLite, a
``NOTIFY`` on every committed change (heard by the other servers through ``changes_feed``), and the
calls on a move's path awaited on the event loop through asyncpg (one statement each: ``ON_THE_LOOP``).

Both kinds of connection heal: the synchronous calls take a connection from psycopg's pool
(``psycopg_pool``), which replaces one the database dropped before it is handed out (``_unread``) and
opens new ones as they are needed; the event loop's asyncpg connections are let go when they close and
opened again on their next use (``_AsyncConnections``). While PostgreSQL cannot be reached, every call is
refused at once with ``StorageUnavailable`` (503) but one try per interval (``matches.store.health``).
Nothing is retried: a call that failed may have reached the database, and only its caller knows whether
it may be made again (a move's commit is conditional on the match's version, so it may)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import select
import threading
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from matches.store.base import Store
from matches.store.health import (
    MOST_WAIT,
    READ_ONLY,
    UNREACHABLE,
    UP,
    State,
    StorageUnavailable,
    StoreHealth,
    on_event_loop,
)
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
#: The advisory lock the schema's creation and migration take (``Store.migrate``): servers that start
#: together on an empty database create it once, one after the other ("tjschema").
SCHEMA_LOCK = 0x746A736368656D61

#: Connections the synchronous calls may hold at once (the worker threads of ``call_async``, the loading
#: thread, the upkeep's, and the event loop's own short calls); one is kept open.
SYNC_CONNECTIONS = 4
#: Seconds to open a connection before the attempt fails.
CONNECT_TIMEOUT = 5.0
#: Seconds a synchronous call waits for one of the pool's connections before it is refused (503): the pool
#: opens them on its own thread, and a wait is not cut short when that fails (the database refused) ...
POOL_WAIT = 1.0
#: ... and on the event loop, which must not stand still (a refused call answers 503 at once after).
LOOP_POOL_WAIT = 0.5
#: PostgreSQL's states (SQLSTATE) in which it is reached but cannot be written: a full disk, a read-only
#: database (a standby, ``default_transaction_read_only``).
READ_ONLY_STATES = {"53100": "its disk is full", "25006": "it is read-only"}
#: What other states say of PostgreSQL, by SQLSTATE or its class (the first two characters).
UNREACHABLE_STATES = {
    "57P01": "it was shut down",
    "57P02": "it crashed",
    "57P03": "it is starting up",
    "53300": "it has too many connections",
    "08": "the connection was lost",
    "53": "it is out of resources",
    "57P": "it is shutting down",
}


class PostgresStore(Store):
    """For several servers on several machines: the same SQL, and NOTIFY on every committed move."""

    awaits = True

    def __init__(self, url: str, sync: str = "normal") -> None:
        super().__init__()
        import psycopg  # only when PostgreSQL is used
        from psycopg_pool import ConnectionPool

        self.url = url
        self.health = StoreHealth("PostgreSQL")
        # The commit is in the database when it answers; its flush to disk follows.
        self._session = "SET synchronous_commit = off" if sync != "full" else None
        # A server that cannot reach its database at start says why (the pool would only say it timed out).
        psycopg.connect(url, connect_timeout=int(CONNECT_TIMEOUT)).close()
        # The pool's own warning for every failed attempt to connect is not logged: the outage is, once
        # (``StoreHealth``).
        logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=SYNC_CONNECTIONS,
            kwargs={"autocommit": True, "connect_timeout": int(CONNECT_TIMEOUT)},
            configure=self._configure,
            check=_unread,
            timeout=POOL_WAIT,
            # A pool that cannot connect gives up within this long, and the next call that needs a connection
            # starts again at once: a database that is back is used again on the next try, not at the end of
            # the pool's own growing backoff.
            reconnect_timeout=MOST_WAIT,
            num_workers=1,
            name="tablejudge",
            open=False,
        )
        self._pool.open(wait=True, timeout=CONNECT_TIMEOUT)
        #: The connection this thread holds while it is in a transaction (``transaction``).
        self._held = threading.local()
        self._async = _AsyncConnections(url, self._session, self.health)

    def _configure(self, conn: Any) -> None:
        if self._session:
            conn.execute(self._session)

    @property
    def kind(self) -> str:
        return "postgresql"

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        held = getattr(self._held, "conn", None)
        if held is not None:
            return int(held.execute(self._sql(sql), list(params)).rowcount)
        with self._connection(write=True) as conn:
            return int(conn.execute(self._sql(sql), list(params)).rowcount)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        held = getattr(self._held, "conn", None)
        if held is not None:
            return list(held.execute(self._sql(sql), list(params)).fetchall())
        with self._connection(write=False) as conn:
            return list(conn.execute(self._sql(sql), list(params)).fetchall())

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A transaction on a connection of the pool that this thread holds until it ends; one opened
        inside another is part of it. (Each thread its own: the database orders them.)"""
        if getattr(self._held, "conn", None) is not None:
            yield
            return
        with self._connection(write=True) as conn, conn.transaction():
            self._held.conn = conn
            try:
                yield
            finally:
                self._held.conn = None

    @contextmanager
    def _connection(self, write: bool) -> Iterator[Any]:
        """A connection of the pool for one statement or one transaction, given back after it. A failure of
        the database's (not of the statement: a constraint, a bug) is ``StorageUnavailable``."""
        import psycopg

        self.health.check(write, blocking=True)
        conn = None
        try:
            with self._pool.connection(timeout=LOOP_POOL_WAIT if on_event_loop() else POOL_WAIT) as conn:
                yield conn
        except psycopg.Error as error:
            lost = conn is not None and (conn.broken or conn.closed)
            broken = "no connection could be made" if conn is None else "the connection was lost" if lost else None
            failure = _failure(getattr(error, "sqlstate", None), broken)
            if failure is None:
                raise
            raise self.health.failed(*failure) from error
        self.health.worked(write)

    def _notify(self, match_id: str, version: int, changed: bool = False) -> None:
        payload = f"{match_id}:{version}" + (":changed" if changed else "")
        self._execute("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, payload))

    def _lock_schema(self) -> None:
        """Servers starting together create and migrate the schema one after the other: without it, two
        ``CREATE TABLE IF NOT EXISTS`` at once both create (a duplicate key in PostgreSQL's catalogue)."""
        self._execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))

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
        return read(await self._async.query(sql, params, method in WRITES_ON_THE_LOOP))

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
            except StorageUnavailable:  # its catching up refused while PostgreSQL is down: logged once by the store
                await asyncio.sleep(1)
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

        conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
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
        self._pool.close()


def _unread(conn: Any) -> None:
    """The pool's check of a connection before it hands it out: nothing should have arrived on an idle one.
    Something has when PostgreSQL dropped it (a restart tells each client it is terminating it); it is then
    asked a round trip, which fails, and the pool opens another. A look at the socket, not a round trip, for
    every connection handed out."""
    from psycopg_pool import ConnectionPool

    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    if conn.closed or poller.poll(0):
        ConnectionPool.check_connection(conn)


def _failure(sqlstate: str | None, broken: str | None) -> tuple[State, str] | None:
    """The state a failed call puts the store in, and why, from PostgreSQL's SQLSTATE and whether the
    connection broke (why, if so); None for a failure of the statement itself (a constraint, a bug), which is
    no outage.

    >>> _failure("53100", None), _failure("57P01", "the connection was lost"), _failure("23505", None)
    (('read_only', 'its disk is full'), ('unreachable', 'it was shut down'), None)
    >>> _failure(None, "no connection could be made")
    ('unreachable', 'no connection could be made')
    """
    state = sqlstate or ""
    if state in READ_ONLY_STATES:
        return READ_ONLY, READ_ONLY_STATES[state]
    known = UNREACHABLE_STATES.get(state) or UNREACHABLE_STATES.get(state[:3]) or UNREACHABLE_STATES.get(state[:2])
    if state and known is not None:
        return UNREACHABLE, known
    if broken is not None:
        return UNREACHABLE, broken
    return None


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
    "ping": lambda: ("SELECT 1", (), lambda rows: None),
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


#: The calls on the loop that write (a read may go on while the database cannot be written).
WRITES_ON_THE_LOOP = frozenset({"commit_move", "save_snapshot"})

#: Async connections one server process keeps to PostgreSQL: the moves it can have in flight at once.
ASYNC_CONNECTIONS = 8


class _AsyncConnections:
    """A small pool of asyncpg connections (each statement its own transaction), opened as they are
    first needed, on the running event loop. A connection that closed (PostgreSQL dropped it) is let go
    before it is used, and one that fails a call is closed; a new one is opened next time. When the loop
    changes (a test's app started again), the old loop's connections are let go.

    asyncpg, not psycopg's async connections, on the event loop: a round trip costs the server about
    40% of the CPU (``benchmarks/pg_drivers.py``), and a move makes two or three of them. Nor asyncpg's
    own pool: its acquiring and giving back cost a move more Python than this list
    (``benchmarks/pg_drivers.py --pools``)."""

    def __init__(self, url: str, session: str | None, health: StoreHealth, size: int = ASYNC_CONNECTIONS) -> None:
        self.url, self.session, self.health, self.size = url, session, health, size
        self._idle: list[Any] = []
        #: This pool's connections by their PostgreSQL backend's process id (``sent_here``).
        self._backends: dict[int, Any] = {}
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closer: AsyncIterator[None] | None = None  # held: the loop keeps only a weak reference

    async def query(self, sql: str, params: Sequence[Any], write: bool = False) -> list[tuple[Any, ...]]:
        health = self.health
        if health.state != UP:
            health.check(write)
        loop = asyncio.get_running_loop()
        if loop is not self._loop or self._slots is None:
            self.close()
            self._loop, self._slots, self._idle = loop, asyncio.Semaphore(self.size), []
            self._closer = self._close_with_loop(self._idle)
            await anext(self._closer)
        async with self._slots:
            conn = None
            try:
                while self._idle and conn is None:
                    conn = self._idle.pop()
                    if conn.is_closed():  # dropped by the database while idle: a new one is opened
                        conn = None
                if conn is None:
                    conn = await self._connect()
                rows = await conn.fetch(numbered(sql), *params)
            except BaseException as error:
                if conn is not None and not conn.is_closed():  # an SQL error leaves it usable; a dropped one not
                    self._idle.append(conn)
                failure = _async_failure(error, conn)
                if failure is not None:
                    raise self.health.failed(*failure) from error
                raise
            self._idle.append(conn)
        if health.state != UP:
            health.worked(write)
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

        conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
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


def _async_failure(error: BaseException, conn: Any) -> tuple[State, str] | None:
    """``_failure`` for asyncpg: a connection that could not be made (``conn`` None: refused, timed out,
    PostgreSQL starting up), or one that closed, is an outage; a cancelled call is not."""
    if not isinstance(error, Exception):
        return None
    broken = "no connection could be made" if conn is None else "the connection was lost" if conn.is_closed() else None
    return _failure(getattr(error, "sqlstate", None), broken)


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """The store's ``?`` placeholders as asyncpg's ``$1, $2, ...`` (no statement here has a ``?`` in a
    literal).

    >>> numbered("UPDATE matches SET due = ? WHERE id = ? AND version = ?")
    'UPDATE matches SET due = $1 WHERE id = $2 AND version = $3'
    """
    parts = sql.split("?")
    return "".join(part + (f"${index}" if index < len(parts) else "") for index, part in enumerate(parts, 1))

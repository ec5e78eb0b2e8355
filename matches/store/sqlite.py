"""The embedded default store: one SQLite file in WAL mode, shared by every server process on the
machine, its write-ahead log checkpointed by a thread of its own.

**A database that cannot be written** is a state, not a crash (``matches.store.health``):

- SQLite's own errors say so: a full disk (``SQLITE_FULL``), a read-only file (``SQLITE_READONLY``), a
  failed write (``SQLITE_IOERR``). The store is then ``read_only``: later writes are refused at once
  (503) but one try per interval, reads go on, and the first write that works again ends it.
- **An immutable or append-only WAL index** (``chattr +i`` on the ``-shm`` file) is looked for before SQLite
  is touched, at most every ``FILES_EVERY`` seconds on any call, and every second by the checkpointer
  (``statx``: no descriptor opened). SQLite maps the WAL's index into memory, and every reader and writer
  writes to it; once such a file's pages have been written back to disk, the next write to one is a
  fault the kernel answers with SIGBUS, which ends the whole process (there is no way around the mapping
  short of giving up WAL's readers beside a writer). So while it is immutable, nothing in the process
  touches the database: every call is refused at once, the checkpointer waits, and the connections are
  not even closed (closing checkpoints). When the flag is cleared, the next call goes on. (The database
  file and its ``-wal`` made immutable fail SQLite's writes with an error: ``read_only``, as above.)
- The database file itself is not mapped (``PRAGMA mmap_size=0``): a file cut short under a mapping
  is a SIGBUS too.
"""

from __future__ import annotations

import ctypes
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from matches.store.base import Store
from matches.store.health import READ_ONLY, UNREACHABLE, UP, State, StoreHealth

#: How often (s) a call looks at whether the WAL's index has been made immutable, at most (a look costs a
#: system call, about 5 µs): the kernel writes a mapped page back, after which a write to it would fault,
#: some 30 s after it was first changed, and the index is looked at far more often than that.
FILES_EVERY = 0.05
#: How long (s) a call waits for another process's lock on the database before it is refused.
BUSY_WAIT = 30.0


class SQLiteStore(Store):
    """The embedded default: one file, WAL mode, shared by every server process on the machine."""

    def __init__(self, path: str | Path, sync: str = "normal") -> None:
        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.health = StoreHealth("the SQLite database")
        #: The WAL index found immutable (``_guard``): until it is not, nothing touches SQLite.
        self._blocked: str | None = None
        self._flags = IndexFlags(self.path)
        self._files_next = 0.0  # (``time.monotonic``: when ``_guard`` looks at the files next)
        self._conn = sqlite3.connect(self.path, timeout=BUSY_WAIT, isolation_level=None, check_same_thread=False)
        _into_wal(self._conn)
        self._conn.execute(f"PRAGMA synchronous={'FULL' if sync == 'full' else 'NORMAL'}")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.execute(f"PRAGMA busy_timeout={int(BUSY_WAIT * 1000)}")
        self._conn.execute("PRAGMA mmap_size=0")  # (see the module's docstring)
        # The WAL is checkpointed by a thread of its own (``_Checkpointer``), not by whichever commit
        # crosses SQLite's threshold: that commit would stall the event loop for the copy and its fsyncs.
        self._conn.execute("PRAGMA wal_autocheckpoint=0")
        self._conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        self._data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        self._checkpointer = _Checkpointer(self.path, lambda: self._blocked is not None)
        self._checkpointer.start()

    @property
    def kind(self) -> str:
        return "sqlite"

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._lock:
            if self._depth:  # in a transaction: ``_outermost`` guards and answers for it
                return self._conn.execute(sql, params).rowcount
            if self._blocked is not None or time.monotonic() >= self._files_next or self.health.state != UP:
                self._guard(write=True)  # (not on the way of every call: only the clock is read there)
            try:
                count = self._conn.execute(sql, params).rowcount
            except sqlite3.Error as error:
                self._failed(error, write=True)
                raise
            if self.health.state != UP:
                self.health.worked(wrote=True)
            return count

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            if self._depth:
                return self._conn.execute(sql, params).fetchall()
            if self._blocked is not None or time.monotonic() >= self._files_next or self.health.state != UP:
                self._guard(write=False)
            try:
                rows = self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as error:
                self._failed(error, write=False)
                raise
            if self.health.state != UP:
                self.health.worked(wrote=False)
            return rows

    @contextmanager
    def _outermost(self) -> Iterator[None]:
        if self._blocked is not None or time.monotonic() >= self._files_next or self.health.state != UP:
            self._guard(write=True)
        try:
            self._conn.execute("BEGIN IMMEDIATE")  # the write lock now: serialises racing servers
            try:
                yield
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:  # (a failed COMMIT may leave it open, or SQLite rolled it back)
                    self._conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            self._failed(error, write=True)
            raise
        if self.health.state != UP:
            self.health.worked(wrote=True)

    def _guard(self, write: bool) -> None:
        """Before SQLite is touched (the store's lock held): refused at once while a file of the database is
        immutable (looked at every ``FILES_EVERY`` s, and on every call while one is), and while the store
        cannot be reached or (``write``) written, but for one try per interval (``StoreHealth.check``)."""
        now = time.monotonic()
        if self._blocked is not None or now >= self._files_next:
            self._files_next = now + FILES_EVERY
            self._blocked = self._flags.name if self._flags.immutable() else None
            if self._blocked is not None:
                raise self.health.failed(UNREACHABLE, f"{self._blocked} is immutable")
        self.health.check(write)

    def _failed(self, error: sqlite3.Error, write: bool) -> None:
        """Raise ``StorageUnavailable`` for an error of SQLite's that says the database cannot be reached or
        written now; return for the others (a constraint, a bug), which the caller raises as they are."""
        code = getattr(error, "sqlite_errorcode", None)
        primary = None if code is None else code & 0xFF
        if primary in BUSY:
            raise self.health.busy("another process holds its lock") from error
        failure = _failure(primary, write)
        if failure is not None:
            raise self.health.failed(*failure) from error

    def written_elsewhere(self) -> bool:
        """SQLite's ``data_version`` changes when another connection (another server process) commits;
        this process's own commits, and checkpoints, leave it as it is."""
        with self._lock:
            if self._blocked is not None or time.monotonic() >= self._files_next or self.health.state != UP:
                self._guard(write=False)
            try:
                version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.Error as error:
                self._failed(error, write=False)
                raise
        changed, self._data_version = version != self._data_version, version
        return bool(changed)

    def push_key(self, made_pem: str, now: float) -> str:
        """The servers' VAPID private key (PEM), kept in a file of its own beside the database (mode 0600,
        ``PUSH_KEY_FILE``) rather than in it: the one there, else ``made_pem``, written now. Server processes
        starting together each write a temporary file and link it into place, which only the first manages
        (a link never replaces a file), so every one reads the same whole key."""
        folder = self.path.parent
        path = folder / PUSH_KEY_FILE
        if not path.exists():
            temporary = folder / f".{PUSH_KEY_FILE}.{os.getpid()}.tmp"
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as file:
                file.write(made_pem)
                file.flush()
                os.fsync(file.fileno())
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass  # another process was first: its key it is
            finally:
                temporary.unlink()
        return path.read_text()

    def close(self) -> None:
        self._checkpointer.stop()
        with self._lock:
            if not self._flags.immutable():  # (closing would checkpoint into it: see the docstring)
                self._conn.close()


def _into_wal(conn: sqlite3.Connection) -> None:
    """Put the database in WAL mode (it stays so: the mode is kept in the file). The first connections to a
    new file, from servers starting together, race to switch it, and SQLite answers the losers "locked" at
    once rather than after its busy wait (the switch needs the file to itself): they ask again, and find it
    switched."""
    deadline = time.monotonic() + BUSY_WAIT
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF not in BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


#: SQLite's primary result codes (``sqlite3.Error.sqlite_errorcode & 0xff``) that are no outage but a wait.
BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
#: ... and those that say the database cannot be written, or reached: what it puts the store in, and why.
CANNOT_WRITE = {13: "the disk is full", 8: "the file is read-only", 3: "the file is read-only", 10: "a disk error"}
CANNOT_OPEN = {14: "a file of the database cannot be opened"}


def _failure(primary: int | None, write: bool) -> tuple[State, str] | None:
    """The state an error of SQLite's puts the store in, and why; None for one that is no outage.

    >>> _failure(13, True), _failure(10, False), _failure(19, True)
    (('read_only', 'the disk is full'), ('unreachable', 'a disk error'), None)
    """
    if primary in CANNOT_WRITE:
        return (READ_ONLY if write else UNREACHABLE), CANNOT_WRITE[primary]
    if primary in CANNOT_OPEN:
        return UNREACHABLE, CANNOT_OPEN[primary]
    return None


#: ``statx``'s attributes of a file (``chattr``) that forbid writing to it: immutable, append-only.
IMMUTABLE_ATTRIBUTES = 0x10 | 0x20  # STATX_ATTR_IMMUTABLE, STATX_ATTR_APPEND
_AT_FDCWD = -100
_STATX = getattr(ctypes.CDLL(None, use_errno=True), "statx", None) if sys.platform.startswith("linux") else None


class IndexFlags:
    """A look at whether the database's mapped file, its WAL index (``-shm``), is immutable or append-only:
    none of its pages may be written then (the database and its ``-wal`` are written by ``write``, which
    fails with an error SQLite reports: ``_failed``). Read by ``statx`` from the file's name: opening the file
    and closing it again would let go of every lock SQLite holds on it in this process (POSIX locks belong
    to the process and the file, not to the descriptor). One system call a look, its name and buffer made
    once. (Linux; a file system without the attributes, or another system, has none.) One per thread."""

    def __init__(self, path: Path) -> None:
        self.name = f"{path.name}-shm"
        self._path = os.fsencode(f"{path}-shm")
        self._found = ctypes.create_string_buffer(256)  # struct statx

    def immutable(self) -> bool:
        if _STATX is None or _STATX(_AT_FDCWD, self._path, 0, 0, self._found) != 0:  # (not there)
            return False
        return bool(int.from_bytes(self._found.raw[8:16], sys.byteorder) & IMMUTABLE_ATTRIBUTES)  # stx_attributes


#: The servers' VAPID key's file in the data folder, beside the database (``SQLiteStore.push_key``).
PUSH_KEY_FILE = "vapid_private.pem"
#: Seconds between two checkpoints of the WAL (``_Checkpointer``).
CHECKPOINT_EVERY = 1.0
#: The WAL file is cut back to this size (bytes) after a checkpoint has emptied it.
WAL_SIZE_LIMIT = 64 * 1024 * 1024


class _Checkpointer(threading.Thread):
    """Copies the WAL's committed pages back into the database file, once a second, on its own
    connection. SQLite would otherwise do it inside the commit that crosses 1,000 pages: a pause of
    that request for the copy and two fsyncs, about a quarter of a move's cost under load
    (benchmarks/matches.py). A PASSIVE checkpoint never waits for, or blocks, the server's reads
    and writes; the sqlite3 module lets go of the GIL while it works. Durability is unchanged: a
    commit is in the WAL before it is acknowledged, checkpointed or not. While a file of the database
    is immutable (the store's ``blocked``, or found so here), it does nothing (see the module's docstring)."""

    def __init__(self, path: Path, blocked: Callable[[], bool]) -> None:
        super().__init__(name=f"sqlite-checkpoint {path.name}", daemon=True)
        self.path = path
        self.blocked = blocked
        self._flags = IndexFlags(path)
        self._stopping = threading.Event()

    def run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        except sqlite3.Error:
            return
        try:
            while not self._stopping.wait(CHECKPOINT_EVERY):
                if self.blocked() or self._flags.immutable():
                    continue
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # the file gone or locked for long, the disk full: try again next time
                    if not self.path.exists():
                        return
        finally:
            if not self._flags.immutable():
                conn.close()

    def stop(self) -> None:
        self._stopping.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(timeout=5)

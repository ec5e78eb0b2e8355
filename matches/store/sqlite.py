"""The embedded default store: one SQLite file in WAL mode, shared by every server process on the
machine, its write-ahead log checkpointed by a thread of its own."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from matches.store.base import Store


class SQLiteStore(Store):
    """The embedded default: one file, WAL mode, shared by every server process on the machine."""

    def __init__(self, path: str | Path, sync: str = "normal") -> None:
        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute(f"PRAGMA synchronous={'FULL' if sync == 'full' else 'NORMAL'}")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.execute("PRAGMA busy_timeout=30000")
        # The WAL is checkpointed by a thread of its own (``_Checkpointer``), not by whichever commit
        # crosses SQLite's threshold: that commit would stall the event loop for the copy and its fsyncs.
        self._conn.execute("PRAGMA wal_autocheckpoint=0")
        self._conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        self._data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        self._checkpointer = _Checkpointer(self.path)
        self._checkpointer.start()

    @property
    def kind(self) -> str:
        return "sqlite"

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._lock:
            return self._conn.execute(sql, params).rowcount

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    @contextmanager
    def _outermost(self) -> Iterator[None]:
        self._conn.execute("BEGIN IMMEDIATE")  # the write lock now: serialises racing servers
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        else:
            self._conn.execute("COMMIT")

    def written_elsewhere(self) -> bool:
        """SQLite's ``data_version`` changes when another connection (another server process) commits;
        this process's own commits, and checkpoints, leave it as it is."""
        with self._lock:
            version = self._conn.execute("PRAGMA data_version").fetchone()[0]
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
            self._conn.close()


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
    commit is in the WAL before it is acknowledged, checkpointed or not."""

    def __init__(self, path: Path) -> None:
        super().__init__(name=f"sqlite-checkpoint {path.name}", daemon=True)
        self.path = path
        self._stopping = threading.Event()

    def run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        except sqlite3.Error:
            return
        try:
            while not self._stopping.wait(CHECKPOINT_EVERY):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # the file gone or locked for long: try again next time
                    if not self.path.exists():
                        return
        finally:
            conn.close()

    def stop(self) -> None:
        self._stopping.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(timeout=5)

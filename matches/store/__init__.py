"""Where matches live: an event log per match, in SQLite (the embedded default) or PostgreSQL.

A match is its game, options, secret seed, seats and move log; its state is rebuilt by replaying
the log (the engines are deterministic), with snapshots to start from. Both stores run the same
SQL and pass the same tests (``tests/matches/test_store.py``).

Moves on one match are serialised by the database, not by a lock in one process: a move is stored
by one transaction that moves the match from version N to N+1 *only if it is still at N*; of two
servers racing, one wins and the other is told its version is stale. A move is acknowledged only
after that transaction has committed (store before you tell).

- **SQLite** (``sqlite:///path`` or just a path): WAL mode. Several server processes on one machine
  share the file.
- **PostgreSQL** (``postgresql://...``): for several machines; each commit also sends a
  ``NOTIFY`` so that every server's live sockets hear of every move.

Every server hears of the others' changes through the store's change feed (``Store.changes_feed``):
SQLite's looks at the versions of the matches watched a few times a second, PostgreSQL's listens for
the notifications; both catch up from the versions the listener was told (``Store.catch_up``).

Durability (``sync``, ``TABLEJUDGE_SYNC``): ``normal`` (the default) keeps every committed move
when the server is killed (SQLite ``synchronous=NORMAL`` in WAL mode; PostgreSQL
``synchronous_commit=off``: the database has the commit before it answers, and flushes it within
a fraction of a second); ``full`` also keeps it when the machine loses power, at an fsync per move.

The package: ``Store`` (``matches.store.base``: the one interface, and the SQL both run),
``SQLiteStore`` (``.sqlite``), ``PostgresStore`` (``.postgres``), the rows (``.rows``), the schema's
migrations (``.schema``), the shared statements (``.sql``) and whether the store can be used now
(``.health``: ``StorageUnavailable``, 503, while it cannot be reached or written); ``open_store`` picks
one by URL.
"""

from __future__ import annotations

from matches.store.base import Store
from matches.store.health import StorageUnavailable, StoreHealth
from matches.store.postgres import PostgresStore
from matches.store.rows import Call, Change, CommitCheck, MatchRow, MoveRow, PushRow, SeatRow, Told
from matches.store.schema import MIGRATIONS, NOTIFY_CHANNEL, SCHEMA_VERSION
from matches.store.sqlite import SQLiteStore

__all__ = [
    "MIGRATIONS",
    "NOTIFY_CHANNEL",
    "SCHEMA_VERSION",
    "Call",
    "Change",
    "CommitCheck",
    "MatchRow",
    "MoveRow",
    "PostgresStore",
    "PushRow",
    "SQLiteStore",
    "SeatRow",
    "StorageUnavailable",
    "Store",
    "StoreHealth",
    "Told",
    "open_store",
]


def open_store(url: str, sync: str = "normal") -> Store:
    """A store from a URL: ``postgresql://...`` or a SQLite file (``sqlite:///path`` or a path)."""
    if url.startswith(("postgresql://", "postgres://")):
        store: Store = PostgresStore(url, sync=sync)
    else:
        store = SQLiteStore(url.removeprefix("sqlite://"), sync=sync)
    store.migrate()
    return store

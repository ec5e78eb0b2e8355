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
  ``NOTIFY`` so that every server's live sockets hear of every move (``matches.live``).

Durability (``sync``, ``TABLEJUDGE_SYNC``): ``normal`` (the default) keeps every committed move
when the server is killed (SQLite ``synchronous=NORMAL`` in WAL mode; PostgreSQL
``synchronous_commit=off``: the database has the commit before it answers, and flushes it within
a fraction of a second); ``full`` also keeps it when the machine loses power, at an fsync per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from indexes.house_rules import HouseRules

#: Each schema version's statements, applied in order on first start (versioned migrations).
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE matches (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            seats INTEGER NOT NULL,
            seed BIGINT NOT NULL,
            status TEXT NOT NULL,
            public INTEGER NOT NULL,
            invite_hash TEXT NOT NULL,
            clock TEXT,
            clock_state TEXT,
            version INTEGER NOT NULL,
            epoch INTEGER,
            epoch_started DOUBLE PRECISION,
            due DOUBLE PRECISION,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL,
            rematch TEXT,
            rematch_of TEXT,
            lexicon TEXT
        )""",
        """CREATE TABLE seats (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            name TEXT,
            token_hash TEXT,
            bot TEXT,
            joined DOUBLE PRECISION,
            left_at DOUBLE PRECISION,
            seen DOUBLE PRECISION,
            PRIMARY KEY (match_id, seat)
        )""",
        """CREATE TABLE moves (
            match_id TEXT NOT NULL REFERENCES matches(id),
            version INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            move TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (match_id, version)
        )""",
        """CREATE TABLE snapshots (
            match_id TEXT NOT NULL REFERENCES matches(id),
            version INTEGER NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (match_id, version)
        )""",
        "CREATE INDEX matches_listing ON matches (status, public, created)",
        "CREATE INDEX matches_due ON matches (due)",
    ],
    [
        # House rules (issue 17): a table's overlay on the lexicon, which a match or a challenge names by
        # id. A row never changes once made (its id is a digest of its content).
        """CREATE TABLE house_rules (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            allow_words TEXT NOT NULL,
            deny_words TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL
        )""",
        "ALTER TABLE matches ADD COLUMN house_rules TEXT",
    ],
    [
        # A match's revision moves with every write to its row or its seats but a seat's ``seen``
        # (the version moves with moves only): a server's copy of a match is the stored one when
        # their revisions agree, which lets a move be committed on the copy without a read first.
        "ALTER TABLE matches ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
    ],
    [
        # Quotas (issue 24): who created a match (a digest of the client's address, never the address),
        # so that the matches waiting for players are counted per client; and each server process's
        # last sign of life, so that a restart knows how long no server ran the clocks.
        "ALTER TABLE matches ADD COLUMN creator TEXT",
        "CREATE INDEX matches_waiting ON matches (status, creator)",
        """CREATE TABLE servers (
            id TEXT PRIMARY KEY,
            alive DOUBLE PRECISION NOT NULL
        )""",
    ],
    [
        # Turn alerts (issue 27, Web Push; matches/push.py): each seat's browsers' push subscriptions. The
        # seat's token digest at subscription time rides along, so that a subscription made by a seat's
        # person never reaches whoever holds the seat next (a seat freed before the start, or left).
        """CREATE TABLE push_subscriptions (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            endpoint TEXT NOT NULL,
            p256dh TEXT NOT NULL,
            auth TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (match_id, seat, endpoint)
        )""",
        # The server's VAPID key with PostgreSQL (several servers on several machines must sign with the
        # same key: a browser's subscription is bound to it). With SQLite it is a file in the data folder.
        """CREATE TABLE push_keys (
            id TEXT PRIMARY KEY,
            private_pem TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL
        )""",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
NOTIFY_CHANNEL = "tablejudge_moves"


@dataclass
class MatchRow:
    id: str
    game: str
    options: dict[str, Any]
    seats: int
    seed: int
    status: str
    public: bool
    invite_hash: str
    clock: dict[str, Any] | None
    clock_state: dict[str, Any] | None
    version: int
    epoch: int | None
    epoch_started: float | None
    due: float | None
    created: float
    updated: float
    rematch: str | None = None
    rematch_of: str | None = None
    lexicon: str | None = None
    #: The id of the house rules the match is judged under (None: the lexicon alone).
    house_rules: str | None = None
    #: Moves with every write to the row or the match's seats but a seat's ``seen``, and with a new push
    #: subscription (``CommitCheck``; ``matches.push``).
    revision: int = 0
    #: Who created it: a digest of the client's address (``matches.quotas``), None if not known.
    creator: str | None = None

    def copy(self) -> MatchRow:
        """A copy with the same values (``dataclasses.replace`` calls ``__init__``: 7x the time,
        on every move made on a process's copy)."""
        copied = object.__new__(MatchRow)
        copied.__dict__.update(self.__dict__)
        return copied


JSON_COLUMNS = ("options", "clock", "clock_state")
MATCH_COLUMNS = [f.name for f in fields(MatchRow)]
#: A match's columns, then a seat's, one line per seat (``_match_and_seats`` reads them).
MATCH_AND_SEAT_COLUMNS = (
    f"{', '.join(f'm.{name}' for name in MATCH_COLUMNS)}, "
    "s.seat, s.name, s.token_hash, s.bot, s.joined, s.left_at, s.seen"
)
MATCH_AND_SEATS = (
    f"SELECT {MATCH_AND_SEAT_COLUMNS} "
    "FROM matches m LEFT JOIN seats s ON s.match_id = m.id WHERE m.id = ? ORDER BY s.seat"
)


@dataclass
class SeatRow:
    seat: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    joined: float | None = None
    left_at: float | None = None
    #: When a live socket of this seat's last answered a heartbeat (presence across servers).
    seen: float | None = None

    @property
    def free(self) -> bool:
        return self.token_hash is None and self.bot is None


@dataclass(frozen=True)
class PushRow:
    """A browser's Web Push subscription for a seat (``matches.push``): where to send, and its keys."""

    seat: int
    endpoint: str
    #: The browser's P-256 public key and auth secret, base64url, as its subscription gives them.
    p256dh: str
    auth: str
    #: The digest of the seat's token when it subscribed: sent only while the seat still holds it.
    token_hash: str
    created: float


@dataclass(frozen=True)
class MoveRow:
    version: int
    seat: int
    move: str
    at: float


class CommitCheck(NamedTuple):
    """What a commit made on a server's copy of a match, not on a fresh read, also checks: the match
    is still at the copy's revision (nothing else was written since), and the token still holds the
    seat. Either failing, the commit writes nothing and the gate runs again on a fresh read."""

    revision: int
    seat: int
    token_hash: str


def _commit_where(check: CommitCheck | None) -> tuple[str, list[Any]]:
    """The condition of a move's ``UPDATE matches`` after ``id = ? AND version = ?``, and its params."""
    if check is None:
        return "", []
    return (
        " AND revision = ? AND EXISTS (SELECT 1 FROM seats WHERE seats.match_id = matches.id "
        "AND seats.seat = ? AND seats.token_hash = ?)",
        [check.revision, check.seat, check.token_hash],
    )


class Call(NamedTuple):
    """A store call the match service's core asks for, by method name: ``Store.call_async`` (or a
    plain call) makes it and the answer is sent back (``matches.service``: the core is sans-I/O).
    A named tuple: one is made for every store call on a move's path."""

    method: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = {}  # noqa: RUF012 (never changed: read as keyword arguments)


class Store:
    """The SQL both databases run; subclasses connect and translate the few differences."""

    placeholder = "?"
    #: Does ``call_async`` really wait (a network round trip), so that other requests run meanwhile?
    #: If not, the service's async gate makes its calls directly, with no lock to take.
    awaits = False

    def __init__(self) -> None:
        self._lock = threading.RLock()  # one connection per process, shared by its threads

    # --- what a subclass provides --------------------------------------------------------------
    def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        raise NotImplementedError

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    @contextmanager
    def transaction(self) -> Iterator[None]:
        raise NotImplementedError
        yield  # pragma: no cover

    def _notify(self, match_id: str, version: int, changed: bool = False) -> None:
        """Tell other servers that a match moved, or (``changed``) changed otherwise, inside the
        committing transaction."""

    def close(self) -> None:
        raise NotImplementedError

    @property
    def kind(self) -> str:
        raise NotImplementedError

    async def call_async(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """A store method from the event loop. Here it is simply called: SQLite's calls are local and
        short. PostgreSQL awaits its round trips instead (``PostgresStore.call_async``)."""
        return getattr(self, method)(*args, **kwargs)

    def written_elsewhere(self) -> bool:
        """Whether another connection may have changed the database since this was last asked: a
        server that polls for other servers' moves skips the poll when it says no."""
        return True

    # --- schema ------------------------------------------------------------------------------------
    def migrate(self) -> int:
        """Create or upgrade the schema; the version it is at."""
        with self.transaction():
            self._execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            rows = self._query("SELECT version FROM schema_version")
            current = rows[0][0] if rows else 0
            if current > SCHEMA_VERSION:
                raise RuntimeError(f"the database is at schema {current}, newer than this server's {SCHEMA_VERSION}")
            for statements in MIGRATIONS[current:]:
                for statement in statements:
                    self._execute(statement)
            if rows:
                self._execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))
            else:
                self._execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
        return SCHEMA_VERSION

    # --- matches -------------------------------------------------------------------------------------
    def create_match(self, match: MatchRow, seats: list[SeatRow]) -> None:
        values = [_to_column(name, getattr(match, name)) for name in MATCH_COLUMNS]
        with self.transaction():
            self._execute(
                f"INSERT INTO matches ({', '.join(MATCH_COLUMNS)}) VALUES ({', '.join('?' * len(MATCH_COLUMNS))})",
                values,
            )
            for seat in seats:
                self._execute(
                    "INSERT INTO seats (match_id, seat, name, token_hash, bot, joined, left_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (match.id, seat.seat, seat.name, seat.token_hash, seat.bot, seat.joined, seat.left_at),
                )

    def match_and_seats(self, match_id: str) -> tuple[MatchRow, list[SeatRow]] | None:
        """The match's row and its seats in one query (what every request reads first)."""
        return _match_and_seats(self._query(MATCH_AND_SEATS, (match_id,)))

    def match_and_moves(self, match_id: str, since: int | None) -> tuple[MatchRow, list[SeatRow], list[MoveRow]] | None:
        """The match's row, its seats, and the moves after version ``since`` (none when ``since`` is
        None): what a server holding the match at ``since`` reads to catch up. Here two local queries;
        PostgreSQL makes it one round trip (``PostgresStore.call_async``)."""
        found = self.match_and_seats(match_id)
        if found is None:
            return None
        row, seats = found
        missed = [] if since is None or since >= row.version else self.moves(match_id, since)
        return row, seats, missed

    def match(self, match_id: str) -> MatchRow | None:
        rows = self._query(f"SELECT {', '.join(MATCH_COLUMNS)} FROM matches WHERE id = ?", (match_id,))
        return _match(rows[0]) if rows else None

    def version(self, match_id: str) -> int | None:
        return _version(self._query(VERSION, (match_id,)))

    def versions(self, match_ids: Sequence[str]) -> dict[str, int]:
        return {match_id: version for match_id, (version, _) in self.changes(match_ids).items()}

    def changes(self, match_ids: Sequence[str]) -> dict[str, tuple[int, float]]:
        """Each match's version and when it last changed (a move, a seat taken or left, the start, a
        rematch): what a server polls to hear of what other servers did."""
        if not match_ids:
            return {}
        marks = ", ".join("?" * len(match_ids))
        rows = self._query(f"SELECT id, version, updated FROM matches WHERE id IN ({marks})", match_ids)
        return {mid: (int(v), float(u)) for mid, v, u in rows}

    def touch(self, match_id: str, now: float) -> None:
        """Mark a change that is not a move (a seat taken or left, a rematch), so that every server's
        sockets hear of it: ``updated`` for those that poll, a notification for those that listen."""
        with self.transaction():
            self._execute("UPDATE matches SET updated = ?, revision = revision + 1 WHERE id = ?", (now, match_id))
            rows = self._query("SELECT version FROM matches WHERE id = ?", (match_id,))
            if rows:
                self._notify(match_id, int(rows[0][0]), changed=True)

    def seats(self, match_id: str) -> list[SeatRow]:
        rows = self._query(
            "SELECT seat, name, token_hash, bot, joined, left_at, seen FROM seats WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [SeatRow(*row) for row in rows]

    def listing(self, status: str, limit: int = 50) -> list[MatchRow]:
        rows = self._query(
            f"SELECT {', '.join(MATCH_COLUMNS)} FROM matches "
            "WHERE status = ? AND public = 1 ORDER BY created DESC LIMIT ?",
            (status, limit),
        )
        return [_match(row) for row in rows]

    def take_seat(self, match_id: str, seat: int, name: str, token_hash: str, now: float) -> bool:
        """Give a free seat to a person; False if someone took it first."""
        with self.transaction():
            taken = (
                self._execute(
                    "UPDATE seats SET name = ?, token_hash = ?, joined = ? "
                    "WHERE match_id = ? AND seat = ? AND token_hash IS NULL AND bot IS NULL",
                    (name, token_hash, now, match_id, seat),
                )
                == 1
            )
            if taken:
                self._revise(match_id)
            return taken

    def update_seat(self, match_id: str, seat: int, **values: Any) -> None:
        names = ", ".join(f"{key} = ?" for key in values)
        with self.transaction():
            self._execute(
                f"UPDATE seats SET {names} WHERE match_id = ? AND seat = ?", (*values.values(), match_id, seat)
            )
            if set(values) != {"seen"}:  # a socket's heartbeat changes nothing the gate reads
                self._revise(match_id)

    def _revise(self, match_id: str) -> None:
        """A write to a match's seats moves its revision (in the writing transaction)."""
        self._execute("UPDATE matches SET revision = revision + 1 WHERE id = ?", (match_id,))

    def update_match(self, match_id: str, expected_version: int | None = None, **values: Any) -> bool:
        """Change match fields (only if still at ``expected_version``, when given)."""
        names = ", ".join([*(f"{key} = ?" for key in values), "revision = revision + 1"])
        params = [_to_column(key, value) for key, value in values.items()]
        where = "id = ?" + ("" if expected_version is None else " AND version = ?")
        params += [match_id] + ([] if expected_version is None else [expected_version])
        with self.transaction():
            return self._execute(f"UPDATE matches SET {names} WHERE {where}", params) == 1

    # --- house rules ---------------------------------------------------------------------------------
    # The store keeps house rules for the judge and the match server alike (``indexes.house_rules``'
    # ``HouseRulesStore``, which says why here); neither service reaches them but through a HouseRulesBook.
    def save_house_rules(self, rules: HouseRules, created: float) -> None:
        """Keep an overlay; the same one saved twice (the same id: the same content) is kept once."""
        with self.transaction():
            self._execute(
                "INSERT INTO house_rules (id, name, allow_words, deny_words, created) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO NOTHING",
                (rules.id, rules.name, json.dumps(list(rules.allow)), json.dumps(list(rules.deny)), created),
            )

    def load_house_rules(self, rules_id: str) -> HouseRules | None:
        """The rules kept under this id, checked again as they are made (None: no such id)."""
        rows = self._query("SELECT name, allow_words, deny_words FROM house_rules WHERE id = ?", (rules_id,))
        if not rows:
            return None
        name, allow, deny = rows[0]
        return HouseRules.make(name, json.loads(allow), json.loads(deny))

    # --- moves -------------------------------------------------------------------------------------
    def commit_move(
        self, match_id: str, expected_version: int, move: MoveRow, check: CommitCheck | None = None, **values: Any
    ) -> bool:
        """Store ``move`` as version ``expected_version + 1`` and change the match row, atomically, only
        if the match is still at ``expected_version`` (and passes ``check``, when given). False:
        another move got there first (or the check failed)."""
        assert move.version == expected_version + 1
        names = ", ".join([*(f"{key} = ?" for key in ("version", *values)), "revision = revision + 1"])
        params = [move.version, *(_to_column(key, value) for key, value in values.items()), match_id, expected_version]
        checked, check_params = _commit_where(check)
        with self.transaction():
            if (
                self._execute(
                    f"UPDATE matches SET {names} WHERE id = ? AND version = ?{checked}", params + check_params
                )
                != 1
            ):
                return False
            self._execute(
                "INSERT INTO moves (match_id, version, seat, move, at) VALUES (?, ?, ?, ?, ?)",
                (match_id, move.version, move.seat, move.move, move.at),
            )
            self._notify(match_id, move.version)
        return True

    def moves(self, match_id: str, since: int = 0) -> list[MoveRow]:
        return _moves(self._query(MOVES_SINCE, (match_id, since)))

    def save_snapshot(self, match_id: str, version: int, state: dict[str, Any]) -> None:
        """Keep ``state`` as the match's snapshot at ``version``, in place of the one before."""
        with self.transaction():
            self._execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
            self._execute(
                "INSERT INTO snapshots (match_id, version, state) VALUES (?, ?, ?)",
                (match_id, version, _snapshot_text(state)),
            )

    def snapshot(self, match_id: str) -> tuple[int, dict[str, Any]] | None:
        return _snapshot(self._query(LATEST_SNAPSHOT, (match_id,)))

    def due(self, now: float, limit: int = 100) -> list[str]:
        """Matches with something due now (a clock run out, a bot to move, a window to close)."""
        return _due(self._query(DUE, (now, limit)))

    def next_due(self) -> float | None:
        return _next_due(self._query(NEXT_DUE))

    # --- quotas and upkeep (``matches.quotas``) ----------------------------------------------------------
    def waiting_counts(self, creator: str | None) -> tuple[int, int]:
        """Matches waiting for players: (created by ``creator``, in all)."""
        total = int(self._query("SELECT COUNT(*) FROM matches WHERE status = 'waiting'")[0][0])
        if creator is None:
            return 0, total
        mine = self._query("SELECT COUNT(*) FROM matches WHERE status = 'waiting' AND creator = ?", (creator,))
        return int(mine[0][0]), total

    def expire_waiting(self, before: float, limit: int = 500) -> list[str]:
        """Remove up to ``limit`` matches still waiting for players that nobody joined since ``before``
        (no seat taken since: the creator's and the bots' seats count as taken at creation); their ids.
        A waiting match has no moves or snapshots, but they would go too."""
        with self.transaction():
            rows = self._query(
                "SELECT id FROM matches m WHERE status = 'waiting' AND created < ? AND NOT EXISTS "
                "(SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.joined >= ?) ORDER BY created LIMIT ?",
                (before, before, limit),
            )
            expired = [str(row[0]) for row in rows]
            if expired:
                marks = ", ".join("?" * len(expired))
                for table in ("seats", "moves", "snapshots", "push_subscriptions"):
                    self._execute(f"DELETE FROM {table} WHERE match_id IN ({marks})", expired)
                self._execute(f"DELETE FROM matches WHERE id IN ({marks}) AND status = 'waiting'", expired)
        return expired

    def heartbeat(self, server: str, now: float) -> None:
        """This server process is alive at ``now`` (written every ``matches.quotas.HEARTBEAT`` seconds)."""
        with self.transaction():
            self._execute(
                "INSERT INTO servers (id, alive) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET alive = excluded.alive",
                (server, now),
            )

    def forget_server(self, server: str) -> None:
        with self.transaction():
            self._execute("DELETE FROM servers WHERE id = ?", (server,))

    def resume_clocks(self, server: str, now: float, alive_within: float) -> float:
        """On a server's start, before its scheduler runs: if no other server has been alive within
        ``alive_within`` seconds, nobody ran the clocks since the last sign of life, and every running
        match's clock, deadlines and real-time epoch are pushed back by that downtime, so that it is
        charged to no one. Registers ``server`` as alive; answers the downtime made good (0: none)."""
        with self.transaction():
            self._execute("UPDATE servers SET alive = alive")  # PostgreSQL: holds the rows until the commit
            seen = [(str(name), float(alive)) for name, alive in self._query("SELECT id, alive FROM servers")]
            others = [alive for name, alive in seen if name != server]
            last = max(others, default=None)
            downtime = 0.0 if last is None or last >= now - alive_within else now - last
            if downtime > 0:
                self._shift_running(downtime)
            self._execute("DELETE FROM servers WHERE alive < ?", (now - max(alive_within, 86_400.0),))
            self._execute(
                "INSERT INTO servers (id, alive) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET alive = excluded.alive",
                (server, now),
            )
        return downtime

    def _shift_running(self, seconds: float) -> None:
        """Every running match's times that count down, ``seconds`` later (in the caller's transaction)."""
        self._execute(
            "UPDATE matches SET due = due + ?, epoch_started = epoch_started + ?, revision = revision + 1 "
            "WHERE status = 'playing'",
            (seconds, seconds),
        )
        rows = self._query("SELECT id, clock_state FROM matches WHERE status = 'playing' AND clock_state IS NOT NULL")
        for match_id, text in rows:
            state = orjson.loads(text)
            for key in ("since", "deadline"):
                if isinstance(state.get(key), int | float):
                    state[key] += seconds
            shifted = _to_column("clock_state", state)
            self._execute("UPDATE matches SET clock_state = ? WHERE id = ?", (shifted, match_id))

    # --- turn alerts: Web Push subscriptions per seat (``matches.push``) --------------------------------
    def add_push(self, match_id: str, row: PushRow, limit: int) -> bool:
        """Keep a seat's subscription (the same endpoint again: its keys replaced); False when the seat
        already has ``limit`` others (a phone and a laptop, not a farm)."""
        with self.transaction():
            held = self._query(
                "SELECT endpoint FROM push_subscriptions WHERE match_id = ? AND seat = ?", (match_id, row.seat)
            )
            if row.endpoint not in {str(found[0]) for found in held} and len(held) >= limit:
                return False
            self._execute(
                "INSERT INTO push_subscriptions (match_id, seat, endpoint, p256dh, auth, token_hash, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat, endpoint) DO UPDATE SET "
                "p256dh = excluded.p256dh, auth = excluded.auth, token_hash = excluded.token_hash",
                (match_id, row.seat, row.endpoint, row.p256dh, row.auth, row.token_hash, row.created),
            )
            # The match's revision moves with its subscriptions: a server that found none may skip a move's
            # alert only while the revisions it saw follow on one from the other (``matches.push``).
            self._execute("UPDATE matches SET revision = revision + 1 WHERE id = ?", (match_id,))
        return True

    def push_subscriptions(self, match_id: str) -> list[PushRow]:
        rows = self._query(
            "SELECT seat, endpoint, p256dh, auth, token_hash, created FROM push_subscriptions "
            "WHERE match_id = ? ORDER BY seat, created",
            (match_id,),
        )
        return [PushRow(int(seat), str(end), str(key), str(auth), str(hashed), float(at))
                for seat, end, key, auth, hashed, at in rows]  # fmt: skip

    def remove_push(self, match_id: str, seat: int | None = None, endpoint: str | None = None) -> int:
        """Forget a match's subscriptions: all, a seat's, or one endpoint's; how many went."""
        sql, params = "DELETE FROM push_subscriptions WHERE match_id = ?", list[Any]([match_id])
        if seat is not None:
            sql, params = sql + " AND seat = ?", [*params, seat]
        if endpoint is not None:
            sql, params = sql + " AND endpoint = ?", [*params, endpoint]
        with self.transaction():
            return self._execute(sql, params)

    def push_key(self, made_pem: str, now: float) -> str:
        """The servers' VAPID private key (PEM): the one stored, else ``made_pem``, stored now. Of servers
        starting together, the first insert wins and every one reads the winner back."""
        with self.transaction():
            self._execute(
                "INSERT INTO push_keys (id, private_pem, created) VALUES ('vapid', ?, ?) ON CONFLICT (id) DO NOTHING",
                (made_pem, now),
            )
            return str(self._query("SELECT private_pem FROM push_keys WHERE id = 'vapid'")[0][0])


VERSION = "SELECT version FROM matches WHERE id = ?"
DUE = "SELECT id FROM matches WHERE status = 'playing' AND due IS NOT NULL AND due <= ? ORDER BY due LIMIT ?"
NEXT_DUE = "SELECT MIN(due) FROM matches WHERE status = 'playing' AND due IS NOT NULL"
# PostgreSQL: the row, its seats and the moves after a version, in one round trip (the moves as one
# JSON array beside each seat's line, gathered once per match by the lateral join).
MATCH_SEATS_AND_MOVES = (
    f"SELECT {MATCH_AND_SEAT_COLUMNS}, missed.moves "
    "FROM matches m LEFT JOIN LATERAL ("
    "SELECT json_agg(json_build_array(v.version, v.seat, v.move, v.at) ORDER BY v.version)::text AS moves "
    "FROM moves v WHERE v.match_id = m.id AND v.version > ?) missed ON true "
    "LEFT JOIN seats s ON s.match_id = m.id WHERE m.id = ? ORDER BY s.seat"
)
# PostgreSQL: the match's snapshot replaced in one statement (its own transaction). The DELETE in the
# WITH sees the rows as they were before the statement, the new one not among them.
SAVE_SNAPSHOT = (
    "WITH dropped AS (DELETE FROM snapshots WHERE match_id = ?) "
    "INSERT INTO snapshots (match_id, version, state) VALUES (?, ?, ?)"
)
#: ``since`` for "no moves": no match reaches this version.
NO_MOVES = 2**31 - 1
MOVES_SINCE = "SELECT version, seat, move, at FROM moves WHERE match_id = ? AND version > ? ORDER BY version"
LATEST_SNAPSHOT = "SELECT version, state FROM snapshots WHERE match_id = ? ORDER BY version DESC LIMIT 1"


def _match_and_seats(rows: list[tuple[Any, ...]]) -> tuple[MatchRow, list[SeatRow]] | None:
    if not rows:
        return None
    width = len(MATCH_COLUMNS)
    seats = [SeatRow(*row[width:]) for row in rows if row[width] is not None]
    return _match(rows[0][:width]), seats


def _match_seats_and_moves(
    rows: list[tuple[Any, ...]],
) -> tuple[MatchRow, list[SeatRow], list[MoveRow]] | None:
    found = _match_and_seats([row[:-1] for row in rows])
    if found is None:
        return None
    missed = rows[0][-1]
    return found[0], found[1], [] if missed is None else _moves(orjson.loads(missed))


def _version(rows: list[tuple[Any, ...]]) -> int | None:
    return int(rows[0][0]) if rows else None


def _moves(rows: list[tuple[Any, ...]]) -> list[MoveRow]:
    return [MoveRow(int(v), int(s), m, float(a)) for v, s, m, a in rows]


def _snapshot(rows: list[tuple[Any, ...]]) -> tuple[int, dict[str, Any]] | None:
    return (int(rows[0][0]), json.loads(rows[0][1])) if rows else None


def _to_column(name: str, value: Any) -> Any:
    if name in JSON_COLUMNS:
        return None if value is None else json.dumps(value, separators=(",", ":"))
    if name == "public":
        return 1 if value else 0
    return value


def _due(rows: list[tuple[Any, ...]]) -> list[str]:
    return [row[0] for row in rows]


def _next_due(rows: list[tuple[Any, ...]]) -> float | None:
    return None if not rows or rows[0][0] is None else float(rows[0][0])


def _snapshot_text(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"))


def _match(row: tuple[Any, ...]) -> MatchRow:
    values = dict(zip(MATCH_COLUMNS, row, strict=True))
    for name in JSON_COLUMNS:  # orjson: every request reads a match row first
        values[name] = None if values[name] is None else orjson.loads(values[name])
    values["public"] = bool(values["public"])
    return MatchRow(**values)


# --- SQLite ------------------------------------------------------------------------------------------
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
        self._depth = 0
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
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._depth:  # nested: part of the outer transaction
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")  # the write lock now: serialises racing servers
            self._depth = 1
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._depth = 0

    def written_elsewhere(self) -> bool:
        """SQLite's ``data_version`` changes when another connection (another server process) commits;
        this process's own commits, and checkpoints, leave it as it is."""
        with self._lock:
            version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        changed, self._data_version = version != self._data_version, version
        return bool(changed)

    def close(self) -> None:
        self._checkpointer.stop()
        with self._lock:
            self._conn.close()


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


# --- PostgreSQL ----------------------------------------------------------------------------------------
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
        self._depth = 0
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
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._depth = 1
            try:
                with self._conn.transaction():
                    yield
            finally:
                self._depth = 0

    def _notify(self, match_id: str, version: int, changed: bool = False) -> None:
        payload = f"{match_id}:{version}" + (":changed" if changed else "")
        self._execute("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, payload))

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

    def notified_by_me(self, backend_pid: int) -> bool:
        """Was a notification from ``backend_pid`` sent by this store's own commits? Their moves
        were told to this process's sockets when committed (``MatchService._emit``)."""
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
    checked, check_params = _commit_where(check)
    params = [move.version, *(_to_column(key, value) for key, value in values.items()), match_id, expected_version]
    params += check_params
    params += [move.version, move.seat, move.move, move.at, NOTIFY_CHANNEL, f"{match_id}:{move.version}"]
    sql = (
        f"WITH moved AS (UPDATE matches SET {names} WHERE id = ? AND version = ?{checked} RETURNING id), "
        "stored AS (INSERT INTO moves (match_id, version, seat, move, at) SELECT id, ?, ?, ?, ? FROM moved "
        "RETURNING match_id) SELECT pg_notify(?, ?) FROM stored"
    )
    return sql, params


Rows = list[tuple[Any, ...]]
#: A store call made as one statement: its SQL, its parameters, and what its rows answer.
Statement = tuple[str, Sequence[Any], Callable[[Rows], Any]]

#: PostgreSQL's calls awaited on the event loop's connections (``PostgresStore.call_async``), by
#: store method, with that method's parameters: each one statement, its own transaction.
ON_THE_LOOP: dict[str, Callable[..., Statement]] = {
    "match_and_moves": lambda match_id, since: (
        MATCH_SEATS_AND_MOVES,
        (NO_MOVES if since is None else since, match_id),
        _match_seats_and_moves,
    ),
    "moves": lambda match_id, since=0: (MOVES_SINCE, (match_id, since), _moves),
    "snapshot": lambda match_id: (LATEST_SNAPSHOT, (match_id,), _snapshot),
    "version": lambda match_id: (VERSION, (match_id,), _version),
    "due": lambda now, limit=100: (DUE, (now, limit), _due),
    "next_due": lambda: (NEXT_DUE, (), _next_due),
    "save_snapshot": lambda match_id, version, state: (
        SAVE_SNAPSHOT,
        (match_id, match_id, version, _snapshot_text(state)),
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


def open_store(url: str, sync: str = "normal") -> Store:
    """A store from a URL: ``postgresql://...`` or a SQLite file (``sqlite:///path`` or a path)."""
    if url.startswith(("postgresql://", "postgres://")):
        store: Store = PostgresStore(url, sync=sync)
    else:
        store = SQLiteStore(url.removeprefix("sqlite://"), sync=sync)
    store.migrate()
    return store


def now() -> float:
    return time.time()

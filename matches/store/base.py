"""``Store``: the one interface of the match store, and the SQL that SQLite and PostgreSQL both run.
A subclass connects, runs a statement (``_execute``, ``_query``), opens a transaction
(``_outermost``) and may replace a call by a faster form of its own (``PostgresStore.commit_move``,
``call_async``, ``changes_feed``)."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncGenerator, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from indexes.house_rules import HouseRules
from matches.clock import shift_clock_state
from matches.store.health import StorageUnavailable, StoreHealth
from matches.store.rows import Change, CommitCheck, DeviceRow, MatchRow, MoveRow, PushRow, SeatRow, Told
from matches.store.schema import MIGRATIONS, SCHEMA_VERSION
from matches.store.sql import (
    DUE,
    LATEST_SNAPSHOT,
    MATCH_AND_SEATS,
    MATCH_COLUMNS,
    MOVES_SINCE,
    MOVES_SINCE_AT_MOST,
    NEXT_DUE,
    NO_MOVES,
    QUIET_SEAT_COLUMNS,
    VERSION,
    commit_where,
    read_due,
    read_match,
    read_match_and_seats,
    read_moves,
    read_next_due,
    read_snapshot,
    read_version,
    snapshot_text,
    to_column,
)

log = logging.getLogger("tablejudge.matches")

#: How often (seconds) a store without notifications looks for the changes other server processes made
#: (``Store.changes_feed``).
POLL = 0.2
#: How long a used or expired seat code is kept (s), so that a second try is told why it is refused.
SEAT_CODES_KEPT = 86_400.0
#: What redeeming a seat code did: the seat moved; or why not (no such code in this match, used
#: already, too late, or the seat has changed hands since the code was made).
SeatCodeAnswer = tuple[Literal["moved", "unknown", "used", "expired", "changed_hands"], int | None]
#: What spending a one-time code found: taken (used up now), or why not (no such code, used, too late).
Spent = Literal["taken", "unknown", "used", "expired"]


@dataclass(frozen=True)
class OneTimeCodes:
    """A table of one-time codes that move something to another device (seat links: ``seat_codes``; a table's
    player links: ``player_codes``). Each row: ``code_hash``, the ``scope`` it belongs to (a match, a table),
    its ``owner`` there (a seat, a player; a new code replaces the owner's others), what it ``carries`` (the
    giver's token digest, the player's sealed key), ``expires`` and ``used``. A spent or expired code is kept
    ``kept`` seconds, so that a second try is told why it is refused."""

    table: str
    scope: str
    owner: str
    carries: str
    kept: float


SEAT_CODES = OneTimeCodes("seat_codes", "match_id", "seat", "token_hash", SEAT_CODES_KEPT)


class Store:
    """The SQL both databases run; subclasses connect and translate the few differences."""

    placeholder = "?"
    #: Does ``call_async`` really wait (a network round trip), so that other requests run meanwhile?
    #: If not, the service's async gate makes its calls directly, with no lock to take.
    awaits = False

    def __init__(self) -> None:
        self._lock = threading.RLock()  # one connection per process, shared by its threads
        self._depth = 0  # transactions open on this connection (a nested one is part of the outer)
        #: Whether the store can be used now (``matches.store.health``): its calls are refused with
        #: ``StorageUnavailable`` (503) while it cannot be reached or written. A subclass names it.
        self.health = StoreHealth("the store")

    # --- what a subclass provides --------------------------------------------------------------
    def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        raise NotImplementedError

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    @contextmanager
    def _outermost(self) -> Iterator[None]:
        """The database's own transaction: committed when the block ends, rolled back if it raises."""
        raise NotImplementedError
        yield  # pragma: no cover

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A transaction on this process's connection; one opened inside another is part of it."""
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
                with self._outermost():
                    yield
            finally:
                self._depth = 0

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

    def ping(self) -> None:
        """One round trip to the database (``/readyz``): raises ``StorageUnavailable`` when it cannot be reached."""
        self._query("SELECT 1")

    # --- the change feed between servers ----------------------------------------------------------------
    async def changes_feed(self, told: Callable[[], Told]) -> AsyncGenerator[Change, None]:
        """The changes other server processes make to the matches, as they come: what a server's live
        sockets are told of, and what wakes its scheduler. ``told()``: the matches the listener watches,
        with what it was last told of each; the feed catches up from there (``catch_up``).

        Here, with nothing that notifies (SQLite: the server processes of one machine), the watched
        matches are looked at every ``POLL`` seconds, when another connection has written since the last
        look. A store that notifies yields each notification as it comes, and catches up on each
        connection it listens on, the first and every one after a drop (``PostgresStore.changes_feed``)."""
        while True:
            await asyncio.sleep(POLL)
            watched = told()
            if not watched:
                continue
            try:
                if not self.written_elsewhere():  # only this process wrote: it told its own sockets
                    continue
                caught = self.catch_up(watched)
            except StorageUnavailable:  # logged once by the store
                continue
            except Exception:
                log.exception("polling match versions failed")
                continue
            for change in caught:
                yield change

    def catch_up(self, told: Told) -> list[Change]:
        """What changed in the matches of ``told`` since what it says of them: a move (the version is
        ahead of the one told), or another change (it was ``updated`` later than told: a seat taken or
        left, the start, a rematch, each marked by ``touch``). One query, whatever the changes missed."""
        if not told:
            return []
        caught = []
        for match_id, (version, updated) in self.changes(list(told)).items():
            told_version, told_updated = told[match_id]
            if version > told_version:
                caught.append(Change(match_id, version))
            elif updated > told_updated:
                caught.append(Change(match_id, version, moved=False))
        return caught

    # --- schema ------------------------------------------------------------------------------------
    def migrate(self) -> int:
        """Create or upgrade the schema; the version it is at. One transaction, under the schema's lock:
        servers that start together on an empty database create it once, one after the other."""
        with self.transaction():
            self._lock_schema()
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
        values = [to_column(name, getattr(match, name)) for name in MATCH_COLUMNS]
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

    def create_waiting_match(
        self,
        match: MatchRow,
        seats: list[SeatRow],
        per_creator: int,
        in_all: int,
        bot_only: tuple[int, int, int] | None = None,
    ) -> tuple[str, int, int] | None:
        """``create_match`` within the caps on matches waiting for players (``matches.quotas``) and, for a
        match with no person seated, ``bot_only``'s (per creator, in all, and the move cap: a match at it
        no longer moves, ``bot_only_counts``): counted and written in one transaction that holds the
        creation lock (``_lock_creations``), so that of server processes creating at once, on one store,
        no two both pass a cap. None when made; else which caps refused it (``"waiting"``,
        ``"bot_only"``) and their counts (the creator's matches, and all of them)."""
        with self.transaction():
            self._lock_creations()
            mine, total = self.waiting_counts(match.creator)
            if (match.creator is not None and mine >= per_creator) or total >= in_all:
                return "waiting", mine, total
            if bot_only is not None:
                mine, total = self.bot_only_counts(match.creator, bot_only[2])
                if (match.creator is not None and mine >= bot_only[0]) or total >= bot_only[1]:
                    return "bot_only", mine, total
            self.create_match(match, seats)
        return None

    def _lock_schema(self) -> None:
        """Hold the schema's lock until the transaction ends. SQLite's ``BEGIN IMMEDIATE`` holds the database's
        write lock already; PostgreSQL takes an advisory lock (``PostgresStore._lock_schema``)."""

    def _lock_creations(self) -> None:
        """Hold the store's creation lock until the transaction ends. SQLite's ``BEGIN IMMEDIATE`` already
        holds the database's write lock from the start of every transaction; PostgreSQL takes a lock of
        its own (``PostgresStore._lock_creations``)."""

    def match_and_seats(self, match_id: str) -> tuple[MatchRow, list[SeatRow]] | None:
        """The match's row and its seats in one query (what every request reads first)."""
        return read_match_and_seats(self._query(MATCH_AND_SEATS, (match_id,)))

    def match_and_moves(
        self, match_id: str, since: int | None, most: int = NO_MOVES
    ) -> tuple[MatchRow, list[SeatRow], list[MoveRow]] | None:
        """The match's row, its seats, and the first ``most`` moves after version ``since`` (none when
        ``since`` is None): what a server holding the match at ``since`` reads to catch up. A server far
        behind rebuilds rather than reading every move it missed on the event loop (``MatchCore.load_steps``
        asks for one more than it would play there). Here two local queries; PostgreSQL makes it one
        round trip (``PostgresStore.call_async``)."""
        found = self.match_and_seats(match_id)
        if found is None:
            return None
        row, seats = found
        missed = [] if since is None or since >= row.version else self._moves_at_most(match_id, since, most)
        return row, seats, missed

    def _moves_at_most(self, match_id: str, since: int, most: int) -> list[MoveRow]:
        return read_moves(self._query(MOVES_SINCE_AT_MOST, (match_id, since, most)))

    def match(self, match_id: str) -> MatchRow | None:
        rows = self._query(f"SELECT {', '.join(MATCH_COLUMNS)} FROM matches WHERE id = ?", (match_id,))
        return read_match(rows[0]) if rows else None

    def version(self, match_id: str) -> int | None:
        return read_version(self._query(VERSION, (match_id,)))

    def versions(self, match_ids: Sequence[str]) -> dict[str, int]:
        return {match_id: version for match_id, (version, _) in self.changes(match_ids).items()}

    def changes(self, match_ids: Sequence[str]) -> dict[str, tuple[int, float]]:
        """Each match's version and when it last changed (a move, a seat taken or left, the start, a
        rematch): what the change feed compares with what its listener was told (``catch_up``)."""
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
            "SELECT seat, name, token_hash, bot, joined, left_at, seen, lag_ms, resigned, end_asked FROM seats "
            "WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [SeatRow(*row) for row in rows]

    def listing(self, status: str, limit: int = 50) -> list[MatchRow]:
        rows = self._query(
            f"SELECT {', '.join(MATCH_COLUMNS)} FROM matches "
            "WHERE status = ? AND public = 1 ORDER BY created DESC LIMIT ?",
            (status, limit),
        )
        return [read_match(row) for row in rows]

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
            if not set(values) <= QUIET_SEAT_COLUMNS:  # a socket's heartbeat and lag: see QUIET_SEAT_COLUMNS
                self._revise(match_id)

    def _revise(self, match_id: str) -> None:
        """A write to a match's seats moves its revision (in the writing transaction)."""
        self._execute("UPDATE matches SET revision = revision + 1 WHERE id = ?", (match_id,))

    def update_match(self, match_id: str, expected_version: int | None = None, **values: Any) -> bool:
        """Change match fields (only if still at ``expected_version``, when given)."""
        names = ", ".join([*(f"{key} = ?" for key in values), "revision = revision + 1"])
        params = [to_column(key, value) for key, value in values.items()]
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
        params = [move.version, *(to_column(key, value) for key, value in values.items()), match_id, expected_version]
        checked, check_params = commit_where(check)
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

    def moves(self, match_id: str, since: int = 0, most: int | None = None) -> list[MoveRow]:
        """The moves after version ``since`` (the first ``most`` of them: a replay's step or a review reads
        only the moves it plays, not the rest of a long match)."""
        if most is not None:
            return self._moves_at_most(match_id, since, most)
        return read_moves(self._query(MOVES_SINCE, (match_id, since)))

    def save_snapshot(self, match_id: str, version: int, state: dict[str, Any]) -> None:
        """Keep ``state`` as the match's snapshot at ``version``, in place of the one before."""
        with self.transaction():
            self._execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
            self._execute(
                "INSERT INTO snapshots (match_id, version, state) VALUES (?, ?, ?)",
                (match_id, version, snapshot_text(state)),
            )

    def snapshot(self, match_id: str) -> tuple[int, dict[str, Any]] | None:
        return read_snapshot(self._query(LATEST_SNAPSHOT, (match_id,)))

    def due(self, now: float, limit: int = 100) -> list[str]:
        """Matches with something due now (a clock run out, a bot to move, a window to close)."""
        return read_due(self._query(DUE, (now, limit)))

    def next_due(self) -> float | None:
        return read_next_due(self._query(NEXT_DUE))

    # --- quotas and upkeep (``matches.quotas``) ----------------------------------------------------------
    def waiting_counts(self, creator: str | None) -> tuple[int, int]:
        """Matches waiting for players: (created by ``creator``, in all)."""
        total = int(self._query("SELECT COUNT(*) FROM matches WHERE status = 'waiting'")[0][0])
        if creator is None:
            return 0, total
        mine = self._query("SELECT COUNT(*) FROM matches WHERE status = 'waiting' AND creator = ?", (creator,))
        return int(mine[0][0]), total

    def bot_only_counts(self, creator: str | None, moves_below: int) -> tuple[int, int]:
        """Matches with no person seated (a bot in every seat) that are playing, or about to (made and not
        yet started), with fewer than ``moves_below`` moves: (created by ``creator``, in all)."""
        sql = (
            "SELECT COUNT(*) FROM matches m WHERE status IN ('waiting', 'playing') AND version < ? AND NOT EXISTS "
            "(SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.bot IS NULL)"
        )
        total = int(self._query(sql, (moves_below,))[0][0])
        if creator is None:
            return 0, total
        return int(self._query(sql + " AND creator = ?", (moves_below, creator))[0][0]), total

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
                for table in ("seats", "moves", "snapshots", "push_subscriptions", "seat_codes", "match_devices",
                              "write_keys"):  # fmt: skip
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
            "UPDATE matches SET due = due + ?, epoch_started = epoch_started + ?, active = active + ?, "
            "revision = revision + 1 WHERE status = 'playing'",
            (seconds, seconds, seconds),
        )
        rows = self._query("SELECT id, clock_state FROM matches WHERE status = 'playing' AND clock_state IS NOT NULL")
        for match_id, text in rows:
            shifted = to_column("clock_state", shift_clock_state(orjson.loads(text), seconds))
            self._execute("UPDATE matches SET clock_state = ? WHERE id = ?", (shifted, match_id))

    # --- seats that travel: one-time codes that move a seat to another device (``Lobby.seat_link``) ------
    def add_seat_code(
        self, match_id: str, seat: int, code_hash: str, token_hash: str, expires: float, now: float
    ) -> None:
        """Keep a seat's new one-time code in place of the ones it had (a new link replaces the old);
        codes a day past their time, anyone's, go too."""
        self.add_code(SEAT_CODES, match_id, seat, code_hash, token_hash, expires, now)

    def redeem_seat_code(self, match_id: str, code_hash: str, token_hash: str, now: float) -> SeatCodeAnswer:
        """Give the seat a code stands for a new token (``token_hash``), once: the code is used up, and the
        token that asked for it holds the seat no more. What happened, and the seat (None: no such code)."""
        with self.transaction():
            spent, found = self.spend_code(SEAT_CODES, match_id, code_hash, now)
            if found is None:
                return "unknown", None
            seat, giver = int(found[0]), str(found[1])
            if spent != "taken":
                return spent, seat
            moved = self._execute(
                "UPDATE seats SET token_hash = ? WHERE match_id = ? AND seat = ? AND token_hash = ?",
                (token_hash, match_id, seat, giver),
            )
            if moved != 1:  # left, or moved by another code, since: the code is spent all the same
                return "changed_hands", seat
            self._revise(match_id)
            return "moved", seat

    # --- one-time codes, of seats and of a table's players -------------------------------------------------------
    def add_code(
        self, codes: OneTimeCodes, scope: str, owner: object, code_hash: str, carries: str, expires: float, now: float
    ) -> None:
        """Keep an owner's new one-time code in place of the ones it had (a new link replaces the old); codes
        ``codes.kept`` past their time, anyone's, go too."""
        with self.transaction():
            self._execute(
                f"DELETE FROM {codes.table} WHERE ({codes.scope} = ? AND {codes.owner} = ?) OR expires < ?",
                (scope, owner, now - codes.kept),
            )
            self._execute(
                f"INSERT INTO {codes.table} (code_hash, {codes.scope}, {codes.owner}, {codes.carries}, expires) "
                "VALUES (?, ?, ?, ?, ?)",
                (code_hash, scope, owner, carries, expires),
            )

    def spend_code(
        self, codes: OneTimeCodes, scope: str, code_hash: str, now: float
    ) -> tuple[Spent, tuple[Any, Any] | None]:
        """Use a code up, once, in the caller's transaction: what happened, and its owner and what it carries
        (None: no such code in this scope)."""
        rows = self._query(
            f"SELECT {codes.owner}, {codes.carries}, expires, used FROM {codes.table} "
            f"WHERE code_hash = ? AND {codes.scope} = ?",
            (code_hash, scope),
        )
        if not rows:
            return "unknown", None
        owner, carries, expires, used = rows[0]
        if used is not None:
            return "used", (owner, carries)
        if float(expires) <= now:
            return "expired", (owner, carries)
        # Of two devices redeeming at once, the one whose update finds the code unused has it.
        taken = self._execute(
            f"UPDATE {codes.table} SET used = ? WHERE code_hash = ? AND used IS NULL", (now, code_hash)
        )
        return ("taken" if taken == 1 else "used"), (owner, carries)

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

    # --- rewriting a match's log, and writes made once (a table match's entries: ``matches.table``) ------------
    def commit_write(
        self, match_id: str, expected_version: int, expected_rewrites: int, keep: int, moves: Sequence[MoveRow],
        key: str | None = None, answer: str = "", rewrite: bool | None = None, **values: Any,
    ) -> Written:  # fmt: skip
        """One transaction: the match's log keeps its first ``keep`` moves and then holds ``moves`` (versions
        ``keep + 1`` on), only if the match is still at ``expected_version`` and ``expected_rewrites``. A log
        cut short or changed (``keep`` below ``expected_version``) is a rewrite: it counts in ``rewrites``, and
        the snapshots past ``keep`` go with the moves they were made of; moves added at the end are not. The
        row takes ``values``; the other servers are told (a rewrite as a change, not a move: their copies are
        stale). ``key``: the client's idempotency key, kept with ``answer`` (what the write answered), so
        that the same key again writes nothing (``Written.repeated``, with the answer kept the first time).
        ``rewrite``: count it as a rewrite even if the log only grows (an entry held back changed: ``held``).
        Takes back an online match's last move too: ``keep = version - 1``, no moves."""
        assert [move.version for move in moves] == list(range(keep + 1, keep + 1 + len(moves)))
        assert 0 <= keep <= expected_version
        rewrite = keep < expected_version if rewrite is None else rewrite
        version = keep + len(moves)
        names = ", ".join([*(f"{name} = ?" for name in ("version", *values)), "revision = revision + 1",
                           f"rewrites = rewrites + {int(rewrite)}"])  # fmt: skip
        params = [version, *(to_column(name, value) for name, value in values.items()), match_id, expected_version,
                  expected_rewrites]  # fmt: skip
        try:
            with self.transaction():
                sql = f"UPDATE matches SET {names} WHERE id = ? AND version = ? AND rewrites = ?"
                if self._execute(sql, params) != 1:  # (the row is locked now, until the end: PostgreSQL)
                    return Written(False, self.write_answer(match_id, key) if key is not None else None)
                if key is not None and self._execute(
                    "INSERT INTO write_keys (match_id, client_key, answer) VALUES (?, ?, ?) "
                    "ON CONFLICT (match_id, client_key) DO NOTHING",
                    (match_id, key, answer),
                ) != 1:
                    raise _KeyUsed  # made by an earlier write at this version: this one is undone
                if rewrite:
                    self._execute("DELETE FROM moves WHERE match_id = ? AND version > ?", (match_id, keep))
                    self._execute("DELETE FROM snapshots WHERE match_id = ? AND version > ?", (match_id, keep))
                for move in moves:
                    self._execute(
                        "INSERT INTO moves (match_id, version, seat, move, at) VALUES (?, ?, ?, ?, ?)",
                        (match_id, move.version, move.seat, move.move, move.at),
                    )
                self._notify(match_id, version, changed=rewrite)
        except _KeyUsed:
            return Written(False, self.write_answer(match_id, key))  # type: ignore[arg-type]
        return Written(True, None)

    def write_answer(self, match_id: str, key: str) -> str | None:
        """What the write made with this idempotency key answered (None: no write made with it)."""
        rows = self._query("SELECT answer FROM write_keys WHERE match_id = ? AND client_key = ?", (match_id, key))
        return str(rows[0][0]) if rows else None

    def create_table_match(
        self, match: MatchRow, seats: list[SeatRow], device: DeviceRow, per_creator: int, in_all: int, since: float
    ) -> tuple[int, int] | None:
        """A table match (``matches.table``) and its first device, within the caps on the table matches that
        changed since ``since``: counted and written in one transaction that holds the creation lock (as
        ``create_waiting_match``). None when made; else the counts that refused it (the creator's, all)."""
        with self.transaction():
            self._lock_creations()
            counted = "SELECT COUNT(*) FROM matches WHERE at_table IS NOT NULL AND updated >= ?"
            total = int(self._query(counted, (since,))[0][0])
            mine = 0
            if match.creator is not None:
                mine = int(self._query(counted + " AND creator = ?", (since, match.creator))[0][0])
            if mine >= per_creator or total >= in_all:
                return mine, total
            self.create_match(match, seats)
            self._insert_device(match.id, device)
        return None

    def add_device(self, match_id: str, device: DeviceRow, limit: int) -> bool:
        """A device joins a table match (False: it already has ``limit``)."""
        with self.transaction():
            rows = self._query("SELECT COUNT(*) FROM match_devices WHERE match_id = ?", (match_id,))
            if int(rows[0][0]) >= limit:
                return False
            self._insert_device(match_id, device)
            self._revise(match_id)
        return True

    def _insert_device(self, match_id: str, device: DeviceRow) -> None:
        self._execute(
            "INSERT INTO match_devices (match_id, token_hash, name, joined) VALUES (?, ?, ?, ?)",
            (match_id, device.token_hash, device.name, device.joined),
        )

    def devices(self, match_id: str) -> list[DeviceRow]:
        rows = self._query(
            "SELECT token_hash, name, joined FROM match_devices WHERE match_id = ? ORDER BY joined, name", (match_id,)
        )
        return [DeviceRow(str(token), str(name), float(joined)) for token, name, joined in rows]

    # --- table talk: takebacks asked and answered, reactions (``matches.social``) -------------------------
    def set_takeback(
        self, match_id: str, version: int, before: dict[str, Any] | None, ask: dict[str, Any], now: float
    ) -> bool:
        """Write the takeback asked (or its answers) while the match is at ``version`` and its takeback is still
        ``before``: of two answers at once, the second finds it changed and is read again. False if not. A
        change every server's sockets hear of (``updated``, and a notification), as ``touch`` marks one."""
        was = "" if before is None else to_column("takeback", before)
        with self.transaction():
            written = (
                self._execute(
                    "UPDATE matches SET takeback = ?, updated = ?, revision = revision + 1 "
                    "WHERE id = ? AND version = ? AND COALESCE(takeback, '') = ?",
                    (to_column("takeback", ask), now, match_id, version, was),
                )
                == 1
            )
            if written:
                self._notify(match_id, version, changed=True)
            return written

    def add_reaction(
        self, match_id: str, entry: dict[str, Any], per_window: int, window: float, recent: int
    ) -> tuple[dict[str, Any] | None, float]:
        """Keep a seat's reaction (``entry``: seat, version, reaction or text, at) in the record and among the
        match's last ``recent``, unless the seat made ``per_window`` in the last ``window`` seconds: then
        (None, the seconds until it may again). Counted in the store, so every server process counts alike."""
        try:
            return self._add_reaction(match_id, entry, per_window, window, recent)
        except _NotKept as refused:  # (rolled back: the revision too)
            return None, refused.wait

    def _add_reaction(
        self, match_id: str, entry: dict[str, Any], per_window: int, window: float, recent: int
    ) -> tuple[dict[str, Any] | None, float]:
        seat, at = entry["seat"], entry["at"]
        with self.transaction():
            # The match's row first: on PostgreSQL its lock makes reactions to one match wait for each other.
            if self._execute("UPDATE matches SET revision = revision + 1 WHERE id = ?", (match_id,)) != 1:
                return None, 0.0
            made = self._query(
                "SELECT at FROM reactions WHERE match_id = ? AND seat = ? AND at > ? ORDER BY at",
                (match_id, seat, at - window),
            )
            if len(made) >= per_window:
                raise _NotKept(max(0.001, float(made[len(made) - per_window][0]) + window - at))
            number = int(
                self._query("SELECT COALESCE(MAX(n), 0) + 1 FROM reactions WHERE match_id = ?", (match_id,))[0][0]
            )
            kept = {"n": number, **entry}
            self._execute(
                "INSERT INTO reactions (match_id, n, seat, version, reaction, text, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, number, seat, entry["version"], entry.get("reaction"), entry.get("text"), at),
            )
            shown = self._query("SELECT reactions_recent FROM matches WHERE id = ?", (match_id,))[0][0]
            last = [*(orjson.loads(shown) if shown else []), kept][-recent:]
            # A change every server's sockets hear of (``updated``, and a notification), as ``touch`` marks one.
            self._execute(
                "UPDATE matches SET reactions_recent = ?, updated = ? WHERE id = ?",
                (to_column("reactions_recent", last), at, match_id),
            )
            self._notify(match_id, entry["version"], changed=True)
        return kept, 0.0

    def reactions(self, match_id: str, since: int = 0, most: int = 200) -> list[dict[str, Any]]:
        """The match's reactions after number ``since``, oldest first, at most ``most``: the record."""
        rows = self._query(
            "SELECT n, seat, version, reaction, text, at FROM reactions "
            "WHERE match_id = ? AND n > ? ORDER BY n LIMIT ?",
            (match_id, since, most),
        )
        return [{"n": int(n), "seat": int(seat), "version": int(version), "reaction": reaction, "text": text,
                 "at": float(at)} for n, seat, version, reaction, text, at in rows]  # fmt: skip


class _KeyUsed(Exception):
    """A write's idempotency key was kept by an earlier write: the transaction is rolled back."""


@dataclass(frozen=True)
class Written:
    """What ``Store.commit_write`` did: ``done`` (written now), else the answer kept with its key by the write
    that used it first (``repeated``), or None (the match has moved: a stale version or count of rewrites)."""

    done: bool
    repeated: str | None


class _NotKept(Exception):
    """A reaction over its seat's rate: the transaction is rolled back; ``wait``: seconds until one may be made."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait

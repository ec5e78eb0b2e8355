"""The match store (``matches/store/``) on SQLite and PostgreSQL alike: the conditional commit that
serialises moves on a match (and makes a lost answer's retry harmless), the revision a server's copy is
checked by, the rows it hands out, house rules kept once, PostgreSQL's pools and their healing, the schema
made once by servers starting together, the store's health when it cannot be reached or written
(``matches/store/health.py``; with real servers: ``test_faults.py``), and the change feed between servers.
(The gate built on it is tested through the service: ``test_gate.py``, ``test_async.py``,
``test_durability.py``.)"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from engine.errors import StaleVersionError, WrongPlayerError
from indexes.house_rules import HouseRules
from matches.service import MatchService, MatchSettings
from matches.store import (
    SCHEMA_VERSION,
    Change,
    CommitCheck,
    MoveRow,
    PostgresStore,
    SQLiteStore,
    StorageUnavailable,
    Store,
    StoreHealth,
    Told,
    open_store,
)
from matches.store.sqlite import IndexFlags
from tests.matches.conftest import FakeClock, sqlite_made_at
from tests.matches.playing import two_players, whose_turn
from tests.matches.waiting import eventually, wait_for


def test_of_two_commits_at_one_version_exactly_one_is_stored(service: MatchService, store_url: str) -> None:
    """Store before you tell: a move is version N+1 only if the match is still at N, decided by the
    database, so two servers racing from the same version cannot both commit (two stores, two threads)."""
    match_id, _ = two_players(service)
    mover = whose_turn(service, match_id)
    stores = [service.store, open_store(store_url)]
    start = threading.Barrier(2)
    won: list[bool] = []

    def commit(store: Store, text: str) -> None:
        start.wait(timeout=10)
        won.append(store.commit_move(match_id, 0, MoveRow(1, mover, text, 1.0)))

    try:
        pairs = zip(stores, ("a", "b"), strict=True)
        racers = [threading.Thread(target=commit, args=pair) for pair in pairs]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=30)
    finally:
        stores[1].close()
    assert sorted(won) == [False, True]
    stored = service.store.moves(match_id)
    assert [(m.version, m.move in ("a", "b")) for m in stored] == [(1, True)]
    assert service.store.version(match_id) == 1
    assert not service.store.commit_move(match_id, 0, MoveRow(1, mover, "late", 2.0))  # and none after


def test_house_rules_rows_are_the_rules_again(store: Store) -> None:
    """The store's side of ``indexes.house_rules.HouseRulesStore``: what is loaded is the rules that were
    saved, checked again as when made; an id never saved loads as None."""
    rules = HouseRules.make("Our table", ["qi", "za"], ["shmo"])
    store.save_house_rules(rules, 5.0)
    store.save_house_rules(rules, 6.0)  # the same id is the same content: kept once, no error
    assert store.load_house_rules(rules.id) == rules
    assert store.load_house_rules("hr-aaaaaaaaaa") is None


def test_the_pool_survives_a_new_event_loop_and_a_dropped_connection(store_url: str) -> None:
    """PostgreSQL's async connections belong to the loop that opened them (a test's app, a restarted
    server): a new loop opens its own. A connection the database dropped while idle is let go before it is
    used (on the loop, and in the synchronous calls' pool): no call fails. One dropped under a call fails
    that call with ``StorageUnavailable`` (503, never the driver's error), and the store is tried again
    within the retry interval, on a new connection."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite makes its calls directly: no pool")
    import psycopg

    store = open_store(store_url)
    assert isinstance(store, PostgresStore)

    def drop_every_connection() -> None:
        with psycopg.connect(store_url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )

    async def dropped() -> list[Any]:
        outcomes: list[Any] = [await store.call_async("version", "nothing")]  # opens a connection
        drop_every_connection()
        await eventually(lambda: all(conn.is_closed() for conn in store._async._idle), "the loop to hear it", 10)
        outcomes.append(await store.call_async("version", "nothing"))  # let go, a new one opened
        outcomes.append(store.health.state)
        drop_every_connection()  # and now used before the loop hears of it
        try:
            outcomes.append(await store.call_async("version", "nothing"))
        except StorageUnavailable as error:
            outcomes.append(error)
        outcomes.append(store.health.state)
        outcomes.append(await eventually(lambda: _answers(store), "a new connection, after the retry interval", 5))
        outcomes.append(store.health.state)
        return outcomes

    try:
        assert asyncio.run(store.call_async("version", "nothing")) is None
        assert asyncio.run(store.call_async("version", "nothing")) is None  # another loop: its own connections
        opened, reopened, up, failed, down, answered, up_again = asyncio.run(dropped())
        assert opened is None and reopened is None and up == "up"
        assert isinstance(failed, StorageUnavailable) and failed.status == 503 and failed.retry_after >= 1
        assert down == "unreachable" and answered and up_again == "up"
        # The synchronous calls' pool: its connection was dropped twice above, and it is replaced unasked.
        assert store.version("nothing") is None and store.health.state == "up"
    finally:
        store.close()


async def _answers(store: Store) -> bool:
    try:
        return await store.call_async("version", "nothing") is None
    except StorageUnavailable:
        return False


def test_every_write_to_a_match_or_its_seats_but_a_heartbeat_moves_its_revision(service: MatchService) -> None:
    """The copy's check is only as good as the revision: each write the gate could be misled by
    moves it; a socket's ``seen``, stored every 15 s, does not (a copy serves for ``COPY_FRESH`` s)."""
    store = service.store
    made = service.lobby.create("bop", {"players": 3}, name="Ann")

    def revision() -> int:
        row = store.match(made.match)
        assert row is not None
        return row.revision

    steps = [revision()]
    assert store.take_seat(made.match, 1, "Bob", "b" * 64, 1.0)  # a seat taken, by the store alone
    steps.append(revision())
    service.lobby.join(made.match, made.invite, "Cy")  # the last seat taken, then the start
    steps.append(revision())
    service.lobby.seen(made.match, 1)
    assert revision() == steps[-1]  # a heartbeat
    service.lobby.seen(made.match, 1, lag_ms=730)
    assert revision() == steps[-1]  # a heartbeat with the seat's measured lag (matches/lag.py)
    assert [s.lag_ms for s in store.seats(made.match)] == [None, 730, None]
    assert [s.lag_ms for s in store.match_and_seats(made.match)[1]] == [None, 730, None]  # type: ignore[index]
    store.touch(made.match, 5.0)
    steps.append(revision())
    store.update_match(made.match, None, due=7.0)
    steps.append(revision())
    service.gate.move(made.match, whose_turn(service, made.match), "pass", 0)
    steps.append(revision())
    store.update_seat(made.match, 0, name="Ann B.")
    steps.append(revision())
    assert steps == sorted(set(steps)), steps  # each write moved it on

    # The commit's check: the revision, and the token's hash on the seat (a second guard).
    mover = whose_turn(service, made.match)
    seat_hash = next(s.token_hash for s in store.seats(made.match) if s.seat == mover)
    assert seat_hash is not None
    move = MoveRow(2, mover, "pass", 9.0)
    assert not store.commit_move(made.match, 1, move, CommitCheck(steps[-1] - 1, mover, seat_hash))
    assert not store.commit_move(made.match, 1, move, CommitCheck(steps[-1], mover, "0" * len(seat_hash)))
    assert revision() == steps[-1] and len(store.moves(made.match)) == 1
    assert store.commit_move(made.match, 1, move, CommitCheck(steps[-1], mover, seat_hash))
    assert revision() == steps[-1] + 1 and len(store.moves(made.match)) == 2


def test_a_match_rows_copy_has_its_values_and_is_its_own(service: MatchService) -> None:
    match_id, _ = two_players(service)
    row = service.store.match(match_id)
    assert row is not None
    copied = row.copy()
    assert copied == row and copied is not row and type(copied) is type(row)
    copied.version += 1
    copied.status = "over"
    assert (row.version, row.status) == (0, "playing")


def test_a_store_made_at_schema_5_gains_the_seat_codes_and_expiry_takes_them_along(tmp_path: Path) -> None:
    """Schema 6 (seats that travel) on a database made before it; a waiting match that expires takes its
    seat codes along (the table refers to the match)."""
    store = open_store(sqlite_made_at(tmp_path / "old.sqlite3", 5))
    try:
        assert store.migrate() == SCHEMA_VERSION
        service = MatchService(store, clock_now=lambda: 1000.0)
        made = service.lobby.create("bop", {"players": 2}, name="Ann")
        assert made.token is not None
        service.lobby.seat_link(made.match, 0, made.token)
        assert store._query("SELECT COUNT(*) FROM seat_codes")[0][0] == 1
        assert store.expire_waiting(before=2000.0) == [made.match]
        assert store._query("SELECT COUNT(*) FROM seat_codes")[0][0] == 0
    finally:
        store.close()


def test_servers_starting_together_on_an_empty_database_make_its_schema_once(store_url: str) -> None:
    """Four stores opened at once on one empty database (four servers starting together): each creates and
    migrates the schema in one transaction under the schema's lock (PostgreSQL's advisory lock, SQLite's
    ``BEGIN IMMEDIATE``), so one makes it and the others find it made. Before, two ``CREATE TABLE IF NOT
    EXISTS`` at once on PostgreSQL both created, and one failed on a duplicate key in its catalogue; and
    SQLite answered all but one of the first connections to a new file "locked" at once as they switched it
    to WAL (rarely: 1 start in a few hundred of eight at once)."""
    start = threading.Barrier(4)
    opened: list[Store] = []
    failed: list[BaseException] = []

    def open_one() -> None:
        start.wait(timeout=30)
        try:
            opened.append(open_store(store_url))
        except BaseException as error:  # (noted: the assertion below shows it)
            failed.append(error)

    racers = [threading.Thread(target=open_one) for _ in range(4)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(timeout=60)
    try:
        assert not failed, failed
        assert len(opened) == 4
        assert opened[0]._query("SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    finally:
        for store in opened:
            store.close()


def test_a_commit_retried_after_its_answer_was_lost_is_refused_not_stored_twice(service: MatchService) -> None:
    """Nothing acknowledged is retried into a duplicate: a move's commit is conditional on the match's
    version, so when its answer never came (the connection dropped after the database committed) its retry
    finds the match moved on and stores nothing; through the gate, the same move sent again is refused (403
    ``wrong_player`` when the turn has passed, as here, else 409 ``stale_version`` with the match)."""
    store = service.store
    match_id, tokens = two_players(service)
    mover = whose_turn(service, match_id)
    move = MoveRow(1, mover, "pass", 1.0)
    assert store.commit_move(match_id, 0, move, updated=1.0)  # committed; say its answer was lost
    assert not store.commit_move(match_id, 0, move, updated=1.0)  # the retry
    assert [(m.version, m.seat, m.move) for m in store.moves(match_id)] == [(1, mover, "pass")]

    other, other_tokens = two_players(service)
    seat = whose_turn(service, other)
    asyncio.run(service.gate.play_async(other, other_tokens[seat], "pass", 0))
    with pytest.raises((StaleVersionError, WrongPlayerError)):
        asyncio.run(service.gate.play_async(other, other_tokens[seat], "pass", 0))  # the same request again
    assert [(m.version, m.seat) for m in store.moves(other)] == [(1, seat)]


def test_a_sqlite_store_that_cannot_grow_refuses_writes_at_once_reads_on_and_recovers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite's ``SQLITE_FULL`` (here from ``max_page_count``: the file may not grow, as on a full disk):
    the write that met it is 503 ``storage_unavailable``; the writes after it are refused before SQLite is
    asked (no statement runs) but one per interval; reads go on; the first write that works ends it, and the
    log has the outage's two lines, with the count of refusals."""
    store = SQLiteStore(tmp_path / "matches.sqlite3")
    store.migrate()
    service = MatchService(store, MatchSettings(public_url="http://table.test", bot_delay_ms=0, lexicon="standard"))
    try:
        match_id, _ = two_players(service)
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(StorageUnavailable) as full:
            store.save_snapshot(match_id, 0, {"filler": "x" * 200_000})
        assert full.value.status == 503 and full.value.retry_after >= 1 and "disk is full" in str(full.value)
        assert store.health.state == "read_only"
        statements: list[str] = []
        store._conn.set_trace_callback(statements.append)
        with pytest.raises(StorageUnavailable) as refused:
            store.touch(match_id, 5.0)
        refused.value.refused()
        assert statements == []  # not tried: refused at once
        assert store.match(match_id) is not None and service.core.load(match_id).state is not None  # reads go on
        assert statements  # (those reached SQLite)
        store._conn.execute("PRAGMA max_page_count = 1073741823")  # room again

        def writes() -> bool:
            try:
                store.touch(match_id, 6.0)
            except StorageUnavailable:
                return False
            return True

        wait_for(writes, "a write to work again", 5)
        assert store.health.state == "up" and store.health.report() == {"state": "up"}
    finally:
        store.close()
    lines = [record.getMessage() for record in caplog.records if "storage unavailable" in record.getMessage()]
    assert len(lines) == 2 and "the disk is full" in lines[0] and lines[1].endswith(": 1 requests refused"), lines


def test_store_health_refuses_at_once_tries_once_per_interval_and_logs_each_outage_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``StoreHealth`` alone, on a clock moved by hand: while the store is out of reach every call is refused at
    once, but one per interval, which tries (0.25 s, then twice as long each time up to 2 s); a try that would
    block is not made on an event loop; the first call that works ends the outage; a store that cannot be
    written still reads, and only a write ends that; the log has one line as an outage begins and one as it
    ends, with its length and the requests refused."""
    clock = FakeClock(100.0)
    health = StoreHealth("PostgreSQL", clock)
    health.check(write=True)  # up: nothing to look at
    assert health.failed("unreachable", "it was shut down").retry_after == 1
    tries = []
    for _ in range(6):
        start = clock.now
        while True:
            try:
                health.check(write=False)
                break
            except StorageUnavailable as error:
                error.refused()
                clock.advance(0.25)
        tries.append(clock.now - start)
        health.failed("unreachable", "it was shut down")  # the try failed too
    assert tries == [0.25, 0.5, 1.0, 2.0, 2.0, 2.0]
    assert health.report() == {"state": "unreachable", "reason": "it was shut down", "down_for_s": 7.8}

    async def on_the_loop(blocking: bool) -> bool:
        try:
            health.check(write=False, blocking=blocking)
        except StorageUnavailable:
            return False
        return True

    clock.advance(2.0)  # time for a try
    assert not asyncio.run(on_the_loop(blocking=True)) and asyncio.run(on_the_loop(blocking=False))
    health.worked(wrote=False)
    assert health.state == "up"
    refusals = 1 + 2 + 4 + 8 + 8 + 8

    health.failed("read_only", "its disk is full")
    health.check(write=False)  # reads go on
    health.worked(wrote=False)
    assert health.state == "read_only"
    clock.advance(1.0)
    health.check(write=True)  # the try
    health.worked(wrote=True)
    assert health.state == "up"
    lines = [record.getMessage() for record in caplog.records]
    assert lines == [
        "storage unavailable: PostgreSQL (it was shut down); every request that needs it is answered 503 until it"
        " is back",
        f"storage unavailable for 9.8 s: {refusals:,} requests refused",
        "storage unavailable: PostgreSQL (its disk is full); every write is answered 503 until it is back",
        "storage unavailable for 1.0 s: 0 requests refused",
    ]


def test_while_the_store_is_away_a_held_match_is_read_from_memory_and_a_move_on_it_refused(tmp_path: Path) -> None:
    """The store out of reach (its health's clock held, so that no try comes): a match this process holds is
    still read, as it last knew it (by a request, a live hello: both load it so); a move on it is refused 503 and
    leaves it held as it was; a match it does not hold is 503. When the store is back, the move is made."""
    store = SQLiteStore(tmp_path / "matches.sqlite3")
    store.migrate()
    settings = MatchSettings(public_url="http://table.test", bot_delay_ms=0, lexicon="standard")
    service, other = MatchService(store, settings), MatchService(store, settings)
    clock = FakeClock()
    store.health = StoreHealth("the SQLite database", clock)
    try:
        held, tokens = two_players(service)
        mover = whose_turn(service, held)
        service.gate.move(held, mover, "pass", 0)
        not_held, _ = two_players(other)
        store.health.failed("unreachable", "it is away")

        async def in_the_outage() -> list[Any]:
            outcomes: list[Any] = [(await service.core.load_async(held)).state.version]  # type: ignore[union-attr]
            for attempt in (
                service.gate.play_async(held, tokens[1 - mover], "pass", 1),
                service.core.load_async(not_held),
            ):
                try:
                    outcomes.append(await attempt)
                except StorageUnavailable as error:
                    outcomes.append(error.status)
            outcomes.append((await service.core.load_async(held)).state.version)  # type: ignore[union-attr]
            return outcomes

        assert asyncio.run(in_the_outage()) == [1, 503, 503, 1]
        clock.advance(1.0)  # the next call tries, and the store is there
        moved = asyncio.run(service.gate.play_async(held, tokens[1 - mover], "pass", 1))
        assert moved.version == 2 and store.health.state == "up"
        assert [m.version for m in store.moves(held)] == [1, 2]
    finally:
        service.core.work.close()
        other.core.work.close()
        store.close()


def test_looking_for_immutable_files_keeps_sqlites_locks(tmp_path: Path) -> None:
    """The store's look at its WAL index's flags (``IndexFlags``, every 50 ms) opens no descriptor of it:
    closing one lets go of every POSIX lock this process holds on the file, SQLite's included, and another
    process could then write under a transaction of ours (a first version did, and a test process's reads
    went wrong). Here another process asks for the write lock while this one holds it, after the look."""
    store = SQLiteStore(tmp_path / "matches.sqlite3")
    store.migrate()
    ask = "import sqlite3, sys; sqlite3.connect(sys.argv[1], timeout=0).execute('BEGIN IMMEDIATE'); print('mine')"
    try:
        with store.transaction():  # holds the database's write lock until it ends
            store.heartbeat("here", 1.0)
            assert not IndexFlags(store.path).immutable()
            other = subprocess.run([sys.executable, "-c", ask, str(store.path)], capture_output=True, text=True)
        assert "database is locked" in other.stderr and "mine" not in other.stdout, (other.stdout, other.stderr)
    finally:
        store.close()


# --- the change feed between servers (``Store.changes_feed``) ----------------------------------------------
async def first_change(store: Store, told: Told) -> Change:
    """The first change the store's feed gives a listener that was told ``told`` (bounded: 15 s)."""
    feed = store.changes_feed(lambda: told)
    try:
        return await asyncio.wait_for(anext(feed), 15)
    finally:
        await feed.aclose()


def test_the_change_feed_catches_up_from_what_its_listener_was_told(service: MatchService, store_url: str) -> None:
    """Another server process's changes, given by the feed from what the listener says it was told of the
    matches it watches, with nothing notified while it listens: on SQLite at its first look, on PostgreSQL
    as soon as it listens. A move is a version ahead of the one told; another change (a seat taken or
    left, the start, a rematch: ``touch``) is a later ``updated`` at the version told; a match as told
    gives nothing."""
    match_id, _ = two_players(service)
    quiet_id, _ = two_players(service)
    rows = {found: service.store.match(found) for found in (match_id, quiet_id)}
    told = {found: (row.version, row.updated) for found, row in rows.items() if row is not None}
    other = open_store(store_url)  # another server process's connection
    try:
        mover = whose_turn(service, match_id)
        assert other.commit_move(match_id, 0, MoveRow(1, mover, "pass", 2.0), updated=told[match_id][1] + 1)
        assert service.store.catch_up(told) == [Change(match_id, 1)]
        assert asyncio.run(first_change(service.store, told)) == Change(match_id, 1)
        told[match_id] = (1, told[match_id][1] + 1)
        assert service.store.catch_up(told) == []
        other.touch(match_id, told[match_id][1] + 1)
        assert service.store.catch_up(told) == [Change(match_id, 1, moved=False)]
        assert asyncio.run(first_change(service.store, told)) == Change(match_id, 1, moved=False)
    finally:
        other.close()


def test_a_listener_whose_connection_was_cut_catches_up_with_what_it_missed(
    service: MatchService, store_url: str
) -> None:
    """PostgreSQL drops the feed's connection (a restart, a failover, an admin), and another server moves
    before it listens again: that move's notification reached no one, and the feed gives it all the same,
    caught up from what its listener was told as soon as it listens again."""
    if not isinstance(service.store, PostgresStore):
        pytest.skip("SQLite's feed looks at the versions: it has no connection to lose")
    import psycopg

    match_id, _ = two_players(service)
    row = service.store.match(match_id)
    assert row is not None
    told: dict[str, tuple[int, float]] = {}
    heard: list[Change] = []
    listener = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%%' "
        "AND state = 'idle'"
    )
    other = open_store(store_url)  # another server process's connection

    async def run() -> None:
        feed = service.store.changes_feed(lambda: told)

        async def hear() -> None:
            async for change in feed:
                heard.append(change)

        hearing = asyncio.create_task(hear())
        try:
            with psycopg.connect(store_url, autocommit=True) as admin:
                found = await eventually(lambda: admin.execute(listener).fetchall(), "the feed to listen", 10)
                told[match_id] = (row.version, row.updated)  # its sockets saw the match at version 0
                # The event loop is held from here until the move is stored: the feed cannot listen again first.
                cut = [pid for (pid,) in found]
                admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", (cut,))
                gone = "SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)"
                wait_for(lambda: not admin.execute(gone, (cut,)).fetchall(), "the cut connection to end", 10)
                assert other.commit_move(match_id, 0, MoveRow(1, whose_turn(service, match_id), "pass", 2.0))
            await eventually(lambda: heard, "the move made while the feed was cut", 15)
        finally:
            hearing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await hearing
            await feed.aclose()

    try:
        asyncio.run(run())
    finally:
        other.close()
    assert heard == [Change(match_id, 1)]


def test_a_store_made_at_schema_7_gains_what_a_seat_that_is_gone_needs(tmp_path: Path) -> None:
    """Schemas 8 and 9 (``matches.gone``) on a database made before them: the table's choice, an ending, a
    seat's resignation and its ask to end the game start empty, and a match already playing counts as moved in
    when it last changed."""
    url = sqlite_made_at(tmp_path / "old.sqlite3", 7)
    raw = SQLiteStore(tmp_path / "old.sqlite3")
    with raw.transaction():
        for match_id, status in (("playing1", "playing"), ("waiting1", "waiting")):
            raw._execute(
                "INSERT INTO matches (id, game, options, seats, seed, status, public, invite_hash, version, created, "
                "updated) VALUES (?, 'bop', '{}', 2, 1, ?, 1, 'x', 3, 100.0, 250.0)",
                (match_id, status),
            )
            raw._execute("INSERT INTO seats (match_id, seat, name) VALUES (?, 0, 'Ann')", (match_id,))
    raw.close()
    store = open_store(url)
    try:
        assert store.migrate() == SCHEMA_VERSION
        playing, waiting = store.match("playing1"), store.match("waiting1")
        assert playing is not None and waiting is not None
        assert (playing.when_gone, playing.ending, playing.active) == (None, None, 250.0)
        assert waiting.active is None and [seat.resigned for seat in store.seats("playing1")] == [None]
        assert [seat.end_asked for seat in store.seats("playing1")] == [None]  # nobody asked to end
        store.update_match("playing1", None, ending={"kind": "abandoned", "seat": None, "outcome": {}}, when_gone="end")
        kept = store.match_and_seats("playing1")
        assert kept is not None and kept[0].ending == {"kind": "abandoned", "seat": None, "outcome": {}}
        store.update_seat("playing1", 0, resigned=300.0)
        assert store.seats("playing1")[0].resigned == 300.0 and kept[0].when_gone == "end"
    finally:
        store.close()

"""The match store (``matches/store/``) on SQLite and PostgreSQL alike: the conditional commit that
serialises moves on a match, the revision a server's copy is checked by, the rows it hands out, house
rules kept once, and PostgreSQL's pool of event-loop connections. (The gate built on it is tested
through the service: ``test_gate.py``, ``test_async.py``, ``test_durability.py``.)"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from indexes.house_rules import HouseRules
from matches.service import MatchService
from matches.store import SCHEMA_VERSION, CommitCheck, DeviceRow, MatchRow, MoveRow, SeatRow, Store, Written, open_store
from tests.matches.conftest import sqlite_made_at
from tests.matches.playing import two_players, whose_turn


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
    server): a new loop opens its own. A connection the database dropped fails the call it was used
    for, is closed, and the next call opens a new one."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite makes its calls directly: no pool")
    import asyncpg
    import psycopg

    store = open_store(store_url)
    broken = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)  # what a dropped connection raises

    async def dropped() -> list[Any]:
        outcomes: list[Any] = [await store.call_async("version", "nothing")]  # opens a connection
        with psycopg.connect(store_url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        for _ in range(2):
            try:
                outcomes.append(await store.call_async("version", "nothing"))
            except broken as error:
                outcomes.append(error)
        return outcomes

    try:
        assert asyncio.run(store.call_async("version", "nothing")) is None
        assert asyncio.run(store.call_async("version", "nothing")) is None  # another loop: its own connections
        opened, failed, reopened = asyncio.run(dropped())
        assert opened is None and isinstance(failed, broken) and reopened is None
    finally:
        store.close()


def test_every_write_to_a_match_or_its_seats_but_a_heartbeat_moves_its_revision(service: MatchService) -> None:
    """The copy's check is only as good as the revision: each write the gate could be misled by
    moves it; a socket's ``seen``, stored every 15 s, does not (a copy serves for ``COPY_FRESH`` s)."""
    store = service.store
    made = service.create("bop", {"players": 3}, name="Ann")

    def revision() -> int:
        row = store.match(made.match)
        assert row is not None
        return row.revision

    steps = [revision()]
    assert store.take_seat(made.match, 1, "Bob", "b" * 64, 1.0)  # a seat taken, by the store alone
    steps.append(revision())
    service.join(made.match, made.invite, "Cy")  # the last seat taken, then the start
    steps.append(revision())
    service.seen(made.match, 1)
    assert revision() == steps[-1]  # a heartbeat
    service.seen(made.match, 1, lag_ms=730)
    assert revision() == steps[-1]  # a heartbeat with the seat's measured lag (matches/lag.py)
    assert [s.lag_ms for s in store.seats(made.match)] == [None, 730, None]
    assert [s.lag_ms for s in store.match_and_seats(made.match)[1]] == [None, 730, None]  # type: ignore[index]
    store.touch(made.match, 5.0)
    steps.append(revision())
    store.update_match(made.match, None, due=7.0)
    steps.append(revision())
    service.move(made.match, whose_turn(service, made.match), "pass", 0)
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
        assert store.migrate() == SCHEMA_VERSION == 8
        service = MatchService(store, clock_now=lambda: 1000.0)
        made = service.create("bop", {"players": 2}, name="Ann")
        assert made.token is not None
        service.seat_link(made.match, 0, made.token)
        assert store._query("SELECT COUNT(*) FROM seat_codes")[0][0] == 1
        assert store.expire_waiting(before=2000.0) == [made.match]
        assert store._query("SELECT COUNT(*) FROM seat_codes")[0][0] == 0
    finally:
        store.close()


# --- writes made once, and a match's log rewritten (a table match's entries: matches/table.py) ---------------
def bare_match(store: Store, match_id: str = "m1") -> MatchRow:
    """A playing table match's row with two seats, straight into the store: what the writes below work on."""
    row = bare_row(match_id, None)
    store.create_match(row, [SeatRow(0, "Ann"), SeatRow(1, "Bob")])
    return row


def logged(store: Store, match_id: str = "m1") -> list[tuple[int, str]]:
    return [(move.version, move.move) for move in store.moves(match_id)]


def test_moves_added_at_the_end_are_not_a_rewrite_and_a_cut_log_is(store: Store) -> None:
    bare_match(store)
    assert store.commit_write("m1", 0, 0, 0, [MoveRow(1, -1, "first 0", 1.0), MoveRow(2, 0, "0,0 9y", 1.0)]).done
    store.save_snapshot("m1", 1, {"kept": True})
    assert logged(store) == [(1, "first 0"), (2, "0,0 9y")]
    row = store.match("m1")
    assert row is not None and (row.version, row.rewrites) == (2, 0)
    # Entry 2 replaced, and one after it: the log is cut at 1 and written again; the snapshot at 1 stays.
    held = {"flag": {"index": 3}, "entries": [[0, "1,0 8y"]]}
    written = store.commit_write("m1", 2, 0, 1, [MoveRow(2, 0, "0,0 9g", 2.0)], held=held, updated=2.0)
    assert written.done and logged(store) == [(1, "first 0"), (2, "0,0 9g")]
    row = store.match("m1")
    assert row is not None and (row.version, row.rewrites, row.held, row.updated) == (2, 1, held, 2.0)
    assert store.snapshot("m1") == (1, {"kept": True})
    # Taken back to nothing: the snapshot past it goes with the moves it was made of.
    assert store.commit_write("m1", 2, 1, 0, [], held=None).done
    row = store.match("m1")
    assert logged(store) == [] and store.snapshot("m1") is None
    assert row is not None and (row.version, row.rewrites, row.held) == (0, 2, None)


def test_a_write_at_a_stale_version_or_count_of_rewrites_writes_nothing(store: Store) -> None:
    bare_match(store)
    assert store.commit_write("m1", 0, 0, 0, [MoveRow(1, -1, "first 0", 1.0)]).done
    assert store.commit_write("m1", 1, 0, 0, []).done  # undone: version 0 again, one rewrite
    for version, rewrites in [(1, 1), (0, 0)]:  # an old version; the right version of a log since rewritten
        written = store.commit_write("m1", version, rewrites, version, [MoveRow(version + 1, -1, "first 1", 3.0)])
        assert written == Written(False, None)
    assert logged(store) == [] and store.version("m1") == 0


def test_a_key_writes_once_and_is_answered_what_it_got_the_first_time(store: Store) -> None:
    bare_match(store)
    first = store.commit_write("m1", 0, 0, 0, [MoveRow(1, -1, "first 0", 1.0)], key="k-1", answer='{"n": 1}')
    assert first == Written(True, None) and store.write_answer("m1", "k-1") == '{"n": 1}'
    # Sent again, as queued (the version it was made at), or at the version the match is at now: written once.
    for version in (0, 1):
        again = store.commit_write("m1", version, 0, version, [MoveRow(version + 1, -1, "first 0", 2.0)], key="k-1")
        assert again == Written(False, '{"n": 1}')
    assert logged(store) == [(1, "first 0")] and store.write_answer("m1", "other") is None
    assert store.write_answer("m2", "k-1") is None  # a key is a match's own


def test_of_two_writes_with_one_key_racing_exactly_one_is_made(store: Store, store_url: str) -> None:
    """The same entry sent twice at once (a phone's queue resent while the first send was still on its way),
    through two connections: one writes, the other is answered what it wrote."""
    bare_match(store)
    stores = [store, open_store(store_url)]
    start = threading.Barrier(2)
    results: list[Written] = []

    def write(on: Store) -> None:
        start.wait(timeout=10)
        results.append(on.commit_write("m1", 0, 0, 0, [MoveRow(1, -1, "first 1", 1.0)], key="same", answer="a"))

    try:
        racers = [threading.Thread(target=write, args=(on,)) for on in stores]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=30)
    finally:
        stores[1].close()
    assert sorted(results, key=lambda w: w.done) == [Written(False, "a"), Written(True, None)]
    assert logged(store) == [(1, "first 1")]


def test_a_table_match_and_its_devices_within_their_caps(store: Store) -> None:
    device = DeviceRow("hash-a", "Phone", 1.0)
    assert store.create_table_match(bare_row("t1", "me"), [SeatRow(0, "Ann")], device, 2, 3, since=0.0) is None
    assert store.create_table_match(bare_row("t2", "me"), [SeatRow(0, "Ann")], device, 2, 3, since=0.0) is None
    assert store.create_table_match(bare_row("t3", "me"), [SeatRow(0, "Ann")], device, 2, 3, since=0.0) == (2, 2)
    assert store.match("t3") is None
    # Counted only while they change: the day's, not every match a client ever kept at a table.
    assert store.create_table_match(bare_row("t3", "me"), [SeatRow(0, "Ann")], device, 2, 3, since=5.0) is None
    assert store.create_table_match(bare_row("t4", "you"), [SeatRow(0, "Ann")], device, 2, 3, since=0.0) == (0, 3)
    assert store.devices("t1") == [device]
    assert store.add_device("t1", DeviceRow("hash-b", "Tablet", 2.0), limit=2)
    assert not store.add_device("t1", DeviceRow("hash-c", "Third", 3.0), limit=2)
    assert [d.name for d in store.devices("t1")] == ["Phone", "Tablet"]


def bare_row(match_id: str, creator: str | None) -> MatchRow:
    return MatchRow(id=match_id, game="digit", options={"table": True}, seats=2, seed=1, status="playing", public=False,
                    invite_hash="x", clock=None, clock_state=None, version=0, epoch=None, epoch_started=None, due=None,
                    created=1.0, updated=1.0, creator=creator, at_table="entered")  # fmt: skip

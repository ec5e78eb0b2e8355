"""The match service's async gate (``MatchCore.load_async``, ``Gate.move_async``, ``Scheduler.run_due_async``),
which the HTTP move route and the live sockets use, on both stores. It is the same core as the sync gate
(``Gate._move_steps``); here the store's round trips are awaited, so other requests run
while a move is in flight, and these tests pin what they may and may not see."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from engine.errors import IllegalMoveError, NotationError, StaleVersionError, WrongPlayerError
from matches.core import CATCH_UP_ON_LOOP
from matches.correspondence import DAY
from matches.errors import Unauthorized
from matches.service import MatchService
from matches.store import Change, PostgresStore, Store, open_store
from tests.matches.conftest import FakeClock, in_process
from tests.matches.playing import two_players, whose_turn
from tests.matches.waiting import eventually


class PausingStore:
    """Holds a store's commits from the event loop until the test lets each go: a commit in flight,
    as a PostgreSQL round trip is, for as long as a test needs to look around. It also lists every
    call the async driver makes (``calls``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reached = asyncio.Event()
        self.release = asyncio.Event()
        self.fail: Exception | None = None
        self.calls: list[str] = []
        self._call = store.call_async
        # SQLite's calls are short and made directly (``Store.awaits`` is false); held here, they
        # go through the async driver as PostgreSQL's do, or there would be no commit to hold.
        store.awaits = True  # type: ignore[misc]
        store.call_async = self.call_async  # type: ignore[method-assign]

    async def call_async(self, method: str, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(method)
        if method == "commit_move":
            self.reached.set()
            await self.release.wait()
            if self.fail is not None:
                raise self.fail
        return await self._call(method, *args, **kwargs)

    async def held_pass(self, service: MatchService, match_id: str, seat: int) -> asyncio.Task[Any]:
        """``seat``'s pass at version 0 through ``service``'s async gate, started and held at its commit."""
        moving = asyncio.create_task(service.gate.move_async(match_id, seat, "pass", 0))
        await self.reached.wait()
        return moving


@pytest.fixture
def services(store_url: str, clock: FakeClock) -> Iterator[tuple[MatchService, MatchService]]:
    """Two server processes' services on one store."""
    made = [MatchService(open_store(store_url), in_process(bot_delay_ms=0), clock_now=clock) for _ in range(2)]
    yield made[0], made[1]
    for service in made:
        service.store.close()


def test_the_async_gate_checks_in_order_and_plays_as_the_sync_one(service: MatchService) -> None:
    match_id, _ = two_players(service, mode="challenge")
    mover = whose_turn(service, match_id)
    before = service.core.load(match_id).state.to_json()  # type: ignore[union-attr]

    async def play() -> None:
        with pytest.raises(WrongPlayerError):
            await service.gate.move_async(match_id, 1 - mover, "garbage", 99)
        with pytest.raises(StaleVersionError):
            await service.gate.move_async(match_id, mover, "garbage", 99)
        with pytest.raises(NotationError):
            await service.gate.move_async(match_id, mover, "garbage", 0)
        with pytest.raises(IllegalMoveError):
            await service.gate.move_async(match_id, mover, "5,5 Zy", 0)
        assert (await service.core.load_async(match_id)).state.to_json() == before  # type: ignore[union-attr]
        for version in range(4):
            loaded = await service.core.load_async(match_id)
            state = loaded.state
            assert state is not None
            seat = [s for s in state.acting_players() if state.must_act(s)][0]
            moved = await service.gate.move_async(match_id, seat, "pass", version, loaded)
            assert moved.version == version + 1

    asyncio.run(play())
    assert [(m.version, m.move) for m in service.store.moves(match_id)] == [(v, "pass") for v in range(1, 5)]
    cached = service.core.load(match_id).state
    service.core.states.clear()
    assert service.core.load(match_id).state.to_json() == cached.to_json()  # type: ignore[union-attr]


def test_a_move_in_flight_is_seen_by_no_other_request(service: MatchService) -> None:
    """While a move's commit is awaited, a request on the same match (the sync GET route here) sees
    the match as stored, without the move; once committed, everyone sees it."""
    match_id, _ = two_players(service)
    mover = whose_turn(service, match_id)
    pausing = PausingStore(service.store)

    async def play() -> None:
        moving = await pausing.held_pass(service, match_id, mover)
        seen = service.core.load(match_id)
        assert seen.state is not None and seen.state.version == 0 and seen.state.history == []
        assert service.core.body(seen, 1 - mover)["version"] == 0
        pausing.release.set()
        moved = await moving
        assert moved.version == 1

    asyncio.run(play())
    assert service.core.load(match_id).state.version == 1  # type: ignore[union-attr]


def test_a_commit_that_fails_leaves_no_trace(service: MatchService) -> None:
    match_id, _ = two_players(service)
    mover = whose_turn(service, match_id)
    before = service.core.load(match_id).state.to_json()  # type: ignore[union-attr]
    pausing = PausingStore(service.store)
    pausing.fail = ConnectionError("the database went away")
    pausing.release.set()

    async def play() -> None:
        with pytest.raises(ConnectionError):
            await service.gate.move_async(match_id, mover, "pass", 0)

    asyncio.run(play())
    assert service.store.moves(match_id) == []
    assert service.core.load(match_id).state.to_json() == before  # type: ignore[union-attr]


def test_two_moves_at_one_version_in_one_process_one_wins(service: MatchService) -> None:
    match_id, _ = two_players(service)
    mover = whose_turn(service, match_id)

    async def play() -> list[Any]:
        tries = [service.gate.move_async(match_id, mover, "pass", 0) for _ in range(3)]
        return await asyncio.gather(*tries, return_exceptions=True)

    outcomes = asyncio.run(play())
    assert sum(not isinstance(outcome, Exception) for outcome in outcomes) == 1
    assert all(
        isinstance(outcome, (StaleVersionError, WrongPlayerError))
        for outcome in outcomes
        if isinstance(outcome, Exception)
    )
    assert [(m.version, m.seat) for m in service.store.moves(match_id)] == [(1, mover)]


def test_two_servers_race_through_the_async_gate(services: tuple[MatchService, MatchService]) -> None:
    """The second server's commit is held until the first has committed the same version: the store's
    versioned commit refuses it, and the second rebuilds from the log rather than keep its attempt."""
    first, second = services
    match_id, _ = two_players(first)
    mover = whose_turn(first, match_id)
    pausing = PausingStore(second.store)

    async def play() -> None:
        racing = await pausing.held_pass(second, match_id, mover)
        await first.gate.move_async(match_id, mover, "pass", 0)
        pausing.release.set()
        with pytest.raises(StaleVersionError):
            await racing
        caught_up = (await second.core.load_async(match_id)).state
        assert caught_up is not None and caught_up.version == 1
        assert caught_up.to_json() == (await first.core.load_async(match_id)).state.to_json()  # type: ignore[union-attr]

    asyncio.run(play())
    assert [(m.version, m.seat) for m in first.store.moves(match_id)] == [(1, mover)]


def test_the_other_server_catches_up_through_the_async_load(services: tuple[MatchService, MatchService]) -> None:
    first, second = services
    match_id, _ = two_players(first)

    async def play() -> None:
        for version in range(6):
            server = (first, second)[version % 2]
            loaded = await server.core.load_async(match_id)
            state = loaded.state
            assert state is not None and state.version == version
            seat = [s for s in state.acting_players() if state.must_act(s)][0]
            await server.gate.move_async(match_id, seat, "pass", version, loaded)

    asyncio.run(play())
    assert first.core.load(match_id).state.to_json() == second.core.load(match_id).state.to_json()  # type: ignore[union-attr]


@pytest.mark.slow
def test_bots_move_through_the_async_scheduler(service: MatchService, clock: FakeClock) -> None:
    made = service.lobby.create("bop", {"players": 2}, bots={"0": "greedy", "1": "greedy"})

    async def play() -> int:
        played = 0
        while await service.scheduler.run_due_async(made.match) and played < 400:
            played += 1
            clock.advance(1)
        return played

    played = asyncio.run(play())
    state = service.core.load(made.match).state
    assert state is not None and played == state.version and played > 0
    assert [m.version for m in service.store.moves(made.match)] == list(range(1, played + 1))


def test_a_server_behind_catches_up_in_one_round_trip(services: tuple[MatchService, MatchService]) -> None:
    """The moves another server made come with the match's row (``match_and_moves``): a server that
    holds the match a few moves behind reads the store once to catch up, not twice."""
    first, second = services
    match_id, _ = two_players(first)
    assert second.core.load(match_id).state.version == 0  # type: ignore[union-attr]
    for version in range(3):
        state = first.core.load(match_id).state
        assert state is not None
        first.gate.move(match_id, [s for s in state.acting_players() if state.must_act(s)][0], "pass", version)
    counted = PausingStore(second.store)
    caught_up = asyncio.run(second.core.load_async(match_id)).state
    assert caught_up is not None and caught_up.version == 3
    assert caught_up.to_json() == first.core.load(match_id).state.to_json()  # type: ignore[union-attr]
    assert counted.calls == ["match_and_moves"]


def test_a_server_far_behind_reads_no_more_missed_moves_with_the_row_than_it_would_play(
    services: tuple[MatchService, MatchService],
) -> None:
    """``match_and_moves`` sends at most ``most`` of the moves missed (one round trip on PostgreSQL, two
    queries on SQLite): a server far behind rebuilds from the snapshot rather than play them on the
    event loop (``test_cold``), so reading every one of them there would be wasted. A library caller,
    whose sync driver goes on far behind, reads the rest of the log and ends at the stored state."""
    first, second = services
    match_id, _ = two_players(first)
    assert second.core.load(match_id).state.version == 0  # type: ignore[union-attr]
    behind = CATCH_UP_ON_LOOP + 9
    for version in range(behind):
        state = first.core.load(match_id).state
        assert state is not None
        first.gate.move(match_id, [s for s in state.acting_players() if state.must_act(s)][0], "pass", version)
    for most in (1, 5, CATCH_UP_ON_LOOP + 1):
        found = asyncio.run(second.store.call_async("match_and_moves", match_id, 0, most))
        assert found is not None
        row, _, missed = found
        assert row.version == behind and [move.version for move in missed] == list(range(1, most + 1))
    counted = PausingStore(second.store)
    assert counted.calls == []
    caught_up = second.core.load(match_id).state
    assert caught_up is not None and caught_up.version == behind
    assert caught_up.to_json() == first.core.load(match_id).state.to_json()  # type: ignore[union-attr]


def test_a_copy_older_than_the_one_read_for_catches_up_from_the_log(service: MatchService) -> None:
    """The moves that come with the row start at the version the cached copy had when it was read.
    If, by the time the answer comes back, the cache holds an older copy (rebuilt by another request),
    those moves do not reach it: the load reads the rest of the log instead of skipping moves."""
    match_id, _ = two_players(service)
    for version in range(3):
        service.gate.move(match_id, whose_turn(service, match_id), "pass", version)
    current = service.core.load(match_id).state
    assert current is not None and current.version == 3
    older = service.core.game_of(service.core.load(match_id).row).new_initial_state(
        service.core.load(match_id).row.seed
    )
    first = service.store.moves(match_id)[0]
    older.act(first.seat, first.move)
    steps = service.core.load_steps(match_id)
    call = next(steps)
    assert call == ("match_and_moves", (match_id, 3, CATCH_UP_ON_LOOP + 1), {})
    answer = service.store.match_and_moves(match_id, 3)
    service.core.states[match_id] = older  # the cache changed while the read was out
    call = steps.send(answer)
    assert call == ("moves", (match_id, 1), {})
    with pytest.raises(StopIteration) as done:
        steps.send(service.store.moves(match_id, 1))
    loaded = done.value.value
    assert loaded.state is older and older.version == 3 and older.to_json() == current.to_json()


def _stored_moves(service: MatchService, match_id: str) -> list[tuple[int, int, str]]:
    return [(m.version, m.seat, m.move) for m in service.store.moves(match_id)]


def test_a_move_on_the_process_copy_is_one_store_call_and_moves_the_revision(service: MatchService) -> None:
    """Once a process holds a match (it read it, or committed its last move), the next move is
    committed on that copy: one store call, the commit, which checks the copy's revision and the
    token. The stored revision and the copy's then agree again."""
    match_id, tokens = two_players(service)
    first = whose_turn(service, match_id)

    async def play() -> tuple[Any, Any, list[str]]:
        await service.gate.move_async(match_id, first, "pass", 0, await service.core.load_async(match_id))
        counted = PausingStore(service.store)
        counted.release.set()
        second = whose_turn(service, match_id)
        moved = await service.gate.move_on_copy_async(match_id, tokens[second], "pass", 1)
        return moved, second, counted.calls

    moved, second, calls = asyncio.run(play())
    assert calls == ["commit_move"]
    assert moved is not None and moved.version == 2 and moved.seat == second
    assert _stored_moves(service, match_id)[-1] == (2, second, "pass")
    stored = service.store.match(match_id)
    assert stored is not None and stored.revision == moved.loaded.row.revision and stored.version == 2


def test_a_copy_the_store_has_moved_past_commits_nothing(services: tuple[MatchService, MatchService]) -> None:
    """Another server moved the match, or a seat left there: the copy's move is refused by the gate
    (a newer version than the copy's) or by the commit's check (the copy's version, now stale; the
    departed seat's token), answers None, and stores nothing; the gate on a fresh read then gives
    each its answer."""
    first, second = services
    match_id, tokens = two_players(first)
    mover = whose_turn(first, match_id)
    asyncio.run(second.core.load_async(match_id))  # second's copy, at version 0
    first.gate.move(match_id, mover, "pass", 0)  # first moves on: version 1
    other = whose_turn(first, match_id)
    log = _stored_moves(first, match_id)

    async def on_copy(seat: int, version: int) -> Any:
        return await second.gate.move_on_copy_async(match_id, tokens[seat], "pass", version)

    counted = PausingStore(second.store)
    counted.release.set()
    assert asyncio.run(on_copy(other, 1)) is None  # the copy is at 0: refused before any commit
    assert counted.calls == []
    assert asyncio.run(on_copy(mover, 0)) is None  # the copy's own version: the commit's check refuses it
    assert counted.calls == ["commit_move"]
    assert _stored_moves(first, match_id) == log
    counted.calls.clear()  # the copy was put back as it was before the move: it catches up, not rebuilt
    assert asyncio.run(second.core.load_async(match_id)).state.version == 1  # type: ignore[union-attr]
    assert counted.calls == ["match_and_moves"]
    with pytest.raises(StaleVersionError):
        asyncio.run(second.gate.move_async(match_id, other, "pass", 0))  # a fresh read: the stale version's answer
    moved = asyncio.run(
        second.gate.move_async(match_id, other, "pass", 1, asyncio.run(second.core.load_async(match_id)))
    )
    assert moved.version == 2

    # The seat that is not to move leaves on first, and a bot takes it: neither the version nor the
    # mover's token changes, only the revision tells second's copy (which has no bot) is outdated.
    actor = whose_turn(second, match_id)
    idle = 1 - actor
    first.lobby.leave(match_id, idle)
    assert asyncio.run(on_copy(actor, 2)) is None
    assert _stored_moves(first, match_id) == [*log, (2, other, "pass")]
    moved = asyncio.run(
        second.gate.move_async(match_id, actor, "pass", 2, asyncio.run(second.core.load_async(match_id)))
    )
    assert moved.version == 3 and moved.loaded.row.due is not None  # the bot's turn, scheduled
    with pytest.raises(Unauthorized):  # and the departed seat's token holds nothing any more
        second.core.authenticate(match_id, tokens[idle], asyncio.run(second.core.load_async(match_id)).seats)


def test_a_move_tried_on_the_copy_and_again_on_a_fresh_read_is_timed_once(store_url: str) -> None:
    """``play_async`` times a move when it arrives: a second try, after the copy failed its check,
    keeps that time (a real-time game's claim is not made later by the retry)."""
    ticks = iter(range(1_000_000, 2_000_000))
    first, second = (
        MatchService(open_store(store_url), in_process(bot_delay_ms=0), clock_now=lambda: float(next(ticks)))
        for _ in range(2)
    )
    try:
        match_id, tokens = two_players(first)
        mover = whose_turn(first, match_id)
        asyncio.run(second.core.load_async(match_id))  # second's copy
        first.store.touch(match_id, 5.0)  # a write elsewhere: the copy's check will fail
        before = next(ticks)
        moved = asyncio.run(second.gate.play_async(match_id, tokens[mover], "pass", 0))
        assert moved.version == 1
        stored = second.store.moves(match_id)[-1]
        assert stored.at == before + 1  # the tick play_async took on arrival, not a later one
    finally:
        first.store.close()
        second.store.close()


def test_the_copy_follows_the_schedulers_own_write(service: MatchService) -> None:
    """The scheduler's "nothing due yet" write moves the revision; the process that made it moves its
    copy's with it, so the next move still commits on the copy (one store call), not on a rebuild."""
    match_id, tokens = two_players(service)
    mover = whose_turn(service, match_id)  # (a read: before the write, whose copy is the point)
    asyncio.run(service.core.load_async(match_id))
    before = service.store.match(match_id)
    assert before is not None
    assert service.scheduler.run_due(match_id) is False  # nothing to play: it writes when to look next
    after = service.store.match(match_id)
    assert after is not None and after.revision == before.revision + 1
    counted = PausingStore(service.store)
    counted.release.set()
    moved = asyncio.run(service.gate.move_on_copy_async(match_id, tokens[mover], "pass", 0))
    assert moved is not None and moved.version == 1 and counted.calls == ["commit_move"]


def test_a_snapshot_is_kept_every_few_moves_in_place_of_the_last_and_a_new_server_starts_from_it(
    services: tuple[MatchService, MatchService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``SNAPSHOT_EVERY`` moves the mover's process stores the state (on PostgreSQL, one
    statement on the event loop's connections), replacing the one before; a process that holds no
    copy starts from it and replays only the moves after it."""
    monkeypatch.setattr("matches.gate.SNAPSHOT_EVERY", 3)
    first, second = services
    match_id, tokens = two_players(first)

    async def play(moves: int) -> None:
        for _ in range(moves):
            loaded = await first.core.load_async(match_id)
            state = loaded.state
            assert state is not None
            seat = [s for s in state.acting_players() if state.must_act(s)][0]
            await first.gate.play_async(match_id, tokens[seat], "pass", state.version)

    asyncio.run(play(4))
    assert first.store.snapshot(match_id) is not None and first.store.snapshot(match_id)[0] == 3  # type: ignore[index]
    asyncio.run(play(3))
    kept = first.store._query("SELECT version FROM snapshots WHERE match_id = ?", (match_id,))
    assert [row[0] for row in kept] == [6]  # the one at 3 replaced
    version, saved = first.store.snapshot(match_id)  # type: ignore[misc]
    row = first.store.match(match_id)
    assert row is not None
    replayed = first.core.game_of(row).new_initial_state(row.seed)
    for move in first.store.moves(match_id)[:6]:
        replayed.act(move.seat, move.move)
    assert saved == replayed.to_json()
    counted = PausingStore(second.store)
    rebuilt = asyncio.run(second.core.load_async(match_id)).state
    assert counted.calls == ["match_and_moves", "snapshot", "moves"]
    assert rebuilt is not None and rebuilt.version == 7
    assert rebuilt.to_json() == first.core.load(match_id).state.to_json()  # type: ignore[union-attr]


def test_a_snapshot_that_cannot_be_kept_loses_nothing(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The snapshot follows the commit: if it fails, the move stands, is answered and told."""
    monkeypatch.setattr("matches.gate.SNAPSHOT_EVERY", 1)
    match_id, tokens = two_players(service)
    told: list[int] = []
    service.core.listeners.append(lambda event: told.append(event.version))
    held = PausingStore(service.store)
    held.release.set()
    call = held.call_async

    async def failing(method: str, *args: Any, **kwargs: Any) -> Any:
        if method == "save_snapshot":
            raise OSError("the disk is full")
        return await call(method, *args, **kwargs)

    service.store.call_async = failing  # type: ignore[method-assign]
    seat = whose_turn(service, match_id)
    moved = asyncio.run(service.gate.play_async(match_id, tokens[seat], "pass", 0))
    assert moved.version == 1 and told == [1]
    assert _stored_moves(service, match_id) == [(1, seat, "pass")]
    assert service.store.snapshot(match_id) is None


def test_the_schedulers_looks_from_the_event_loop_answer_as_the_store(service: MatchService, clock: FakeClock) -> None:
    """``due`` and ``next_due`` awaited (on PostgreSQL, the event loop's connections) find the
    matches the store's own calls find: a bot's move due, then none once it is played."""
    made = service.lobby.create("bop", {"players": 2}, bots={"1": "greedy"}, name="Ann")
    idle = service.lobby.create("bop", {"players": 2}, name="Bo")  # waiting for a second player: nothing due
    store = service.store
    row = store.match(made.match)
    assert row is not None and idle.match != made.match

    async def look(now: float) -> tuple[list[str], float | None, list[str]]:
        return (
            await store.call_async("due", now),
            await store.call_async("next_due"),
            await store.call_async("due", now, limit=0),
        )

    state = service.core.load(made.match).state
    assert state is not None
    if state.must_act(1):  # the bot's turn first: let it move, so that the human's turn is next
        assert service.scheduler.run_due(made.match)
    seat = whose_turn(service, made.match)
    assert seat == 0
    assert asyncio.run(look(clock.now + 3600)) == (store.due(clock.now + 3600), store.next_due(), [])
    # The human's turn: nothing due but, days on, the end of a match its table walked away from (matches.gone).
    left_at = clock.now + service.core.settings.abandon_days * DAY
    assert asyncio.run(look(clock.now + 3600))[:2] == ([], left_at)
    service.gate.move(made.match, 0, "pass", service.core.load(made.match).state.version)  # type: ignore[union-attr]
    due, next_due, none = asyncio.run(look(clock.now + 3600))
    assert due == store.due(clock.now + 3600) == [made.match] and none == []
    assert next_due == store.next_due() and next_due is not None and clock.now <= next_due <= clock.now + 3600
    assert asyncio.run(look(next_due - 0.001))[0] == []


def test_a_server_hears_the_other_servers_moves_not_its_own(services: tuple[MatchService, MatchService]) -> None:
    """PostgreSQL tells every listening server of every commit. A server's own moves were told to
    its sockets when committed, so its store's change feed lets their notifications go (by the sending
    backend's process id) and gives the other server's; a closed connection's id no longer counts as
    its own."""
    first, second = services
    if not isinstance(first.store, PostgresStore):
        pytest.skip("SQLite has no notifications: each process looks at the versions")
    heard: list[Change] = []
    match_id, tokens = two_players(first)

    import psycopg

    from matches.store import NOTIFY_CHANNEL

    url = first.store.url

    async def listening() -> None:
        """Until the feed's connection has run its LISTEN (bounded: 10 s)."""
        listeners = (
            "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%%' "
            "AND state = 'idle'"
        )
        with psycopg.connect(url, autocommit=True) as admin:
            await eventually(lambda: admin.execute(listeners).fetchall(), "the feed's listener to connect", 10)

    async def run() -> tuple[int, bool]:
        assert isinstance(first.store, PostgresStore)
        feed = first.store.changes_feed(dict)  # no match watched: nothing to catch up, only what it hears

        async def hear() -> None:
            async for change in feed:
                heard.append(change)

        hearing = asyncio.create_task(hear())
        try:
            await listening()
            for version, service in enumerate([first, second, first, second]):
                loaded = await service.core.load_async(match_id)
                state = loaded.state
                assert state is not None
                seat = [s for s in state.acting_players() if state.must_act(s)][0]
                await service.gate.play_async(match_id, tokens[seat], "pass", version)
            # "Nothing more comes" as a condition: a last note from a third connection arrives after every
            # note of the moves committed before it (PostgreSQL delivers them in commit order).
            with psycopg.connect(url, autocommit=True) as other:
                other.execute(f"NOTIFY {NOTIFY_CHANNEL}, 'last:0'")
            await eventually(lambda: Change("last", 0) in heard, "the last note", 10)
            assert heard.pop() == Change("last", 0)
            own = next(iter(first.store._async._backends.values()))
            pid = own.get_server_pid()
            mine = first.store.notified_by_me(pid)
            own.terminate()
            return pid, mine and not first.store.notified_by_me(pid)
        finally:
            hearing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await hearing
            await feed.aclose()

    pid, forgotten_when_closed = asyncio.run(run())
    assert heard == [Change(match_id, 2), Change(match_id, 4)]
    assert forgotten_when_closed
    assert isinstance(second.store, PostgresStore) and not second.store.notified_by_me(pid)

"""Loading a match this process does not hold (``matches.cold``), on both stores: rebuilt on a thread of
its own, never on the event loop; one load for every request that asks for it at once; a request waits
at most the read budget (503 ``busy``, ``Retry-After``) and the retry finds the match loaded; at most
``engine_queue`` matches wait to be loaded; moves made while a match loads are caught up.

Each test's "server" is a second service on its own connection to the store, as another server process
(or this one after a restart) would be, with a worker pool configured (it starts no worker: loading
needs none). Its rebuild is slowed by a sleep, so that a load takes long enough to be seen whatever
the machine's speed: on the loading thread the sleep leaves the event loop free; on the loop it would
hold it for the whole sleep."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from matches.core import CATCH_UP_ON_LOOP, Loaded
from matches.errors import UnknownMatch
from matches.service import MatchService
from matches.settings import MatchLimits
from matches.store import MatchRow, Store, open_store
from matches.work import Busy
from service.app import create_app
from service.settings import Settings
from tests.matches.conftest import FakeClock, in_process
from tests.matches.playing import bop_of_passes, play_passes, two_players

T = TypeVar("T")

#: How long each slowed rebuild takes (s).
SLOW = 0.4
#: Moves in the matches loaded (enough for a snapshot and moves after it).
MOVES = 73


class SlowRebuilds:
    """Slows a service's rebuilds (``MatchCore._rebuild_steps``) by ``SLOW`` seconds after its reads, and
    notes the thread each ran on."""

    def __init__(self, service: MatchService, before: Any = None, slow: float = SLOW) -> None:
        self.threads: list[threading.Thread] = []
        self.before = before  # called after the rebuild's reads, before its wait (another server moves)
        original = service.core._rebuild_steps

        def slowed(row: MatchRow, game: Any) -> Any:
            state = yield from original(row, game)
            self.threads.append(threading.current_thread())
            if self.before is not None:
                self.before()
            time.sleep(slow)
            return state

        service.core._rebuild_steps = slowed  # type: ignore[method-assign]


@pytest.fixture
def writer(store: Store, clock: FakeClock) -> MatchService:
    """The service that made the matches (and holds them)."""
    return MatchService(store, in_process(bot_delay_ms=0, lexicon="standard"), clock_now=clock)


@pytest.fixture
def reopened(store_url: str) -> Iterator[Store]:
    """A second connection to the same store: another server process's."""
    other = open_store(store_url)
    yield other
    other.close()


#: The services a test made (their loading threads end with the test).
SERVERS: list[MatchService] = []


@pytest.fixture(autouse=True)
def close_servers() -> Iterator[None]:
    yield
    while SERVERS:
        SERVERS.pop().core.cold.close()


def server(store: Store, clock: FakeClock, **settings: Any) -> MatchService:
    values: dict[str, Any] = {"bot_delay_ms": 0, "lexicon": "standard", "engine_workers": 1, **settings}
    made = MatchService(store, in_process(**values), clock_now=clock)
    SERVERS.append(made)
    return made


def test_a_match_not_held_is_rebuilt_off_the_event_loop(
    writer: MatchService, reopened: Store, clock: FakeClock
) -> None:
    match_id = bop_of_passes(writer, MOVES)
    cold = server(reopened, clock)
    # Long enough that a rebuild on the loop (one gap of at least ``stall``) is told apart from the
    # pauses a busy machine gives a loop that turns (0.39 s once, with the whole suite running).
    stall = 1.0
    slow = SlowRebuilds(cold, slow=stall)

    async def run() -> tuple[Loaded, float, float]:
        started = time.perf_counter()
        loaded, stood_still = await timed(cold.core.load_async(match_id))  # the loop's turns while it loads
        return loaded, time.perf_counter() - started, stood_still

    loaded, took, stood_still = asyncio.run(run())
    assert loaded.state is not None and loaded.state.version == MOVES
    assert len(slow.threads) == 1 and slow.threads[0] is not threading.main_thread()
    assert took >= stall
    # On the loop, the rebuild's whole stall would be one gap; off it, the loop turns every few ms.
    assert stood_still < stall / 2, f"the event loop stood still for {stood_still:.3f} s"
    # Held now: the next load is the cache's, with no rebuild.
    asyncio.run(cold.core.load_async(match_id))
    assert len(slow.threads) == 1


def test_requests_for_one_match_share_one_load(writer: MatchService, reopened: Store, clock: FakeClock) -> None:
    match_id = bop_of_passes(writer, MOVES)
    cold = server(reopened, clock)
    slow = SlowRebuilds(cold)

    async def run() -> list[Any]:
        asked = [cold.core.load_async(match_id) for _ in range(6)]
        return await asyncio.gather(*asked, cold.scheduler.run_due_async(match_id))

    *loads, due = asyncio.run(run())
    assert len(slow.threads) == 1 and cold.core.cold.started == 1
    assert {loaded.state.version for loaded in loads} == {MOVES} and due is False


def test_a_load_past_the_budget_answers_busy_and_the_retry_finds_it_loaded(
    writer: MatchService, reopened: Store, clock: FakeClock
) -> None:
    match_id = bop_of_passes(writer, MOVES)
    cold = server(reopened, clock, read_budget_ms=100)
    slow = SlowRebuilds(cold)

    async def run() -> Loaded:
        with pytest.raises(Busy, match="took longer than 0.1 s") as refused:
            await cold.core.load_async(match_id)
        assert refused.value.status == 503 and refused.value.retry_after > 0
        while cold.core.cold.loading(match_id):  # it goes on meanwhile
            await asyncio.sleep(0.02)
        return await cold.core.load_async(match_id)

    loaded = asyncio.run(run())
    assert loaded.state is not None and loaded.state.version == MOVES
    assert len(slow.threads) == 1


def test_at_most_the_engine_queue_of_matches_wait_to_be_loaded(
    writer: MatchService, reopened: Store, clock: FakeClock
) -> None:
    first, second = bop_of_passes(writer, MOVES), bop_of_passes(writer, MOVES)
    cold = server(reopened, clock, engine_queue=1)
    SlowRebuilds(cold)

    async def run() -> None:
        loading = asyncio.create_task(cold.core.load_async(first))
        await asyncio.sleep(0.05)
        with pytest.raises(Busy, match="loading 1 matches"):
            await cold.core.load_async(second)
        assert (await loading).state is not None
        assert (await cold.core.load_async(second)).state is not None  # its turn now

    asyncio.run(run())


def test_moves_made_while_a_match_loads_are_caught_up(writer: MatchService, reopened: Store, clock: FakeClock) -> None:
    match_id = bop_of_passes(writer, MOVES)
    cold = server(reopened, clock)

    def another_server_moves() -> None:
        state = writer.core.load(match_id).state
        assert state is not None
        writer.gate.move(match_id, state.acting_players()[0], "pass", state.version)

    SlowRebuilds(cold, before=another_server_moves)
    loaded = asyncio.run(cold.core.load_async(match_id))
    assert loaded.state is not None and loaded.state.version == loaded.row.version == MOVES + 1
    assert loaded.state.to_json() == writer.core.load(match_id).state.to_json()  # type: ignore[union-attr]


def test_a_waiting_or_unknown_match_loads_as_before(writer: MatchService, reopened: Store, clock: FakeClock) -> None:
    waiting = writer.lobby.create("bop", {"players": 2}, name="Ann").match
    cold = server(reopened, clock)
    assert asyncio.run(cold.core.load_async(waiting)).state is None
    with pytest.raises(UnknownMatch):
        asyncio.run(cold.core.load_async("no-such-match"))


def test_over_http_a_load_past_the_budget_is_a_503_with_retry_after(tmp_path: Path) -> None:
    """The answer a client gets: 503 ``busy`` with ``Retry-After``, as the other reads past their budget;
    asked again once the load is done, the match."""
    app = create_app(Settings(lexicons=("standard",), data_dir=str(tmp_path), match=MatchLimits(read_budget_ms=100)))
    service: MatchService = app.state.matches
    SERVERS.append(service)

    async def run() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://play.test") as http:
            made = (await http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"})).json()
            await http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"})
            service.core.states.clear()  # as after a restart: the match is in the store only
            service.core.copies.clear()
            SlowRebuilds(service)
            refused = await http.get(f"/v1/matches/{made['match']}")
            while service.core.cold.loading(made["match"]):
                await asyncio.sleep(0.02)
            return refused, await http.get(f"/v1/matches/{made['match']}")

    refused, answered = asyncio.run(run())
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) >= 1
    assert refused.json()["error"]["code"] == "busy" and "took longer than 0.1 s" in refused.json()["error"]["message"]
    assert answered.status_code == 200 and answered.json()["status"] == "playing"


# --- a process whose state is behind the store (another server process played on) --------------------
#: Moves another server plays past this one's state: one more than a load catches up on the loop.
FAR = CATCH_UP_ON_LOOP + 1
#: How long each of the stale state's moves is made to take (s): ``FAR`` of them on the loop would
#: hold it for over a second.
SLOW_ACT = 0.02


class SlowActs:
    """Slows the moves played on one state (``state.act``) and notes the thread each ran on."""

    def __init__(self, state: Any, pause: float = SLOW_ACT) -> None:
        self.threads: list[threading.Thread] = []
        act = state.act

        def slowed(*args: Any, **kwargs: Any) -> Any:
            self.threads.append(threading.current_thread())
            time.sleep(pause)
            return act(*args, **kwargs)

        state.act = slowed


async def timed(work: Awaitable[T]) -> tuple[T, float]:
    """``work`` awaited while the event loop's turns are timed: its answer, and the loop's longest pause (s)."""
    done, gaps = asyncio.Event(), [0.0]

    async def tick() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(tick())
    await asyncio.sleep(0.02)
    try:
        answer = await work
    finally:
        done.set()
        await ticking  # (its last gap, the one the work ended in, noted)
    return answer, max(gaps)


def behind(writer: MatchService, cold: MatchService, moves: int) -> tuple[str, Any]:
    """A match ``cold`` holds ``moves`` moves behind the store (``writer`` played them since), and the
    state it holds."""
    match_id = bop_of_passes(writer, MOVES)
    held = cold.core.load(match_id).state  # a library caller's load: this process holds the match now
    play_passes(writer, match_id, moves)
    return match_id, held


@pytest.mark.parametrize("entry", ["load", "move", "due"])
def test_a_state_far_behind_is_rebuilt_off_the_event_loop_not_caught_up_on_it(
    writer: MatchService, reopened: Store, clock: FakeClock, entry: str
) -> None:
    """A request's load (a read, a move through the gate, the scheduler's look) that finds this process's
    state more than ``CATCH_UP_ON_LOOP`` moves behind drops it and rebuilds it on the loading thread."""
    cold = server(reopened, clock)
    match_id, held = behind(writer, cold, FAR)
    stale = SlowActs(held)
    slow = SlowRebuilds(cold, slow=1.0)
    version = MOVES + FAR
    seat = writer.core.load(match_id).state.acting_players()[0]  # type: ignore[union-attr]
    asked: dict[str, Any] = {
        "load": lambda: cold.core.load_async(match_id),
        "move": lambda: cold.gate.move_async(match_id, seat, "pass", version),
        "due": lambda: cold.scheduler.run_due_async(match_id),
    }
    _answer, pause = asyncio.run(timed(asked[entry]()))
    assert pause < 0.5, f"the event loop stood still for {pause:.3f} s"
    assert not stale.threads, f"{len(stale.threads)} missed moves were played on the stale state"
    assert len(slow.threads) == 1 and slow.threads[0] is not threading.main_thread()
    mine, stored = cold.core.load(match_id), writer.core.load(match_id)
    assert mine.state is not held and mine.state is not None and stored.state is not None
    assert mine.state.version == mine.row.version == version + (entry == "move")
    assert mine.state.to_json() == stored.state.to_json()


def test_a_short_catch_up_is_played_on_the_loop_without_a_rebuild(
    writer: MatchService, reopened: Store, clock: FakeClock
) -> None:
    cold = server(reopened, clock)
    match_id, held = behind(writer, cold, CATCH_UP_ON_LOOP)
    caught_up = SlowActs(held, 0.0)
    slow = SlowRebuilds(cold)
    loaded = asyncio.run(cold.core.load_async(match_id))
    assert loaded.state is held and held.version == MOVES + CATCH_UP_ON_LOOP
    assert len(caught_up.threads) == CATCH_UP_ON_LOOP and set(caught_up.threads) == {threading.main_thread()}
    assert not slow.threads and cold.core.cold.started == 0
    assert held.to_json() == writer.core.load(match_id).state.to_json()  # type: ignore[union-attr]


@pytest.mark.slow
def test_a_match_that_moves_on_far_during_its_rebuild_is_rebuilt_again(
    writer: MatchService, reopened: Store, clock: FakeClock
) -> None:
    """The moves made during a rebuild are caught up on the loop when they are few; when they are many,
    the rebuild is done again, at most ``REBUILD_TRIES`` times, then the answer is 503 ``busy``."""
    cold = server(reopened, clock)
    match_id, _held = behind(writer, cold, FAR)
    during = [FAR]  # what another server plays during each rebuild: far during the first, then nothing

    def another_server_plays_on() -> None:
        play_passes(writer, match_id, during.pop() if during else 0)

    slow = SlowRebuilds(cold, before=another_server_plays_on)
    loaded = asyncio.run(cold.core.load_async(match_id))
    assert len(slow.threads) == 2
    assert loaded.state is not None and loaded.state.version == loaded.row.version == MOVES + 2 * FAR

    again = server(reopened, clock)
    held = again.core.load(match_id).state
    assert held is not None
    play_passes(writer, match_id, FAR)
    SlowRebuilds(again, before=lambda: play_passes(writer, match_id, FAR), slow=0.0)
    with pytest.raises(Busy, match="moves on faster than the server can load it"):
        asyncio.run(again.core.load_async(match_id))


def test_over_http_leaving_a_match_held_far_behind_rebuilds_it_off_the_loop(store_url: str, tmp_path: Path) -> None:
    """``POST /leave`` (a sync service call once loaded): the server's state of the match, far behind what
    another server played, is rebuilt off the loop, and the answer is the match as stored."""
    app = create_app(Settings(lexicons=("standard",), data_dir=str(tmp_path), database=store_url))
    service: MatchService = app.state.matches
    SERVERS.append(service)
    other_store = open_store(store_url)
    other = server(other_store, FakeClock())

    async def run() -> tuple[httpx.Response, float, SlowActs, SlowRebuilds]:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://play.test") as http:
            made = (await http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"})).json()
            match_id = made["match"]
            await http.post(f"/v1/matches/{match_id}/join", json={"invite": made["invite"], "name": "Bob"})
            assert (await http.get(f"/v1/matches/{match_id}")).json()["version"] == 0  # held here
            play_passes(other, match_id, FAR)  # another server process plays on
            stale = SlowActs(service.core.states[match_id])
            slow = SlowRebuilds(service, slow=1.0)
            auth = {"Authorization": f"Bearer {made['token']}"}
            left, pause = await timed(http.post(f"/v1/matches/{match_id}/leave", headers=auth, json={}))
            return left, pause, stale, slow

    try:
        left, pause, stale, slow = asyncio.run(run())
    finally:
        other_store.close()
        service.store.close()
    assert left.status_code == 200, left.text
    assert left.json()["version"] == FAR and left.json()["seats"][0]["bot"] == "greedy"
    assert pause < 0.5, f"the event loop stood still for {pause:.3f} s"
    assert not stale.threads and len(slow.threads) == 1 and slow.threads[0] is not threading.main_thread()


def test_over_http_a_rematch_of_a_match_not_held_loads_no_state(
    writer: MatchService, clock: FakeClock, store_url: str, tmp_path: Path
) -> None:
    """``POST /rematch`` (a sync service call) reads the finished match's row and seats, never its state:
    on a server that does not hold the match, nothing is rebuilt, on the loop or off it."""
    match_id, tokens = two_players(writer, "highcard", cards=2)
    while (loaded := writer.core.load(match_id)).row.status != "over":
        state = loaded.state
        assert state is not None
        for seat in (0, 1):
            if seat in state.acting_players():
                writer.gate.move(match_id, seat, state.legal_moves(seat)[0].to_text(), state.version)
                break
        clock.advance(1)
        writer.scheduler.run_due(match_id)
    app = create_app(Settings(lexicons=("standard",), data_dir=str(tmp_path), database=store_url))
    service: MatchService = app.state.matches
    SERVERS.append(service)
    slow = SlowRebuilds(service, slow=1.0)

    async def run() -> tuple[httpx.Response, float, httpx.Response]:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://play.test") as http:
            auth = {"Authorization": f"Bearer {tokens[0]}"}
            again, pause = await timed(http.post(f"/v1/matches/{match_id}/rematch", headers=auth))
            return again, pause, await http.get(f"/v1/matches/{again.json()['match']}", headers=auth)

    try:
        again, pause, started = asyncio.run(run())
    finally:
        service.store.close()
    assert again.status_code == 200, again.text
    assert started.json()["status"] == "playing" and started.json()["you"] == 0
    assert not slow.threads and service.core.cold.started == 0 and match_id not in service.core.states
    assert pause < 0.5, f"the event loop stood still for {pause:.3f} s"

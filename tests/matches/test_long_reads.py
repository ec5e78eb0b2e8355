"""Reads that grow with a match, kept encoded (``matches.encoded``, issue 24): the log and the body with
its history of a long finished match never hold the event loop, answer the same bytes as before, are
built once per match and version, and the bytes kept are bounded.

Each test runs the server's app in-process (``httpx.ASGITransport``) while the event loop's turns are
timed (``timed``, as in ``test_cold``). The work that grows with the match (reading the moves, listing
the history) is slowed by a sleep, so that it takes long enough to be seen whatever the machine's
speed: off the loop the sleep leaves it free; on the loop it would hold it for the whole sleep."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from fastapi.responses import JSONResponse

from matches.core import SNAPSHOT_EVERY
from matches.encoded import EncodedCache, missed_moves
from matches.errors import UnknownMatch
from matches.http import ORJSONResponse
from matches.reads import CHECKPOINTS_PER_MATCH, checkpoint_every
from matches.service import MatchService
from matches.settings import MatchLimits
from service.app import create_app
from service.settings import Settings
from tests.matches.test_cold import timed

#: Moves in the finished match read (its pass limit: the match ends after that many passes).
MOVES = 1_500
#: How long the slowed work takes (s): on the loop, one gap at least this long.
STALL = 1.0


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """The server's app, its match server's limits as given (``MatchLimits``' fields)."""
    made: list[Any] = []

    def make(**limits: int) -> Any:
        made.append(create_app(Settings(lexicons=("standard",), data_dir=str(tmp_path), match=MatchLimits(**limits))))
        return made[-1]

    yield make
    for app in made:
        app.state.matches.core.cold.close()
        app.state.matches.core.work.close()  # (a score sheet is built in a worker process)


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app()


def finished_match(service: MatchService, moves: int = MOVES) -> tuple[str, list[str]]:
    """A two-seat BOP! match of ``moves`` passes that ended there (``pass_limit``): its id and tokens."""
    made = service.lobby.create("bop", options={"pass_limit": moves}, seats=2, name="Ann")
    _, token = service.lobby.join(made.match, made.invite_token, "Bob")
    loaded = service.core.load(made.match)
    while loaded.state is not None and not loaded.state.is_terminal():
        state = loaded.state
        loaded = service.gate.move(made.match, state.acting_players()[0], "pass", state.version, loaded).loaded
    assert loaded.row.status == "over" and loaded.state is not None and loaded.state.version == moves
    return made.match, [made.token, token]


class Slowed:
    """Slows a method of one object by ``pause`` seconds per call, noting the threads it ran on."""

    def __init__(self, owner: Any, name: str, pause: float = STALL) -> None:
        self.threads: list[threading.Thread] = []
        original: Callable[..., Any] = getattr(owner, name)

        def slowed(*args: Any, **kwargs: Any) -> Any:
            self.threads.append(threading.current_thread())
            time.sleep(pause)
            return original(*args, **kwargs)

        setattr(owner, name, slowed)


def client(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    return httpx.AsyncClient(transport=transport, base_url="http://play.test")


@pytest.mark.slow
def test_the_log_of_a_long_match_is_read_off_the_loop_once_and_answers_the_same_bytes(app: Any) -> None:
    service: MatchService = app.state.matches
    match_id, _ = finished_match(service)
    before = JSONResponse(service.encoded.log(match_id)).body  # what the route answered when FastAPI encoded it
    slow = Slowed(service.store, "moves")

    async def run() -> tuple[list[httpx.Response], float]:
        async with client(app) as http:
            first, stood_still = await timed(http.get(f"/v1/matches/{match_id}/log"))
            again = await http.get(f"/v1/matches/{match_id}/log")
        return [first, again], stood_still

    answers, stood_still = asyncio.run(run())
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[0].content == before and answers[1].content == before
    assert answers[0].headers["content-type"] == "application/json"
    assert stood_still < STALL / 2, f"the event loop stood still for {stood_still:.3f} s"
    # Read once, on the loading thread; the second answer is the kept bytes.
    assert len(slow.threads) == 1 and slow.threads[0] is not threading.main_thread()


@pytest.mark.slow
def test_the_score_sheet_of_a_long_match_reads_its_moves_off_the_loop(app: Any) -> None:
    """``/turns`` reads every move of the match from the store, once per version and reader (20 ms at
    20,000 moves on SQLite): on a thread, as a cold load's reads, so the loop serves others meanwhile."""
    service: MatchService = app.state.matches
    match_id, _ = finished_match(service)
    slow = Slowed(service.store, "moves")

    async def run() -> tuple[httpx.Response, float]:
        async with client(app) as http:
            return await timed(http.get(f"/v1/matches/{match_id}/turns"))

    answer, stood_still = asyncio.run(run())
    assert answer.status_code == 200 and len(answer.json()["turns"]) == MOVES
    assert stood_still < STALL / 2, f"the event loop stood still for {stood_still:.3f} s"
    assert len(slow.threads) == 1 and slow.threads[0] is not threading.main_thread()


@pytest.mark.slow
def test_a_log_past_the_read_budget_is_a_503_and_the_retry_finds_it_kept(make_app: Callable[..., Any]) -> None:
    app = make_app(read_budget_ms=100)
    service: MatchService = app.state.matches
    match_id, _ = finished_match(service, 60)
    Slowed(service.store, "moves", 0.4)

    async def run() -> tuple[httpx.Response, httpx.Response]:
        async with client(app) as http:
            refused = await http.get(f"/v1/matches/{match_id}/log")
            while service.encoded.encoding._loading:
                await asyncio.sleep(0.02)
            return refused, await http.get(f"/v1/matches/{match_id}/log")

    refused, answered = asyncio.run(run())
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) >= 1
    assert refused.json()["error"]["code"] == "busy"
    assert answered.status_code == 200 and len(answered.json()["moves"]) == 60


def test_a_running_match_has_no_log_and_an_unknown_one_is_a_404(app: Any) -> None:
    service: MatchService = app.state.matches
    made = service.lobby.create("bop", seats=2, name="Ann")

    async def run() -> list[httpx.Response]:
        async with client(app) as http:
            return [await http.get(f"/v1/matches/{made.match}/log"), await http.get("/v1/matches/nosuchmatch/log")]

    running, unknown = asyncio.run(run())
    assert running.status_code == 409 and running.json()["error"]["message"]
    assert unknown.status_code == 404


@pytest.mark.slow
@pytest.mark.parametrize("seat", [None, 0])
def test_the_history_of_a_long_match_is_listed_off_the_loop_once(app: Any, seat: int | None) -> None:
    service: MatchService = app.state.matches
    match_id, tokens = finished_match(service)
    loaded = service.core.load(match_id)
    before = ORJSONResponse(service.core._body(loaded, seat, history=True)).body
    assert loaded.state is not None
    slow = Slowed(loaded.state, "public_history")
    headers = {} if seat is None else {"Authorization": f"Bearer {tokens[seat]}"}

    async def run() -> tuple[list[httpx.Response], float]:
        async with client(app) as http:
            path = f"/v1/matches/{match_id}?history=true"
            first, stood_still = await timed(http.get(path, headers=headers))
            again = await http.get(path, headers=headers)
        return [first, again], stood_still

    answers, stood_still = asyncio.run(run())
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[0].content == before and answers[1].content == before
    assert len(answers[0].json()["view"]["history"]) == MOVES
    assert stood_still < STALL / 2, f"the event loop stood still for {stood_still:.3f} s"
    assert len(slow.threads) == 1 and slow.threads[0] is not threading.main_thread()


def test_a_running_match_s_history_is_listed_once_per_version(app: Any) -> None:
    service: MatchService = app.state.matches
    made = service.lobby.create("bop", seats=2, name="Ann")
    service.lobby.join(made.match, made.invite_token, "Bob")
    loaded = service.core.load(made.match)
    assert loaded.state is not None
    mover = loaded.state.acting_players()[0]
    loaded = service.gate.move(made.match, mover, "pass", 0, loaded).loaded
    state = loaded.state
    assert state is not None
    slow = Slowed(state, "public_history", 0)

    async def run() -> list[bytes]:
        async with client(app) as http:
            path = f"/v1/matches/{made.match}?history=true"
            return [(await http.get(path)).content for _ in range(3)]

    answers = asyncio.run(run())
    assert [orjson.loads(answer)["view"]["history"] for answer in answers] == [[[mover, "pass"]]] * 3
    assert len(slow.threads) == 1


def test_a_hello_lists_only_the_moves_it_missed_and_every_move_once_per_version_and_seat(app: Any) -> None:
    """A hello's moves are the same bytes as before, whatever its ``since``. A hello some moves behind lists
    those moves only (walked back from the history's end; it paid for each from the move budget): hellos a
    move behind, cycled over more matches and seats than a cache of whole lists keeps, each listed the whole
    match on the loop (an outside tester held /healthz at 1.1 s so). Every move (``since`` 0) is listed once
    per seat and version, however often asked."""
    service: MatchService = app.state.matches
    match_id, _ = finished_match(service, 40)
    loaded = service.core.load(match_id)
    state = loaded.state
    assert state is not None
    before = {
        (seat, since): orjson.dumps(missed_moves(state, seat, since)) for seat in (None, 1) for since in range(42)
    }
    assert len(orjson.loads(before[None, 0])) == 40 and before[1, 40] == before[1, 41] == b"[]"
    listed: list[int] = []  # how many history entries each listing walked
    original = state.public_history

    def counted(viewer: int | None, start: int = 0) -> list[list[Any]]:
        listed.append(len(state.history) - start)
        return original(viewer, start)

    state.public_history = counted  # type: ignore[method-assign]
    for since in [0, 0, *range(42)]:
        for seat in (None, 1):
            walked = len(listed)
            assert service.encoded.missed_json(loaded, seat, since) == before[seat, since]
            if 0 < since < 40:  # what it missed, and the chance entries among them at most
                assert listed[walked:] and listed[-1] <= len(state.history) - len(state.history) * since // 40
    assert listed.count(len(state.history)) == 2  # every move listed once per seat (None, 1)


def test_the_bytes_kept_are_bounded_and_the_least_recently_used_go_first() -> None:
    kept = EncodedCache(100)
    kept.put(("a",), b"x" * 40)
    kept.put(("b",), b"y" * 40)
    assert kept.get(("a",)) == b"x" * 40  # now the most recently used
    kept.put(("c",), b"z" * 40)
    assert kept.size <= 100 and kept.get(("b",)) is None and kept.get(("a",)) is not None
    kept.put(("huge",), b"h" * 101)  # bigger than the whole bound: answered, not kept
    assert kept.get(("huge",)) is None and kept.size == 80 and len(kept) == 2


def test_a_service_keeps_no_more_than_its_bound_of_logs(app: Any) -> None:
    service: MatchService = app.state.matches
    matches = [finished_match(service, 200)[0] for _ in range(4)]
    one_log = len(orjson.dumps(service.encoded.log(matches[0])))
    service.encoded.cache.limit = 2 * one_log + one_log // 2

    async def run() -> list[int]:
        async with client(app) as http:
            return [(await http.get(f"/v1/matches/{match_id}/log")).status_code for match_id in matches]

    assert asyncio.run(run()) == [200] * 4
    assert service.encoded.cache.size <= service.encoded.cache.limit and len(service.encoded.cache) == 2


def test_a_replay_step_or_a_review_reads_only_the_moves_it_plays(service: MatchService) -> None:
    """A step near the start of a long match, or a review, reads from the store (on the event loop) the
    moves it plays from its checkpoint, not every move after them; on both stores."""
    match_id, _ = finished_match(service, 400)
    read: list[int] = []
    moves = service.store.moves

    def counted(*args: Any, **kwargs: Any) -> Any:
        found = moves(*args, **kwargs)
        read.append(len(found))
        return found

    call_async = service.store.call_async

    async def counted_async(method: str, *args: Any, **kwargs: Any) -> Any:  # PostgreSQL's, on the loop
        found = await call_async(method, *args, **kwargs)
        if method == "moves":
            read.append(len(found))
        return found

    service.store.moves = counted  # type: ignore[method-assign]
    service.store.call_async = counted_async  # type: ignore[method-assign]
    before = service.reads.replay_view(match_id, 10)
    step = asyncio.run(service.reads.replay_view_async(match_id, 10))
    review = asyncio.run(service.reads.review_async(match_id, 5, None))
    assert step == before and review["version"] == 5 and review["move"] == "pass"
    assert read[0] == 400 and max(read[1:]) <= SNAPSHOT_EVERY, read  # (the first: the plain replay's, every move)
    # Far from the start: the way there is read once, for the checkpoints; the steps after read from those.
    assert asyncio.run(service.reads.replay_view_async(match_id, 399))["version"] == 399
    read.clear()
    assert asyncio.run(service.reads.replay_view_async(match_id, 301)) == service.reads.replay_view(match_id, 301)
    assert read[0] <= SNAPSHOT_EVERY, read


def test_the_kept_log_is_the_log_on_both_stores(service: MatchService) -> None:
    match_id, _ = finished_match(service, 30)
    assert asyncio.run(service.encoded.log_async(match_id)) == JSONResponse(service.encoded.log(match_id)).body
    with pytest.raises(UnknownMatch):
        asyncio.run(service.encoded.log_async("nosuchmatch"))


def test_a_long_match_keeps_a_bounded_number_of_checkpoints() -> None:
    """Each checkpoint holds the history so far: a long match keeps at most ``CHECKPOINTS_PER_MATCH``, so
    that the checkpoints of several long matches fit in ``CHECKPOINT_BYTES`` rather than pushing each
    other out on every step (each step then made them all again)."""
    assert [checkpoint_every(moves) for moves in (0, 400, 2_000, 2_001, 6_000, 20_000)] == [50, 50, 50, 100, 150, 500]
    for moves in range(0, 20_001, 997):
        assert moves // checkpoint_every(moves) <= CHECKPOINTS_PER_MATCH


@pytest.mark.slow
def test_replays_of_a_long_match_start_from_its_few_checkpoints(service: MatchService) -> None:
    match_id, _ = finished_match(service, 2_200)  # past 2,000 moves: a checkpoint every 100
    steps = [asyncio.run(service.reads.replay_view_async(match_id, version)) for version in (2_150, 1_234, 77, 2_001)]
    assert steps == [service.reads.replay_view(match_id, version) for version in (2_150, 1_234, 77, 2_001)]
    marks = service.reads._checkpoints[(match_id, 0)]  # (the log not rewritten: no table entry taken back)
    assert marks and all(mark % 100 == 0 for mark in marks) and len(marks) <= CHECKPOINTS_PER_MATCH + 1

"""Engine work off the event loop (issue 24): the worker pool and its budgets (``matches.work``), bots
that think in it and fall back when they overrun, reads of long matches from caches, the bot and move
limits, names without control characters. The pool's tests start real worker processes; the server's
tests a real ``tablejudge serve``, with a probe of ``/healthz`` beside what they do."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.bots import make_bot, next_move
from engine.registry import load_game
from matches.errors import BadRequest
from matches.service import MatchService, MoveLimit
from matches.store import Store, open_store
from matches.work import Busy, Overrun, WorkPool, game_key
from tests.matches.conftest import FakeClock, in_process
from tests.matches.hostile import Probe
from tests.matches.playing import bop_of_passes
from tests.matches.servers import Server
from tests.matches.waiting import eventually, wait_for

#: What a probe beside the server's work may wait for ``/healthz`` (the issue's bound).


def key_of(game: Any) -> Any:
    return game_key(game.name, game.options.to_json(), game.adjudicator.lexicon if game.word_questions else None, None)


def settle(state: Any, seats: list[Any], moves: int) -> Any:
    """``state`` after ``moves`` moves chosen by ``seats``' bots (in this process)."""
    for _ in range(moves):
        if state.is_terminal():
            break
        chosen = next_move(state, [None if seat is None else make_bot(seat[0], seat[1], state.game) for seat in seats])
        assert chosen is not None
        state.act(*chosen)
    return state


# --- the pool ------------------------------------------------------------------------------------------
@pytest.fixture
def pool() -> Iterator[WorkPool]:
    made = WorkPool(size=1, queue=1)
    yield made
    made.close()


@pytest.mark.parametrize(
    ("spec", "seats", "played"),
    [
        ("qwiply(players=3)", [("planner:2", 11), ("greedy", 12), ("random", 13)], 0),
        ("qwiply(players=3)", [("planner:2", 21), ("greedy", 22), ("random", 23)], 7),
        ("bop(players=2)", [("greedy", 31), ("random", 32)], 6),
        ("pdq(players=2)", [("quick", 41), ("steady:2500", 42)], 3),
        ("three2fifteen(players=2)", [("hard", 51), ("easy", 52)], 4),  # (its look-ahead within its budget)
    ],
)
@pytest.mark.slow
def test_a_bot_in_a_worker_makes_the_choice_it_makes_in_this_process(
    pool: WorkPool, spec: str, seats: list[Any], played: int
) -> None:
    """Determinism: a state sent as JSON and bots made from (name, seed) choose in a worker exactly as
    ``engine.bots.next_move`` does here, so every server process and a replay agree."""
    game = load_game(spec, lexicon="standard")
    state = settle(game.new_initial_state(7), seats, played)
    for _ in range(4):
        if state.is_terminal():
            break
        here = next_move(state, [make_bot(name, seed, game) for name, seed in seats])
        there = asyncio.run(pool.run("bot", key_of(game), (state.to_json(), seats), 30))
        assert there == here and there is not None
        state.act(*there)
    assert pool.started == 1  # one worker served every call, its game built once


def test_a_call_past_its_budget_is_killed_and_its_worker_replaced(pool: WorkPool) -> None:
    game = load_game("qwiply(players=3)")
    state = game.new_initial_state(3)

    async def overrun() -> tuple[float, list[int], Any]:
        started = time.monotonic()
        with pytest.raises(Overrun, match="budget"):
            await pool.run("bot", key_of(game), (state.to_json(), [("planner:48", 1), None, None]), 0.3)
        waited = time.monotonic() - started
        killed = pool.pids()
        answer = await pool.run("bot", key_of(game), (state.to_json(), [("greedy", 1), None, None]), 30)
        return waited, killed, answer

    waited, killed, answer = asyncio.run(overrun())
    assert waited < 2.0  # ended at its budget, not when the plan was done (seconds more)
    assert killed == [] and pool.overruns == 1 and pool.started == 2
    assert answer == next_move(state, [make_bot("greedy", 1, game), None, None])


def test_a_full_queue_is_refused_at_once_and_a_long_wait_at_its_budget(pool: WorkPool) -> None:
    game = load_game("qwiply(players=3)")
    state = game.new_initial_state(3).to_json()
    key = key_of(game)

    async def crowd() -> list[Any]:
        thinking = asyncio.create_task(pool.run("bot", key, (state, [("planner:48", 1), None, None]), 1.5))
        # the planner holds the pool's one worker (started outside any budget)
        await eventually(lambda: pool.started, "a worker to start", 30, every=0.01)
        waiting = asyncio.create_task(pool.run("bot", key, (state, [("greedy", 1), None, None]), 0.3))
        await asyncio.sleep(0)
        started = time.monotonic()
        with pytest.raises(Busy, match="busy") as refused:
            await pool.run("bot", key, (state, [("greedy", 2), None, None]), 30)
        at_once = time.monotonic() - started
        results = await asyncio.gather(thinking, waiting, return_exceptions=True)
        return [at_once, refused.value, *results]

    at_once, refused, thinking, waiting = asyncio.run(crowd())
    assert at_once < 0.1 and refused.status == 503 and refused.retry_after >= 1
    assert isinstance(thinking, Overrun)  # planner:48 takes seconds: killed at 1.5 s
    assert type(waiting) is Busy  # it waited 0.3 s for a worker: refused, nothing killed for it


def test_background_calls_keep_a_worker_and_the_main_queue_for_others() -> None:
    """The bots of matches with no person seated think as background calls: they hold at most their share
    of the workers and wait in a queue of their own. With that share and queue full of planners, one more
    is refused at once, and a person's bot and a read still find a worker at once."""
    pool = WorkPool(size=2, queue=4, background_workers=1, background_queue=2)
    game = load_game("qwiply(players=3)")
    state = game.new_initial_state(3).to_json()
    key = key_of(game)
    planner = (state, [("planner:48", 1), None, None])

    async def crowd() -> tuple[float, float, Any, Any]:
        # Both workers started first (a start is outside every budget, and slow on a busy machine).
        await asyncio.gather(*(pool.run("legal", key, (state, 0, 1), 30) for _ in range(2)))
        assert pool.started == 2
        thinking = [asyncio.create_task(pool.run("bot", key, planner, 30, background=True)) for _ in range(3)]
        await eventually(lambda: pool.background_held == 1 and len(pool._waiting_background) == 2, "the planners")
        started = time.monotonic()
        with pytest.raises(Busy, match="no person seated"):
            await pool.run("bot", key, planner, 30, background=True)
        refused_in = time.monotonic() - started
        started = time.monotonic()
        person = await pool.run("bot", key, (state, [("greedy", 1), None, None]), 30)
        legal = await pool.run("legal", key, (state, 0, 5), 30)
        answered_in = time.monotonic() - started
        assert pool.background_held == 1 and not any(task.done() for task in thinking)
        for task in thinking:
            task.cancel()
        await asyncio.gather(*thinking, return_exceptions=True)
        return refused_in, answered_in, person, legal

    try:
        refused_in, answered_in, person, legal = asyncio.run(crowd())
    finally:
        pool.close()
    assert refused_in < 0.1
    # A planner:48 choice takes seconds; the greedy one and the legal list a fraction of one.
    assert answered_in < 2.0, f"a person's call waited {answered_in:.2f} s beside the planners"
    assert person is not None and legal[0] > 0


@pytest.mark.slow
def test_a_bot_refused_for_a_busy_pool_asks_again_soon_and_not_forever(store: Store) -> None:
    service = pooled(store, bot_budget_ms=4000)  # the worker's first call builds BOP!'s game: a budget for it
    run, asked = service.core.work.run, []

    async def busy_at_first(kind: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(time.monotonic())
        if len(asked) <= 2 or refusing:
            raise Busy("the server's engine workers are busy (4 calls waiting); try again shortly")
        return await run(kind, *args, **kwargs)

    service.core.work.run = busy_at_first  # type: ignore[method-assign]
    made = service.lobby.create("bop", {"players": 2}, bots={"0": "greedy", "1": "greedy"})
    refusing = False

    async def play() -> float:
        try:
            started = time.monotonic()
            await service.scheduler.run_due_async(made.match)  # the scheduler's one look: the pool answers busy twice
            await eventually(lambda: service.store.version(made.match), "the bot to move after a busy pool", 10)
            return time.monotonic() - started
        finally:
            await service.close_async()

    assert asyncio.run(play()) < 6.0  # not at the scheduler's next look (three budgets and a second on: 13 s)
    assert len(asked) >= 3 and asked[2] - asked[0] < 1.0  # asked again after 0.125-0.25 s, then 0.25-0.5 s
    refusing, asked[:] = True, []  # the pool stays busy: the bot asks a few times, then leaves it to the scheduler
    service = pooled(store, bot_budget_ms=500)
    service.core.work.run = busy_at_first  # type: ignore[method-assign]

    async def refused() -> None:
        try:
            await service.scheduler.run_due_async(made.match)
            await eventually(lambda: not service.scheduler._thinking, "the bot to stop asking", 10)
        finally:
            await service.close_async()

    asyncio.run(refused())
    assert 2 <= len(asked) <= 6 and asked[-1] - asked[0] <= 1.5


# --- the service with a pool -------------------------------------------------------------------------
@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    store = open_store(f"sqlite:///{tmp_path / 'matches.sqlite3'}")
    yield store
    store.close()


def pooled(store: Store, **settings: Any) -> MatchService:
    values: dict[str, Any] = {"bot_delay_ms": 0, "lexicon": "standard", "engine_workers": 1, **settings}
    return MatchService(store, in_process(public_url="http://table.test", **values))


async def until_moved(service: MatchService, match_id: str, version: int, seconds: float = 30) -> None:
    """Run the scheduler's step for the match until it reaches ``version`` (bounded)."""

    async def reached() -> bool:
        if service.core.load(match_id).row.version >= version:
            return True
        await service.scheduler.run_due_async(match_id)
        return False

    await eventually(reached, "the bot to move", seconds, every=0.05)


@pytest.mark.slow
def test_a_bot_that_overruns_its_budget_plays_its_greedy_move(store: Store) -> None:
    service = pooled(store, bot_budget_ms=1500)  # planner:48 takes seconds, greedy a tenth
    made = service.lobby.create("qwiply", {"players": 3}, bots={"0": "planner:48", "1": "greedy", "2": "greedy"})
    row = service.core.load(made.match).row
    state = service.core.load(made.match).state
    assert state is not None
    expected = next_move(state, [make_bot("greedy", 0, state.game), None, None])

    async def play() -> None:
        try:
            await until_moved(service, made.match, 3)
        finally:
            await service.close_async()

    started = time.monotonic()
    asyncio.run(play())
    assert time.monotonic() - started < 20
    assert service.core.work.overruns == 1  # the planner's worker was killed once, then greedy choices
    setups = [move for move in service.store.moves(made.match) if move.seat == 0]
    assert expected is not None and setups[0].move == expected[1].to_text()
    assert row.status == "playing"


def test_a_long_match_is_read_from_caches_not_replayed_per_request(store: Store) -> None:
    """The score sheet is built once per version and reader; replay steps start from checkpoints kept
    every 50 moves, so a step replays at most 50 moves here, and the pool is asked once for them."""
    service = pooled(store)
    match_id = bop_of_passes(service, 420)
    calls: list[str] = []
    run = service.core.work.run

    async def counted(kind: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(kind)
        return await run(kind, *args, **kwargs)

    service.core.work.run = counted  # type: ignore[method-assign]  # a spy: the real pool still answers

    async def read() -> list[Any]:
        try:
            first = await service.reads.turns_async(match_id, None)
            again = await service.reads.turns_async(match_id, None)
            steps = [await service.reads.replay_view_async(match_id, version) for version in (3, 333, 120, 419, 0)]
            return [first, again, steps]
        finally:
            await service.close_async()

    first, again, steps = asyncio.run(read())
    assert first == again and json.loads(first) == service.reads.turns(match_id, None)
    assert len(json.loads(first)["turns"]) == 420
    # The sheet once; the checkpoints once, for every later step; each step from a checkpoint, in a worker.
    assert calls == ["turns", "replay_step", "checkpoints", *["replay_step"] * 4]
    for step in steps:
        assert step == service.reads.replay_view(match_id, step["version"])


def test_a_match_holds_at_most_max_moves_and_its_bots_then_stop(sqlite_store: Store) -> None:
    service = MatchService(sqlite_store, in_process(bot_delay_ms=0, lexicon="standard", max_moves=3))
    made = service.lobby.create("bop", seats=2, name="Ann")
    seat, token = service.lobby.join(made.match, made.invite_token, "Bob")
    tokens = {made.seat: made.token, seat: token}
    for version in range(3):
        state = service.core.load(made.match).state
        assert state is not None
        mover = state.acting_players()[0]
        asyncio.run(service.gate.play_async(made.match, tokens[mover], "pass", version))
    state = service.core.load(made.match).state
    assert state is not None
    with pytest.raises(MoveLimit, match="3 moves") as refused:
        asyncio.run(service.gate.play_async(made.match, tokens[state.acting_players()[0]], "pass", 3))
    assert refused.value.status == 409
    bots = service.lobby.create("bop", {"players": 2}, bots={"0": "greedy", "1": "greedy"})
    for _ in range(10):
        service.scheduler.run_due(bots.match)
    assert service.core.load(bots.match).row.version == 3 and service.core.load(bots.match).row.due is None


def test_a_match_nobody_watches_and_no_person_plays_moves_at_a_bounded_pace(sqlite_store: Store) -> None:
    clock = FakeClock()
    service = MatchService(
        sqlite_store, in_process(bot_delay_ms=100, unwatched_bot_delay_ms=5_000, lexicon="standard"), clock_now=clock
    )
    made = service.lobby.create("bop", {"players": 2}, bots={"0": "greedy", "1": "greedy"})
    clock.advance(1)
    assert not service.scheduler.run_due(made.match)  # 1 s after the start: not yet, nobody watches
    clock.advance(4.5)
    assert service.scheduler.run_due(made.match)
    service.scheduler.watched = lambda match_id: match_id == made.match  # a socket opens on it
    clock.advance(0.2)
    assert service.scheduler.run_due(made.match)  # watched: at bot_delay_ms


@pytest.mark.parametrize("name", ["Ann\x00", "line\nbreak", "\x1b[31mred", "a\u202ez", "\ud800"])
def test_a_name_with_control_characters_is_refused_on_every_store(service: MatchService, name: str) -> None:
    with pytest.raises(BadRequest, match="control characters"):
        service.lobby.create("bop", seats=2, name=name)
    made = service.lobby.create("bop", seats=2, name="Ann 👩‍👩‍👧")  # emoji joiners are no control characters
    with pytest.raises(BadRequest, match="control characters"):
        service.lobby.join(made.match, made.invite_token, name)
    assert service.store.seats(made.match)[1].free


# --- a real server ---------------------------------------------------------------------------------------
def serve(data: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> Server:
    for name, value in env.items():
        monkeypatch.setenv(f"TABLEJUDGE_{name}", value)
    return Server(data).start()


@pytest.mark.server
@pytest.mark.slow
def test_a_planner_thinks_off_the_event_loop_and_an_over_limit_planner_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve(tmp_path, monkeypatch, ENGINE_WORKERS="1")
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            for bots in ({"1": "planner:49"}, {"1": "planner:999999999"}):
                refused = http.post("/v1/matches", json={"game": "qwiply", "seats": 2, "bots": bots})
                assert refused.status_code == 422, refused.text
                message = refused.json()["error"]["message"]
                assert "planner:GAMES" in message and "48" in message
            made = http.post("/v1/matches", json={"game": "qwiply", "seats": 2, "bots": {"1": "planner:48"}})
            assert made.status_code == 201, made.text
            match_id, token = made.json()["match"], made.json()["token"]
            left = http.post(f"/v1/matches/{match_id}/leave", json={"bot": "planner:49"},
                             headers={"Authorization": f"Bearer {token}"})  # fmt: skip
            assert left.status_code == 422 and "48" in left.json()["error"]["message"], left.text
            with Probe(server.url) as probe:
                url = f"/v1/matches/{match_id}"  # planner:48's set-up takes seconds of a core
                wait_for(lambda: 1 not in http.get(url).json()["must_act"], "the planner's set-up", 60, every=0.2)
            probe.assert_never_waited()
    finally:
        server.stop()


@pytest.mark.server
@pytest.mark.slow
def test_a_restart_with_a_bot_that_would_plan_forever_serves_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match stored before the limits, its bot ``planner:999999999`` (once: 9 GB and a server that
    never answered again), and another planning past the budget: the server answers ``/healthz`` at
    once; the first plays as the greedy bot (a name the server no longer makes), the second's worker
    is killed at the budget and it plays its greedy move, and the match moves on."""
    store = open_store(f"sqlite:///{tmp_path / 'matches.sqlite3'}")
    try:
        service = MatchService(store, in_process(lexicon="standard"))
        made = service.lobby.create("qwiply", {"players": 3}, bots={"1": "planner", "2": "planner"}, name="Ann")
        store.update_seat(made.match, 1, bot="planner:999999999")
        store.update_seat(made.match, 2, bot="planner:48")
    finally:
        store.close()
    server = Server(tmp_path)
    for name, value in {"ENGINE_WORKERS": "1", "BOT_BUDGET_MS": "1500"}.items():
        monkeypatch.setenv(f"TABLEJUDGE_{name}", value)
    started = time.monotonic()
    server.start()
    try:
        assert time.monotonic() - started < 30
        with Probe(server.url) as probe, httpx.Client(base_url=server.url, timeout=30) as http:

            def after_the_bots() -> dict[str, Any] | None:
                body: dict[str, Any] = http.get(f"/v1/matches/{made.match}").json()
                return None if {1, 2} & set(body["must_act"]) else body

            body = wait_for(after_the_bots, "both bots' moves", 30, every=0.1)
            assert body["version"] == 2
        probe.assert_never_waited()
        log = server.log.read_text()
        # planner:48 (seconds of a core) killed at 1.5 s; the other plays as greedy, within its budget
        assert log.count("ran past its budget of 1.5 s") >= 1
    finally:
        server.stop()


@pytest.mark.server
@pytest.mark.slow
def test_reads_answer_503_with_retry_after_when_the_pool_is_saturated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve(tmp_path, monkeypatch, ENGINE_WORKERS="1", ENGINE_QUEUE="1", BOT_BUDGET_MS="20000")
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            thinking = http.post("/v1/matches", json={"game": "qwiply", "seats": 2, "bots": {"1": "planner:48"}})
            assert thinking.status_code == 201

            def read(made: dict[str, Any]) -> httpx.Response:
                with httpx.Client(base_url=server.url, timeout=30) as own:
                    return own.get(f"/v1/matches/{made['match']}/legal",
                                   headers={"Authorization": f"Bearer {made['token']}"})  # fmt: skip

            # Rounds of three reads at once, each of a new match (a list is kept once made): while the
            # planner holds the one worker, one read waits in the queue and the others are refused.
            answers: list[httpx.Response] = []
            with Probe(server.url) as probe:
                for _ in range(20):
                    games = [new_bop_match(http) for _ in range(3)]
                    threads = [threading.Thread(target=lambda made=made: answers.append(read(made))) for made in games]
                    for thread in threads:
                        thread.start()
                    for thread in threads:
                        thread.join(timeout=60)
                    if any(answer.status_code == 503 for answer in answers):
                        break
            probe.assert_never_waited()
            refused = [answer for answer in answers if answer.status_code == 503]
            assert refused, [answer.status_code for answer in answers]
            for answer in refused:
                assert int(answer.headers["Retry-After"]) >= 1
                assert answer.json()["error"]["code"] == "busy" and answer.json()["error"]["message"]
            assert all(answer.status_code in (200, 503) for answer in answers)
    finally:
        server.stop()


def new_bop_match(http: httpx.Client) -> dict[str, Any]:
    made: dict[str, Any] = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]}).raise_for_status()
    return made


@pytest.mark.server
@pytest.mark.slow
def test_a_long_matchs_sheet_and_replay_steps_come_from_the_pool_and_agree_with_a_replay(tmp_path: Path) -> None:
    """Over a real server (uvloop, the pool's sockets, answers larger than a socket's buffer): the
    score sheet and replay steps of a 600-move match are the in-process replay's, and /healthz
    beside them never waits."""
    store = open_store(f"sqlite:///{tmp_path / 'matches.sqlite3'}")
    try:
        service = MatchService(store, in_process(lexicon="standard"))
        match_id = bop_of_passes(service, 600)
        sheet = service.reads.turns(match_id, None)
        steps = {version: service.reads.replay_view(match_id, version) for version in (600, 7, 333, 560, 599, 0)}
    finally:
        store.close()
    server = Server(tmp_path).start()
    try:
        with Probe(server.url) as probe, httpx.Client(base_url=server.url, timeout=30) as http:
            for _ in range(2):  # built in a worker, then kept
                answer = http.get(f"/v1/matches/{match_id}/turns")
                assert answer.status_code == 200, answer.text
                assert answer.json() == sheet
            for version, step in steps.items():
                answer = http.get(f"/v1/matches/{match_id}/replay", params={"version": version})
                assert answer.status_code == 200, answer.text
                assert answer.json() == step
        probe.assert_never_waited()
    finally:
        server.stop()

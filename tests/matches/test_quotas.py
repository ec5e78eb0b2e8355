"""Quotas and upkeep (issue 24), on both stores: waiting matches capped per client and in all, waiting
matches nobody joined removed after their time, and clocks that a server's downtime is not charged to
(``matches.quotas``); plus one real server killed mid-turn and started again."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from matches.clock import Clock
from matches.quotas import (
    ALIVE_WITHIN,
    TooManyBotMatches,
    TooManyBotMatchesFromYou,
    TooManyWaiting,
    TooManyWaitingFromYou,
    Upkeep,
    creator_mark,
)
from matches.service import MatchService
from matches.settings import Quotas
from matches.store import SCHEMA_VERSION, Store, open_store
from service.app import create_app
from service.settings import Settings
from tests.matches.conftest import FakeClock, in_process
from tests.matches.servers import Server


def quota_service(store: Store, clock: FakeClock, **quotas: float) -> MatchService:
    limits = Quotas(**quotas)
    settings = in_process(public_url="http://table.test", bot_delay_ms=0, lexicon="standard", quotas=limits)
    return MatchService(store, settings, clock_now=clock)


def test_the_schema_has_the_creator_and_the_servers(store: Store) -> None:
    assert store.migrate() == SCHEMA_VERSION
    assert store.waiting_counts(None) == (0, 0)


def test_waiting_matches_are_capped_per_client_and_in_all(store: Store, clock: FakeClock) -> None:
    service = quota_service(store, clock, max_waiting_per_client=2, max_waiting=3)
    for _ in range(2):
        service.lobby.create("bop", {"players": 2}, client="10.0.0.1")
    with pytest.raises(TooManyWaitingFromYou, match="2 matches you created are waiting") as refused:
        service.lobby.create("bop", {"players": 2}, client="10.0.0.1")
    assert refused.value.status == 429
    service.lobby.create("bop", {"players": 2}, client="10.0.0.2")  # another address has its own share
    with pytest.raises(TooManyWaiting, match="3 matches waiting") as full:
        service.lobby.create("bop", {"players": 2}, client="10.0.0.3")
    assert full.value.status == 409
    assert store.waiting_counts(creator_mark("10.0.0.1")) == (2, 3)
    # A match that starts no longer waits: its creator may make another.
    waiting = [row.id for row in store.listing("waiting") if row.creator == creator_mark("10.0.0.1")]
    service.lobby.join(waiting[0], "", "Bob")
    assert store.waiting_counts(creator_mark("10.0.0.1")) == (1, 2)
    service.lobby.create("bop", {"players": 2}, client="10.0.0.1")
    # The address itself is never stored.
    assert all(row.creator is None or "10.0.0" not in row.creator for row in store.listing("waiting"))


BOTS_ONLY = {"0": "greedy", "1": "greedy"}


def test_matches_with_no_person_seated_are_capped_per_client_and_in_all(store: Store, clock: FakeClock) -> None:
    """An all-bot match starts at once and plays by itself (issue 24: one address made 24 of planner bots):
    at most ``max_bot_only_per_client`` playing from one address (429), ``max_bot_only`` in all (409)."""
    service = quota_service(store, clock, max_bot_only_per_client=2, max_bot_only=3)
    mine = [service.lobby.create("bop", {"players": 2}, bots=BOTS_ONLY, client="10.0.0.1").match for _ in range(2)]
    with pytest.raises(TooManyBotMatchesFromYou, match="2 matches you created with no person seated") as refused:
        service.lobby.create("bop", {"players": 2}, bots=BOTS_ONLY, client="10.0.0.1")
    assert refused.value.status == 429 and refused.value.retry_after >= 1
    # A match with a person seated is not one of them (with a bot, or waiting for a second person).
    with_a_person = service.lobby.create("bop", {"players": 2}, bots={"1": "greedy"}, client="10.0.0.1")
    assert store.match(with_a_person.match).status == "playing"  # type: ignore[union-attr]
    service.lobby.create("bop", {"players": 2}, client="10.0.0.1")
    service.lobby.create("bop", {"players": 2}, bots=BOTS_ONLY, client="10.0.0.2")  # another address's own share
    with pytest.raises(TooManyBotMatches, match="3 matches with no person seated") as full:
        service.lobby.create("bop", {"players": 2}, bots=BOTS_ONLY, client="10.0.0.3")
    assert full.value.status == 409 and full.value.retry_after >= 1
    assert store.bot_only_counts(creator_mark("10.0.0.1"), 20_000) == (2, 3)
    assert store.bot_only_counts(creator_mark("10.0.0.1"), 0) == (0, 0)  # none below 0 moves: at the cap, none runs
    # One that ends no longer counts: its creator may make another.
    assert store.update_match(mine[0], None, status="over")
    service.lobby.create("bop", {"players": 2}, bots=BOTS_ONLY, client="10.0.0.1")
    with pytest.raises(TooManyBotMatchesFromYou):
        service.lobby.create("bop", {"players": 2}, bots=BOTS_ONLY, client="10.0.0.1")


def test_a_refused_all_bot_match_is_a_429_or_409_with_retry_after(tmp_path: Path) -> None:
    settings = Settings(
        lexicons=("standard",), data_dir=str(tmp_path), quotas=Quotas(max_bot_only_per_client=1, max_bot_only=2)
    )
    app = create_app(settings)
    planners = {"game": "qwiply", "seats": 2, "bots": {"0": "planner", "1": "planner"}}

    async def create(address: str, body: dict[str, Any]) -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=(address, 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://play.test") as client:
            return await client.post("/v1/matches", json=body)

    async def crowd() -> list[httpx.Response]:
        return [await create(address, planners) for address in ("10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.3")]

    first, mine, other, full = asyncio.run(crowd())
    assert first.status_code == 201 and other.status_code == 201, (first.text, other.text)
    assert mine.status_code == 429 and int(mine.headers["Retry-After"]) >= 1, mine.text
    error = mine.json()["error"]
    assert error["code"] == "too_many_bot_matches" and "no person seated" in error["message"]
    assert error["retry_after"] == int(mine.headers["Retry-After"])
    assert full.status_code == 409 and full.json()["error"]["code"] == "bot_matches_full", full.text
    assert int(full.headers["Retry-After"]) >= 1 and "no person seated" in full.json()["error"]["message"]
    with_a_person = asyncio.run(create("10.0.0.3", {**planners, "bots": {"1": "planner"}}))
    assert with_a_person.status_code == 201, with_a_person.text


def race(
    services: list[MatchService], create: Callable[[MatchService], str], refusals: tuple[type[Exception], ...]
) -> list[object]:
    """``create`` on every service at once (server processes racing on one store): each one's match id,
    or the refusal it raised."""
    answers: list[object] = []
    start = threading.Barrier(len(services))

    def one(service: MatchService) -> None:
        start.wait(10)
        try:
            answers.append(create(service))
        except refusals as refused:
            answers.append(refused)

    racers = [threading.Thread(target=one, args=(service,)) for service in services]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(timeout=30)
    return answers


def waiting_from(address: str) -> Callable[[MatchService], str]:
    """A creation of a waiting match from ``address``."""
    return lambda service: service.lobby.create("bop", {"players": 2}, client=address).match


@pytest.mark.slow
def test_the_waiting_caps_hold_for_server_processes_creating_at_once(store_url: str, clock: FakeClock) -> None:
    """Two server processes on one store (two connections), each creating from one address at once, with
    one match left under each cap: exactly one creation passes each cap. Each count is held for a while
    before the match is written, so that a check made outside the write's transaction (or without its
    lock, on PostgreSQL) would let both through."""
    stores = [open_store(store_url) for _ in range(2)]
    try:
        services = [quota_service(each, clock, max_waiting_per_client=2, max_waiting=4) for each in stores]
        for each in stores:
            counted = each.waiting_counts

            def slow_count(creator: str | None, counted: Any = counted) -> tuple[int, int]:
                found = counted(creator)
                time.sleep(0.3)  # the other process counts meanwhile, unless the lock keeps it out
                return found  # type: ignore[no-any-return]

            each.waiting_counts = slow_count  # type: ignore[method-assign]
        services[0].lobby.create("bop", {"players": 2}, client="10.0.0.1")
        refusals = (TooManyWaitingFromYou, TooManyWaiting)
        mine = race(services, waiting_from("10.0.0.1"), refusals)  # one more for this address: its cap (2)
        assert sorted(type(answer).__name__ for answer in mine) == ["TooManyWaitingFromYou", "str"]
        assert stores[0].waiting_counts(creator_mark("10.0.0.1"))[0] == 2
        services[0].lobby.create("bop", {"players": 2}, client="10.0.0.2")  # three waiting: one more in all (4)
        everyone = race(services, waiting_from("10.0.0.3"), refusals)
        assert sorted(type(answer).__name__ for answer in everyone) == ["TooManyWaiting", "str"]
        assert stores[1].waiting_counts(None) == (0, 4)
    finally:
        for each in stores:
            each.close()


def test_the_all_bot_caps_hold_for_server_processes_creating_at_once(store_url: str, clock: FakeClock) -> None:
    """As the waiting caps: two store connections creating an all-bot match from one address at once, one
    left under its cap, each count held 0.3 s before the insert: exactly one passes."""
    stores = [open_store(store_url) for _ in range(2)]
    try:
        services = [quota_service(each, clock, max_bot_only_per_client=2) for each in stores]
        for each in stores:
            counted = each.bot_only_counts

            def slow_count(creator: str | None, below: int, counted: Any = counted) -> tuple[int, int]:
                found = counted(creator, below)
                time.sleep(0.3)  # the other connection counts meanwhile, unless the lock keeps it out
                return found  # type: ignore[no-any-return]

            each.bot_only_counts = slow_count  # type: ignore[method-assign]
        services[0].lobby.create("bop", {"players": 2}, bots=BOTS_ONLY, client="10.0.0.1")
        def bots_only(service: MatchService) -> str:
            return service.lobby.create("bop", {"players": 2}, bots=BOTS_ONLY, client="10.0.0.1").match

        answers = race(services, bots_only, (TooManyBotMatchesFromYou,))
        assert sorted(type(answer).__name__ for answer in answers) == ["TooManyBotMatchesFromYou", "str"]
        assert stores[0].bot_only_counts(creator_mark("10.0.0.1"), 20_000)[0] == 2
    finally:
        for each in stores:
            each.close()


def test_waiting_matches_nobody_joined_expire(store: Store, clock: FakeClock) -> None:
    service = quota_service(store, clock, waiting_expiry_s=3600)
    old = service.lobby.create("bop", {"players": 3}, client="10.0.0.1")
    clock.advance(1800)
    joined = service.lobby.create("bop", {"players": 3}, client="10.0.0.1")
    clock.advance(1000)
    service.lobby.join(joined.match, joined.invite_token, "Bob")  # a join 2,800 s in: its hour starts again
    started = service.lobby.create("bop", {"players": 2}, client="10.0.0.1")
    service.lobby.join(started.match, started.invite_token, "Cy")  # playing: never expires
    clock.advance(1000)  # 3,800 s after the first: only that one is an hour without a join
    upkeep = Upkeep(store, service.core.settings.quotas, clock=clock)
    assert upkeep.sweep() == [old.match]
    assert store.match(old.match) is None and store.seats(old.match) == []
    assert store.match(joined.match) is not None and store.match(started.match) is not None
    clock.advance(3600)
    assert upkeep.sweep() == [joined.match]
    assert store.match(started.match) is not None


def test_a_restart_charges_the_downtime_to_no_clock(store: Store, clock: FakeClock) -> None:
    service = quota_service(store, clock)
    made = service.lobby.create("bop", {"players": 2}, clock={"total_seconds": 60})
    service.lobby.join(made.match, made.invite_token, "Bob")
    clock.advance(10)
    before = service.core.body(service.core.load(made.match), None)["clock"]
    first = Upkeep(store, Quotas(), clock=clock)
    assert first.start_clocks() == 0  # the first server of a store: nothing to make good
    store.heartbeat(first.server, clock())
    row = store.match(made.match)
    assert row is not None
    clock.advance(500)  # the server is down for 500 s
    second = Upkeep(store, Quotas(), clock=clock)
    assert second.start_clocks() == pytest.approx(500)
    restarted = MatchService(store, service.core.settings, clock_now=clock)
    after = restarted.core.body(restarted.core.load(made.match), None)["clock"]
    assert after["banks_ms"] == before["banks_ms"]  # as it was at the last sign of life
    assert after["deadline_ms"] == before["deadline_ms"] + 500_000
    shifted = store.match(made.match)
    assert shifted is not None and shifted.due == pytest.approx((row.due or 0) + 500)
    assert shifted.revision > row.revision  # a copy held elsewhere is not the stored match any more
    # Another server alive within ALIVE_WITHIN: no downtime, nothing moves.
    clock.advance(ALIVE_WITHIN / 2)
    third = Upkeep(store, Quotas(), clock=clock)
    assert third.start_clocks() == 0
    assert store.match(made.match) == shifted


def test_a_bank_is_never_shown_below_zero() -> None:
    clock = Clock.from_request({"total_seconds": 5})
    assert clock is not None
    state = clock.start([0], now=100.0, seats=2)
    shown = clock.public(state, now=108.3)
    assert shown is not None and shown["banks_ms"] == [0, 5000]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_server_killed_mid_turn_shows_the_bank_it_had(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """A real server killed with SIGKILL mid-turn, down 6 s, started again on the same data: the bank of
    the seat to move is what it was at the kill (less the heartbeat's second at most), never negative,
    and it runs on from there."""
    database = ""
    if kind == "postgresql":
        from tests.pg import new_database

        database = new_database(request.getfixturevalue("postgres_server"), "killed_mid_turn")
    server = Server(tmp_path, database=database).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "clock": {"total_seconds": 30}}).json()
            http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]}).raise_for_status()
            deadline = time.monotonic() + 10
            while (body := http.get(f"/v1/matches/{made['match']}").json())["status"] != "playing":
                assert time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(2.5)  # the clock runs for 2.5 s, a few heartbeats pass
            mover = body["clock"]["running"][0]
            at_kill = http.get(f"/v1/matches/{made['match']}").json()["clock"]["banks_ms"][mover]
            server.kill()
        time.sleep(6)  # down 6 s (longer than ALIVE_WITHIN): without the fix the bank would show 6 s less
        server.start()
        with httpx.Client(base_url=server.url, timeout=10) as http:
            shown = http.get(f"/v1/matches/{made['match']}").json()["clock"]["banks_ms"]
        assert min(shown) >= 0
        assert at_kill - 2500 <= shown[mover] <= at_kill + 1200, (at_kill, shown)
        assert 27_000 <= at_kill <= 28_000
    finally:
        server.stop()


#: Characters no text a client sends may bring into a store: NUL (which PostgreSQL cannot keep), other
#: C0 and C1 controls (forged log lines, terminal escapes), a direction override, a lone surrogate.
CONTROLS = ["\x00", "\x1b", "\n", "\x85", "\u202e", "\ud800"]


@pytest.mark.slow
def test_control_characters_are_refused_on_every_input_of_a_postgresql_server(
    tmp_path: Path, postgres_server: str
) -> None:
    """Every text a client sends that reaches the store (names when creating and joining, house rules'
    name and words, a move) refuses control characters with a 4xx JSON error, on PostgreSQL (which
    answered a NUL with a 500 and a reset keep-alive connection), and the connection serves on."""
    import http.client
    import json

    from tests.pg import new_database

    server = Server(tmp_path, database=new_database(postgres_server, "controls")).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)

        def post(path: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
            headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
            conn.request("POST", path, body=json.dumps(body), headers=headers)  # ensure_ascii: \u0000 escapes
            answer = conn.getresponse()
            assert answer.getheader("connection") != "close"  # kept alive: the refusal was an answer
            return answer.status, json.loads(answer.read())

        status, made = post("/v1/matches", {"game": "bop", "seats": 2, "name": "Ann"})
        assert status == 201
        status, pdq = post("/v1/matches", {"game": "pdq", "seats": 2})
        assert status == 201 and post(f"/v1/matches/{pdq['match']}/join", {"invite": pdq["invite"]})[0] == 200
        sock = conn.sock
        for char in CONTROLS:
            inputs: list[tuple[str, dict[str, Any]]] = [
                ("/v1/matches", {"game": "bop", "seats": 2, "name": f"A{char}n"}),
                (f"/v1/matches/{made['match']}/join", {"invite": made["invite"], "name": f"B{char}b"}),
                ("/v1/house-rules", {"name": f"Our{char}table", "allow": ["qi"]}),
                ("/v1/house-rules", {"name": "Our table", "allow": [f"q{char}i"]}),
                (f"/v1/matches/{pdq['match']}/moves", {"move": f"claim pa{char}int @100"}),
            ]
            for path, body in inputs:
                if path.endswith("/moves"):  # PDQ: both seats claim at once; the version as it is now
                    conn.request("GET", f"/v1/matches/{pdq['match']}")
                    body["version"] = json.loads(conn.getresponse().read())["version"]
                status, answer = post(path, body, pdq["token"] if path.endswith("/moves") else None)
                assert 400 <= status < 500 and status != 429, (path, char, status, answer)
                assert isinstance(answer.get("error"), dict), answer
                if path.endswith("/moves"):  # refused for its text (a lone surrogate is not JSON), not its turn
                    assert answer["error"]["code"] in ("bad_notation", "malformed_body"), answer
        assert conn.sock is sock  # one connection throughout: never reset
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200
        conn.close()
        # Nothing was stored of them: the match is still waiting for its second player, named as given.
        with httpx.Client(base_url=server.url, timeout=10) as client:
            body = client.get(f"/v1/matches/{made['match']}").json()
            assert body["status"] == "waiting" and [seat.get("name") for seat in body["seats"]][0] == "Ann"
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()

"""Turn alerts (issue 27, item 4; ``matches.push``): a real ``tablejudge serve`` sends Web Push messages to a
push endpoint this test runs on loopback, which decrypts each one (RFC 8291, with the browser's private key
and auth secret the test made) and checks its VAPID signature (RFC 8292) against ``/v1/push/key``.
The subscriptions' storage runs on both stores."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from py_vapid import Vapid02

from matches.push_setup import BadSubscription, check_endpoint, parse_subscription
from matches.service import MatchService
from matches.store import MatchRow, PushRow, SeatRow, SQLiteStore, Store, open_store
from matches.store.sqlite import PUSH_KEY_FILE
from tests.matches.clients import auth
from tests.matches.conftest import FakeClock, sqlite_made_at
from tests.matches.pushing import Browser, PushService, alert_kinds, b64, drained, started_sender, subscribe_seats
from tests.matches.servers import Server
from tests.matches.waiting import wait_for


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("push_server")
    server = Server(data, workers=2, env={"TABLEJUDGE_PUSH_HTTP_LOOPBACK": "1"}).start()
    yield server
    server.stop()


def new_bop(http: httpx.Client) -> tuple[str, dict[int, str]]:
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"})
    assert made.status_code == 201, made.text
    body = made.json()
    joined = http.post(f"/v1/matches/{body['match']}/join", json={"invite": body["invite"], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    return body["match"], {0: body["token"], 1: joined.json()["token"]}


def subscribe(http: httpx.Client, match_id: str, token: str, browser: Browser) -> None:
    answer = http.post(f"/v1/matches/{match_id}/push", json=browser.subscription(), headers=auth(token))
    assert answer.status_code == 201, answer.text


def to_act(http: httpx.Client, match_id: str, token: str) -> tuple[int, int]:
    body = http.get(f"/v1/matches/{match_id}", headers=auth(token)).json()
    return body["must_act"][0], body["version"]


def server_store(server: Server) -> Store:
    return open_store(f"sqlite:///{server.data / 'matches.sqlite3'}")


pytestmark = pytest.mark.server


def test_a_move_that_makes_it_a_seats_turn_sends_it_one_encrypted_signed_alert(
    http: httpx.Client, push_service: PushService, server: Server
) -> None:
    key = http.get("/v1/push/key")
    assert key.status_code == 200
    public = key.json()["key"]
    match_id, tokens = new_bop(http)
    browsers = {seat: Browser(f"{push_service.url}/{match_id}/seat{seat}") for seat in (0, 1)}
    for seat, browser in browsers.items():
        subscribe(http, match_id, tokens[seat], browser)
    mover, version = to_act(http, match_id, tokens[0])
    other = 1 - mover
    moved = http.post(
        f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version}, headers=auth(tokens[mover])
    )
    assert moved.status_code == 200, moved.text
    [message] = wait_for(lambda: push_service.at(f"/{match_id}/seat{other}"), "the alert to the seat now to act")
    alert = browsers[other].decrypt(message.body)
    assert alert["match"] == match_id and alert["kind"] == "turn" and alert["seat"] == other
    assert alert["url"] == f"/play/{match_id}" and "your turn" in alert["body"]
    assert alert["version"] == version + 1
    assert message.headers["content-encoding"] == "aes128gcm" and int(message.headers["ttl"]) > 0
    authorization = message.headers["authorization"]
    assert authorization.startswith("vapid ") and f"k={public}" in authorization
    assert Vapid02.verify(authorization)  # signed by the key the page subscribes with
    # The next move makes it the mover's turn: one alert there, and still exactly one to the other seat.
    moved = http.post(
        f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version + 1}, headers=auth(tokens[other])
    )
    assert moved.status_code == 200, moved.text
    wait_for(lambda: push_service.at(f"/{match_id}/seat{mover}"), "the alert back to the first mover")
    assert len(push_service.at(f"/{match_id}/seat{other}")) == 1
    assert len(push_service.at(f"/{match_id}/seat{mover}")) == 1
    assert browsers[mover].decrypt(push_service.at(f"/{match_id}/seat{mover}")[0].body)["kind"] == "turn"


def test_a_gone_subscription_is_removed(http: httpx.Client, push_service: PushService, server: Server) -> None:
    match_id, tokens = new_bop(http)
    mover, version = to_act(http, match_id, tokens[0])
    other = 1 - mover
    subscribe(http, match_id, tokens[other], Browser(f"{push_service.url}/gone/{match_id}"))
    store = server_store(server)
    try:
        assert len(store.push_subscriptions(match_id)) == 1
        moved = http.post(
            f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version}, headers=auth(tokens[mover])
        )
        assert moved.status_code == 200
        wait_for(lambda: push_service.at(f"/gone/{match_id}"), "the send the push service answers 410")
        wait_for(lambda: not store.push_subscriptions(match_id), "the gone subscription's removal")
    finally:
        store.close()


def test_leaving_the_seat_removes_its_subscriptions(
    http: httpx.Client, push_service: PushService, server: Server
) -> None:
    match_id, tokens = new_bop(http)
    for seat in (0, 1):
        subscribe(http, match_id, tokens[seat], Browser(f"{push_service.url}/{match_id}/left{seat}"))
    store = server_store(server)
    try:
        assert {row.seat for row in store.push_subscriptions(match_id)} == {0, 1}
        left = http.post(f"/v1/matches/{match_id}/leave", headers=auth(tokens[1]))
        assert left.status_code == 200, left.text
        wait_for(lambda: {row.seat for row in store.push_subscriptions(match_id)} == {0}, "seat 2's subscriptions gone")
    finally:
        store.close()
    # Its old token no longer subscribes, and the other seat can unsubscribe itself.
    again = http.post(f"/v1/matches/{match_id}/push", json=Browser("https://push.example.org/x").subscription(),
                      headers=auth(tokens[1]))  # fmt: skip
    assert again.status_code == 401
    gone = http.request("DELETE", f"/v1/matches/{match_id}/push", headers=auth(tokens[0]))
    assert gone.status_code == 200 and gone.json()["removed"] == 1


def test_bad_subscriptions_are_readable_4xx(http: httpx.Client, server: Server) -> None:
    match_id, tokens = new_bop(http)
    good = Browser("https://push.example.org/abc").subscription()
    url = f"/v1/matches/{match_id}/push"

    def refused(body: Any, status: int = 422, code: str = "bad_subscription", **extra: Any) -> None:
        headers = extra.pop("headers", auth(tokens[0]))
        content = body if isinstance(body, bytes) else orjson.dumps(body)
        answer = http.post(extra.pop("url", url), content=content, headers=headers)
        assert answer.status_code == status, (body, answer.text)
        error = answer.json()["error"]
        assert error["code"] == code and len(error["message"]) > 10

    refused(b"not json")
    refused([good])
    refused({})
    refused({**good, "endpoint": "http://push.example.org/abc"})  # plain http off loopback
    refused({**good, "endpoint": "https://192.168.1.5/abc"})  # a private address
    refused({**good, "endpoint": "https://localhost/abc"})
    refused({**good, "endpoint": "https://user:pw@push.example.org/abc"})
    refused({**good, "endpoint": "https://push.example.org/" + "a" * 2000})
    refused({**good, "keys": {"p256dh": good["keys"]["p256dh"]}})
    refused({**good, "keys": {**good["keys"], "auth": b64(b"short")}})
    refused({**good, "keys": {**good["keys"], "p256dh": b64(b"\x04" + b"\x01" * 64)}})  # not on the curve
    refused({**good, "keys": {**good["keys"], "p256dh": "!!!not base64!!!"}})
    refused({**good, "pad": "x" * 5000})
    refused(good, 401, "unauthorized", headers={})
    refused(good, 401, "unauthorized", headers=auth("not-a-token"))
    refused(good, 404, "unknown_match", url="/v1/matches/nosuchmatch/push")
    # Five subscriptions a seat: a sixth is refused, the same endpoint again is not.
    for number in range(5):
        subscribe(http, match_id, tokens[0], Browser(f"https://push.example.org/{number}"))
    refused(Browser("https://push.example.org/sixth").subscription(), 409, "too_many_subscriptions")
    subscribe(http, match_id, tokens[0], Browser("https://push.example.org/0"))


@pytest.mark.slow
def test_the_key_is_made_once_and_kept_in_the_data_folder(http: httpx.Client, server: Server) -> None:
    first = http.get("/v1/push/key").json()["key"]
    key_file = server.data / "vapid_private.pem"
    assert key_file.stat().st_mode & 0o077 == 0  # readable by the server's user only
    server.stop()
    server.start()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert client.get("/v1/push/key").json()["key"] == first
    assert len(base64.urlsafe_b64decode(first + "==")) == 65


def test_endpoints_allowed_on_loopback_only_with_the_setting() -> None:
    assert check_endpoint("http://127.0.0.1:9/p", True) == "http://127.0.0.1:9/p"
    assert check_endpoint("http://[::1]:9/p", True) == "http://[::1]:9/p"
    for endpoint, allowed in (("http://127.0.0.1:9/p", False), ("http://10.1.1.1/p", True), ("ftp://x.org/p", True)):
        with pytest.raises(BadSubscription):
            check_endpoint(endpoint, allowed)
    with pytest.raises(BadSubscription):
        parse_subscription({"endpoint": "https://x.org/p", "keys": "k"}, False)


# --- the storage, on both stores ---------------------------------------------------------------------------


def _match(store: Store, match_id: str, status: str = "playing") -> None:
    row = MatchRow(
        id=match_id, game="bop", options={}, seats=2, seed=1, status=status, public=False, invite_hash="x",
        clock=None, clock_state=None, version=0, epoch=None, epoch_started=None, due=None, created=1.0,
        updated=1.0, rematch_of=None, lexicon="standard",
    )  # fmt: skip
    store.create_match(row, [SeatRow(0, "Ann", "h0", None, 1.0), SeatRow(1, "Bob", "h1", None, 1.0)])


def test_subscriptions_are_kept_per_seat_bounded_and_removed(store: Store) -> None:
    _match(store, "m1")
    row = PushRow(0, "https://push.example.org/a", "k", "s", "h0", 1.0)
    assert store.add_push("m1", row, limit=2)
    assert store.add_push("m1", PushRow(0, row.endpoint, "k2", "s2", "h0", 2.0), limit=2)  # the same: replaced
    assert store.add_push("m1", PushRow(0, "https://push.example.org/b", "k", "s", "h0", 3.0), limit=2)
    assert not store.add_push("m1", PushRow(0, "https://push.example.org/c", "k", "s", "h0", 4.0), limit=2)
    assert store.add_push("m1", PushRow(1, "https://push.example.org/c", "k", "s", "h1", 4.0), limit=2)
    kept = store.push_subscriptions("m1")
    assert [(sub.seat, sub.endpoint, sub.p256dh) for sub in kept] == [
        (0, "https://push.example.org/a", "k2"),
        (0, "https://push.example.org/b", "k"),
        (1, "https://push.example.org/c", "k"),
    ]
    assert store.remove_push("m1", 0, "https://push.example.org/a") == 1
    assert store.remove_push("m1", 0) == 1
    assert [sub.seat for sub in store.push_subscriptions("m1")] == [1]
    assert store.remove_push("m1") == 1 and store.push_subscriptions("m1") == []


def test_an_expired_waiting_match_takes_its_subscriptions_along(store: Store) -> None:
    _match(store, "w1", status="waiting")
    store.add_push("w1", PushRow(0, "https://push.example.org/a", "k", "s", "h0", 1.0), limit=5)
    store.update_seat("w1", 0, joined=1.0)
    store.update_seat("w1", 1, joined=1.0)
    assert store.expire_waiting(before=100.0) == ["w1"]
    assert store.push_subscriptions("w1") == []


def test_the_vapid_key_a_store_keeps_is_the_first_one_stored(store: Store) -> None:
    """In PostgreSQL's table (servers on several machines sign with one key); SQLite's beside its file, in the
    data folder, readable by the server's user only."""
    assert store.push_key("first", 1.0) == "first"
    assert store.push_key("second", 2.0) == "first"
    if isinstance(store, SQLiteStore):
        key_file = store.path.parent / PUSH_KEY_FILE
        assert key_file.read_text() == "first" and key_file.stat().st_mode & 0o077 == 0


def test_a_store_made_at_schema_4_gains_the_push_tables(tmp_path: Path) -> None:
    from matches.store import SCHEMA_VERSION

    store = open_store(sqlite_made_at(tmp_path / "old.sqlite3", 4))
    try:
        assert store.migrate() == SCHEMA_VERSION
        assert store.push_subscriptions("none") == []
    finally:
        store.close()


# --- who is told, in-process on both stores: a PDQ deal in a slow game, the end of a match ---------------------


def _two_seated(service: MatchService, game: str, **create: Any) -> tuple[str, dict[int, str]]:
    """A two-seat match of ``game``, both seats taken: its id and each seat's token."""
    made = service.lobby.create(game, {"players": 2}, name="Ann", **create)
    seat, token = service.lobby.join(made.match, made.invite, "Bob")
    assert made.token is not None and made.seat is not None
    return made.match, {made.seat: made.token, seat: token}


@pytest.mark.parametrize("pdq_clock", [None, {"turn_seconds": 30}], ids=["slow", "clocked"])
def test_a_pdq_deal_is_told_in_a_slow_game_only(
    service: MatchService, push_service: PushService, clock: FakeClock, pdq_clock: dict[str, int] | None
) -> None:
    async def play() -> list[tuple[int, str]]:
        sender = started_sender(service)
        try:
            match_id, tokens = _two_seated(service, "pdq", clock=pdq_clock)
            browsers = subscribe_seats(service, match_id, tokens, push_service.url)
            await drained(sender)
            start = alert_kinds(push_service, browsers, match_id)
            for _ in range(40):  # both vote "no word"; the table deals the next round (bounded)
                loaded = await service.core.load_async(match_id)
                state = loaded.state
                assert state is not None
                if len(state.rounds) >= 1 and state.round is not None:  # type: ignore[attr-defined]
                    break  # the second round is dealt
                votes = [(s, state.timeout_move(s)) for s in state.acting_players() if s >= 0]
                voter = next(((s, move) for s, move in votes if move is not None), None)  # "no word"
                if voter is not None:
                    await service.gate.move_async(match_id, voter[0], voter[1].to_text(), state.version)
                else:
                    clock.advance(1)  # the table's deal is due after a pause
                    await service.scheduler.run_due_async(match_id)
            await drained(sender)
            return [alert for alert in alert_kinds(push_service, browsers, match_id) if alert not in start]
        finally:
            await sender.stop()

    told = asyncio.run(play())
    assert told == ([(0, "deal"), (1, "deal")] if pdq_clock is None else [])


@pytest.mark.slow
def test_each_turn_is_told_to_the_seat_to_act_and_the_end_to_every_seat(
    service: MatchService, push_service: PushService
) -> None:
    async def play() -> tuple[list[tuple[int, str]], list[int]]:
        sender = started_sender(service)
        try:
            match_id, tokens = _two_seated(service, "three2fifteen")
            browsers = subscribe_seats(service, match_id, tokens, push_service.url)
            await drained(sender)
            start = alert_kinds(push_service, browsers, match_id)  # the start's: to the first to act
            movers: list[int] = []
            for _ in range(500):  # the first legal move each time, to the end (bounded)
                state = (await service.core.load_async(match_id)).state
                assert state is not None
                if state.is_terminal():
                    break
                mover = state.acting_players()[0]
                await service.gate.move_async(match_id, mover, state.legal_moves(mover)[0].to_text(), state.version)
                movers.append(mover)
                await drained(sender)  # one at a time: a newer alert would replace one still waiting
            assert state is not None and state.is_terminal()
            assert start == [(movers[0], "turn")]
            told = alert_kinds(push_service, browsers, match_id)
            told.remove(start[0])
            return told, movers
        finally:
            await sender.stop()

    told, movers = asyncio.run(play())
    turns = sorted((seat, kind) for seat, kind in told if kind == "turn")
    # Each move but the last handed the turn to the other seat: one alert each time, to that seat alone.
    handed = [(after, "turn") for now, after in zip(movers, movers[1:], strict=False) if after != now]
    assert len(movers) >= 5 and turns == sorted(handed)
    assert sorted(seat for seat, kind in told if kind == "over") == [0, 1]


@pytest.mark.slow
def test_a_match_without_subscriptions_costs_its_moves_no_alert_work_until_one_comes(
    service: MatchService, push_service: PushService
) -> None:
    """The sender reads a match's subscriptions once and, finding none, skips the alert of each move that
    follows on from the revision it read at; a subscription made by any process (here straight in the store,
    as another server's request would) moves the revision, and the very next move's alert is sent."""
    reads: list[str] = []
    read = service.store.push_subscriptions

    def counted(match_id: str) -> list[PushRow]:
        reads.append(match_id)
        return read(match_id)

    service.store.push_subscriptions = counted  # type: ignore[method-assign]

    async def play() -> tuple[int, list[tuple[int, str]], list[tuple[int, str]]]:
        sender = started_sender(service)
        try:
            match_id, tokens = _two_seated(service, "bop")
            tokens = tokens

            async def pass_once() -> int:
                state = (await service.core.load_async(match_id)).state
                assert state is not None and not state.is_terminal()
                mover = state.acting_players()[0]
                await service.gate.play_async(match_id, tokens[mover], "pass", state.version)
                await drained(sender)
                return mover

            for _ in range(6):
                await pass_once()
            skipped_reads = len(reads)
            browsers = subscribe_seats(service, match_id, tokens, push_service.url)  # as another process would
            first = await pass_once()
            told_first = alert_kinds(push_service, browsers, match_id)
            second = await pass_once()
            told = alert_kinds(push_service, browsers, match_id)
            assert (first, second) == (0, 1) or (first, second) == (1, 0)
            return skipped_reads, told_first, told
        finally:
            await sender.stop()

    skipped_reads, told_first, told = asyncio.run(play())
    # Six moves that each handed the turn over: the start and the first move read the subscriptions; the
    # other five followed on from a revision found without any, and were skipped.
    assert skipped_reads <= 2
    assert len(told_first) == 1 and told_first[0][1] == "turn"
    assert len(told) == 2 and {seat for seat, _ in told} == {0, 1}

"""Limits against one careless or hostile client (issue 24), on a real ``tablejudge serve`` over real
sockets: rate limits (429 with ``Retry-After``), the waiting-match cap, a 64 MiB request header, slow
and silent connections, the security headers and a redirect that ignores the ``Host`` header."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.limits import ClientAddress, TokenBuckets, route_class
from tests.matches.servers import Server

pytestmark = pytest.mark.server

LIMITS = {
    "TABLEJUDGE_RATE_CREATE": "5/60",
    "TABLEJUDGE_RATE_JOIN": "5/60",
    "TABLEJUDGE_RATE_MOVES": "5/60",
    "TABLEJUDGE_RATE_JUDGE": "5/60",
    "TABLEJUDGE_RATE_SEATS": "5/60",
    "TABLEJUDGE_MAX_WAITING_PER_CLIENT": "3",
    # Each test speaks for addresses of its own, named by the test client on loopback (trusted here).
    "TABLEJUDGE_TRUSTED_PROXIES": "127.0.0.1",
    "TABLEJUDGE_MAX_HEADER_BYTES": "8192",
    "TABLEJUDGE_REQUEST_TIMEOUT_S": "2",
    "TABLEJUDGE_KEEP_ALIVE_S": "1",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("limits"), env=LIMITS).start()
    yield started
    started.stop()


def as_client(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def refused(answer: httpx.Response, code: str) -> str:
    assert answer.status_code == 429, answer.text
    assert answer.json()["error"]["code"] == code
    return str(answer.json()["error"]["message"])


def test_each_route_class_is_limited_per_address_with_429_and_retry_after(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        for path in ("/v1/words/cat", "/v1/bop/CT", "/v1/pdq/PNA/paint", "/v1/words/dog", "/v1/words/cow"):
            assert http.get(path, headers=as_client("10.1.0.1")).status_code == 200
        answer = http.get("/v1/words/cat", headers=as_client("10.1.0.1"))
        message = refused(answer, "rate_limited")
        assert "judge questions" in message and "at most 5 in 60 s" in message
        assert 1 <= int(answer.headers["retry-after"]) <= 12  # a token back every 12 s
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert http.get("/v1/words/cat", headers=as_client("10.1.0.2")).status_code == 200  # its own bucket
        assert http.get("/healthz", headers=as_client("10.1.0.1")).status_code == 200  # not a judge question

        move = {"move": "pass", "version": 0}
        for _ in range(5):  # a move to no match is still a move asked for: it counts
            assert http.post("/v1/matches/nosuch/moves", json=move, headers=as_client("10.1.0.3")).status_code == 404
        moves = http.post("/v1/matches/nosuch/moves", json=move, headers=as_client("10.1.0.3"))
        assert "too many moves" in refused(moves, "rate_limited")
        for _ in range(5):
            assert http.post("/v1/matches/nosuch/join", json={}, headers=as_client("10.1.0.3")).status_code == 404
        assert "joins" in refused(http.post("/v1/matches/nosuch/join", json={}, headers=as_client("10.1.0.3")),
                                  "rate_limited")  # fmt: skip
        # Resigning, vacations and asks to end a game share one bucket, their DELETEs too.
        seat_calls = [("POST", "/resign"), ("POST", "/end"), ("DELETE", "/end"), ("POST", "/vacation"),
                      ("DELETE", "/vacation")]  # fmt: skip
        for method, end in seat_calls:
            answer = http.request(method, f"/v1/matches/nosuch{end}", json={"days": 1}, headers=as_client("10.1.0.4"))
            assert answer.status_code == 404, answer.text
        resigning = http.post("/v1/matches/nosuch/resign", headers=as_client("10.1.0.4"))
        assert "too many resignations, vacations" in refused(resigning, "rate_limited")


def test_waiting_matches_are_capped_per_address_then_creation_is_rate_limited(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        bop = {"game": "bop", "seats": 2}
        made = [http.post("/v1/matches", json=bop, headers=as_client("10.2.0.1")) for _ in range(3)]
        assert [answer.status_code for answer in made] == [201, 201, 201]
        fourth = http.post("/v1/matches", json=bop, headers=as_client("10.2.0.1"))
        assert "3 matches you created are waiting" in refused(fourth, "too_many_waiting")
        other = http.post("/v1/matches", json=bop, headers=as_client("10.2.0.2"))
        assert other.status_code == 201
        # Once one starts, its creator may make another.
        first = made[0].json()
        joined = http.post(f"/v1/matches/{first['match']}/join", json={"invite": first["invite"]},
                           headers=as_client("10.2.0.3"))  # fmt: skip
        assert joined.status_code == 200
        assert http.post("/v1/matches", json=bop, headers=as_client("10.2.0.1")).status_code == 201
        # Five creations asked in a minute: the sixth is refused before any work, with Retry-After.
        sixth = http.post("/v1/matches", json=bop, headers=as_client("10.2.0.1"))
        assert "matches (and house rules, tables) created" in refused(sixth, "rate_limited")
        assert int(sixth.headers["retry-after"]) >= 1


def test_a_forwarded_address_counts_only_from_a_trusted_proxy() -> None:
    seen: list[object] = []

    async def app(scope: dict, receive: object, send: object) -> None:
        seen.append(scope["client"])

    middleware = ClientAddress(app, ("10.0.0.9",))  # type: ignore[arg-type]
    headers = [(b"x-forwarded-for", b"6.6.6.6, 10.0.0.8")]
    for client in (("10.0.0.9", 5), ("10.0.0.7", 5)):
        asyncio.run(middleware({"type": "http", "client": client, "headers": headers}, None, None))  # type: ignore[arg-type]
    # From the proxy: the last address it was called from. From anyone else: the header is ignored.
    assert seen == [("10.0.0.8", 0), ("10.0.0.7", 5)]


def test_an_ipv6_client_is_counted_by_its_64(server: Server) -> None:
    """A home or a phone is given a whole IPv6 /64: each of its addresses counted alone would let one
    client fill the quotas as many times over as it has addresses. The waiting cap (3 here) and the
    rate limits count the /64; another /64 is another client."""
    bop = {"game": "bop", "seats": 2}
    with httpx.Client(base_url=server.url, timeout=10) as http:
        made = [http.post("/v1/matches", json=bop, headers=as_client(f"2001:db8:7:7::{n}")) for n in (1, 2, 3)]
        assert [answer.status_code for answer in made] == [201, 201, 201]
        fourth = http.post("/v1/matches", json=bop, headers=as_client("2001:db8:7:7:ffff::4"))
        assert "3 matches you created are waiting" in refused(fourth, "too_many_waiting")
        assert http.post("/v1/matches", json=bop, headers=as_client("2001:db8:7:8::1")).status_code == 201
        for number in range(5):  # the judge's rate (5 a minute) is the /64's, whichever address asks
            assert http.get("/v1/words/cat", headers=as_client(f"2001:db8:9:9::{number + 1}")).status_code == 200
        refused(http.get("/v1/words/cat", headers=as_client("2001:db8:9:9::99")), "rate_limited")


def test_route_classes_and_bounded_buckets() -> None:
    assert route_class("POST", "/v1/matches/abc/moves") == "moves"
    assert route_class("POST", "/v1/matches") == route_class("POST", "/v1/house-rules") == "create"
    assert route_class("POST", "/v1/matches/abc/rematch") == "create"
    assert route_class("GET", "/v1/matches/abc") is None and route_class("GET", "/healthz") is None
    assert route_class("GET", "/v1/pdq/PNA") == route_class("POST", "/v1/bop/challenge") == "judge"
    assert route_class("POST", "/v1/tables") == route_class("POST", "/v1/tables/t1/matches") == "create"
    assert route_class("POST", "/v1/tables/t1/players") == route_class("POST", "/v1/tables/t1/player-link") == "join"
    assert route_class("POST", "/v1/tables/t1/player-link/take") == "join"
    assert route_class("POST", "/v1/my-games") == route_class("POST", "/v1/tables/t1/seats") == "lists"
    assert route_class("GET", "/v1/tables/t1/league") == route_class("GET", "/v1/tables/t1/export") == "lists"
    assert route_class("POST", "/v1/matches/abc/resign") == route_class("DELETE", "/v1/matches/abc/end") == "seats"
    assert route_class("GET", "/v1/matches/abc/end") is None and route_class("DELETE", "/v1/tables/x/end") != "seats"
    buckets = TokenBuckets({"judge": (2, 1.0)}, max_buckets=100)
    for number in range(1000):  # many addresses, each asking once: never more than the bound kept
        buckets.take("judge", f"10.0.{number // 256}.{number % 256}", now=number / 1000)
        assert len(buckets.buckets) <= 100
    assert buckets.take("judge", "a", 5.0) == 0 and buckets.take("judge", "a", 5.0) == 0
    assert buckets.take("judge", "a", 5.0) == pytest.approx(0.5)  # 2 a second: a token in half a second
    assert buckets.take("judge", "a", 5.6) == 0


def test_a_costly_request_takes_more_tokens_but_never_more_than_the_bucket_holds() -> None:
    """A live socket's resync of many moves costs several of the address's moves (``resync_cost``); one
    that would cost more than the bucket holds costs the whole bucket, so that it passes once it is full."""
    buckets = TokenBuckets.of({"moves": (10, 10.0), "judge": None})  # a token a second
    assert set(buckets.rates) == {"moves"}
    assert buckets.take("moves", "a", 0.0, cost=4) == 0
    assert buckets.take("moves", "a", 0.0, cost=7) == pytest.approx(1.0)  # 6 left: one more second
    assert buckets.take("moves", "a", 1.0, cost=7) == 0
    assert buckets.take("moves", "a", 1.0, cost=500) == pytest.approx(10.0)  # capped at the 10 it holds
    assert buckets.take("moves", "a", 11.0, cost=500) == 0
    assert buckets.take("moves", "b", 11.0, cost=500) == 0  # a new address's full bucket, emptied


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_64_mib_header_is_refused_early_and_costs_no_memory(server: Server) -> None:
    assert server.process is not None
    before = rss_kib(server.process.pid)
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent, chunk = 0, b"a" * 65536
        try:
            while sent < 64 * 1024 * 1024:
                conn.sendall(chunk)
                sent += len(chunk)
        except OSError:  # the server closed the connection: the rest is never read
            pass
        answer = conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 431 ") and b'"headers_too_large"' in answer
    assert sent < 8 * 1024 * 1024 and time.monotonic() - started < 5
    assert rss_kib(server.process.pid) - before < 16 * 1024
    assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200


def one_write(server: Server, head: bytes) -> bytes:
    """``head`` sent in one write (it comes in one read); the answer's first bytes."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(head)
        return conn.recv(4096)


@pytest.mark.parametrize("size", [9_000, 20_000, 60_000])
def test_a_long_head_sent_in_one_write_is_refused(server: Server, size: int) -> None:
    """A head past the limit (8 KiB here) that arrives in one read is refused as one sent in pieces is:
    the parser counts it as it reads it (it was served: the head was parsed before it was counted)."""
    headers = b"".join(b"X-Pad-%d: %s\r\n" % (number, b"a" * 90) for number in range(size // 100))
    answer = one_write(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 431 ") and b'"headers_too_large"' in answer
    under = b"".join(b"X-Pad-%d: %s\r\n" % (number, b"a" * 90) for number in range(60))  # about 6 KB
    assert one_write(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + under + b"\r\n").startswith(b"HTTP/1.1 200 ")


@pytest.mark.slow
def test_slow_and_silent_connections_are_dropped_while_others_are_served(server: Server) -> None:
    """100 connections that never send, and 100 that send a header line every half second
    (slowloris): all closed within REQUEST_TIMEOUT_S (2 s here) and a little, the slow ones with 408;
    a /healthz probe beside them never waits more than 250 ms."""
    silent = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(100)]
    slow = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(100)]
    opened = time.monotonic()
    for conn in slow:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    worst = 0.0
    with httpx.Client(base_url=server.url, timeout=5) as http:
        while time.monotonic() - opened < 1.8:
            for conn in slow:
                conn.sendall(b"X-Slow: 1\r\n")
            asked = time.monotonic()
            assert http.get("/healthz").status_code == 200
            worst = max(worst, time.monotonic() - asked)
            time.sleep(0.5 - (time.monotonic() - asked) % 0.5)
    assert worst < 0.25, worst
    answers = []
    for conn in silent + slow:
        conn.settimeout(max(0.1, opened + 5 - time.monotonic()))  # dropped by 2 s; 5 s is the bound
        try:
            answers.append(conn.recv(4096))
        except TimeoutError:
            answers.append(b"still open")
        conn.close()
    assert answers[:100] == [b""] * 100  # silent: just closed
    assert all(answer.startswith(b"HTTP/1.1 408 ") for answer in answers[100:]), set(answers[100:])


def test_every_answer_carries_the_security_headers_and_redirects_stay_home(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        for path in ("/", "/play", "/static/app.js", "/v1/words/cat", "/healthz", "/v1/nosuch"):
            answer = http.get(path, headers=as_client("10.4.0.1"))
            assert answer.headers["x-content-type-options"] == "nosniff", path
            assert answer.headers["x-frame-options"] == "DENY"
            assert answer.headers["referrer-policy"] == "no-referrer"
            policy = answer.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in policy and "script-src 'self';" in policy
            assert "unsafe-inline" not in policy
        docs = http.get("/docs")
        assert docs.status_code == 200 and "cdn.jsdelivr.net" in docs.headers["content-security-policy"]
        moved = http.get("/static", headers={"Host": "evil.example"})
        assert moved.status_code in (301, 307, 308) and moved.headers["location"] == "/static/"


def test_a_kept_alive_connection_is_closed_after_keep_alive_s(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        answered = b""
        while b'"pid"' not in answered:  # the whole answer (its head and body may come apart)
            answered += conn.recv(4096)
        assert answered.startswith(b"HTTP/1.1 200 ")
        asked = time.monotonic()
        assert conn.recv(4096) == b""  # closed by the server
        assert 0.8 < time.monotonic() - asked < 3.5  # KEEP_ALIVE_S is 1 here


@pytest.mark.slow
def test_a_waiting_match_nobody_joins_is_removed_by_the_running_server(tmp_path: Path) -> None:
    """The server's own upkeep sweeps (here with a 2 s expiry): the match answers 404 within a few
    seconds; a started one stays."""
    server = Server(tmp_path, env={"TABLEJUDGE_WAITING_EXPIRY_S": "2"}).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            # Timed from before the request: the server made the match after this, and a loaded machine
            # may take a second over the requests below (the expiry counts from the match's creation).
            created = time.monotonic()
            waiting = http.post("/v1/matches", json={"game": "bop", "seats": 2}).json()
            started = http.post("/v1/matches", json={"game": "bop", "seats": 2}).json()
            http.post(f"/v1/matches/{started['match']}/join", json={"invite": started["invite"]}).raise_for_status()
            while http.get(f"/v1/matches/{waiting['match']}").status_code == 200:
                assert time.monotonic() - created < 8, "still there 8 s after creation"
                time.sleep(0.2)
            assert time.monotonic() - created > 1.5
            gone = http.post(f"/v1/matches/{waiting['match']}/join", json={"invite": waiting["invite"]})
            assert gone.status_code == 404 and gone.json()["error"]["code"] == "unknown_match"
            assert http.get(f"/v1/matches/{started['match']}").status_code == 200
    finally:
        server.stop()


def test_limit_settings_are_read_and_checked() -> None:
    from service.settings import Settings, SettingsError

    settings = Settings.from_env({"TABLEJUDGE_RATE_MOVES": "10/2", "TABLEJUDGE_RATE_JUDGE": "off",
                                  "TABLEJUDGE_TRUSTED_PROXIES": "10.0.0.1, 10.0.0.2"})  # fmt: skip
    assert settings.rate("moves") == (10, 2.0) and settings.rate("judge") is None
    assert settings.rate("create") == (30, 60.0) and settings.limits.trusted_proxies == ("10.0.0.1", "10.0.0.2")
    assert Settings.from_env(settings.to_env()) == settings
    for name, value in (("RATE_CREATE", "lots"), ("RATE_JOIN", "5/0"), ("MAX_HEADER_BYTES", "10"),
                        ("REQUEST_TIMEOUT_S", "0"), ("MAX_WAITING", "-1")):  # fmt: skip
        with pytest.raises(SettingsError, match=f"TABLEJUDGE_{name}"):
            Settings.from_env({f"TABLEJUDGE_{name}": value})

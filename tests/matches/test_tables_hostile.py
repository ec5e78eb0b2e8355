"""A flood on the tables' and My games' routes stalls no one (tests/matches/test_hostile.py's way): a real
``tablejudge serve`` at its default limits, a probe asking ``/healthz`` every 20 ms in a process of its own,
one client (an address of its own, named through a trusted proxy's header) flooding the routes, and a
neighbour who keeps playing and reading their table meanwhile."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.matches.hostile import Probe
from tests.matches.servers import Server

pytestmark = [pytest.mark.server, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"TABLEJUDGE_TRUSTED_PROXIES": "127.0.0.1"}
    defaults = Settings.from_env({}).to_env()
    for name in ("RATE_CREATE", "RATE_JOIN", "RATE_LISTS", "MAX_TABLES_PER_CLIENT"):
        env[f"TABLEJUDGE_{name}"] = defaults[f"TABLEJUDGE_{name}"]  # the suite's conftest lifts them
    started = Server(tmp_path_factory.mktemp("tables-hostile"), env=env).start()
    yield started
    started.stop()


def client(server: Server, address: str) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30, headers={"X-Forwarded-For": address})


def test_a_flood_of_lists_tables_and_joins_meets_429s_and_stalls_no_one(server: Server) -> None:
    limits = Settings.from_env({})
    with client(server, "203.0.113.50") as neighbour:
        ann = neighbour.post("/v1/tables", json={"name": "Ours", "player": "Ann"}).json()
        bob = neighbour.post(f"/v1/tables/{ann['table']}/players", json={"name": "Bob"}).json()
        ids = [ann["player"]["player"], bob["player"]["player"]]
        key = {"Authorization": f"Bearer {ann['key']}"}
        url = f"/v1/tables/{ann['table']}/matches"
        started = neighbour.post(url, headers=key, json={"game": "bop", "players": ids}).json()
    forged = [{"match": started["match"], "token": f"forged-token-{n:010d}"} for n in range(limits.tables.my_games)]
    codes: dict[str, list[int]] = {}
    stop = threading.Event()

    def flood(address: str, kind: str, call: Any) -> None:
        with client(server, address) as http:
            while not stop.is_set():
                codes.setdefault(kind, []).append(call(http).status_code)

    floods = [
        threading.Thread(target=flood, args=("203.0.113.60", "lists", lambda http: http.post(
            "/v1/my-games", json={"seats": forged}))),
        threading.Thread(target=flood, args=("203.0.113.61", "creations", lambda http: http.post(
            "/v1/tables", json={"name": "Spam", "player": "Spam"}))),
        threading.Thread(target=flood, args=("203.0.113.62", "joins", lambda http: http.post(
            f"/v1/tables/{ann['table']}/players", json={"name": "Spam"}))),
        threading.Thread(target=flood, args=("203.0.113.63", "reads", lambda http: http.get(
            f"/v1/tables/{ann['table']}/league"))),
    ]  # fmt: skip
    with Probe(server.url) as probe, client(server, "203.0.113.50") as neighbour:
        for each in floods:
            each.start()
        try:
            for _ in range(20):  # the neighbour keeps reading their games and their table meanwhile
                mine = neighbour.post(
                    "/v1/my-games", json={"seats": [{"match": started["match"], "token": started["token"]}]}
                )
                assert mine.status_code == 200 and mine.json()["games"][0]["match"] == started["match"]
                assert neighbour.get(f"/v1/tables/{ann['table']}").status_code == 200
            for kind in ("lists", "creations", "joins", "reads"):  # every flood has met its limit
                while 429 not in codes.get(kind, []):
                    stop.wait(0.05)
        finally:
            stop.set()
            for each in floods:
                each.join(timeout=30)
    probe.assert_never_waited()
    assert set(codes["lists"]) == {200, 429} and set(codes["reads"]) == {200, 429}
    assert (
        set(codes["creations"]) <= {201, 429} and codes["creations"].count(201) <= limits.tables.max_tables_per_client
    )
    assert set(codes["joins"]) <= {201, 409, 429} and codes["joins"].count(201) <= 1  # one "Spam" at most
    # A forged token is named gone, and loads nothing; the neighbour's match is as it was.
    with client(server, "203.0.113.70") as other:
        answer = other.post("/v1/my-games", json={"seats": forged[:2]}).json()
        assert answer == {"games": [], "gone": [started["match"]], "now_ms": answer["now_ms"]}

"""An acknowledged move survives a killed server; several servers share matches on PostgreSQL.

A real ``tablejudge serve`` plays a run of matches (people at some seats, bots at the others); it is
killed with SIGKILL in the middle, restarted on the same store, and every move any client was told
of (an HTTP answer, a live event) is found in the log, and the matches play on from there.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.matches.clients import auth, live
from tests.matches.servers import Server, two_servers
from tests.matches.waiting import wait_for

pytestmark = [pytest.mark.server, pytest.mark.slow]


def run_matches(server: Server, matches: int, told: list[tuple[str, int, str]], stop: threading.Event) -> None:
    """People pass in BOP! matches against greedy bots until ``stop``; every move they are told of is kept."""
    with httpx.Client(base_url=server.url, timeout=10) as http:
        seats = []
        for _ in range(matches):
            made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "bots": {"1": "greedy"}}).json()
            seats.append((made["match"], made["token"]))
        while not stop.is_set():
            for match_id, token in seats:
                try:
                    body = http.get(f"/v1/matches/{match_id}", headers=auth(token), params={"history": True}).json()
                    for version, (seat, text) in enumerate(
                        (entry for entry in body["view"]["history"] if entry[0] >= 0), start=1
                    ):
                        told.append((match_id, version, text if seat == 0 else ""))
                    if 0 in body["must_act"]:
                        answer = http.post(
                            f"/v1/matches/{match_id}/moves",
                            headers=auth(token),
                            json={"move": "pass", "version": body["version"]},
                        )
                        if answer.status_code == 200:
                            told.append((match_id, answer.json()["version"], "pass"))
                except (httpx.TransportError, ValueError, KeyError):
                    return  # the server is gone


def stored_moves(database: Path) -> dict[tuple[str, int], str]:
    with sqlite3.connect(database) as db:
        return {(m, v): text for m, v, text in db.execute("SELECT match_id, version, move FROM moves")}


def test_every_acknowledged_move_survives_a_sigkill(tmp_path: Path) -> None:
    server = Server(tmp_path, workers=1).start()
    told: list[tuple[str, int, str]] = []
    stop = threading.Event()
    player = threading.Thread(target=run_matches, args=(server, 4, told, stop), daemon=True)
    player.start()
    try:
        wait_for(lambda: len({(m, v) for m, v, _ in told}) >= 40, "40 acknowledged moves", 60, every=0.05)
    finally:
        server.kill()  # mid-run: moves are in flight
        stop.set()
        player.join(timeout=10)
    stored = stored_moves(tmp_path / "matches.sqlite3")
    for match_id, version, text in told:
        assert (match_id, version) in stored, f"acknowledged move {version} of {match_id} was lost"
        if text:
            assert stored[(match_id, version)] == text
    restarted = Server(tmp_path, workers=1).start()
    try:
        with httpx.Client(base_url=restarted.url, timeout=10) as http:
            match_id = told[0][0]
            body = http.get(f"/v1/matches/{match_id}").json()
            assert body["version"] >= max(v for m, v in stored if m == match_id)  # its bot may move at once
            assert body["status"] in ("playing", "over")  # rebuilt from the log, and it plays on
    finally:
        restarted.stop()


def pass_and_hear(http: httpx.Client, url: str, match_id: str, token: str, mover: int, socket: Any) -> None:
    """The first move, a pass, made through the server at ``url``; ``socket`` (held by another server)
    hears of it."""
    moved = http.post(f"{url}/v1/matches/{match_id}/moves", headers=auth(token), json={"move": "pass", "version": 0})
    assert moved.status_code == 200
    event: dict[str, Any] = {"type": "ping"}
    while event["type"] == "ping":
        event = json.loads(socket.recv(timeout=10))
    assert event["version"] == 1 and event["moves"] == [{"seat": mover, "move": "pass"}]


def test_two_servers_share_matches_on_postgresql(tmp_path: Path, postgres_server: str) -> None:
    """A move made through one server reaches a live socket held by the other (NOTIFY), and the bots
    and clocks of a match are played once however many servers run."""
    from tests.pg import new_database

    database = new_database(postgres_server, "two_servers")
    with two_servers(tmp_path, database) as (first, second), httpx.Client(timeout=10) as http:
        made = http.post(f"{first.url}/v1/matches", json={"game": "bop", "seats": 2}).json()
        joined = http.post(f"{second.url}/v1/matches/{made['match']}/join", json={"invite": made["invite"]}).json()
        tokens = {0: made["token"], 1: joined["token"]}
        body = http.get(f"{second.url}/v1/matches/{made['match']}", headers=auth(tokens[0])).json()
        mover = body["must_act"][0]
        with live(second.url, made["match"], tokens[1 - mover]) as socket:
            assert json.loads(socket.recv(timeout=10))["type"] == "hello"
            pass_and_hear(http, first.url, made["match"], tokens[mover], mover, socket)
        stale = http.post(
            f"{second.url}/v1/matches/{made['match']}/moves",
            headers=auth(tokens[mover]),
            json={"move": "pass", "version": 0},
        )
        assert stale.status_code in (403, 409)  # the other server knows the move was made
        bots = http.post(
            f"{first.url}/v1/matches",
            json={"game": "pdq", "seats": 2, "bots": {"0": "quick:300", "1": "quick:300"}},
        ).json()
        over = f"{second.url}/v1/matches/{bots['match']}"
        wait_for(lambda: http.get(over).json()["status"] == "over", "the bots' match to end", 120, every=0.5)
        log = http.get(f"{first.url}/v1/matches/{bots['match']}/log").json()
        from engine import load_game

        replayed = load_game(log["spec"]).replay(log["seed"], log["moves"])  # each move once, in order
        assert replayed.is_terminal() and replayed.version == len(log["moves"])


def test_a_server_whose_listener_was_cut_listens_again(tmp_path: Path, postgres_server: str) -> None:
    """PostgreSQL drops a server's LISTEN connection (a restart, a failover, an admin): the server
    connects again by itself, and another server's moves reach its sockets as before."""
    import psycopg

    from tests.pg import new_database

    database = new_database(postgres_server, "listener_cut")
    # The listeners: idle after their LISTEN (so it has taken effect), and not among ``%s``, the cut
    # ones (a cut backend stays in pg_stat_activity, its last query shown, until it has exited).
    listening = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%%' "
        "AND state = 'idle' AND NOT pid = ANY(%s)"
    )
    with (
        two_servers(tmp_path, database) as (first, second),
        httpx.Client(timeout=10) as http,
        psycopg.connect(database, autocommit=True) as admin,
    ):
        made = http.post(f"{first.url}/v1/matches", json={"game": "bop", "seats": 2}).json()
        joined = http.post(f"{first.url}/v1/matches/{made['match']}/join", json={"invite": made["invite"]}).json()
        tokens = {0: made["token"], 1: joined["token"]}
        mover = http.get(f"{first.url}/v1/matches/{made['match']}", headers=auth(tokens[0])).json()["must_act"][0]
        with live(second.url, made["match"], tokens[1 - mover]) as socket:
            assert json.loads(socket.recv(timeout=10))["type"] == "hello"
            cut = [row[0] for row in admin.execute(listening, ([],)).fetchall()]
            assert len(cut) == 2  # one listener per server
            admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", (cut,))
            again = "both servers to listen again"
            wait_for(lambda: len(admin.execute(listening, (cut,)).fetchall()) >= 2, again, 20, every=0.2)
            pass_and_hear(http, first.url, made["match"], tokens[mover], mover, socket)


def told_of(socket: Any, kind: str) -> dict[str, Any]:
    """The socket's next update of ``kind``, within 10 s: others may come first (a seat's ``seen`` is a change too)."""
    deadline = time.monotonic() + 10
    while True:
        event = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        if event["type"] == "update" and event["kind"] == kind:
            return event  # type: ignore[no-any-return]
        print("told first:", event["type"], event.get("kind"))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_table_talk_made_through_one_server_reaches_the_others_sockets(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A takeback asked and a reaction said through one server reach a socket held by the other, named as
    the server that made them names them: not moves, so the change feed hears them as other changes (on
    SQLite, two processes polling one file, as ``serve --workers 2`` runs; on PostgreSQL, NOTIFY)."""
    if kind == "sqlite":
        database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    else:
        from tests.pg import new_database

        database = new_database(request.getfixturevalue("postgres_server"), "table_talk")
    with two_servers(tmp_path, database) as (first, second), httpx.Client(timeout=10) as http:
        made = http.post(f"{first.url}/v1/matches", json={"game": "bop", "seats": 2}).json()
        match_id = made["match"]
        joined = http.post(f"{first.url}/v1/matches/{match_id}/join", json={"invite": made["invite"]}).json()
        tokens = {0: made["token"], 1: joined["token"]}
        mover = http.get(f"{first.url}/v1/matches/{match_id}", headers=auth(tokens[0])).json()["must_act"][0]
        url = f"{first.url}/v1/matches/{match_id}"
        with live(second.url, match_id, tokens[1 - mover]) as socket:
            assert json.loads(socket.recv(timeout=10))["type"] == "hello"
            pass_and_hear(http, first.url, match_id, tokens[mover], mover, socket)
            asked = http.post(f"{url}/takeback", json={"version": 1}, headers=auth(tokens[mover]))
            assert asked.status_code == 200, asked.text
            told = told_of(socket, "takeback")
            assert told["match"]["takeback"]["seat"] == mover, told
            said = http.post(f"{url}/reactions", json={"reaction": "thanks"}, headers=auth(tokens[mover]))
            assert said.status_code == 201, said.text
            told = told_of(socket, "reaction")
            assert told["reaction"]["reaction"] == "thanks", told
            assert told["match"]["reactions"][-1]["seat"] == mover

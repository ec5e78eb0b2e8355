"""Lag compensation across server processes (issue 26, ``matches/lag.py``), on two real ``tablejudge
serve`` processes sharing one PostgreSQL store.

Bob's phone holds its live socket on the first server and answers its pings 1.2 s late (a slow
uplink), so the first server measures his round trip and stores his allowance with his seat. His
claim, sent over HTTP to the *second* server, says it was made 0.8 s before it arrived: the second
server allows him the lag measured on his socket, and takes the claim at his phone's time. Ann,
whose connection nobody measured, says the same of hers and is refused there (0.8 s is more than
the 0.65 s an unmeasured connection is allowed): before the allowance was stored with the seat,
Bob's claim was refused the same way.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from matches.lag import MARGIN_MS, MAX_ALLOWANCE_MS, UNMEASURED_RTT_MS
from tests.matches.clients import auth, live
from tests.matches.servers import two_servers
from tests.matches.waiting import wait_for

pytestmark = pytest.mark.server

#: How late Bob's phone answers the server's pings (s): a poor mobile uplink.
PONG_DELAY_S = 1.2
#: How long before it reaches a server each claim says it was made (ms): more than an unmeasured
#: connection is allowed, less than Bob's measured one.
BEHIND_MS = 800


def _seat_row(database: str, match_id: str, seat: int) -> tuple[Any, ...]:
    import psycopg

    with psycopg.connect(database, autocommit=True) as conn:
        found = conn.execute(
            "SELECT s.lag_ms, m.epoch_started FROM seats s JOIN matches m ON m.id = s.match_id "
            "WHERE s.match_id = %s AND s.seat = %s",
            (match_id, seat),
        ).fetchone()
    assert found is not None
    return tuple(found)


@pytest.mark.slow
def test_a_claim_sent_to_another_server_gets_the_lag_measured_on_the_seats_socket(
    tmp_path: Path, postgres_server: str
) -> None:
    from tests.pg import new_database

    database = new_database(postgres_server, "lag_two_servers")
    with two_servers(tmp_path, database) as (first, second), httpx.Client(timeout=20) as http:
        made = http.post(f"{first.url}/v1/matches", json={
            "game": "pdq", "seats": 2, "name": "Ann", "options": {"only_solvable": True}}).json()  # fmt: skip
        match_id = made["match"]
        invite = {"invite": made["invite"], "name": "Bob"}
        joined = http.post(f"{first.url}/v1/matches/{match_id}/join", json=invite)
        tokens = {made["seat"]: made["token"], joined.json()["seat"]: joined.json()["token"]}
        body = http.get(f"{first.url}/v1/matches/{match_id}", headers=auth(tokens[0])).json()
        letters = body["view"]["round"]["letters"]
        words = http.get(f"{first.url}/v1/pdq/{letters}", params={"min_length": 4, "limit": 1}).json()["words"]
        word = words[0]

        with live(first.url, match_id, tokens[1]) as bobs_phone:
            while (message := json.loads(bobs_phone.recv(timeout=20)))["type"] != "ping":
                pass  # the hello, then the server's first ping: its round trip is timed
            time.sleep(PONG_DELAY_S)
            bobs_phone.send(json.dumps({"type": "pong", "t": message["t"]}))
            stored = wait_for(lambda: _seat_row(database, match_id, 1)[0], "Bob's allowance to be stored", 20)
            assert PONG_DELAY_S * 1000 + MARGIN_MS <= stored <= MAX_ALLOWANCE_MS
            assert _seat_row(database, match_id, 0)[0] is None  # Ann has no socket: never measured
            epoch_started = float(_seat_row(database, match_id, 1)[1])

            def claim(seat: int) -> tuple[httpx.Response, int]:
                """The seat's claim, over HTTP to the second server, made BEHIND_MS before it is sent."""
                phone_ms = int((time.time() - epoch_started) * 1000) - BEHIND_MS
                sent = http.post(f"{second.url}/v1/matches/{match_id}/moves", headers=auth(tokens[seat]),
                                 json={"move": f"claim {word} @{phone_ms}", "version": 0})  # fmt: skip
                return sent, phone_ms

            refused, _ = claim(0)
            assert refused.status_code == 422, refused.text
            error = refused.json()["error"]
            assert error["rule"] == "too_fast" and error["details"]["allowance_ms"] == UNMEASURED_RTT_MS + MARGIN_MS
            taken, phone_ms = claim(1)
            assert taken.status_code == 200, taken.text

        turns = http.get(f"{second.url}/v1/matches/{match_id}/turns").json()["turns"]
        claims = [step["move"] for step in turns if str(step.get("move", "")).startswith("claim")]
        assert claims == [f"claim {word} @{phone_ms}"]  # taken at Bob's phone's time, not on arrival

"""Tables and My games over real HTTP (``tablejudge serve --workers 2``, ``live_server``): a table made, joined
and its match started and played with claimed seats; a device's games in one POST; every bad input a readable
4xx that changes nothing; every new route in the OpenAPI schema with its bounds."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.matches.clients import auth

pytestmark = pytest.mark.server


@pytest.fixture
def http(live_server: str) -> Any:
    with httpx.Client(base_url=live_server, timeout=30) as client:
        yield client


def made(http: httpx.Client, name: str = "Thursday", player: str = "Ann") -> dict[str, Any]:
    answer = http.post("/v1/tables", json={"name": name, "player": player})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def joined(http: httpx.Client, table: str, name: str) -> dict[str, Any]:
    answer = http.post(f"/v1/tables/{table}/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def error(answer: httpx.Response, status: int, code: str | None = None) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert len(body["message"]) > 10 and (code is None or body["code"] == code), body


def test_a_table_made_joined_and_its_match_played_with_claimed_seats(http: httpx.Client) -> None:
    ann = made(http)
    table = ann["table"]
    assert ann["link"].endswith(f"/play/tables/{table}") and len(ann["key"]) >= 22
    bob = joined(http, table, "Bob")
    players = [bob["player"]["player"], ann["player"]["player"]]
    started = http.post(
        f"/v1/tables/{table}/matches", headers=auth(ann["key"]), json={"game": "three2fifteen", "players": players}
    )
    assert started.status_code == 201, started.text
    match = started.json()
    assert match["seat"] == 1 and [s["name"] for s in match["seats"]] == ["Bob", "Ann"]
    seats = http.post(f"/v1/tables/{table}/seats", headers=auth(bob["key"]))
    assert seats.status_code == 200
    (bobs,) = seats.json()["seats"]
    assert (bobs["match"], bobs["seat"], bobs["status"]) == (match["match"], 0, "playing")
    body = http.get(f"/v1/matches/{match['match']}", headers=auth(bobs["token"])).json()
    assert body["you"] == 0 and body["status"] == "playing"
    # Both seats' games in one request each; the one to move first sees its turn.
    listed = http.post("/v1/my-games", json={"seats": [{"match": match["match"], "token": bobs["token"]}]}).json()
    (game,) = listed["games"]
    assert game["your_turn"] == (0 in body["must_act"]) and game["table"] == table
    overview = http.get(f"/v1/tables/{table}").json()
    assert [m["match"] for m in overview["matches"]] == [match["match"]]
    assert [p["name"] for p in overview["players"]] == ["Ann", "Bob"]
    league = http.get(f"/v1/tables/{table}/league").json()
    assert league["games"] == [] and league["provisional_below"] == 5
    assert http.get(f"/v1/tables/{table}/export?format=csv").text.startswith("seq,match,game")
    assert http.get(f"/v1/tables/{table}/export?format=json").json() == []


def test_a_player_link_carries_the_key_to_another_device_once(http: httpx.Client) -> None:
    ann = made(http)
    link = http.post(f"/v1/tables/{ann['table']}/player-link", headers=auth(ann["key"]))
    assert link.status_code == 201
    code = link.json()["code"]
    assert link.json()["link"].endswith(f"#player={code}")
    took = http.post(f"/v1/tables/{ann['table']}/player-link/take", json={"code": code})
    assert took.status_code == 200 and took.json()["key"] == ann["key"]
    error(http.post(f"/v1/tables/{ann['table']}/player-link/take", json={"code": code}), 409, "player_code_used")


def test_every_bad_input_is_a_readable_4xx_and_changes_nothing(http: httpx.Client) -> None:
    ann = made(http)
    table = ann["table"]
    before = http.get(f"/v1/tables/{table}").json()
    key = auth(ann["key"])
    forged = auth("forged-key-forged-key-00")
    unknown = "nosuchtable1"
    for answer in (
        http.get(f"/v1/tables/{unknown}"),
        http.get(f"/v1/tables/{unknown}/league"),
        http.get(f"/v1/tables/{unknown}/history"),
        http.get(f"/v1/tables/{unknown}/export"),
        http.post(f"/v1/tables/{unknown}/players", json={"name": "Bob"}),
        http.post(f"/v1/tables/{unknown}/seats", headers=key),
        http.post(f"/v1/tables/{unknown}/player-link/take", json={"code": "a" * 22}),
    ):
        error(answer, 404, "unknown_table")
    for answer in (
        http.post(f"/v1/tables/{table}/seats", headers=forged),
        http.post(f"/v1/tables/{table}/seats"),
        http.post(f"/v1/tables/{table}/player-link", headers=forged),
        http.post(
            f"/v1/tables/{table}/matches", headers=forged, json={"game": "bop", "players": [ann["player"]["player"]]}
        ),
    ):
        error(answer, 401, "unauthorized")
    for name in ("Ann\u0000", "\u001b[31mred", "a\u202ez", "Ann\nBob"):
        error(http.post(f"/v1/tables/{table}/players", json={"name": name}), 422)
        error(http.post("/v1/tables", json={"name": name, "player": "Zed"}), 422)
    error(http.post(f"/v1/tables/{table}/players", json={"name": "ann"}), 409, "name_taken")
    error(http.post(f"/v1/tables/{table}/players", json={"name": "x" * 41}), 422, "malformed_body")
    error(http.post(f"/v1/tables/{table}/players", json={"name": "Cy", "extra": 1}), 422, "malformed_body")
    error(http.post(f"/v1/tables/{table}/player-link/take", json={"code": "short"}), 422)
    error(http.post(f"/v1/tables/{table}/player-link/take", json={"code": "b" * 22}), 403, "bad_player_code")
    error(http.post(f"/v1/tables/{table}/matches", headers=key, json={"game": "bop", "players": ["nobody1"]}), 422)
    error(http.post(f"/v1/tables/{table}/matches", headers=key, json={"game": "bop", "players": []}), 422)
    error(http.get(f"/v1/tables/{table}/history?limit=0"), 400, "bad_option")  # a query's bound, as the judge's
    error(http.get(f"/v1/tables/{table}/export?format=xml"), 400, "bad_option")
    assert http.get("/v1/tables/bad*id").status_code in (400, 404)
    error(http.post("/v1/my-games", json={"seats": [{"match": "m", "token": "t"}] * 65}), 422)
    error(http.post("/v1/my-games", json={"seats": [{"match": "bad*id", "token": "a" * 22}]}), 422)
    error(http.post("/v1/my-games", json={"seats": "none"}), 422)
    assert http.get(f"/v1/tables/{table}").json() == before


def test_tokens_never_travel_in_a_url_and_every_route_is_in_the_schema(http: httpx.Client) -> None:
    schema = http.get("/openapi.json").json()
    paths = schema["paths"]
    for path, method in (
        ("/v1/tables", "post"), ("/v1/tables/{table_id}", "get"), ("/v1/tables/{table_id}/players", "post"),
        ("/v1/tables/{table_id}/player-link", "post"), ("/v1/tables/{table_id}/player-link/take", "post"),
        ("/v1/tables/{table_id}/matches", "post"), ("/v1/tables/{table_id}/seats", "post"),
        ("/v1/tables/{table_id}/league", "get"), ("/v1/tables/{table_id}/history", "get"),
        ("/v1/tables/{table_id}/export", "get"), ("/v1/my-games", "post"),
    ):  # fmt: skip
        operation = paths[path][method]
        assert operation["summary"] and "422" in operation["responses"], path
        names = {parameter["name"] for parameter in operation.get("parameters", [])}
        assert not names & {"token", "key", "code"}, path  # secrets go in a header or the body
    components = schema["components"]["schemas"]
    assert components["MyGamesBody"]["properties"]["seats"]["maxItems"] == Settings.from_env().tables.my_games
    assert "bop" in components["TableMatchBody"]["properties"]["game"]["enum"]
    assert components["PlayerBody"]["properties"]["name"]["maxLength"] == 40
    assert components["TableMatchBody"]["properties"]["players"]["maxItems"] == 12

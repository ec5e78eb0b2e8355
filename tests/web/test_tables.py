"""A table's pages (``static/play/tables.js``) in Chromium on 360 x 740 phones: Ann makes a table from /play,
Bob joins it from its link under his name, Ann starts a game with the table's players from the table's page;
the games end (their players leave them to bots, whose results are still theirs) and the league page shows
each player's figures, the provisional mark and the history, within the phone's width."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.matches.waiting import wait_for
from tests.web import busy
from tests.web.conftest import Phone
from tests.web.pages import shots_both_ways

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def kept_table(page: Any) -> dict[str, Any]:
    """The table this browser keeps a key of (``tablejudge.tables``)."""
    tables: dict[str, Any] = json.loads(page.evaluate("localStorage.getItem('tablejudge.tables')"))
    ((table_id, facts),) = tables.items()
    return {"id": table_id, **facts}


def leave_to_bots(http: httpx.Client, match_id: str, tokens: list[str]) -> None:
    for token in tokens:
        assert http.post(f"/v1/matches/{match_id}/leave", headers=auth(token)).status_code == 200


def test_a_table_is_made_joined_played_and_its_league_shown(
    phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    ann_phone, bob_phone = phones("Ann"), phones("Bob")
    home = ann_phone.open("/play")
    home.locator("#tables details.new-table").wait_for()
    home.locator("#table-name").fill("Thursday club")
    home.locator("#table-player").fill("Ann")
    home.locator("#new-table button[type=submit]").click()
    home.wait_for_url(f"{live_server}/play/tables/*")
    home.locator("h1", has_text="Thursday club").wait_for()
    ann = kept_table(home)
    link = home.locator("#table-link").input_value()
    assert link == f"{live_server}/play/tables/{ann['id']}"

    bob_page = bob_phone.open(link.removeprefix(live_server))
    bob_page.locator("#join-table-name").fill("Bob")
    bob_page.locator("#join-table button[type=submit]").click()
    bob_page.locator("p", has_text="You are Bob.").wait_for()
    bob = kept_table(bob_page)
    with busy.client(live_server) as http:
        cy = http.post(f"/v1/tables/{ann['id']}/players", json={"name": "Cy"}).json()
        # Ann starts Three2Fifteen for the three of them from the table's page.
        home.reload()
        home.locator("#plays-" + cy["player"]["player"]).wait_for()
        # The table's home fits the phone either way up, every control big enough for a thumb.
        assert shots_both_ways(home, tmp_path, "table-home") == [("landscape", 740, []), ("portrait", 360, [])]
        home.locator("#table-game").select_option("three2fifteen")
        home.locator("#table-start button[type=submit]").click()
        home.wait_for_url(f"{live_server}/play/*")
        first = home.url.rsplit("/", 1)[-1]
        home.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === 0")
        ann_token = json.loads(home.evaluate("localStorage.getItem('tablejudge.seats')"))[first]["token"]
        # A second game, started through the API; then everyone leaves both to bots, who play them out.
        ids = [p["player"] for p in http.get(f"/v1/tables/{ann['id']}").json()["players"]]
        second = http.post(f"/v1/tables/{ann['id']}/matches", headers=auth(ann["key"]),
                           json={"game": "three2fifteen", "players": ids[::-1]}).json()  # fmt: skip
        tokens = {}
        for who in (bob, cy):
            for seat in http.post(f"/v1/tables/{ann['id']}/seats", headers=auth(who["key"])).json()["seats"]:
                tokens.setdefault(seat["match"], []).append(seat["token"])
        # Watched, they play at the bots' pace (a match with no person seated that nobody watches is slowed).
        bob_page.goto(f"{live_server}/play/{second['match']}?watch=1")
        leave_to_bots(http, first, [ann_token, *tokens[first]])
        leave_to_bots(http, second["match"], [second["token"], *tokens[second["match"]]])
        wait_for(lambda: http.get(f"/v1/tables/{ann['id']}/league").json()["results"] == 2, "both games recorded",
                 seconds=90, every=0.5)  # fmt: skip

    league = ann_phone.open(f"/play/tables/{ann['id']}/league")
    league.locator(".league-table tbody tr").nth(2).wait_for()
    assert league.locator("h1").inner_text() == "Thursday club: league"
    assert league.locator(".league h2").inner_text() == "Three2Fifteen · 2 games"
    rows = [row.split("\t") for row in league.locator(".league-table tbody tr").all_inner_texts()]
    assert sorted(row[0] for row in rows) == ["Ann", "Bob", "Cy"]
    assert all(row[2] == "2" for row in rows), rows
    assert all("?" in row[1] and "(provisional)" in row[1] for row in rows), rows  # provisional: 2 rated games
    league.locator(".history-line").nth(1).wait_for()
    assert league.locator(".history-line").count() == 2
    # A line reads "Three2Fifteen · Dec 6", its words apart; an average is shown as a number, not "634.0".
    lines = league.locator(".history-line a").all_inner_texts()
    assert all(re.fullmatch(r"Three2Fifteen · (\w+ \d+|\d+ \w+\.?)", text) for text in lines), lines
    assert not any(row[4].endswith(".0") for row in rows), rows
    assert league.locator("a[href$='format=csv']").count() == 1
    # The league fits the phone's width either way up, every control big enough for a thumb.
    assert shots_both_ways(league, tmp_path, "league") == [("landscape", 740, []), ("portrait", 360, [])]


def test_use_me_on_another_device_makes_a_link_that_brings_the_player(
    phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    """The table page's "Make a link" (the one control a seat's "Move my seat" uses too): the link, its
    Copy button and its QR code; opened on another phone, that phone is the same player."""
    made = httpx.post(f"{live_server}/v1/tables", json={"name": "Thursday club", "player": "Ann"}, timeout=30)
    assert made.status_code == 201, made.text
    you = made.json()
    facts = {you["table"]: {"name": you["name"], "player": you["player"]["player"], "playerName": "Ann",
                            "key": you["key"], "saved": 1}}  # fmt: skip
    ann_phone, other = phones("Ann"), phones("Ann's tablet")
    ann_phone.context.add_init_script(f"localStorage.setItem('tablejudge.tables', {json.dumps(json.dumps(facts))})")
    page = ann_phone.open(f"/play/tables/{you['table']}")
    page.locator("#move-me summary").click()
    page.locator("#player-link-make").click()
    link = page.locator("#player-link").input_value()
    assert re.fullmatch(rf"{re.escape(live_server)}/play/tables/{you['table']}#player=[\w-]+", link), link
    assert page.get_by_role("button", name="Copy link").is_visible()
    assert page.get_by_role("img", name="QR code of your link").is_visible()
    assert page.locator("#player-link-make").inner_text() == "Make a new link"
    assert shots_both_ways(page, tmp_path, "table-player-link") == [("landscape", 740, []), ("portrait", 360, [])]
    tablet = other.open(link.removeprefix(live_server))
    tablet.wait_for_function("localStorage.getItem('tablejudge.tables')")
    assert kept_table(tablet)["key"] == you["key"]

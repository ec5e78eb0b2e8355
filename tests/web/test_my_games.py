"""My games on /play (``static/play/mygames.js``) in Chromium on a 360 x 740 phone: three games in three states
(your turn, waiting for the other player, finished), listed from one request in that order, each row saying
the game, the other players and the last move; one tap resumes the game whose turn it is; a seat the server
no longer knows is forgotten."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.matches.waiting import wait_for
from tests.web import busy
from tests.web.conftest import Phone
from tests.web.pages import shots_both_ways

pytestmark = [pytest.mark.browser, pytest.mark.server]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def bop_of_two(http: httpx.Client) -> tuple[str, str, str, dict[str, Any]]:
    """A BOP! match of Ann and Bob: its id, Ann's token, Bob's token, and the match as Ann sees it."""
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann", "public": False}).json()
    joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"}).json()
    body = http.get(f"/v1/matches/{made['match']}", headers=auth(made["token"])).json()
    return made["match"], made["token"], joined["token"], body


def pass_turn(http: httpx.Client, match_id: str, token: str, version: int) -> None:
    moved = http.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version}, headers=auth(token))
    assert moved.status_code == 200, moved.text


def three_games(base: str) -> dict[str, Any]:
    """Ann's three games: one her turn, one waiting for Bob, one finished; her tokens by match."""
    with busy.client(base) as http:
        games: dict[str, Any] = {}
        # Finished: a solo PDQ game ends at the first deal its one player is stumped by.
        solo = http.post(
            "/v1/matches", json={"game": "pdq", "options": {"variant": "solo"}, "seats": 1, "name": "Ann"}
        ).json()
        moved = http.post(
            f"/v1/matches/{solo['match']}/moves", json={"move": "noword", "version": 0}, headers=auth(solo["token"])
        )
        assert moved.status_code == 200 and moved.json()["status"] == "over", moved.text
        games["over"] = (solo["match"], solo["token"])
        # Waiting: Ann passed last, Bob is to move.
        match_id, ann, bob, body = bop_of_two(http)
        order = [bob, ann] if body["must_act"] == [1] else [ann]
        for version, token in enumerate(order):
            pass_turn(http, match_id, token, version)
        games["waiting"] = (match_id, ann)
        # Ann's turn: Bob passed last.
        match_id, ann, bob, body = bop_of_two(http)
        order = [ann, bob] if body["must_act"] == [0] else [bob]
        for version, token in enumerate(order):
            pass_turn(http, match_id, token, version)
        games["turn"] = (match_id, ann)
        return games


def seats_script(games: dict[str, Any], extra: dict[str, Any]) -> str:
    """This browser's seats, as the page keeps them (``net.js``), set before the page's scripts run."""
    facts = {
        match: {"token": token, "seat": 0, "saved": index + 1} for index, (match, token) in enumerate(games.values())
    }
    facts.update(extra)
    kept = json.dumps(json.dumps(facts))
    return f"if (!localStorage.getItem('tablejudge.seats')) localStorage.setItem('tablejudge.seats', {kept});"


def test_three_games_in_three_states_and_one_tap_resumes_it(
    phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    games = three_games(live_server)
    phone = phones("Ann")
    gone = {"nosuchmatch1": {"token": "forged-token-forged-token", "seat": 0, "saved": 9}}
    phone.context.add_init_script(seats_script(games, gone))
    requests: list[str] = []
    phone.page.on("request", lambda request: requests.append(f"{request.method} {request.url}"))
    page = phone.open("/play")
    page.locator("#my-games .my-game").nth(2).wait_for()
    headings = page.locator("#my-games h3").all_inner_texts()
    assert headings == ["Your turn (1)", "Waiting (1)", "Finished (1)"]
    links = page.locator("#my-games .my-game")
    assert [links.nth(i).get_attribute("data-match") for i in range(3)] == [
        games[k][0] for k in ("turn", "waiting", "over")
    ]
    texts = links.all_inner_texts()
    assert "BOP!" in texts[0] and "Your turn" in texts[0] and "with Bob" in texts[0]
    assert "Bob passed · just now" in texts[0]  # the last move, in words, and when
    assert "Bob's turn" in texts[1] and "with Bob" in texts[1] and "You passed · just now" in texts[1]
    assert "PDQ" in texts[2] and "You won" in texts[2] and "on your own" in texts[2]
    # One request for the list, the tokens in its body; none in any address.
    posts = [r for r in requests if r.startswith("POST") and r.endswith("/v1/my-games")]
    assert len(posts) == 1 and not any(token in r for r in requests for _, token in games.values())
    # The seat the server does not know is forgotten here.
    assert page.evaluate("JSON.parse(localStorage.getItem('tablejudge.seats'))['nosuchmatch1']") is None
    # The list fits the phone's width either way up, and every control is big enough for a thumb.
    assert shots_both_ways(page, tmp_path, "my-games") == [("landscape", 740, []), ("portrait", 360, [])]
    # A finished game is removed from the list at one tap: this device forgets it.
    page.locator(f"li[data-match='{games['over'][0]}'] .mine-remove").click()
    assert page.locator("#my-games .my-game").count() == 2 and page.locator("#mine-over").count() == 0
    assert page.evaluate(f"JSON.parse(localStorage.getItem('tablejudge.seats'))['{games['over'][0]}']") is None
    links.first.click()
    page.wait_for_url(f"{live_server}/play/{games['turn'][0]}")
    page.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === 0")
    page.locator("#status", has_text="Your turn").wait_for()


@pytest.mark.slow
def test_a_bots_last_move_names_the_bot_as_the_row_does(phones: Callable[[str], Phone], live_server: str) -> None:
    """Against the normal bot, the row's last move names it "Bot · normal", as the row names its players (it
    said only "normal")."""
    with busy.client(live_server) as http:
        made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann", "bots": {"1": "normal"}})
        assert made.status_code == 201, made.text
        match_id, token = made.json()["match"], made.json()["token"]

        def after_the_bot() -> bool:
            """Ann passes when she opens; true once the bot has moved after her (the last move is the bot's)."""
            body = http.get(f"/v1/matches/{match_id}", headers=auth(token)).json()
            if body["must_act"] == [0] and body["version"] == 0:
                pass_turn(http, match_id, token, 0)
                return False
            return bool(body["must_act"] == [0] and body["version"] >= 1)

        wait_for(after_the_bot, "the bot's move", 60, every=0.1)
    phone = phones("Ann")
    phone.context.add_init_script(seats_script({"turn": (match_id, token)}, {}))
    page = phone.open("/play")
    row = page.locator(f"#my-games .my-game[data-match='{match_id}']")
    row.wait_for()
    line = row.locator(".my-game-line").last.inner_text()
    assert line.startswith("Bot · normal "), line

"""The pages under the server's real Content-Security-Policy (docs/deploy.md, "Limits"), in Debian's headless
Chromium: the judge page asked by keyboard, a match created, joined, played and watched by tapping, and
every game's board watched; the browser must report no violation of the policy.

The other page tests run with ``bypass_csp`` (Playwright's ``wait_for_function`` evaluates a string in
the page, which this policy refuses); here the waits are locators and selectors only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.service.test_page import PHONE, browser  # noqa: F401 (the fixture)
from tests.web.pages import join_and_watch

pytestmark = [pytest.mark.browser, pytest.mark.server]


class Watched:
    """A phone under the policy, and every violation its console reported."""

    def __init__(self, browser: Any, base: str) -> None:  # noqa: F811
        self.base = base
        self.context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.blocked: list[str] = []
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.blocked.append(message.text)

    def open(self, path: str) -> Any:
        self.page.goto(self.base + path)
        return self.page


@pytest.fixture
def watched(browser: Any, live_server: str) -> Iterator[Any]:  # noqa: F811
    made: list[Watched] = []

    def phone() -> Watched:
        made.append(Watched(browser, live_server))
        return made[-1]

    yield phone
    for each in made:
        each.context.close()


def test_the_judge_page_works_under_the_policy(watched: Any) -> None:
    phone = watched()
    page = phone.open("/")
    page.get_by_label("Letters").fill("c?wb")
    page.get_by_label("Claimed word").fill("cobweb")
    page.get_by_label("Claimed word").press("Enter")
    page.wait_for_selector("#verdict:text-is('VALID')")
    page.get_by_label("Claimed word").fill("cowboy")
    page.get_by_label("Claimed word").press("Enter")
    page.wait_for_selector("#verdict:text-is('NOT VALID')")
    page.get_by_label("PDQ").check()
    page.get_by_label("Letters").fill("pna")
    page.get_by_label("Letters").press("Enter")
    page.wait_for_selector("#words li")
    assert phone.blocked == [] and phone.errors == []
    # The check can fail: an inline style attribute is what the policy refuses, and the console says so.
    page.evaluate("() => document.body.setAttribute('style', 'color: red')")
    page.wait_for_timeout(200)  # the console message is asynchronous; nothing to wait on in the page
    assert any("style" in text for text in phone.blocked), phone.blocked


@pytest.mark.slow
def test_a_match_is_created_joined_played_and_watched_under_the_policy(watched: Any, live_server: str) -> None:
    ann, bob, eve = watched(), watched(), watched()
    home = ann.open("/play")
    home.get_by_label("Your name").fill("Ann")
    home.get_by_role("button", name="Create the game").click()
    home.wait_for_selector("img.qr")
    match, seat, watch = join_and_watch(home, bob, eve, live_server, ".grid .cell")
    # Four passes, each seat's own (its token from the page's storage): the boards and the score sheet
    # redraw from the socket's events on all three phones.
    tokens = [json.loads(page.evaluate("() => localStorage.getItem('tablejudge.seats')"))[match]["token"]
              for page in (home, seat)]  # fmt: skip
    with httpx.Client(base_url=live_server, timeout=10) as http:
        for version in range(4):
            body = http.get(f"/v1/matches/{match}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
            mover = tokens[0] if body["you"] in body["must_act"] else tokens[1]
            moved = http.post(f"/v1/matches/{match}/moves", json={"move": "pass", "version": body["version"]},
                              headers={"Authorization": f"Bearer {mover}"})  # fmt: skip
            assert moved.status_code == 200, moved.text
            for page in (home, seat, watch):
                page.locator(".sheet-list > li").nth(version).wait_for()
    for phone in (ann, bob, eve):
        assert phone.blocked == [], phone.blocked
        assert phone.errors == [], phone.errors


@pytest.mark.slow
def test_every_game_board_is_watched_under_the_policy(watched: Any, live_server: str) -> None:
    with httpx.Client(base_url=live_server, timeout=10) as http:
        games = http.get("/v1/games").json()["games"]
        phone = watched()
        for entry in games:
            bots = {str(seat): entry["bots"][0] for seat in range(entry["players"])}
            made = http.post("/v1/matches", json={"game": entry["game"], "bots": bots})
            assert made.status_code == 201, made.text
            page = phone.open(f"/play/{made.json()['match']}?watch=1")
            # The board drawn and the socket's first event shown: whose turn it is.
            page.locator("#status").filter(has_text=re.compile(r"\w")).wait_for()
            assert phone.blocked == [], (entry["game"], phone.blocked)
        assert phone.errors == [], phone.errors

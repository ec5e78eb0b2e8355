"""Seats that travel (issue 26, ``static/play/seat.js``) in Chromium, two phones: phone A makes its
seat's one-time link, phone B opens it and plays the seat, phone A watches from then on; an invite to a
full match says the seats are full and offers to watch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tests.web.conftest import Phone
from tests.web.test_push_page import seat_script

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]


def two_people(base: str) -> tuple[str, dict[int, str], str]:
    """A BOP! match of Ann (seat 0) and Bob (seat 1), started; its id, the seats' tokens, its invite link."""
    made = httpx.post(f"{base}/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}, timeout=30).json()
    joined = httpx.post(f"{base}/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"},
                        timeout=30).json()  # fmt: skip
    return made["match"], {made["seat"]: made["token"], joined["seat"]: joined["token"]}, made["invite"]


def test_a_seat_moves_to_another_phone_by_its_link_and_plays_there(
    phones: Callable[[str], Phone], live_server: str
) -> None:
    match_id, tokens, _ = two_people(live_server)
    phone_a, phone_b = phones("Ann's phone"), phones("Ann's tablet")
    phone_a.context.add_init_script(seat_script(match_id, tokens[0], 0))
    page_a = phone_a.open(f"/play/{match_id}")
    page_a.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === 0")
    page_a.locator("#seat-menu-button").click()  # the seat's menu, in the header (menu.js)
    page_a.locator("#seat-move summary").click()
    page_a.locator("#seat-link-make").click()
    link = page_a.locator("#seat-link").input_value()
    assert link.startswith(f"{live_server}/play/{match_id}#seat=")
    assert "invite" not in link and tokens[0] not in link  # a code of its own, never the seat's token
    qr = page_a.locator("#seat-move img.qr")
    assert qr.get_attribute("src") == f"/v1/qr?text={quote(link, safe='')}"
    page_a.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=qr.element_handle())  # (drawn)
    assert "Works once, for 10 minutes" in page_a.locator("#seat-move").inner_text()

    assert page_a.locator("#bop-pass").is_visible()  # phone A offers the seat's moves until the seat leaves

    page_b = phone_b.open(link.removeprefix(live_server))
    page_b.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === 0")
    assert page_b.url == f"{live_server}/play/{match_id}"  # the code is out of the address at once
    assert page_b.locator(".match-head .tag", has_text="watching").count() == 0
    # Phone A, untouched, is told at once (its socket closed, 4409): it says so in words and watches.
    page_a.locator("#seat-notice", has_text="Your seat moved to another device; you are watching.").wait_for()
    page_a.wait_for_function("() => window.tablejudgeMatch.you === null && window.tablejudgeMatch.token === null")
    assert page_a.locator(".match-head .tag", has_text="watching").count() == 1
    assert not page_a.locator("#bop-pass").is_visible() and page_a.locator("#seat-move").count() == 0
    assert "Your turn" not in page_a.locator("#status").inner_text()
    assert page_a.evaluate(f"JSON.parse(localStorage.getItem('tablejudge.seats'))['{match_id}'].token") is None
    version = page_b.evaluate("window.tablejudgeMatch.body.version")
    if 0 not in page_b.evaluate("window.tablejudgeMatch.body.must_act"):  # Bob first: he passes
        moved = httpx.post(f"{live_server}/v1/matches/{match_id}/moves", json={"move": "pass", "version": version},
                           headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=30)  # fmt: skip
        assert moved.status_code == 200, moved.text
        version += 1
        page_b.wait_for_function("(v) => window.tablejudgeMatch.body.version >= v", arg=version)
    page_b.evaluate("window.tablejudgeMatch.move('pass')")  # phone B plays the seat
    page_b.wait_for_function("(v) => window.tablejudgeMatch.body.version > v", arg=version)
    log = httpx.get(f"{live_server}/v1/matches/{match_id}/turns", timeout=30).json()["turns"]
    assert log[-1]["seat"] == 0 and log[-1]["version"] == version + 1

    page_b.reload()  # the seat stays on phone B (kept as any joined seat is)
    page_b.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === 0")
    page_a.reload()  # the seat has left phone A: it watches
    page_a.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === null")
    assert page_a.locator(".match-head .tag", has_text="watching").count() == 1
    phone_c = phones("someone else")
    page_c = phone_c.open(link.removeprefix(live_server))  # the link again: it worked once
    page_c.locator("#no-seat-title", has_text="This seat link did not work").wait_for()
    said = page_c.locator(".no-seat p").first.inner_text()
    assert said.startswith("This seat link has been used already: a link moves a seat only once.")
    assert "Ask for a new link" in said and said.endswith(".") and "_" not in said
    page_c.locator("#watch-instead").click()
    page_c.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === null")
    for phone in (phone_a, phone_b, phone_c):
        assert phone.errors == [] and phone.other_hosts == [], phone.who


def test_a_stored_seat_that_moved_while_the_phone_was_away_is_watched_with_words(
    phones: Callable[[str], Phone], live_server: str
) -> None:
    """The seat moved while phone A's page was closed: opening it again, its stored token is refused
    (401); the page forgets it, says why and watches."""
    match_id, tokens, _ = two_people(live_server)
    ann = {"Authorization": f"Bearer {tokens[0]}"}
    code = httpx.post(f"{live_server}/v1/matches/{match_id}/seat-link", headers=ann, timeout=30).json()["code"]
    taken = httpx.post(f"{live_server}/v1/matches/{match_id}/seat-link/take", json={"code": code}, timeout=30)
    assert taken.status_code == 200, taken.text
    phone = phones("Ann's old phone")
    phone.context.add_init_script(seat_script(match_id, tokens[0], 0))
    page = phone.open(f"/play/{match_id}")
    page.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === null")
    assert page.locator("#seat-notice").inner_text().startswith("Your seat is no longer on this device")
    assert page.locator("#bop-pass").is_visible() is False
    assert phone.errors == [] and phone.other_hosts == []


def test_an_invite_to_a_full_match_says_so_and_offers_to_watch(
    phones: Callable[[str], Phone], live_server: str
) -> None:
    match_id, _, invite = two_people(live_server)
    phone = phones("a third friend")
    page: Any = phone.open(invite.removeprefix(live_server))
    page.locator("#no-seat-title", has_text="The seats are full").wait_for()
    assert "You can still watch it" in page.locator(".no-seat").inner_text()
    assert page.locator("#join-name").count() == 0  # no name box for a seat there is not
    page.locator("#watch-instead").click()
    page.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === null")
    assert page.locator(".match-head .tag", has_text="watching").count() == 1
    assert page.url == f"{live_server}/play/{match_id}"
    assert phone.errors == [] and phone.other_hosts == []

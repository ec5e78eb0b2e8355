"""Fair PDQ online (issue 26), in Chromium at phone size against ``tablejudge serve --workers 2``.

Each claim carries how long after the cards appeared on that phone it was made; the server takes
that time within the lag its connection's measured round trips allow (``matches/lag.py``).

- Bob's phone has a slow uplink (everything it sends reaches the server a second late, its pongs
  too, so the server measures about a second of round trip). Bob finds a word first; Ann finds a
  longer one after him, and her claim reaches the server first. Bob wins: the phones' times decide,
  and Ann's word came after the 0.3 s window Bob's opened. Both phones say so, in words.
- A claim that says it was faster than the connection allows is refused (a 422 with the reason,
  over HTTP and over the socket), and changes nothing; the page itself then sends the claim timed
  on arrival and tells the player so. "You said: no word." does not outlive its round, and the
  screen reader hears who took the cards, as the page shows.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import Phone
from tests.web.pages import new_game_radio
from tests.web.test_play import shot

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]

#: How late a slowed phone's messages reach the server (ms): a poor mobile uplink.
UPLINK_DELAY_MS = 1000

#: Every message the page sends on its socket leaves UPLINK_DELAY_MS late (in order), as on a slow
#: network: the claims, and the pongs by which the server measures the connection.
SLOW_UPLINK = f"""
(() => {{
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {{
    setTimeout(() => {{ try {{ send.call(this, data); }} catch (_) {{ /* closed meanwhile */ }} }}, {UPLINK_DELAY_MS});
  }};
}})();
"""


def create_pdq(home: Any, window: str) -> str:
    """Ann creates a PDQ game for two from the form, with the "same time" window chosen; its id."""
    new_game_radio(home, "PDQ").check()
    home.get_by_label("Deal only rows that have a word").check()
    home.get_by_label("Said at the same time: within").select_option(window)
    home.get_by_label("Your name").fill("Ann")
    home.get_by_role("button", name="Create the game").click()
    link = home.locator("#invite-link").input_value()
    return str(link.split("/play/")[1].split("?")[0])


def join(phone: Phone, match: str, name: str) -> Any:
    page = phone.open(f"/play/{match}?join=1")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    return page


def words_for(base: str, letters: str) -> list[str]:
    answer = httpx.get(f"{base}/v1/pdq/{letters}", params={"variant": "classic", "min_length": 4, "limit": 200})
    return [str(word) for word in answer.json()["words"]]


def turns(base: str, match: str) -> list[dict[str, Any]]:
    return [step for step in httpx.get(f"{base}/v1/matches/{match}/turns").json()["turns"] if step.get("move")]


def test_the_faster_phone_wins_although_its_claim_arrives_later(phones: Any, live_server: str, tmp_path: Path) -> None:
    ann, bob = phones("Ann"), phones("Bob (slow uplink)")
    bob.context.add_init_script(SLOW_UPLINK)
    home = ann.open("/play")
    new_game_radio(home, "PDQ").check()
    seat_two = [o.strip() for o in home.get_by_label("Seat 2").locator("option").all_inner_texts()]
    assert "Bot: sharp (about 4 s a word)" in seat_two and "Bot: quick" not in seat_two  # levels, in words
    # The shared bots keep a level's pace in PDQ (RULINGS.md 26), and the menu says it.
    assert "Normal bot: the longest word, in about 6 s" in seat_two  # greedy, under its level's name
    assert "Bot: random (any word, in about 9 s)" in seat_two
    assert not any("about 1 s" in option for option in seat_two)
    assert home.get_by_label("Said at the same time: within").input_value() == "2000"  # the default
    match = create_pdq(home, "300")
    seat_page = join(bob, match, "Bob")
    for page in (home, seat_page):
        page.wait_for_selector(".deal .card-letter")
        assert "within 0.3 seconds of it beats it" in page.locator(".rule").inner_text()
    assert "same time: within 0.3 seconds" in home.locator(".spec").inner_text()
    letters = "".join(home.locator(".deal .card-letter").all_inner_texts())
    found = words_for(live_server, letters)
    # (a longer word where the row has one: said after the window it is too late all the same; a row whose
    # words are all as long is a dealt row like any other, Ann's then as long as Bob's, and as late)
    short, longer = min(found, key=len), max(found, key=len)
    time.sleep(1.5)  # Bob's hello and first pong have reached the server: his round trip is measured

    seat_page.get_by_label("Your word").fill(short)
    seat_page.get_by_label("Your word").press("Enter")  # Bob first, on his phone; it travels a second
    time.sleep(0.55)
    home.get_by_label("Your word").fill(longer)
    home.get_by_label("Your word").press("Enter")  # Ann 0.55 s later, longer; hers arrives first

    expected = f"Round 1: Bob wins with {short.upper()} and takes the cards {' '.join(letters)}."
    for page in (home, seat_page):
        page.wait_for_selector(".round-result")
        result = page.locator(".round-result").inner_text()
        assert result.startswith(expected), result
        assert f"Ann's {longer.upper()} came " in result and "too late" in result
    shot(home, tmp_path, "pdq-fair-round")
    claims = [step for step in turns(live_server, match) if step["move"].startswith("claim")]
    assert [c["seat"] for c in claims] == [0, 1]  # Ann's claim reached the server first
    ann_at, bob_at = (int(c["move"].rsplit("@", 1)[1]) for c in claims)
    assert bob_at + 300 < ann_at < bob_at + UPLINK_DELAY_MS  # Bob's phone time was earlier, by more than the window


def test_a_claim_faster_than_the_connection_allows_is_refused(phones: Any, live_server: str) -> None:
    ann, bob = phones("Ann"), phones("Bob")
    home = ann.open("/play")
    match = create_pdq(home, "2000")
    seat_page = join(bob, match, "Bob")
    for page in (home, seat_page):
        page.wait_for_selector(".deal .card-letter")
    letters = "".join(home.locator(".deal .card-letter").all_inner_texts())
    word = words_for(live_server, letters)[0]
    time.sleep(2.5)  # the cards have been out 2.5 s: a claim "at 0 ms" is faster than any connection allows

    # Over the socket, as a page that lies about its time would send it.
    refused = home.evaluate(
        """async (move) => { const m = window.tablejudgeMatch;
             try { await m.live.move(move, m.body.version); return null; }
             catch (e) { return { rule: e.rule, status: e.status, message: e.message }; } }""",
        f"claim {word} @0",
    )
    assert refused is not None and refused["rule"] == "too_fast" and refused["status"] == 422
    assert "faster than the connection allows" in refused["message"]
    # Over HTTP, the same refusal with its JSON reason.
    token = home.evaluate(f"JSON.parse(localStorage.getItem('tablejudge.seats'))['{match}'].token")
    auth = {"Authorization": f"Bearer {token}"}
    body = httpx.get(f"{live_server}/v1/matches/{match}", headers=auth).json()
    answer = httpx.post(f"{live_server}/v1/matches/{match}/moves", headers=auth,
                        json={"move": f"claim {word} @0", "version": body["version"]})  # fmt: skip
    assert answer.status_code == 422 and answer.json()["error"]["rule"] == "too_fast", answer.text
    after = httpx.get(f"{live_server}/v1/matches/{match}", headers=auth).json()
    assert after["version"] == body["version"] and after["view"]["round"]["claims"] == []  # nothing changed

    # Bob says "no word"; his page says so, for this round only.
    seat_page.get_by_role("button", name="No word").click()
    seat_page.wait_for_function("document.querySelector('#pdq-feedback').textContent === 'You said: no word.'")
    # Ann's page, its clock pretending the cards came later than they did: refused as too fast, the
    # page sends the claim again timed on its arrival, and says why.
    home.evaluate("window.tablejudgeMatch.boardInstance.shownAt = performance.now() + 60000")
    home.get_by_label("Your word").fill(word)
    home.get_by_label("Your word").press("Enter")
    home.wait_for_function("document.querySelector('#pdq-feedback').textContent.includes('counts: it is in')")
    assert "your connection was slow" in home.locator("#pdq-feedback").inner_text()

    expected = f"Round 1: Ann wins with {word.upper()} and takes the cards {' '.join(letters)}."
    for page in (home, seat_page):
        page.wait_for_function("document.querySelector('.round-result') !== null", timeout=20_000)
        assert page.locator(".round-result").inner_text() == expected
        page.wait_for_function("document.querySelector('.deal .card-letter') !== null")
    assert seat_page.locator("#pdq-feedback").inner_text() == ""  # "no word" belonged to round 1
    seat_page.wait_for_function("document.querySelector('#announcer').textContent.length > 0")
    heard = seat_page.locator("#announcer").inner_text()
    assert "nobody" not in heard and "Ann" in heard, heard  # the same as the page: Ann took the cards
    for page in (home, seat_page):
        assert SNAKE_CASE.search(page.inner_text("body")) is None  # words, not codes


SNAKE_CASE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_the_solo_game_ends_in_words(phones: Any) -> None:
    """Solo: the first "no word" ends the game; the end screen says why in words, not ``stumped``."""
    page = phones("Ann").open("/play")
    new_game_radio(page, "PDQ").check()
    page.get_by_label("Way to play").select_option("solo")
    page.get_by_label("Players").select_option("1")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_selector(".deal .card-letter")
    assert SNAKE_CASE.search(page.inner_text("body")) is None
    page.get_by_role("button", name="No word").click()
    page.wait_for_selector("#end-reason")
    assert page.locator("#end-reason").inner_text() == (
        "The game ended: no word was found for a row (the solo game ends at the first)."
    )
    assert SNAKE_CASE.search(page.inner_text("body")) is None

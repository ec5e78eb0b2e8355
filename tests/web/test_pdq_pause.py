"""PDQ's pause between rounds on two phones (engine/pdq/RULINGS.md 27), at 360 x 740 and 740 x 360.

A new table tripped on it: the next cards were live while the players still read who won the last
round, the round's rule was pushed below the fold (off the screen sideways), and after "No word" the
status still said "Find a word!". Now, where the table chose a pause (the option ``pause_ms``), the
result, its words and who won hold the screen; the next row comes when every person has tapped "Ready"
(the bot is ready at once), or when the countdown runs out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import Phone
from tests.web.pages import seen_whole
from tests.web.test_axe import audit
from tests.web.test_fit import SCREENS, SEEN_AT_REST
from tests.web.test_pdq_fair import words_for
from tests.web.test_play import shot
from tests.web.test_push_page import seat_script

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]


def rule_seen(page: Any, name: str) -> None:
    """The round's rule line, under the cards, is read without scrolling: inside the board's field at
    rest and inside the viewport."""
    shown = page.evaluate(SEEN_AT_REST, ".rule")
    assert shown["seen"] and shown["text"].startswith(("Start with", "The cards")), (name, shown)


def seat(phones: Callable[[str], Phone], live_server: str, made: dict[str, Any], who: str, seat_no: int,
         token: str, orientation: str) -> Any:  # fmt: skip
    phone = phones(who)
    phone.context.add_init_script(seat_script(made["match"], token, seat_no))
    page = phone.open(f"/play/{made['match']}")
    page.set_viewport_size(SCREENS[orientation])
    page.wait_for_selector(".deal .card-letter")
    return page


def make_pdq(live_server: str, pause_ms: int, seats: int, bot_seat: int) -> dict[str, Any]:
    asked = {"game": "pdq", "seats": seats, "name": "Ann", "bots": {str(bot_seat): "relaxed"},
             "options": {"pause_ms": pause_ms, "only_solvable": True}}  # fmt: skip
    made = httpx.post(f"{live_server}/v1/matches", json=asked, timeout=30)
    assert made.status_code == 201, made.text
    return dict(made.json())


def claim(page: Any, live_server: str) -> str:
    """The row's most familiar word, typed and claimed on ``page``."""
    letters = "".join(page.locator(".deal .card-letter").all_inner_texts())
    word = words_for(live_server, letters)[0]
    page.get_by_label("Your word").fill(word)
    page.get_by_label("Your word").press("Enter")
    return word


def status(page: Any, text: str) -> None:
    page.wait_for_function(f"document.getElementById('status').textContent === {json.dumps(text)}")


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_table_reads_the_result_until_every_person_is_ready(
    orientation: str, phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    made = make_pdq(live_server, pause_ms=120_000, seats=3, bot_seat=2)  # (a countdown no test step outlasts)
    invite = {"invite": made["invite"], "name": "Bob"}
    joined = httpx.post(f"{live_server}/v1/matches/{made['match']}/join", json=invite, timeout=30)
    assert joined.status_code == 200, joined.text
    ann = seat(phones, live_server, made, "Ann", 0, made["token"], orientation)
    bob = seat(phones, live_server, made, "Bob", 1, joined.json()["token"], orientation)
    for page, name in ((ann, "ann"), (bob, "bob")):
        rule_seen(page, f"{orientation}-{name}-round-1")

    # Ann says "no word": her status says so (it said "Find a word!"); Bob finds one.
    ann.get_by_role("button", name="No word").click()
    status(ann, "You said no word: waiting for the others")
    word = claim(bob, live_server)

    # The round over: both phones show who won, the row's words and "Ready"; nothing new is dealt.
    for page in (ann, bob):
        page.wait_for_selector("#pdq-ready:not([hidden])")
        page.wait_for_function("document.getElementById('pdq-countdown').textContent.includes('Ready: ')")  # the bot
    headline = ann.locator(".round-result b").inner_text()
    assert headline == f"Round 1: Bob wins with {word.upper()}", headline
    status(ann, "Round 1 is over: tap Ready for the next row")
    shot(ann, tmp_path, f"pdq-pause-{orientation}")
    for page in (ann, bob):
        for part in (".round-result", ".report .word-link", "#pdq-countdown", "#pdq-ready"):
            seen_whole(page, part)
        countdown = page.locator("#pdq-countdown").inner_text()
        assert re.match(r"The next row in \d+ seconds, or as soon as everyone is ready\.", countdown), countdown
    assert audit(ann, f"PDQ's pause ({orientation})") == []
    body = httpx.get(f"{live_server}/v1/matches/{made['match']}").json()
    assert body["view"]["round"] is None and body["view"]["pause"]["ready"] == [2]  # the bot, at once

    # Ann is ready: she waits for Bob, and the row is not dealt until he is.
    ann.locator("#pdq-ready").click()
    status(ann, "You are ready: waiting for Bob")
    assert ann.locator("#pdq-ready").is_disabled()
    bob.wait_for_function("document.getElementById('pdq-countdown').textContent.includes('Ready: ') && "
                          "document.getElementById('pdq-countdown').textContent.includes('Ann')")  # fmt: skip
    assert httpx.get(f"{live_server}/v1/matches/{made['match']}").json()["view"]["pause"] is not None
    bob.locator("#pdq-ready").click()
    for page, name in ((ann, "ann"), (bob, "bob")):
        page.wait_for_function("document.querySelector('.pdq-info').textContent.startsWith('Round 2')")
        page.locator("#pdq-word").wait_for()
        shot(page, tmp_path, f"pdq-after-pause-{orientation}-{name}")
        rule_seen(page, f"{orientation}-{name}-round-2")
        result = page.evaluate(SEEN_AT_REST, ".round-result")
        assert result["seen"], (name, result)  # the last round's result, still read


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_countdown_deals_the_next_row_when_a_person_does_not_tap_ready(
    orientation: str, phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    made = make_pdq(live_server, pause_ms=4_000, seats=2, bot_seat=1)
    ann = seat(phones, live_server, made, "Ann", 0, made["token"], orientation)
    claim(ann, live_server)
    ann.wait_for_function("document.getElementById('pdq-countdown').textContent.startsWith('The next row in')")
    seen_whole(ann, "#pdq-countdown")
    shot(ann, tmp_path, f"pdq-countdown-{orientation}")
    ann.wait_for_function("document.querySelector('.pdq-info').textContent.startsWith('Round 2')", timeout=20_000)
    turns = httpx.get(f"{live_server}/v1/matches/{made['match']}/turns").json()["turns"]
    assert [step["seat"] for step in turns if step["move"].startswith("ready")] == [1]  # the bot's alone
    # The round's window closed, then the pause ran out: both the table's (the referee's) moves.
    assert [step["move"].split()[0] for step in turns if step["seat"] < 0] == ["close", "close"]
    rule_seen(ann, f"{orientation}-after-countdown")


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_rows_words_are_read_whole_when_the_round_is_over(
    orientation: str, phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    """The round over, "Longest:" ran below the fold, its last line ending in a comma and the next word
    out of sight: each list is read to its last word on the screen, and that word ends the list."""
    made = make_pdq(live_server, pause_ms=120_000, seats=2, bot_seat=1)
    ann = seat(phones, live_server, made, "Ann", 0, made["token"], orientation)
    claim(ann, live_server)
    ann.wait_for_selector("#pdq-ready:not([hidden])")
    ann.locator(".report-longest").wait_for()
    shot(ann, tmp_path, f"pdq-round-over-{orientation}")
    for listed in (".report-common", ".report-longest"):
        last = f"{listed} button.word-link:last-of-type"
        seen_whole(ann, last)
        assert ann.locator(f"{last} .word-link-mark").count() == 0, (listed, ann.locator(listed).inner_text())
    seen_whole(ann, "#pdq-ready")

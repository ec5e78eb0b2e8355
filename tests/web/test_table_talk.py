"""Table talk on the play page (``static/play/talk.js``) in Chromium, two phones at 360 x 740: a takeback asked
from the Talk sheet, answered from the line under the header with Accept, both pages back at the position; a
reaction picked on one phone shows as a bubble on its seat on the other. The play screen still fits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.web.conftest import Phone
from tests.web.test_push_page import seat_script
from tests.web.test_seat import two_people

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]


def keep(page: object, path: Path) -> None:
    """A screenshot to look at, in the test's own folder."""
    page.screenshot(path=str(path))  # type: ignore[attr-defined]


def test_a_takeback_asked_and_accepted_and_a_reaction_on_two_phones(
    phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    match_id, tokens, _ = two_people(live_server)
    url = f"{live_server}/v1/matches/{match_id}"
    mover = httpx.get(url, headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=30).json()["must_act"][0]
    other = 1 - mover
    pages = {}
    for seat, who in ((mover, "asker"), (other, "answerer")):
        phone = phones(who)
        phone.context.add_init_script(seat_script(match_id, tokens[seat], seat))
        pages[seat] = phone.open(f"/play/{match_id}")
        pages[seat].wait_for_function(f"() => window.tablejudgeMatch && window.tablejudgeMatch.you === {seat}")
    moved = httpx.post(f"{url}/moves", json={"move": "pass", "version": 0},
                       headers={"Authorization": f"Bearer {tokens[mover]}"}, timeout=30)  # fmt: skip
    assert moved.status_code == 200
    for page in pages.values():
        page.wait_for_function("() => window.tablejudgeMatch.body.version === 1")

    asker, answerer = pages[mover], pages[other]
    asker.locator("#talk-button").click()
    keep(asker, tmp_path / "social-sheet.png")
    asker.locator("#take-back").click()
    asker.locator("#takeback-line", has_text="waiting for the others").wait_for()
    answerer.locator("#takeback-accept").wait_for()
    assert "asks to take back their move" in answerer.locator("#takeback-line").inner_text()
    fits = "() => document.documentElement.scrollHeight <= window.innerHeight + 1"
    assert answerer.evaluate(fits), "the takeback line made the play screen scroll"
    keep(answerer, tmp_path / "social-takeback.png")
    answerer.locator("#takeback-accept").click()
    for page in pages.values():
        page.wait_for_function(f"() => window.tablejudgeMatch.body.version === 2 && "
                               f"window.tablejudgeMatch.body.must_act[0] === {mover}")  # fmt: skip
        page.locator("#takeback-line").wait_for(state="hidden")
    # The takeback is said as one, never as a play ("You played.", "Ann played" on the sheet, for 0):
    # its last move line on each phone, and the sheet's row for it.
    name = httpx.get(url, timeout=30).json()["seats"][mover]["name"]
    for seat, page in pages.items():
        said = "You took back your move." if seat == mover else f"{name} took back their move."
        page.locator(".bop-last", has_text=said).wait_for()
        row = page.locator(".sheet-list > li").first
        row.locator(".s-n", has_text="2").wait_for(state="attached")
        assert row.locator(".s-what").text_content() == "took back their move"
        assert "played" not in (row.text_content() or "")

    answerer.locator("#talk-button").click()
    answerer.locator("#talk-sheet button[data-reaction='well_played']").click()
    bubble = asker.locator(f".players > li:nth-child({other + 1}) .p-said")
    bubble.wait_for()
    assert bubble.inner_text() == "Well played"
    assert asker.evaluate(fits)
    record = httpx.get(f"{url}/reactions", timeout=30).json()["reactions"]
    assert [(said["seat"], said["reaction"]) for said in record] == [(other, "well_played")]

"""The judge page answers the question asked, at 360 x 740 and at 740 x 360 (issue 38).

A new table found the letters typed for BOP! still in the box after switching to PDQ (a leftover Y made
P-N-A into P-N-A-Y), no way to clear them, a PDQ list that did not say classic reads the cards either
way (so the table argued that NIGHT is not T-G-N), and a list of words headed by a large "VALID", a
verdict on a word nobody claimed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from indexes import Lexicon
from tests.web.conftest import Phone
from tests.web.test_fit import SCREENS
from tests.web.test_play import shot

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_judge_answers_the_question_asked(orientation: str, phones: Callable[[str], Phone], lexicon: Lexicon,
                                              tmp_path: Path) -> None:  # fmt: skip
    page = phones("Ann").open("/")
    page.set_viewport_size(SCREENS[orientation])
    # Letters typed for BOP!, then PDQ chosen: the box is empty, the word too; nothing left to turn P-N-A into P-N-A-Y.
    page.get_by_label("Letters").fill("y")
    page.get_by_label("Claimed word").fill("yo")
    page.locator("label[for=game-pdq]").click()
    assert page.get_by_label("Letters").input_value() == "" and page.get_by_label("Claimed word").input_value() == ""

    # A list of T-G-N: headed by its count, no verdict; classic said to read the cards either way, with a
    # word of the list that starts with N.
    page.get_by_label("Letters").fill("tgn")
    page.get_by_label("Letters").press("Enter")
    page.wait_for_function("document.getElementById('reason').textContent.includes('T-G-N')")
    listing = lexicon.pdq("TGN", limit=20)
    assert page.locator("#reason").inner_text() == f"{listing.count:,} words fit T-G-N (classic, 4+ letters)"
    assert page.locator("#verdict").is_hidden()
    backwards = next(word for word in listing.words if word.startswith("n"))
    explained = page.locator("#explanation").inner_text()
    assert explained.startswith("Classic reads the cards either way: a word starts with T or with N"), explained
    assert f"{backwards.upper()} holds N-G-T, so it fits." in explained, explained
    shot(page, tmp_path, f"judge-list-{orientation}")
    # The sheet's reading of NIGHT for T-G-N, asked as a claim: it counts.
    assert lexicon.pdq_check("TGN", "night").valid
    page.get_by_label("Claimed word").fill("night")
    page.get_by_label("Claimed word").press("Enter")
    page.locator("#verdict").wait_for(state="visible")
    assert page.locator("#verdict").inner_text() == "VALID" and page.locator("#reason").inner_text() == "NIGHT counts"

    # "Clear": the letters, the word and the answer go; the letters wait for the next row.
    clear = page.get_by_role("button", name="Clear both boxes")
    box = clear.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    clear.click()
    assert page.get_by_label("Letters").input_value() == "" and page.get_by_label("Claimed word").input_value() == ""
    assert page.locator("#verdict").is_hidden() and page.locator("#examples").is_hidden()
    assert page.evaluate("document.activeElement.id") == "letters"


#: Whether the page's service worker controls it (it answers a reload offline).
CONTROLLED = """() => new Promise((resolve) => {
  if (navigator.serviceWorker.controller) return resolve(true);
  navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
})"""


@pytest.mark.slow
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_reloaded_offline_the_banner_is_on_the_screen(orientation: str, phones: Callable[[str], Phone],
                                                      tmp_path: Path) -> None:  # fmt: skip
    """Issue 38: reloaded with no network, the page kept its scroll, and "Offline" began above the screen."""
    phone = phones("Ann")
    page = phone.open("/")
    page.set_viewport_size(SCREENS[orientation])
    page.evaluate(CONTROLLED)
    page.locator("#offline-info", has_text="keeps").wait_for()  # the offline judge is ready
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    phone.context.set_offline(True)
    try:
        page.reload()
        page.locator("#connection", has_text="Offline").wait_for()
        page.wait_for_function("""(() => { const box = document.getElementById('connection').getBoundingClientRect();
                                   return box.top >= -1 && box.bottom <= innerHeight + 1; })()""")  # fmt: skip
        shot(page, tmp_path, f"judge-offline-{orientation}")
    finally:
        phone.context.set_offline(False)

"""One front door (issue 26): the site's root offers both things the product does, judge a word and play
a game, and every page (the judge page, the game lobby, a match) links back to both; the judge page's
modules are all kept by the service worker and copied by build-site, so it still opens offline."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tablejudge.commands.site import STATIC_FILES
from tests.web.conftest import Phone
from tests.web.seated import match_with_bots, seat_phone

STATIC = Path(__file__).resolve().parents[2] / "service" / "static"
#: Where the screenshots go when TABLEJUDGE_SHOTS names a folder (else the test's own temporary folder).
SHOTS = os.environ.get("TABLEJUDGE_SHOTS")


def judge_modules() -> set[str]:
    """Every module the judge page loads: app.js and what it imports, and what they import, under static/."""
    found: set[str] = set()
    waiting = ["app.js"]
    while waiting:
        module = waiting.pop()
        if module in found:
            continue
        found.add(module)
        text = (STATIC / module).read_text(encoding="utf-8")
        for imported in re.findall(r'^import [^;]*? from "(\.{1,2}/[^"]+)";', text, re.M | re.S):
            waiting.append(os.path.normpath(os.path.join(os.path.dirname(module), imported)))
    return found


def test_every_module_of_the_judge_page_is_kept_offline_and_copied_by_build_site() -> None:
    modules = judge_modules()
    assert {"app.js", "judge/connection.js", "judge/house.js", "judge/meanings.js", "judge/dom.js"} <= modules
    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    for module in modules:
        assert f'"static/{module}"' in worker, f"sw.js does not keep static/{module}"
        assert module in STATIC_FILES, f"build-site does not copy static/{module}"
        assert len((STATIC / module).read_text(encoding="utf-8").splitlines()) <= 700


def nav(page: Any) -> Any:
    return page.get_by_role("navigation", name="Tablejudge")


@pytest.mark.browser
@pytest.mark.server
def test_the_root_offers_both_and_every_page_links_back_to_both(phones: Any, live_server: str, tmp_path: Path) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    ann: Phone = phones("Ann")
    page = ann.open("/")
    page.locator("#offline-info", has_text="keeps").wait_for()
    # Both things on the first screen of a phone, the judge marked as the page it is.
    judge_link = nav(page).get_by_role("link", name="Judge a word")
    play_link = nav(page).get_by_role("link", name="Play a game")
    assert judge_link.get_attribute("aria-current") == "page"
    card = page.locator(".play-card a")
    for shown in (judge_link, play_link, card, page.get_by_label("Letters")):
        box = shown.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 740, "not on the first screen"
    page.screenshot(path=str(folder / "front-door.png"))

    card.click()
    page.wait_for_url(f"{live_server}/play")
    page.locator("#create").wait_for()
    assert nav(page).get_by_role("link", name="Play a game").get_attribute("aria-current") == "page"
    page.screenshot(path=str(folder / "lobby.png"))
    nav(page).get_by_role("link", name="Judge a word").click()
    page.wait_for_url(f"{live_server}/")
    page.get_by_label("Letters").wait_for()

    # A match's page: the same two links, and the game's rules a tap away.
    page = seat_phone(ann, match_with_bots(live_server, "qnto"))
    assert nav(page).get_by_role("link", name="Judge a word").get_attribute("href") == "/"
    assert nav(page).get_by_role("link", name="Play a game").get_attribute("href") == "/play"
    page.locator(".board").wait_for()
    page.screenshot(path=str(folder / "match.png"))
    page.get_by_role("button", name="Rules", exact=True).click()
    page.locator("dialog#rules .rules-body section").wait_for()
    page.screenshot(path=str(folder / "rules.png"))

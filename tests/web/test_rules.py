"""Rules in one tap (issue 26): every game in the registry has a rules sheet (our own words, the rulings
that matter at the table, a worked example), the service worker keeps each for offline use, and each
game's page and the lobby open it with one tap, the game's key rules named and its tiles drawn as tiles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Phone
from tests.web.seated import GAMES, match_with_bots, seat_phone

STATIC = Path(__file__).resolve().parents[2] / "service" / "static"
RULES = STATIC / "play" / "rules"

#: What each game's sheet must say: the rules a player who forgot them looks for first.
KEY_RULES: dict[str, list[str]] = {
    "bop": ["Y is always a consonant", "BOP! tile", "Five different colours", "+10 for playing all 5", "challenge"],
    "pdq": ["four or more letters", "start with one of the two outside cards", "no word", "the longest wins"],
    "digit": [
        "the same number in different colours", "one colour counting up or down", "5th or 10th tile",
        "first player to run out",
    ],
    "qnto": ["all the same or all different", "Q!nto", "diagonal", "Light", "unswappable"],
    "matchfive": [
        "one colour, all numbers different", "one number, all colours different", "locks its two end tiles", "+10",
    ],
    "three2fifteen": ["three side by side add up to exactly 15", "15 or less", "repeat", "+50"],
    "qwiply": ["Follow suit", "Starfish", "bid", "white die", "penalty"],
}


def sheet_text(game: str) -> str:
    """The sheet's words, tags dropped and white space folded."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (RULES / f"{game}.html").read_text(encoding="utf-8")))


@pytest.mark.parametrize("game", GAMES)
def test_every_registered_game_has_a_rules_sheet(game: str) -> None:
    assert game in KEY_RULES, f"{game} is registered: write play/rules/{game}.html and name its key rules here"
    text = sheet_text(game)
    for heading in ("Rulings at the table", "A worked example"):
        assert heading in text, f"{game}'s rules have no '{heading}'"
    for rule in KEY_RULES[game]:
        assert rule in text, f"{game}'s rules do not say {rule!r}"
    # No codes a player would not read, and nothing the page's Content-Security-Policy refuses.
    html = (RULES / f"{game}.html").read_text(encoding="utf-8")
    assert not re.search(r"<script|\sstyle=|\son[a-z]+=", html, re.I)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), "a snake_case code in the rules"


def test_the_service_worker_keeps_every_rules_sheet() -> None:
    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    precached = set(re.findall(r'"static/play/rules/([a-z0-9_]+)\.html"', worker))
    assert precached == set(GAMES)
    assert {p.stem for p in RULES.glob("*.html")} == set(GAMES)
    for module in ("rules.js", "alerts.js", "help.css"):
        assert f'"static/play/{module}"' in worker


def open_rules(page: Any) -> Any:
    page.get_by_role("button", name="Rules", exact=True).first.click()
    sheet = page.locator("dialog#rules")
    sheet.locator(".rules-body section").wait_for()
    return sheet


@pytest.mark.browser
@pytest.mark.server
@pytest.mark.slow
def test_each_games_page_opens_its_rules_with_one_tap(phones: Any, live_server: str) -> None:
    ann: Phone = phones("Ann")
    for game in GAMES:
        page = seat_phone(ann, match_with_bots(live_server, game))
        title = page.locator("#match-title").inner_text()
        sheet = open_rules(page)
        assert sheet.get_attribute("open") is not None
        assert page.locator("#rules-title").inner_text() == f"How to play {title}"
        text = re.sub(r"\s+", " ", sheet.inner_text())
        for rule in KEY_RULES[game]:
            assert rule in text, f"{game}: {rule!r} not in the sheet the page shows"
        # Tiles drawn as tiles, each named in words for a screen reader.
        tiles = sheet.locator(".rt")
        assert tiles.count() >= 3
        assert all(tiles.nth(i).get_attribute("aria-label") for i in range(tiles.count()))
        # Closed by its button, focus back on the page.
        sheet.get_by_role("button", name="Close").click()
        assert sheet.get_attribute("open") is None


@pytest.mark.browser
@pytest.mark.server
def test_the_lobby_opens_the_chosen_games_rules_also_with_no_network(phones: Any, live_server: str) -> None:
    ann: Phone = phones("Ann")
    page = ann.open("/play")
    page.locator("#create").wait_for()
    # The service worker has kept every sheet when it took the page over.
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    page.get_by_role("radio", name="Qwiply").check(force=True)
    sheet = open_rules(page)
    assert page.locator("#rules-title").inner_text() == "How to play Qwiply"
    assert "Follow suit" in sheet.inner_text()
    sheet.get_by_role("button", name="Close").click()

    ann.context.set_offline(True)
    try:
        page.get_by_role("radio", name="Three2Fifteen").check(force=True)
        sheet = open_rules(page)
        assert "add up to exactly 15" in sheet.inner_text()
    finally:
        ann.context.set_offline(False)

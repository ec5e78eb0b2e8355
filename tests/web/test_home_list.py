""""Your games" on the home page, at 360 x 740 and at 740 x 360 (issue 38).

A new table found that the list silently showed the 6 most recent games: a live game where it was
their turn dropped off it. It shows every game this browser holds a seat in, its turn first (never
folded away), the rest behind "Show N more"; a game can be removed from the list (the device forgets
it); and a bot is named alike in the list and in the game ("Bot · sharp"; the list said "PDQ with
sharp", the game "Bot").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web import busy
from tests.web.conftest import Phone
from tests.web.test_fit import SCREENS
from tests.web.test_play import shot

pytestmark = [pytest.mark.browser, pytest.mark.server]

#: How many games are waiting for players (each newer than the game where it is Ann's turn).
WAITING = 8


def held_seats(live_server: str) -> tuple[dict[str, Any], str]:
    """Ann's seats as her browser keeps them: a PDQ game against the sharp bot (her turn: everyone
    plays at once), saved first, then ``WAITING`` BOP! tables waiting for a second player, each saved
    later; (what the browser keeps, the PDQ game's id)."""
    http = busy.client(live_server)
    made = [http.post("/v1/matches", json={"game": "pdq", "seats": 2, "name": "Ann", "bots": {"1": "sharp"}}).json()]
    made += [http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json() for _ in range(WAITING)]
    http.close()
    kept = {each["match"]: {"token": each["token"], "seat": each["seat"], "game": "x", "saved": 1000 + i}
            for i, each in enumerate(made)}  # fmt: skip
    return kept, made[0]["match"]


def listed(page: Any) -> list[str]:
    """The games the list shows (not folded away), by id."""
    items = page.locator("#mine-list li:not([hidden])")
    return list(items.evaluate_all("(items) => items.map((e) => e.dataset.match)"))


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_your_games_shows_every_game_your_turn_first(orientation: str, phones: Callable[[str], Phone],
                                                     live_server: str, tmp_path: Path) -> None:  # fmt: skip
    kept, pdq = held_seats(live_server)
    phone = phones("Ann")
    stored = json.dumps(json.dumps(kept))
    key = "'tablejudge.seats'"
    phone.context.add_init_script(f"localStorage.getItem({key}) || localStorage.setItem({key}, {stored});")
    page = phone.open("/play")
    page.set_viewport_size(SCREENS[orientation])
    page.wait_for_selector("#mine-list li")
    shot(page, tmp_path, f"your-games-{orientation}")
    # The game where it is Ann's turn, though saved first of all, leads the list; six shown, the rest folded.
    shown = listed(page)
    assert shown[0] == pdq and len(shown) == 6, shown
    first = page.locator(f"#mine-list li[data-match='{pdq}']")
    assert first.locator(".tag").inner_text() == "Your turn"
    # A bot is named in the list as in the game.
    assert "with Bot · sharp" in (first.locator(".game-link").text_content() or ""), first.text_content()
    more = page.locator("#mine-more")
    assert more.inner_text() == f"Show {WAITING + 1 - 6} more games"
    more.click()
    assert len(listed(page)) == WAITING + 1 and page.locator("#mine-more").count() == 0

    # Removed from the list: a game still waiting asks a second tap; the device forgets it, for good.
    gone = listed(page)[-1]
    remove = page.locator(f"#mine-list li[data-match='{gone}'] .mine-remove")
    remove.click()
    assert remove.inner_text() == "Tap again: this phone forgets it" and gone in listed(page)
    remove.click()
    assert gone not in listed(page)
    assert gone not in json.loads(page.evaluate("localStorage.getItem('tablejudge.seats')"))
    page.reload()
    page.wait_for_selector("#mine-list li")
    page.locator("#mine-more").click()
    assert gone not in listed(page) and len(listed(page)) == WAITING

    # In the game, the bot is "Bot · sharp" too.
    page.locator(f"a.game-link[href='/play/{pdq}']").click()
    page.wait_for_selector(".players .player")
    assert "Bot · sharp" in page.locator(".players").inner_text()


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_turn_alerts_are_offered_once_at_the_first_game(orientation: str, phones: Callable[[str], Phone],
                                                            tmp_path: Path) -> None:  # fmt: skip
    """Issue 38: sound, vibration and turn alerts hid under the game's ⋮ menu. The first game made (or
    joined) on a phone offers them in its form; chosen there, they are kept; the next game's form does not
    offer them again (the menu still has them)."""
    ann, bob = phones("Ann"), phones("Bob")
    home = ann.open("/play")
    home.set_viewport_size(SCREENS[orientation])
    offer = home.locator("#alerts-offer")
    offer.wait_for()
    assert offer.get_by_label("Vibrate").is_checked() and not offer.get_by_label("Play a sound").is_checked()
    offer.get_by_label("Play a sound").check()
    home.get_by_label("Your name").fill("Ann")
    offer.scroll_into_view_if_needed()
    shot(home, tmp_path, f"alerts-offered-{orientation}")
    home.get_by_role("button", name="Create the game").click()
    link = home.locator("#invite-link").input_value()
    assert json.loads(home.evaluate("localStorage.getItem('tablejudge.alerts')"))["sound"] is True

    # Bob's first game is the one he joins: offered there, and not again.
    seat_page = bob.page
    seat_page.goto(link)
    seat_page.set_viewport_size(SCREENS[orientation])
    seat_page.locator("#alerts-offer").wait_for()
    seat_page.get_by_label("Your name").fill("Bob")
    seat_page.get_by_role("button", name="Take a seat").click()
    seat_page.wait_for_selector(".board")
    again = bob.open("/play")
    again.locator("#create").wait_for()
    assert again.locator("#alerts-offer").count() == 0
    home.goto(home.url.split("/play", 1)[0] + "/play")
    home.locator("#create").wait_for()
    assert home.locator("#alerts-offer").count() == 0

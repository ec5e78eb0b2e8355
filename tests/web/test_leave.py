"""Resigning and ending a game from the play page (``static/play/leave.js``, in the seat's menu) in Chromium
on a 360 x 740 phone: the first tap on "Resign" says what follows as the table chose, the second resigns
and a bot plays the seat on; an ask to end the game is shown on the seat, and the game ends when the other
person asks too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import Phone
from tests.web.pages import SMALL_TARGETS, shot
from tests.web.test_axe import audit
from tests.web.test_fit import reached_all
from tests.web.test_push_page import seat_script
from tests.web.test_seat import two_people

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]


def leave_part_open(phones: Callable[[str], Phone], live_server: str) -> tuple[str, dict[int, str], Any]:
    """A BOP! match of Ann and Bob; Ann's page with her seat's menu open on "Resign or end the game"."""
    match_id, tokens, _ = two_people(live_server)
    phone = phones("Ann's phone")
    phone.context.add_init_script(seat_script(match_id, tokens[0], 0))
    page = phone.open(f"/play/{match_id}")
    page.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.you === 0")
    page.locator("#seat-menu-button").click()
    page.locator("#leave-game summary").click()
    return match_id, tokens, page


def test_resign_takes_two_taps_and_the_game_ends_when_everyone_asks(
    phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    match_id, tokens, page = leave_part_open(phones, live_server)

    # Asking to end the game is shown on the seat, and taken back.
    page.locator("#end-game", has_text="Ask to end the game").click()
    page.locator("#end-game", has_text="Take back my ask").wait_for()
    assert page.evaluate("window.tablejudgeMatch.body.seats[0].end_asked") is True
    page.locator("#end-game").click()
    page.locator("#end-game", has_text="Ask to end the game").wait_for()

    # The first tap on "Resign" only says what follows (the table chose a bot, the default).
    page.locator("#resign").click()
    page.locator("#resign", has_text="Tap again to resign").wait_for()
    assert page.locator("#leave-note").inner_text() == "A bot plays your seat to the end, and you cannot win."
    assert page.evaluate("window.tablejudgeMatch.body.seats[0].resigned") is False
    page.locator("#resign").scroll_into_view_if_needed()
    box = page.locator("#resign").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740 and box["x"] + box["width"] <= 360
    assert page.evaluate(SMALL_TARGETS) == []
    shot(page, tmp_path, "resign-confirm-portrait")
    assert audit(page, "the seat's menu, Resign asked once") == []
    page.set_viewport_size({"width": 740, "height": 360})
    page.locator("#resign").scroll_into_view_if_needed()
    shot(page, tmp_path, "resign-confirm-landscape")
    page.set_viewport_size({"width": 360, "height": 740})

    page.locator("#resign").click()  # the second: resigned, and a bot plays the seat on
    page.locator("#leave-game", has_text="You have resigned from this game.").wait_for()
    assert page.locator("#leave-note").inner_text() == "You resigned."
    seat = httpx.get(f"{live_server}/v1/matches/{match_id}", timeout=30).json()["seats"][0]
    assert seat["resigned"] and seat["bot"] is not None

    # Bob, the last person still playing, asks to end the game: it ends, and Ann's page says so.
    ended = httpx.post(f"{live_server}/v1/matches/{match_id}/end", headers={"Authorization": f"Bearer {tokens[1]}"},
                       timeout=30)  # fmt: skip
    assert ended.status_code == 200 and ended.json()["ending"] == {"kind": "agreed", "seat": 1}
    page.keyboard.press("Escape")
    page.locator("#end-reason", has_text="the table agreed to end the game").wait_for()
    assert page.evaluate("window.tablejudgeMatch.body.outcome.winners") == [1]
    assert page.locator("#end-title", has_text="Bob wins").count() == 1
    assert page.locator(".players", has_text="Ann (resigned)").count() == 1  # her name, though a bot played on
    shot(page, tmp_path, "resign-ended-portrait")


def test_the_open_menu_shows_a_game_ended_by_agreement(phones: Callable[[str], Phone], live_server: str,
                                                         tmp_path: Path) -> None:  # fmt: skip
    """Ann asks to end the game and leaves the menu open; Bob asks too and the game ends: her open menu
    says the game is over and offers no "Take back my ask" nor "Resign" (a tap on them was answered 409)."""
    match_id, tokens, page = leave_part_open(phones, live_server)
    page.locator("#end-game", has_text="Ask to end the game").click()
    page.locator("#end-game", has_text="Take back my ask").wait_for()

    ended = httpx.post(f"{live_server}/v1/matches/{match_id}/end", headers={"Authorization": f"Bearer {tokens[1]}"},
                       timeout=30)  # fmt: skip
    assert ended.status_code == 200 and ended.json()["ending"] == {"kind": "agreed", "seat": 1}
    page.wait_for_function("() => window.tablejudgeMatch.body.status === 'over'")
    page.locator("#leave-game", has_text="The game is over.").wait_for()
    shot(page, tmp_path, "ended-by-agreement-menu")
    assert page.locator("#end-game, #resign").count() == 0
    assert page.locator("#leave-note").inner_text() == ""  # (not "You asked to end the game." of the game in play)


def test_an_ask_to_end_shows_on_the_other_phones_play_screen(phones: Callable[[str], Phone], live_server: str,
                                                              tmp_path: Path) -> None:  # fmt: skip
    """Issue 38: Ann's ask to end the game showed on Bob's phone only inside his seat's menu. It is a line on
    his play screen, upright and sideways, with "Agree to end" and "Not now" in view and reached by a tap,
    and the players' cards say who asked; Ann's line says whom she waits for. "Not now" folds the line
    on Bob's phone (the ask stands); "Agree to end" ends the game on both phones."""
    match_id, tokens, _ = two_people(live_server)
    pages = {}
    for seat, who in ((0, "Ann"), (1, "Bob")):
        phone = phones(f"{who}'s phone")
        phone.context.add_init_script(seat_script(match_id, tokens[seat], seat))
        pages[who] = phone.open(f"/play/{match_id}")
        pages[who].wait_for_function(f"() => window.tablejudgeMatch && window.tablejudgeMatch.you === {seat}")
    ann, bob = pages["Ann"], pages["Bob"]
    assert bob.locator("#end-line").is_hidden()
    ann.locator("#seat-menu-button").click()
    ann.locator("#leave-game summary").click()
    ann.locator("#end-game", has_text="Ask to end the game").click()
    ann.locator("#end-game", has_text="Take back my ask").wait_for()
    ann.locator("#seat-menu-close").click()

    bob.locator("#end-line", has_text="Ann asks to end the game, the scores as they stand.").wait_for()
    assert "asks to end" in (bob.locator(".players .player").first.get_attribute("aria-label") or "")
    assert bob.locator(".players .player").first.locator(".p-flags").inner_text() == "asks to end"
    assert ann.locator("#end-line").inner_text().startswith("You asked to end the game: waiting for Bob.")
    for size in ({"width": 740, "height": 360}, {"width": 360, "height": 740}):
        bob.set_viewport_size(size)
        reached_all(bob, "#end-ask-agree, #end-ask-fold")
        shot(bob, tmp_path, f"end-asked-{size['width']}x{size['height']}")
    assert bob.evaluate(SMALL_TARGETS) == []
    assert audit(bob, "the play screen with an ask to end the game") == []

    bob.locator("#end-ask-fold").click()  # Not now: folded on Bob's phone; Ann's ask stands
    assert bob.locator("#end-line").is_hidden()
    assert ann.locator("#end-line").is_visible()
    bob.reload()
    bob.locator("#end-ask-agree").click()
    for page in (ann, bob):
        page.locator("#end-reason", has_text="the table agreed to end the game").wait_for()


#: Whether ``selector``'s element is whole inside the open dialog's visible box and the viewport, and a tap
#: at its middle reaches it.
IN_DIALOG = """(selector) => {
  const element = document.querySelector(selector), dialog = element.closest("dialog");
  const box = element.getBoundingClientRect(), frame = dialog.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {text: element.textContent, box: [box.top, box.bottom], frame: [frame.top, frame.bottom],
          whole: box.top >= frame.top - 0.5 && box.bottom <= frame.bottom + 0.5 && box.bottom <= innerHeight + 0.5,
          reached: Boolean(hit && element.contains(hit) || hit === element)};
}"""

#: While a reaction's bubble is on a seat's card: how many bubbles there are, and the names and scores of
#: the cards its box overlaps (a bubble lets taps through: its box, not a tap, tells what it covers).
COVERED_BY_BUBBLE = """() => {
  const bubbles = [...document.querySelectorAll(".players .p-said")];
  const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                            && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const parts = [...document.querySelectorAll(".players :is(.p-name, .p-score)")];
  return {bubbles: bubbles.length, covered: parts.filter((part) => bubbles.some((bubble) =>
    overlap(bubble.getBoundingClientRect(), part.getBoundingClientRect()))).map((part) => part.textContent)};
}"""


def test_sideways_a_bubble_leaves_the_scores_seen_and_tap_again_to_resign_is_whole(
    phones: Callable[[str], Phone], live_server: str, tmp_path: Path
) -> None:
    """Issue 38, at 740 x 360: a reaction's bubble covered its seat's score; the first tap on "Resign" said
    what follows above the button and pushed "Tap again to resign" off the bottom of the menu."""
    match_id, tokens, _ = two_people(live_server)
    phone = phones("Ann's phone")
    phone.context.add_init_script(seat_script(match_id, tokens[0], 0))
    page = phone.open(f"/play/{match_id}")
    page.set_viewport_size({"width": 740, "height": 360})
    page.wait_for_function("() => window.tablejudgeMatch?.you === 0 && window.tablejudgeMatch.live?.ready")

    said = httpx.post(f"{live_server}/v1/matches/{match_id}/reactions", json={"reaction": "well_played"},
                      headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=30)  # fmt: skip
    assert said.status_code == 201, said.text
    page.locator(".players .p-said").wait_for()
    seen = page.evaluate(COVERED_BY_BUBBLE)
    shot(page, tmp_path, "bubble-landscape")
    assert seen == {"bubbles": 1, "covered": []}, seen

    page.locator("#seat-menu-button").click()
    page.locator("#leave-game summary").click()
    page.locator("#resign").click()  # (scrolled to, as a finger would; the part is drawn anew as it opens)
    page.locator("#resign", has_text="Tap again to resign").wait_for()
    shot(page, tmp_path, "tap-again-landscape")
    shown = page.evaluate(IN_DIALOG, "#resign")
    assert shown["whole"] and shown["reached"], shown
    assert page.evaluate(IN_DIALOG, "#leave-note")["whole"]  # what follows, said beside it

"""A tile put on the board, and taken back, in every grid game alike (issue 26).

Match Five kept a placed tile in the hand, dimmed, and a tap on it there took it back with nothing said
on the page. The other grid games (BOP!, Three2Fifteen, Q!nto and D!Git) leave the tile's place in the
hand empty and not tappable while it is on the board, and it comes back by a tap on its square: Match Five
now does the same. Taking a tile back says so on the message line, which is the screen reader's alert, so
both say the same: "The red 5 is back in your hand."
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import Phone
from tests.web.pages import shot
from tests.web.seated import match_with_bots, seat_phone

pytestmark = [pytest.mark.browser, pytest.mark.server]

#: game -> (its board's key in the page's ids, what its hand is called).
GAMES = {
    "matchfive": ("mf", "hand"),
    "three2fifteen": ("t2f", "hand"),
    "bop": ("bop", "rack"),
    "qnto": ("qnto", "hand"),
}

#: An empty square on the screen, beside the board's tiles if there are any (else the focused one: the
#: start square): its data-cell. (The board's tiles: [row, col, tile], or [[row, col], ...].)
EMPTY_SQUARE = """() => {
  const board = window.tablejudgeMatch.body.view.board || [];
  const taken = new Set(board.map((e) => Array.isArray(e[0]) ? e[0].join(',') : `${e[0]},${e[1]}`));
  const cells = [...document.querySelectorAll('.cell[data-cell]')].map((e) => e.dataset.cell)
    .filter((c) => !taken.has(c));
  const near = (c) => {
    const [r, k] = c.split(',').map(Number);
    return [[0, 1], [1, 0], [0, -1], [-1, 0]].some(([dr, dk]) => taken.has(`${r + dr},${k + dk}`));
  };
  const focused = document.querySelector('.cell[tabindex="0"]')?.dataset.cell;
  return cells.find(near) || cells.find((c) => c === focused) || cells[Math.floor(cells.length / 2)];
}"""


def my_turn(base: str, made: dict[str, Any]) -> None:
    """Wait until the bot has handed the turn to Ann's seat (its move would change the board)."""
    auth = {"Authorization": f"Bearer {made['token']}"}
    deadline = time.monotonic() + 30
    while (
        made["seat"] not in httpx.get(f"{base}/v1/matches/{made['match']}", headers=auth, timeout=30).json()["must_act"]
    ):
        assert time.monotonic() < deadline, "the bot did not hand the turn over"
        time.sleep(0.2)


#: (game, screen): every grid game upright on a phone; Match Five also sideways and on a tablet.
CASES = [(game, "portrait") for game in GAMES] + [("matchfive", "landscape"), ("matchfive", "tablet")]
SCREENS = {"portrait": (360, 740), "landscape": (740, 360), "tablet": (768, 1024)}


@pytest.mark.parametrize(("game", "screen"), CASES)
def test_a_tile_on_the_board_leaves_the_hand_and_comes_back_said(game: str, screen: str, phones: Callable[[str], Phone],
                                                                 live_server: str, tmp_path: Path) -> None:  # fmt: skip
    key, hand = GAMES[game]
    made = match_with_bots(live_server, game)
    my_turn(live_server, made)
    page = seat_phone(phones("Ann"), made)
    width, height = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})
    # (not a wild: Match Five asks first what a wild stands for)
    plain = ".rack-tile:not([disabled]):not([data-tile*='*']):not([data-tile*='?'])"
    index = page.locator(plain).first.get_attribute("data-index")
    slot = f".rack-tile[data-index='{index}']"
    first = page.locator(slot)
    name = first.get_attribute("aria-label")
    first.click()
    square = page.evaluate(EMPTY_SQUARE)
    cell = page.locator(f".cell[data-cell='{square}']")
    cell.click()
    page.wait_for_function(f"document.querySelector({json.dumps(slot)}).disabled")
    # on the board: its place in the hand is empty, and a tap there does nothing
    assert first.evaluate("(e) => e.children.length === 0 && !e.textContent.trim()")
    assert "on the" in (first.get_attribute("aria-label") or "")
    first.click(force=True)
    page.wait_for_timeout(300)
    assert page.locator(".cell.placed").count() == 1 and first.is_disabled()
    shot(page, tmp_path, f"take-back-{game}-{screen}-placed")
    # a tap on its square takes it back, and the message line (an alert: read out) says so
    cell.click()
    page.wait_for_function(f"!document.querySelector({json.dumps(slot)}).disabled")
    feedback = page.locator(f"#{key}-feedback")
    said = feedback.inner_text()
    assert said.startswith("The ") and said.endswith(f" is back in your {hand}.")
    assert feedback.get_attribute("role") == "alert" and page.locator(".cell.placed").count() == 0
    assert said.removeprefix("The ").removesuffix(f" is back in your {hand}.").lower() in (name or "").lower()
    # and it stays (no preview comes to clear it)
    page.wait_for_timeout(400)
    assert feedback.inner_text() == said
    shot(page, tmp_path, f"take-back-{game}-{screen}-back")

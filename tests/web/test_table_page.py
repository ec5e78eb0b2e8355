"""The table-mode page (service/static/play/table/) as a table uses it: a table match made from /play for every
game, its page fitting a phone held either way with no serious accessibility problem, and plays entered
while the signal is gone kept on the phone through a reload and applied exactly once when it returns."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.engine.test_table_examples import fixture
from tests.web.conftest import Phone
from tests.web.table_driver import CHANCE, TableHands, table_match
from tests.web.test_axe import audit

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]

#: Every game a table can keep, as the home page's table form names it.
TABLE_GAMES = ["bop", "pdq", "digit", "qnto", "matchfive", "three2fifteen", "qwiply"]
MOVES = "**/v1/matches/*/moves"
#: Each game's set-up as its sheet's example enters it (who goes first, the starter): the play screen after it.
SETUP = {
    "bop": ["first 0", f"draw {fixture('bop', 'play_example.json')['starter']}"],
    "digit": ["first 0"],
    "qnto": ["first 0", f"draw {fixture('qnto', 'play_example.json')['pile'][0]}"],
    "matchfive": ["first 0"],
    "three2fifteen": ["first 1"],
}


def set_up(page: Any, base: str, game: str, entries: list[str] | None = None) -> None:
    """The set-up (or ``entries`` of it) entered through the API by the phone's own device (the page's taps for
    it: test_table_examples)."""
    match = page.evaluate("() => window.tablejudgeMatch.body.match")
    token = page.evaluate("(m) => JSON.parse(localStorage.getItem('tablejudge.seats'))[m].token", match)
    for entry in SETUP.get(game, []) if entries is None else entries:
        version = page.evaluate("() => window.tablejudgeMatch.body.version")
        sent = httpx.post(f"{base}/v1/matches/{match}/moves", json={"move": entry, "seat": CHANCE, "version": version},
                          headers={"Authorization": f"Bearer {token}"}, timeout=30)  # fmt: skip
        assert sent.status_code == 200, sent.text
        page.wait_for_function("(v) => window.tablejudgeMatch.body.version > v", arg=version)


#: How far the bottom of what must be seen without scrolling lies below the screen: the play screen's document
#: (it never scrolls), or the set-up's card (the sheet may follow it, further down the page).
OVERFLOW = """() => {
  const card = document.querySelector("#tk-setup");
  return card ? card.getBoundingClientRect().bottom - innerHeight : document.documentElement.scrollHeight - innerHeight;
}"""


#: Each colour key's swatch: the contrast of its ring, and of its fill, with its key's background (the larger
#: counts: a swatch shows by one or the other), by WCAG's relative luminance.
SWATCH_CONTRAST = """() => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => { const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  return [...document.querySelectorAll(".tk-colours .tk-swatch")].map((swatch) => {
    const key = getComputedStyle(swatch.closest("button")).backgroundColor, style = getComputedStyle(swatch);
    return [swatch.className, Math.max(ratio(style.borderTopColor, key), ratio(style.backgroundColor, key))];
  });
}"""


def swatches_show(page: Any) -> None:
    """Every colour's swatch stands out from its key (3:1, WCAG's least for a graphic), light page and dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        faint = [(name, round(ratio, 2)) for name, ratio in page.evaluate(SWATCH_CONTRAST) if ratio < 3]
        assert faint == [], (scheme, faint)
    page.emulate_media(color_scheme="light")


def fits(page: Any, shots: Path, name: str) -> None:
    """What must be seen fits at 360 x 740 and at 740 x 360 (each screenshot kept as ``name``-WxH)."""
    for width, height in ((360, 740), (740, 360)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)  # (laid out again at the new size: no state to wait for)
        page.screenshot(path=str(shots / f"{name}-{width}x{height}.png"))
        overflow = page.evaluate(OVERFLOW)
        assert overflow <= 1, f"{name}: {overflow}px of the table page lie below the screen at {width} x {height}"
    page.set_viewport_size({"width": 360, "height": 740})


def test_every_game_is_made_at_the_table_from_play_and_fits_a_phone_held_either_way(
    phones: Any, live_server: str, tmp_path: Path
) -> None:
    phone: Phone = phones("Ann")
    problems: list[str] = []
    for game in TABLE_GAMES:
        page = phone.open("/play")
        page.set_viewport_size({"width": 360, "height": 740})
        if not page.locator("#table-create").is_visible():
            page.click("#table-new-title")
        page.locator(f"#table-game-{game}").check()
        page.fill("#table-player-0", "Ann")
        page.fill("#table-player-1", "Bea")
        page.click("#table-create")
        page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
        page.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.body")
        body = page.evaluate("() => window.tablejudgeMatch.body")
        assert body["game"] == game and body["table"]["setup"] == "entered", body
        assert [seat["name"] for seat in body["seats"]][:2] == ["Ann", "Bea"]
        for step, entry in enumerate(SETUP.get(game, [])):  # the set-up's card at each of its steps
            fits(page, tmp_path, f"{game}-setup-{step + 1}")
            if page.locator(".tk-colours").count():
                swatches_show(page)
            set_up(page, live_server, game, [entry])
        fits(page, tmp_path, f"{game}-playing")
        problems += audit(page, f"{game} at the table")
    assert problems == []


def test_plays_entered_offline_survive_a_reload_and_are_applied_exactly_once(phones: Any, live_server: str) -> None:
    plays = [play["play"] for play in fixture("matchfive", "sheet_example.json")["plays"]][:5]
    table = TableHands(phones("Ann"), "matchfive", table_match(live_server, "matchfive", ["Ann", "Bea"]))
    page = table.open()
    table.enter("first 0", CHANCE)
    context = table.phone.context
    context.set_offline(True)
    for done, play in enumerate(plays, 1):
        table.counts.append(type(table.counts[0])())
        table.lay(play)
        page.wait_for_function("(n) => window.tablejudgeMatch.queue.waiting.length === n", arg=done)
    waiting = page.locator("text=5 plays waiting to send")
    waiting.wait_for()
    # Back in signal but the plays still unsent (their posts fail), the page reloaded: the phone kept them.
    page.route(MOVES, lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    context.set_offline(False)
    page.reload()
    page.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.queue.waiting.length === 5")
    waiting.wait_for()
    page.unroute(MOVES)
    sent = "() => window.tablejudgeMatch.body.version === 6 && !window.tablejudgeMatch.queue.waiting.length"
    page.wait_for_function(sent, timeout=30_000)
    headers = {"Authorization": f"Bearer {table.made['token']}"}
    sheet = httpx.get(f"{live_server}/v1/matches/{table.made['match']}/turns", headers=headers, timeout=30).json()
    assert [turn["move"] for turn in sheet["turns"]] == ["first 0", *plays]


#: Where the document scrolls past the screen, and how far Play's bottom is below it (0 when inside).
FIT = """() => {
  const play = document.querySelector(".tk-board .actions button[id$='-play']").getBoundingClientRect();
  return {scrolls: document.documentElement.scrollHeight - window.innerHeight,
          below: Math.max(0, play.bottom - window.innerHeight, -play.top),
          spilt: [...document.querySelectorAll(".tk-key")].filter((k) => k.scrollWidth > k.clientWidth + 1)
            .map((k) => k.textContent)};
}"""


def test_digit_at_the_table_fits_a_phone_either_way_while_a_play_is_entered_and_after_a_refusal(
    phones: Any, live_server: str, tmp_path: Any
) -> None:
    table = TableHands(phones("Ann"), "digit", table_match(live_server, "digit", ["Ann", "Bob"]))
    page = table.open()
    table.enter("first 0", CHANCE)
    problems: list[str] = []

    def fits(state: str) -> None:
        for width, height in ((360, 740), (740, 360)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(f"() => window.innerWidth === {width} && window.innerHeight === {height}")
            shot = tmp_path / f"digit-{state}-{width}x{height}.png"
            page.screenshot(path=str(shot))
            fit = page.evaluate(FIT)
            if fit["scrolls"] > 1 or fit["below"] > 1 or fit["spilt"]:
                problems.append(f"{state} at {width} x {height}: {fit} ({shot})")
        page.set_viewport_size({"width": 360, "height": 740})

    fits("start")
    # One phone for both players: the pile counted is the player to play's, by name.
    page.get_by_text("Ann's pile: 25 tiles").wait_for()
    # Red 5, then blue 9 below it: refused (not a line), the reason said on the screen.
    table.counts.append(type(table.counts[0])())
    table.lay("0,0d 5r9b")
    page.locator(".dock-say .feedback:not(:empty)").wait_for()
    fits("refused")
    page.reload()
    page.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.body")
    # 3 green, 3 blue: laid on the keypad, then played.
    table.counts.append(type(table.counts[0])())
    table.aim("0,0", "a")
    table.piece("3g")
    table.piece("3b")
    fits("entering")
    table.tap(page.locator(".tk-board .actions button[id$='-play']"))
    table.wait_version(2)
    fits("played")
    page.get_by_text("Bob's pile: 25 tiles").wait_for()
    assert not problems, "\n".join(problems)

"""The end screen's reviews list a play once (issue 26): on a position that looks the same mirrored (the
empty board of Three2Fifteen; Match Five's table, which has no landmark) the engine found a play once
per image, "2 12" down from the start square and "2 12" across it, and the review listed both. Now the
review lists it once, with everything it scored (its lines, its squares), and says in how many more
places the same play fits; the move played, if it was one of those images, is still marked as played.

Ann and the greedy bot play each game to the end (Three2Fifteen on a board of 7 x 7 the same every way,
its start square in the middle; Match Five with one tile of each); a spectator's phone opens the review of
the first move, played on the empty board. (The small board the new-game menu offers is not the same
turned: on it, a play across the start and the same play down it leave different squares open, and the
review lists both.)
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web import busy
from tests.web.conftest import Phone
from tests.web.pages import shot

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]

#: A board the same under every turn and reflection, 7 x 7, its start square (3, 3) in the middle.
SYMMETRIC_BOARD = "r.d.d.r/.t...t./d.....d/...*.../d.....d/.t...t./r.d.d.r"
TABLES = {
    "three2fifteen": {"layout": SYMMETRIC_BOARD},
    "matchfive": {"copies": 1, "wilds": 0},
}
SCREENS = {"portrait": (360, 740), "landscape": (740, 360), "tablet": (768, 1024)}

#: Each best play of the open review as the page lists it: its heading, its text, and the twins note.
LISTED = """[...document.querySelectorAll('.review-list details[open] .best > li')].map((li) => ({
  heading: li.querySelector('p b').textContent,
  text: li.querySelector('p').textContent,
  twins: li.querySelector('.twins')?.textContent || null,
  why: li.querySelector('.why')?.textContent || null,
}))"""


def finished(http: httpx.Client, game: str) -> str:
    """A match played to the end: Ann's seat (her first legal move each turn, over HTTP) against the greedy
    bot, which moves at the test server's bot pace (a table of bots alone is paced slower)."""
    made = http.post("/v1/matches", json={"game": game, "seats": 2, "options": TABLES[game], "name": "Ann",
                                          "bots": {"1": "greedy"}})  # fmt: skip
    assert made.status_code == 201, made.text
    match = str(made.json()["match"])
    auth = {"Authorization": f"Bearer {made.json()['token']}"}
    deadline = time.monotonic() + 120
    while (body := http.get(f"/v1/matches/{match}", headers=auth).json())["status"] != "over":
        assert time.monotonic() < deadline, f"the {game} against the bot did not end in time"
        if 0 not in body["must_act"]:
            time.sleep(0.1)
            continue
        legal = http.get(f"/v1/matches/{match}/legal", params={"limit": 5}, headers=auth).json()["moves"]
        answer = http.post(
            f"/v1/matches/{match}/moves", json={"move": legal[0], "version": body["version"]}, headers=auth
        )
        assert answer.status_code in (200, 409), answer.text  # (409: the bot's clock moved first)
    return match


TURNS = (
    (1, 0, 0, 1),
    (1, 0, 0, -1),
    (-1, 0, 0, 1),
    (-1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, 1, -1, 0),
    (0, -1, 1, 0),
    (0, -1, -1, 0),
)


def mirror_forms(game: str, placements: list[tuple[int, int, Any]]) -> set[tuple[Any, ...]]:
    """A play on the empty board under the eight turns and reflections: about the start square in the
    middle of Three2Fifteen's board; on Match Five's table, which has no landmark, shifted besides (each
    image shifted to start at row 0, column 0). An independent reading of "the same play"."""
    forms = set()
    for a, b, c, d in TURNS:
        if game == "three2fifteen":
            image = [(a * (r - 3) + b * (col - 3), c * (r - 3) + d * (col - 3), what) for r, col, what in placements]
            top = left = 0
        else:
            image = [(a * r + b * col, c * r + d * col, what) for r, col, what in placements]
            top, left = min(r for r, _, _ in image), min(col for _, col, _ in image)
        forms.add(tuple(sorted((r - top, col - left, repr(what)) for r, col, what in image)))
    return forms


def placements(game: str, move: str) -> list[tuple[int, int, Any]]:
    """The squares and what goes on them, from the engine's notation (read by the engines' parsers)."""
    if game == "three2fifteen":
        from engine.three2fifteen.moves import parse_move as t2f_move

        return [(r, c, value) for (r, c), value in t2f_move(move).placements]  # type: ignore[union-attr]
    from engine.matchfive.moves import parse_move as mf_move

    return [(r, c, (level, tile)) for (r, c, level), tile in mf_move(move).placements]  # type: ignore[union-attr]


@pytest.mark.parametrize("game", list(TABLES))
def test_a_review_lists_each_play_once(game: str, phones: Callable[[str], Phone], live_server: str,
                                       tmp_path: Path, request: pytest.FixtureRequest) -> None:  # fmt: skip
    http = busy.client(live_server)
    request.addfinalizer(http.close)  # (a client left open warns in whichever test comes next)
    match = finished(http, game)
    review = http.get(f"/v1/matches/{match}/review", params={"version": 1}).json()
    best = review["review"]["best"]
    # On the empty board no play the review lists is another one turned, mirrored (or, on Match Five's
    # table, shifted): the Three2Fifteen start square is the centre of a board the same every way.
    forms = [mirror_forms(game, placements(game, each["move"])) for each in best]
    assert all(not forms[i] & forms[j] for i in range(len(forms)) for j in range(i)), [b["move"] for b in best]
    # A play unlike its mirror images names them as its twins (its images are plays as good on the empty
    # board); one that is its own image (a single tile on Three2Fifteen's start square, a deal whose best
    # plays are all such: about 1 in 27) has none.
    for each, images in zip(best, forms, strict=True):
        assert bool(each["twins"]) == (len(images) > 1), (each["move"], each["twins"])
    twinned = [each for each in best if each["twins"]]
    for each in twinned:
        assert all(mirror_forms(game, placements(game, twin)) == forms[best.index(each)] for twin in each["twins"])

    phone = phones(f"watching {game}")
    page = phone.open(f"/play/{match}?watch=1")
    page.wait_for_selector(".reviews details")
    page.locator(".review-list > li").first.locator("summary").first.click()
    page.wait_for_selector(".review-list details[open] .best > li")
    listed = page.evaluate(LISTED)
    assert len(listed) == len(best)
    for shown, each in zip(listed, best, strict=True):
        assert re.match(rf"\d\. {each['points']} points?", shown["heading"]), shown
        count = len(each["twins"])
        if count:
            place = "place" if count == 1 else "places"
            assert shown["twins"].startswith(f"The same play fits {count} more {place}, mirrored or turned")
        else:
            assert shown["twins"] is None
        played = review["move"] == each["move"] or review["move"] in each["twins"]
        assert ("(the move played)" in shown["text"]) == played
        # ranked by the hard bot's equity: each says why, and its equity beside its points where they differ
        rated = f"Rated {each['equity']:g}" if each["equity"] != each["points"] else ""
        if each["why"] or rated:
            # (the first reason is a sentence's start where no rating comes before it)
            why = "; ".join(each["why"])
            assert shown["why"].startswith(rated) and why.lower() in shown["why"].lower(), (shown, each)
        else:
            assert shown["why"] is None
        # everything it scored: each item of its breakdown, with its points
    items = page.locator(".review-list details[open] .best > li").first.locator(".breakdown li:not(.b-total)")
    assert items.count() == len(best[0]["breakdown"]["items"])
    for width, height in SCREENS.values():
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    page.set_viewport_size({"width": 360, "height": 740})
    shot(page, tmp_path, f"review-{game}")
    http.close()

"""Every game fits the phone (issue 26): on the play screen, at 360 x 740 portrait and at 740 x 360
landscape (and on a tablet, 768 x 1024 both ways), the document itself does not scroll, and the hand
and the main action are inside the viewport, not covered, at the start, after a refused move and
mid-game (after a few moves); and no text on the screen is under 12 px (squares zoomed out hide their
small marks).

Each of the seven games is played against a bot (PDQ alone) from a match made over HTTP; the seat's
token is put where the page keeps it, so the page opens straight on the board. The refused move is
made by tapping, as a person would; the moves that take the game on are made over HTTP, the first
the engine lists each turn. Screenshots of every state are saved to ``TABLEJUDGE_FIT_SHOTS`` (a
temporary folder if unset; the paths are printed): look at them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]

SCREENS = {
    "portrait": {"width": 360, "height": 740},
    "landscape": {"width": 740, "height": 360},
    "tablet": {"width": 768, "height": 1024},
    "tablet-landscape": {"width": 1024, "height": 768},
}


@dataclass(frozen=True)
class Spec:
    """How a game is made and where its hand and main action are on the page."""

    game: str
    hand: str  # the hand (or what stands for it: PDQ's word box)
    action: str  # the main action: its button
    seats: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    bot: str = "greedy"


SPECS = [
    Spec("bop", ".rack", "#bop-play"),
    Spec("pdq", "#pdq-word", "#pdq-claim", seats=1),
    Spec("digit", ".lg-hand", "#digit-play"),
    Spec("qnto", ".lg-hand", "#qnto-play"),
    Spec("matchfive", ".mf-hand", "#mf-play"),
    # (a player with no token that fits is offered the exchange or the pass instead of Play)
    Spec("three2fifteen", ".t2f-hand", "#t2f-play, #t2f-stuck button"),
    # Qwiply has no hand: its main action is the confirm button of the phase (the set-up's, a claim's).
    Spec("qwiply", ".board-qwiply .board-dock", "#q-setup-submit, #q-confirm"),
]

#: Where the document scrolls, and where an element is: its box, and whether a tap at its middle
#: reaches it (nothing covers it; no inner scroll pane hides it).
MEASURE = """([hand, action, said]) => {
  const place = (selector) => {
    const element = [...document.querySelectorAll(selector)].find((each) => each.getClientRects().length);
    if (!element) return null;
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 20));
    const reached = Boolean(hit && (element.contains(hit) || hit.contains(element)));
    return {left: box.left, top: box.top, right: box.right, bottom: box.bottom, reached};
  };
  const page = document.scrollingElement;
  // Text under 12 px anywhere on the screen (squares zoomed out, .small-squares, hide their small marks).
  const small = [...document.querySelectorAll("main *")]
    .filter((e) => e.getClientRects().length && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
    .filter((e) => !e.closest(".small-squares") && parseFloat(getComputedStyle(e).fontSize) < 12)
    .map((e) => `${e.className || e.tagName} ${getComputedStyle(e).fontSize} "${e.textContent.trim().slice(0, 20)}"`);
  return {height: page.scrollHeight, width: page.scrollWidth, innerHeight, innerWidth,
          hand: place(hand), action: place(action), said: said ? place(said) : null, small};
}"""


#: Whether one of the main action's buttons is on the page (shown).
ACTION_SHOWN = "(selector) => [...document.querySelectorAll(selector)].some((each) => each.getClientRects().length)"


def shots_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    named = os.environ.get("TABLEJUDGE_FIT_SHOTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("fit")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Seat:
    """Ann's seat in a match made over HTTP, and her phone's page on it."""

    def __init__(self, browser: Any, base: str, spec: Spec, viewport: dict[str, int]) -> None:
        self.spec = spec
        self.http = httpx.Client(base_url=base, timeout=30)
        bots = {str(seat): spec.bot for seat in range(1, spec.seats)}
        made = self.http.post("/v1/matches", json={"game": spec.game, "seats": spec.seats, "bots": bots,
                                                   "options": spec.options, "name": "Ann"})  # fmt: skip
        assert made.status_code in (200, 201), made.text
        self.made = made.json()
        self.match, self.token, self.seat = self.made["match"], self.made["token"], self.made["seat"]
        self.context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True, bypass_csp=True)
        self.context.set_default_timeout(15_000)
        stored = {self.match: {"token": self.token, "seat": self.seat, "invite": self.made.get("invite"),
                               "game": spec.game, "name": "Ann", "saved": 1}}  # fmt: skip
        self.context.add_init_script(f"localStorage.setItem('tablejudge.seats', {json.dumps(json.dumps(stored))})")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(f"{base}/play/{self.match}")

    def body(self) -> dict[str, Any]:
        answer = self.http.get(f"/v1/matches/{self.match}", headers={"Authorization": f"Bearer {self.token}"})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def my_turn(self) -> None:
        """Wait until it is Ann's turn, on the server and on the page."""
        for _ in range(100):
            body = self.body()
            if self.seat in body["to_act"] or body["status"] != "playing":
                break
            self.page.wait_for_timeout(100)
        version = body["version"]
        self.page.wait_for_function(f"window.tablejudgeMatch?.body?.version >= {version}")
        # Qwiply's confirm bar comes with a die picked (a pick the page kept from a move made over HTTP
        # may still stand: a second tap would put it back).
        shown = self.page.evaluate(ACTION_SHOWN, self.spec.action)
        if self.spec.game == "qwiply" and body["view"]["phase"] == "claim" and not shown:
            self.page.locator("button.q-die:not(.taken)").first.click()
        try:
            self.page.wait_for_function(ACTION_SHOWN, arg=self.spec.action)
        except Exception as error:  # the state the page was left in, for the report
            view = {key: body["view"].get(key) for key in ("phase", "purple", "unclaimed")}
            text = self.page.locator("main").inner_text()
            raise AssertionError(f"no main action shown: {view} to_act={body['to_act']} page: {text[:600]}") from error

    def move_on(self, moves: int) -> None:
        """``moves`` of Ann's turns made over HTTP (the first move the engine lists that is not a pass),
        the bot answering each."""
        for _ in range(moves):
            self.my_turn()
            body = self.body()
            if body["status"] != "playing":
                return
            legal = self.http.get(f"/v1/matches/{self.match}/legal", params={"limit": 50},
                                  headers={"Authorization": f"Bearer {self.token}"}).json()["moves"]  # fmt: skip
            move = next((each for each in legal if not each.startswith("pass")), legal[0])
            answer = self.http.post(f"/v1/matches/{self.match}/moves", json={"move": move, "version": body["version"]},
                                    headers={"Authorization": f"Bearer {self.token}"})  # fmt: skip
            assert answer.status_code == 200, answer.text
            self.page.wait_for_function(f"window.tablejudgeMatch.body.version > {body['version']}")
        self.my_turn()

    def refuse(self) -> None:
        """A move the game refuses, made by tapping; waits for the page to say why."""
        page = self.page
        if self.spec.game == "pdq":
            page.locator("#pdq-word").fill("qqqxq")
            page.locator("#pdq-claim").click()
            page.wait_for_selector("#pdq-feedback.problem")
        elif self.spec.game == "qwiply":
            page.locator("#q-setup-submit").click()  # nothing crossed out yet
            page.wait_for_selector("#q-feedback.problem")
        else:
            # A tile from the hand on a square far from the tiles (or the centre): no game takes it.
            # (not Match Five's wild, "*": on a square it asks what it stands for first)
            page.locator(f"{self.spec.hand} .rack-tile:not([data-tile='*'])").first.click()
            page.locator(".grid .cell").first.click()  # the grid's first square: far from any tile
            page.wait_for_selector(".feedback.problem")

    def check(self, folder: Path, name: str, said: str | None = None) -> None:
        """The screen as ``name``: it does not scroll; the hand, the main action and what the game
        ``said`` (the refusal's line) are on it, each reached by a tap at its middle."""
        shown = self.page.evaluate(MEASURE, [self.spec.hand, self.spec.action, said])
        self.page.screenshot(path=str(folder / f"{name}.png"))
        print(f"screenshot: {folder / name}.png")
        assert shown["height"] <= shown["innerHeight"] and shown["width"] <= shown["innerWidth"], (name, shown)
        for part in ("hand", "action", "said") if said else ("hand", "action"):
            box = shown[part]
            assert box is not None, (name, part)
            width, height = shown["innerWidth"] + 0.5, shown["innerHeight"] + 0.5
            inside = box["left"] >= 0 and box["top"] >= 0 and box["right"] <= width and box["bottom"] <= height
            assert inside and box["reached"], (name, part, box, shown["innerWidth"], shown["innerHeight"])
        assert shown["small"] == [], (name, "text under 12 px", shown["small"])

    def close(self) -> None:
        assert self.errors == [], self.errors
        self.context.close()
        self.http.close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shots_folder(tmp_path_factory)


@pytest.mark.parametrize("orientation", list(SCREENS))
@pytest.mark.parametrize("spec", SPECS, ids=[spec.game for spec in SPECS])
def test_the_play_screen_fits(spec: Spec, orientation: str, browser: Any, live_server: str, folder: Path) -> None:
    seat = Seat(browser, live_server, spec, SCREENS[orientation])
    try:
        name = f"{spec.game}-{orientation}"
        seat.my_turn()
        seat.check(folder, f"{name}-1-start")
        seat.refuse()
        seat.check(folder, f"{name}-2-refused", said=".feedback.problem")
        seat.page.reload()
        seat.move_on(3)
        seat.check(folder, f"{name}-3-midgame")
    finally:
        seat.close()

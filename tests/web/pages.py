"""What every game's browser test shares: the server's side of a match (``Table``, ``Game``), the
screenshots, the waits for a page to catch up, and the steps each game's test takes the same way (a
table opened for two from the home page, a game against the greedy bot, a play placed by keyboard).

The ``tables`` fixture (one ``Table`` per match, closed after the test) is in ``conftest.py``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import httpx

from tests.matches.waiting import wait_for
from tests.web import busy

if TYPE_CHECKING:  # (conftest.py makes its tables fixture of Table: no import back at run time)
    from tests.web.conftest import Phone

#: A play in the BOP!, Q!nto and D!Git notation: ``"3,-2a Cg?Wk"`` (row, column, across or down, tiles).
PLAY = re.compile(r"(-?\d+),(-?\d+)([ad]?)\s+(\S+)")

#: Every control a thumb may need, on screen, smaller than 44 x 44 px: [tag, id or class, width, height].
#: Links inside a sentence are exempt (as WCAG's target size allows); radio buttons and checkboxes are
#: covered by their labels.
SMALL_TARGETS = """[...document.querySelectorAll('button, a, input, select, summary, [role=gridcell]')]
  .filter((e) => e.offsetParent && !(e.tagName === 'A' && e.closest('p')) && !['radio', 'checkbox'].includes(e.type))
  .map((e) => [e.tagName, e.id || e.className, Math.round(e.getBoundingClientRect().width),
               Math.round(e.getBoundingClientRect().height)])
  .filter(([, , width, height]) => width < 44 || height < 44)"""

#: The scores the players' panel shows, joined by commas (to compare with the engine's).
SCORES = "[...document.querySelectorAll('.player .p-score')].map((e) => e.textContent).join()"
#: The rows of the score sheet, newest first.
#: The score sheet's rows as text, the tiles a row draws (the line games) read back as their codes.
SHEET_ROWS = """[...document.querySelectorAll('.sheet-list > li')].map((row) => {
  const copy = row.cloneNode(true);
  for (const tiles of copy.querySelectorAll('[data-tiles]')) tiles.replaceWith(tiles.dataset.tiles);
  return copy.textContent;
})"""


def shot(page: Any, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path


#: A phone held upright and on its side.
PORTRAIT, LANDSCAPE = {"width": 360, "height": 740}, {"width": 740, "height": 360}


def shots_both_ways(page: Any, folder: Path, name: str) -> list[tuple[str, int, list[Any]]]:
    """The page photographed upright and on its side (``name-portrait.png``, ``name-landscape.png``), left upright:
    for each way, its name, how wide the document is, and the controls too small for a thumb."""
    seen = []
    for way, size in (("landscape", LANDSCAPE), ("portrait", PORTRAIT)):
        page.set_viewport_size(size)
        shot(page, folder, f"{name}-{way}")
        seen.append((way, page.evaluate("document.documentElement.scrollWidth"), page.evaluate(SMALL_TARGETS)))
    return seen


def create_as_ann(home: Any, folder: Path, name: str) -> None:
    """On the home page, the game and its options chosen: Ann gives her name, the page is photographed
    (``name``) and has no target too small for a thumb, and she creates the game."""
    home.get_by_label("Your name").fill("Ann")
    shot(home, folder, name)
    assert home.evaluate(SMALL_TARGETS) == []
    home.get_by_role("button", name="Create the game").click()


def placements_of(move: str, tile: str) -> list[tuple[str, str]]:
    """A play in the ``PLAY`` notation, its tiles read by the pattern ``tile`` (``.`` steps over the grid):
    each tile placed, by its square."""
    found = PLAY.fullmatch(move)
    assert found is not None, move
    row, col, down = int(found[1]), int(found[2]), found[3] == "d"
    tokens = re.findall(rf"{tile}|\.", found[4])
    return [(f"{row + i},{col}" if down else f"{row},{col + i}", each) for i, each in enumerate(tokens) if each != "."]


def capital(text: str) -> str:
    """The engine's reason as the page shows it: ``"is not a word"`` -> ``"Is not a word"``."""
    return text[0].upper() + text[1:]


def plural(count: int, one: str) -> str:
    return f"{count} {one}{'' if count == 1 else 's'}"


def points(total: int) -> str:
    return plural(total, "point")


def your_turn(page: Any) -> None:
    page.wait_for_function("document.getElementById('status')?.textContent.startsWith('Your turn')")


def turn_or_end(page: Any) -> str:
    """Wait until it is this phone's turn ("turn") or the game is over ("end")."""
    page.wait_for_function("document.getElementById('status')?.textContent.startsWith('Your turn')"
                           " || document.querySelector('.end .final li') !== null")  # fmt: skip
    return "end" if page.locator(".end .final li").count() else "turn"


#: The refusals that say only that the game moved on while a move made over HTTP was on its way: a stale
#: version, a PDQ claim after its round's window had run out (the referee not yet come), a claim or a
#: vote as the round ended (a pause), a "ready" as the next row came.
MOVED_ON = ("stale_version", "window_closed", "time_up", "round_over", "not_between_rounds")


def legal_listed(http: httpx.Client, match: str, headers: dict[str, str], limit: int) -> dict[str, Any]:
    """The body of ``/legal`` for the seat of ``headers``: asked again while the engine answers that it ran
    past its budget (a loaded machine's answer, "ask again"), any other refusal failing the test."""

    def asked() -> httpx.Response | None:
        answer = http.get(f"/v1/matches/{match}/legal", params={"limit": limit}, headers=headers)
        over_budget = answer.status_code != 200 and answer.json()["error"]["code"] == "over_budget"
        return None if over_budget else answer

    answer: httpx.Response = wait_for(asked, "the legal moves within the engine's budget", seconds=60)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def moved_on_meanwhile(answer: httpx.Response) -> bool:
    """Whether a move's refusal says only that the game had moved on (``MOVED_ON``): look again."""
    if answer.status_code not in (409, 422):
        return False
    error = answer.json().get("error", {})
    return error.get("code") in MOVED_ON or error.get("rule") in MOVED_ON


def until_past(body: Callable[[], dict[str, Any]], version: int, seconds: float = 30) -> dict[str, Any]:
    """Polls the match (``body()``, the server's answer) until it is past ``version`` or over: a state to
    wait for, when the moves listed were for a state that has gone (a PDQ round over: none listed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = body()
        if now["version"] > version or now["status"] != "playing":
            return now
        time.sleep(0.1)
    raise AssertionError(f"the match stayed at version {version} for {seconds} s")


def moved_on(page: Any, version: int) -> None:
    """Wait until the page has seen the match pass ``version`` (a move made: ours, answered)."""
    page.wait_for_function(f"window.tablejudgeMatch.body.version > {version}")


def feedback(page: Any, key: str, text: str) -> None:
    """Wait until the board's feedback line (``#KEY-feedback``, its role=alert) says ``text``."""
    said = f"document.getElementById('{key}-feedback').textContent"
    page.wait_for_function(f"{said} === {json.dumps(text)}")


def refused_again(page: Any, key: str, reason: str) -> None:
    """A play the preview refused (``reason``, on the feedback line) cannot be sent: Play is disabled,
    the refusal its description (issue 26: a tap on it did nothing, with nothing said)."""
    feedback(page, key, reason)
    page.wait_for_function(f"document.getElementById('{key}-play').disabled")
    assert page.locator(f"#{key}-play").get_attribute("aria-describedby") == f"{key}-feedback"


def offers(page: Any, button: str, label: str) -> None:
    """Wait until the play button reads ``label``. On a loaded machine the taps of one play can come
    further apart than the page's 150 ms wait before it asks for a preview, and the preview of the
    tiles placed so far shows until the last tap's answer replaces it (with the button's label, in
    the same step): the page is read once it has."""
    page.wait_for_function(f"document.querySelector({json.dumps(button)}).textContent === {json.dumps(label)}")


def sheet_says(page: Any, text: str) -> None:
    """Wait until a row of the score sheet includes ``text``."""
    page.wait_for_function(f"{SHEET_ROWS}.some((row) => row.includes({json.dumps(text)}))")


def scores_shown(pages: Any, scores: list[int]) -> None:
    """Wait until every page's players' panel shows the engine's ``scores``."""
    for page in pages:
        page.wait_for_function(f"{SCORES} === {json.dumps(','.join(map(str, scores)))}")


#: The document does not scroll, and the element ``selector`` finds is inside the viewport and not covered
#: where its last word is (a tap at the end of its last line reaches it: no scroll pane cuts it off, no
#: hand or button lies over it).
SEEN_WHOLE = """(selector) => {
  const element = document.querySelector(selector);
  if (!element || !element.getClientRects().length) return {shown: false};
  const page = document.scrollingElement, box = element.getBoundingClientRect();
  const lines = element.getClientRects(), lastLine = lines[lines.length - 1];
  const range = document.createRange();
  range.selectNodeContents(element);
  const words = range.getClientRects(), end = words[words.length - 1] || lastLine;
  const hit = document.elementFromPoint(end.right - 2, end.top + end.height / 2);
  // No pane that scrolls or clips cuts the last line off (a tap at its middle would still reach the pane).
  let clipped = false;
  for (let pane = element.parentElement; pane; pane = pane.parentElement) {
    if (getComputedStyle(pane).overflowY === "visible") continue;
    const frame = pane.getBoundingClientRect();
    clipped = clipped || end.bottom > frame.bottom + 1 || end.top < frame.top - 1;
  }
  return {shown: true, fits: page.scrollHeight <= innerHeight && page.scrollWidth <= innerWidth,
          inside: box.left >= 0 && box.top >= 0 && box.right <= innerWidth + 0.5 && box.bottom <= innerHeight + 0.5,
          reached: !clipped && Boolean(hit && (element.contains(hit) || hit.contains(element))),
          text: element.textContent};
}"""


def seen_whole(page: Any, selector: str) -> dict[str, Any]:
    """``SEEN_WHOLE`` of ``selector``, asserted: read to its last word without scrolling."""
    found: dict[str, Any] = page.evaluate(SEEN_WHOLE, selector)
    assert found["shown"] and found["fits"] and found["inside"] and found["reached"], (selector, found)
    return found


class _WithClient(Protocol):
    http: httpx.Client


ClientT = TypeVar("ClientT", bound=_WithClient)


@contextmanager
def clients_closed(make: Callable[[str], ClientT]) -> Iterator[Callable[[str], ClientT]]:
    """A fixture's factory: ``make`` as it is, but each one made has its HTTP client closed when the block ends
    (``tables``, and the seats against a bot)."""
    made: list[ClientT] = []

    def one(key: str) -> ClientT:
        made.append(make(key))
        return made[-1]

    try:
        yield one
    finally:
        for each in made:
            each.http.close()


class Table:
    """The server's side of the game, for the test to know what a player at the table would see."""

    def __init__(self, base: str, match: str) -> None:
        self.http = busy.client(base)
        self.match = match
        self.tokens: dict[int, str] = {}

    def seat_of(self, phone: Phone) -> int:
        stored = json.loads(phone.page.evaluate("localStorage.getItem('tablejudge.seats')"))
        token = stored[self.match]["token"]
        seat = int(self.body(token)["you"])
        self.tokens[seat] = token
        return seat

    def body(self, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = self.http.get(f"/v1/matches/{self.match}", headers=headers)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def legal_plays(self, seat: int, limit: int = 400) -> list[str]:
        listed = legal_listed(self.http, self.match, self.auth(seat), limit)
        return [move for move in listed["moves"] if PLAY.fullmatch(move)]

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def near_plays(self, seat: int) -> list[str]:
        """BOP! plays of one hand tile next to the grid, then of two across, then of two down (no BOP! tile)."""
        body = self.body(self.tokens[seat])
        board = {(r, c) for r, c, _ in body["view"]["board"]}
        hand = sorted({tile for tile in body["view"]["hands"][seat] if tile != "?"})
        empty = sorted({(r + dr, c + dc) for r, c in board for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} - board)
        singles = [f"{r},{c} {tile}" for r, c in empty for tile in hand]
        pairs = [f"{r},{c}a {one}{two}" for r, c in empty if (r, c + 1) not in board
                 for one in hand for two in hand if one != two]  # fmt: skip
        downs = [f"{r},{c}d {one}{two}" for r, c in empty if (r + 1, c) not in board
                 for one in hand for two in hand if one != two]  # fmt: skip
        return singles + pairs + downs

    def refused_play(self, seat: int) -> tuple[str, str]:
        """A BOP! play of one or two hand tiles next to the grid that makes no word: (move, the reason)."""
        for move in self.near_plays(seat):
            answer = self.http.post(f"/v1/matches/{self.match}/preview", json={"move": move}, headers=self.auth(seat))
            if answer.status_code == 422 and answer.json()["error"].get("rule") == "not_a_word":
                return move, answer.json()["error"]["message"]
        raise AssertionError("no refused play found")


class Game:
    """The match from the server's side (the engine's answers), for the test to choose what a person
    would do; each grid game's tests add what is their own."""

    #: How many legal moves to ask for (a long list is cut there, its passes last).
    LEGAL_LIMIT = 5000

    def __init__(self, table: Table) -> None:
        self.table = table

    def body(self, seat: int | None = None) -> dict[str, Any]:
        return self.table.body(None if seat is None else self.table.tokens[seat])

    def hand(self, seat: int) -> list[Any]:
        return list(self.body(seat)["view"]["hands"][seat])

    def legal(self, seat: int) -> list[str]:
        return list(legal_listed(self.table.http, self.table.match, self.table.auth(seat), self.LEGAL_LIMIT)["moves"])

    def asked(self, seat: int, move: str) -> httpx.Response:
        """The server's /preview of ``move`` for the seat, as it answered."""
        return self.table.http.post(f"/v1/matches/{self.table.match}/preview", json={"move": move},
                                    headers=self.table.auth(seat))  # fmt: skip

    def move(self, seat: int, move: str) -> None:
        """A move made from the seat's own token over HTTP (moving the game on between tapped turns)."""
        version = self.body()["version"]
        answer = self.table.http.post(f"/v1/matches/{self.table.match}/moves", json={"move": move, "version": version},
                                      headers=self.table.auth(seat))  # fmt: skip
        assert answer.status_code == 200, answer.text


@dataclass
class Opened:
    """A table for two opened from the home page: Ann's page (``home``), Bob's, maybe Eve's, watching."""

    match: str
    table: Table
    pages: dict[int, Any]  # seat -> that player's page
    seat_page: Any  # Bob's
    watch: Any  # Eve's, or None


def new_game_radio(home: Any, game: str) -> Any:
    """The new online game's choice of ``game`` on the home page (not the table form's radio of the same
    name, in its own region "At the table, with the real box")."""
    return home.locator('input[name="game"]').and_(home.get_by_label(game, exact=True))


def three_phones(phones: Callable[[str], Phone], game: str | None) -> tuple[Phone, Phone, Phone, Any]:
    """Ann, Bob and Eve (who watches), and Ann's home page with ``game`` chosen (by its label; None: the
    first, BOP!)."""
    ann, bob, eve = phones("Ann"), phones("Bob"), phones("Eve (watching)")
    home = ann.open("/play")
    if game is not None:
        new_game_radio(home, game).check()
    return ann, bob, eve, home


def join_and_watch(home: Any, bob: Any, eve: Any | None, live_server: str, board: str) -> tuple[str, Any, Any]:
    """After Ann created the game on ``home``: Eve (if any) watches from the match's link, Bob opens the
    invite and takes a seat, and every page waits for ``board`` (a selector) to be drawn. ``bob`` and
    ``eve`` are phones (anything with ``open(path)``); waits by selector only, as the policy's test
    needs. (the match, Bob's page, Eve's page or None)"""
    link = home.locator("#invite-link").input_value()
    match = link.split("/play/")[1].split("?")[0]
    watch = None
    if eve is not None:
        watch = eve.open(f"/play/{match}?watch=1")
        watch.wait_for_selector(".seat-list")
    seat_page = bob.open(link.removeprefix(live_server))
    seat_page.get_by_label("Your name").fill("Bob")
    seat_page.get_by_role("button", name="Take a seat").click()
    for page in (home, seat_page, watch):
        if page is not None:
            page.wait_for_selector(board)
    return match, seat_page, watch


def open_for_two(tables: Callable[[str], Table], live_server: str, ann: Phone, bob: Phone, eve: Phone | None,
                 board: str) -> Opened:  # fmt: skip
    """``join_and_watch`` from Ann's phone, and the server's side of the table."""
    match, seat_page, watch = join_and_watch(ann.page, bob, eve, live_server, board)
    table = tables(match)
    pages = {table.seat_of(ann): ann.page, table.seat_of(bob): seat_page}
    return Opened(match, table, pages, seat_page, watch)


def against_the_bot(phones: Callable[[str], Phone], tables: Callable[[str], Table], game: str,
                    options: dict[str, str] | None = None) -> tuple[Phone, Any, Table, int]:  # fmt: skip
    """Ann creates a game of ``game`` (its label on the home page) against the greedy bot, with the
    ``options`` chosen (by their labels), and waits for her turn: (her phone, her page, the table, her seat)."""
    ann = phones("Ann")
    home = ann.open("/play")
    new_game_radio(home, game).check()
    for label, value in (options or {}).items():
        home.get_by_label(label).select_option(value)
    home.locator("#seat-1").select_option("normal")
    home.get_by_label("Your name").fill("Ann")
    home.get_by_role("button", name="Create the game").click()
    your_turn(home)
    table = tables(home.url.rsplit("/", 1)[1])
    return ann, home, table, table.seat_of(ann)


def until_a_single(table: Table, seat: int, page: Any, singles: Callable[[list[str]], list[str]],
                   otherwise: Callable[[], str] = lambda: "pass") -> str:  # fmt: skip
    """A one-tile play for ``seat``: a dealt hand may hold none that fits, so make the first move listed
    that is not a play (a pass, a swap, an exchange) until one comes; the page is at its turn again.
    (A long list is cut at 5,000 moves, its passes last: then ``otherwise()``, by default a plain pass.)"""
    for _ in range(12):
        legal = list(table.http.get(f"/v1/matches/{table.match}/legal", params={"limit": 5000},
                                    headers=table.auth(seat)).json()["moves"])  # fmt: skip
        found = singles(legal)
        if found:
            return found[0]
        version = table.body()["version"]
        other = next((move for move in legal if move.split()[0] in ("pass", "swap", "exchange")), None) or otherwise()
        answer = table.http.post(f"/v1/matches/{table.match}/moves", json={"move": other, "version": version},
                                 headers=table.auth(seat))  # fmt: skip
        assert answer.status_code == 200, answer.text
        page.wait_for_function(f"window.tablejudgeMatch.body.version > {version}")
        your_turn(page)
    raise AssertionError("no one-tile play came in 12 turns")


def arrow_to(page: Any, grid: str, square: str, start: tuple[int, int] = (0, 0)) -> None:
    """Focus the grid's one focusable cell (``start``), its focus visible, and walk to ``square`` by
    the arrow keys."""
    page.locator(f"{grid} .cell[tabindex='0']").focus()
    assert page.evaluate("document.activeElement.dataset.cell") == f"{start[0]},{start[1]}"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    row, col = (int(part) for part in square.split(","))
    for _ in range(abs(row - start[0])):
        page.keyboard.press("ArrowDown" if row > start[0] else "ArrowUp")
    for _ in range(abs(col - start[1])):
        page.keyboard.press("ArrowRight" if col > start[1] else "ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.cell") == square


def tab_to_and_press(page: Any, button: str, tabs: int = 30) -> None:
    """Press Tab until the element ``#button`` has the focus, then Enter."""
    for _ in range(tabs):
        if page.evaluate("document.activeElement.id") == button:
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == button
    page.keyboard.press("Enter")


def place_by_keyboard(page: Any, table: Table, grid: str, key: str, square: str, typed: str, *,
                      start: tuple[int, int] = (0, 0), tabs: int = 30) -> None:  # fmt: skip
    """The keyboard alone on the board ``grid`` (a selector): the arrow keys to ``square`` from its
    ``start``, ``typed`` places a tile there, Backspace takes it back, typed again, Tab to the
    ``#KEY-play`` button and Enter (its preview shown first); the move made, nothing is left placed."""
    arrow_to(page, grid, square, start)
    page.keyboard.type(typed)
    page.wait_for_selector(f".cell.placed[data-cell='{square}']")
    assert "placed this turn" in (page.locator(f".cell[data-cell='{square}']").get_attribute("aria-label") or "")
    page.keyboard.press("Backspace")
    assert page.locator(".cell.placed").count() == 0
    page.keyboard.type(typed)
    page.wait_for_selector(f"#{key}-preview .breakdown")
    before = table.body()["version"]
    tab_to_and_press(page, f"{key}-play", tabs)
    moved_on(page, before)
    assert page.locator(".cell.placed").count() == 0

"""BOP!'s play screen says what just happened, to each phone in its own words (issue 26: words, not
codes; a message belongs to its moment): the last play as the whole lines it made, with an example
word once it stands ("Bot played RLX (relax) for 3 points."); a challenge's verdict on the challenger's
phone, the challenged player's and a watcher's, each addressed to its reader, in the message line and
in the screen reader's region alike; the Challenge button a whole button while a pass is chosen; and a
board wider than the phone opened and brought back whole.

Screenshots (360 x 740) are saved under the test's temporary folder: look at them.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import Table, open_for_two, placements_of, shot, three_phones, your_turn
from tests.web.seated import match_with_bots, seat_phone

pytestmark = [pytest.mark.browser, pytest.mark.server]

LAST = "#bop-last .bop-last"
CHALLENGED = "(sel) => /challenge/.test(document.querySelector(sel)?.textContent || '')"


def tap_tiles(page: Any, move: str) -> None:
    for square, tile in placements_of(move, r"[A-Z][a-z]|\?"):
        page.locator(f".rack-tile[data-tile='{tile}']:not(.used)").first.click()
        page.locator(f".cell[data-cell='{square}']").click()


def line_letters(breakdown: dict[str, Any]) -> list[str]:
    """The letters of each line a play made, from its breakdown ("across RXD" -> "RXD")."""
    return [item["label"].split()[-1] for item in breakdown["items"] if item["kind"] == "line"]


def line_said(table: Table, item: dict[str, Any]) -> str:
    """A line of a play as the last-move line says it, with the first of the judge's words: "RLX (relax)";
    through a BOP! tile, by what the engine says it stands for: "CLM (the BOP! tile as L: claim)"."""
    letters = item["label"].split()[-1]
    reading = item.get("reading") or letters
    word = table.http.get(f"/v1/bop/{reading}", params={"limit": 3}).json()["words"][0]
    stood = [read for laid, read in zip(letters, reading, strict=True) if laid == "?"]
    if not stood:
        return f"{reading} ({word})"
    tiles = f"the BOP! tile as {stood[0]}" if len(stood) == 1 else f"the BOP! tiles as {stood[0]} and {stood[1]}"
    return f"{reading} ({tiles}: {word})"


def a_non_word(table: Table, seat: int) -> tuple[str, list[str], list[str], int]:
    """A play of one or two hand tiles next to the grid making a line that is no word (challenge mode takes it):
    (the move, the letters of its lines, those that are no word, its points)."""
    for move in table.near_plays(seat):
        answer = table.http.post(f"/v1/matches/{table.match}/preview", json={"move": move}, headers=table.auth(seat))
        if answer.status_code != 200:
            continue
        breakdown = answer.json()["breakdown"]
        lines = line_letters(breakdown)
        bad = [letters for letters in lines if not table.http.get(f"/v1/bop/{letters}").json()["valid"]]
        if bad:
            return move, lines, bad, int(breakdown["total"])
    raise AssertionError("no non-word play found")


def says(page: Any, text: str) -> None:
    """The last move's line on ``page`` reads ``text``, and so does the screen reader's region."""
    page.wait_for_function("([sel, text]) => document.querySelector(sel)?.textContent === text", arg=[LAST, text])
    page.wait_for_function("(text) => document.getElementById('announcer').textContent === text", arg=text)


def last_step(table: Table) -> dict[str, Any]:
    turns = table.http.get(f"/v1/matches/{table.match}/turns").json()["turns"]
    return dict(([{"seat": -1}] + [step for step in turns if step["seat"] >= 0])[-1])


@pytest.mark.slow
def test_an_upheld_challenge_is_told_to_each_phone_in_its_words(
    phones: Any, tables: Any, live_server: str, tmp_path: Path
) -> None:
    ann, bea, eve, home = three_phones(phones, None)
    home.get_by_label("Your name").fill("Ann")
    home.get_by_label("Non-words").select_option("challenge")
    home.get_by_role("button", name="Create the game").click()
    opened = open_for_two(tables, live_server, ann, bea, eve, ".grid .cell")
    table, pages, watch = opened.table, opened.pages, opened.watch
    names = [seat["name"] for seat in table.body()["seats"]]
    mover = table.body()["must_act"][0]
    challenger = 1 - mover

    # The mover plays a line that is no word: every phone names the whole line, without example words
    # (they would tell whether to challenge), and says it may be challenged.
    move, lines, bad, points = a_non_word(table, mover)
    your_turn(pages[mover])
    tap_tiles(pages[mover], move)
    pages[mover].locator("#bop-play:not([disabled])").click()
    played = f"played {' and '.join(lines)} for {points} point{'s' if points != 1 else ''}."
    says(pages[mover], f"You {played}")
    for page in (pages[challenger], watch):
        says(page, f"{names[mover]} {played}")
        assert "It stands unless it is challenged" in page.locator("#bop-last").inner_text()
    assert pages[mover].locator("#bop-feedback").inner_text() == ""  # said once, in the last move's line

    # "Pass…" opened on the challenger's phone: the Challenge button stays a whole button in view.
    page = pages[challenger]
    your_turn(page)
    page.locator("#bop-pass").click()
    page.wait_for_selector("#bop-pass-confirm")
    box = page.locator("#bop-challenge").bounding_box()
    assert box is not None and box["height"] >= 44 and box["y"] >= 0 and box["y"] + box["height"] <= 740, box
    hit = "(b) => document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2)?.id"
    assert page.evaluate(hit, box) == "bop-challenge"
    shot(page, tmp_path, "bop-pass-with-challenge")
    page.get_by_role("button", name="Cancel").click()

    # The challenge is upheld: the challenger, the challenged player and the watcher each read it.
    page.locator("#bop-challenge").click()
    line = re.escape(" and ".join(lines))  # the play named by every line it made, the bad ones said
    problem = "; ".join(re.escape(letters) + r" \((across|down)\) is not a word" for letters in bad)
    verdicts = {
        challenger: rf"Your challenge was upheld\. {names[mover]}'s play {line} is withdrawn: {problem}\. "
        rf"The tiles go back to {names[mover]}'s rack and the {points} points? it scored are taken off\.",
        mover: rf"{names[challenger]}'s challenge was upheld\. Your play {line} is withdrawn: {problem}\. "
        rf"The tiles go back to your rack and the {points} points? it scored are taken off\.",
    }
    for seat, verdict in verdicts.items():
        pages[seat].wait_for_function(CHALLENGED, arg=LAST)
        said = pages[seat].locator(LAST).inner_text()
        assert re.fullmatch(verdict, said), said
        says(pages[seat], said)
        assert "player " not in said and "(you)" not in said
    watch.wait_for_function(CHALLENGED, arg=LAST)
    watched = f"{names[challenger]}'s challenge was upheld. {names[mover]}'s play"
    assert watch.locator(LAST).inner_text().startswith(watched)
    assert pages[challenger].locator("#bop-feedback").inner_text() == ""
    shot(pages[mover], tmp_path, "bop-challenged-player")
    shot(pages[challenger], tmp_path, "bop-challenger")


def test_the_last_play_names_its_lines_with_an_example_word(
    phones: Any, tables: Any, live_server: str, tmp_path: Path
) -> None:
    """Strict mode against a bot: after its play, the play screen says which lines it made, each
    with a word it stands for, and how many points (the score sheet's example words, on the screen)."""
    made = match_with_bots(live_server, "bop")
    home = seat_phone(phones("Ann"), made)
    table, seat = tables(made["match"]), made["seat"]
    table.tokens[seat] = made["token"]
    if table.body()["view"]["current"] == seat:  # Ann is first: she passes, the bot plays
        your_turn(home)
        home.locator("#bop-pass").click()
        home.locator("#bop-pass-confirm").click()
    for _ in range(100):  # the bot's play is in (it answers at once, but not within the pass's answer)
        step = last_step(table)
        if step["seat"] == 1 - seat:
            break
        time.sleep(0.15)
    assert step["seat"] == 1 - seat and re.match(r"-?\d+,-?\d+", step["move"]), step  # the bot's play
    named = " and ".join(line_said(table, item) for item in step["breakdown"]["items"] if item["kind"] == "line")
    total = step["breakdown"]["total"]
    bot = home.evaluate("(seat) => window.tablejudgeMatch.body.seats[seat].name", 1 - seat)  # as its card names it
    expected = f"{bot} played {named} for {total} point{'s' if total != 1 else ''}."
    try:
        home.wait_for_function("([sel, text]) => document.querySelector(sel)?.textContent === text",
                               arg=[LAST, expected])  # fmt: skip
    except Exception:
        raise AssertionError(f"{home.locator('#bop-last').inner_text()!r} is not {expected!r}") from None
    assert home.locator(LAST).is_visible()
    shot(home, tmp_path, "bop-last-play-strict")


INSIDE = """() => {
  const frame = document.querySelector('.grid-scroll').getBoundingClientRect();
  return [...document.querySelectorAll('.grid .cell.filled')].every((cell) => {
    const box = cell.getBoundingClientRect();
    return box.left >= frame.left - 1 && box.right <= frame.right + 1
      && box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1;
  });
}"""

CENTRED = """() => {
  const frame = document.querySelector('.grid-scroll').getBoundingClientRect();
  const boxes = [...document.querySelectorAll('.grid .cell.filled')].map((cell) => cell.getBoundingClientRect());
  const middle = (low, high) => (Math.min(...low) + Math.max(...high)) / 2;
  const x = middle(boxes.map((b) => b.left), boxes.map((b) => b.right));
  const y = middle(boxes.map((b) => b.top), boxes.map((b) => b.bottom));
  return Math.abs(x - (frame.left + frame.right) / 2) < 30 && Math.abs(y - (frame.top + frame.bottom) / 2) < 30;
}"""


@pytest.mark.slow
def test_a_board_wider_than_the_phone_opens_whole_and_comes_back_whole(
    phones: Any, tables: Any, live_server: str, tmp_path: Path
) -> None:
    """Mid-game, the tiles spread wider than the phone at full size: the page opens centred on all of
    them (not on the last play), its squares still 44 px targets; after panning away "The whole board"
    brings every tile into the frame (as the fixed boards' ⤢ does), the letters still 12 px or more."""
    made = match_with_bots(live_server, "bop")
    table, seat = tables(made["match"]), made["seat"]
    table.tokens[seat] = made["token"]
    for _ in range(30):
        board = table.body()["view"]["board"]
        columns = max(c for _, c, _ in board) - min(c for _, c, _ in board) + 1 if board else 0
        rows = max(r for r, _, _ in board) - min(r for r, _, _ in board) + 1 if board else 0
        if max(columns, rows) * 46 > 400:  # wider (or taller) than a 360-wide phone shows at full size
            break
        body = table.body(made["token"])
        if body["view"]["current"] != seat:
            time.sleep(0.15)  # the bot's answer
            continue
        plays = table.legal_plays(seat)
        move = max(plays, key=len) if plays else "pass"
        answer = table.http.post(f"/v1/matches/{table.match}/moves", json={"move": move, "version": body["version"]},
                                 headers=table.auth(seat))  # fmt: skip
        assert answer.status_code == 200, answer.text
    else:
        raise AssertionError("the board never grew wider than the phone")
    home = seat_phone(phones("Ann"), made)
    home.wait_for_selector(".grid .cell.filled")
    home.wait_for_function(CENTRED)
    assert home.evaluate("document.querySelector('.grid .cell').getBoundingClientRect().width") >= 44
    shot(home, tmp_path, "bop-wide-board-opened")
    home.evaluate("document.querySelector('.grid-scroll').scrollTo(0, 0)")
    home.get_by_role("button", name="Zoom in").click()
    home.get_by_role("button", name="Zoom in").click()
    assert not home.evaluate(INSIDE)
    home.get_by_role("button", name="The whole board").click()
    home.wait_for_function(INSIDE)
    letter = "parseFloat(getComputedStyle(document.querySelector('.grid .cell.filled .t-letter')).fontSize)"
    assert home.evaluate(letter) >= 12
    shot(home, tmp_path, "bop-wide-board-whole")

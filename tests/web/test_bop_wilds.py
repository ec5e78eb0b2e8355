"""Issue 26, "wilds show what they stand for, in play and in replay": a BOP! tile played is drawn as the
consonant the engine says it stands for (RULINGS.md 29, the view's ``stands_for``) on the live board,
in the score sheet's words, in the replay's pictures and in the review.

Two people at a table with a pass limit of 4: the test moves both seats over HTTP (best word plays)
until one of them holds a BOP! tile and can play it, plays it, reads Ann's page, then passes four times
so that the game ends and the replay can be stepped to that play.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import busy
from tests.web.conftest import Phone
from tests.web.pages import PLAY, shot
from tests.web.test_push_page import seat_script

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]

#: Each BOP! tile on the live board that the page draws as a consonant: [square, the letter shown, its label].
STANDING = """[...document.querySelectorAll('.grid .cell')].filter((cell) => cell.querySelector('.t-bop.lt-stands'))
  .map((cell) => [cell.dataset.cell, cell.querySelector('.t-letter').textContent, cell.getAttribute('aria-label')])"""
#: The letters the replay's picture draws on its BOP! tiles (standing for a consonant, or "?").
REPLAY_BOP = "[...document.querySelectorAll('.replay-board .t-bop .t-letter')].map((e) => e.textContent).sort()"


class Table:
    """A BOP! match for Ann (seat 0) and Bob (seat 1), both seats' tokens held by the test."""

    def __init__(self, base: str) -> None:
        self.http = busy.client(base)
        made = self.http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann",
                                                    "options": {"pass_limit": 4}}).json()  # fmt: skip
        self.match = made["match"]
        joined = self.http.post(f"/v1/matches/{self.match}/join", json={"invite": made["invite"], "name": "Bob"})
        self.tokens = {0: made["token"], 1: joined.json()["token"]}

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def body(self, seat: int = 0) -> dict[str, Any]:
        return dict(self.http.get(f"/v1/matches/{self.match}", headers=self.auth(seat)).json())

    def move(self, seat: int, move: str) -> int:
        version = self.body(seat)["version"]
        answer = self.http.post(f"/v1/matches/{self.match}/moves", json={"move": move, "version": version},
                                headers=self.auth(seat))  # fmt: skip
        assert answer.status_code == 200, answer.text
        return int(version) + 1

    def play_a_bop_tile(self) -> int:
        """Best word plays (or passes) by whoever is on turn until a play with a BOP! tile is legal;
        plays it and returns its version."""
        for _ in range(60):
            body = self.body()
            assert body["status"] == "playing", "the game ended before a BOP! tile was played"
            seat = body["view"]["current"]
            listed = self.http.get(f"/v1/matches/{self.match}/legal", params={"limit": 5000}, headers=self.auth(seat))
            plays = [move for move in listed.json()["moves"] if PLAY.fullmatch(move)]
            with_bop = [move for move in plays if "?" in move.split()[1]]
            if with_bop:
                return self.move(seat, with_bop[0])
            self.move(seat, plays[0] if plays else "pass")
        raise AssertionError("no BOP! tile came to a hand in 60 moves")


@pytest.fixture
def table(live_server: str) -> Iterator[Table]:
    made = Table(live_server)
    yield made
    made.http.close()


def test_a_played_bop_tile_shows_its_consonant_in_play_and_in_the_replay(
    phones: Callable[[str], Phone], table: Table, tmp_path: Path
) -> None:
    ann = phones("Ann")
    ann.context.add_init_script(seat_script(table.match, table.tokens[0], 0))
    page = ann.open(f"/play/{table.match}")
    page.wait_for_selector(".grid .cell")
    played = table.play_a_bop_tile()
    page.wait_for_function(f"window.tablejudgeMatch.body.version >= {played}")

    # In play: each BOP! tile the engine reads is drawn as its consonant, and named so.
    stands = {f"{r},{c}": letter for r, c, letter in table.body()["view"]["stands_for"]}
    assert stands, "the BOP! tile played stands for a consonant"
    page.wait_for_function(f"{STANDING}.length === {len(stands)}")
    shown = page.evaluate(STANDING)
    shot(page, tmp_path, "bop-tile-in-play")
    assert {square: letter for square, letter, _ in shown} == stands
    for square, letter, label in shown:
        assert f"BOP! tile standing for {letter}" in label, (square, label)
    # The score sheet reads the line by it, the tile's letter in italics as on the board:
    # "DBCHS (the BOP! tile as D): debouches, ..." for ?BCHS.
    turns = table.http.get(f"/v1/matches/{table.match}/turns", headers=table.auth(0)).json()["turns"]
    lines = [item for item in turns[-1]["breakdown"]["items"] if item.get("reading")]
    assert lines, "the play's lines through the BOP! tile carry what it stood for"
    laid, reading = lines[0]["label"].split()[-1], lines[0]["reading"]
    stood = [read for letter, read in zip(laid, reading, strict=True) if letter == "?"]
    said = f"{reading} (the BOP! tile as {stood[0]})" if len(stood) == 1 else f"{reading} (the BOP! tiles as "
    row = "[...document.querySelectorAll('.sheet-list > li')].find((row) => row.textContent.includes('(the BOP! til'))"
    page.wait_for_function(f"{row}?.textContent.includes({json.dumps(said)})")
    assert page.evaluate(f"[...{row}.querySelectorAll('i.bop-as')].map((e) => e.textContent)")[: len(stood)] == stood

    # Four passes in a row end the game (the table's pass limit); the replay steps back to the play.
    for _ in range(4):
        seat = table.body()["view"]["current"]
        table.move(seat, "pass")
    page.wait_for_selector("#replay-step")
    replayed = table.http.get(f"/v1/matches/{table.match}/replay", params={"version": played}).json()
    letters = sorted(letter for _, _, letter in replayed["view"]["stands_for"])
    bop_tiles = sum(tile == "?" for _, _, tile in replayed["view"]["board"])
    page.locator("#replay-step").fill(str(played))
    page.wait_for_function(
        f"document.querySelector('.replay-caption')?.textContent.startsWith('Move {played} of')"
    )
    expected = sorted(letters + ["?"] * (bop_tiles - len(letters)))
    page.wait_for_function(f"JSON.stringify({REPLAY_BOP}) === JSON.stringify({expected!r})".replace("'", '"'))
    assert page.locator(".replay-board .t-bop.lt-stands").count() == len(letters)
    shot(page, tmp_path, "bop-tile-in-replay")

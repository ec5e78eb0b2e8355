"""What the Q!nto and D!Git browser tests share (``test_qnto.py``, ``test_digit.py``), as their boards
share ``games/linegrid.js``: the moves a person makes, tapped; the server's side of the match, for
the test to know what a player at the table would see and what the engine says about a move.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.linegames.tiles import is_wild
from tests.web.test_play import Table

PLAY = re.compile(r"(-?\d+),(-?\d+)([ad]?)\s+(\S+)")
Cell = tuple[int, int]


def placements(move: str) -> list[tuple[str, str]]:
    """``"-1,-2a Sy?r.Sk"`` -> ``[("-1,-2", "Sy"), ("-1,-1", "?r"), ("-1,1", "Sk")]``."""
    found = PLAY.fullmatch(move)
    assert found is not None, move
    row, col, down = int(found[1]), int(found[2]), found[3] == "d"
    tokens = re.findall(r"\.|[^.]{2}", found[4])
    return [(f"{row + i},{col}" if down else f"{row},{col + i}", tile) for i, tile in enumerate(tokens) if tile != "."]


def cell_of(square: str) -> Cell:
    """``"-1,2"`` -> ``(-1, 2)``."""
    row, col = square.split(",")
    return int(row), int(col)


def swap_steps(move: str) -> list[tuple[str, str]]:
    """``"swap 0,-2 Hy"`` -> ``[("0,-2", "Hy")]``."""
    words = move.split()
    assert words[0] == "swap", move
    return list(zip(words[1::2], words[2::2], strict=True))


def is_play(move: str) -> bool:
    return not move.startswith(("swap", "pass"))


def board_of(body: dict[str, Any]) -> dict[Cell, str]:
    return {(r, c): tile for r, c, tile in body["view"]["board"]}


def tap(page: Any, move: str) -> None:
    """Place a play's tiles by tapping: a tile in the hand, then its square."""
    for square, tile in placements(move):
        page.locator(f".lg-hand .rack-tile[data-tile='{tile}']:not(.used)").first.click()
        page.locator(f".cell[data-cell='{square}']").click()


def tap_swap(page: Any, move: str) -> None:
    """Swap by tapping: a tile in the hand, then the wild on the grid."""
    for square, tile in swap_steps(move):
        page.locator(f".lg-hand .rack-tile[data-tile='{tile}']").first.click()
        page.locator(f".cell[data-cell='{square}']").click()


def feedback(page: Any, key: str, text: str) -> None:
    """Wait until the board's feedback line (its role=alert) says ``text``."""
    said = f"document.getElementById('{key}-feedback').textContent"
    page.wait_for_function(f"{said} === {json.dumps(text)}")


def moved_on(page: Any, version: int) -> None:
    """Wait until the page has seen the match pass ``version``."""
    page.wait_for_function(f"window.tablejudgeMatch.body.version > {version}")


def shown_breakdown(page: Any, where: str) -> list[tuple[str, int | None]]:
    """A breakdown as the page shows it: (label, points) per item, points None where none are shown."""
    items = page.locator(f"{where} .breakdown li:not(.b-total)")
    found = []
    for i in range(items.count()):
        item = items.nth(i)
        points = item.locator(".b-points")
        label = item.locator(".b-label").evaluate(AS_NOTATION)
        found.append((label, int(points.inner_text()) if points.count() else None))
    return found


#: A label as the page draws it, its tiles (pictures, each named) read back as the engine writes them.
AS_NOTATION = """(label) => {
  const copy = label.cloneNode(true);
  for (const tiles of copy.querySelectorAll('[data-tiles]')) tiles.replaceWith(tiles.dataset.tiles);
  return copy.textContent;
}"""


def expected_breakdown(breakdown: dict[str, Any], scored: bool) -> list[tuple[str, int | None]]:
    """The engine's breakdown as the page shows it: a swap's square is left to the grid ("swap 0,3" is "swap")."""
    return [(re.sub(r"^swap -?\d+,-?\d+$", "swap", item["label"]), item["points"] if scored else None)
            for item in breakdown["items"]]  # fmt: skip


def hand_shown(page: Any) -> list[str]:
    return sorted(page.locator(".lg-hand .rack-tile").evaluate_all("(tiles) => tiles.map((t) => t.dataset.tile)"))


class Game:
    """The match from the server's side, for the test to find the moves a person would make."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def body(self, seat: int | None = None) -> dict[str, Any]:
        return self.table.body(None if seat is None else self.table.tokens[seat])

    def hand(self, seat: int) -> list[str]:
        return list(self.body(seat)["view"]["hands"][seat])

    def legal(self, seat: int) -> list[str]:
        answer = self.table.http.get(f"/v1/matches/{self.table.match}/legal", params={"limit": 5000},
                                     headers=self.table.auth(seat))  # fmt: skip
        assert answer.status_code == 200, answer.text
        return list(answer.json()["moves"])

    def preview(self, seat: int, move: str) -> dict[str, Any]:
        """The engine's breakdown of a move (the server's /preview): what the page must show."""
        answer = self.table.http.post(f"/v1/matches/{self.table.match}/preview", json={"move": move},
                                      headers=self.table.auth(seat))  # fmt: skip
        assert answer.status_code == 200, answer.text
        return dict(answer.json()["breakdown"])

    def refusal(self, seat: int, move: str) -> dict[str, Any] | None:
        """The engine's refusal of a move ({code, rule, message}), or None if it would be played."""
        answer = self.table.http.post(f"/v1/matches/{self.table.match}/preview", json={"move": move},
                                      headers=self.table.auth(seat))  # fmt: skip
        return dict(answer.json()["error"]) if answer.status_code == 422 else None

    def move(self, seat: int, move: str) -> None:
        """A move made from the seat's own token over HTTP (moving the game on between tapped turns)."""
        version = self.body()["version"]
        answer = self.table.http.post(f"/v1/matches/{self.table.match}/moves", json={"move": move, "version": version},
                                      headers=self.table.auth(seat))  # fmt: skip
        assert answer.status_code == 200, answer.text

    def refused_play(self, seat: int) -> tuple[str, dict[str, Any]]:
        """Two hand tiles beside a tile on the grid that make no line with it (the engine's reason), or,
        on the empty grid, a tile off the centre; failing both, two tiles with a gap between them."""
        board = board_of(self.body())
        hand = self.hand(seat)
        if not board:
            move = f"1,1 {hand[0]}"
            refusal = self.refusal(seat, move)
            assert refusal is not None and refusal["rule"] == "off_centre", refusal
            return move, refusal
        gaps = []
        for r, c in sorted(board):
            for code, (dr, dc) in (("a", (0, 1)), ("d", (1, 0))):
                ahead = [(r + i * dr, c + i * dc) for i in (1, 2, 3, 4)]
                behind = (r - dr, c - dc)
                if any(cell in board for cell in ahead) or behind in board:
                    continue
                for i, one in enumerate(hand):
                    for j, two in enumerate(hand):
                        if i == j:
                            continue
                        move = f"{r + dr},{c + dc}{code} {one}{two}"
                        refusal = self.refusal(seat, move)
                        if refusal is not None and refusal["rule"] == "not_a_line":
                            return move, refusal
                gaps.append(f"{r + dr},{c + dc}{code} {hand[0]}.{hand[1]}")
        for move in gaps:
            refusal = self.refusal(seat, move)
            if refusal is not None and refusal["rule"] == "gap":
                return move, refusal
        raise AssertionError("no refused play found")

    def seeding_play(self, seat: int, moves: list[str]) -> str:
        """A move to take the game on that may leave a swap for the next player: one wild alone beside
        the grid if the hand holds one, else the first play listed, else the pass trading the most."""
        plays = [move for move in moves if is_play(move)]
        lone = [move for move in plays if len(placements(move)) == 1 and is_wild(placements(move)[0][1])]
        if lone or plays:
            return (lone or plays)[0]
        return max((move for move in moves if move.startswith("pass")), key=len)


@pytest.fixture
def tables(live_server: str) -> Iterator[Callable[[str], Table]]:
    made: list[Table] = []

    def table(match: str) -> Table:
        made.append(Table(live_server, match))
        return made[-1]

    yield table
    for each in made:
        each.http.close()

"""What the Q!nto and D!Git browser tests share (``test_qnto.py``, ``test_digit.py``), as their boards
share ``games/linegrid.js``: the moves a person makes, tapped; the server's side of the match, for
the test to know what a player at the table would see and what the engine says about a move; the
steps both tests take alike (hidden hands, the wilds listed, a swap tapped and seen, the page's
reading of lines and plays set beside the engine's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from engine.linegames.grid import ORTHOGONAL, run_through
from engine.linegames.movegen import generate_plays
from engine.linegames.moves import Play
from engine.linegames.solver import LineSolver
from engine.linegames.tiles import is_wild
from tests.web.conftest import tables as tables  # noqa: F401  (the fixture, now in conftest.py; kept importable)
from tests.web.pages import Game as TableGame
from tests.web.pages import feedback, moved_on, placements_of

Cell = tuple[int, int]
BODY = "window.tablejudgeMatch.body"
HANDS = f"{BODY}.view.hands"


def placements(move: str) -> list[tuple[str, str]]:
    """``"-1,-2a Sy?r.Sk"`` -> ``[("-1,-2", "Sy"), ("-1,-1", "?r"), ("-1,1", "Sk")]``."""
    return placements_of(move, r"[^.]{2}")


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


class Game(TableGame):
    """The match from the server's side, for the test to find the moves a person would make."""

    def preview(self, seat: int, move: str) -> dict[str, Any]:
        """The engine's breakdown of a move (the server's /preview): what the page must show."""
        answer = self.asked(seat, move)
        assert answer.status_code == 200, answer.text
        return dict(answer.json()["breakdown"])

    def refusal(self, seat: int, move: str) -> dict[str, Any] | None:
        """The engine's refusal of a move ({code, rule, message}), or None if it would be played."""
        answer = self.asked(seat, move)
        return dict(answer.json()["error"]) if answer.status_code == 422 else None

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



def hands_hidden(pages: dict[int, Any], watch: Any, game: Game, size: int = 5) -> None:
    """Each phone shows its own hand and only the size of the other's; the spectator sees sizes only."""
    for seat, page in pages.items():
        page.wait_for_selector(".lg-hand .rack-tile")
        assert hand_shown(page) == sorted(game.hand(seat))
        assert page.evaluate(HANDS)[1 - seat] == size
    assert watch.locator(".lg-hand").inner_text().startswith("You are watching")
    assert watch.evaluate(HANDS) == [size, size] and watch.locator(".lg-hand .rack-tile").count() == 0


def wilds_said(page: Any, key: str, board: dict[Cell, str], stands_for: Callable[[dict[Cell, str], Cell], str]) -> None:
    """The wilds on the grid, listed (``#KEY-wilds``), each with what the engine says it stands for."""
    page.locator(f"#{key}-wilds summary").click()
    wilds = sorted(cell for cell, tile in board.items() if is_wild(tile))
    said = page.locator(f"#{key}-wilds li").all_inner_texts()
    assert len(said) == len(wilds)
    for (r, c), text in zip(wilds, said, strict=True):
        assert text.endswith(f"row {r}, column {c}: {stands_for(board, (r, c))}"), text


def tap_the_swap(page: Any, key: str, game: Game, mover: int, swap: str, board: dict[Cell, str],
                 scored: bool) -> tuple[str, str, str]:  # fmt: skip
    """The swap tapped (the hand tile, then the wild): the engine's breakdown shown first, the button
    says "Swap", the wild is shown taken into the hand. (the square, the tile put down, the wild taken)"""
    [(square, tile)] = swap_steps(swap)
    wild = board[cell_of(square)]
    expected = game.preview(mover, swap)
    tap_swap(page, swap)
    page.wait_for_selector(f"#{key}-preview .breakdown")
    assert page.locator(f"#{key}-preview .preview-head").inner_text() == "This swap:"
    assert shown_breakdown(page, f"#{key}-preview") == expected_breakdown(expected, scored=scored)
    assert page.locator(f"#{key}-play").inner_text() == "Swap"
    assert page.locator(f".lg-hand .rack-tile.taken[data-tile='{wild}']").count() == 1
    return square, tile, wild


def swap_seen(page: Any, key: str, game: Game, mover: int, swapped: tuple[str, str, str], name: str,
              pages: dict[int, Any], watch: Any) -> None:  # fmt: skip
    """The tapped swap sent: the mover holds the wild; the other phone and the spectator see the tile
    (``name``: its words) arrive on the square and the sheet say so; the hands still hidden."""
    square, _, wild = swapped
    before = game.body()["version"]
    page.locator(f"#{key}-play").click()
    feedback(page, key, "You swapped")
    moved_on(page, before)
    assert hand_shown(page) == sorted(game.hand(mover)) and wild in game.hand(mover)
    for other in (pages[1 - mover], watch):
        said = f"document.querySelector(\".cell[data-cell='{square}']\")?.getAttribute('aria-label')"
        other.wait_for_function(f"{said}?.includes({json.dumps(name)})")  # the swap arrived
        other.wait_for_selector(f".cell.filled.last[data-cell='{square}']")
        other.wait_for_function("document.querySelector('.sheet-list > li')?.textContent.includes('swapped')")
    for seat, each in pages.items():
        assert hand_shown(each) == sorted(game.hand(seat))
        assert isinstance(each.evaluate(HANDS)[1 - seat], int)


def runs_on(boards: list[dict[Cell, str]]) -> list[list[str]]:
    """Every run of two or more tiles on the grids, across and down, as its tiles."""
    runs = []
    for board in boards:
        for cell in board:
            for direction in ORTHOGONAL:
                run = run_through(board, cell, direction)
                if len(run) >= 2 and run[0] == cell:
                    runs.append([board[c] for c in run])
    return runs


def reading_cases(solver: LineSolver, box: list[str], boards: list[dict[Cell, str]], lines: list[list[str]],
                  texts: list[str]) -> tuple[list[Play], dict[str, Any]]:  # fmt: skip
    """Plays on the first two grids (of tiles not on them), and what the page is given to read: the
    ``lines`` (and every run on the grids, added to them), the grids, those plays by cell, and their
    notation with ``texts`` after it."""
    lines += runs_on(boards)
    plays = []
    for board in boards[:2]:
        rest = [tile for tile in box if tile not in board.values()]
        plays += generate_plays(solver, board, rest[:5])[:40]
    return plays, {
        "lines": lines,
        "boards": [[[r, c, tile] for (r, c), tile in sorted(board.items())] for board in boards],
        "plays": [[[r, c, tile] for (r, c), tile in play.placements] for play in plays],
        "texts": [play.to_text() for play in plays] + texts,
    }


def read_as_the_engine(found: dict[str, Any], solver: LineSolver, lines: list[list[str]], plays: list[Play],
                       others: int) -> None:  # fmt: skip
    """The page's reading (``found``) is the engine's: which runs are lines (some are, some not), the
    notation of each play both ways, and ``others`` texts that are no play."""
    assert found["lines"] == [solver.line_ok(tuple(line)) for line in lines]
    assert 0 < sum(found["lines"]) < len(lines)
    assert plays and found["texts"] == [play.to_text() for play in plays]
    assert found["read"][: len(plays)] == [[[r, c, tile] for (r, c), tile in play.placements] for play in plays]
    assert found["read"][len(plays) :] == [None] * others


def reading_script(game: str, wild: str) -> str:
    """The page's own reading of ``reading_cases``, run in the browser: games/linerules.js and the game's
    module (``games/GAME.js``, named ``game`` in the script) read which runs are lines, what each wild
    on each grid stands for (``wild``: an expression of ``board``, a Map, and ``where``, its cell), and
    the notation of plays both ways."""
    return """async (cases) => {
  const lg = await import('/static/play/games/linerules.js');
  const game = await import('/static/play/games/GAME.js');
  const sorted = (set) => [...set].sort();
  return {
    lines: cases.lines.map((tiles) => lg.lineOk(game.RULE, tiles)),
    wilds: cases.boards.map((pairs) => {
      const board = new Map(pairs.map(([r, c, t]) => [`${r},${c}`, t]));
      return pairs.filter(([, , t]) => t.includes('?')).map(([r, c]) => `${r},${c}`).map((where) => WILD);
    }),
    texts: cases.plays.map((pairs) => lg.playText(new Map(pairs.map(([r, c, tile]) => [`${r},${c}`, { tile }])))),
    read: cases.texts.map((text) => lg.playPlacements(text, game.KIT)),
  };
}""".replace("GAME", game).replace("WILD", wild)

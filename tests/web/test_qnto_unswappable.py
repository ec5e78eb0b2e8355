"""The Q!nto board says "unswappable" where the engine does, and refuses a swap there in the engine's
words (issue 28, RULINGS.md 23): the page's reading of each wild against ``engine.qnto.rules.unswappable``
on seeded grids and on the sheet's heart wild."""

from __future__ import annotations

from typing import Any

import pytest

from engine.linegames.grid import format_cell, parse_board
from engine.linegames.movegen import random_board
from engine.linegames.rules import UNSWAPPABLE
from engine.linegames.tiles import is_wild
from engine.qnto.options import KIT, QntoOptions
from engine.qnto.rules import SOLVER, unswappable
from engine.qnto.text import wild_lines

pytestmark = [pytest.mark.browser, pytest.mark.server]

READ = """async (boards) => {
  const lg = await import('/static/play/games/linerules.js');
  const qnto = await import('/static/play/games/qnto.js');
  return {
    words: qnto.UNSWAPPABLE,
    boards: boards.map((pairs) => {
      const board = new Map(pairs.map(([r, c, t]) => [`${r},${c}`, t]));
      return pairs.filter(([, , t]) => t.includes('?')).map(([r, c]) => {
        const reading = lg.standsForPerLine(qnto.RULE, qnto.KIT, board, `${r},${c}`);
        return [qnto.unswappable(reading), qnto.swapRefusal(reading)];
      });
    }),
  };
}"""


def test_the_page_calls_a_wild_unswappable_where_the_engine_does(phones: Any) -> None:
    heart = parse_board(". Sk ./Sg H? Dg/. Dk .", KIT)  # the sheet's example: green heart across, black down
    box = QntoOptions().tile_set()
    boards = [heart, *(random_board(SOLVER, box, seed, 24)[0] for seed in (2, 5, 13, 21, 34))]
    page = phones("Ann").open("/play")
    page.wait_for_selector("#create")
    found = page.evaluate(READ, [[[r, c, tile] for (r, c), tile in sorted(board.items())] for board in boards])
    assert found["words"] == UNSWAPPABLE
    seen = 0
    for board, read in zip(boards, found["boards"], strict=True):
        wilds = sorted(cell for cell, tile in board.items() if is_wild(tile))
        expected = [unswappable(board, cell) for cell in wilds]
        assert [verdict for verdict, _ in read] == expected
        for (verdict, refusal), cell in zip(read, wilds, strict=True):
            assert (refusal == f"No swap: {UNSWAPPABLE}.") if verdict else refusal is None
            said = [line for line in wild_lines(board) if line.strip().startswith(f"{format_cell(cell)} ")]
            assert ("unswappable" in said[0]) == verdict  # the CLI's text says the same
        seen += sum(expected)
    assert read and seen >= 1 and found["boards"][0][0][0] is True

"""BOP!'s grid: the grid core's (``engine.linegames.grid``: cells, lines, the board as text) with
BOP!'s own play geometry (``play_lines``), letters of a line and tiles read back.

The grid is unbounded; cells are ``(row, column)`` with the starter tile at ``(0, 0)``, rows
growing downwards and columns to the right. A board is a dict ``cell -> tile``.

>>> board = {(0, 0): "Hy", (-1, 0): "Sb", (-1, -1): "Rk"}
>>> print(format_board(board))
     -1  0
 -1  Rk Sb
  0   . Hy
>>> parse_board(format_board(board)) == board
True
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.bop.options import BOP, TILE, parse_tiles
from engine.errors import IllegalMoveError
from engine.linegames.grid import (
    ACROSS,
    DOWN,
    NEIGHBOURS,
    OTHER,
    STEPS,
    Board,
    Cell,
    Line,
    bounds,
    format_cell,
    lines_through,
    play_direction,
    run_through,
    square_words,
)
from engine.linegames.grid import format_board as format_grid
from engine.linegames.grid import parse_board as parse_grid

__all__ = [
    "ACROSS", "DOWN", "NEIGHBOURS", "OTHER", "STEPS", "Board", "Cell", "Line", "bop_cells", "bounds", "format_board",
    "format_cell", "line_letters", "lines_through", "parse_board", "play_direction", "play_lines", "run_through",
]  # fmt: skip


def play_lines(board: Mapping[Cell, str], placements: Mapping[Cell, str]) -> list[Line]:
    """Every line the play creates or extends (main line first), after checking its geometry.

    Raises IllegalMoveError: ``occupied``, ``not_in_line``, ``gap`` (the played tiles and the tiles
    between them must make one unbroken run), ``not_connected``.
    """
    cells = sorted(placements)
    for cell in cells:
        if cell in board:
            raise IllegalMoveError("occupied", f"the square at {square_words(cell)} already holds a tile")
    direction = play_direction(cells)
    after = {**board, **placements}
    if direction is not None:
        main = run_through(after, cells[0], direction)
        if cells[-1] not in main:
            raise IllegalMoveError("gap", "the played tiles, with the tiles between them, must make one unbroken line")
    if board and not any((r + dr, c + dc) in board for r, c in cells for dr, dc in NEIGHBOURS):
        raise IllegalMoveError("not_connected", "the play must connect to tiles already on the grid")
    if direction is None:
        return lines_through(after, cells[0])
    lines = []
    if len(main) >= 2:
        lines.append(Line(direction, main))
    cross = OTHER[direction]
    for cell in cells:
        run = run_through(after, cell, cross)
        if len(run) >= 2:
            lines.append(Line(cross, run))
    return lines


def line_letters(tiles: Mapping[Cell, str], line: Line) -> str:
    """The line as BOP! letters, ``?`` for a BOP! tile: ``"C?WB"``."""
    return "".join(tiles[cell][0] for cell in line.cells)


# --- text: the grid core's, BOP!'s tiles right-aligned ------------------------------------------
def format_board(board: Mapping[Cell, str], margin: int = 0) -> str:
    """The board as text: a header of column numbers, then each row's number and tiles (``.`` empty)."""
    return format_grid(board, margin, align=">")


def _board_tile(token: str) -> str | None:
    return parse_tiles(token)[0] if TILE.fullmatch(token) else None


def parse_board(text: str) -> Board:
    """Read :func:`format_board`'s output, or a bare grid of tiles and dots (top-left is 0,0);
    rows are lines, or split by ``/`` (``"Fk Rb Sb/. . Hy"``)."""
    return parse_grid(text, _board_tile, hint=" (Sy, ?)")


def bop_cells(tiles: Mapping[Cell, str]) -> list[Cell]:
    return sorted(cell for cell, tile in tiles.items() if tile == BOP)

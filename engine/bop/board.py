"""The grid: cells, lines through a play, and the ASCII board (printed and read back).

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
from dataclasses import dataclass

from engine.bop.tiles import BOP, TILE, parse_tiles
from engine.errors import IllegalMoveError, NotationError

Cell = tuple[int, int]
Board = dict[Cell, str]

ACROSS, DOWN = "across", "down"
STEPS: dict[str, Cell] = {ACROSS: (0, 1), DOWN: (1, 0)}
OTHER = {ACROSS: DOWN, DOWN: ACROSS}
NEIGHBOURS: tuple[Cell, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))


@dataclass(frozen=True)
class Line:
    """A run of two or more tiles in a row (across) or column (down), in reading order."""

    direction: str
    cells: tuple[Cell, ...]

    def __len__(self) -> int:
        return len(self.cells)


def run_through(tiles: Mapping[Cell, str], cell: Cell, direction: str) -> tuple[Cell, ...]:
    """The maximal run of occupied cells through ``cell`` (which must be occupied) in a direction."""
    dr, dc = STEPS[direction]
    r, c = cell
    start = 0
    while (r + (start - 1) * dr, c + (start - 1) * dc) in tiles:
        start -= 1
    end = 0
    while (r + (end + 1) * dr, c + (end + 1) * dc) in tiles:
        end += 1
    return tuple((r + i * dr, c + i * dc) for i in range(start, end + 1))


def lines_through(tiles: Mapping[Cell, str], cell: Cell) -> list[Line]:
    """The lines (2+ tiles) through an occupied cell: across first, then down."""
    lines = []
    for direction in (ACROSS, DOWN):
        run = run_through(tiles, cell, direction)
        if len(run) >= 2:
            lines.append(Line(direction, run))
    return lines


def play_direction(cells: list[Cell]) -> str | None:
    """ACROSS or DOWN for two or more cells in one row or column; None for a single cell."""
    if len(cells) == 1:
        return None
    if len({r for r, _ in cells}) == 1:
        return ACROSS
    if len({c for _, c in cells}) == 1:
        return DOWN
    raise IllegalMoveError("not_in_line", "all tiles played on a turn must be in a single row or column")


def play_lines(board: Mapping[Cell, str], placements: Mapping[Cell, str]) -> list[Line]:
    """Every line the play creates or extends (main line first), after checking its geometry.

    Raises IllegalMoveError: ``occupied``, ``not_in_line``, ``gap`` (the played tiles and the tiles
    between them must make one unbroken run), ``not_connected``.
    """
    cells = sorted(placements)
    for cell in cells:
        if cell in board:
            raise IllegalMoveError("occupied", f"cell {format_cell(cell)} already holds a tile")
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


# --- text ----------------------------------------------------------------------------------------
def format_cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def bounds(board: Mapping[Cell, str]) -> tuple[int, int, int, int]:
    rows = [r for r, _ in board] or [0]
    cols = [c for _, c in board] or [0]
    return min(rows), max(rows), min(cols), max(cols)


def format_board(board: Mapping[Cell, str], margin: int = 0) -> str:
    """The board as text: a header of column numbers, then each row's number and tiles (``.`` empty)."""
    top, bottom, left, right = bounds(board)
    top, bottom, left, right = top - margin, bottom + margin, left - margin, right + margin
    label = max(len(str(top)), len(str(bottom)), 2)
    lines = [" " * (label + 1) + " ".join(f"{c:>2}" for c in range(left, right + 1))]
    for r in range(top, bottom + 1):
        row = " ".join(f"{board.get((r, c), '.'):>2}" for c in range(left, right + 1))
        lines.append(f"{r:>{label}} {row}")
    return "\n".join(line.rstrip() for line in lines)


def parse_board(text: str) -> Board:
    """Read :func:`format_board`'s output, or a bare grid of tiles and dots (top-left is 0,0);
    rows are lines, or split by ``/`` (``"Fk Rb Sb/. . Hy"``)."""
    rows = [line.split() for line in text.replace("/", "\n").splitlines() if line.strip()]
    if not rows:
        raise NotationError("board: no rows")
    labelled = all(_is_int(token) for token in rows[0])
    columns = [int(t) for t in rows[0]] if labelled else None
    board: Board = {}
    for index, tokens in enumerate(rows[1:] if labelled else rows):
        if labelled:
            if not tokens or not _is_int(tokens[0]):
                raise NotationError(f"board row {index + 1}: expected a row number first")
            row, tokens = int(tokens[0]), tokens[1:]
        else:
            row = index
        cols = columns if columns is not None else list(range(len(tokens)))
        if len(tokens) > len(cols):
            raise NotationError(f"board row {row}: {len(tokens)} cells but {len(cols)} columns")
        for col, token in zip(cols, tokens, strict=False):
            if token == ".":
                continue
            if not TILE.fullmatch(token):
                raise NotationError(f"board cell {row},{col}: {token!r} is not a tile (Sy, ?) or '.'")
            board[(row, col)] = parse_tiles(token)[0]
    return board


def _is_int(token: str) -> bool:
    return token.lstrip("-").isdigit()


def bop_cells(tiles: Mapping[Cell, str]) -> list[Cell]:
    return sorted(cell for cell, tile in tiles.items() if tile == BOP)

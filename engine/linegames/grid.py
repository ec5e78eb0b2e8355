"""The grid of the line games: cells, runs of tiles, the geometry of a play, the board as text.

The grid is unbounded; cells are ``(row, column)``, rows growing downwards and columns to the
right; the first tile (a starter tile, or the first play's) is at ``(0, 0)``. A board is a dict
``cell -> tile``. A *line* is a maximal run of two or more tiles in one direction: "each line has a
space at either end", and "if there are gaps, it's not a line".

>>> board = {(0, 0): "9y", (0, 1): "??", (-1, 1): "8g", (1, 1): "0g"}
>>> print(format_board(board))
     0  1
 -1  .  8g
  0  9y ??
  1  .  0g
>>> parse_board(format_board(board), TileKit("0123456789", "ygrkb")) == board
True
>>> [line.cells for line in play_lines(board, [(-1, 1), (0, 1), (1, 1)])]
[((-1, 1), (0, 1), (1, 1)), ((0, 0), (0, 1))]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.errors import IllegalMoveError, NotationError
from engine.linegames.tiles import TileKit

Cell = tuple[int, int]
Board = dict[Cell, str]

ACROSS, DOWN, DIAGONAL, ANTIDIAGONAL = "across", "down", "diagonal", "antidiagonal"
#: One step along each direction: across is left to right, down top to bottom, the diagonal top-left
#: to bottom-right, the antidiagonal top-right to bottom-left.
STEPS: dict[str, Cell] = {ACROSS: (0, 1), DOWN: (1, 0), DIAGONAL: (1, 1), ANTIDIAGONAL: (1, -1)}
ORTHOGONAL: tuple[str, str] = (ACROSS, DOWN)
DIAGONALS: tuple[str, str] = (DIAGONAL, ANTIDIAGONAL)
OTHER = {ACROSS: DOWN, DOWN: ACROSS}
#: The cells that touch a cell: a tile connects to the grid only through these (not diagonally).
NEIGHBOURS: tuple[Cell, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
CENTRE: Cell = (0, 0)


@dataclass(frozen=True)
class Line:
    """A maximal run of tiles in one direction, in reading order (left to right, top to bottom)."""

    direction: str
    cells: tuple[Cell, ...]

    def __len__(self) -> int:
        return len(self.cells)

    def tiles(self, board: Mapping[Cell, str]) -> tuple[str, ...]:
        return tuple(board[cell] for cell in self.cells)

    def describe(self, board: Mapping[Cell, str]) -> str:
        """``"down 8g ?g 0g from -1,1"``: the notation, for programs and the command line."""
        return f"{self.direction} {' '.join(self.tiles(board))} from {format_cell(self.cells[0])}"

    def words(self, board: Mapping[Cell, str], name: Callable[[str], str]) -> str:
        """The line as a player reads it, each tile by its ``name``: ``"the line down of green 8, blank
        green tile, green 0"``."""
        return f"the line {self.direction} of {', '.join(name(tile) for tile in self.tiles(board))}"


def run_through(board: Mapping[Cell, object], cell: Cell, direction: str) -> tuple[Cell, ...]:
    """The maximal run of occupied cells through ``cell`` (occupied) in ``direction``."""
    dr, dc = STEPS[direction]
    r, c = cell
    start = 0
    while (r + (start - 1) * dr, c + (start - 1) * dc) in board:
        start -= 1
    end = 0
    while (r + (end + 1) * dr, c + (end + 1) * dc) in board:
        end += 1
    return tuple((r + i * dr, c + i * dc) for i in range(start, end + 1))


def lines_through(
    board: Mapping[Cell, str], cell: Cell, directions: Iterable[str] = ORTHOGONAL, min_length: int = 2
) -> list[Line]:
    """The lines (runs of ``min_length`` or more) through an occupied cell, in ``directions`` order."""
    lines = []
    for direction in directions:
        run = run_through(board, cell, direction)
        if len(run) >= min_length:
            lines.append(Line(direction, run))
    return lines


def play_direction(
    cells: Sequence[Cell], refusal: str = "all the tiles played on a turn go in a single row or column"
) -> str | None:
    """ACROSS or DOWN for two or more cells in one row or column; None for a single cell. Otherwise
    IllegalMoveError ``not_in_line`` (``refusal``: its message, in the game's words)."""
    if len(cells) == 1:
        return None
    if len({r for r, _ in cells}) == 1:
        return ACROSS
    if len({c for _, c in cells}) == 1:
        return DOWN
    raise IllegalMoveError("not_in_line", refusal)


def joined(board: Collection[Cell], start: Cell) -> set[Cell]:
    """The cells of ``board`` joined to ``start`` side by side, ``start`` among them (none when it is
    not on the board): a board that play makes is all one piece."""
    found = {start} if start in board else set()
    todo = list(found)
    while todo:
        r, c = todo.pop()
        for dr, dc in NEIGHBOURS:
            cell = (r + dr, c + dc)
            if cell in board and cell not in found:
                found.add(cell)
                todo.append(cell)
    return found


def check_geometry(board: Mapping[Cell, str], cells: Collection[Cell], first: Cell = CENTRE) -> str | None:
    """Where the tiles of a play may go; returns the play's direction (None for one tile).

    Raises IllegalMoveError: ``no_tiles``; ``occupied``; ``not_in_line``; ``gap`` (the played tiles,
    with the grid tiles between them, must make one unbroken line: "if there are gaps, it's not a
    line"); ``not_connected`` (at least one tile must touch the grid); on an empty grid,
    ``off_centre`` (the first play covers the centre cell ``first``).
    """
    if not cells:
        raise IllegalMoveError("no_tiles", "a play places at least one tile")
    ordered = sorted(cells)
    if len(set(ordered)) != len(ordered):
        raise IllegalMoveError("occupied", "a play places one tile per square")
    for cell in ordered:
        if cell in board:
            raise IllegalMoveError("occupied", f"the square at {square_words(cell)} already holds a tile")
    direction = play_direction(ordered)
    if direction is not None:
        (r0, c0), (r1, c1) = ordered[0], ordered[-1]
        dr, dc = STEPS[direction]
        placed = set(ordered)
        between = ((r0 + i * dr, c0 + i * dc) for i in range(max(r1 - r0, c1 - c0) + 1))
        if any(cell not in placed and cell not in board for cell in between):
            raise IllegalMoveError("gap", "the played tiles, with the tiles between them, must make one unbroken line")
    if not board:
        if first not in ordered:
            raise IllegalMoveError("off_centre", f"the first play covers the centre square ({square_words(first)})")
    elif not any((r + dr, c + dc) in board for r, c in ordered for dr, dc in NEIGHBOURS):
        raise IllegalMoveError("not_connected", "at least one tile must connect to tiles already on the grid")
    return direction


def play_lines(
    after: Mapping[Cell, str], cells: Sequence[Cell], directions: Sequence[str] = ORTHOGONAL, min_length: int = 2
) -> list[Line]:
    """The lines a play created or extended, on the board after it (``cells``: where it placed tiles).

    The line along the play first, then the lines across it, one per placed tile that has one; in
    directions other than across and down (Q!nto Plus's diagonals), every run of ``min_length`` or
    more through a placed tile, after those. A single tile's lines come in ``directions`` order.
    """
    ordered = sorted(cells)
    direction = play_direction(ordered) if len(ordered) > 1 else None
    lines: list[Line] = []
    if direction is None:
        lines = lines_through(after, ordered[0], [d for d in directions if d in ORTHOGONAL], min_length)
    else:
        if direction in directions:
            main = run_through(after, ordered[0], direction)
            if len(main) >= min_length:
                lines.append(Line(direction, main))
        cross = OTHER[direction]
        if cross in directions:
            for cell in ordered:
                run = run_through(after, cell, cross)
                if len(run) >= min_length:
                    lines.append(Line(cross, run))
    for slanted in (d for d in directions if d not in ORTHOGONAL):
        for cell in ordered:
            run = run_through(after, cell, slanted)
            if len(run) >= min_length and Line(slanted, run) not in lines:
                lines.append(Line(slanted, run))
    return lines


def longest_earlier_run(before: Collection[Cell], line: Line) -> int:
    """The longest run of ``line``'s cells that was already on the board ``before`` the play."""
    longest = current = 0
    for cell in line.cells:
        current = current + 1 if cell in before else 0
        longest = max(longest, current)
    return longest


# --- text ----------------------------------------------------------------------------------------
def format_cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def square_words(cell: Cell) -> str:
    """A square as the page's squares are read out: ``"row 0, column 3"``."""
    return f"row {cell[0]}, column {cell[1]}"


def parse_cell(text: str) -> Cell:
    row, sep, col = text.partition(",")
    if not sep or not _is_int(row) or not _is_int(col):
        raise NotationError(f"cell {text!r}: write ROW,COL (e.g. 3,-1)")
    return int(row), int(col)


def bounds(board: Iterable[Cell]) -> tuple[int, int, int, int]:
    """Top, bottom, left, right of the occupied cells (0s for an empty board)."""
    cells = list(board)
    rows = [r for r, _ in cells] or [0]
    cols = [c for _, c in cells] or [0]
    return min(rows), max(rows), min(cols), max(cols)


def format_board(board: Mapping[Cell, str], margin: int = 0, align: str = "<") -> str:
    """The board as text: a header of column numbers, then each row's number and tiles (``.`` empty),
    each tile in a column two wide, ``align``-ed (``<`` left, ``>`` right: BOP!'s grid)."""
    top, bottom, left, right = bounds(board)
    top, bottom, left, right = top - margin, bottom + margin, left - margin, right + margin
    label = max(len(str(top)), len(str(bottom)), 2)
    lines = [" " * (label + 1) + " ".join(f"{c:>2}" for c in range(left, right + 1))]
    for r in range(top, bottom + 1):
        row = " ".join(f"{board.get((r, c), '.'):{align}2}" for c in range(left, right + 1))
        lines.append(f"{r:>{label}} {row}")
    return "\n".join(line.rstrip() for line in lines)


def parse_board(text: str, kit: TileKit | Callable[[str], str | None], hint: str = "") -> Board:
    """Read :func:`format_board`'s output, or a bare grid of tiles and dots whose top-left cell is
    0,0; rows are lines, or split by ``/`` (``"9y ?? ./. 0g ."``). Tiles are read by the game's kit,
    or by a function giving the tile a token is (None: not a tile; ``hint`` then says what is)."""
    read = _kit_reader(kit) if isinstance(kit, TileKit) else kit
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
            tile = read(token)
            if tile is None:
                raise NotationError(f"board cell {row},{col}: {token!r} is not a tile{hint} or '.'")
            board[(row, col)] = tile
    return board


def _kit_reader(kit: TileKit) -> Callable[[str], str | None]:
    return lambda token: token if kit.is_tile(token) else None


def _is_int(token: str) -> bool:
    return token.lstrip("-").isdigit() and token.count("-") <= 1

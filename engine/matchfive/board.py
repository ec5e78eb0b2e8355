"""The Match Five board: stacks of tiles on an unbounded grid, their series, and the locks.

A *cell* is ``(row, col)`` on the table (rows grow downwards, columns to the right; the first tile
goes on ``0,0``). Each cell holds a stack, bottom to top, up to five high. A *spot* is
``(row, col, level)``: level 1 is on the table, level 2 on the first tile, and so on; a tile at
level L of a cell is ``stack[L - 1]``.

Series (ruling 3): tiles are *horizontal neighbours* when they are at the same level of two
side-by-side cells; a horizontal series is a maximal run of two or more such tiles along a row
(``across``) or a column (``down``) at one level. A stack of two or more tiles is a vertical series
(``up``). Tiles at different heights are never neighbours.

Locks (ruling 5): when a horizontal series of five is complete, its two end tiles (its first and
last in space, whatever the order they were played in) are locked: no tile may be placed beside
them at their level. A stack of five is full. Locks are read off the board, which never changes
but for tiles added: a run of five can only be the run it was when completed.

>>> board = parse_stacks("0,0:3r 0,1:2r 0,2:1r 0,3:5r,5b,5y 0,4:4r,4b,4y,4o,4g")
>>> board.height((0, 3)), board.tile_at((0, 3, 2)), board.tile_at((0, 3, 4))
(3, '5b', None)
>>> [board.tile_at(spot) for spot in board.run((0, 0, 1), ACROSS)]
['3r', '2r', '1r', '5r', '4r']
>>> sorted(board.locked)
[(0, 0, 1), (0, 4, 1)]
>>> format_stacks(board) == "0,0:3r 0,1:2r 0,2:1r 0,3:5r,5b,5y 0,4:4r,4b,4y,4o,4g"
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from engine.errors import NotationError
from engine.linegames.grid import square_words
from engine.matchfive.options import MAX_HEIGHT, MAX_SERIES, face, is_series, is_wild, parse_placed_tile, tile_name

Cell = tuple[int, int]
Spot = tuple[int, int, int]

ACROSS, DOWN, UP = "across", "down", "up"
#: One step along each horizontal direction.
STEPS: dict[str, Cell] = {ACROSS: (0, 1), DOWN: (1, 0)}
HORIZONTAL: tuple[str, str] = (ACROSS, DOWN)
#: The cells beside a cell (a tile's horizontal neighbours are at the same level in these).
NEIGHBOURS: tuple[Cell, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
ORIGIN: Cell = (0, 0)


class Board:
    """Stacks by cell, bottom to top. A value: it never changes after it is made
    (:meth:`with_placements` makes the next one)."""

    def __init__(self, stacks: Mapping[Cell, Sequence[str]] | None = None) -> None:
        given = stacks or {}
        self.stacks: dict[Cell, tuple[str, ...]] = {cell: tuple(tiles) for cell, tiles in given.items() if tiles}

    def height(self, cell: Cell) -> int:
        stack = self.stacks.get(cell)
        return len(stack) if stack else 0

    def tile_at(self, spot: Spot) -> str | None:
        stack = self.stacks.get((spot[0], spot[1]))
        level = spot[2]
        return stack[level - 1] if stack is not None and 1 <= level <= len(stack) else None

    def __bool__(self) -> bool:
        return bool(self.stacks)

    def __len__(self) -> int:
        """Tiles on the board."""
        return sum(len(stack) for stack in self.stacks.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.stacks == other.stacks

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Board({format_stacks(self)!r})"

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self  # a value: shared, never changed

    def spots(self) -> Iterator[Spot]:
        for (r, c), stack in self.stacks.items():
            for level in range(1, len(stack) + 1):
                yield (r, c, level)

    def tiles(self) -> list[str]:
        return [tile for stack in self.stacks.values() for tile in stack]

    def with_placements(self, placements: Mapping[Spot, str]) -> Board:
        """The board with these tiles added (each on the top of its stack, lowest level first)."""
        stacks = dict(self.stacks)
        for (r, c, _), tile in sorted(placements.items(), key=lambda item: item[0][2]):
            stacks[(r, c)] = stacks.get((r, c), ()) + (tile,)
        after = Board.__new__(Board)
        after.stacks = stacks
        return after

    # --- series ------------------------------------------------------------------------------
    def run(self, spot: Spot, direction: str) -> tuple[Spot, ...]:
        """The maximal run of tiles through ``spot`` (occupied) at its level, in ``direction``."""
        dr, dc = STEPS[direction]
        r, c, level = spot
        stacks = self.stacks
        start = -1
        while len(stacks.get((r + start * dr, c + start * dc), ())) >= level:
            start -= 1
        end = 1
        while len(stacks.get((r + end * dr, c + end * dc), ())) >= level:
            end += 1
        return tuple((r + i * dr, c + i * dc, level) for i in range(start + 1, end))

    def stack_spots(self, cell: Cell) -> tuple[Spot, ...]:
        return tuple((cell[0], cell[1], level) for level in range(1, self.height(cell) + 1))

    def horizontal_runs(self) -> list[tuple[str, tuple[Spot, ...]]]:
        """Every maximal horizontal run of two or more tiles: (direction, spots in order)."""
        found = []
        for spot in self.spots():
            r, c, level = spot
            for direction, (dr, dc) in STEPS.items():
                if self.tile_at((r - dr, c - dc, level)) is not None:
                    continue  # not the start of its run
                run = self.run(spot, direction)
                if len(run) >= 2:
                    found.append((direction, run))
        return sorted(found)

    @cached_property
    def locked(self) -> frozenset[Spot]:
        """The end tiles of every completed horizontal series of five."""
        ends: set[Spot] = set()
        for _, run in self.horizontal_runs():
            if len(run) == MAX_SERIES:
                ends.update((run[0], run[-1]))
        return frozenset(ends)

    def lock_beside(self, spot: Spot) -> Spot | None:
        """A locked tile beside ``spot`` at its level (placing there would continue play off it)."""
        r, c, level = spot
        for dr, dc in NEIGHBOURS:
            near = (r + dr, c + dc, level)
            if near in self.locked:
                return near
        return None

    def touches(self, cell: Cell) -> bool:
        """Does a tile stand on ``cell`` or on a cell beside it?"""
        r, c = cell
        return cell in self.stacks or any((r + dr, c + dc) in self.stacks for dr, dc in NEIGHBOURS)

    def bounds(self) -> tuple[int, int, int, int]:
        """Top, bottom, left, right of the occupied cells (0s for an empty board)."""
        rows = [r for r, _ in self.stacks] or [0]
        cols = [c for _, c in self.stacks] or [0]
        return min(rows), max(rows), min(cols), max(cols)

    # --- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> list[list[object]]:
        """``[[[row, col], "5r 5b 5y"], ...]`` sorted by cell; a stack is one text, bottom first."""
        return [[[r, c], " ".join(stack)] for (r, c), stack in sorted(self.stacks.items())]


@dataclass(frozen=True)
class Series:
    """A series on the board: ``across``, ``down`` (horizontal) or ``up`` (a stack), its spots in order
    (left to right, top to bottom, bottom to top) and their tiles."""

    direction: str
    spots: tuple[Spot, ...]
    tiles: tuple[str, ...]

    @property
    def horizontal(self) -> bool:
        return self.direction != UP

    def where(self) -> str:
        """``row 0 at level 2``, ``column 1 at level 1``, ``the stack at row 0, column 3``: words, as players
        read them (score details and refusals)."""
        r, c, level = self.spots[0]
        if self.direction == UP:
            return f"the stack at {square_words((r, c))}"
        line = f"row {r}" if self.direction == ACROSS else f"column {c}"
        return f"{line} at level {level}"

    def __len__(self) -> int:
        return len(self.spots)


def series_problem(tiles: Sequence[str]) -> tuple[str, str] | None:
    """Why a run of tiles is no series, as (rule, message): ``too_long``, ``two_wilds_in_series`` or
    ``not_a_series`` (None: it is one)."""
    if len(tiles) > MAX_SERIES:
        return "too_long", f"{_names(tiles)}: a series holds at most {MAX_SERIES} tiles"
    if sum(1 for tile in tiles if is_wild(tile)) > 1:
        return "two_wilds_in_series", f"{_names(tiles)}: only one wild per series"
    if not is_series([face(tile) for tile in tiles]):
        return "not_a_series", (
            f"{_names(tiles)}: a series is the same colour in all different numbers, or the same number in all "
            "different colours (never the same colour and the same number)"
        )
    return None


def _names(tiles: Sequence[str]) -> str:
    return ", ".join(tile_name(tile) for tile in tiles)


# --- text ----------------------------------------------------------------------------------------
def format_cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def format_spot(spot: Spot) -> str:
    return f"{spot[0]},{spot[1]}:{spot[2]}"


def spot_words(spot: Spot) -> str:
    """A place in a stack in words: ``"row 0, column 3, level 2"``."""
    return f"{square_words((spot[0], spot[1]))}, level {spot[2]}"


def format_stacks(board: Board) -> str:
    """The board as one line of stacks, ``ROW,COL:BOTTOM,...,TOP`` by cell: ``0,0:3r 0,3:5r,5b,5y``."""
    return " ".join(f"{format_cell(cell)}:{','.join(stack)}" for cell, stack in sorted(board.stacks.items()))


def parse_stacks(text: str) -> Board:
    """Read :func:`format_stacks` (stacks split by spaces or new lines)."""
    stacks: dict[Cell, tuple[str, ...]] = {}
    for token in text.split():
        where, sep, tiles = token.partition(":")
        row, comma, col = where.partition(",")
        if not sep or not comma or not _is_int(row) or not _is_int(col) or not tiles:
            raise NotationError(f"stack {token!r}: write ROW,COL:BOTTOM,...,TOP, e.g. 0,3:5r,5b,*5y")
        cell = (int(row), int(col))
        if cell in stacks:
            raise NotationError(f"stack {token!r}: cell {where} is given twice")
        stacks[cell] = tuple(parse_placed_tile(tile) for tile in tiles.split(","))
        if len(stacks[cell]) > MAX_HEIGHT:
            raise NotationError(f"stack {token!r}: a stack is at most {MAX_HEIGHT} tiles high")
    return Board(stacks)


def _is_int(token: str) -> bool:
    return token.lstrip("-").isdigit() and token.count("-") <= 1

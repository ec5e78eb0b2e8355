"""The board: cells, runs of tokens, the geometry of a play, and the board as text.

Cells are ``(row, col)``, ``(0, 0)`` at the top-left, rows growing downwards and columns to the
right; on the classic 15 x 15 board the start square is ``(7, 7)``. A board is a dict
``cell -> token value``. A *run* is a maximal line of two or more tokens side by side in a row
(across) or a column (down); no run may hold more than three tokens.

>>> board = {(7, 7): 9, (7, 8): 4, (8, 7): 2}
>>> print(format_board(board))
    7  8
 7  9  4
 8  2  .
>>> parse_board(format_board(board)) == board
True
>>> from engine.three2fifteen.layout import named_layout
>>> [run.values for run in play_runs(board, {(7, 9): 2}, named_layout("classic"))]
[(9, 4, 2)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import IllegalMoveError, NotationError
from engine.linegames import grid
from engine.linegames.grid import ACROSS, DOWN, NEIGHBOURS, OTHER, STEPS, format_cell, run_through, square_words
from engine.three2fifteen.layout import PLAIN, SQUARE_NAMES, Cell, Layout
from engine.three2fifteen.options import MAX_RUN, parse_token

__all__ = [
    "ACROSS", "DOWN", "NEIGHBOURS", "OTHER", "STEPS", "Board", "Cell", "Run", "format_board", "format_cell",
    "parse_board", "play_direction", "play_runs", "run_through",
]  # fmt: skip

Board = dict[Cell, int]


@dataclass(frozen=True)
class Run:
    """A maximal line of two or more tokens side by side, in reading order, with their values."""

    direction: str
    cells: tuple[Cell, ...]
    values: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def total(self) -> int:
        return sum(self.values)

    @property
    def name(self) -> str:
        """``across 9+4+2``: how breakdowns and error messages name a run."""
        return f"{self.direction} {'+'.join(str(v) for v in self.values)}"


def play_direction(cells: list[Cell]) -> str | None:
    """ACROSS or DOWN for two or more cells in one row or column; None for a single cell."""
    return grid.play_direction(cells, "the tokens played on a turn must all be in one row or one column")


def play_runs(board: Mapping[Cell, int], placements: Mapping[Cell, int], layout: Layout) -> list[Run]:
    """Every run the play creates or extends, the run along the play first, after checking where
    the tokens go (not what they add up to: ``rules.check_play`` does both).

    Raises IllegalMoveError: ``no_tokens``, ``too_many_tokens`` (one to three a turn),
    ``off_board``, ``occupied``, ``not_in_line``, ``gap`` (the played tokens, with the tokens
    already between them, make one unbroken line), ``start_not_covered`` (the first play),
    ``not_connected`` (a later play touches a token already played), ``run_too_long``.
    """
    if not placements:
        raise IllegalMoveError("no_tokens", "a play places one, two or three tokens")
    if len(placements) > MAX_RUN:
        raise IllegalMoveError("too_many_tokens", f"a play places at most {MAX_RUN} tokens, not {len(placements)}")
    cells = sorted(placements)
    for cell in cells:
        if not layout.on_board(cell):
            raise IllegalMoveError(
                "off_board", f"the square at {square_words(cell)} is off the {layout.height} x {layout.width} board"
            )
        if cell in board:
            raise IllegalMoveError("occupied", f"the square at {square_words(cell)} already holds a token")
    direction = play_direction(cells)
    after = {**board, **placements}
    lines: list[tuple[str, tuple[Cell, ...]]] = []
    if direction is not None:
        main = run_through(after, cells[0], direction)
        if cells[-1] not in main:
            raise IllegalMoveError(
                "gap", "the tokens played, with the tokens already between them, must make one unbroken line"
            )
        lines.append((direction, main))
    if not board:
        if layout.start not in placements:
            raise IllegalMoveError(
                "start_not_covered", f"the first play must cover the start square ★ ({square_words(layout.start)})"
            )
    elif not any((r + dr, c + dc) in board for r, c in cells for dr, dc in NEIGHBOURS):
        raise IllegalMoveError("not_connected", "a play must touch at least one token already on the board")
    crosses = (OTHER[direction],) if direction is not None else (ACROSS, DOWN)
    lines += [(cross, run_through(after, cell, cross)) for cell in cells for cross in crosses]
    runs = []
    for line_direction, line in lines:
        if len(line) > MAX_RUN:
            raise IllegalMoveError(
                "run_too_long",
                f"{len(line)} tokens side by side {line_direction} from {square_words(line[0])}; at most {MAX_RUN}",
            )
        if len(line) >= 2:
            runs.append(Run(line_direction, line, tuple(after[cell] for cell in line)))
    return runs


# --- text ----------------------------------------------------------------------------------------
def format_board(board: Mapping[Cell, int], layout: Layout | None = None) -> str:
    """The board as text: a header of column numbers, then each row's number and tokens.

    With a layout, the whole board, empty squares shown by their code (``.``, ``d``, ``t``, ``r``,
    ``*``); without one, the rows and columns that hold tokens, empty squares as ``.``.
    """
    if layout is not None:
        top, bottom, left, right = 0, layout.height - 1, 0, layout.width - 1
    else:
        rows = [r for r, _ in board] or [0]
        cols = [c for _, c in board] or [0]
        top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    label = max(len(str(bottom)), 2)
    lines = [" " * label + "".join(f"{c:>3}" for c in range(left, right + 1))]
    for r in range(top, bottom + 1):
        cells = []
        for c in range(left, right + 1):
            value = board.get((r, c))
            cells.append(str(value) if value is not None else layout.square((r, c)) if layout else PLAIN)
        lines.append(f"{r:>{label}}" + "".join(f"{cell:>3}" for cell in cells))
    return "\n".join(lines)


def parse_board(text: str) -> dict[Cell, int]:
    """Read :func:`format_board`'s text back: a header of column numbers, then rows that start with
    their number. Empty squares may be written ``.`` or by their square code."""
    rows = [line.split() for line in text.splitlines() if line.strip()]
    if not rows or not all(token.isdigit() for token in rows[0]):
        raise NotationError("board: the first line must be the column numbers")
    columns = [int(token) for token in rows[0]]
    board: dict[Cell, int] = {}
    for tokens in rows[1:]:
        if not tokens[0].isdigit():
            raise NotationError(f"board row {' '.join(tokens)!r}: expected its row number first")
        row, cells = int(tokens[0]), tokens[1:]
        if len(cells) > len(columns):
            raise NotationError(f"board row {row}: {len(cells)} cells but {len(columns)} columns")
        for col, token in zip(columns, cells, strict=False):
            if token not in SQUARE_NAMES:
                board[(row, col)] = parse_token(token)
    return board

"""BOP! moves: small frozen values with a text notation.

==========================  ===========================================================
``3,-2a Cg?WkBg``           play: first tile's cell, ``a``cross or ``d``own, the tiles in order
``4,2a Sr.Tk``              ``.`` steps over a tile already on the grid
``5,4 Sr``                  a single tile (no direction)
``pass`` / ``pass SrTk``    pass, trading those tiles (to the bottom of the pile, in that order)
``swap 3,-1 Bg``            put Bg from the hand in place of the BOP! tile at 3,-1 and take it
``challenge``               challenge the play just made
==========================  ===========================================================

>>> move = parse_move("3,-2a Cg?WkBg")
>>> move
Play('3,-2a Cg?WkBg')
>>> parse_move(move.to_text()) == move
True
>>> parse_move("4,2a Sr.Tk").cells()
[(4, 2), (4, 4)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.base import Move
from engine.bop.board import ACROSS, DOWN, STEPS, Cell, format_cell, play_direction
from engine.bop.tiles import TILE, parse_tiles
from engine.errors import IllegalMoveError, NotationError

PLAY = re.compile(r"(-?\d+),(-?\d+)([ad]?)\s+(\S+)")
DIRECTION_CODES = {"a": ACROSS, "d": DOWN}


@dataclass(frozen=True)
class Play(Move):
    """Tiles placed this turn: ``((row, col), tile)`` pairs, sorted by cell."""

    placements: tuple[tuple[Cell, str], ...]

    @classmethod
    def of(cls, placements: dict[Cell, str] | list[tuple[Cell, str]]) -> Play:
        items = placements.items() if isinstance(placements, dict) else placements
        return cls(tuple(sorted(items)))

    def cells(self) -> list[Cell]:
        return [cell for cell, _ in self.placements]

    def tiles(self) -> list[str]:
        return [tile for _, tile in self.placements]

    def as_dict(self) -> dict[Cell, str]:
        return dict(self.placements)

    def to_text(self) -> str:
        cells = self.cells()
        try:
            direction = play_direction(cells)
        except IllegalMoveError:  # not in one line: still give it a readable (unplayable) form
            return " ".join(f"{format_cell(cell)} {tile}" for cell, tile in self.placements)
        if direction is None:
            return f"{format_cell(cells[0])} {self.placements[0][1]}"
        dr, dc = STEPS[direction]
        placed = self.as_dict()
        (r0, c0), (r1, c1) = cells[0], cells[-1]
        span = (r1 - r0) if direction == DOWN else (c1 - c0)
        text = "".join(placed.get((r0 + i * dr, c0 + i * dc), ".") for i in range(span + 1))
        return f"{format_cell(cells[0])}{direction[0]} {text}"

    def __repr__(self) -> str:
        return f"Play({self.to_text()!r})"


@dataclass(frozen=True)
class Pass(Move):
    """Pass, trading ``trade`` (some, all or none of the hand) to the bottom of the pile."""

    trade: tuple[str, ...] = ()

    def to_text(self) -> str:
        return "pass" + (" " + "".join(self.trade) if self.trade else "")

    def public_text(self) -> str | None:
        """Traded tiles go face down: the others see how many, not which."""
        return f"pass ({len(self.trade)} tiles traded)" if self.trade else None

    def __repr__(self) -> str:
        return f"Pass({self.to_text()!r})"


@dataclass(frozen=True)
class Swap(Move):
    """Replace the BOP! tile at ``cell`` with ``tile`` from the hand, taking the BOP! tile back."""

    cell: Cell
    tile: str

    def to_text(self) -> str:
        return f"swap {format_cell(self.cell)} {self.tile}"

    def __repr__(self) -> str:
        return f"Swap({self.to_text()!r})"


@dataclass(frozen=True)
class Challenge(Move):
    """Challenge the play just made (challenge mode)."""

    def to_text(self) -> str:
        return "challenge"

    def __repr__(self) -> str:
        return "Challenge()"


BopMove = Play | Pass | Swap | Challenge


def parse_move(text: str) -> BopMove:
    """Read a move's notation (see the module docstring); NotationError on bad syntax."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty move")
    head = words[0].lower()
    if head == "challenge" and len(words) == 1:
        return Challenge()
    if head == "pass":
        return Pass(tuple(parse_tiles("".join(words[1:]))))
    if head == "swap":
        if len(words) != 3:
            raise NotationError(f"swap {text!r}: write 'swap ROW,COL TILE', e.g. 'swap 3,-1 Bg'")
        r, c = _cell(words[1])
        tiles = parse_tiles(words[2])
        if len(tiles) != 1:
            raise NotationError(f"swap {text!r}: swap exactly one tile")
        return Swap((r, c), tiles[0])
    match = PLAY.fullmatch(text.strip())
    if match is None:
        raise NotationError(
            f"move {text!r}: expected 'ROW,COL[a|d] TILES' (e.g. '3,-2a Cg?WkBg'), 'pass [TILES]', "
            "'swap ROW,COL TILE' or 'challenge'"
        )
    row, col, code, body = int(match[1]), int(match[2]), match[3], match[4]
    tokens = re.findall(r"\.|" + TILE.pattern, body)
    if "".join(tokens) != body or not tokens or tokens[0] == "." or tokens[-1] == ".":
        raise NotationError(f"move {text!r}: tiles are letter+colour (Sy) or ?, with '.' only between tiles")
    if len(tokens) > 1 and not code:
        raise NotationError(f"move {text!r}: a play of several tiles needs a direction (a or d) after the cell")
    parse_tiles("".join(tok for tok in tokens if tok != "."))  # consonants and colour codes only
    dr, dc = STEPS[DIRECTION_CODES.get(code or "a", ACROSS)]
    placements = [((row + i * dr, col + i * dc), tok) for i, tok in enumerate(tokens) if tok != "."]
    return Play.of(placements)


def _cell(text: str) -> Cell:
    match = re.fullmatch(r"(-?\d+),(-?\d+)", text)
    if match is None:
        raise NotationError(f"cell {text!r}: write ROW,COL (e.g. 3,-1)")
    return int(match[1]), int(match[2])

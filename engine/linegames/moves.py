"""The line games' moves: small frozen values with a text notation (the same in every line game;
each game reads it with its own :class:`~engine.linegames.tiles.TileKit`).

==================================  ===================================================================
``0,1d 8g??0g``                     play: first tile's cell, ``a``cross or ``d``own, the tiles in order
``-2,0a ?y.6g``                     ``.`` steps over a tile already on the grid
``3,4 9y``                          a single tile (no direction)
``swap 2,1 8k``                     put 8k from the hand in place of the wild at 2,1, taking the wild
``swap 2,1 8k 0,1 ?k``              several swaps in one turn, in order: the second may use the wild
                                    the first took (a sequential swap)
``pass`` / ``pass 9y?k``            pass, trading those tiles to the bottom of the pile
==================================  ===================================================================

>>> from engine.linegames.tiles import TileKit
>>> kit = TileKit("0123456789", "ygrkb")
>>> move = parse_line_move("0,1d 8g??0g", kit)
>>> move, parse_line_move(move.to_text(), kit) == move
(Play('0,1d 8g??0g'), True)
>>> parse_line_move("swap 2,1 8k 0,1 ?k", kit)
Swap('swap 2,1 8k 0,1 ?k')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from engine.errors import IllegalMoveError, NotationError
from engine.linegames.grid import ACROSS, DOWN, STEPS, Cell, format_cell, parse_cell, play_direction
from engine.linegames.tiles import TileKit
from engine.values import Move, Placing

TileT = TypeVar("TileT")
PLAY = re.compile(r"(-?\d+),(-?\d+)([ad]?)\s+(\S+)")
DIRECTION_CODES = {"a": ACROSS, "d": DOWN}


@dataclass(frozen=True)
class GridPlay(Placing[Cell, TileT]):
    """Tiles placed this turn: ``((row, col), tile)`` pairs, sorted by cell. The text is the first
    cell, the direction and the tiles in order (``.`` for a cell stepped over), joined by ``JOIN``;
    tiles not in one line (the rules refuse them, the notation still names them) are written cell by
    cell in the ``LOOSE`` form."""

    JOIN: ClassVar[str] = ""
    LOOSE: ClassVar[str] = "{cell} {tile}"

    def cells(self) -> list[Cell]:
        return [cell for cell, _ in self.placements]

    def to_text(self) -> str:
        cells = self.cells()
        try:
            direction = play_direction(cells)
        except IllegalMoveError:  # not in one line: still give it a readable (unplayable) form
            return " ".join(self.LOOSE.format(cell=format_cell(cell), tile=tile) for cell, tile in self.placements)
        if direction is None:
            return f"{format_cell(cells[0])} {self.placements[0][1]}"
        dr, dc = STEPS[direction]
        placed = self.as_dict()
        (r0, c0), (r1, c1) = cells[0], cells[-1]
        span = (r1 - r0) if direction == DOWN else (c1 - c0)
        steps = (placed.get((r0 + i * dr, c0 + i * dc)) for i in range(span + 1))
        return f"{format_cell(cells[0])}{direction[0]} " + self.JOIN.join("." if t is None else str(t) for t in steps)

    def __repr__(self) -> str:
        return f"Play({self.to_text()!r})"


@dataclass(frozen=True, repr=False)
class Play(GridPlay[str]):
    """A play of tiles written as text (``8g``, ``?y``): the line games' and BOP!'s."""


@dataclass(frozen=True, repr=False)
class Swap(Move):
    """Hand tiles put in place of played wilds, in order; each takes the wild it replaces into the
    hand, where a later step of the same swap may use it (a sequential swap)."""

    steps: tuple[tuple[Cell, str], ...]

    def to_text(self) -> str:
        return "swap " + " ".join(f"{format_cell(cell)} {tile}" for cell, tile in self.steps)



@dataclass(frozen=True)
class Pass(Move):
    """Pass, trading ``trade`` (some, all or none of the hand) to the bottom of the pile."""

    trade: tuple[str, ...] = ()

    def to_text(self) -> str:
        return "pass" + (" " + "".join(self.trade) if self.trade else "")

    def __repr__(self) -> str:
        return f"Pass({self.to_text()!r})"


@dataclass(frozen=True, repr=False)
class FaceDownPass(Pass):
    """A pass whose traded tiles go face down to the bottom of a pile: the others see how many, not which."""

    def public_text(self) -> str | None:
        count = len(self.trade)
        return f"pass ({count} tile{'s' * (count != 1)} traded)" if count else None


LineMove = Play | Swap | Pass


def parse_line_move(text: str, kit: TileKit) -> LineMove:
    """Read a move's notation (see the module docstring); NotationError on bad syntax."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty move")
    head = words[0].lower()
    if head == "pass":
        return Pass(tuple(kit.parse_tiles("".join(words[1:]))))
    if head == "swap":
        pairs = words[1:]
        if not pairs or len(pairs) % 2:
            raise NotationError(f"swap {text!r}: write 'swap ROW,COL TILE [ROW,COL TILE ...]', e.g. 'swap 2,1 8k'")
        steps = []
        for cell_text, tile_text in zip(pairs[::2], pairs[1::2], strict=True):
            tiles = kit.parse_tiles(tile_text)
            if len(tiles) != 1:
                raise NotationError(f"swap {text!r}: one tile per cell")
            steps.append((parse_cell(cell_text), tiles[0]))
        return Swap(tuple(steps))
    match = PLAY.fullmatch(text.strip())
    if match is None:
        raise NotationError(
            f"move {text!r}: expected 'ROW,COL[a|d] TILES' (e.g. '0,1d 8g??0g'), 'swap ROW,COL TILE ...' "
            "or 'pass [TILES]'"
        )
    row, col, code, body = int(match[1]), int(match[2]), match[3], match[4]
    tokens = re.findall(r"\." + "|" + kit.token.pattern, body)
    if "".join(tokens) != body or not tokens or tokens[0] == "." or tokens[-1] == ".":
        raise NotationError(f"move {text!r}: tiles are a face and a colour (9y, ?y, ??), '.' only between tiles")
    if len(tokens) > 1 and not code:
        raise NotationError(f"move {text!r}: a play of several tiles needs a direction (a or d) after the cell")
    dr, dc = STEPS[DIRECTION_CODES.get(code or "a", ACROSS)]
    placements = [((row + i * dr, col + i * dc), tok) for i, tok in enumerate(tokens) if tok != "."]
    return Play.of(placements)

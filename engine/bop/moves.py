"""BOP! moves: small frozen values with a text notation (``Play`` and ``Pass`` are the grid core's).

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

from engine.bop.board import ACROSS, DOWN, STEPS, Cell, format_cell
from engine.bop.options import TILE, parse_tiles
from engine.errors import NotationError
from engine.linegames.moves import Pass as LinePass
from engine.linegames.moves import Play
from engine.values import Move

__all__ = ["BopMove", "Challenge", "Pass", "Play", "Swap", "parse_move"]

#: A play: the first tile's cell, the direction, then the tiles (spaces between them are allowed).
PLAY = re.compile(r"(-?\d+),(-?\d+)([ad]?)\s+(\S.*)")
DIRECTION_CODES = {"a": ACROSS, "d": DOWN}


@dataclass(frozen=True, repr=False)
class Pass(LinePass):
    """Pass, trading ``trade`` (some, all or none of the hand) to the bottom of the pile."""

    def public_text(self) -> str | None:
        """Traded tiles go face down: the others see how many, not which."""
        return f"pass ({len(self.trade)} tiles traded)" if self.trade else None


@dataclass(frozen=True, repr=False)
class Swap(Move):
    """Replace the BOP! tile at ``cell`` with ``tile`` from the hand, taking the BOP! tile back."""

    cell: Cell
    tile: str

    def to_text(self) -> str:
        return f"swap {format_cell(self.cell)} {self.tile}"



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
    row, col, code, body = int(match[1]), int(match[2]), match[3], "".join(match[4].split())
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

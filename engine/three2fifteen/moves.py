"""Three2Fifteen moves: small frozen values with a text notation.

Cells are ``row,col`` from the top-left ``0,0`` (the classic board's start square is ``7,7``);
tokens are their values, 0 to 15, separated by spaces.

=========================  ====================================================================
``7,7 5``                  one token: a 5 on row 7, column 7
``7,6a 7 8``               across (``a``) from 7,6: a 7 on 7,6 and an 8 on 7,7
``6,7d 7 2 6``             down (``d``) from 6,7: 7 on 6,7, 2 on 7,7, 6 on 8,7
``7,6a 2 . 4``             ``.`` is a cell the play does not cover (here a token already played:
                           2 and 4 surround it)
``7,6=2 7,8=4``            the same play, cell by cell (``ROW,COL=VALUE``, any order)
``exchange 7``             no token fits: a 7 goes back into the bag for a token of another value
``pass``                   pass (no token fits and no exchange is possible: see RULINGS.md)
=========================  ====================================================================

``to_text()`` writes the first form (the cell-by-cell form only for tokens that are not in one
line, which the rules refuse but the notation still names).

>>> move = parse_move("7,6a 2 . 4")
>>> move
Play('7,6a 2 . 4')
>>> move == parse_move("7,8=4 7,6=2") and parse_move(move.to_text()) == move
True
>>> move.as_dict()
{(7, 6): 2, (7, 8): 4}
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import NotationError
from engine.linegames.moves import GridPlay
from engine.three2fifteen.board import ACROSS, DOWN, STEPS, Cell, format_cell
from engine.three2fifteen.options import parse_token
from engine.values import Move

HEAD = re.compile(r"(\d+),(\d+)([ad]?)")
EXPLICIT = re.compile(r"(\d+),(\d+)=(\S+)")
DIRECTION_CODES = {"a": ACROSS, "d": DOWN}


@dataclass(frozen=True, repr=False)
class Play(GridPlay[int]):
    """Tokens placed this turn: ``((row, col), value)`` pairs, sorted by cell (the grid core's play,
    its values split by spaces and, out of line, written ``ROW,COL=VALUE``)."""

    JOIN: ClassVar[str] = " "
    LOOSE: ClassVar[str] = "{cell}={tile}"

    def values(self) -> list[int]:
        return self.tiles()


@dataclass(frozen=True, repr=False)
class Pass(Move):
    """Pass the turn (the rules allow it only when no token of the hand can be placed)."""

    def to_text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Exchange(Move):
    """A player with no legal placement gives ``token`` back to the bag and draws one of another value
    (the draw is chance's move that follows). Everyone sees which token went back (ruling 12)."""

    token: int

    def to_text(self) -> str:
        return f"exchange {self.token}"

    def __repr__(self) -> str:
        return f"Exchange({self.token})"


Three2FifteenMove = Play | Exchange | Pass


def parse_move(text: str) -> Three2FifteenMove:
    """Read a move's notation (see the module docstring); NotationError on bad syntax."""
    words = text.split()
    if not words:
        raise NotationError("empty move")
    if [word.lower() for word in words] == ["pass"]:
        return Pass()
    if words[0].lower() == "exchange":
        if len(words) != 2:
            raise NotationError(f"move {text!r}: write 'exchange TOKEN' (e.g. 'exchange 7'), one token")
        return Exchange(parse_token(words[1]))
    if all("=" in word for word in words):
        return _explicit(text, words)
    head = HEAD.fullmatch(words[0])
    steps = words[1:]
    if head is None or not steps:
        raise NotationError(
            f"move {text!r}: expected 'ROW,COL[a|d] TOKENS' (e.g. '7,6a 7 8'), 'ROW,COL=VALUE ...', "
            "'exchange TOKEN' or 'pass'"
        )
    if steps[0] == "." or steps[-1] == ".":
        raise NotationError(f"move {text!r}: '.' stands only between tokens")
    if len(steps) > 1 and not head[3]:
        raise NotationError(f"move {text!r}: a play of several tokens needs a direction (a or d) after the cell")
    row, col = int(head[1]), int(head[2])
    dr, dc = STEPS[DIRECTION_CODES.get(head[3] or "a", ACROSS)]
    placements = [((row + i * dr, col + i * dc), parse_token(step)) for i, step in enumerate(steps) if step != "."]
    return Play.of(placements)


def _explicit(text: str, words: list[str]) -> Play:
    placements: dict[Cell, int] = {}
    for word in words:
        match = EXPLICIT.fullmatch(word)
        if match is None:
            raise NotationError(f"move {text!r}: write each token as ROW,COL=VALUE (e.g. 7,6=2)")
        cell = (int(match[1]), int(match[2]))
        if cell in placements:
            raise NotationError(f"move {text!r}: cell {format_cell(cell)} is named twice")
        placements[cell] = parse_token(match[3])
    return Play.of(placements)

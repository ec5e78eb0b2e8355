"""Match Five moves: small frozen values with a text notation.

A spot is ``ROW,COL:LEVEL``: the cell (rows down, columns right, the first tile on ``0,0``) and the
level the tile comes to rest at (1 on the table, 2 on one tile, ... 5 at the top of a full stack).
Tiles are ``3r`` (red 3) and, for a wild, ``*`` and the tile it is played as: ``*2b``.

================================  =====================================================================
``0,0:1 3r``                      one tile: a red 3 on the table at 0,0
``0,0:1a 3r 2r 1r``               across (``a``) at level 1 from 0,0: red 3, 2, 1 on 0,0 0,1 0,2
``-2,1:1d 2o . 2y``               down (``d``) from -2,1; ``.`` steps over a spot the play does not
                                  fill (a tile already there)
``0,3:2u 5b 5y``                  up (``u``) the stack at 0,3 from level 2: blue 5, then yellow 5 on it
``0,1:2u 2o 2y 2g *2b``           four 2s up a stack, the wild played as a blue 2
``0,3:2 5b 0,4:2 4y``             spot by spot (any order): what ``to_text`` writes for tiles that are
                                  not in one line, which the rules refuse but the notation still names
``swap 3r 5b *``                  swap these tiles of the hand for as many from the bag
``swap 3r 5b * stuck``            at the table: the same, by a player who could not have placed a tile
``pass``                          pass (only with no play and nothing to swap: ruling 12)
``left 3r *``                     at the table, when the game ends: the tiles left in this hand
================================  =====================================================================

>>> move = parse_move("0,3:2u 5b 5y")
>>> move, move.as_dict()
(Place('0,3:2u 5b 5y'), {(0, 3, 2): '5b', (0, 3, 3): '5y'})
>>> parse_move("0,4:2 4y 0,3:2 5b") == parse_move("0,3:2a 5b 4y")
True
>>> parse_move("swap * 5b 3r"), parse_move("swap * 5b 3r").public_text()
(Swap('swap 3r 5b *'), 'swap 3 tiles')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import NotationError
from engine.matchfive.board import ACROSS, DOWN, STEPS, UP, Spot, format_spot
from engine.matchfive.options import hand_tile, parse_hand_tiles, parse_placed_tile, sort_tiles
from engine.table import Left, parse_left
from engine.values import Move, Placing

HEAD = re.compile(r"(-?\d+),(-?\d+):([1-9]\d?)([adu]?)")
DIRECTION_CODES = {"a": ACROSS, "d": DOWN, "u": UP}
#: Lines longer than this (only ever refused) are written spot by spot rather than with dots.
LONGEST_DOTTED = 9


@dataclass(frozen=True, repr=False)
class Place(Placing[Spot, str]):
    """Tiles placed this turn: ``((row, col, level), tile)`` pairs, sorted by spot."""

    def spots(self) -> list[Spot]:
        return [spot for spot, _ in self.placements]

    def hand_tiles(self) -> list[str]:
        """The tiles this play takes from the hand (a wild played as ``*2b`` is the hand's ``*``)."""
        return [hand_tile(tile) for _, tile in self.placements]

    def to_text(self) -> str:
        spots = self.spots()
        if not spots:
            return "(no tiles)"
        if len(spots) == 1:
            return f"{format_spot(spots[0])} {self.placements[0][1]}"
        line = _line(spots)
        if line is None:
            return " ".join(f"{format_spot(spot)} {tile}" for spot, tile in self.placements)
        code, start, span = line
        placed = self.as_dict()
        r, c, level = start
        if code == "u":
            cells = [(r, c, level + i) for i in range(span)]
        else:
            dr, dc = STEPS[DIRECTION_CODES[code]]
            cells = [(r + i * dr, c + i * dc, level) for i in range(span)]
        return f"{format_spot(start)}{code} " + " ".join(placed.get(spot, ".") for spot in cells)



def _line(spots: list[Spot]) -> tuple[str, Spot, int] | None:
    """(direction code, first spot, span) when the spots lie in one row, column or stack."""
    rows, cols, levels = ({s[i] for s in spots} for i in range(3))
    if len(rows) == 1 and len(cols) == 1:
        low, high = min(levels), max(levels)
        return ("u", spots[0], high - low + 1) if high - low + 1 == len(spots) else None
    if len(levels) != 1:
        return None
    if len(rows) == 1:
        span = max(cols) - min(cols) + 1
        return ("a", spots[0], span) if span <= LONGEST_DOTTED else None
    if len(cols) == 1:
        span = max(rows) - min(rows) + 1
        return ("d", spots[0], span) if span <= LONGEST_DOTTED else None
    return None


@dataclass(frozen=True, repr=False)
class Swap(Move):
    """Tiles of the hand swapped for as many from the bag (sorted: numbers, colours, wilds last).

    ``stuck``: at the table (``engine.table``), the player says they could not have placed a tile instead,
    which a five-round stuck table counts (ruling 16); a dealt game sees the hand and refuses the word."""

    tiles: tuple[str, ...]
    stuck: bool = False

    @classmethod
    def of(cls, tiles: Iterable[str], stuck: bool = False) -> Swap:
        return cls(tuple(sort_tiles(tiles)), stuck)

    def to_text(self) -> str:
        return " ".join(("swap", *self.tiles, *(("stuck",) if self.stuck else ())))

    def public_text(self) -> str | None:
        count = len(self.tiles)
        return f"swap {count} tile{'s' if count != 1 else ''}"



@dataclass(frozen=True, repr=False)
class Pass(Move):
    """A turn with no play and no swap."""

    def to_text(self) -> str:
        return "pass"


MatchFiveTurn = Place | Swap | Pass | Left


def parse_move(text: str) -> MatchFiveTurn:
    """Read a player's move (see the module docstring); NotationError on bad syntax."""
    if not isinstance(text, str):
        raise NotationError(f"a Match Five move is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty move: write a play (0,0:1a 3r 2r), 'swap TILES' or 'pass'")
    head = words[0].lower()
    if head == "pass":
        if len(words) > 1:
            raise NotationError("'pass' takes nothing after it (to change tiles, write 'swap 3r 5b')")
        return Pass()
    if head == "swap":
        stuck = words[-1].lower() == "stuck"
        tiles = parse_hand_tiles(" ".join(words[1 : len(words) - stuck]))
        if not tiles:
            raise NotationError("swap what? write 'swap' and the tiles from your hand, e.g. 'swap 3r 5b'")
        return Swap.of(tiles, stuck)
    left = parse_left(text, parse_hand_tiles)
    if left is not None:
        return left
    return _parse_place(text, words)


def _parse_place(text: str, words: list[str]) -> Place:
    match = HEAD.fullmatch(words[0])
    if match is None:
        raise NotationError(
            f"move {text!r}: expected a play ('0,0:1a 3r 2r 1r': ROW,COL:LEVEL, then a for across, d for down or "
            "u for up the stack, then the tiles), 'swap TILES' or 'pass'"
        )
    row, col, level, code = int(match[1]), int(match[2]), int(match[3]), match[4]
    placements: list[tuple[Spot, str]] = []
    if code:
        tokens = words[1:]
        if not tokens or tokens[0] == "." or tokens[-1] == ".":
            raise NotationError(f"move {text!r}: tiles after the direction, '.' only between tiles")
        for i, token in enumerate(tokens):
            if token == ".":
                continue
            if code == "u":
                spot = (row, col, level + i)
            else:
                dr, dc = STEPS[DIRECTION_CODES[code]]
                spot = (row + i * dr, col + i * dc, level)
            placements.append((spot, parse_placed_tile(token)))
    else:
        rest = words[1:]
        if len(rest) % 2 != 1:
            raise NotationError(
                f"move {text!r}: one tile per spot ('0,0:1 3r'); several tiles need a direction after the spot "
                "('0,0:1a 3r 2r') or a spot each ('0,0:1 3r 0,1:1 2r')"
            )
        placements.append(((row, col, level), parse_placed_tile(rest[0])))
        for spot_text, tile_text in zip(rest[1::2], rest[2::2], strict=True):
            more = HEAD.fullmatch(spot_text)
            if more is None or more[4]:
                raise NotationError(f"move {text!r}: {spot_text!r} is not a spot (ROW,COL:LEVEL)")
            placements.append(((int(more[1]), int(more[2]), int(more[3])), parse_placed_tile(tile_text)))
    spots = [spot for spot, _ in placements]
    if len(set(spots)) != len(spots):
        raise NotationError(f"move {text!r}: two tiles on one spot")
    return Place.of(placements)

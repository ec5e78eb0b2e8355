"""Match Five tiles, the bag, and the variant options.

A tile is its number then its colour, as in the other line games: ``3r`` is the red 3, ``2b`` the
blue 2. Colours are red ``r``, blue ``b``, yellow ``y``, orange ``o`` and green ``g``; numbers 1 to 5.
A wild in a hand (or the bag) is ``*``. On the board a wild stands for the tile it was declared as
when it was played, for the rest of the game (ruling 9): ``*2b`` is a wild standing for a blue 2,
which plays as a blue 2 and scores 0.

The sheet gives no tile count. The default bag (ruling 1) holds two of each of the 25
colour-numbers and the sheet's five wilds: 55 tiles; ``copies`` and ``wilds`` change it.

>>> len(MatchFiveOptions().tile_set()), MatchFiveOptions().tile_set()[:3], MatchFiveOptions().tile_set()[-1]
(55, ['1r', '1r', '1b'], '*')
>>> tile_name("3r"), tile_name("*2b"), tile_name("*"), face("*2b"), value("*2b"), value("4o")
('red 3', 'wild (as blue 2)', 'wild', '2b', 0, 4)
>>> parse_hand_tiles("3r * 5g")
['3r', '*', '5g']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.errors import NotationError
from engine.linegames.lines import LineKind, LineRule, all_distinct, all_same
from engine.values import Options, require

#: Colour codes in the order the issue names them (and the order tiles sort in).
COLOURS = "rbyog"
COLOUR_NAMES = {"r": "red", "b": "blue", "y": "yellow", "o": "orange", "g": "green"}
COLOUR_LIST = ", ".join(f"{code} {name}" for code, name in COLOUR_NAMES.items())
NUMBERS = "12345"
WILD = "*"
#: Every colour-number, numbers first: ``1r 1b 1y 1o 1g 2r ...``.
FACES: tuple[str, ...] = tuple(n + c for n in NUMBERS for c in COLOURS)

HAND_SIZE = 5
#: "a stack can only extend 5 tiles high", and a series holds at most five tiles.
MAX_SERIES = 5
MAX_HEIGHT = 5
#: "When a player completes a series of 5, she earns an additional 10 points."
FIVE_BONUS = 10
#: "For any remaining Wilds subtract 25 points."
WILD_PENALTY = 25
MIN_PLAYERS, MAX_PLAYERS = 2, 6

#: A series, horizontal or vertical: "same color / different number OR same number / different color",
#: at most five tiles (the line-games core's predicates on a tile's two attributes).
SERIES = LineRule(
    (
        LineKind("same colour series", MAX_SERIES, all_distinct, all_same),
        LineKind("same number series", MAX_SERIES, all_same, all_distinct),
    ),
    "the same colour in all different numbers, or the same number in all different colours",
)

HAND_TILE = re.compile(rf"[{NUMBERS}][{COLOURS}]|\{WILD}")
PLACED_TILE = re.compile(rf"\{WILD}?[{NUMBERS}][{COLOURS}]")


def is_wild(tile: str) -> bool:
    """A wild in hand (``*``) or on the board (``*2b``)."""
    return tile.startswith(WILD)


def face(tile: str) -> str:
    """The colour-number a placed tile plays as: itself, or what a wild was declared as."""
    return tile[-2:]


def value(tile: str) -> int:
    """Points: the number on the tile; a wild holds "zero point value"."""
    return 0 if is_wild(tile) else int(tile[0])


def hand_tile(tile: str) -> str:
    """The hand tile a placed tile came from: ``*2b`` -> ``*``, ``3r`` -> ``3r``."""
    return WILD if is_wild(tile) else tile


def tile_name(tile: str) -> str:
    """``red 3``, ``wild (as blue 2)``, ``wild``."""
    if tile == WILD:
        return "wild"
    name = f"{COLOUR_NAMES[tile[-1]]} {tile[-2]}"
    return f"wild (as {name})" if is_wild(tile) else name


def tile_sort_key(tile: str) -> tuple[int, int, int]:
    """Numbers, then colours in kit order; wilds last."""
    if tile == WILD:
        return (9, 9, 9)
    return (int(tile[-2]), COLOURS.index(tile[-1]), 1 if is_wild(tile) else 0)


def sort_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=tile_sort_key)


def parse_hand_tile(text: str) -> str:
    """A tile as held: ``3r`` or ``*`` (NotationError otherwise)."""
    if not HAND_TILE.fullmatch(text):
        raise NotationError(
            f"tile {text!r}: write a number 1-5 then a colour ({COLOUR_LIST}), e.g. 3r for the red 3, or * for a wild"
        )
    return text


def parse_hand_tiles(text: str) -> list[str]:
    """``"3r * 5g"`` or ``"3r,*,5g"`` -> ``["3r", "*", "5g"]``."""
    return [parse_hand_tile(part) for part in re.split(r"[\s,]+", text.strip()) if part]


def parse_placed_tile(text: str) -> str:
    """A tile as played: ``3r``, or a wild with the tile it stands for, ``*2b``."""
    if text == WILD:
        raise NotationError("a wild is played as the tile it stands for: *2b is a wild played as a blue 2")
    if not PLACED_TILE.fullmatch(text):
        raise NotationError(f"tile {text!r}: write 3r (a red 3) or *2b (a wild played as a blue 2)")
    return text


def format_tiles(tiles: Sequence[str]) -> str:
    return " ".join(tiles)


def hand_total(hand: Iterable[str]) -> int:
    """ "The highest combined point value (according to the numeric value on the tiles)": wilds 0."""
    return sum(value(tile) for tile in hand)


def hand_penalty(hand: Iterable[str]) -> int:
    """What the tiles left in a hand cost at the end: their numbers, and 25 for each wild."""
    return sum(WILD_PENALTY if tile == WILD else value(tile) for tile in hand)


def is_series(faces: Sequence[str]) -> bool:
    """Do these colour-numbers (two or more) make a series? (A single tile is no series.)"""
    return SERIES.admits(list(faces))


@dataclass(frozen=True)
class MatchFiveOptions(Options):
    """Match Five's options: 2-6 ``players``; the bag holds ``copies`` of each of the 25
    colour-numbers and ``wilds`` wild tiles (ruling 1: the sheet gives no count; 2 and 5 by default)."""

    players: int = 2
    copies: int = 2
    wilds: int = 5

    def validate(self) -> None:
        for name in ("players", "copies", "wilds"):
            got = getattr(self, name)
            require(isinstance(got, int) and not isinstance(got, bool), f"{name} must be a whole number")
        require(MIN_PLAYERS <= self.players <= MAX_PLAYERS, f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
        require(1 <= self.copies <= 4, "copies (of each colour-number tile) must be 1 to 4")
        require(0 <= self.wilds <= 10, "wilds must be 0 to 10")
        require(
            self.copies * len(FACES) + self.wilds >= self.players * HAND_SIZE,
            f"{self.players} players need {self.players * HAND_SIZE} tiles to deal five each; the bag holds "
            f"{self.copies * len(FACES) + self.wilds}",
        )

    def tile_set(self) -> list[str]:
        """Every tile of the bag, in a fixed order (the game shuffles it)."""
        return [tile for tile in FACES for _ in range(self.copies)] + [WILD] * self.wilds

    def tile_counts(self) -> Counter[str]:
        return Counter(self.tile_set())

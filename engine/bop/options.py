"""BOP! tiles: the sheet's letter distribution, the default colours, and the variant options.

A tile is a short string: a letter tile is its consonant (upper case) followed by its colour code
(lower case), ``"Sy"`` for a yellow S; the BOP! tile is ``"?"`` (it has no colour). Tiles are
values: two yellow S tiles are interchangeable, so hands and the pile are lists of these strings.

>>> tile_letter("Sy"), tile_colour("Sy"), tile_colour(BOP)
('S', 'y', None)
>>> sorted(DEFAULT_COLOURS["M"])
['b', 'y']
>>> len(BopOptions().tile_set())
60
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.errors import ConfigError, NotationError
from engine.values import Options, require

#: The BOP! tile.
BOP = "?"
#: The 21 BOP! consonants ("Y is always a consonant"), in the order of the sheet's table.
CONSONANTS = "BCDFGHJKLMNPQRSTVWXYZ"

#: The sheet's "BOP! Letter Distribution": 58 letter tiles (its table, counted).
DISTRIBUTION: dict[str, int] = {
    "B": 2, "C": 2, "D": 4, "F": 2, "G": 2, "H": 4, "J": 2, "K": 2, "L": 4, "M": 2, "N": 6,
    "P": 2, "Q": 2, "R": 4, "S": 4, "T": 4, "V": 2, "W": 2, "X": 2, "Y": 2, "Z": 2,
}  # fmt: skip

#: Colour codes and names. The default palette is D!Git's five (same designer, same box).
COLOUR_NAMES: dict[str, str] = {
    "y": "yellow", "g": "green", "r": "red", "k": "black", "b": "blue",
    "o": "orange", "p": "purple", "w": "white", "n": "brown", "c": "cyan",
}  # fmt: skip
DEFAULT_PALETTE = "ygrkb"


def default_colours() -> dict[str, str]:
    """The default colour of every tile: copy k of the i-th consonant is ``PALETTE[(i + k) % 5]``.

    The real colours were on the sheet's pictures and are lost. This rule is the simplest that
    (a) gives every letter's copies different colours (the play example's WHMMY needs two M tiles of
    different colours) and (b) lets the sheet's whole play example score as printed
    (see ``engine/bop/README.md``).
    """
    return {
        letter: "".join(DEFAULT_PALETTE[(i + k) % len(DEFAULT_PALETTE)] for k in range(count))
        for i, (letter, count) in enumerate(DISTRIBUTION.items())
    }


DEFAULT_COLOURS: dict[str, str] = default_colours()

TILE = re.compile(r"[A-Z][a-z]|\?")
MODES = ("strict", "challenge")
MIN_COLOURS = 5  # "5 consecutive different colour lttrs" needs five colours
MAX_PLAYERS = 8
HAND_SIZE = 5


def tile_letter(tile: str) -> str:
    """The consonant on a tile, ``?`` for the BOP! tile."""
    return tile[0]


def tile_name(tile: str) -> str:
    """A tile as a player reads it: ``"yellow S"``, ``"BOP! tile"``."""
    return "BOP! tile" if tile == BOP else f"{COLOUR_NAMES.get(tile[1], tile[1])} {tile[0]}"


def tile_colour(tile: str) -> str | None:
    """The tile's colour code; None for the BOP! tile ("is not a specific color")."""
    return tile[1] if len(tile) > 1 else None


#: What may stand between tiles.
_SEPARATORS = re.compile(r"[\s,]+")


def parse_tiles(text: str) -> list[str]:
    """``"Sy Rg ?"`` or ``"SyRg?"`` -> ``["Sy", "Rg", "?"]``; NotationError on anything else."""
    if not text:  # a pass without tiles: every pass in a game reads its tiles
        return []
    compact = _SEPARATORS.sub("", text)
    tiles = TILE.findall(compact)
    if "".join(tiles) != compact:
        raise NotationError(
            f"tiles {text!r}: write each tile as its letter and colour code (Sy, Rg ...) or ? for a BOP! tile"
        )
    for tile in tiles:
        if tile != BOP and tile[0] not in CONSONANTS:
            raise NotationError(f"tile {tile!r}: {tile[0]} is not a BOP! consonant (vowels are not tiles)")
        if tile != BOP and tile[1] not in COLOUR_NAMES:
            in_play = ", ".join(f"{code}={COLOUR_NAMES[code]}" for code in DEFAULT_PALETTE)
            raise NotationError(f"tile {tile!r}: {tile[1]!r} is not a colour; the tiles' colours are {in_play}")
    return tiles


@dataclass(frozen=True)
class BopOptions(Options):
    """BOP!'s variant options.

    - ``players``: 2 to 8 (the sheet names no limit; 8 hands of 5 leave 19 tiles in the pile);
    - ``mode``: ``strict`` (a play with a non-word is refused) or ``challenge`` (the sheet's
      challenges);
    - ``colours``: letter -> one colour code per copy (``{"M": "kb", ...}``); letters not named keep
      the default; at least five colours in all;
    - ``bop_tiles``: how many BOP! tiles (the sheet: 2);
    - ``pass_limit``: a house rule: the game also ends after this many passes in a row (0, the
      default: only a blocked game ends so, when every player passed in turn and the pile is empty).
    """

    players: int = 2
    mode: str = "strict"
    colours: Any = None
    bop_tiles: int = 2
    pass_limit: int = 0

    def validate(self) -> None:
        require(
            isinstance(self.players, int) and 2 <= self.players <= MAX_PLAYERS, f"players must be 2 to {MAX_PLAYERS}"
        )
        require(self.mode in MODES, f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        require(isinstance(self.bop_tiles, int) and 0 <= self.bop_tiles <= 2, "bop_tiles must be 0, 1 or 2")
        require(isinstance(self.pass_limit, int) and self.pass_limit >= 0, "pass_limit must be 0 or more")
        colours = self.colour_table()
        used = {code for codes in colours.values() for code in codes}
        require(len(used) >= MIN_COLOURS, f"the tiles need at least {MIN_COLOURS} colours, got {len(used)}")

    def colour_table(self) -> dict[str, str]:
        """Every letter's colour codes, one per copy (defaults merged with ``colours``)."""
        table = dict(DEFAULT_COLOURS)
        if self.colours is None:
            return table
        if not isinstance(self.colours, dict):
            raise ConfigError('colours must map letters to colour codes, e.g. {"M": "kb"}')
        for letter, codes in self.colours.items():
            require(letter in DISTRIBUTION, f"colours: {letter!r} is not a BOP! consonant")
            require(
                isinstance(codes, str) and len(codes) == DISTRIBUTION[letter],
                f"colours: {letter} has {DISTRIBUTION[letter]} tiles, so it needs {DISTRIBUTION[letter]} colour codes",
            )
            require(all(c in COLOUR_NAMES for c in codes), f"colours: codes are {', '.join(COLOUR_NAMES)}")
            table[letter] = codes
        return table

    def tile_set(self) -> list[str]:
        """All tiles in the box, in a fixed order (the set-up shuffles a copy)."""
        tiles = [letter + code for letter, codes in self.colour_table().items() for code in codes]
        return tiles + [BOP] * self.bop_tiles

    def tile_counts(self) -> Counter[str]:
        return Counter(self.tile_set())

    def passes_to_end(self) -> int | None:
        """Passes in a row that end the game whatever the pile holds (the house rule), or None."""
        return self.pass_limit or None

    def __hash__(self) -> int:
        return hash((self.players, self.mode, repr(self.colours), self.bop_tiles, self.pass_limit))

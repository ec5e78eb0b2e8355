"""D!Git's tiles, the box, and the options.

A tile is its number then its colour code: ``"9y"`` is the yellow 9. Wilds: ``"?y"`` is the blank
yellow tile ("can take any numerical value, but must properly represent their color"), ``"??"`` the
D!Git tile ("represents any other tile allowed in its position"). Colours: ``y`` yellow, ``g``
green, ``r`` red, ``k`` black, ``b`` blue (the play example names all five).

The box holds 60 tiles: the 50 numbered tiles (each number in each colour once) and ten wilds. The
split of the wilds was on a lost picture; by default there are five blank tiles, one per colour,
and five D!Git tiles (RULINGS.md 1); both are options.

>>> KIT.name("9y"), KIT.name("?k"), KIT.name("??")
('yellow 9', 'blank black tile', 'D!Git tile')
>>> len(DigitOptions().tile_set()), DigitOptions().tile_set()[-10:]
(60, ['?y', '?g', '?r', '?k', '?b', '??', '??', '??', '??', '??'])
>>> sorted(["5k", "??", "9g", "?y", "9r"], key=draw_rank, reverse=True)
['??', '?y', '9g', '9r', '5k']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.linegames.tiles import WILD, TileKit
from engine.values import Options, require

NUMBERS = "0123456789"
COLOURS = "ygrkb"
DIGIT_TILE = WILD + WILD
KIT = TileKit(NUMBERS, COLOURS, wild_names={"??": "D!Git tile", "?c": "blank {colour} tile"})
MAX_PLAYERS = 6


def blank(colour: str) -> str:
    return WILD + colour


def draw_rank(tile: str) -> int:
    """The draw for first player: "highest tile (closest to the top of the distribution chart)". The
    chart listed D!Git tiles, then blank tiles, then numbered ones (the Contents' order); a higher
    number is a higher tile, and colour does not count (RULINGS.md 7)."""
    if tile == DIGIT_TILE:
        return 20
    if tile[0] == WILD:
        return 10
    return NUMBERS.index(tile[0])


@dataclass(frozen=True)
class DigitOptions(Options):
    """D!Git's options.

    - ``players``: 2 to 6 (the 60 tiles share out equally among 2, 3, 4, 5 or 6);
    - ``blanks``: the blank tiles' colours, one code per tile (default one of each colour);
    - ``digit_tiles``: how many D!Git tiles (default 5).

    The tiles must share out equally among the players ("distribute tiles face down equally"):
    50 + blanks + D!Git tiles a multiple of ``players`` (RULINGS.md 16).
    """

    players: int = 2
    blanks: str = COLOURS
    digit_tiles: int = 5

    def validate(self) -> None:
        require(
            isinstance(self.players, int) and 2 <= self.players <= MAX_PLAYERS, f"players must be 2 to {MAX_PLAYERS}"
        )
        require(
            isinstance(self.blanks, str) and all(c in COLOURS for c in self.blanks),
            f"blanks are colour codes ({COLOURS}), one per blank tile",
        )
        require(isinstance(self.digit_tiles, int) and 0 <= self.digit_tiles <= 10, "digit_tiles must be 0 to 10")
        total = len(NUMBERS) * len(COLOURS) + len(self.blanks) + self.digit_tiles
        require(
            total % self.players == 0,
            f"the {total} tiles do not share out equally among {self.players} players (change blanks or digit_tiles)",
        )

    def tile_set(self) -> list[str]:
        """All tiles in the box, in a fixed order (the set-up shuffles a copy)."""
        numbered = [n + c for c in COLOURS for n in NUMBERS]
        return numbered + [blank(c) for c in self.blanks] + [DIGIT_TILE] * self.digit_tiles

    def tile_counts(self) -> Counter[str]:
        return Counter(self.tile_set())

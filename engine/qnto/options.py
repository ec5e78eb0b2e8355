"""Q!nto's tiles, the box, and the options.

A tile is its shape then its colour code. Shapes, in the sheet's rank order ♠ ! ♦ ♥ ♣, are written
``S ! D H C``; colours ``y`` yellow, ``g`` green, ``r`` red, ``k`` black, ``b`` blue (the play
example names yellow, green, red and blue; black, as in D!Git, is the fifth: RULINGS.md 1). So
``"Hy"`` is the yellow heart and ``"!k"`` the black "!" tile. Wilds: ``"?y"`` is the yellow wild
(any shape in yellow), ``"H?"`` the heart wild (a heart of any colour), ``"??"`` a Q!nto tile.

The box: two of each of the 25 tiles, 4 colour wilds, 4 shape wilds and 2 Q!nto tiles (60). Which
colours and shapes the wilds have was on the pictures; by default the colour wilds are the four
colours the example names (yellow, green, red, blue) and the shape wilds the four suits other than
"!" (RULINGS.md 2). Both are options.

>>> KIT.name("Hy"), KIT.name("!k"), KIT.name("?b"), KIT.name("H?"), KIT.name("??")
('yellow heart', 'black bang', 'blue wild', 'heart wild', 'Q!nto tile')
>>> len(QntoOptions().tile_set()), SYMBOLS["S"]
(60, '♠')
>>> sorted(["Ck", "??", "Sb", "!y", "?g"], key=draw_rank, reverse=True)
['Sb', '!y', 'Ck', '??', '?g']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.linegames.tiles import WILD, TileKit
from engine.values import Options, require

SHAPES = "S!DHC"
COLOURS = "ygrkb"
SHAPE_NAMES = {"S": "spade", "!": "bang", "D": "diamond", "H": "heart", "C": "club"}
SYMBOLS = {"S": "♠", "!": "!", "D": "♦", "H": "♥", "C": "♣", WILD: "?"}
QNTO_TILE = WILD + WILD
KIT = TileKit(
    SHAPES, COLOURS, face_names=SHAPE_NAMES, wild_names={"??": "Q!nto tile", "?c": "{colour} wild", "f?": "{face} wild"}
)
VARIANTS = ("classic", "plus", "light")
MAX_PLAYERS = 6


def draw_rank(tile: str) -> int:
    """The draw for first player: "high suit ♠!♦♥♣ goes first". A tile without a suit (a colour
    wild, a Q!nto tile) ranks below the club (RULINGS.md 12)."""
    return len(SHAPES) - SHAPES.index(tile[0]) if tile[0] != WILD else 0


@dataclass(frozen=True)
class QntoOptions(Options):
    """Q!nto's options.

    - ``variant``: ``classic`` (scores, one common pile), ``plus`` (classic, and valid diagonal lines
      of 3 or more score too), ``light`` (no score, a pile each, another turn for a Q!nto);
    - ``players``: 2 to 6;
    - ``colour_wilds``: the colour wilds' colours, one code per tile (default ``ygrb``);
    - ``shape_wilds``: the shape wilds' shapes, one code per tile (default ``SDHC``);
    - ``qnto_tiles``: how many Q!nto tiles (default 2);
    - ``idle_limit``: a house rule: the game also ends after this many turns in a row on which nobody
      placed a tile (passes and swaps), whatever the hands and piles could still do; 0, the default, is
      off: a game ends only when a player goes out or nobody can place a tile at all (RULINGS.md 18).

    Light shares all the tiles out equally (RULINGS.md 17): a box that does not is refused.
    """

    variant: str = "classic"
    players: int = 2
    colour_wilds: str = "ygrb"
    shape_wilds: str = "SDHC"
    qnto_tiles: int = 2
    idle_limit: int = 0

    def validate(self) -> None:
        require(self.variant in VARIANTS, f"variant must be one of {', '.join(VARIANTS)}, not {self.variant!r}")
        require(
            isinstance(self.players, int) and 2 <= self.players <= MAX_PLAYERS, f"players must be 2 to {MAX_PLAYERS}"
        )
        require(
            isinstance(self.colour_wilds, str) and all(c in COLOURS for c in self.colour_wilds),
            f"colour_wilds are colour codes ({COLOURS}), one per tile",
        )
        require(
            isinstance(self.shape_wilds, str) and all(s in SHAPES for s in self.shape_wilds),
            f"shape_wilds are shape codes ({SHAPES}), one per tile",
        )
        require(isinstance(self.qnto_tiles, int) and 0 <= self.qnto_tiles <= 4, "qnto_tiles must be 0 to 4")
        require(
            isinstance(self.idle_limit, int) and not isinstance(self.idle_limit, bool) and self.idle_limit >= 0,
            "idle_limit must be a whole number of 0 or more (0: no limit, the default)",
        )
        total = len(self.tile_set())
        require(
            not self.personal_piles or total % self.players == 0,
            f"Q!nto Light shares all the tiles out equally: {total} tiles do not share among {self.players} players",
        )

    def turns_to_block(self) -> int | None:
        """The house rule's turns in a row without a tile placed that end the game, or None when the
        table set none (the default: RULINGS.md 18)."""
        return self.idle_limit or None

    @property
    def scored(self) -> bool:
        return self.variant != "light"

    @property
    def diagonals(self) -> bool:
        return self.variant == "plus"

    @property
    def personal_piles(self) -> bool:
        return self.variant == "light"

    def tile_set(self) -> list[str]:
        """All tiles in the box, in a fixed order (the set-up shuffles a copy)."""
        tiles = [s + c for s in SHAPES for c in COLOURS] * 2
        tiles += [WILD + c for c in self.colour_wilds] + [s + WILD for s in self.shape_wilds]
        return tiles + [QNTO_TILE] * self.qnto_tiles

    def tile_counts(self) -> Counter[str]:
        return Counter(self.tile_set())

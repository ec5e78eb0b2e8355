"""The board's squares: doubles, triples, repeats and the start square, as a small text picture.

A layout is one character per square, one line (or ``/``-separated part) per row:

=====  ===========================================================================
``.``  a plain square
``d``  double: the token placed on it counts twice (a three completed through it: 60)
``t``  triple: three times (a three completed through it: 90)
``r``  repeat: the player plays again after refilling their hand
``*``  the start square: the first play must cover it, and it counts as a double
=====  ===========================================================================

The default, ``classic``, is the original online game's board (see ``engine/three2fifteen/README.md``):
15 x 15, eight triples, eight doubles plus the start square at the centre, eight repeats, the same
under every rotation and reflection of the square.

>>> layout = named_layout("classic")
>>> layout.height, layout.width, layout.start
(15, 15, (7, 7))
>>> layout.multiplier((7, 7)), layout.multiplier((1, 4)), layout.is_repeat((0, 7))
(2, 3, True)
>>> named_layout(".../.*./..r").square((2, 2))
'r'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from engine.errors import ConfigError

Cell = tuple[int, int]

PLAIN, DOUBLE, TRIPLE, REPEAT, START = ".", "d", "t", "r", "*"
SQUARE_NAMES = {PLAIN: "plain", DOUBLE: "double", TRIPLE: "triple", REPEAT: "repeat", START: "start"}
#: "The center space ... acts as a double."
MULTIPLIERS = {DOUBLE: 2, TRIPLE: 3, START: 2}
MIN_SIDE, MAX_SIDE = 3, 25

CLASSIC = "/".join(
    (
        ".......r.......",
        ".r..t.....t..r.",
        "...............",
        ".......d.......",
        ".t..d.....d..t.",
        "...............",
        "...............",
        "r..d...*...d..r",
        "...............",
        "...............",
        ".t..d.....d..t.",
        ".......d.......",
        "...............",
        ".r..t.....t..r.",
        ".......r.......",
    )
)
LAYOUTS = {"classic": CLASSIC}


@dataclass(frozen=True)
class Layout:
    """The squares of a board, rows top to bottom; cells are ``(row, col)`` from the top-left ``(0, 0)``."""

    rows: tuple[str, ...]
    start: Cell = field(init=False)
    #: premium and repeat squares only; every other cell is plain
    specials: dict[Cell, str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not MIN_SIDE <= len(self.rows) <= MAX_SIDE:
            raise ConfigError(f"layout: {len(self.rows)} rows; a board has {MIN_SIDE} to {MAX_SIDE}")
        width = len(self.rows[0])
        if any(len(row) != width for row in self.rows) or not MIN_SIDE <= width <= MAX_SIDE:
            raise ConfigError(f"layout: every row needs the same length, {MIN_SIDE} to {MAX_SIDE} squares")
        specials = {}
        for r, row in enumerate(self.rows):
            for c, square in enumerate(row):
                if square not in SQUARE_NAMES:
                    raise ConfigError(
                        f"layout: {square!r} at {r},{c} is no square; use "
                        + ", ".join(f"{code} ({name})" for code, name in SQUARE_NAMES.items())
                    )
                if square != PLAIN:
                    specials[(r, c)] = square
        starts = [cell for cell, square in specials.items() if square == START]
        if len(starts) != 1:
            raise ConfigError(f"layout: exactly one start square (*) is needed, found {len(starts)}")
        object.__setattr__(self, "start", starts[0])
        object.__setattr__(self, "specials", specials)

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Rows as lines or ``/``-separated parts; blank lines and surrounding spaces are ignored."""
        rows = tuple(part.strip() for part in text.replace("/", "\n").splitlines() if part.strip())
        if not rows:
            raise ConfigError("layout: no rows")
        return cls(rows)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < len(self.rows) and 0 <= cell[1] < len(self.rows[0])

    def square(self, cell: Cell) -> str:
        return self.specials.get(cell, PLAIN)

    def multiplier(self, cell: Cell) -> int:
        return MULTIPLIERS.get(self.specials.get(cell, PLAIN), 1)

    def is_repeat(self, cell: Cell) -> bool:
        return self.specials.get(cell) == REPEAT

    def to_text(self) -> str:
        return "/".join(self.rows)


@functools.lru_cache(maxsize=32)
def named_layout(name_or_text: str) -> Layout:
    """A layout by name (``classic``) or from its text (ConfigError if it is neither)."""
    return Layout.parse(LAYOUTS.get(name_or_text, name_or_text))

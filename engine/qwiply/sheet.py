"""The Qwiply score sheet: six suit rows of the numbers 1-6, their marks, the bids and the penalties.

A :class:`Sheet` is a frozen value; every change (``with_setup``, ``with_mark``, ``with_penalty``)
returns a new sheet. It converts to JSON and back without loss, and to a text form laid out like
the paper sheet, which also reads back (the tests write their positions that way):

>>> sheet = Sheet().with_setup((1, 2, 3, 4, 5), (3, 2, 4, 3, 3))
>>> sheet = sheet.with_mark(Suit.SUN, 3, Mark.WIN).with_mark(Suit.STARFISH, 2, Mark.WIN, won_for=Suit.DRINK)
>>> print(sheet.to_text())
suit           1   2   3   4   5   6   bid wins
Sun           /1   2  (3)  4   5   6     3    1
Palm Tree      1  /2   3   4   5   6     2    0
Drink          1   2  /3   4   5   6     4    1
Sunglasses     1   2   3  /4   5   6     3    0
Water          1   2   3   4  /5   6     3    0
               .   D   .   .   .   .
Starfish       1  (2)  3   4   5   6
penalty       [ ] [ ] [ ]
>>> Sheet.from_text(sheet.to_text()) == sheet == Sheet.from_json(sheet.to_json())
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from typing import Any

from engine.errors import IllegalMoveError, NotationError, StateError

NUMBERS = (1, 2, 3, 4, 5, 6)
#: The most wins one main suit can reach: the five numbers its row keeps after set-up, plus all six
#: starfish numbers. A bid above it could never be met.
MAX_BID = 11
#: Boxes drawn on the PENALTY track when the options say nothing else (the third one ends the game).
PENALTY_BOXES = 3


class Suit(IntEnum):
    """The six rows, in the sheet's order; the first five are the main suits (they can lead and be bid)."""

    SUN = 0
    PALM = 1
    DRINK = 2
    GLASSES = 3
    WATER = 4
    STARFISH = 5

    @property
    def key(self) -> str:
        """The suit's name in move notation and JSON (``sun``, ``palm``, ... ``starfish``)."""
        return SUIT_KEYS[self]

    @property
    def title(self) -> str:
        """The suit's name as the sheet prints it (``Palm Tree``)."""
        return SUIT_TITLES[self]

    @property
    def code(self) -> str:
        """One letter: what the sheet's text form writes in the box above a starfish circle."""
        return SUIT_CODES[self]


SUIT_KEYS = ("sun", "palm", "drink", "glasses", "water", "starfish")
SUIT_TITLES = ("Sun", "Palm Tree", "Drink", "Sunglasses", "Water", "Starfish")
SUIT_CODES = ("S", "P", "D", "G", "W", "F")
MAIN_SUITS: tuple[Suit, ...] = (Suit.SUN, Suit.PALM, Suit.DRINK, Suit.GLASSES, Suit.WATER)
ALL_SUITS: tuple[Suit, ...] = (*MAIN_SUITS, Suit.STARFISH)

#: Every spelling :func:`parse_suit` reads: keys, titles (any case, with or without space or
#: hyphen), one-letter codes, and the obvious short forms.
SUIT_ALIASES: dict[str, Suit] = {
    **{key: suit for suit, key in zip(ALL_SUITS, SUIT_KEYS, strict=True)},
    **{code.lower(): suit for suit, code in zip(ALL_SUITS, SUIT_CODES, strict=True)},
    **{title.lower().replace(" ", ""): suit for suit, title in zip(ALL_SUITS, SUIT_TITLES, strict=True)},
    "shades": Suit.GLASSES,
    "star": Suit.STARFISH,
}


def parse_suit(text: str) -> Suit:
    """``"sun"``, ``"Palm Tree"``, ``"palm-tree"``, ``"G"``, ``"star"`` ... -> the suit; NotationError otherwise.

    >>> parse_suit("Palm-Tree"), parse_suit("g"), parse_suit("star")
    (<Suit.PALM: 1>, <Suit.GLASSES: 3>, <Suit.STARFISH: 5>)
    """
    suit = SUIT_ALIASES.get(re.sub(r"[\s_-]+", "", text.strip().lower()))
    if suit is None:
        raise NotationError(f"suit {text!r}: write one of {', '.join(SUIT_KEYS)} (or its letter {''.join(SUIT_CODES)})")
    return suit


class Mark(Enum):
    """What is on a number of the sheet."""

    OPEN = ""
    #: crossed out by the player at set-up (one in each main row)
    SETUP = "setup"
    #: circled: a round won (in the starfish row, won for the suit written above it)
    WIN = "win"
    #: crossed during play: a round lost
    LOSS = "loss"


OPEN_ROW: tuple[Mark, ...] = (Mark.OPEN,) * 6
NO_STARFISH: tuple[Suit | None, ...] = (None,) * 6


@dataclass(frozen=True)
class Sheet:
    """One player's sheet.

    - ``rows[suit][number - 1]`` is the :class:`Mark` on that number;
    - ``starfish_for[number - 1]`` is the suit written above a starfish circle (None where none is);
    - ``penalties``: PENALTY boxes crossed;
    - ``bids``: one per main suit in sheet order, None until the player has set up.

    Build sheets through the ``with_*`` methods or ``from_json`` / ``from_text`` (which check that
    the sheet could occur in a game); the constructor trusts its arguments, for speed in playouts.
    """

    rows: tuple[tuple[Mark, ...], ...] = (OPEN_ROW,) * 6
    starfish_for: tuple[Suit | None, ...] = NO_STARFISH
    penalties: int = 0
    bids: tuple[int, ...] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Sheet:
        return self  # immutable all through (tuples of enums and numbers): a state's clone may share it

    # --- reading ----------------------------------------------------------------------------------
    @property
    def is_set_up(self) -> bool:
        return self.bids is not None

    def mark(self, suit: Suit, number: int) -> Mark:
        return self.rows[suit][number - 1]

    def is_marked(self, suit: Suit, number: int) -> bool:
        """Any mark counts, the set-up cross included (ruling 1)."""
        return self.rows[suit][number - 1] is not Mark.OPEN

    def open_rows(self, number: int) -> tuple[Suit, ...]:
        """The rows where ``number`` is still unmarked, in sheet order."""
        return tuple(suit for suit in ALL_SUITS if self.rows[suit][number - 1] is Mark.OPEN)

    def crossed_out(self) -> tuple[int, ...] | None:
        """The number crossed out at set-up in each main row (None before set-up)."""
        if not self.is_set_up:
            return None
        return tuple(self.rows[suit].index(Mark.SETUP) + 1 for suit in MAIN_SUITS)

    def row_wins(self, suit: Suit) -> int:
        """Circles in the suit's own row."""
        return self.rows[suit].count(Mark.WIN)

    def starfish_wins(self, suit: Suit) -> int:
        """Starfish circles won for ``suit``."""
        return self.starfish_for.count(suit)

    def wins(self, suit: Suit) -> int:
        """Rounds won for a main suit: its row's circles plus the starfish circles written for it."""
        return self.row_wins(suit) + self.starfish_wins(suit)

    def is_complete(self, suit: Suit) -> bool:
        """Every number of the row is marked (a set-up cross counts, ruling 1)."""
        return Mark.OPEN not in self.rows[suit]

    def complete_rows(self) -> tuple[Suit, ...]:
        return tuple(suit for suit in ALL_SUITS if Mark.OPEN not in self.rows[suit])

    def marks_made(self) -> int:
        """Numbers marked during play (set-up crosses not counted)."""
        return sum(1 for row in self.rows for mark in row if mark is Mark.WIN or mark is Mark.LOSS)

    # --- changing (each returns a new sheet) ------------------------------------------------------
    def with_setup(self, crossed: tuple[int, ...], bids: tuple[int, ...]) -> Sheet:
        """The sheet after set-up: ``crossed[i]`` crossed out in main row i, ``bids[i]`` its bid."""
        if self.is_set_up:
            raise IllegalMoveError("already_set_up", "this sheet is already set up")
        rows = list(self.rows)
        for suit, number in zip(MAIN_SUITS, crossed, strict=True):
            rows[suit] = tuple(Mark.SETUP if n == number else Mark.OPEN for n in NUMBERS)
        return replace(self, rows=tuple(rows), bids=tuple(bids))

    def with_mark(self, suit: Suit, number: int, mark: Mark, won_for: Suit | None = None) -> Sheet:
        """Mark ``number`` in the row of ``suit``; a number already marked there can never be marked again."""
        if self.rows[suit][number - 1] is not Mark.OPEN:
            raise IllegalMoveError(
                "already_marked", f"{number} is already marked in the {suit.title} row: it cannot be used there again"
            )
        row = list(self.rows[suit])
        row[number - 1] = mark
        rows = (*self.rows[:suit], tuple(row), *self.rows[suit + 1 :])
        if suit is Suit.STARFISH:
            written = list(self.starfish_for)
            written[number - 1] = won_for
            return replace(self, rows=rows, starfish_for=tuple(written))
        return replace(self, rows=rows)

    def with_penalty(self) -> Sheet:
        return replace(self, penalties=self.penalties + 1)

    # --- JSON -------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Lossless: ``rows`` maps each suit key to six marks (``""``, ``setup``, ``win``, ``loss``)."""
        return {
            "rows": {suit.key: [mark.value for mark in self.rows[suit]] for suit in ALL_SUITS},
            "starfish_for": [None if suit is None else suit.key for suit in self.starfish_for],
            "penalties": self.penalties,
            "bids": None
            if self.bids is None
            else {suit.key: bid for suit, bid in zip(MAIN_SUITS, self.bids, strict=True)},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sheet:
        """Inverse of :meth:`to_json`; StateError for anything a game could not produce."""
        try:
            rows = tuple(tuple(Mark(value) for value in data["rows"][suit.key]) for suit in ALL_SUITS)
            starfish_for = tuple(None if key is None else _suit_key(key) for key in data["starfish_for"])
            penalties = data["penalties"]
            raw_bids = data["bids"]
            bids = None if raw_bids is None else tuple(raw_bids[suit.key] for suit in MAIN_SUITS)
        except (KeyError, TypeError, ValueError) as error:
            raise StateError(f"sheet: {error!r} (expected the form Sheet.to_json() writes)") from error
        if set(data) != {"rows", "starfish_for", "penalties", "bids"} or (
            raw_bids is not None and set(raw_bids) != set(SUIT_KEYS[:5])
        ):
            raise StateError("sheet: unexpected keys")
        sheet = cls(rows, starfish_for, penalties, bids)
        problem = sheet.problem()
        if problem:
            raise StateError(f"sheet: {problem}")
        return sheet

    def problem(self) -> str | None:
        """What makes this sheet one no game could produce, or None."""
        if len(self.rows) != 6 or any(len(row) != 6 for row in self.rows) or len(self.starfish_for) != 6:
            return "six rows of six numbers, and six starfish boxes"
        if not _is_count(self.penalties):
            return "penalties must be a whole number, 0 or more"
        if self.bids is None:
            if any(row != OPEN_ROW for row in self.rows) or self.penalties or self.starfish_for != NO_STARFISH:
                return "a sheet is set up (numbers crossed out, bids written) before anything else is marked"
            return None
        if len(self.bids) != 5 or not all(_is_count(bid) and bid <= MAX_BID for bid in self.bids):
            return f"five bids, each 0 to {MAX_BID}"
        for suit in MAIN_SUITS:
            if self.rows[suit].count(Mark.SETUP) != 1:
                return f"the {suit.title} row needs exactly one number crossed out at set-up"
        star = self.rows[Suit.STARFISH]
        if any(mark not in (Mark.OPEN, Mark.WIN) for mark in star):
            return "starfish numbers are only ever circled"
        for number, (mark, written) in enumerate(zip(star, self.starfish_for, strict=True), start=1):
            if (mark is Mark.WIN) != (written is not None):
                return f"starfish {number}: a circle has a lead suit written above it, and only a circle has"
            if written is Suit.STARFISH:
                return f"starfish {number}: the starfish never leads"
        return None

    # --- text like the paper sheet ----------------------------------------------------------------
    def to_text(self, show_bids: bool = True, penalty_boxes: int = PENALTY_BOXES) -> str:
        """The sheet as printed: ``/1`` crossed out at set-up, ``(3)`` circled, ``x4`` crossed, ``5`` open.

        The line above the starfish row is its boxes: the letter of the suit each circle was won for
        (S P D G W), ``.`` where no circle is. A bid not yet written or not shown is ``?``.
        """
        lines = [f"{'suit':<{TITLE_WIDTH}}" + "".join(f"{n:>3} " for n in NUMBERS) + "  bid wins"]
        for suit in MAIN_SUITS:
            bid = "?" if self.bids is None or not show_bids else str(self.bids[suit])
            cells = "".join(_cell_text(mark, n) for n, mark in zip(NUMBERS, self.rows[suit], strict=True))
            lines.append(f"{suit.title:<{TITLE_WIDTH}}{cells}{bid:>5}{self.wins(suit):>5}")
        boxes = "".join(f"{'.' if s is None else s.code:>3} " for s in self.starfish_for)
        lines.append((" " * TITLE_WIDTH + boxes).rstrip())
        stars = "".join(_cell_text(mark, n) for n, mark in zip(NUMBERS, self.rows[Suit.STARFISH], strict=True))
        lines.append((f"{Suit.STARFISH.title:<{TITLE_WIDTH}}" + stars).rstrip())
        track = " ".join("[x]" if i < self.penalties else "[ ]" for i in range(max(penalty_boxes, self.penalties)))
        lines.append(f"{'penalty':<{TITLE_WIDTH}} {track}")
        return "\n".join(line.rstrip() for line in lines)

    @classmethod
    def from_text(cls, text: str) -> Sheet:
        """Read the form :meth:`to_text` writes (spacing is free); NotationError on anything else.

        Bids are all numbers or all ``?`` (a sheet not set up: then nothing may be marked). A
        ``wins`` column, when present, must agree with the marks. The header line is optional.
        """
        rows: dict[Suit, tuple[Mark, ...]] = {}
        bids: dict[Suit, int | None] = {}
        wins_written: dict[Suit, int] = {}
        boxes: tuple[Suit | None, ...] = NO_STARFISH
        penalties: int | None = None
        for raw in text.strip("\n").splitlines():
            line = raw.strip()
            lowered = line.lower()
            if not line or lowered.startswith("suit"):
                continue
            if lowered.startswith("penalty"):
                penalties = _read_penalties(line)
                continue
            suit, rest = _row_title(line)
            if suit is None:
                boxes = _read_boxes(line)
                continue
            tokens = rest.split()
            if len(tokens) < 6:
                raise NotationError(f"sheet line {line!r}: six numbers expected after the suit")
            rows[suit] = tuple(_read_cell(token, n, suit) for n, token in zip(NUMBERS, tokens[:6], strict=True))
            extra = tokens[6:]
            if suit is Suit.STARFISH:
                if extra:
                    raise NotationError(f"sheet line {line!r}: the starfish row has no bid")
                continue
            if not 1 <= len(extra) <= 2:
                raise NotationError(f"sheet line {line!r}: after the six numbers, the bid (or ?) and the wins")
            bids[suit] = _read_bid(extra[0], line)
            if len(extra) == 2:
                if not _is_digits(extra[1]):
                    raise NotationError(f"sheet line {line!r}: wins {extra[1]!r} is not a number")
                wins_written[suit] = int(extra[1])
        missing = [suit.title for suit in ALL_SUITS if suit not in rows]
        if missing or penalties is None:
            raise NotationError(f"sheet: missing {', '.join(missing) or 'the penalty line'}")
        written = [bids[suit] for suit in MAIN_SUITS]
        if None in written and any(bid is not None for bid in written):
            raise NotationError("sheet: write every bid, or ? for all of them")
        sheet = cls(
            rows=tuple(rows[suit] for suit in ALL_SUITS),
            starfish_for=boxes,
            penalties=penalties,
            bids=None if None in written else tuple(bid for bid in written if bid is not None),
        )
        problem = sheet.problem()
        if problem:
            raise NotationError(f"sheet: {problem}")
        for suit, wins in wins_written.items():
            if sheet.wins(suit) != wins:
                raise NotationError(f"sheet: the {suit.title} row says {wins} wins, its marks make {sheet.wins(suit)}")
        return sheet


TITLE_WIDTH = 13
_CELL = re.compile(r"(/|x|\()?([1-6])(\))?", re.IGNORECASE)
_PREFIX_MARKS = {"/": Mark.SETUP, "x": Mark.LOSS}


def _cell_text(mark: Mark, number: int) -> str:
    """Four characters with the digit in the third, so that the columns line up under the header."""
    if mark is Mark.WIN:
        return f" ({number})"
    prefix = {Mark.OPEN: " ", Mark.SETUP: "/", Mark.LOSS: "x"}[mark]
    return f" {prefix}{number} "


def _read_cell(token: str, number: int, suit: Suit) -> Mark:
    match = _CELL.fullmatch(token)
    if match is None or (match[1] == "(") != (match[3] == ")"):
        raise NotationError(f"{suit.title} {token!r}: write a number as 3, (3) circled, x3 crossed or /3 crossed out")
    if int(match[2]) != number:
        raise NotationError(f"{suit.title}: {token!r} stands where {number} is printed")
    if match[1] == "(":
        return Mark.WIN
    return _PREFIX_MARKS.get((match[1] or "").lower(), Mark.OPEN)


def _row_title(line: str) -> tuple[Suit | None, str]:
    compact = line.lower()
    for suit in sorted(ALL_SUITS, key=lambda s: -len(s.title)):
        if compact.startswith(suit.title.lower()):
            return suit, line[len(suit.title) :]
    return None, line


def _read_boxes(line: str) -> tuple[Suit | None, ...]:
    tokens = line.split()
    codes = {code: suit for suit, code in zip(MAIN_SUITS, SUIT_CODES, strict=False)}
    if len(tokens) != 6 or any(token != "." and token.upper() not in codes for token in tokens):
        raise NotationError(f"sheet line {line!r}: not a suit row; the starfish boxes are six of . S P D G W")
    return tuple(None if token == "." else codes[token.upper()] for token in tokens)


def _read_penalties(line: str) -> int:
    track = re.sub(r"^penalty:?", "", line, flags=re.IGNORECASE)
    boxes = "".join(re.findall(r"\[([ xX])\]", track)).lower()
    if re.sub(r"\[[ xX]\]|\s", "", track) or re.fullmatch(r"x* *", boxes) is None:
        raise NotationError(f"sheet line {line!r}: the penalty track is boxes [x] crossed from the left, then [ ]")
    return boxes.count("x")


def _read_bid(token: str, line: str) -> int | None:
    if token == "?":
        return None
    if not _is_digits(token):
        raise NotationError(f"sheet line {line!r}: bid {token!r} is not a number or ?")
    return int(token)


def _suit_key(key: str) -> Suit:
    if key not in SUIT_KEYS:
        raise ValueError(f"unknown suit {key!r}")
    return Suit(SUIT_KEYS.index(key))


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_digits(token: str) -> bool:
    return re.fullmatch(r"[0-9]+", token) is not None

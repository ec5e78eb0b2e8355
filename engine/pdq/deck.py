"""The PDQ deck: 78 letter cards, the deal order, and what each card is worth.

The real letter distribution is not public. The default below was chosen once (the method is
in ``engine/pdq/README.md``) from how often each letter *starts* a word and how often it *appears*
in one, weighted by commonness in the standard lexicon, rounded to 78 cards with the rare letters
kept to one card each (J K Q Z) and X to two (Four Score removes "one X", so the deck has more
than one).

>>> sum(DEFAULT_DISTRIBUTION.values())
78
>>> deal_positions(3)
(1, 0, 2)
>>> place(["N", "P", "A"])
'PNA'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: The default 78-card distribution (see the module docstring for how it was chosen).
DEFAULT_DISTRIBUTION: dict[str, int] = {
    "A": 5, "B": 3, "C": 5, "D": 4, "E": 5, "F": 2, "G": 2, "H": 3, "I": 4, "J": 1, "K": 1, "L": 3, "M": 3,
    "N": 4, "O": 3, "P": 4, "Q": 1, "R": 5, "S": 6, "T": 5, "U": 2, "V": 1, "W": 2, "X": 2, "Y": 1, "Z": 1,
}  # fmt: skip

#: The alternate scoring: these cards count twice.
DOUBLE_LETTERS = frozenset("JKQXZ")


def build_deck(distribution: Mapping[str, int], removed: str = "") -> list[str]:
    """The cards in a fixed (alphabetical) order, before shuffling; ``removed`` takes one card per letter.

    >>> len(build_deck(DEFAULT_DISTRIBUTION, removed="ZX"))
    76
    """
    counts = Counter({letter: count for letter, count in distribution.items()})
    for letter in removed:
        if counts[letter] <= 0:
            raise ValueError(f"cannot remove a {letter}: the deck has none left")
        counts[letter] -= 1
    return [letter for letter in LETTERS for _ in range(counts[letter])]


def deal_positions(cards: int) -> tuple[int, ...]:
    """Where the 1st, 2nd, ... card dealt goes in the row (0 = leftmost).

    The sheet: the centre card first, then one to the left and one to the right. Two cards have no
    centre (left, then right); four have two centre cards (centre-left, centre-right, then the
    outside left and right): the same "inside out" order.
    """
    if cards == 2:
        return (0, 1)
    if cards == 3:
        return (1, 0, 2)
    if cards == 4:
        return (1, 2, 0, 3)
    raise ValueError(f"a PDQ deal is 2 to 4 cards, not {cards}")


def place(drawn: Sequence[str]) -> str:
    """The row, left to right, of cards in the order they were dealt."""
    row = [""] * len(drawn)
    for card, position in zip(drawn, deal_positions(len(drawn)), strict=True):
        row[position] = card
    return "".join(row)


def card_value(card: str, alternate: bool) -> int:
    """1, or 2 for J K Q X Z under the alternate scoring."""
    return 2 if alternate and card in DOUBLE_LETTERS else 1

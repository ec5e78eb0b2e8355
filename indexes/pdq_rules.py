"""What a PDQ word must do, word by word: the rules as the sheet states them, with reasons.

This module is the readable statement of each variant (``pdq_check`` answers through it, and
the index's fast path is tested against a separate brute-force reference). Letters are lower
case here; ``letters`` is the deal from left to right.

>>> explain("painter", "pna", "classic")
'out_of_order'
>>> explain("catnip", "pna", "classic")
'wrong_start'
>>> align("excellent", "xcn", "classic")
[1, 2, 7]
"""

from __future__ import annotations

from collections.abc import Sequence

#: Why a claimed word fails, in the order they are reported (the first that applies wins).
PDQ_REASONS = ("too_short", "wrong_start", "wrong_end", "out_of_order", "not_in_lexicon")
#: Variants whose words must start with an outside letter (any letter for any-order).
STARTING_VARIANTS = frozenset({"classic", "left-to-right", "start-end", "any-order"})


def start_index(word: str, letter: str) -> int | None:
    """Where the starting letter stands if ``word`` starts with it, else None.

    The EX rule: an outside X may be played as the "EX" a word begins with (XCN: excellent),
    so for X a word starting "ex" starts with it, at index 1.
    """
    if word.startswith(letter):
        return 0
    if letter == "x" and word.startswith("ex"):
        return 1
    return None


def readings(letters: str, variant: str) -> list[str]:
    """The orders in which the letters may be read: left to right, and right to left."""
    if variant == "left-to-right":
        return [letters]
    return [letters, letters[::-1]] if letters != letters[::-1] else [letters]


def follow(word: str, letters: Sequence[str], after: int) -> list[int] | None:
    """Positions of ``letters`` as a subsequence of ``word`` strictly after index ``after``."""
    positions = []
    at = after
    for letter in letters:
        at = word.find(letter, at + 1)
        if at < 0:
            return None
        positions.append(at)
    return positions


def _in_dealt_order(positions: list[int], reading: str, letters: str) -> list[int]:
    """Positions come in reading order; give them back in the order the cards were dealt."""
    return positions if reading == letters else positions[::-1]


def _align_reading(word: str, reading: str, variant: str) -> list[int] | None:
    if variant == "anywhere":
        return follow(word, reading, -1)
    start = start_index(word, reading[0])
    if start is None:
        return None
    if variant == "start-end":
        last = len(word) - 1
        if word[last] != reading[-1] or last <= start:
            return None
        inner = follow(word, reading[1:-1], start)
        if inner is None or (inner and inner[-1] >= last):
            return None
        return [start, *inner, last]
    rest = follow(word, reading[1:], start)
    return None if rest is None else [start, *rest]


def _align_any_order(word: str, letters: str) -> list[int] | None:
    for i, first in enumerate(letters):
        start = start_index(word, first)
        if start is None:
            continue
        others = letters[:i] + letters[i + 1 :]
        taken: set[int] = {start}
        positions: list[int] = []
        for letter in others:
            at = next((j for j in range(start + 1, len(word)) if word[j] == letter and j not in taken), None)
            if at is None:
                break
            taken.add(at)
            positions.append(at)
        else:
            return [*positions[:i], start, *positions[i:]]
    return None


def align(word: str, letters: str, variant: str) -> list[int] | None:
    """Where each dealt letter stands in ``word`` (in dealt order), or None if it does not fit."""
    if variant == "any-order":
        return _align_any_order(word, letters)
    for reading in readings(letters, variant):
        positions = _align_reading(word, reading, variant)
        if positions is not None:
            return _in_dealt_order(positions, reading, letters)
    return None


def explain(word: str, letters: str, variant: str, min_length: int = 4, in_lexicon: bool = True) -> str | None:
    """The first reason ``word`` fails the deal, in ``PDQ_REASONS`` order, or None if it is valid."""
    if len(word) < min_length:
        return "too_short"
    if variant in STARTING_VARIANTS:
        firsts = letters if variant == "any-order" else [r[0] for r in readings(letters, variant)]
        started = [c for c in firsts if start_index(word, c) is not None]
        if not started:
            return "wrong_start"
        if variant == "start-end":
            ends = {r[-1] for r in readings(letters, variant) if start_index(word, r[0]) is not None}
            if word[-1] not in ends:
                return "wrong_end"
    if align(word, letters, variant) is None:
        return "out_of_order"
    if not in_lexicon:
        return "not_in_lexicon"
    return None


"""The PDQ subsequence index: candidate word ids from posting lists, checked in bulk with numpy.

For each reading of the deal, a posting list gives a small superset of the answer (words starting
with the first letter whose rest holds the next two letters in order; or, for "anywhere", the
AND of pair bitmaps); then a vectorised greedy matcher walks the letters over per-word position
masks (bit i of ``positions[w, c]`` is set when letter c stands at index i of word w). Word ids
are ranks by commonness, so sorted id arrays are already in the "common" order.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from indexes.build import CODE, X
from indexes.pdq_rules import align

NO_POSITION = 64  # past every bit: once a letter is missing, nothing after it can match


def _bits_above(position: np.ndarray) -> np.ndarray:
    """uint64 masks of the bit indexes strictly greater than ``position`` (-1 gives every bit)."""
    shift = (position + 1).astype(np.uint64)
    below = np.where(shift >= 64, np.uint64(0xFFFFFFFFFFFFFFFF), (np.uint64(1) << np.minimum(shift, 63)) - np.uint64(1))
    return ~below


def _lowest_bit(mask: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit of each uint64 (``NO_POSITION`` for 0)."""
    low = mask & (~mask + np.uint64(1))
    with np.errstate(divide="ignore"):
        index = np.log2(low.astype(np.float64))
    return np.where(mask == 0, NO_POSITION, index).astype(np.int64)


def _highest_bit_mask(mask: np.ndarray) -> np.ndarray:
    """The highest set bit of each uint64 as a mask (1 for 0, so that "below it" is empty)."""
    with np.errstate(divide="ignore"):
        exponent = np.log2(mask.astype(np.float64))
    return np.uint64(1) << np.where(mask == 0, 0, exponent).astype(np.uint64)


def _sorted_union(parts: list[np.ndarray]) -> np.ndarray:
    """Sorted, duplicate-free union of sorted id arrays (cheaper than np.unique's hashing)."""
    ids = np.concatenate(parts)
    ids.sort()
    keep = np.empty(len(ids), dtype=bool)
    keep[:1] = True
    np.not_equal(ids[1:], ids[:-1], out=keep[1:])
    return ids[keep]


class PdqIndex:
    def __init__(self, arrays: dict[str, np.ndarray], long_words: dict[int, str]) -> None:
        """``long_words``: id -> spelling of the words too long for the position masks."""
        self.long_words = long_words
        self.positions = arrays["positions"]
        self.length = arrays["length"]
        self.last = arrays["last"]
        self.start_offsets = arrays["start_offsets"]
        self.start_words = arrays["start_words"]
        self.start_pair_offsets = arrays["start_pair_offsets"]
        self.start_pair_words = arrays["start_pair_words"]
        self.pair_bits = arrays["pair_bits"]
        self.size = len(self.length)

    # --- candidates -------------------------------------------------------------------------
    def _start_list(self, start: int) -> np.ndarray:
        return self.start_words[self.start_offsets[start] : self.start_offsets[start + 1]]

    def _start_pair_list(self, start: int, a: int, b: int) -> np.ndarray:
        key = start * 676 + a * 26 + b
        return self.start_pair_words[self.start_pair_offsets[key] : self.start_pair_offsets[key + 1]]

    def _long_enough(self, ids: np.ndarray, min_length: int) -> np.ndarray:
        return ids[self.length[ids] >= min_length]

    def _mask(self, ids: np.ndarray, letter: int) -> np.ndarray:
        return self.positions[ids, letter].astype(np.uint64)

    def _start_positions(self, ids: np.ndarray, start: int) -> np.ndarray:
        """0 where the word starts with the letter itself, 1 where X stands for its "ex"."""
        if start != X:
            return np.zeros(len(ids), dtype=np.int64)
        return np.where(self._mask(ids, X) & np.uint64(1), 0, 1).astype(np.int64)

    def _follow(self, ids: np.ndarray, position: np.ndarray, letters: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Greedy subsequence match of ``letters`` after ``position``: (matched?, last position)."""
        ok = np.ones(len(ids), dtype=bool)
        for letter in letters:
            found = self._mask(ids, letter) & _bits_above(position)
            ok &= found != 0
            position = _lowest_bit(found)
        return ok, position

    def _holds(self, ids: np.ndarray, position: np.ndarray, letters: list[int]) -> np.ndarray:
        """Do ``letters`` occur in order strictly after ``position``? (matched?)

        Greedy up to the last two letters; then one test instead of two steps: some occurrence of
        the next-to-last letter lies after the position and before the last letter's last occurrence.
        """
        ok, position = self._follow(ids, position, letters[:-2])
        if len(letters) == 1:
            return ok & ((self._mask(ids, letters[0]) & _bits_above(position)) != 0)
        last = self._mask(ids, letters[-1])
        before_last = _highest_bit_mask(last) - np.uint64(1)
        return ok & (last != 0) & ((self._mask(ids, letters[-2]) & _bits_above(position) & before_last) != 0)

    def _bitmap_ids(self, packed: np.ndarray) -> np.ndarray:
        """Word ids of the set bits of a packed bitmap, unpacking only its non-zero bytes."""
        nonzero = np.flatnonzero(packed)
        rows, bits = np.nonzero(np.unpackbits(packed[nonzero]).reshape(-1, 8))
        return (nonzero[rows] * 8 + bits).astype(np.uint32)

    # --- the variants ----------------------------------------------------------------------
    def _starting_reading(self, codes: list[int], min_length: int, to_end: bool) -> np.ndarray:
        start, rest = codes[0], codes[1:]
        ids = self._start_pair_list(start, rest[0], rest[1]) if len(rest) >= 2 else self._start_list(start)
        ids = self._long_enough(ids, min_length)
        if len(rest) == 2:
            # The (start, a, b) list is exact for three cards; to end on b, the last letter must be b.
            return ids[self.last[ids] == rest[-1]] if to_end else ids
        position = self._start_positions(ids, start)
        if not to_end:
            return ids[self._holds(ids, position, rest)]
        ok, position = self._follow(ids, position, rest[:-1])
        last_index = self.length[ids].astype(np.int64) - 1
        ok &= (self.last[ids] == rest[-1]) & (last_index > position)
        return ids[ok]

    def _anywhere_reading(self, codes: list[int], min_length: int) -> np.ndarray:
        # Every ordered pair of the reading must occur: a tight superset, checked word by word.
        bits = self.pair_bits[codes[0] * 26 + codes[1]]
        for i, a in enumerate(codes):
            for b in codes[i + 1 :]:
                bits = bits & self.pair_bits[a * 26 + b]
        ids = self._long_enough(self._bitmap_ids(bits), min_length)
        if len(codes) > 2:
            ids = ids[self._holds(ids, np.full(len(ids), -1, dtype=np.int64), codes)]
        return ids

    def _any_order(self, codes: list[int], min_length: int) -> list[np.ndarray]:
        found = []
        for start in sorted(set(codes)):
            others = list(codes)
            others.remove(start)
            if len(others) >= 2:
                a, b = others[0], others[1]
                ids = _sorted_union([self._start_pair_list(start, a, b), self._start_pair_list(start, b, a)])
            else:
                ids = self._start_list(start)
            ids = self._long_enough(ids, min_length)
            above = _bits_above(self._start_positions(ids, start))
            ok = np.ones(len(ids), dtype=bool)
            for letter, needed in Counter(others).items():
                ok &= np.bitwise_count(self._mask(ids, letter) & above) >= needed
            found.append(ids[ok])
        return found

    def matches(self, letters: str, variant: str, min_length: int) -> np.ndarray:
        """Sorted word ids (= most familiar first) of every word the deal admits."""
        codes = [CODE[c] for c in letters.lower()]
        readings = [codes] if variant == "left-to-right" or codes == codes[::-1] else [codes, codes[::-1]]
        if variant == "any-order":
            parts = self._any_order(codes, min_length)
        elif variant == "anywhere":
            parts = [self._anywhere_reading(r, min_length) for r in readings]
        else:
            parts = [self._starting_reading(r, min_length, to_end=variant == "start-end") for r in readings]
        ids = parts[0] if len(parts) == 1 else _sorted_union(parts)
        return self._settle_long_words(ids, letters.lower(), variant, min_length)

    def _settle_long_words(self, ids: np.ndarray, letters: str, variant: str, min_length: int) -> np.ndarray:
        """The masks only see a long word's first letters: decide those few words by the rules module."""
        for rank, word in self.long_words.items():
            belongs = len(word) >= min_length and align(word, letters, variant) is not None
            at = int(np.searchsorted(ids, rank))
            present = at < len(ids) and ids[at] == rank
            if belongs and not present:
                ids = np.insert(ids, at, rank)
            elif present and not belongs:
                ids = np.delete(ids, at)
        return ids

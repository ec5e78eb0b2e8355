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

    # --- the variants ----------------------------------------------------------------------
    def _starting_reading(self, codes: list[int], min_length: int, to_end: bool) -> np.ndarray:
        start, rest = codes[0], codes[1:]
        ids = self._start_pair_list(start, rest[0], rest[1]) if len(rest) >= 2 else self._start_list(start)
        ids = self._long_enough(ids, min_length)
        position = self._start_positions(ids, start)
        if not to_end:
            ok, _ = self._follow(ids, position, rest)
            return ids[ok]
        ok, position = self._follow(ids, position, rest[:-1])
        last_index = self.length[ids].astype(np.int64) - 1
        ok &= (self.last[ids] == rest[-1]) & (last_index > position)
        return ids[ok]

    def _anywhere_reading(self, codes: list[int], min_length: int) -> np.ndarray:
        bits = self.pair_bits[codes[0] * 26 + codes[1]]
        for a, b in zip(codes[1:], codes[2:], strict=False):
            bits = bits & self.pair_bits[a * 26 + b]
        ids = np.flatnonzero(np.unpackbits(bits, count=self.size)).astype(np.uint32)
        ids = self._long_enough(ids, min_length)
        if len(codes) > 2:
            ok, _ = self._follow(ids, np.full(len(ids), -1, dtype=np.int64), codes)
            ids = ids[ok]
        return ids

    def _any_order(self, codes: list[int], min_length: int) -> list[np.ndarray]:
        found = []
        for start in sorted(set(codes)):
            others = list(codes)
            others.remove(start)
            if len(others) >= 2:
                a, b = others[0], others[1]
                ids = np.union1d(self._start_pair_list(start, a, b), self._start_pair_list(start, b, a))
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
        ids = parts[0] if len(parts) == 1 else np.unique(np.concatenate(parts))
        return self._settle_long_words(ids, letters.lower(), variant, min_length)

    def _settle_long_words(self, ids: np.ndarray, letters: str, variant: str, min_length: int) -> np.ndarray:
        """The masks only see a long word's first letters: decide those words by the rules module."""
        if not self.long_words:
            return ids
        keep = [
            i for i, w in self.long_words.items() if len(w) >= min_length and align(w, letters, variant) is not None
        ]
        ids = np.setdiff1d(ids, np.fromiter(self.long_words, dtype=np.uint32), assume_unique=True)
        return np.union1d(ids, np.array(keep, dtype=np.uint32)) if keep else ids

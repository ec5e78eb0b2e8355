"""The PDQ subsequence index: candidate word ids from posting lists, checked in bulk with numpy.

For each reading of the deal, a posting list gives a small superset of the answer (words starting
with the first letter whose rest holds the next two letters in order); then a vectorised greedy
matcher walks the letters over per-word position masks (bit i of ``positions[c, w]`` is set when
letter c stands at index i of word w). Word ids are ranks by commonness, so sorted id arrays are
already in the "common" order.

"Anywhere" works on bitmaps over every word id instead: the AND of the bitmaps of each ordered pair
of a reading (a before b somewhere in the word) holds every answer, and is exact for the words in
which no inner card's letter stands twice (its one place is then after the letters before it and
before the letters after it). Only the others, a fraction, are checked letter by letter; a listing
needs the count (a popcount) and the first ids, so most answers are never turned into ids.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from indexes.build import CODE, POSITION_BITS, X
from indexes.pdq_rules import align

#: The 64-bit words of a bitmap searched first for a listing's first ids (4,096 ids).
HEAD_WORDS = 64
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


def _in_order(masks: list[np.ndarray]) -> np.ndarray:
    """Do the letters whose position masks these are stand in order? Greedily: each at its first
    place after the place of the one before. In unsigned arithmetic ``x ^ -x`` sets every bit above
    the lowest set bit of x (and none for 0)."""
    after = masks[0]  # the places the current letter may take
    for mask in masks[1:]:
        after = mask & (after ^ -after)
    return after != 0


def _bitmap_ids(bits: np.ndarray, head: int = 0) -> np.ndarray:
    """Sorted word ids (intp, which gathers fastest) of the set bits of a uint64 bitmap, unpacking only its
    non-zero 64-bit words; with ``head``, only its first ``head`` non-zero words (so ``head`` ids at least,
    if it has them)."""
    # numpy finds the non-zero entries of a bool array several times faster than those of an integer one.
    if head:  # the first words of a listing mostly lie in its first few thousand ids: look there first
        nonzero = (bits[:HEAD_WORDS] != 0).nonzero()[0]
        nonzero = nonzero[:head] if len(nonzero) >= head else (bits != 0).nonzero()[0][:head]
    else:
        nonzero = (bits != 0).nonzero()[0]
    # packbits order: a word's bytes in memory order, each byte's bits from the high one down.
    set_bits = np.unpackbits(bits[nonzero].view(np.uint8)).view(bool).nonzero()[0]
    return (nonzero << 6)[set_bits >> 6] | (set_bits & 63)


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
        self.pair_bits = arrays["pair_bits"].view(np.uint64)
        self.letter_twice = arrays["letter_twice"].view(np.uint64)
        self.size = len(self.length)
        #: min_length -> bitmap of the words at least that long that the masks see whole (built on first use)
        self._fitting: dict[int, np.ndarray] = {}

    # --- candidates -------------------------------------------------------------------------
    def _start_list(self, start: int) -> np.ndarray:
        return self.start_words[self.start_offsets[start] : self.start_offsets[start + 1]]

    def _start_pair_list(self, start: int, a: int, b: int) -> np.ndarray:
        key = start * 676 + a * 26 + b
        return self.start_pair_words[self.start_pair_offsets[key] : self.start_pair_offsets[key + 1]]

    def _long_enough(self, ids: np.ndarray, min_length: int) -> np.ndarray:
        return ids[self.length[ids] >= min_length]

    def _mask(self, ids: np.ndarray, letter: int) -> np.ndarray:
        return self.positions[letter][ids].astype(np.uint64)

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

    def _fitting_bits(self, min_length: int) -> np.ndarray:
        """Bitmap of the words of ``min_length`` letters or more, less those longer than the masks."""
        bits = self._fitting.get(min_length)
        if bits is None:
            fits = np.zeros(self.pair_bits.shape[1] * 64, dtype=bool)
            fits[: self.size] = (self.length >= min_length) & (self.length <= POSITION_BITS)
            bits = self._fitting[min_length] = np.packbits(fits).view(np.uint64)
        return bits

    def _split(self, codes: list[int], fitting: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """The words holding every ordered pair of a reading, as (a bitmap of those the pairs decide,
        one of those they leave open; None if none).

        A reading's pairs decide a word in which its inner letters stand once. Three cards a-b-c with
        b twice: a word with the reading's pairs fails it only if no b stands between its first a and
        its last c, so a b stands before its first a and another after its last c; without the pairs
        (b, a) and (c, b) it holds the reading (and read backwards, without (b, c) and (a, b)).
        """
        pair = self.pair_bits
        if len(codes) == 3:
            a, b, c = codes
            forward = pair[a * 26 + b] & pair[b * 26 + c]
            backward = pair[c * 26 + b] & pair[b * 26 + a]
            open_either = forward & backward  # all four pairs: where a reading may fail
            open_either &= self.letter_twice[b]
            candidates = (forward & pair[a * 26 + c]) | (backward & pair[c * 26 + a])
            candidates &= fitting
            open_either &= candidates
            return candidates ^ open_either, open_either  # (x ^ y is x & ~y where y lies within x)
        readings = [codes] if codes == codes[::-1] else [codes, codes[::-1]]
        candidates = np.zeros_like(fitting)
        for reading in readings:
            pairs = [a * 26 + b for i, a in enumerate(reading) for b in reading[i + 1 :]]
            bits = pair[pairs[0]] & fitting
            for at in pairs[1:]:
                bits &= pair[at]
            candidates |= bits
        if len(codes) == 2:
            return candidates, None
        undecided = candidates & (self.letter_twice[codes[1]] | self.letter_twice[codes[2]])
        return candidates ^ undecided, undecided

    def _anywhere(self, letters: str, min_length: int) -> tuple[np.ndarray, np.ndarray]:
        """The words holding the cards in order, read either way, as two disjoint parts: a bitmap of
        those the pair bitmaps decide alone, and the sorted ids of the rest (checked letter by letter,
        and the few words longer than the masks, decided by the rules module). ``letters``: lower case."""
        codes = [CODE[c] for c in letters]
        sure, undecided = self._split(codes, self._fitting_bits(min_length))
        if undecided is not None:
            ids = _bitmap_ids(undecided)
            masks = [self.positions[letter][ids] for letter in codes]
            ok = _in_order(masks)
            if codes != codes[::-1]:
                ok |= _in_order(masks[::-1])
            checked = ids[ok]
        else:
            checked = np.empty(0, dtype=np.intp)
        long_words = [
            rank
            for rank, word in self.long_words.items()
            if len(word) >= min_length and align(word, letters, "anywhere") is not None
        ]
        if long_words:
            checked = _sorted_union([checked, np.array(long_words, dtype=np.intp)])
        return sure, checked

    def count_and_head(self, letters: str, variant: str, min_length: int, head: int) -> tuple[int, np.ndarray]:
        """How many words the deal admits, and the first ``head`` of their sorted ids (0: all of them).

        For "anywhere", the count is a popcount and only the first ids are spelled out."""
        if variant != "anywhere" or not head:
            ids = self.matches(letters, variant, min_length)
            return len(ids), ids[:head] if head else ids
        sure, checked = self._anywhere(letters.lower(), min_length)
        count = int(np.bitwise_count(sure).sum()) + len(checked)
        first = _bitmap_ids(sure, head)
        if len(checked):
            first = np.concatenate([first, checked[:head]])
            first.sort()
        return count, first[:head]

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
            sure, checked = self._anywhere(letters.lower(), min_length)
            ids = np.concatenate([_bitmap_ids(sure), checked])  # disjoint
            ids.sort()
            return ids
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

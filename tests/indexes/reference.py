"""Brute-force references for the indexes: regular expressions over the whole word list.

Written independently of ``indexes.pdq_rules`` and ``indexes.pdq_index`` (no shared code), so that
a property test comparing them can catch a mistake in either.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

from indexes.paths import wordlists_dir


@cache
def ranked_words(name: str = "standard") -> tuple[str, ...]:
    """The lexicon's words, most familiar first (Zipf, then SCOWL level, then spelling)."""
    rows = []
    for line in Path(wordlists_dir() / f"{name}.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, level, zipf = line.split("\t")
            rows.append((-float(zipf), int(level), word))
    return tuple(word for _, _, word in sorted(rows))


@cache
def words_by_skeleton(name: str = "standard") -> dict[str, list[int]]:
    """Skeleton -> ranks of its words: computed here with a regex, not with the library's code."""
    groups: dict[str, list[int]] = {}
    for rank, word in enumerate(ranked_words(name)):
        groups.setdefault(re.sub("[aeiou]", "", word), []).append(rank)
    return groups


def bop_reference(letters: str, name: str = "standard") -> list[str]:
    """Scan every skeleton with a regex ('?' = any consonant); words most familiar first."""
    pattern = re.compile("".join("[b-df-hj-np-tv-z]" if c == "?" else c for c in letters.lower()))
    ranks = sorted(r for sk, rs in words_by_skeleton(name).items() if pattern.fullmatch(sk) for r in rs)
    words = ranked_words(name)
    return [words[r] for r in ranks]


def _start(letter: str) -> str:
    return "(?:x|ex)" if letter == "x" else letter


def _pdq_patterns(letters: str, variant: str) -> list[re.Pattern[str]]:
    forward, backward = letters, letters[::-1]
    readings = [forward] if variant == "left-to-right" else [forward, backward]
    if variant == "anywhere":
        return [re.compile(".*".join(r)) for r in readings]
    if variant == "start-end":
        return [
            re.compile("^" + _start(r[0]) + "".join(".*" + c for c in r[1:-1]) + ".*" + r[-1] + "$") for r in readings
        ]
    return [re.compile("^" + _start(r[0]) + "".join(".*" + c for c in r[1:])) for r in readings]


def _any_order(word: str, letters: str) -> bool:
    for i, first in enumerate(letters):
        for prefix in ([first] if first != "x" else ["x", "ex"]):
            if word.startswith(prefix):
                need = Counter(letters[:i] + letters[i + 1 :])
                have = Counter(word[len(prefix) :])
                if all(have[c] >= n for c, n in need.items()):
                    return True
    return False


def pdq_reference(letters: str, variant: str, min_length: int, name: str = "standard") -> list[str]:
    letters = letters.lower()
    words = [w for w in ranked_words(name) if len(w) >= min_length]
    if variant == "any-order":
        return [w for w in words if _any_order(w, letters)]
    patterns = _pdq_patterns(letters, variant)
    return [w for w in words if any(p.search(w) for p in patterns)]

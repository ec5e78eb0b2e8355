"""What makes a line, per game: line kinds built from predicates on the tiles' two attributes.

A :class:`LineRule` is one or more :class:`LineKind` s; a run of tiles is a line if some kind admits
it. D!Git has two kinds (one number in all different colours, at most 5; one colour in sequence, at
most 10), Q!nto one (colours all the same or all different, shapes likewise, 2 to 5 tiles), and
Match Five's horizontal series two (one colour in different numbers, one number in different
colours, at most 5).

A kind's ``admits`` takes the line's tiles with ``None`` where a wild is not decided yet: it must be
exact on a whole line and never refuse a partial line that some choice for the ``None`` s would
complete (the wild solver prunes with it).

>>> same_or_distinct(["y", "g", None]), same_or_distinct(["y", "y", "g"]), same_or_distinct(["y", "y"])
(True, False, True)
>>> cyclic_run(["8", "9", "0", None], "0123456789"), cyclic_run(["3", "2", "1"], "0123456789")
(True, True)
>>> cyclic_run(["1", "2", "1"], "0123456789")
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Partial = Sequence[str | None]
Predicate = Callable[[Partial], bool]


# --- predicates on one attribute (a list of faces, or of colours; None: not decided) ------------
def all_same(values: Partial) -> bool:
    return len({v for v in values if v is not None}) <= 1


def all_distinct(values: Partial) -> bool:
    known = [v for v in values if v is not None]
    return len(set(known)) == len(known)


def same_or_distinct(values: Partial) -> bool:
    """All the same, or all different (a pair is always one or the other)."""
    known = [v for v in values if v is not None]
    distinct = len(set(known))
    return distinct <= 1 or distinct == len(known)


def cyclic_run(values: Partial, symbols: str) -> bool:
    """Consecutive in ``symbols`` order, rising or falling (not both), wrapping from the last symbol
    to the first ("9 -> 0"); no symbol twice. Undecided places must still fit the step."""
    size = len(symbols)
    if len(values) > size:
        return False
    rising = falling = True
    first = -1
    start = 0
    for i, value in enumerate(values):
        if value is None:
            continue
        n = symbols.index(value)
        if first < 0:
            first, start = i, n
            continue
        gap = i - first
        rising = rising and (n - start - gap) % size == 0
        falling = falling and (n - start + gap) % size == 0
        if not (rising or falling):
            return False
    return True


# --- kinds and rules ----------------------------------------------------------------------------
@dataclass(frozen=True)
class LineKind:
    """One way tiles make a line: a predicate on faces, one on colours, and a maximum length."""

    name: str
    max_length: int
    faces: Predicate
    colours: Predicate
    min_length: int = 2

    def admits(self, tiles: Partial) -> bool:
        if len(tiles) > self.max_length:
            return False
        return self.faces([t[0] if t else None for t in tiles]) and self.colours([t[1] if t else None for t in tiles])


@dataclass(frozen=True)
class LineRule:
    """A game's lines: tiles make a line if one of ``kinds`` admits them. ``summary`` is the rule in
    the sheet's words, for error messages."""

    kinds: tuple[LineKind, ...]
    summary: str

    @property
    def max_length(self) -> int:
        return max(kind.max_length for kind in self.kinds)

    def admits(self, tiles: Partial) -> bool:
        return any(kind.admits(tiles) for kind in self.kinds)

    def kind_of(self, tiles: Sequence[str]) -> LineKind | None:
        """The first kind that admits a line of concrete tiles."""
        return next((kind for kind in self.kinds if kind.admits(tiles)), None)

"""Plays that are one play seen in a mirror: the reviews list each once.

On a position that looks the same turned or mirrored (the empty board of Three2Fifteen, whose
squares are the same under every turn and reflection; Match Five's table, which has no landmark at
all), the move generator finds every play once per image: "2 12" down from the start square and
"2 12" across it, both 26 points. To a player that is one play listed twice, once per direction; the
review keeps the best-ranked image and names the others as its ``twins``.

A *symmetry* of a position is one of the eight turns and reflections of the square (``DIHEDRAL``),
followed by a shift, that maps the board, and whatever else scores (the squares), onto itself. Two
plays are the same when a symmetry of the position maps one onto the other: they leave the same
position, turned, and score the same. Each game says how to find its position's symmetries and
lays a play out as ``(cell, what goes there)`` pairs; :func:`canonical_form` and :func:`distinct_best` do
the rest.

>>> turn = DIHEDRAL[4]  # the reflection in the diagonal: across becomes down
>>> turn((7, 6)), turn((7, 7))
((6, 7), (7, 7))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import cast

from engine.values import MoveT, ScoredMove

Cell = tuple[int, int]

#: The eight turns and reflections of the square about the origin.
DIHEDRAL: tuple[Callable[[Cell], Cell], ...] = (
    lambda cell: (cell[0], cell[1]),
    lambda cell: (cell[0], -cell[1]),
    lambda cell: (-cell[0], cell[1]),
    lambda cell: (-cell[0], -cell[1]),
    lambda cell: (cell[1], cell[0]),
    lambda cell: (cell[1], -cell[0]),
    lambda cell: (-cell[1], cell[0]),
    lambda cell: (-cell[1], -cell[0]),
)


def distinct_best(
    ranked: Iterable[ScoredMove[MoveT]], canonical: Callable[[MoveT], Hashable], limit: int
) -> list[tuple[ScoredMove[MoveT], list[MoveT]]]:
    """The ``limit`` best plays of ``ranked`` (best first) that are not images of one another, each with
    its twins (the other images, in rank order). Images score the same, so the walk stops at the
    first play scoring less than the last one kept once ``limit`` are kept."""
    kept: list[tuple[ScoredMove[MoveT], list[MoveT]]] = []
    by_form: dict[Hashable, int] = {}
    for scored in ranked:
        if len(kept) == limit and scored.points < kept[-1][0].points:
            break
        form = canonical(scored.move)
        if form in by_form:
            kept[by_form[form]][1].append(scored.move)
        elif len(kept) < limit:
            by_form[form] = len(kept)
            kept.append((scored, []))
    return kept


def symmetric_maps(
    cells: Iterable[Cell], look: Callable[[Cell], Hashable], middle: Cell
) -> list[Callable[[Cell], Cell]]:
    """The symmetries of a position: each of the eight maps, about ``middle`` (a point every symmetry
    keeps, in doubled coordinates: the middle of the board, or of the tiles), that maps every one of
    ``cells`` (those that matter) onto a cell that holds the same (``look``). A map that would take a
    cell between cells (a turn of a board with an odd and an even side) is none. The identity is
    always among them."""
    cells = list(cells)
    found = []
    for turn in DIHEDRAL:

        def mapped(cell: Cell, turn: Callable[[Cell], Cell] = turn) -> Cell | None:
            r, c = turn((2 * cell[0] - middle[0], 2 * cell[1] - middle[1]))
            r, c = r + middle[0], c + middle[1]
            return None if r % 2 or c % 2 else (r // 2, c // 2)

        if all((image := mapped(cell)) is not None and look(image) == look(cell) for cell in cells):
            found.append(cast(Callable[[Cell], Cell], mapped))
    return found


def canonical_form(
    placements: Iterable[tuple[Cell, Hashable]], maps: Sequence[Callable[[Cell], Cell]]
) -> tuple[tuple[Cell, Hashable], ...]:
    """The same for every image of a play under ``maps`` (a group: the position's symmetries), and
    different for plays that are not images of one another: the least of its images, sorted."""
    laid = list(placements)
    return min(tuple(sorted((turn(cell), what) for cell, what in laid)) for turn in maps)  # type: ignore[type-var]

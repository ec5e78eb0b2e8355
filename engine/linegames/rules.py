"""The line games' shared rules as functions of a board: is a play legal (and what lines it
makes), are swaps legal (and what they leave), and which lines reached a length this turn
(D!Git's 5th and 10th tiles, Q!nto's Q!ntos).

Every check raises :class:`~engine.errors.IllegalMoveError` before anything changes: the inputs
are never mutated; the results are new values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from engine.errors import IllegalMoveError
from engine.linegames.grid import (
    ORTHOGONAL,
    Board,
    Cell,
    Line,
    check_geometry,
    longest_earlier_run,
    play_lines,
    square_words,
)
from engine.linegames.solver import LineCheck, LineSolver
from engine.linegames.tiles import is_wild
from engine.values import Breakdown

#: "Add 1, 2, 3, 4 or 5 tiles to the grid".
MAX_PLAY = 5


@dataclass(frozen=True)
class PlayCheck:
    """A legal play and what it made: its direction (None for one tile), the across and down lines
    it created or extended (the line along the play first), the verdict on them (what each wild
    stands for), and the board after it."""

    placements: Mapping[Cell, str]
    direction: str | None
    lines: tuple[Line, ...]
    check: LineCheck
    after: Mapping[Cell, str]


@dataclass(frozen=True)
class PlayedTurn:
    """A legal play's turn: its check, and the board after it; each game's turn adds what it counts
    (the hand refilled, the lines completed, the breakdown)."""

    check: PlayCheck

    @property
    def board(self) -> Mapping[Cell, str]:
        return self.check.after


def check_hand(hand: Sequence[str], tiles: Sequence[str], name: Callable[[str], str] = str) -> list[str]:
    """The hand less ``tiles``; ``not_in_hand`` if it does not hold them all (each named by ``name``)."""
    missing = Counter(tiles) - Counter(hand)
    if missing:
        raise IllegalMoveError("not_in_hand", f"your hand holds no {', '.join(map(name, sorted(missing.elements())))}")
    left = list(hand)
    for tile in tiles:
        left.remove(tile)
    return left


def check_play(
    solver: LineSolver,
    board: Mapping[Cell, str],
    placements: Mapping[Cell, str],
    hand: Sequence[str] | None = None,
    max_tiles: int = MAX_PLAY,
) -> PlayCheck:
    """Is placing ``placements`` on ``board`` (from ``hand``, when given) legal?

    Raises IllegalMoveError: ``too_many_tiles``, ``unknown_tile``, ``not_in_hand``, the geometry's
    (``no_tiles``, ``occupied``, ``not_in_line``, ``gap``, ``not_connected``, ``off_centre``);
    ``too_long`` (a line longer than any kind of line may be), ``not_a_line`` (no choice for its
    wilds makes it a line), ``wild_mismatch`` (each line works alone, but no one tile per wild
    works in all its lines: the shared binding).
    """
    if len(placements) > max_tiles:
        raise IllegalMoveError("too_many_tiles", f"a play places at most {max_tiles} tiles, not {len(placements)}")
    for tile in placements.values():
        if not solver.kit.is_tile(tile):
            raise IllegalMoveError("unknown_tile", f"{tile!r} is not a tile of this game")
    if hand is not None:
        check_hand(hand, list(placements.values()), solver.kit.name)
    direction = check_geometry(board, placements.keys())
    after = {**board, **placements}
    lines = tuple(play_lines(after, list(placements), ORTHOGONAL))
    check_lines(solver, after, lines)
    verdict = solver.check(after, lines)
    if verdict.bad_lines:
        line = verdict.bad_lines[0]
        words = line.words(after, solver.kit.name)
        raise IllegalMoveError("not_a_line", f"{words[0].upper()}{words[1:]} is not a line: {solver.rule.summary}")
    if verdict.readings is None:
        cells = "; ".join(square_words(cell) for cell in verdict.wild_cells)
        raise IllegalMoveError("wild_mismatch", f"no one tile for each wild ({cells}) works in both its lines at once")
    return PlayCheck(dict(placements), direction, lines, verdict, after)


def check_lines(solver: LineSolver, after: Mapping[Cell, str], lines: Sequence[Line]) -> None:
    """``too_long`` for a line longer than the longest kind of line."""
    longest = solver.rule.max_length
    for line in lines:
        if len(line) > longest:
            words = line.words(after, solver.kit.name)
            raise IllegalMoveError(
                "too_long", f"{words[0].upper()}{words[1:]} has {len(line)} tiles; a line has at most {longest}"
            )


# --- swaps --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SwapCheck:
    """Legal swaps and what they leave: the board and hand after them, and each step's verdict on
    the lines through its cell, in order."""

    board: Mapping[Cell, str]
    hand: tuple[str, ...]
    steps: tuple[tuple[Cell, str, str], ...]  # (cell, tile put in, wild taken)
    checks: tuple[LineCheck, ...]


@dataclass(frozen=True)
class SwapTurn:
    """Legal swaps' turn: the board and hand after them, and their breakdown (a swap scores nothing)."""

    check: SwapCheck
    breakdown: Breakdown

    @property
    def board(self) -> Mapping[Cell, str]:
        return self.check.board

    @property
    def hand(self) -> tuple[str, ...]:
        return self.check.hand


def capital(text: str) -> str:
    """A refusal starts as a sentence does."""
    return text[:1].upper() + text[1:]


#: Q!nto's words for a wild no swap may take (the sheet's "Guidelines").
UNSWAPPABLE = (
    'the wild stands for different tiles across and down, so it is "unswappable": no single tile can work in its '
    "position"
)


def check_swaps(
    solver: LineSolver,
    board: Mapping[Cell, str],
    hand: Sequence[str],
    steps: Sequence[tuple[Cell, str]],
    lock_unswappable: bool = False,
) -> SwapCheck:
    """Put hand tiles in place of played wilds, one step after another, each taking its wild into
    the hand (a later step may put that wild elsewhere: a sequential swap).

    Each step's tile must work across and down in its cell at once (with the other wilds re-solved;
    never the diagonals). Raises IllegalMoveError: ``no_swaps``, ``unknown_tile``, ``empty_cell``,
    ``not_a_wild``, ``not_in_hand``, ``same_tile`` (it would change nothing), ``does_not_fit``; with
    ``lock_unswappable`` (Q!nto), ``unswappable``: a wild that stands for different tiles across and down,
    so that no single tile works in its cell, takes no swap at all, not even another wild's.
    """
    if not steps:
        raise IllegalMoveError("no_swaps", "a swap names at least one wild on the grid and a tile for it")
    after: Board = dict(board)
    held = list(hand)
    done, checks = [], []
    for number, (cell, tile) in enumerate(steps, 1):
        where = f"swap {number} (at {square_words(cell)})" if len(steps) > 1 else f"the swap at {square_words(cell)}"
        if not solver.kit.is_tile(tile):
            raise IllegalMoveError("unknown_tile", f"{capital(where)}: {tile!r} is not a tile of this game")
        wild = after.get(cell)
        if wild is None:
            raise IllegalMoveError("empty_cell", f"{capital(where)}: there is no tile there")
        if not is_wild(wild):
            raise IllegalMoveError("not_a_wild", f"{capital(where)}: the {solver.kit.name(wild)} is not a wild tile")
        if tile not in held:
            raise IllegalMoveError("not_in_hand", f"{capital(where)}: your hand holds no {solver.kit.name(tile)}")
        if tile == wild:
            swapped = f"a {solver.kit.name(tile)} for the {solver.kit.name(wild)}"
            raise IllegalMoveError("same_tile", f"{capital(where)}: {swapped} changes nothing")
        if lock_unswappable and not solver.works_at(after, cell):
            raise IllegalMoveError("unswappable", f"{capital(where)}: {UNSWAPPABLE}")
        after[cell] = tile
        verdict = solver.fits(after, cell)
        if not verdict.valid:
            raise IllegalMoveError(
                "does_not_fit",
                f"{capital(where)}: the {solver.kit.name(tile)} does not work across and down in that position",
            )
        held.remove(tile)
        held.append(wild)
        done.append((cell, tile, wild))
        checks.append(verdict)
    return SwapCheck(after, tuple(held), tuple(done), tuple(checks))


# --- lengths reached ----------------------------------------------------------------------------
def lengths_reached(before: Collection[Cell], lines: Sequence[Line], lengths: Sequence[int]) -> list[tuple[Line, int]]:
    """``(line, n)`` for each line and each n in ``lengths`` that the play took from below n tiles to n
    or more: it placed the line's n-th tile (placing more than the n-th as well still counts).

    "Below n" is the longest run of the line that was on the board before: joining two runs of 3
    with one tile places a 5th (and 6th and 7th) tile in a line.
    """
    reached: list[tuple[Line, int]] = []
    for line in lines:
        earlier = longest_earlier_run(before, line)
        reached.extend((line, n) for n in lengths if earlier < n <= len(line))
    return reached

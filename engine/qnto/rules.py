"""Q!nto's rules as functions of a board: what a line is, what a play scores, swaps and passes.

"A line is 2, 3, 4 or 5 tiles in a row or column in which the color is either the same on each
tile or different on each tile and the shape is also either the same on each tile or different on
each tile. 5 such tiles are a Q!nto." A wild or Q!nto tile "may represent different tiles in
different directions": each line's wilds are solved on their own (the per-line binding of
:mod:`engine.linegames.solver`).

Scoring (Classic): one point per tile in every line created or extended, counted again for each
line a tile is in; +5 for each Q!nto completed, +5 for playing all your tiles on one turn, +5 for the
game's final play; a swap scores nothing. Plus: a valid diagonal line of 3 to 5 tiles created or
extended scores too (a diagonal Q!nto as any other); diagonals never constrain a play and are
ignored for swaps. Light: no score, a pile each, another turn for completing a Q!nto.

>>> board = {(0, 0): "Sk"}
>>> turn = play(board, {(-2, 1): "?b", (-1, 1): "??", (0, 1): "??"}, ["?b", "??", "??", "?y", "?g"])
>>> print(turn.breakdown.text())
up/down ?b ?? ??    +3  3 tiles
across Sk ??        +2  2 tiles
total                5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.errors import ConfigError
from engine.linegames.grid import ACROSS, DIAGONALS, DOWN, Cell, Line, play_lines
from engine.linegames.lines import LineKind, LineRule, same_or_distinct
from engine.linegames.rules import PlayedTurn, SwapTurn, check_play, check_swaps, lengths_reached
from engine.linegames.solver import LineSolver
from engine.linegames.supply import HAND_SIZE, Tiles, refill, trade
from engine.linegames.tiles import is_wild
from engine.qnto.options import KIT, SYMBOLS, VARIANTS
from engine.values import Breakdown, ScoreItem

LINE = LineKind("line", 5, faces=same_or_distinct, colours=same_or_distinct)
RULE = LineRule(
    (LINE,),
    "2 to 5 tiles whose colours are all the same or all different, and whose shapes are all the same or all different",
)
QNTO = 5
QNTO_BONUS = 5
ALL_TILES_BONUS = 5
FINAL_PLAY_BONUS = 5
#: Q!nto Plus scores diagonal lines of 3 or more (and at most 5: RULINGS.md 5).
DIAGONAL_MIN = 3
#: The sheet's words for the directions ("2 points across + 3 points up/down").
SAID = {ACROSS: "across", DOWN: "up/down", "diagonal": "diagonal", "antidiagonal": "diagonal"}


def new_solver() -> LineSolver:
    """Q!nto's lines with the per-line binding, across and down only (diagonals never constrain)."""
    return LineSolver(KIT, RULE, shared=False)


SOLVER = new_solver()


def say(tiles: Sequence[str]) -> str:
    """Tiles with the suits' symbols: ``"♠k ?? ♦b"``."""
    return " ".join(SYMBOLS[t[0]] + t[1] for t in tiles)


def diagonal_lines(after: Mapping[Cell, str], placed: Sequence[Cell], solver: LineSolver = SOLVER) -> list[Line]:
    """Q!nto Plus: the diagonal lines a play created or extended that count, each a valid line of 3
    to 5 tiles (its wilds solved on their own; a run of 6 or more is no line: RULINGS.md 5)."""
    runs = [line for line in play_lines(after, placed, DIAGONALS, DIAGONAL_MIN) if line.direction in DIAGONALS]
    return [line for line in runs if len(line) <= QNTO and solver.line_ok(line.tiles(after))]


def wild_readings(line: Line, after: Mapping[Cell, str], solver: LineSolver) -> str:
    """The wilds of a line that it settles: ``"?? = yellow diamond"`` (a wild that could still be
    several tiles in this line is not named)."""
    tiles = line.tiles(after)
    wild_cells = [cell for cell in line.cells if is_wild(after[cell])]
    settled = [
        f"{after[cell]} = {KIT.name(next(iter(options)))}"
        for cell, options in zip(wild_cells, solver.slot_options(tiles), strict=True)
        if len(options) == 1
    ]
    return ", ".join(settled)


def line_item(line: Line, after: Mapping[Cell, str], solver: LineSolver, scored: bool) -> ScoreItem:
    tiles = line.tiles(after)
    wilds = wild_readings(line, after, solver)
    detail = f"{len(line)} tiles" + (f" ({wilds})" if wilds else "")
    points = len(line) if scored else 0
    kind = "diagonal" if line.direction in DIAGONALS else "line"
    return ScoreItem(
        kind, f"{SAID[line.direction]} {' '.join(tiles)}", points, detail, (1 if scored else 0,) * len(line)
    )


@dataclass(frozen=True)
class PlayTurn(PlayedTurn):
    """A legal play: the check (lines, wilds), the diagonals that count (Plus), the hand and pile
    after refilling, the Q!ntos completed, whether it was the final play, its breakdown, and (Light)
    whether it earns another turn."""

    diagonals: tuple[Line, ...]
    hand: Tiles
    pile: Tiles
    qntos: tuple[Line, ...]
    went_out: bool
    another_turn: bool
    breakdown: Breakdown

    @property
    def points(self) -> int:
        return self.breakdown.total


def play(
    board: Mapping[Cell, str],
    placements: Mapping[Cell, str],
    hand: Sequence[str],
    pile: Sequence[str] = (),
    variant: str = "classic",
    solver: LineSolver = SOLVER,
) -> PlayTurn:
    """Place ``placements`` from ``hand`` on ``board`` and replenish the hand from ``pile`` (the common
    pile, or in Light the player's own). Raises IllegalMoveError (see
    :func:`engine.linegames.rules.check_play`)."""
    if variant not in VARIANTS:
        raise ConfigError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    check = check_play(solver, board, placements, hand)
    scored = variant != "light"
    after = check.after
    diagonals = tuple(diagonal_lines(after, list(placements), solver)) if variant == "plus" else ()
    left = list(hand)
    for tile in placements.values():
        left.remove(tile)
    new_hand, new_pile = refill(left, pile, HAND_SIZE)
    went_out = not new_hand
    counted = check.lines + diagonals
    qntos = tuple(line for line, _ in lengths_reached(board.keys(), counted, (QNTO,)))
    items = [line_item(line, after, solver, scored) for line in counted]
    for line in qntos:
        bonus = QNTO_BONUS if scored else 0
        items.append(ScoreItem("qnto", "Q!nto", bonus, f"{SAID[line.direction]} {say(line.tiles(after))} completed"))
    another = not scored and bool(qntos) and not went_out
    if scored and len(placements) == len(hand):
        items.append(ScoreItem("all_tiles", "all your tiles", ALL_TILES_BONUS, f"played all {len(hand)} tiles"))
    if went_out:
        if scored:
            items.append(
                ScoreItem("final_play", "final play", FINAL_PLAY_BONUS, "the pile is empty and the last tile played")
            )
        else:
            items.append(ScoreItem("out", "out of tiles", 0, "played the last tile: wins"))
    if another:
        items.append(ScoreItem("another_turn", "another turn", 0, "completed a Q!nto: replenish to 5 and play again"))
    return PlayTurn(check, diagonals, new_hand, new_pile, qntos, went_out, another, Breakdown(tuple(items)))


def swap(
    board: Mapping[Cell, str], hand: Sequence[str], steps: Sequence[tuple[Cell, str]], solver: LineSolver = SOLVER
) -> SwapTurn:
    """Put hand tiles in place of played wild and Q!nto tiles, in order: each must work "horizontally
    and vertically in that position" (never the diagonals), may be of another shape or colour than
    the wild, or a wild itself; each wild taken goes to the hand and a later step may put it
    elsewhere (a sequential swap); an unswappable wild takes no swap. Raises IllegalMoveError (see
    :func:`engine.linegames.rules.check_swaps`)."""
    # "Such a wild or Q!nto tile would be 'unswappable'": its cell takes no swap (RULINGS.md 23).
    check = check_swaps(solver, board, hand, steps, lock_unswappable=True)
    items = tuple(
        ScoreItem("swap", f"swap {cell[0]},{cell[1]}", 0, f"{KIT.name(tile)} for the {KIT.name(wild)}")
        for cell, tile, wild in check.steps
    )
    return SwapTurn(check, Breakdown(items))


def pass_turn(hand: Sequence[str], pile: Sequence[str], traded: Sequence[str]) -> tuple[Tiles, Tiles, Breakdown]:
    """Pass, trading ``traded`` to the bottom of the pile and drawing as many; no points."""
    new_hand, new_pile = trade(hand, pile, traded)
    detail = f"traded {len(traded)} tile{'s' * (len(traded) != 1)}" if traded else "no trade"
    return new_hand, new_pile, Breakdown((ScoreItem("pass", "pass", 0, detail),))


def unswappable(board: Mapping[Cell, str], cell: Cell, solver: LineSolver = SOLVER) -> bool:
    """ "Such a wild or Q!nto tile would be 'unswappable' since no single tile can work in its
    position": no concrete tile works across and down at once."""
    return not solver.works_at(board, cell)

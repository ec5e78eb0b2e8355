"""D!Git's rules as functions of a board: what a line is, what a play, a swap and a pass do.

"Tiles in a line must be either the same number in all different colors or the same color in
numerical sequence": a **number line** (one number, all colours different, at most 5 tiles) or a
**sequence** (one colour, each number one more, or each one less, than the one before, wrapping
9 -> 0, at most 10 tiles). A wild in two lines stands for the same tile in both (the shared
binding of :mod:`engine.linegames.solver`).

There is no score ("the first player to run out of tiles" wins), but every move returns a
:class:`~engine.values.Breakdown` of zero-point items saying what it did: the tiles placed and what
each wild stands for, the lines made, the 5th or 10th tiles that earn another turn, a swap's
steps, a pass's trade.

>>> board = {(0, 0): "9y"}
>>> turn = play(board, {(-1, 1): "8g", (0, 1): "??", (1, 1): "0g"}, hand=["8g", "??", "0g", "3r", "4b"])
>>> print(turn.breakdown.text())
tiles placed        +0  3 tiles: 8g, ?? (= green 9), 0g
down 8g ?? 0g       +0  green sequence 8 9 0
across 9y ??        +0  number line of 9s
total                0
>>> turn.another_turn
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.digit.options import KIT, NUMBERS
from engine.linegames.grid import Cell, Line, format_cell
from engine.linegames.lines import LineKind, LineRule, all_distinct, all_same, cyclic_run
from engine.linegames.rules import PlayCheck, PlayedTurn, SwapTurn, check_play, check_swaps, lengths_reached
from engine.linegames.solver import LineCheck, LineSolver
from engine.linegames.supply import HAND_SIZE, Tiles, refill, trade
from engine.linegames.tiles import COLOUR_NAMES, is_wild
from engine.values import Breakdown, ScoreItem

NUMBER_LINE = LineKind("number line", 5, faces=all_same, colours=all_distinct)
SEQUENCE = LineKind("sequence", 10, faces=lambda numbers: cyclic_run(numbers, NUMBERS), colours=all_same)
RULE = LineRule(
    (NUMBER_LINE, SEQUENCE),
    "one number in all different colours (at most 5 tiles), or one colour in sequence, rising or falling "
    "and wrapping 9 -> 0 (at most 10 tiles)",
)
#: "If, on your turn, you placed one or more 5th or 10th tiles in any line ... take another turn."
BONUS_LENGTHS = (5, 10)


def new_solver() -> LineSolver:
    """D!Git's lines with the shared binding: "if part of 2 lines, a wild tile must represent the
    same color and number in both lines"."""
    return LineSolver(KIT, RULE, shared=True)


SOLVER = new_solver()


def describe_reading(reading: Sequence[str]) -> str:
    """A line as the sheet says it: "number line of 6s" or "green sequence 6 7 8 9 0" (one reading of
    its wilds: the tiles placed item lists all they can stand for)."""
    kind = RULE.kind_of(reading)
    if kind is NUMBER_LINE:
        return f"number line of {reading[0][0]}s"
    return f"{COLOUR_NAMES[reading[0][1]]} sequence " + " ".join(t[0] for t in reading)


def line_items(after: Mapping[Cell, str], lines: Sequence[Line], verdict: LineCheck) -> list[ScoreItem]:
    readings = verdict.readings or {}
    return [
        ScoreItem("line", f"{line.direction} {' '.join(line.tiles(after))}", 0, describe_reading(readings[line]))
        for line in lines
    ]


def wild_values(board: Mapping[Cell, str], cell: Cell, solver: LineSolver | None = None) -> frozenset[str]:
    """Every tile the wild at ``cell`` can stand for now, the same in all its lines at once."""
    return (solver or SOLVER).can_stand_for(board, cell)


def say_values(values: frozenset[str]) -> str:
    """``"green 9"``, ``"yellow 8, red 8 or blue 8"``."""
    names = [KIT.name(tile) for tile in sorted(values, key=KIT.rank)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def shown(board: Mapping[Cell, str], cell: Cell, solver: LineSolver) -> str:
    """A tile as a breakdown shows it: a wild with every tile it can stand for now."""
    tile = board[cell]
    if not is_wild(tile):
        return tile
    values = solver.can_stand_for(board, cell)
    return f"{tile} (= {say_values(values)})" if len(values) < len(KIT.domain(tile)) else f"{tile} (= any)"


@dataclass(frozen=True)
class PlayTurn(PlayedTurn):
    """A legal play: the check (lines, wilds), the board after it, the hand after refilling, the lines
    whose 5th or 10th tile it placed, whether it earns another turn, whether the player went out."""

    hand: Tiles
    pile: Tiles
    reached: tuple[tuple[Line, int], ...]
    went_out: bool
    breakdown: Breakdown

    @property
    def another_turn(self) -> bool:
        """One more turn however many 5th or 10th tiles ("one additional turn is your reward"), unless
        the play ended the game."""
        return bool(self.reached) and not self.went_out


def play(
    board: Mapping[Cell, str],
    placements: Mapping[Cell, str],
    hand: Sequence[str],
    pile: Sequence[str] = (),
    solver: LineSolver = SOLVER,
) -> PlayTurn:
    """Place ``placements`` from ``hand`` on ``board``, then replenish the hand from ``pile`` (the
    player's own). Raises IllegalMoveError (see :func:`engine.linegames.rules.check_play`)."""
    check = check_play(solver, board, placements, hand)
    left = list(hand)
    for tile in placements.values():
        left.remove(tile)
    new_hand, new_pile = refill(left, pile, HAND_SIZE)
    reached = tuple(lengths_reached(board.keys(), check.lines, BONUS_LENGTHS))
    went_out = not new_hand
    items = [_placed_item(check, solver)]
    items += line_items(check.after, check.lines, check.check)
    items += race_items(check.after, reached, went_out)
    return PlayTurn(check, new_hand, new_pile, reached, went_out, Breakdown(tuple(items)))


def race_items(after: Mapping[Cell, str], reached: Sequence[tuple[Line, int]], went_out: bool) -> list[ScoreItem]:
    """What a play did in the race to run out of tiles: each 5th or 10th tile placed, going out."""
    items = [
        ScoreItem(
            "another_turn",
            f"{n}th tile",
            0,
            f"placed the {n}th tile of {line.direction} {' '.join(line.tiles(after))}: "
            "replenish to 5 and take another turn",
        )
        for line, n in reached
    ]
    if went_out:
        items.append(ScoreItem("out", "out of tiles", 0, "played the last tile: wins"))
    return items


def _placed_item(check: PlayCheck, solver: LineSolver) -> ScoreItem:
    tiles = ", ".join(shown(check.after, cell, solver) for cell in sorted(check.placements))
    count = len(check.placements)
    return ScoreItem("tiles", "tiles placed", 0, f"{count} tile{'s' * (count > 1)}: {tiles}")


def swap(
    board: Mapping[Cell, str], hand: Sequence[str], steps: Sequence[tuple[Cell, str]], solver: LineSolver = SOLVER
) -> SwapTurn:
    """ "Swap one or more tiles in your hand for already played blank color and/or D!Git tile(s)
    provided they work there", in order (a sequential swap takes a wild and puts it elsewhere).
    A swap is the turn's one action: it places no tile in a line, so it never earns another turn.
    Raises IllegalMoveError (see :func:`engine.linegames.rules.check_swaps`)."""
    check = check_swaps(solver, board, hand, steps)
    items = []
    trial = dict(board)
    for cell, tile, wild in check.steps:
        trial[cell] = tile
        put = KIT.name(tile)
        if is_wild(tile):
            put += f" (= {say_values(solver.can_stand_for(trial, cell))})"
        items.append(ScoreItem("swap", f"swap {format_cell(cell)}", 0, f"{put} for the {KIT.name(wild)}"))
    return SwapTurn(check, Breakdown(tuple(items)))


def pass_turn(hand: Sequence[str], pile: Sequence[str], traded: Sequence[str]) -> tuple[Tiles, Tiles, Breakdown]:
    """Pass, trading ``traded`` to the bottom of the player's own pile and drawing as many."""
    new_hand, new_pile = trade(hand, pile, traded)
    return new_hand, new_pile, pass_breakdown(traded)


def pass_breakdown(traded: Sequence[str]) -> Breakdown:
    detail = f"traded {len(traded)} tile{'s' * (len(traded) != 1)}" if traded else "no trade"
    return Breakdown((ScoreItem("pass", "pass", 0, detail),))

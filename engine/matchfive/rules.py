"""Match Five's rules as pure functions of a board and a hand: where a play may go, the series it
makes, what it scores, swaps, and the end. The state (``state.py``) only sequences turns.

Every check raises :class:`~engine.errors.IllegalMoveError` with a stable rule name before anything
changes, and never mutates its arguments.

>>> from engine.matchfive.board import parse_stacks
>>> board = parse_stacks("0,0:3r 0,1:2r 0,2:1r")
>>> print(score_play(check_play(board, ["5r", "4r", "1b", "2y", "*"], {(0, 3, 1): "5r", (0, 4, 1): "4r"})).text())
horizontal       +15  red 5, 4 with red 3, 2, 1 (row 0 at level 1)
series of five   +10  completing the series (row 0 at level 1)
locking blocks    +0  on red 3 at row 0, column 0, level 1 (first) and red 4 at row 0, column 4, level 1 (last)
total             25
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.errors import IllegalMoveError
from engine.linegames.grid import square_words
from engine.matchfive.board import (
    ACROSS,
    DOWN,
    HORIZONTAL,
    NEIGHBOURS,
    ORIGIN,
    STEPS,
    UP,
    Board,
    Cell,
    Series,
    Spot,
    format_cell,
    format_spot,
    series_problem,
    spot_words,
)
from engine.matchfive.options import (
    COLOUR_NAMES,
    FIVE_BONUS,
    HAND_SIZE,
    MAX_HEIGHT,
    MAX_SERIES,
    WILD,
    WILD_PENALTY,
    hand_tile,
    is_wild,
    tile_name,
    value,
)
from engine.values import Breakdown, ScoreItem


@dataclass(frozen=True)
class PlayCheck:
    """A legal play: the board after it, its direction (None for one tile), and every series it
    created or extended (the play's own line first), those it completed, and the tiles it locked."""

    after: Board
    direction: str | None
    placed: frozenset[Spot]
    series: tuple[Series, ...]

    @property
    def completed(self) -> tuple[Series, ...]:
        return tuple(series for series in self.series if len(series) == MAX_SERIES)

    @property
    def locks(self) -> tuple[Spot, ...]:
        """The end tiles of each horizontal series of five the play completed (first, then last)."""
        ends = [(series.spots[0], series.spots[-1]) for series in self.completed if series.horizontal]
        return tuple(spot for pair in ends for spot in pair)


def play_direction(spots: Sequence[Spot]) -> str | None:
    """``up`` for tiles on one cell, ``across``/``down`` for one row/column at one level, None for one
    tile; IllegalMoveError ``not_in_line`` otherwise."""
    if len(spots) == 1:
        return None
    rows, cols, levels = ({spot[i] for spot in spots} for i in range(3))
    if len(rows) == 1 and len(cols) == 1:
        return UP
    if len(levels) == 1 and len(rows) == 1:
        return ACROSS
    if len(levels) == 1 and len(cols) == 1:
        return DOWN
    raise IllegalMoveError(
        "not_in_line",
        "the tiles of a play go in one line: along one row or one column at one level, or up one stack",
    )


def check_hand(hand: Sequence[str], tiles: Sequence[str]) -> None:
    """The placed tiles come from the hand (a wild played as ``*2b`` is the hand's ``*``), at most one wild."""
    if not tiles:
        raise IllegalMoveError("no_tiles", "a play places one to five tiles")
    if len(tiles) > HAND_SIZE:
        raise IllegalMoveError("too_many_tiles", f"a play places one to {HAND_SIZE} tiles, not {len(tiles)}")
    taken = Counter(hand_tile(tile) for tile in tiles)
    missing = taken - Counter(hand)
    if missing:
        raise IllegalMoveError(
            "not_in_hand", f"not in your hand: {', '.join(tile_name(t) for t in sorted(missing.elements()))}"
        )
    if taken[WILD] > 1:
        raise IllegalMoveError("two_wilds", "only one wild per turn")


def check_resting(board: Board, spots: Sequence[Spot]) -> None:
    """Each tile rests on the table or on the top of its stack, no stack above five high."""
    by_cell: dict[Cell, list[int]] = {}
    for r, c, level in spots:
        by_cell.setdefault((r, c), []).append(level)
    for cell, levels in sorted(by_cell.items()):
        levels.sort()
        height = board.height(cell)
        where = f"the stack at {square_words(cell)}"
        if levels[-1] > MAX_HEIGHT:
            raise IllegalMoveError(
                "too_high", f"a stack is at most {MAX_HEIGHT} tiles high: no level {levels[-1]} on {where}"
            )
        if levels[0] <= height:
            tile = board.tile_at((*cell, levels[0]))
            raise IllegalMoveError(
                "occupied", f"level {levels[0]} of {where} already holds the {tile_name(tile or WILD)}"
            )
        if levels != list(range(height + 1, height + 1 + len(levels))):
            raise IllegalMoveError(
                "floating",
                f"a tile rests on the table or on the top of its stack: {where} holds {height} tile(s), so the next "
                f"tile there is at level {height + 1}",
            )


def check_geometry(board: Board, spots: Sequence[Spot]) -> str | None:
    """Where the tiles may go: resting (above), in one line, without gaps, attached to the one grouping
    (the first play covers 0,0), never beside a locked tile at its level. Returns the direction."""
    check_resting(board, spots)
    direction = play_direction(spots)
    placed = set(spots)
    if direction in HORIZONTAL:
        ordered = sorted(spots)
        (r0, c0, level), (r1, c1, _) = ordered[0], ordered[-1]
        dr, dc = STEPS[direction]  # type: ignore[index]
        for i in range(max(r1 - r0, c1 - c0) + 1):
            spot = (r0 + i * dr, c0 + i * dc, level)
            if spot not in placed and board.tile_at(spot) is None:
                raise IllegalMoveError(
                    "gap",
                    f"{spot_words(spot)} is empty: a play's tiles, with those between them, make one unbroken line",
                )
    if not board:
        if (*ORIGIN, 1) not in placed:
            raise IllegalMoveError(
                "off_centre", "the first play covers the centre square (row 0, column 0) on the table"
            )
    elif not any(board.touches((r, c)) for r, c, _ in spots):
        raise IllegalMoveError(
            "not_connected", "never start a new grouping: a play attaches to the tiles already on the table"
        )
    for spot in sorted(spots):
        lock = board.lock_beside(spot)
        if lock is not None:
            raise IllegalMoveError(
                "locked",
                f"the {tile_name(board.tile_at(lock) or WILD)} at {spot_words(lock)} is locked (an end of a completed "
                f"series of five): play cannot continue horizontally off it",
            )
    return direction


def play_series(after: Board, spots: Sequence[Spot], direction: str | None) -> tuple[Series, ...]:
    """Every series of two or more tiles through a placed tile on the board after the play: the play's
    own line first, then the others tile by tile (vertical, across, down)."""
    found: list[Series] = []
    seen: set[tuple[str, tuple[Spot, ...]]] = set()
    order = [direction] if direction is not None else []
    order += [d for d in (UP, ACROSS, DOWN) if d != direction]
    for index, wanted in enumerate(order):
        for spot in sorted(spots):
            run = after.stack_spots((spot[0], spot[1])) if wanted == UP else after.run(spot, wanted)
            key = (wanted, run)
            if len(run) >= 2 and key not in seen:
                seen.add(key)
                found.append(Series(wanted, run, tuple(after.tile_at(s) or WILD for s in run)))
            if index == 0 and direction is not None:
                break  # the play's own line is one series
    return tuple(found)


def check_play(board: Board, hand: Sequence[str], placements: Mapping[Spot, str]) -> PlayCheck:
    """The whole check of a play; IllegalMoveError (see each rule's function) or the checked play."""
    check_hand(hand, list(placements.values()))
    direction = check_geometry(board, sorted(placements))
    return check_series(board, placements, direction)


def check_series(board: Board, placements: Mapping[Spot, str], direction: str | None) -> PlayCheck:
    """The series of a play whose tiles and geometry are checked: each must be a series."""
    spots = sorted(placements)
    after = board.with_placements(placements)
    series = play_series(after, spots, direction)
    for one in series:
        problem = series_problem(one.tiles)
        if problem is not None:
            rule, message = problem
            raise IllegalMoveError(rule, f"{one.where()}: {message}")
    return PlayCheck(after, direction, frozenset(spots), series)


# --- scoring -------------------------------------------------------------------------------------
def describe_tiles(tiles: Sequence[str]) -> str:
    """``red 5, 4``; ``blue 4, yellow 4``; ``orange 2, wild (as blue 2)``: one colour is named once."""
    if len(tiles) > 1 and not any(is_wild(t) for t in tiles) and len({t[-1] for t in tiles}) == 1:
        return f"{COLOUR_NAMES[tiles[0][-1]]} " + ", ".join(t[-2] for t in tiles)
    return ", ".join(tile_name(tile) for tile in tiles)


def describe_series(series: Series, placed: frozenset[Spot]) -> str:
    """``red 5, 4 with red 3, 2, 1 (row 0 at level 1)``: the new tiles, then those already there."""
    new = [tile for spot, tile in zip(series.spots, series.tiles, strict=True) if spot in placed]
    old = [tile for spot, tile in zip(series.spots, series.tiles, strict=True) if spot not in placed]
    text = describe_tiles(new) + (f" with {describe_tiles(old)}" if old else "")
    return f"{text} ({series.where()})"


def score_play(check: PlayCheck) -> Breakdown:
    """Each series the play created or extended scores the sum of its numbers (a wild 0), old and new
    tiles, horizontally and vertically at once; +10 for each it completed; the locks it added."""
    items: list[ScoreItem] = []
    for series in check.series:
        values = tuple(value(tile) for tile in series.tiles)
        label = "vertical" if series.direction == UP else "horizontal"
        items.append(ScoreItem("series", label, sum(values), describe_series(series, check.placed), values))
        if len(series) == MAX_SERIES:
            items.append(ScoreItem("five", "series of five", FIVE_BONUS, f"completing the series ({series.where()})"))
    if not check.series:  # the game's first tile, alone: ruling 4
        (spot,) = check.placed
        tile = check.after.tile_at(spot) or WILD
        alone = f"{tile_name(tile)} alone (the first tile)"
        items.append(ScoreItem("series", "single tile", value(tile), alone, (value(tile),)))
    locks = check.locks
    if locks:
        named = [f"{tile_name(check.after.tile_at(spot) or WILD)} at {spot_words(spot)}" for spot in locks]
        pairs = [f"{named[i]} (first) and {named[i + 1]} (last)" for i in range(0, len(named), 2)]
        items.append(ScoreItem("lock", "locking blocks", 0, "on " + "; on ".join(pairs)))
    for series in check.completed:
        if not series.horizontal:
            items.append(ScoreItem("lock", "locking block", 0, f"on the top tile: {series.where()} is five high"))
    return Breakdown(tuple(items))


# --- swaps, the end ------------------------------------------------------------------------------
def check_swap(hand: Sequence[str], tiles: Sequence[str], bag_size: int) -> None:
    """Swap one to five tiles of the hand for as many from the bag (the bag must hold that many)."""
    if not tiles:
        raise IllegalMoveError("no_tiles", "swap one to five tiles")
    if len(tiles) > bag_size:
        raise IllegalMoveError(
            "swap_exceeds_bag",
            f"the bag holds {bag_size} tile(s): a swap draws as many as it puts back, at most {bag_size}",
        )
    missing = Counter(tiles) - Counter(hand)
    if missing:
        raise IllegalMoveError(
            "not_in_hand", f"not in your hand: {', '.join(tile_name(t) for t in sorted(missing.elements()))}"
        )


def hand_breakdown(hand: Sequence[str]) -> Breakdown:
    """What a hand left at the end costs: each tile's number, 25 for each wild."""
    items = [
        ScoreItem("left", "wild left", -WILD_PENALTY, "a wild left in hand", (-WILD_PENALTY,))
        if tile == WILD
        else ScoreItem("left", "left in hand", -value(tile), tile_name(tile), (-value(tile),))
        for tile in hand
    ]
    return Breakdown(tuple(items))


def board_problems(board: Board) -> list[str]:
    """What makes ``board`` one that no sequence of plays makes: a stack above five, a run or a
    stack that is no series, tiles not in one grouping around 0,0. (Locks depend on the order of
    plays, which a board does not keep: they are not checked.)"""
    problems: list[str] = []
    if not board:
        return problems
    if board.height(ORIGIN) == 0:
        problems.append("the first tile is on 0,0, and tiles never move: 0,0 holds a tile")
    for cell, stack in sorted(board.stacks.items()):
        if len(stack) > MAX_HEIGHT:
            problems.append(f"the stack on {format_cell(cell)} is {len(stack)} high; at most {MAX_HEIGHT}")
        elif len(stack) >= 2:
            problem = series_problem(stack)
            if problem is not None:
                problems.append(f"stack {format_cell(cell)}: {problem[1]}")
    for direction, run in board.horizontal_runs():
        problem = series_problem([board.tile_at(spot) or WILD for spot in run])
        if problem is not None:
            problems.append(f"{direction} from {format_spot(run[0])}: {problem[1]}")
    reached = {ORIGIN} if board.height(ORIGIN) else set()
    frontier = list(reached)
    while frontier:
        r, c = frontier.pop()
        for dr, dc in NEIGHBOURS:
            near = (r + dr, c + dc)
            if near in board.stacks and near not in reached:
                reached.add(near)
                frontier.append(near)
    if reached and len(reached) != len(board.stacks):
        problems.append("the tiles are not one grouping: a new grouping is never started")
    return problems

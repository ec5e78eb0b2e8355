"""Every legal play for a hand on a board: the fast generator, and the brute-force reference.

The fast generator knows where plays can go and checks each tile once per spot:

- a *slot* is a spot a tile can rest on (the table beside the grouping, or the top of a stack
  under five high) that is not beside a locked tile at its level;
- each slot's *cross series* (the series through it other than the play's own line: the stack
  below it and the horizontal run the other way, or for a stack play the runs across and down at
  each level) are read once, into the set of the 25 colour-numbers that fit them all, their points
  and whether a wild may join them (one wild per series);
- plays are one tile in a slot; two or more up one stack; or two or more along one row or column
  at one level, filling every slot of a *span* (a stretch of at most five spots, each holding a
  tile or a slot, with no tile just outside it), the line's series kept valid tile by tile.

A series is a set property (same colour and all numbers different, or the reverse), so each line
is carried as two bit masks (numbers, colours) and a count. A wild is tried as each colour-number
its slot allows (ruling 9: a wild is declared when played). The brute force tries every ordered
choice of hand tiles (each wild as each of the 25 colour-numbers) on every line of spots from every
cell around the grouping, across, down and up, stepping over tiles, and keeps what
:func:`~engine.matchfive.rules.check_play` accepts.

>>> from engine.matchfive.board import parse_stacks
>>> board = parse_stacks("0,0:3r 0,1:2r 0,2:1r")
>>> plays = scored_plays(board, ["5r", "4r", "2b", "3y", "4g"])
>>> [scored.move.to_text() for scored in plays if scored.points == 25]  # the red five, completed
['0,-2:1a 4r 5r', '0,-2:1a 5r 4r', '0,-1:1a 4r . . . 5r', '0,-1:1a 5r . . . 4r', '0,3:1a 4r 5r', '0,3:1a 5r 4r']
>>> {p.move for p in plays} == brute_force_plays(board, ["5r", "4r", "2b", "3y", "4g"])
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from engine.errors import IllegalMoveError
from engine.linegames.symmetry import DIHEDRAL, canonical_form, symmetric_maps
from engine.matchfive.board import ACROSS, DOWN, NEIGHBOURS, ORIGIN, STEPS, UP, Board, Cell, Spot
from engine.matchfive.moves import Place
from engine.matchfive.options import COLOURS, FACES, FIVE_BONUS, MAX_HEIGHT, MAX_SERIES, WILD, face, is_wild
from engine.matchfive.rules import check_geometry, check_hand, check_play, check_series, score_play
from engine.values import Breakdown, ScoredMove

#: Each colour-number's index in FACES, number bit, colour bit and value.
INDEX = {f: i for i, f in enumerate(FACES)}
NUMBER_BIT = [1 << (int(f[0]) - 1) for f in FACES]
COLOUR_BIT = [1 << COLOURS.index(f[1]) for f in FACES]
VALUE = [int(f[0]) for f in FACES]
ALL_FACES = (1 << len(FACES)) - 1


def fits(numbers: int, colours: int, count: int) -> bool:
    """Can tiles with these number and colour masks (``count`` tiles) be a series, or part of one?"""
    if count <= 1:
        return True
    if count > MAX_SERIES:
        return False
    n, c = numbers.bit_count(), colours.bit_count()
    return (c == 1 and n == count) or (n == 1 and c == count)


@cache
def taken_faces(numbers: int, colours: int, count: int, wilds: int) -> int:
    """The colour-numbers (a bit each) that a run with these masks takes one more of; none once it
    holds two wilds (two series a tile would join into one). A few thousand runs exist: kept."""
    if wilds > 1:
        return 0
    return sum(1 << i for i in range(len(FACES)) if fits(numbers | NUMBER_BIT[i], colours | COLOUR_BIT[i], count + 1))


@dataclass(frozen=True)
class Run:
    """Tiles already in a line, as masks: what a tile added to it must fit."""

    numbers: int = 0
    colours: int = 0
    count: int = 0
    wilds: int = 0
    points: int = 0

    def add(self, tile: str) -> Run:
        i = INDEX[face(tile)]
        wild = is_wild(tile)
        return Run(
            self.numbers | NUMBER_BIT[i],
            self.colours | COLOUR_BIT[i],
            self.count + 1,
            self.wilds + wild,
            self.points + (0 if wild else VALUE[i]),
        )

    @cached_property
    def faces(self) -> int:
        """The colour-numbers the run takes one more of, a bit each."""
        return taken_faces(self.numbers, self.colours, self.count, self.wilds)

    def takes(self, i: int) -> bool:
        return bool(self.faces >> i & 1)


EMPTY = Run()


@dataclass(frozen=True)
class Slot:
    """A spot a tile may go, with what its cross series allow: ``faces`` (a bit per colour-number that
    fits them all), ``wild`` (whether a wild may join them), and the points they score before the
    tile's own number: ``base`` plus ``crosses`` times the tile's number."""

    spot: Spot
    faces: int
    wild: bool
    base: int
    crosses: int


def cross_slot(spot: Spot, runs: Sequence[Run]) -> Slot:
    faces = ALL_FACES
    for run in runs:
        faces &= run.faces
    present = [run for run in runs if run.count]
    base = sum(run.points + (FIVE_BONUS if run.count + 1 == MAX_SERIES else 0) for run in present)
    return Slot(spot, faces, all(run.wilds == 0 for run in runs), base, len(present))


class Generator:
    """The plays of one hand on one board (made per call: boards and hands change every turn)."""

    def __init__(self, board: Board, hand: Sequence[str]) -> None:
        self.board = board
        counts = Counter(hand)
        self.wilds = counts.pop(WILD, 0)
        #: concrete hand tiles, each once, with how many the hand holds
        self.kinds = sorted(counts.items(), key=lambda item: INDEX[item[0]])
        self.locked = board.locked
        self._slots: dict[tuple[Spot, str | None], Slot | None] = {}

    # --- what is where -------------------------------------------------------------------------
    def line_run(self, spot: Spot, direction: str) -> Run:
        """The tiles beside ``spot`` (empty) both ways along ``direction`` at its level."""
        run = EMPTY
        dr, dc = STEPS[direction]
        r, c, level = spot
        for sign in (1, -1):
            step = 1
            while True:
                tile = self.board.tile_at((r + sign * step * dr, c + sign * step * dc, level))
                if tile is None:
                    break
                run = run.add(tile)
                step += 1
        return run

    def stack_run(self, cell: Cell, below: int) -> Run:
        run = EMPTY
        stack = self.board.stacks.get(cell, ())
        for tile in stack[:below]:
            run = run.add(tile)
        return run

    def slot(self, spot: Spot, main: str | None) -> Slot | None:
        """The slot at ``spot`` for a play along ``main`` (None: a single tile); None if locked out."""
        key = (spot, main)
        if key not in self._slots:
            r, c, level = spot
            if any((r + dr, c + dc, level) in self.locked for dr, dc in NEIGHBOURS):
                self._slots[key] = None
            else:
                runs = [] if main == UP else [self.stack_run((r, c), level - 1)]
                runs += [self.line_run(spot, d) for d in (ACROSS, DOWN) if d != main]
                self._slots[key] = cross_slot(spot, runs)
        return self._slots[key]

    def attached(self, cell: Cell) -> bool:
        """May a play's tiles start on ``cell`` (it holds tiles or touches some; on an empty board, 0,0)?"""
        return self.board.touches(cell) if self.board else cell == ORIGIN

    # --- the search ----------------------------------------------------------------------------
    def plays(self) -> Iterator[tuple[Place, int]]:
        yield from self.singles()
        yield from self.stacks()
        for direction in (ACROSS, DOWN):
            yield from self.lines(direction)

    def candidates(self, slot: Slot, main: Run, wild_free: bool) -> Iterator[tuple[str, int, str | None]]:
        """(tile as placed, its number, the hand kind it uses) that fit ``slot`` and the line so far."""
        for kind, count in self.kinds:
            i = INDEX[kind]
            if count and slot.faces >> i & 1 and main.takes(i):
                yield kind, VALUE[i], kind
        if self.wilds and wild_free and slot.wild and main.wilds == 0:
            for i, f in enumerate(FACES):
                if slot.faces >> i & 1 and main.takes(i):
                    yield WILD + f, 0, None

    def fill(self, slots: Sequence[Slot], main: Run) -> Iterator[tuple[tuple[str, ...], int]]:
        """Every way to put hand tiles in ``slots`` in order, the line ``main`` kept a series: the tiles,
        and what the slots' cross series score."""
        kinds = dict(self.kinds)

        def search(index: int, line: Run, wild_free: bool, placed: tuple[str, ...], cross: int) -> Iterator[
            tuple[tuple[str, ...], int]
        ]:  # fmt: skip
            if index == len(slots):
                yield placed, cross
                return
            slot = slots[index]
            for tile, number, kind in self.candidates(slot, line, wild_free):
                if kind is not None:
                    if not kinds[kind]:
                        continue
                    kinds[kind] -= 1
                gained = slot.base + slot.crosses * number
                yield from search(index + 1, line.add(tile), wild_free and kind is not None, placed + (tile,),
                                  cross + gained)  # fmt: skip
                if kind is not None:
                    kinds[kind] += 1

        yield from search(0, main, True, (), 0)

    def singles(self) -> Iterator[tuple[Place, int]]:
        for cell in self.open_cells():
            height = self.board.height(cell)
            slot = self.slot((*cell, height + 1), None)
            if slot is None:
                continue
            for tile, number, _ in self.candidates(slot, EMPTY, True):
                points = slot.base + slot.crosses * number if slot.crosses else number
                yield Place((((*cell, height + 1), tile),)), points

    def stacks(self) -> Iterator[tuple[Place, int]]:
        for cell in self.open_cells():
            height = self.board.height(cell)
            slots: list[Slot] = []
            for level in range(height + 1, MAX_HEIGHT + 1):
                slot = self.slot((*cell, level), UP)
                if slot is None:
                    break
                slots.append(slot)
            below = self.stack_run(cell, height)
            for size in range(2, len(slots) + 1):
                for tiles, cross in self.fill(slots[:size], below):
                    line = below
                    for tile in tiles:
                        line = line.add(tile)
                    points = cross + line.points + (FIVE_BONUS if line.count == MAX_SERIES else 0)
                    yield Place(tuple((slot.spot, tile) for slot, tile in zip(slots, tiles, strict=False))), points

    def open_cells(self) -> list[Cell]:
        """Cells a single tile or a stack play may start on: attached, under five high."""
        if not self.board:
            return [ORIGIN]
        cells = set(self.board.stacks)
        for r, c in self.board.stacks:
            cells.update((r + dr, c + dc) for dr, dc in NEIGHBOURS)
        return sorted(cell for cell in cells if self.board.height(cell) < MAX_HEIGHT)

    def lines(self, direction: str) -> Iterator[tuple[Place, int]]:
        """Plays of two or more tiles along rows (across) or columns (down) at one level."""
        for level in range(1, MAX_HEIGHT + 1):
            for line in self.line_cells(direction, level):
                yield from self.spans(line, direction, level)

    def line_cells(self, direction: str, level: int) -> list[list[Cell]]:
        """The stretches of cells, in order along ``direction``, where a level-``level`` span may lie."""
        board = self.board
        if level == 1:
            top, bottom, left, right = board.bounds() if board else (0, 0, 0, 0)
            reach = MAX_SERIES if board else MAX_SERIES - 1
            if direction == ACROSS:
                rows = range(top - 1, bottom + 2) if board else range(0, 1)
                return [[(r, c) for c in range(left - reach, right + reach + 1)] for r in rows]
            cols = range(left - 1, right + 2) if board else range(0, 1)
            return [[(r, c) for r in range(top - reach, bottom + reach + 1)] for c in cols]
        # Above the table only cells holding level - 1 tiles or more matter: group them by row or column.
        index = 0 if direction == ACROSS else 1
        groups: dict[int, list[Cell]] = {}
        for cell, stack in board.stacks.items():
            if len(stack) >= level - 1:
                groups.setdefault(cell[index], []).append(cell)
        return [sorted(cells, key=lambda cell: cell[1 - index]) for _, cells in sorted(groups.items())]

    def spans(self, cells: list[Cell], direction: str, level: int) -> Iterator[tuple[Place, int]]:
        """Every span along ``cells`` (consecutive or not) at ``level`` with two or more slots to fill."""
        step = STEPS[direction]
        # Each cell's state at this level: a tile ("T"), a slot (its Slot), or nothing ("X").
        states: dict[Cell, object] = {}
        for cell in cells:
            height = self.board.height(cell)
            if height >= level:
                states[cell] = "T"
            elif height == level - 1:
                slot = self.slot((*cell, level), direction)
                states[cell] = "X" if slot is None else slot
            else:
                states[cell] = "X"
        for start in cells:
            before = (start[0] - step[0], start[1] - step[1])
            if states.get(start, "X") == "X" or states.get(before) == "T":
                continue
            slots: list[Slot] = []
            main = EMPTY
            attached = False
            cell = start
            for _ in range(MAX_SERIES):
                state = states.get(cell, "X")
                if state == "X":
                    break
                if state == "T":
                    tile = self.board.tile_at((*cell, level))
                    assert tile is not None
                    main = main.add(tile)
                    attached = True
                else:
                    assert isinstance(state, Slot)
                    slots.append(state)
                    attached = attached or self.attached(cell)
                if not fits(main.numbers, main.colours, main.count):
                    break
                cell = (cell[0] + step[0], cell[1] + step[1])
                if states.get(cell) == "T" or len(slots) < 2 or not attached:
                    continue  # the span would not end here
                yield from self.span_plays(slots, main)

    def span_plays(self, slots: list[Slot], main: Run) -> Iterator[tuple[Place, int]]:
        for tiles, cross in self.fill(slots, main):
            line = main
            for tile in tiles:
                line = line.add(tile)
            points = cross + line.points + (FIVE_BONUS if line.count == MAX_SERIES else 0)
            yield Place(tuple(sorted((slot.spot, tile) for slot, tile in zip(slots, tiles, strict=True)))), points


def generate_plays(board: Board, hand: Sequence[str]) -> list[Place]:
    """Every legal play of ``hand`` on ``board`` (the generator's order)."""
    return [move for move, _ in Generator(board, hand).plays()]


def scored_plays(board: Board, hand: Sequence[str]) -> list[ScoredMove[Place]]:
    """Every legal play with its points, best first (ties: the generator's order). Breakdowns are left
    empty for speed: :func:`best_plays` gives them."""
    found = [ScoredMove(move, points) for move, points in Generator(board, hand).plays()]
    found.sort(key=lambda scored: -scored.points)
    return found


def best_plays(board: Board, hand: Sequence[str], limit: int = 5) -> list[ScoredMove[Place]]:
    """The ``limit`` best plays (0: all), each with its breakdown (the hints)."""
    ranked = scored_plays(board, hand)
    chosen = ranked[:limit] if limit else ranked
    return [ScoredMove(s.move, s.points, breakdown_of(board, hand, s.move)) for s in chosen]


def breakdown_of(board: Board, hand: Sequence[str], play: Place) -> Breakdown:
    """What a legal play scores, series by series."""
    return score_play(check_play(board, hand, play.as_dict()))


def play_form(board: Board) -> Callable[[Place], Hashable]:
    """A play's form up to the symmetries of the table (the stacks): the same for a play and its images
    turned, mirrored or, on the empty table, shifted, which score the same (the review lists them once).
    The table has no landmark, so a symmetry of its tiles is one of the position."""
    if not board:
        return lambda play: min(_shifted(play, turn) for turn in DIHEDRAL)
    top, bottom, left, right = board.bounds()
    maps = symmetric_maps(board.stacks, lambda cell: board.stacks.get(cell), (top + bottom, left + right))
    return lambda play: canonical_form(_laid(play), maps)


def _laid(play: Place) -> list[tuple[Cell, tuple[int, str]]]:
    return [((r, c), (level, tile)) for (r, c, level), tile in play.placements]


def _shifted(play: Place, turn: Callable[[Cell], Cell]) -> tuple[tuple[Cell, tuple[int, str]], ...]:
    """``play`` turned, then shifted to begin at row 0, column 0: its form on the empty table."""
    laid = [(turn(cell), what) for cell, what in _laid(play)]
    top, left = min(r for (r, _), _ in laid), min(c for (_, c), _ in laid)
    return tuple(sorted(((r - top, c - left), what) for (r, c), what in laid))


# --- the brute-force reference -------------------------------------------------------------------
def candidate_lines(board: Board) -> set[tuple[Spot, ...]]:
    """Every line of one to five spots a play might fill: from each cell of a box around the grouping
    (a tile on its stack's top), across or down stepping over tiles at that level, or up its stack."""
    if board:
        top, bottom, left, right = board.bounds()
        box = [(r, c) for r in range(top - 5, bottom + 6) for c in range(left - 5, right + 6)]
    else:
        box = [(r, c) for r in range(-4, 5) for c in range(-4, 5)]
    lines: set[tuple[Spot, ...]] = set()
    for r, c in box:
        height = board.height((r, c))
        if height >= MAX_HEIGHT:
            continue
        level = height + 1
        for k in range(1, MAX_HEIGHT - height + 1):
            lines.add(tuple((r, c, level + j) for j in range(k)))
        for dr, dc in STEPS.values():
            spots: list[Spot] = []
            for i in range(2 * MAX_SERIES):
                spot = (r + i * dr, c + i * dc, level)
                if board.tile_at(spot) is not None:
                    continue  # stepped over
                if board.height(spot[:2]) != level - 1:
                    break  # nothing for a tile to rest on
                spots.append(spot)
                lines.add(tuple(spots))
                if len(spots) == MAX_SERIES:
                    break
    return lines


def brute_force_plays(board: Board, hand: Sequence[str]) -> set[Place]:
    """Every legal play, by trying every ordered choice of hand tiles (each wild as each colour-number)
    on every candidate line whose geometry the rules accept, keeping what ``check_play`` accepts.

    The choices are tried spot by spot along the line, and a choice is dropped as soon as the tiles
    placed so far break a rule of the hand or of a series: every series through those tiles is part
    of a series of the whole play (a series of five or fewer, of one colour or one number, with one
    wild at most, stays one when tiles are taken away), so no longer choice could mend it."""
    found: set[Place] = set()
    for spots in sorted(candidate_lines(board)):
        try:
            direction = check_geometry(board, spots)
        except IllegalMoveError:
            continue  # no tiles can go there: the same refusal for any choice of tiles
        _fill_line(board, hand, spots, direction, {}, list(hand), found)
    return found


def _fill_line(
    board: Board, hand: Sequence[str], spots: Sequence[Spot], direction: str | None, placed: dict[Spot, str],
    left: list[str], found: set[Place],
) -> None:  # fmt: skip
    index = len(placed)
    if index == len(spots):
        check_play(board, hand, placed)
        found.add(Place.of(placed))
        return
    for held in sorted(set(left)):
        rest = list(left)
        rest.remove(held)
        for tile in [WILD + f for f in FACES] if held == WILD else [held]:
            trial = {**placed, spots[index]: tile}
            try:
                check_hand(hand, list(trial.values()))
                check_series(board, trial, direction if index else None)
            except IllegalMoveError:
                continue
            _fill_line(board, hand, spots, direction, trial, rest, found)

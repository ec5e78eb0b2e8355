"""Wild tiles, solved: what each wild stands for so that every line through it is a line.

Nothing is fixed when a wild is played: at every check it stands for whatever makes its lines work
now (as BOP!'s tile does). Two bindings:

- **per line** (Q!nto: "a wild may represent different tiles in different directions"): each line
  is solved on its own, its wilds free;
- **shared** (D!Git: "if part of 2 lines, a wild must represent the same colour and number in both
  lines"): one tile per wild in all its lines, so lines joined through wilds are solved together.
  The lines to solve grow from those asked about through every wild in them to the other line
  through that wild, and on (a small constraint network).

The solver is a small backtracking search. Per line: the wild places take values from their
domains in order, and a partial line is pruned as soon as no kind admits it. Shared: the wild
cells are the variables; a value is kept only while every line through the cell can still be
completed on its own (each such question is one memoised per-line solve).

>>> from engine.linegames.lines import LineKind, LineRule, all_distinct, all_same
>>> kit = TileKit("0123456789", "ygrkb")
>>> numbers = LineRule((LineKind("number line", 5, all_same, all_distinct),), "one number, different colours")
>>> solver = LineSolver(kit, numbers, shared=True)
>>> solver.solve_line(("9y", "??", "9r"))
('9y', '9g', '9r')
>>> solver.solve_line(("9y", "?y")) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.linegames.grid import ORTHOGONAL, Cell, Line, lines_through
from engine.linegames.lines import LineRule, Predicate
from engine.linegames.tiles import WILD, TileKit, is_wild


@dataclass(frozen=True)
class LineCheck:
    """The verdict on some lines of a board.

    ``lines``: the lines asked about, then those reached through their wilds (shared binding);
    ``bad_lines``: lines that are no line whatever their wilds stand for; ``readings``: each line as
    concrete tiles, wilds decided (None when some line is bad, or when no one tile per wild works in
    all its lines at once).
    """

    lines: tuple[Line, ...]
    bad_lines: tuple[Line, ...]
    readings: Mapping[Line, tuple[str, ...]] | None
    wild_cells: tuple[Cell, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return not self.bad_lines and self.readings is not None

    def stands_for(self, cell: Cell, direction: str) -> str | None:
        """What the wild at ``cell`` stands for in its line in ``direction`` (None: no such line)."""
        if self.readings is None:
            return None
        for line, reading in self.readings.items():
            if line.direction == direction and cell in line.cells:
                return reading[line.cells.index(cell)]
        return None


class LineSolver:
    """One game's lines and wilds: per-line solving (memoised on the line's tiles) and checks of
    lines on a board. ``directions``: the directions whose lines constrain play (across and down;
    Q!nto Plus's diagonals only score)."""

    #: Per-line answers kept: the same lines come up again and again while generating moves.
    CACHE_SIZE = 1 << 17

    def __init__(self, kit: TileKit, rule: LineRule, shared: bool, directions: Sequence[str] = ORTHOGONAL) -> None:
        self.kit = kit
        self.rule = rule
        self.shared = shared
        self.directions = tuple(directions)
        self._cache: dict[tuple[str, ...], tuple[str, ...] | None] = {}
        self._options: dict[tuple[str, ...], tuple[frozenset[str], ...]] = {}

    # --- one line ---------------------------------------------------------------------------------
    def solve_line(self, tiles: tuple[str, ...]) -> tuple[str, ...] | None:
        """The line as concrete tiles (its wilds decided, first in domain order), or None if no
        choice for its wilds makes it a line."""
        cache = self._cache
        if tiles in cache:
            return cache[tiles]
        if len(cache) >= self.CACHE_SIZE:
            cache.clear()
        found = cache[tiles] = self._solve(tiles)
        return found

    def line_ok(self, tiles: tuple[str, ...]) -> bool:
        return self.solve_line(tiles) is not None

    def _solve(self, tiles: tuple[str, ...]) -> tuple[str, ...] | None:
        # A kind's test is one predicate on the faces and one on the colours, and a wild's domain is
        # its faces times its colours: so each kind is two small searches (10 faces, 5 colours) rather
        # than one over whole tiles.
        if not any(is_wild(tile) for tile in tiles):
            return tiles if self.rule.admits(tiles) else None
        faces = [tile[0] for tile in tiles]
        colours = [tile[1] for tile in tiles]
        for kind in self.rule.kinds:
            if len(tiles) > kind.max_length:
                continue
            chosen_faces = _solve_attribute(kind.faces, faces, self.kit.faces)
            if chosen_faces is None:
                continue
            chosen_colours = _solve_attribute(kind.colours, colours, self.kit.colours)
            if chosen_colours is None:
                continue
            return tuple(f + c for f, c in zip(chosen_faces, chosen_colours, strict=True))
        return None

    # --- lines on a board -------------------------------------------------------------------------
    def check(self, board: Mapping[Cell, str], lines: Iterable[Line]) -> LineCheck:
        """Are ``lines`` lines on ``board``, each wild standing for one tile per line (per-line
        binding) or one tile in all its lines (shared binding: the lines through those wilds are
        checked too)?"""
        constrained = list(dict.fromkeys(lines))
        if self.shared:
            known = set(constrained)
            seen: set[Cell] = set()
            queue = [cell for line in constrained for cell in line.cells if is_wild(board[cell])]
            while queue:
                cell = queue.pop()
                if cell in seen:
                    continue
                seen.add(cell)
                for line in lines_through(board, cell, self.directions):
                    if line not in known:
                        known.add(line)
                        constrained.append(line)
                        queue.extend(c for c in line.cells if is_wild(board[c]) and c not in seen)
        tiles = {line: line.tiles(board) for line in constrained}
        solved = {line: self.solve_line(tiles[line]) for line in constrained}
        bad = tuple(line for line in constrained if solved[line] is None)
        wild_cells = tuple(sorted({c for line in constrained for c in line.cells if is_wild(board[c])}))
        if bad:
            return LineCheck(tuple(constrained), bad, None, wild_cells)
        if not self.shared or not wild_cells:
            return LineCheck(tuple(constrained), (), solved, wild_cells)  # type: ignore[arg-type]
        chosen = self._joint(board, constrained, tiles, wild_cells)
        if chosen is None:
            return LineCheck(tuple(constrained), (), None, wild_cells)
        readings = {line: tuple(chosen.get(cell, board[cell]) for cell in line.cells) for line in constrained}
        return LineCheck(tuple(constrained), (), readings, wild_cells)

    def slot_options(self, tiles: tuple[str, ...]) -> tuple[frozenset[str], ...]:
        """For each wild place of a line (left to right), the values with which the line can still be
        completed, the other wilds free (memoised: the lines of the grid come up again and again)."""
        cache = self._options
        known = cache.get(tiles)
        if known is not None:
            return known
        if len(cache) >= self.CACHE_SIZE:
            cache.clear()
        holes = [i for i, tile in enumerate(tiles) if is_wild(tile)]
        options: list[set[str]] = [set() for _ in holes]
        faces = [tile[0] for tile in tiles]
        colours = [tile[1] for tile in tiles]
        for kind in self.rule.kinds:
            if len(tiles) > kind.max_length:
                continue
            face_options = _attribute_options(kind.faces, faces, self.kit.faces, holes)
            colour_options = _attribute_options(kind.colours, colours, self.kit.colours, holes)
            for k in range(len(holes)):
                options[k].update(f + c for f in face_options[k] for c in colour_options[k])
        found = cache[tiles] = tuple(frozenset(values) for values in options)
        return found

    def _joint(
        self,
        board: Mapping[Cell, str],
        lines: Sequence[Line],
        tiles: Mapping[Line, tuple[str, ...]],
        wild_cells: Sequence[Cell],
    ) -> dict[Cell, str] | None:
        """One tile per wild cell making every line a line at once (shared binding), or None.

        Each cell's values start as those every line through it allows on its own (the lines'
        memoised slot options); a backtracking search then picks one per cell, fewest values first,
        keeping each line through the cell completable."""
        through: dict[Cell, list[tuple[Line, int]]] = {cell: [] for cell in wild_cells}
        values: dict[Cell, frozenset[str]] = {cell: frozenset(self.kit.domain(board[cell])) for cell in wild_cells}
        for line in lines:
            slots = [(i, cell) for i, cell in enumerate(line.cells) if cell in through]
            for (i, cell), allowed in zip(slots, self.slot_options(tiles[line]), strict=True):
                through[cell].append((line, i))
                values[cell] &= allowed
        if not all(values.values()):
            return None
        order = sorted(wild_cells, key=lambda cell: (len(values[cell]), -len(through[cell]), cell))
        chosen: dict[Cell, str] = {}
        current = {line: list(tiles[line]) for line in lines}

        def assign(k: int) -> bool:
            if k == len(order):
                return True
            cell = order[k]
            for value in sorted(values[cell]):
                for line, i in through[cell]:
                    current[line][i] = value
                if all(self.line_ok(tuple(current[line])) for line, _ in through[cell]) and assign(k + 1):
                    chosen[cell] = value
                    return True
            for line, i in through[cell]:
                current[line][i] = board[cell]
            return False

        return chosen if assign(0) else None

    def fits(self, board: Mapping[Cell, str], cell: Cell) -> LineCheck:
        """The check of every constraining line through ``cell`` (a swap's question)."""
        return self.check(board, lines_through(board, cell, self.directions))

    def works_at(self, board: Mapping[Cell, str], cell: Cell) -> frozenset[str]:
        """The concrete tiles that work in ``cell``'s position, across and down at once (with the
        other wilds re-solved): what a wild there may be swapped for, and, under the shared
        binding, what it can stand for. Empty: "unswappable"."""
        trial = dict(board)
        works = set()
        for value in self.kit.concrete:
            trial[cell] = value
            if self.fits(trial, cell).valid:
                works.add(value)
        return frozenset(works)

    def can_stand_for(self, board: Mapping[Cell, str], cell: Cell) -> frozenset[str]:
        """What the wild at ``cell`` can stand for in all its lines at once (within its own domain:
        a blank yellow tile stays yellow)."""
        return self.works_at(board, cell) & frozenset(self.kit.domain(board[cell]))


def _solve_attribute(predicate: Predicate, values: Sequence[str], alphabet: str) -> list[str] | None:
    """One attribute of a line (its faces, or its colours) with each ``?`` decided so that
    ``predicate`` holds: the first choice in alphabet order, or None."""
    partial: list[str | None] = [None if v == WILD else v for v in values]
    if not predicate(partial):
        return None
    holes = [i for i, v in enumerate(values) if v == WILD]

    def place(k: int) -> bool:
        if k == len(holes):
            return True
        at = holes[k]
        for value in alphabet:
            partial[at] = value
            if predicate(partial) and place(k + 1):
                return True
        partial[at] = None
        return False

    return partial if place(0) else None  # type: ignore[return-value]


def _attribute_options(
    predicate: Predicate, values: Sequence[str], alphabet: str, holes: Sequence[int]
) -> list[set[str]]:
    """For each place in ``holes``: the values it can take there (a fixed value, or any the ``?``
    can be) in some choice making ``predicate`` hold."""
    options = []
    for at in holes:
        candidates = alphabet if values[at] == WILD else values[at]
        fits = set()
        for value in candidates:
            trial = list(values)
            trial[at] = value
            if _solve_attribute(predicate, trial, alphabet) is not None:
                fits.add(value)
        options.append(fits)
    return options

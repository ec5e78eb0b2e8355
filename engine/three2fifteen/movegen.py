"""Every legal play for a hand on a board; and the brute-force reference.

The fast generator uses two facts of the rules. A lone token is legal where its run across and its
run down both stay legal, so each empty cell touching the board gets, per direction, the range of
values its run allows ("cross-checks": a run of two leaves ``0 .. 15 - neighbour``, a run of three
exactly ``15 - the two``). A play of two or three tokens lies, with the tokens between and beside
it, in one run of two or three cells that nothing else touches along the line; so the generator
walks every such segment of every row and column once, puts hand tokens in its empty cells, and
keeps the choices whose segment sum and cross-checks hold. Each legal play is found exactly once.

The brute-force enumerator tries every set of one to three empty cells within ``reach`` cells of
one row or column, with every ordered choice of hand tokens, and keeps what ``rules.check_play``
accepts: no shared structure, no pruning but the window. Tests and
``benchmarks/three2fifteen_movegen.py`` compare the two.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence

from engine.errors import IllegalMoveError
from engine.linegames.symmetry import canonical_form, symmetric_maps
from engine.three2fifteen.board import ACROSS, DOWN, Cell
from engine.three2fifteen.layout import Layout
from engine.three2fifteen.moves import Play
from engine.three2fifteen.options import MAX_RUN, MAX_TOKEN, TARGET
from engine.three2fifteen.rules import anchor_cells, check_play, score
from engine.values import ScoredMove

#: a cell's allowed values in one direction, and whether a run goes through it that way
CrossCheck = tuple[int, int, bool]
OPEN: CrossCheck = (0, MAX_TOKEN, False)

#: (row, col, 0 along a row / 1 along a column) -> that cell's CrossCheck that way
CrossChecker = Callable[[int, int, int], CrossCheck | None]
Placements = tuple[tuple[Cell, int], ...]


def generate_plays(board: Mapping[Cell, int], hand: Sequence[int], layout: Layout) -> list[Play]:
    """Every legal play of tokens from ``hand`` on ``board``, in a fixed order (by placements)."""
    if not hand:
        return []
    height, width = layout.height, layout.width
    grid: list[list[int | None]] = [[None] * width for _ in range(height)]
    for (r, c), value in board.items():
        grid[r][c] = value
    checks: dict[tuple[int, int, int], CrossCheck | None] = {}

    def cross_check(r: int, c: int, dr: int) -> CrossCheck | None:
        """The values an empty cell allows along direction (dr, 1 - dr); None: no value fits."""
        key = (r, c, dr)
        if key in checks:
            return checks[key]
        dc = 1 - dr
        count = total = 0
        for sign in (-1, 1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < height and 0 <= cc < width:
                value = grid[rr][cc]
                if value is None:
                    break
                count += 1
                total += value
                rr, cc = rr + sign * dr, cc + sign * dc
        if count == 0:
            check: CrossCheck | None = OPEN
        elif count == 1:
            check = (0, TARGET - total, True)
        elif count == 2 and total <= TARGET:
            check = (TARGET - total, TARGET - total, True)
        else:
            check = None
        checks[key] = check
        return check

    found: list[Placements] = []
    values = sorted(set(hand))
    for r, c in anchor_cells(board, layout):
        across, down = cross_check(r, c, 0), cross_check(r, c, 1)
        if across is None or down is None:
            continue
        low, high = max(across[0], down[0]), min(across[1], down[1])
        found += [(((r, c), value),) for value in values if low <= value <= high]

    if len(hand) >= 2:
        _segment_plays(board, hand, layout, grid, cross_check, found)
    return [Play(placements) for placements in sorted(found)]


def _segment_plays(
    board: Mapping[Cell, int],
    hand: Sequence[int],
    layout: Layout,
    grid: list[list[int | None]],
    cross_check: CrossChecker,
    found: list[Placements],
) -> None:
    """Plays of two or three tokens: every segment of two or three cells of a row or column that
    makes a whole run once filled, with two or more empty cells to fill."""
    empty_board = not board
    by_size: dict[int, list[tuple[int, ...]]] = {
        k: sorted(set(itertools.permutations(hand, k))) for k in range(2, min(len(hand), MAX_RUN) + 1)
    }
    by_sum: dict[int, dict[int, list[tuple[int, ...]]]] = {}
    for k, choices in by_size.items():
        for choice in choices:
            by_sum.setdefault(k, {}).setdefault(sum(choice), []).append(choice)
    height, width = layout.height, layout.width
    for direction in (ACROSS, DOWN):
        lines = height if direction == ACROSS else width
        length = width if direction == ACROSS else height
        cross = 1 if direction == ACROSS else 0
        # A segment touches a token only if its line, or a line beside it, holds one.
        if empty_board:
            near = {layout.start[0] if direction == ACROSS else layout.start[1]}
        else:
            held = {r if direction == ACROSS else c for r, c in board}
            near = {line + d for line in held for d in (-1, 0, 1)}
        for line in sorted(n for n in near if 0 <= n < lines):
            cells = [(line, i) for i in range(length)] if direction == ACROSS else [(i, line) for i in range(length)]
            occupied = [grid[r][c] for r, c in cells]
            for start in range(length - 1):
                if start and occupied[start - 1] is not None:
                    continue
                for size in (2, 3):
                    end = start + size
                    if end > length:
                        break
                    if end < length and occupied[end] is not None:
                        continue
                    empties = [i for i in range(start, end) if occupied[i] is None]
                    k = len(empties)
                    if k < 2 or k not in by_size:
                        continue
                    segment_cells = [cells[i] for i in empties]
                    if empty_board and layout.start not in cells[start:end]:
                        continue
                    ranges = [cross_check(r, c, cross) for r, c in segment_cells]
                    if None in ranges:
                        continue
                    checked = [rng for rng in ranges if rng is not None]
                    if k == size and not empty_board and not any(rng[2] for rng in checked):
                        continue  # touches nothing: neither along the line nor across it
                    board_sum = sum(v for v in occupied[start:end] if v is not None)
                    if size == MAX_RUN:
                        choices = by_sum[k].get(TARGET - board_sum, [])
                    else:
                        choices = [choice for choice in by_size[k] if sum(choice) <= TARGET]
                    for choice in choices:
                        if all(lo <= v <= hi for v, (lo, hi, _) in zip(choice, checked, strict=True)):
                            found.append(tuple(zip(segment_cells, choice, strict=True)))


def play_form(board: Mapping[Cell, int], layout: Layout) -> Callable[[Play], Hashable]:
    """A play's form up to the symmetries of the position (the squares and the tokens): the same for a
    play and its mirror images, which score the same (the review lists them once)."""
    cells = [(r, c) for r in range(layout.height) for c in range(layout.width)]
    maps = symmetric_maps(
        cells,
        lambda cell: (layout.square(cell), board.get(cell)) if layout.on_board(cell) else None,
        (layout.height - 1, layout.width - 1),
    )
    return lambda play: canonical_form(play.placements, maps)


def rank(scored: list[ScoredMove[Play]]) -> list[ScoredMove[Play]]:
    """Best first; ties in a fixed order (by placements) so that every run agrees."""
    return sorted(scored, key=lambda s: (-s.points, s.move.placements))


def scored_plays(board: Mapping[Cell, int], hand: Sequence[int], layout: Layout) -> list[ScoredMove[Play]]:
    """Every legal play with its breakdown, best first (greedy bots, hints)."""
    scored = []
    for play in generate_plays(board, hand, layout):
        breakdown = score(board, play.as_dict(), layout, hand)
        scored.append(ScoredMove(play, breakdown.total, breakdown))
    return rank(scored)


def best_plays(
    board: Mapping[Cell, int], hand: Sequence[int], layout: Layout, limit: int = 5
) -> list[ScoredMove[Play]]:
    """The ``limit`` best plays (0: all) for ``hand`` on ``board``, each with its breakdown (the hints)."""
    ranked = scored_plays(board, hand, layout)
    return ranked[:limit] if limit else ranked


def brute_force_plays(
    board: Mapping[Cell, int], hand: Sequence[int], layout: Layout, reach: int = MAX_RUN
) -> list[Play]:
    """The reference: every set of 1-3 empty cells within ``reach`` cells of a row or column, every
    ordered choice of hand tokens for them, judged by ``rules.check_play``. A legal play lies in
    one run of at most three cells, so the default reach misses none (a test with the whole line
    as reach checks that too)."""
    choices = {k: set(itertools.permutations(hand, k)) for k in range(1, min(len(hand), MAX_RUN) + 1)}
    judged: dict[Placements, bool] = {}
    lines = [[(r, c) for c in range(layout.width)] for r in range(layout.height)]
    lines += [[(r, c) for r in range(layout.height)] for c in range(layout.width)]
    for line in lines:
        for start in range(max(1, len(line) - reach + 1)):
            empties = [cell for cell in line[start : start + reach] if cell not in board]
            for k, hand_choices in choices.items():
                for cells in itertools.combinations(empties, k):
                    for values in hand_choices:
                        key = tuple(sorted(zip(cells, values, strict=True)))
                        if key in judged:
                            continue
                        try:
                            check_play(board, dict(key), layout)
                        except IllegalMoveError:
                            judged[key] = False
                        else:
                            judged[key] = True
    return [Play(key) for key in sorted(key for key, legal in judged.items() if legal)]

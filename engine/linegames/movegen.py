"""Every legal play for a hand on a board, and the brute-force reference it is tested against.

The fast generator walks each row and column from every empty cell where a play could start,
placing hand tiles in empty cells and reading the grid tiles it meets, and prunes as soon as the
line so far cannot be a line whatever its wilds stand for (every unbroken part of a line is a line,
so a line's beginning must be one). Each empty cell's perpendicular line is judged once per tile
("cross-checks"), wilds solved on their own line. That is exact where each line's wilds are free
(Q!nto's per-line binding). Under the shared binding (D!Git) a wild in two lines, or a line
through a grid wild that has another line, makes a play whose every line works alone but not
together possible, so those plays (and only those) are confirmed by the exact check,
:func:`~engine.linegames.rules.check_play`: the fast path may over-approximate there but never
decides alone.

The brute-force enumerator tries every ordered choice of hand tiles from every cell in every row
and column of a box around the board, stepping over grid tiles, and keeps what ``check_play``
accepts: no pruning, no shared structure.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from engine.errors import IllegalMoveError
from engine.linegames.grid import (
    ACROSS,
    CENTRE,
    DOWN,
    NEIGHBOURS,
    ORTHOGONAL,
    OTHER,
    STEPS,
    Cell,
    bounds,
    play_lines,
    run_through,
)
from engine.linegames.moves import Play, Swap
from engine.linegames.rules import MAX_PLAY, check_play
from engine.linegames.solver import LineSolver
from engine.linegames.tiles import is_wild
from engine.rng import Rng

Placements = tuple[tuple[Cell, str], ...]


Restriction = tuple[int, frozenset[str]]  # (place in a line, the tiles the wild there may be)


def generate_plays(
    solver: LineSolver, board: Mapping[Cell, str], hand: Sequence[str], max_tiles: int = MAX_PLAY
) -> list[Play]:
    """Every legal play of tiles from ``hand`` on ``board``, in a fixed order (by cells, then tiles)."""
    if not hand:
        return []
    if not board:
        return _first_plays(solver, hand, max_tiles)
    counts = Counter(hand)
    most = min(len(hand), max_tiles)
    line_ok = solver.line_ok
    shared = solver.shared
    top, bottom, left, right = bounds(board)
    found: dict[Placements, bool] = {}  # placements -> needs the exact check (shared binding only)
    other_cache: dict[tuple[Cell, str], tuple[str, bool, frozenset[str] | None]] = {}
    cross_cache: dict[tuple[Cell, str, str], tuple[bool, bool, bool, str, frozenset[str] | None]] = {}

    # Under the shared binding a wild in two lines must be one tile in both. The walk handles the usual
    # cases exactly: a wild whose other line holds no other wild may be what that line allows (its
    # "restriction"; a single tile is simply read as that tile), and a line is checked with its
    # restricted wilds kept to those tiles. A wild whose other line holds more wilds makes the play
    # need the exact check (``LineSolver.check``) at the end.
    def grid_token(cell: Cell, other: str) -> tuple[str, bool, frozenset[str] | None]:
        """A grid tile as a line through it reads it: (token, needs the exact check, restriction)."""
        key = (cell, other)
        known = other_cache.get(key)
        if known is not None:
            return known
        tile = board[cell]
        answer: tuple[str, bool, frozenset[str] | None] = (tile, False, None)
        if shared and is_wild(tile):
            run = run_through(board, cell, other)
            if len(run) >= 2:
                tiles = tuple(board[c] for c in run)
                if sum(is_wild(t) for t in tiles) > 1:
                    answer = (tile, True, None)
                else:
                    (options,) = solver.slot_options(tiles)
                    answer = (next(iter(options)), False, None) if len(options) == 1 else (tile, False, options)
        other_cache[key] = answer
        return answer

    def restricted_ok(tiles: tuple[str, ...], restrictions: Sequence[Restriction]) -> bool:
        """Is ``tiles`` a line with each restricted wild standing for one of its tiles (others free)?"""
        if not restrictions:
            return line_ok(tiles)
        options = solver.slot_options(tiles)
        choices = []
        for at, allowed in restrictions:
            fitting = allowed & options[sum(is_wild(t) for t in tiles[:at])]
            if not fitting:
                return False
            choices.append(sorted(fitting))
        if len(restrictions) == 1:
            return True
        for values in itertools.product(*choices):
            trial = list(tiles)
            for (at, _), value in zip(restrictions, values, strict=True):
                trial[at] = value
            if line_ok(tuple(trial)):
                return True
        return False

    def cross_check(cell: Cell, tile: str, cross: str) -> tuple[bool, bool, bool, str, frozenset[str] | None]:
        """``tile`` at ``cell`` and its line in direction ``cross``: (works, there is such a line, the play
        needs the exact check, the token the line along the play reads for the tile, its restriction)."""
        key = (cell, tile, cross)
        known = cross_cache.get(key)
        if known is not None:
            return known
        dr, dc = STEPS[cross]
        along = OTHER[cross]
        before: list[tuple[str, bool, frozenset[str] | None]] = []
        r, c = cell[0] - dr, cell[1] - dc
        while (r, c) in board:
            before.append(grid_token((r, c), along))
            r, c = r - dr, c - dc
        after: list[tuple[str, bool, frozenset[str] | None]] = []
        r, c = cell[0] + dr, cell[1] + dc
        while (r, c) in board:
            after.append(grid_token((r, c), along))
            r, c = r + dr, c + dc
        answer: tuple[bool, bool, bool, str, frozenset[str] | None]
        if not before and not after:
            answer = (True, False, False, tile, None)
        else:
            read = [*reversed(before), (tile, False, None), *after]
            tiles = tuple(token for token, _, _ in read)
            needs_exact = any(exact for _, exact, _ in read)
            restrictions = [(i, allowed) for i, (_, _, allowed) in enumerate(read) if allowed is not None]
            works = restricted_ok(tiles, restrictions)
            main_token, restrict = tile, None
            if works and shared and is_wild(tile):
                options = solver.slot_options(tiles)
                if restrictions or len(options) > 1:
                    needs_exact = True  # other wilds in its cross line: decided at the end
                elif len(options[0]) == 1:
                    (main_token,) = options[0]
                else:
                    restrict = options[0]
            answer = (works, True, needs_exact, main_token, restrict)
        cross_cache[key] = answer
        return answer

    for direction in ORTHOGONAL:
        cross = OTHER[direction]
        lines = range(top - 1, bottom + 2) if direction == ACROSS else range(left - 1, right + 2)
        lo, hi = (left, right) if direction == ACROSS else (top, bottom)
        for index in lines:

            def at(pos: int, index: int = index, direction: str = direction) -> Cell:
                return (index, pos) if direction == ACROSS else (pos, index)

            hooks = [
                pos
                for pos in range(lo - 1, hi + 2)
                if at(pos) in board or any((at(pos)[0] + r, at(pos)[1] + c) in board for r, c in NEIGHBOURS)
            ]
            if not hooks:
                continue

            def extend(
                pos: int,
                tokens: tuple[str, ...],
                placed: list[tuple[Cell, str]],
                connected: bool,
                needs_exact: bool,
                restricted: tuple[Restriction, ...],
                cross: str = cross,
                direction: str = direction,
            ) -> None:
                cell = at(pos)
                for tile, left_count in counts.items():
                    if not left_count:
                        continue
                    works, has_line, cross_exact, token, restrict = cross_check(cell, tile, cross)
                    if not works:
                        continue
                    limits = restricted if restrict is None else (*restricted, (len(tokens), restrict))
                    grown = (*tokens, token)
                    nxt = pos + 1
                    absorbed = False
                    exact = needs_exact or cross_exact
                    while at(nxt) in board:
                        grid_tile, grid_exact, grid_limit = grid_token(at(nxt), cross)
                        if grid_limit is not None:
                            limits = (*limits, (len(grown), grid_limit))
                        grown = (*grown, grid_tile)
                        exact = exact or grid_exact
                        absorbed = True
                        nxt += 1
                    if len(grown) >= 2 and not line_ok(grown):
                        continue
                    hooked = connected or absorbed or has_line
                    placed.append((cell, tile))
                    counts[tile] -= 1
                    if hooked and (direction == ACROSS or len(placed) > 1):
                        key = tuple(placed)  # the walk places in reading order: already sorted
                        if exact:
                            found[key] = True
                        elif not limits or len(grown) == 1 or restricted_ok(grown, limits):
                            found.setdefault(key, False)
                    if len(placed) < most:
                        extend(nxt, grown, placed, hooked, exact, limits)
                    counts[tile] += 1
                    placed.pop()

            for start in range(lo - most, hi + 2):
                cell = at(start)
                if cell in board:
                    continue
                prefix: list[tuple[str, bool, frozenset[str] | None]] = []
                back = start - 1
                while at(back) in board:
                    prefix.append(grid_token(at(back), cross))
                    back -= 1
                if not prefix:
                    first_hook = next((h for h in hooks if h >= start), None)
                    if first_hook is None:
                        continue
                    empties = sum(at(p) not in board for p in range(start, first_hook + 1))
                    if empties > most:
                        continue
                read = list(reversed(prefix))
                limits = tuple((i, allowed) for i, (_, _, allowed) in enumerate(read) if allowed is not None)
                tokens = tuple(token for token, _, _ in read)
                extend(start, tokens, [], bool(prefix), any(exact for _, exact, _ in read), limits)

    plays = []
    for key, needs_exact in found.items():
        if needs_exact:  # the walk settled the geometry and each line alone: only the joint question is left
            after = {**board, **dict(key)}
            if not solver.check(after, play_lines(after, [cell for cell, _ in key])).valid:
                continue
        plays.append(Play(key))
    plays.sort(key=lambda play: play.placements)
    return plays


def _first_plays(solver: LineSolver, hand: Sequence[str], max_tiles: int) -> list[Play]:
    """On an empty grid: every line of hand tiles through the centre, across or down."""
    plays = set()
    for size in range(1, min(len(hand), max_tiles) + 1):
        for tiles in set(itertools.permutations(hand, size)):
            if size > 1 and not solver.line_ok(tiles):
                continue
            for direction in (ACROSS, DOWN) if size > 1 else (ACROSS,):
                dr, dc = STEPS[direction]
                for shift in range(size):
                    cells = [(CENTRE[0] + (i - shift) * dr, CENTRE[1] + (i - shift) * dc) for i in range(size)]
                    plays.add(Play.of(zip(cells, tiles, strict=True)))
    return sorted(plays, key=lambda play: play.placements)


def every_placement(board: Mapping[Cell, str], hand: Sequence[str], most: int) -> Iterator[dict[Cell, str]]:
    """The brute-force references' candidates: every ordered choice of up to ``most`` hand tiles from
    every empty cell of a box around the board, across and down, stepping over grid tiles; each
    placement once (the first way it is met)."""
    top, bottom, left, right = bounds(board)
    reach = most + 1
    choices = {perm for k in range(1, most + 1) for perm in itertools.permutations(hand, k)}
    seen: set[Placements] = set()
    for dr, dc in (STEPS[ACROSS], STEPS[DOWN]):
        for r0 in range(top - reach, bottom + reach + 1):
            for c0 in range(left - reach, right + reach + 1):
                if (r0, c0) in board:
                    continue
                for tiles in choices:
                    placements: dict[Cell, str] = {}
                    r, c = r0, c0
                    for tile in tiles:
                        while (r, c) in board:
                            r, c = r + dr, c + dc
                        placements[(r, c)] = tile
                        r, c = r + dr, c + dc
                    key = tuple(sorted(placements.items()))
                    if key not in seen:
                        seen.add(key)
                        yield placements


def brute_force_plays(
    solver: LineSolver, board: Mapping[Cell, str], hand: Sequence[str], max_tiles: int = MAX_PLAY
) -> list[Play]:
    """The reference: every candidate placement (:func:`every_placement`) judged by ``check_play``."""
    if not hand:
        return []
    accepted = []
    for placements in every_placement(board, hand, min(len(hand), max_tiles)):
        try:
            check_play(solver, board, placements, max_tiles=max_tiles)
        except IllegalMoveError:
            continue
        accepted.append(Play.of(placements))
    return sorted(accepted, key=lambda play: play.placements)


def random_board(
    solver: LineSolver, box: Sequence[str], seed: int, size: int, hand_size: int = MAX_PLAY
) -> tuple[dict[Cell, str], list[str]]:
    """A seeded position for tests and benchmarks: one player plays a random legal play from a hand of
    ``hand_size`` each turn (passing, trading the whole hand, when there is none) until the grid holds
    ``size`` tiles or more. Returns the grid and the tiles not on it (the rest of the box, shuffled)."""
    rng = Rng(seed)
    pile = list(box)
    rng.shuffle(pile)
    hand, pile = pile[:hand_size], pile[hand_size:]
    board: dict[Cell, str] = {}
    stuck = 0
    while len(board) < size and stuck < 20:
        plays = generate_plays(solver, board, hand)
        if not plays:
            stuck += 1
            pile += hand
            hand, pile = pile[:hand_size], pile[hand_size:]
            continue
        stuck = 0
        chosen = plays[rng.below(len(plays))]
        board.update(chosen.placements)
        for tile in chosen.tiles():
            hand.remove(tile)
        drawn = hand_size - len(hand)
        hand, pile = hand + pile[:drawn], pile[drawn:]
    return board, hand + pile


def wild_position(
    solver: LineSolver, box: Sequence[str], seed: int, size: int, wilds: int
) -> tuple[dict[Cell, str], list[str], int]:
    """:func:`random_board` from ``seed``, or from seed + 100, + 200 ... until ``wilds`` wilds are left
    off the grid for a hand (random play puts wilds down eagerly). Returns the grid, the rest, the seed."""
    while True:
        board, rest = random_board(solver, box, seed, size)
        if sum(is_wild(t) for t in rest) >= wilds:
            return board, rest, seed
        seed += 100


def position_hand(rest: Sequence[str], wilds: int, size: int = MAX_PLAY) -> list[str]:
    """A hand of ``size`` from the tiles not on the grid, ``wilds`` of them wild (in the rest's order)."""
    wild = [t for t in rest if is_wild(t)][:wilds]
    return wild + [t for t in rest if not is_wild(t)][: size - len(wild)]


def single_swaps(
    solver: LineSolver, board: Mapping[Cell, str], hand: Sequence[str], lock_unswappable: bool = False
) -> list[Swap]:
    """Every one-step swap: a hand tile in place of a played wild where it works across and down
    (sequences of swaps are legal too, but not listed: any of them is these steps one after another).
    ``lock_unswappable`` (Q!nto): no swap into a wild's cell where no single tile works (see
    :func:`engine.linegames.rules.check_swaps`)."""
    swaps = []
    for cell in sorted(c for c, tile in board.items() if is_wild(tile)):
        if lock_unswappable and not solver.works_at(board, cell):
            continue
        trial = dict(board)
        for tile in sorted(set(hand)):
            if tile == board[cell]:
                continue
            trial[cell] = tile
            if solver.fits(trial, cell).valid:
                swaps.append(Swap(((cell, tile),)))
    return swaps


def can_act(solver: LineSolver, board: Mapping[Cell, str], tiles: Sequence[str]) -> bool:
    """Could a player holding ``tiles`` place one of them alone, or swap a plain one for a played wild?
    (Any play of several tiles has a tile touching the grid that could be placed alone: every unbroken
    part of a line is a line.) False for every player's tiles: nobody can do anything but pass, and
    passing only trades tiles with a pile, so the game is blocked (D!Git ruling 18, Q!nto ruling 18).

    Wilds are tried first and the search stops at the first tile that works: usually at once, and a
    full search only when the answer is no."""
    distinct = sorted(set(tiles), key=lambda tile: (not is_wild(tile), tile))
    if not distinct:
        return False
    if not board:
        return True  # the first play: any tile on the centre cell
    frontier = sorted({(r + dr, c + dc) for r, c in board for dr, dc in NEIGHBOURS} - board.keys())
    for tile in distinct:
        for cell in frontier:
            try:
                check_play(solver, board, {cell: tile})
            except IllegalMoveError:
                continue
            return True
    plain = [tile for tile in distinct if not is_wild(tile)]
    return bool(plain) and bool(single_swaps(solver, board, plain))

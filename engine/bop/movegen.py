"""Every legal play for a hand on a board, ranked by score; and the brute-force reference.

The fast generator walks each row and column from every possible start of a line, placing hand
tiles into empty cells and taking board tiles as it meets them, and prunes as soon as the letters
so far are no prefix of any skeleton (a line's start is fixed, so its letters must begin some
word's skeleton). Each empty cell's perpendicular line is checked once per cell ("cross-checks":
which consonants make it a word). A BOP! tile branches over the consonants it can stand for; every
play with a BOP! tile in one of its lines is then confirmed by the exact rule check
(``rules.check_words``), so the fast path may over-approximate but never decides alone.

The brute-force enumerator tries every ordered choice of hand tiles at every start in every row and
column, and keeps those the rules accept: no pruning, no shared structure. Tests and
``benchmarks/bop_movegen.py`` compare the two.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.base import ScoredMove
from engine.bop.board import (
    ACROSS,
    DOWN,
    NEIGHBOURS,
    Cell,
    bop_cells,
    bounds,
    line_letters,
    lines_through,
    play_lines,
)
from engine.bop.moves import Play
from engine.bop.rules import LineJudge, SkeletonJudge, check_words, score_play
from engine.bop.tiles import BOP, CONSONANTS, HAND_SIZE
from engine.errors import IllegalMoveError
from indexes import open_lexicon


@dataclass(frozen=True)
class MoveIndex:
    """The generator's in-process structures for one lexicon, built once per process (lazily)."""

    lexicon: str
    skeletons: frozenset[str]
    prefixes: frozenset[str]
    judge: SkeletonJudge


_INDEXES: dict[str, MoveIndex] = {}


def move_index(lexicon: str = "standard") -> MoveIndex:
    """Skeletons (upper case) and all their prefixes, from ``open_lexicon(lexicon).iter_skeletons()``."""
    index = _INDEXES.get(lexicon)
    if index is None:
        skeletons = frozenset(sk.upper() for sk in open_lexicon(lexicon).iter_skeletons())
        prefixes = frozenset(sk[:i] for sk in skeletons for i in range(1, len(sk) + 1))
        index = _INDEXES[lexicon] = MoveIndex(lexicon, skeletons, prefixes, SkeletonJudge(skeletons))
    return index


def bop_domains(board: Mapping[Cell, str], judge: LineJudge) -> dict[tuple[Cell, str], frozenset[str]]:
    """What each BOP! tile on the board can stand for when a play runs through it in a direction:
    what its line in the *other* direction (which that play cannot change) still allows."""
    domains = {}
    for cell in bop_cells(board):
        for direction in (ACROSS, DOWN):
            other = [line for line in lines_through(board, cell) if line.direction != direction]
            if not other:
                domains[(cell, direction)] = frozenset(CONSONANTS)
                continue
            holes = [c for c in other[0].cells if board[c] == BOP]
            fills = judge.fills([line_letters(board, other[0])])[0]
            domains[(cell, direction)] = frozenset(fill[holes.index(cell)] for fill in fills)
    return domains


def score_placements(board: Mapping[Cell, str], placements: dict[Cell, str]) -> ScoredMove[Play]:
    lines = play_lines(board, placements)
    breakdown = score_play({**board, **placements}, lines, placements.keys())
    return ScoredMove(Play.of(placements), breakdown.total, breakdown)


def rank(scored: list[ScoredMove[Play]]) -> list[ScoredMove[Play]]:
    """Best first; ties in a fixed order (by cells and tiles) so that every run agrees."""
    return sorted(scored, key=lambda s: (-s.points, s.move.placements))


def generate_plays(board: Mapping[Cell, str], hand: Sequence[str], index: MoveIndex) -> list[ScoredMove[Play]]:
    """Every legal play (all its lines words, each BOP! tile with one consonant working), ranked."""
    if not board or not hand:
        return []
    skeletons, prefixes, judge = index.skeletons, index.prefixes, index.judge
    domains = bop_domains(board, judge)
    counts = Counter(hand)
    hand_size = min(len(hand), HAND_SIZE)
    top, bottom, left, right = bounds(board)
    found: dict[tuple[tuple[Cell, str], ...], bool] = {}  # placements -> needs the exact check
    cross_cache: dict[tuple[Cell, str], frozenset[str] | None] = {}

    def cross_allowed(cell: Cell, cross: str) -> frozenset[str] | None:
        """Consonants that make the line across ``cell`` in direction ``cross`` a word (None: no line)."""
        key = (cell, cross)
        if key in cross_cache:
            return cross_cache[key]
        dr, dc = (1, 0) if cross == DOWN else (0, 1)
        before, after = [], []
        r, c = cell[0] - dr, cell[1] - dc
        while (r, c) in board:
            before.append(board[(r, c)][0])
            r, c = r - dr, c - dc
        r, c = cell[0] + dr, cell[1] + dc
        while (r, c) in board:
            after.append(board[(r, c)][0])
            r, c = r + dr, c + dc
        if not before and not after:
            allowed = None
        else:
            head, tail = "".join(reversed(before)), "".join(after)
            if BOP not in head and BOP not in tail:
                allowed = frozenset(letter for letter in CONSONANTS if head + letter + tail in skeletons)
            else:  # a BOP! tile in the cross line: any fill it can still take (confirmed exactly later)
                allowed = frozenset(letter for letter in CONSONANTS if judge.fills([head + letter + tail])[0])
        cross_cache[key] = allowed
        return allowed

    for direction in (ACROSS, DOWN):
        cross = DOWN if direction == ACROSS else ACROSS
        lines_range = range(top - 1, bottom + 2) if direction == ACROSS else range(left - 1, right + 2)
        lo, hi = (left, right) if direction == ACROSS else (top, bottom)

        for line in lines_range:

            def at(pos: int, line: int = line, direction: str = direction) -> Cell:
                return (line, pos) if direction == ACROSS else (pos, line)

            hooks = {
                pos
                for pos in range(lo - 1, hi + 2)
                if at(pos) in board or any((at(pos)[0] + dr, at(pos)[1] + dc) in board for dr, dc in NEIGHBOURS)
            }
            if not hooks:
                continue
            ordered_hooks = sorted(hooks)

            def extend(
                pos: int,
                prefix: str,
                placed: list[tuple[Cell, str]],
                connected: bool,
                bop: bool,
                cross: str = cross,
                hooks: set[int] = hooks,
                direction: str = direction,
            ) -> None:
                cell = at(pos)
                tile = board.get(cell)
                if tile is not None:  # a board tile continues the line
                    for letter in sorted(domains[(cell, direction)]) if tile == BOP else (tile[0],):
                        grown = prefix + letter
                        if grown in prefixes:
                            step(pos, grown, placed, True, bop or tile == BOP)
                    return
                if len(placed) >= hand_size:
                    return
                allowed = cross_allowed(cell, cross)
                hooked = connected or pos in hooks
                for hand_tile, left_count in counts.items():
                    if not left_count:
                        continue
                    letters = CONSONANTS if hand_tile == BOP else hand_tile[0]
                    for letter in letters:
                        if allowed is not None and letter not in allowed:
                            continue
                        grown = prefix + letter
                        if grown not in prefixes:
                            continue
                        counts[hand_tile] -= 1
                        placed.append((cell, hand_tile))
                        step(pos, grown, placed, hooked, bop or hand_tile == BOP)
                        placed.pop()
                        counts[hand_tile] += 1

            def step(pos: int, prefix: str, placed: list[tuple[Cell, str]], connected: bool, bop: bool) -> None:
                if at(pos + 1) in board:
                    extend(pos + 1, prefix, placed, connected, bop)
                    return
                if connected and placed and (len(prefix) == 1 or prefix in skeletons):
                    key = tuple(sorted(placed))
                    found[key] = found.get(key, False) or bop
                extend(pos + 1, prefix, placed, connected, bop)

            for start in range(lo - HAND_SIZE, hi + 2):
                if at(start - 1) in board:
                    continue
                first_hook = next((h for h in ordered_hooks if h >= start), None)
                if first_hook is None:
                    continue
                empties_needed = first_hook - start + (0 if at(first_hook) in board else 1)
                if empties_needed > hand_size:
                    continue
                extend(start, "", [], False, False)

    scored = []
    has_board_bop = bool(domains)
    for key, touched_bop in found.items():
        placements = dict(key)
        try:
            lines = play_lines(board, placements)
        except IllegalMoveError:
            continue
        after = {**board, **placements}
        in_lines = (touched_bop or has_board_bop) and any(after[c] == BOP for line in lines for c in line.cells)
        if in_lines and not check_words(after, lines, judge).valid:
            continue
        breakdown = score_play(after, lines, placements.keys())
        scored.append(ScoredMove(Play(key), breakdown.total, breakdown))
    return rank(scored)


def brute_force_plays(board: Mapping[Cell, str], hand: Sequence[str], judge: LineJudge) -> list[ScoredMove[Play]]:
    """The reference: every ordered choice of hand tiles from every start cell, judged by the rules."""
    if not board or not hand:
        return []
    top, bottom, left, right = bounds(board)
    reach = HAND_SIZE + 1
    choices = {perm for k in range(1, min(len(hand), HAND_SIZE) + 1) for perm in itertools.permutations(hand, k)}
    accepted: dict[tuple[tuple[Cell, str], ...], ScoredMove[Play]] = {}
    for dr, dc in ((0, 1), (1, 0)):
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
                    if key in accepted:
                        continue
                    try:
                        lines = play_lines(board, placements)
                    except IllegalMoveError:
                        continue
                    after = {**board, **placements}
                    if lines and check_words(after, lines, judge).valid:
                        breakdown = score_play(after, lines, placements.keys())
                        accepted[key] = ScoredMove(Play(key), breakdown.total, breakdown)
    return rank(list(accepted.values()))

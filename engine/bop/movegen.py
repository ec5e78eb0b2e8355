"""Every legal play for a hand on a board, ranked by score; and the brute-force reference.

The fast generator walks each row and column from every possible start of a line, placing hand
tiles into empty cells and taking board tiles as it meets them, and prunes as soon as the letters
so far are no prefix of any skeleton (a line's start is fixed, so its letters must begin some
word's skeleton). Each empty cell's perpendicular line is checked once per cell ("cross-checks":
which consonants make it a word). The walk carries every reading of the line so far, a BOP! tile
adding one per consonant it can stand for. Plays whose lines hold a grid BOP! tile are confirmed by
the exact rule check (``rules.check_words``), so the fast path may over-approximate there but never
decides alone.

The brute-force enumerator tries every ordered choice of hand tiles at every start in every row and
column, and keeps those the rules accept: no pruning, no shared structure. Tests and
``benchmarks/bop_movegen.py`` compare the two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
from engine.bop.options import BOP, CONSONANTS, HAND_SIZE
from engine.bop.rules import LineJudge, SkeletonJudge, check_words, score_play
from engine.errors import IllegalMoveError
from engine.linegames.movegen import every_placement
from engine.values import ScoredMove
from indexes.notation import skeleton

if TYPE_CHECKING:
    from engine.adjudicator import Adjudicator
    from indexes.house_rules import HouseRules


@dataclass(frozen=True)
class MoveIndex:
    """The generator's in-process structures for one lexicon, built once per process (lazily)."""

    lexicon: str
    skeletons: frozenset[str]
    #: every prefix of a skeleton ("" included) -> the consonants that can follow it, as one string
    children: dict[str, str]
    judge: SkeletonJudge


_INDEXES: dict[tuple[str, str | None], MoveIndex] = {}


def move_index(lexicon: str = "standard", rules: HouseRules | None = None) -> MoveIndex:
    """Skeletons (upper case) and a prefix map, from ``open_lexicon(lexicon).iter_skeletons()``; under
    house rules, with the skeletons of the words they allow, and without those whose every word they deny."""
    index = _INDEXES.get((lexicon, None if rules is None else rules.id))
    if index is None:
        from indexes.lexicon import open_lexicon  # here: importing the engine opens no lexicon

        lex = open_lexicon(lexicon)
        skeletons = {sk.upper() for sk in lex.iter_skeletons()}
        if rules is not None:
            denied = set(rules.deny)
            for word in rules.deny:
                sk = skeleton(word)
                if len(sk) >= 2 and all(w in denied for w in lex.skeleton_words(sk)):
                    skeletons.discard(sk.upper())
            skeletons.update(skeleton(word).upper() for word in rules.allow if len(skeleton(word)) >= 2)
        following: dict[str, set[str]] = {}
        for sk in skeletons:
            for i in range(len(sk)):
                following.setdefault(sk[:i], set()).add(sk[i])
        children = {prefix: "".join(sorted(letters)) for prefix, letters in following.items()}
        frozen = frozenset(skeletons)
        index = MoveIndex(lexicon, frozen, children, SkeletonJudge(frozen))
        _INDEXES[(lexicon, None if rules is None else rules.id)] = index
    return index


def judge_index(adjudicator: Adjudicator) -> MoveIndex:
    """The move index that agrees with an adjudicator: its lexicon's, under its house rules if it has any."""
    return move_index(adjudicator.lexicon, adjudicator.house_rules)


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


def rank(scored: list[ScoredMove[Play]]) -> list[ScoredMove[Play]]:
    """Best first; ties in a fixed order (by cells and tiles) so that every run agrees."""
    return sorted(scored, key=lambda s: (-s.points, s.move.placements))


def generate_plays(board: Mapping[Cell, str], hand: Sequence[str], index: MoveIndex) -> list[ScoredMove[Play]]:
    """Every legal play (all its lines words, each BOP! tile with one consonant working), ranked."""
    if not board or not hand:
        return []
    skeletons, children, judge = index.skeletons, index.children, index.judge
    domains = bop_domains(board, judge)
    counts = Counter(hand)
    hand_size = min(len(hand), HAND_SIZE)
    top, bottom, left, right = bounds(board)
    found: dict[tuple[tuple[Cell, str], ...], bool] = {}  # placements -> needs the exact check
    cross_cache: dict[tuple[Cell, str], frozenset[str] | None] = {}
    cross_has_bop: set[tuple[Cell, str]] = set()  # cells whose cross line holds a grid BOP! tile

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
                cross_has_bop.add(key)
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

            # The walk carries every reading of the line so far (a BOP! tile gives several), so each
            # choice of tiles is walked once however many consonants its BOP! tiles could stand for.
            def extend(
                pos: int,
                readings: list[str],
                placed: list[tuple[Cell, str]],
                connected: bool,
                grid_bop: bool,
                cross: str = cross,
                hooks: set[int] = hooks,
                direction: str = direction,
            ) -> None:
                cell = at(pos)
                tile = board.get(cell)
                if tile is not None:  # a grid tile continues the line
                    if tile == BOP:
                        domain = domains[(cell, direction)]
                        grown = [r + x for r in readings for x in children.get(r, "") if x in domain]
                        grid_bop = True
                    else:
                        letter = tile[0]
                        grown = [r + letter for r in readings if letter in children.get(r, "")]
                    if grown:
                        step(pos, grown, placed, True, grid_bop)
                    return
                allowed = cross_allowed(cell, cross)
                grid_bop = grid_bop or (cell, cross) in cross_has_bop
                hooked = connected or pos in hooks
                for hand_tile, left_count in counts.items():
                    if not left_count:
                        continue
                    if hand_tile == BOP:
                        grown = [
                            r + x for r in readings for x in children.get(r, "") if allowed is None or x in allowed
                        ]
                    else:
                        letter = hand_tile[0]
                        if allowed is not None and letter not in allowed:
                            continue
                        grown = [r + letter for r in readings if letter in children.get(r, "")]
                    if not grown:
                        continue
                    counts[hand_tile] -= 1
                    placed.append((cell, hand_tile))
                    step(pos, grown, placed, hooked, grid_bop)
                    placed.pop()
                    counts[hand_tile] += 1

            def step(
                pos: int, readings: list[str], placed: list[tuple[Cell, str]], connected: bool, grid_bop: bool
            ) -> None:
                if at(pos + 1) in board:
                    extend(pos + 1, readings, placed, connected, grid_bop)
                    return
                if connected and placed and (len(readings[0]) == 1 or any(r in skeletons for r in readings)):
                    key = tuple(sorted(placed))
                    found[key] = found.get(key, False) or grid_bop
                if len(placed) < hand_size:  # room to go on, with the readings that can
                    going_on = [r for r in readings if r in children]
                    if going_on:
                        extend(pos + 1, going_on, placed, connected, grid_bop)

            for start in range(lo - HAND_SIZE, hi + 2):
                if at(start - 1) in board:
                    continue
                first_hook = next((h for h in ordered_hooks if h >= start), None)
                if first_hook is None:
                    continue
                empties_needed = first_hook - start + (0 if at(first_hook) in board else 1)
                if empties_needed > hand_size:
                    continue
                extend(start, [""], [], False, False)

    # A hand BOP! tile gets one letter for both its lines in the walk above, so only plays whose lines
    # hold a grid BOP! tile (walked with a relaxed domain) need the exact check.
    scored = []
    for key, touches_grid_bop in found.items():
        placements = dict(key)
        try:
            lines = play_lines(board, placements)
        except IllegalMoveError:
            continue
        after = {**board, **placements}
        if touches_grid_bop and not check_words(after, lines, judge).valid:
            continue
        breakdown = score_play(after, lines, placements.keys())
        scored.append(ScoredMove(Play(key), breakdown.total, breakdown))
    return rank(scored)


def brute_force_plays(board: Mapping[Cell, str], hand: Sequence[str], judge: LineJudge) -> list[ScoredMove[Play]]:
    """The reference: every ordered choice of hand tiles from every start cell, judged by the rules."""
    if not board or not hand:
        return []
    accepted = []
    for placements in every_placement(board, hand, min(len(hand), HAND_SIZE)):
        try:
            lines = play_lines(board, placements)
        except IllegalMoveError:
            continue
        after = {**board, **placements}
        if lines and check_words(after, lines, judge).valid:
            breakdown = score_play(after, lines, placements.keys())
            accepted.append(ScoredMove(Play.of(placements), breakdown.total, breakdown))
    return rank(accepted)

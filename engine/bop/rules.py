"""BOP!'s rules as functions of a board: are the lines words (and what the BOP! tiles stand for),
and what does a play score. The state (``engine.bop.state``) only sequences turns.

Word questions go through a :class:`LineJudge`: :class:`AdjudicatorJudge` asks the game's
adjudicator (in-process or HTTP); the move generator uses :class:`SkeletonJudge` on its own
in-process skeleton set. Both answer "which consonants can the ``?`` tiles of this line stand
for?", so the BOP! logic is written once.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.adjudicator import Adjudicator
from engine.bop.board import Cell, Line, line_letters, lines_through
from engine.bop.options import BOP, CONSONANTS, HAND_SIZE, tile_colour
from engine.linegames.grid import square_words
from engine.values import Breakdown, ScoreItem
from indexes.notation import MAX_BOP_LETTERS, skeleton

#: "Add 5 points for each 5 lttr word completed, 6 ... 6, and 10 for 7 or longer."
WORD_BONUS = {5: 5, 6: 6}
LONG_WORD_BONUS = 10
ALL_TILES_BONUS = 10
FIVE_COLOURS = 5
FIVE_COLOUR_VALUE = 5
RUN_NAMES = {2: "double", 3: "triple", 4: "quadruple", 5: "quintuple", 6: "sextuple"}


# --- word questions -------------------------------------------------------------------------------
class LineJudge(Protocol):
    def fills(self, patterns: Sequence[str]) -> list[frozenset[str]]:
        """Per pattern (``"C?WB"``): every string of consonants its ``?`` tiles can stand for, in
        order, to make the pattern a word's skeleton. No ``?``: ``{""}`` if a word, else empty."""
        ...


class SkeletonJudge:
    """Answers from a set of upper-case skeletons (the move generator's in-process index)."""

    #: Answers kept per judge: the same lines come up again and again while generating moves.
    CACHE_SIZE = 1 << 16

    def __init__(self, skeletons: Collection[str]) -> None:
        self.skeletons = skeletons
        self._cache: dict[str, frozenset[str]] = {}

    def fills(self, patterns: Sequence[str]) -> list[frozenset[str]]:
        return [self._cached_fills(p) for p in patterns]

    def _cached_fills(self, pattern: str) -> frozenset[str]:
        found = self._cache.get(pattern)
        if found is None:
            if len(self._cache) >= self.CACHE_SIZE:
                self._cache.clear()
            found = self._cache[pattern] = self._fills(pattern)
        return found

    def _fills(self, pattern: str) -> frozenset[str]:
        holes = pattern.count(BOP)
        if not holes:
            return frozenset({""}) if pattern in self.skeletons else frozenset()
        parts = pattern.split(BOP)
        found = set()
        for letters in itertools.product(CONSONANTS, repeat=holes):
            candidate = parts[0] + "".join(letter + part for letter, part in zip(letters, parts[1:], strict=True))
            if candidate in self.skeletons:
                found.add("".join(letters))
        return frozenset(found)


class AdjudicatorJudge:
    """Asks an :class:`~engine.adjudicator.Adjudicator` (one ``bop_lines`` call per check)."""

    #: The service lists at most this many words per line and per query.
    LINE_LIMIT = 100
    QUERY_LIMIT = 1000

    def __init__(self, adjudicator: Adjudicator) -> None:
        self.adjudicator = adjudicator

    def fills(self, patterns: Sequence[str]) -> list[frozenset[str]]:
        # A line longer than any word (a bluff in challenge mode) is no word: no need to ask.
        asked = [p for p in patterns if len(p) <= MAX_BOP_LETTERS]
        answers = dict(zip(asked, self._ask(asked), strict=True)) if asked else {}
        return [answers.get(p, frozenset()) for p in patterns]

    def _ask(self, patterns: Sequence[str]) -> list[frozenset[str]]:
        results = self.adjudicator.bop_lines(list(patterns), limit=self.LINE_LIMIT)
        answers = []
        for pattern, result in zip(patterns, results, strict=True):
            if BOP not in pattern:
                answers.append(frozenset({""}) if result.valid else frozenset())
            elif result.count <= len(result.words):
                answers.append(_fills_from_words(pattern, result.words))
            else:
                answers.append(self._listed_fills(pattern))
        return answers

    def _listed_fills(self, pattern: str) -> frozenset[str]:
        result = self.adjudicator.bop(pattern, limit=self.QUERY_LIMIT)
        if result.count <= len(result.words):
            return _fills_from_words(pattern, result.words)
        # Too many words to list (two adjacent BOP! tiles): fix the first ? and ask again.
        at = pattern.index(BOP)
        found: set[str] = set()
        for letter in CONSONANTS:
            for rest in self._listed_fills(pattern[:at] + letter + pattern[at + 1 :]):
                found.add(letter + rest)
        return frozenset(found)


def _fills_from_words(pattern: str, words: Iterable[str]) -> frozenset[str]:
    holes = [i for i, ch in enumerate(pattern) if ch == BOP]
    found = set()
    for word in words:
        sk = skeleton(word).upper()
        if len(sk) == len(pattern):
            found.add("".join(sk[i] for i in holes))
    return frozenset(found)


# --- are the lines words? ---------------------------------------------------------------------------
@dataclass(frozen=True)
class WordCheck:
    """The verdict on a play's lines.

    ``bad_lines``: lines that are no word whatever the BOP! tiles stand for; ``assignment``: one
    consonant per BOP! tile making every line through it a word at once (None if there is none);
    ``working``: every consonant each BOP! tile can stand for in such an assignment; ``solutions``:
    every such assignment, in alphabetical order (``assignment`` is the first).
    """

    letters: Mapping[Line, str]
    bad_lines: tuple[Line, ...]
    assignment: Mapping[Cell, str] | None
    working: Mapping[Cell, frozenset[str]] = field(default_factory=dict)
    solutions: tuple[Mapping[Cell, str], ...] = ()

    @property
    def valid(self) -> bool:
        return not self.bad_lines and self.assignment is not None

    def problems(self) -> list[str]:
        if self.bad_lines:
            return [f"{self.letters[line]} ({line.direction}) is not a word" for line in self.bad_lines]
        if self.assignment is None:
            cells = "; ".join(square_words(c) for c in self.working)
            return [f"no single consonant works for the BOP! tile at {cells} in every line through it"]
        return []


def check_words(tiles: Mapping[Cell, str], lines: Sequence[Line], judge: LineJudge) -> WordCheck:
    """Are ``lines`` words on the board ``tiles``, with each BOP! tile standing for one consonant
    that makes *every* line through it a word (the lines it sits in that the play did not touch
    included)?"""
    constraint_lines = list(dict.fromkeys(lines))
    variables: list[Cell] = []
    queue = [cell for line in constraint_lines for cell in line.cells if tiles[cell] == BOP]
    while queue:  # every BOP! tile reachable through lines, and every line through it
        cell = queue.pop()
        if cell in variables:
            continue
        variables.append(cell)
        for line in lines_through(tiles, cell):
            if line not in constraint_lines:
                constraint_lines.append(line)
                queue.extend(c for c in line.cells if tiles[c] == BOP and c not in variables)
    variables.sort()
    letters = {line: line_letters(tiles, line) for line in constraint_lines}
    fills = dict(zip(constraint_lines, judge.fills([letters[line] for line in constraint_lines]), strict=True))
    bad = tuple(line for line in constraint_lines if not fills[line])
    if bad:
        return WordCheck(letters, bad, None, {cell: frozenset() for cell in variables})
    if not variables:
        return WordCheck(letters, (), {})
    holes = {line: [cell for cell in line.cells if tiles[cell] == BOP] for line in constraint_lines}
    domains = []
    for cell in variables:
        domain = set(CONSONANTS)
        for line in constraint_lines:
            if cell in holes[line]:
                at = holes[line].index(cell)
                domain &= {fill[at] for fill in fills[line]}
        domains.append(sorted(domain))
    solutions = []
    for choice in itertools.product(*domains):
        chosen = dict(zip(variables, choice, strict=True))
        if all("".join(chosen[c] for c in holes[line]) in fills[line] for line in constraint_lines if holes[line]):
            solutions.append(chosen)
    working = {cell: frozenset(s[cell] for s in solutions) for cell in variables}
    return WordCheck(letters, (), solutions[0] if solutions else None, working, tuple(solutions))


# --- scoring ----------------------------------------------------------------------------------------
def tile_values(colours: Sequence[str | None], played: Sequence[bool]) -> tuple[list[int], list[tuple[str, int, int]]]:
    """Each tile's worth in one line, and the bonuses that made it: ``(name, start, end)`` slices.

    Same-colour run of r >= 2 adjacent tiles, one of them played now: each is worth r.
    Five consecutive tiles of five different colours, one of them played now: each is worth 5.
    A tile that qualifies for both is worth 5 x r (RULINGS.md: "both letter bonuses"); a tile in
    several five-colour windows is worth 5 once. The BOP! tile has no colour, so it is in no run
    and no window.
    """
    n = len(colours)
    multiplier = [1] * n
    notes: list[tuple[str, int, int]] = []
    i = 0
    while i < n:
        j = i
        while j + 1 < n and colours[i] is not None and colours[j + 1] == colours[i]:
            j += 1
        r = j - i + 1
        if r >= 2 and any(played[i : j + 1]):
            for k in range(i, j + 1):
                multiplier[k] = r
            notes.append((f"{RUN_NAMES.get(r, f'{r}x')} letter bonus", i, j + 1))
        i = j + 1
    base = [1] * n
    for start in range(n - FIVE_COLOURS + 1):
        window = colours[start : start + FIVE_COLOURS]
        if None not in window and len(set(window)) == FIVE_COLOURS and any(played[start : start + FIVE_COLOURS]):
            for k in range(start, start + FIVE_COLOURS):
                base[k] = FIVE_COLOUR_VALUE
            notes.append(("5 different colours", start, start + FIVE_COLOURS))
    return [b * m for b, m in zip(base, multiplier, strict=True)], notes


def score_line(
    tiles: Mapping[Cell, str], line: Line, placed: Collection[Cell], readings: Mapping[Cell, str] | None = None
) -> ScoreItem:
    """A line's points, tile by tile. ``readings``: what the BOP! tiles stand for (``engine.bop.readings``);
    a line through them says so in its detail and carries its letters so read (``reading``: "CDM")."""
    letters = line_letters(tiles, line)
    colours = [tile_colour(tiles[cell]) for cell in line.cells]
    played = [cell in placed for cell in line.cells]
    values, notes = tile_values(colours, played)
    shown = " ".join(f"{letter}{value}" for letter, value in zip(letters, values, strict=True))
    spelled = [f"{name} {letters[start:end]}" for name, start, end in notes]
    wilds = [cell for cell in line.cells if tiles[cell] == BOP]
    reading = ""
    if wilds and readings and all(cell in readings for cell in wilds):
        reading = "".join(readings[cell] if tiles[cell] == BOP else tiles[cell][0] for cell in line.cells)
        spelled.insert(0, stood_for([readings[cell] for cell in wilds]))
    detail = shown + (f" ({'; '.join(spelled)})" if spelled else "")
    return ScoreItem("line", f"{line.direction} {letters}", sum(values), detail, tuple(values), reading)


def stood_for(consonants: Sequence[str]) -> str:
    """ "the BOP! tile as D", "the BOP! tiles as D and S": what a line's BOP! tiles stand for, in words."""
    if len(consonants) == 1:
        return f"the BOP! tile as {consonants[0]}"
    return f"the BOP! tiles as {', '.join(consonants[:-1])} and {consonants[-1]}"


def score_play(
    tiles: Mapping[Cell, str],
    lines: Sequence[Line],
    placed: Collection[Cell],
    readings: Mapping[Cell, str] | None = None,
) -> Breakdown:
    """The sheet's scoring: each created or extended line, factoring in letter bonuses; word
    bonuses per line of 5, 6, 7+ tiles; +10 for playing all 5 tiles. ``readings``: what the BOP!
    tiles stand for, recorded in the lines through them (not needed to score: they have no colour)."""
    items = [score_line(tiles, line, placed, readings) for line in lines]
    for line in lines:
        bonus = LONG_WORD_BONUS if len(line) >= 7 else WORD_BONUS.get(len(line), 0)
        if bonus:
            items.append(
                ScoreItem("word_bonus", f"{len(line)}-letter word", bonus, f"{line_letters(tiles, line)} completed")
            )
    if len(placed) == HAND_SIZE:
        items.append(ScoreItem("all_tiles_bonus", "all 5 tiles", ALL_TILES_BONUS, "played all 5 tiles"))
    return Breakdown(tuple(items))

"""Hints ("best plays now") and the after-turn report ("what you could have played"), with the
words each play makes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.adjudicator import Adjudicator
from engine.base import Breakdown, JsonDict
from engine.bop.board import Cell, line_letters, play_lines
from engine.bop.movegen import generate_plays, judge_index
from engine.bop.moves import Play
from engine.bop.options import BOP
from engine.bop.rules import AdjudicatorJudge, check_words

EXAMPLE_WORDS = 3


@dataclass(frozen=True)
class Hint:
    move: Play
    points: int
    breakdown: Breakdown
    #: each line the play makes: (its letters with the BOP! tiles filled in, a few example words)
    words: tuple[tuple[str, tuple[str, ...]], ...]

    def to_json(self) -> JsonDict:
        return {
            "move": self.move.to_text(),
            "points": self.points,
            "breakdown": self.breakdown.to_json(),
            "words": [{"letters": letters, "examples": list(examples)} for letters, examples in self.words],
        }

    def text(self) -> str:
        words = "; ".join(f"{letters}: {', '.join(examples)}" for letters, examples in self.words)
        return f"{self.move.to_text():<22} {self.points:>3}  {words}"


def play_words(
    board: Mapping[Cell, str], play: Play, adjudicator: Adjudicator
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each line of the play with what the BOP! tiles stand for, and example words for it."""
    placements = play.as_dict()
    after = {**board, **placements}
    lines = play_lines(board, placements)
    verdict = check_words(after, lines, AdjudicatorJudge(adjudicator))
    assignment = verdict.assignment or {}
    found = []
    for line in lines:
        letters = "".join(assignment.get(c, BOP) if after[c] == BOP else after[c][0] for c in line.cells)
        if len(letters) < 2:
            continue
        examples = adjudicator.bop(letters, limit=EXAMPLE_WORDS).words if BOP not in letters else []
        on_board = line_letters(after, line)
        shown = on_board if letters == on_board else f"{on_board}={letters}"
        found.append((shown, tuple(examples)))
    return tuple(found)


def best_plays(board: Mapping[Cell, str], hand: Sequence[str], adjudicator: Adjudicator, limit: int = 10) -> list[Hint]:
    """The ``limit`` best plays (0: all) for ``hand`` on ``board``, with their words."""
    ranked = generate_plays(board, hand, judge_index(adjudicator))
    chosen = ranked[:limit] if limit else ranked
    return [Hint(s.move, s.points, s.breakdown, play_words(board, s.move, adjudicator)) for s in chosen]

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
from engine.bop.readings import bop_readings
from engine.bop.rules import stood_for

EXAMPLE_WORDS = 3


@dataclass(frozen=True)
class LineWords:
    """A line a play makes: its letters as laid (``?`` a BOP! tile), what they read as with the BOP!
    tiles standing for their consonants (RULINGS.md 29; "" while no consonant works), example words."""

    letters: str
    reading: str
    examples: tuple[str, ...]

    def said(self) -> str:
        """The line in words: "CTM", "?BCHS, the BOP! tile as D"."""
        stood = [read for laid, read in zip(self.letters, self.reading, strict=True) if laid == BOP]
        return f"{self.letters}, {stood_for(stood)}" if stood else self.letters

    def to_json(self) -> JsonDict:
        return {"letters": self.letters, "reading": self.reading, "examples": list(self.examples)}


@dataclass(frozen=True)
class Hint:
    move: Play
    points: int
    breakdown: Breakdown
    #: each line the play makes, with a few example words
    words: tuple[LineWords, ...]

    def to_json(self) -> JsonDict:
        return {
            "move": self.move.to_text(),
            "points": self.points,
            "breakdown": self.breakdown.to_json(),
            "words": [line.to_json() for line in self.words],
        }

    def text(self) -> str:
        words = "; ".join(f"{line.said()}: {', '.join(line.examples)}" for line in self.words)
        return f"{self.move.to_text():<22} {self.points:>3}  {words}"


def play_words(board: Mapping[Cell, str], play: Play, adjudicator: Adjudicator) -> tuple[LineWords, ...]:
    """Each line of the play with what the BOP! tiles stand for, and example words for it."""
    placements = play.as_dict()
    after = {**board, **placements}
    lines = play_lines(board, placements)
    readings = bop_readings(after, adjudicator)
    found = []
    for line in lines:
        if len(line) < 2:
            continue
        letters = line_letters(after, line)
        reading = "".join(readings.get(c, BOP) if after[c] == BOP else after[c][0] for c in line.cells)
        if BOP in reading:
            found.append(LineWords(letters, "", ()))
        else:
            found.append(LineWords(letters, reading, tuple(adjudicator.bop(reading, limit=EXAMPLE_WORDS).words)))
    return tuple(found)


def best_plays(board: Mapping[Cell, str], hand: Sequence[str], adjudicator: Adjudicator, limit: int = 10) -> list[Hint]:
    """The ``limit`` best plays (0: all) for ``hand`` on ``board``, with their words."""
    ranked = generate_plays(board, hand, judge_index(adjudicator))
    chosen = ranked[:limit] if limit else ranked
    return [Hint(s.move, s.points, s.breakdown, play_words(board, s.move, adjudicator)) for s in chosen]

"""Hints ("best plays now") and the after-turn report ("what you could have played"), with the
words each play makes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.adjudicator import Adjudicator
from engine.bop.board import Cell, line_letters, play_lines
from engine.bop.movegen import generate_plays, judge_index
from engine.bop.moves import Play
from engine.bop.options import BOP
from engine.bop.readings import bop_readings
from engine.bop.rules import stood_for
from engine.values import JsonDict, ScoredMove

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
class Hint(ScoredMove[Play]):
    """A play ranked with its points and breakdown, and the words it makes."""

    #: each line the play makes, with a few example words
    words: tuple[LineWords, ...] = ()
    #: what each BOP! tile on the grid would stand for after the play (the view's ``stands_for``)
    stands: tuple[tuple[Cell, str], ...] = ()

    def to_json(self) -> JsonDict:
        return {
            "move": self.move.to_text(),
            "points": self.points,
            "breakdown": self.breakdown.to_json(),
            "words": [line.to_json() for line in self.words],
            "stands_for": [[r, c, letter] for (r, c), letter in self.stands],
        }

    def text(self) -> str:
        words = "; ".join(f"{line.said()}: {', '.join(line.examples)}" for line in self.words)
        return f"{self.move.to_text():<22} {self.points:>3}  {words}"


def play_words(board: Mapping[Cell, str], play: Play, adjudicator: Adjudicator) -> tuple[LineWords, ...]:
    """Each line of the play with what the BOP! tiles stand for, and example words for it."""
    return _play_words(board, play, adjudicator, bop_readings({**board, **play.as_dict()}, adjudicator))


def _play_words(
    board: Mapping[Cell, str], play: Play, adjudicator: Adjudicator, readings: Mapping[Cell, str]
) -> tuple[LineWords, ...]:
    placements = play.as_dict()
    after = {**board, **placements}
    lines = play_lines(board, placements)
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


def best_plays(
    board: Mapping[Cell, str], hand: Sequence[str], adjudicator: Adjudicator, limit: int = 10,
    ranked: Sequence[ScoredMove[Play]] | None = None,
) -> list[Hint]:  # fmt: skip
    """The ``limit`` best plays (0: all) for ``hand`` on ``board``, with their words; ``ranked``: the plays
    in the order wanted, when not the most points first (a review's, by equity)."""
    if ranked is None:
        ranked = generate_plays(board, hand, judge_index(adjudicator))
    chosen = ranked[:limit] if limit else ranked
    hints = []
    now = bop_readings(board, adjudicator)
    for scored in chosen:
        after = {**board, **scored.move.as_dict()}
        # A play that puts no line through a BOP! tile leaves what they stand for as it was.
        touched = any(after[cell] == BOP for line in play_lines(board, scored.move.as_dict()) for cell in line.cells)
        readings = bop_readings(after, adjudicator) if touched else now
        words = _play_words(board, scored.move, adjudicator, readings)
        hints.append(Hint(scored.move, scored.points, scored.breakdown, words, tuple(sorted(readings.items()))))
    return hints

"""What each BOP! tile on a grid is shown standing for (RULINGS.md 29).

A BOP! tile stands for one consonant, the same in every line through it, chosen afresh at each check
(ruling 10): often several consonants work (``?T``: not, but, get ...). The pages draw one on the
tile, and the score sheet names each line's words by it, so the engine picks one: the reading whose
words are the most familiar. Each line through the BOP! tiles is asked of the judge (its words come
most familiar first); a reading costs, per line, the place of the first word it makes there, and the
cheapest reading wins (ties: the alphabetically first, as ``check_words`` lists them).

>>> from engine.adjudicator import LocalAdjudicator
>>> bop_readings({(0, 0): "?", (0, 1): "Bk", (0, 2): "Cy", (0, 3): "Hr", (0, 4): "Sg"}, LocalAdjudicator())
{(0, 0): 'D'}
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.adjudicator import Adjudicator
from engine.bop.board import Cell, bop_cells, lines_through
from engine.bop.options import BOP
from engine.bop.rules import AdjudicatorJudge, WordCheck, check_words
from indexes.notation import skeleton

#: The words asked per line to rank its readings: a reading none of them makes ranks after them all.
RANKED_WORDS = 100


def bop_readings(tiles: Mapping[Cell, str], adjudicator: Adjudicator) -> dict[Cell, str]:
    """The consonant each BOP! tile on ``tiles`` is shown as. Left out: a BOP! tile in no line of two
    or more (it may stand for anything yet), or one no consonant works for (a bluff in challenge mode,
    awaiting its challenge)."""
    judge = AdjudicatorJudge(adjudicator)
    readings: dict[Cell, str] = {}
    done: set[Cell] = set()
    for cell in bop_cells(tiles):
        if cell in done:
            continue
        done.add(cell)
        lines = lines_through(tiles, cell)
        if not lines:
            continue
        # Every BOP! tile linked to this one through lines is decided with it (its ``working`` keys).
        verdict = check_words(tiles, lines, judge)
        done.update(verdict.working)
        if verdict.solutions:
            readings.update(most_familiar(tiles, verdict, adjudicator))
    return readings


def most_familiar(tiles: Mapping[Cell, str], verdict: WordCheck, adjudicator: Adjudicator) -> Mapping[Cell, str]:
    """Of the verdict's solutions, the one whose words come first in the judge's lists (see above)."""
    if len(verdict.solutions) == 1:
        return verdict.solutions[0]
    lines = [line for line in verdict.letters if any(tiles[cell] == BOP for cell in line.cells)]
    answers = adjudicator.bop_lines([verdict.letters[line] for line in lines], limit=RANKED_WORDS)
    places: list[tuple[list[Cell], dict[str, int]]] = []
    for line, answer in zip(lines, answers, strict=True):
        holes = [at for at, cell in enumerate(line.cells) if tiles[cell] == BOP]
        place: dict[str, int] = {}
        for rank, word in enumerate(answer.words):
            letters = skeleton(word).upper()
            if len(letters) == len(line.cells):
                place.setdefault("".join(letters[at] for at in holes), rank)
        places.append(([line.cells[at] for at in holes], place))

    def cost(solution: Mapping[Cell, str]) -> int:
        return sum(place.get("".join(solution[cell] for cell in cells), RANKED_WORDS) for cells, place in places)

    return min(verdict.solutions, key=cost)

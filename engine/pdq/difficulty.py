"""How hard a deal is: how many words it admits, and a band a table can read at a glance.

The bands were set from the answer counts of 10,400 deals of the default deck (standard rules,
four letters or more, standard lexicon): about 1.4% of deals have no answer, 10% fewer than 30,
a third fewer than 300 (``benchmarks/pdq_engine.py`` prints the figures for every variant).

>>> band(0), band(12), band(120), band(1200)
('none', 'hard', 'medium', 'easy')
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from engine.adjudicator import Adjudicator

#: (lowest answer count, band), in increasing order.
BANDS: tuple[tuple[int, str], ...] = ((0, "none"), (1, "hard"), (30, "medium"), (300, "easy"))


def band(count: int) -> str:
    """The band of a deal with ``count`` answers."""
    name = BANDS[0][1]
    for lowest, label in BANDS:
        if count >= lowest:
            name = label
    return name


@dataclass(frozen=True)
class Difficulty:
    letters: str
    word_rule: str
    min_length: int
    count: int
    band: str

    @property
    def solvable(self) -> bool:
        return self.count > 0

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def deal_difficulty(
    adjudicator: Adjudicator, letters: str, word_rule: str = "classic", min_length: int = 4
) -> Difficulty:
    """Ask the adjudicator how many words ``letters`` admit, and band the count."""
    result = adjudicator.pdq(letters, variant=word_rule, min_length=min_length, limit=1)
    return Difficulty(result.letters, word_rule, min_length, result.count, band(result.count))

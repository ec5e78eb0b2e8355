"""How hard a deal is: how many words it admits, and a band a table can read at a glance.

The bands were set from the answer counts of 10,400 deals of the default deck (standard rules,
four letters or more, standard lexicon): about 1.4% of deals have no answer, 10% fewer than 30,
a third fewer than 300 (``benchmarks/pdq_engine.py`` prints the figures for every variant).

>>> band(0), band(12), band(120), band(1200)
('none', 'hard', 'medium', 'easy')

:func:`deal_figures` adds the words a table would want to see afterwards (the commonest and the
longest), and :func:`deal_in_band` deals a row of a chosen band from the default deck, for any
client that runs its own table (``GET /v1/pdq/{letters}/difficulty``, ``GET /v1/pdq/deal``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from engine.adjudicator import Adjudicator
from engine.errors import ConfigError
from engine.pdq.deck import DEFAULT_DISTRIBUTION, build_deck, place
from engine.rng import Rng

#: (lowest answer count, band), in increasing order.
BANDS: tuple[tuple[int, str], ...] = ((0, "none"), (1, "hard"), (30, "medium"), (300, "easy"))
#: The bands a row can be dealt in: every band of a row with an answer.
SOLVABLE_BANDS: tuple[str, ...] = tuple(label for lowest, label in BANDS if lowest > 0)
#: How many shuffles :func:`deal_in_band` tries before it gives up on a band.
MAX_SHUFFLES = 400


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


@dataclass(frozen=True)
class DealFigures:
    """A row's difficulty and the words behind it: the commonest and the longest it admits."""

    letters: str
    word_rule: str
    min_length: int
    count: int
    band: str
    commonest: list[str]
    longest: list[str]

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def deal_figures(
    adjudicator: Adjudicator, letters: str, word_rule: str = "classic", min_length: int = 4, examples: int = 5
) -> DealFigures:
    """The count and band of :func:`deal_difficulty`, and the ``examples`` commonest and longest answers
    (what the round report shows after a round)."""
    common = adjudicator.pdq(letters, variant=word_rule, min_length=min_length, limit=examples)
    longest = adjudicator.pdq(letters, variant=word_rule, min_length=min_length, sort="longest", limit=examples)
    return DealFigures(
        common.letters, word_rule, min_length, common.count, band(common.count), common.words, longest.words
    )


@dataclass(frozen=True)
class DealtRow:
    """A row dealt in a band: its difficulty, the seed it came from and how many shuffles it took."""

    difficulty: Difficulty
    cards: int
    seed: int
    shuffles: int

    def to_json(self) -> dict[str, object]:
        return {**self.difficulty.to_json(), "cards": self.cards, "seed": self.seed, "shuffles": self.shuffles}


class NoDealInBand(ConfigError, code="no_deal_in_band", status=422):
    """No row of the band turned up in :data:`MAX_SHUFFLES` shuffles (a band these rules rarely deal,
    such as a hard row of two cards)."""


def deal_in_band(
    adjudicator: Adjudicator,
    wanted: str,
    seed: int,
    word_rule: str = "classic",
    cards: int = 3,
    min_length: int = 4,
    distribution: Mapping[str, int] = DEFAULT_DISTRIBUTION,
    shuffles: int = MAX_SHUFFLES,
) -> DealtRow:
    """A row of ``cards`` cards in band ``wanted``: the deck shuffled with ``seed`` and the top cards
    dealt as the sheet deals them (centre first), again and again until a row falls in the band.
    The same seed and rules always give the same row."""
    if wanted not in SOLVABLE_BANDS:
        raise ConfigError(f"a row is dealt in one of the bands {', '.join(SOLVABLE_BANDS)}, not {wanted!r}")
    if not 2 <= cards <= 4:
        raise ConfigError(f"a PDQ row is 2 to 4 cards, not {cards}")
    rng = Rng(seed)
    deck = build_deck(distribution)
    seen: dict[str, Difficulty] = {}  # rows of two cards come round again and again
    for shuffle in range(1, shuffles + 1):
        rng.shuffle(deck)
        row = place(deck[:cards])
        difficulty = seen.get(row) or seen.setdefault(row, deal_difficulty(adjudicator, row, word_rule, min_length))
        if difficulty.band == wanted:
            return DealtRow(difficulty, cards, seed, shuffle)
    raise NoDealInBand(
        f"no {cards}-card row in the {wanted} band turned up in {shuffles} shuffles of seed {seed} "
        f"({word_rule}, {min_length}+ letters): these rules rarely deal one; try another band"
    )

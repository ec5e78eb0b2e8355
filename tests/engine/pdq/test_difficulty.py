"""Deal difficulty: the bands, and rows dealt in the band asked for, checked against the adjudicator's answers."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError
from engine.pdq.deck import DEFAULT_DISTRIBUTION, build_deck, place
from engine.pdq.difficulty import (
    BANDS,
    SOLVABLE_BANDS,
    NoDealInBand,
    band,
    deal_difficulty,
    deal_figures,
    deal_in_band,
)
from engine.rng import Rng


@pytest.mark.parametrize(("count", "expected"), [(0, "none"), (1, "hard"), (29, "hard"), (30, "medium"),
                                                 (299, "medium"), (300, "easy"), (10**6, "easy")])  # fmt: skip
def test_difficulty_bands(count: int, expected: str) -> None:
    assert band(count) == expected
    assert [b for _, b in BANDS] == ["none", "hard", "medium", "easy"]


def test_deal_difficulty_asks_the_adjudicator(adjudicator) -> None:
    for letters, rule in [("PNA", "classic"), ("QZX", "classic"), ("TGN", "anywhere"), ("ST", "start-end")]:
        difficulty = deal_difficulty(adjudicator, letters, rule, 4)
        assert difficulty.count == adjudicator.pdq(letters, variant=rule, limit=1).count
        assert difficulty.solvable == (difficulty.count > 0) and difficulty.band == band(difficulty.count)
    assert deal_difficulty(adjudicator, "QZX").to_json()["band"] == "none"


def test_a_games_difficulty_uses_its_word_rule_and_lowest_minimum(adjudicator) -> None:
    from engine.pdq.game import PdqGame

    game = PdqGame({"variant": "stuck-in-the-middle", "players": 2, "min_lengths": [7, 5]}, adjudicator)
    difficulty = game.difficulty("TGN")
    assert (difficulty.word_rule, difficulty.min_length) == ("anywhere", 5)
    assert difficulty.count == adjudicator.pdq("TGN", variant="anywhere", min_length=5, limit=1).count
    assert game.difficulty("TGN", players=[0]).min_length == 7


# --- a deal's figures and a deal of a chosen band (GET /v1/pdq/{letters}/difficulty, /v1/pdq/deal) ------------
def test_deal_figures_are_the_reports_figures(adjudicator) -> None:
    figures = deal_figures(adjudicator, "pna", "classic", 4, examples=3)
    common = adjudicator.pdq("PNA", limit=3)
    longest = adjudicator.pdq("PNA", sort="longest", limit=3)
    assert (figures.letters, figures.count, figures.band) == ("PNA", common.count, band(common.count))
    assert figures.commonest == common.words and figures.longest == longest.words
    assert deal_difficulty(adjudicator, "PNA").count == figures.count
    none = deal_figures(adjudicator, "QZX")
    assert (none.count, none.band, none.commonest, none.longest) == (0, "none", [], [])


@pytest.mark.parametrize("wanted", SOLVABLE_BANDS)
@pytest.mark.parametrize(("rule", "cards"), [("classic", 3), ("left-to-right", 3), ("anywhere", 4)])
def test_a_row_is_dealt_in_the_band_asked_for(adjudicator, wanted: str, rule: str, cards: int) -> None:
    dealt = deal_in_band(adjudicator, wanted, seed=11, word_rule=rule, cards=cards)
    assert dealt.difficulty.band == wanted and len(dealt.difficulty.letters) == cards
    assert dealt.difficulty.count == adjudicator.pdq(dealt.difficulty.letters, variant=rule, limit=1).count > 0
    assert deal_in_band(adjudicator, wanted, seed=11, word_rule=rule, cards=cards) == dealt  # the seed rules


def test_a_row_is_dealt_from_the_deck_as_the_sheet_deals(adjudicator) -> None:
    """The first shuffle that falls in the band is the row: the deck's top cards, centre first."""
    dealt = deal_in_band(adjudicator, "easy", seed=5)
    rng, deck = Rng(5), build_deck(DEFAULT_DISTRIBUTION)
    for _ in range(dealt.shuffles):
        rng.shuffle(deck)
    assert dealt.difficulty.letters == place(deck[:3])


def test_no_row_in_a_band_is_a_clear_refusal(adjudicator) -> None:
    with pytest.raises(NoDealInBand, match="no 2-card row in the hard band turned up in 3 shuffles"):
        deal_in_band(adjudicator, "hard", seed=1, cards=2, shuffles=3)
    with pytest.raises(ConfigError, match="one of the bands hard, medium, easy"):
        deal_in_band(adjudicator, "none", seed=1)
    with pytest.raises(ConfigError, match="2 to 4 cards"):
        deal_in_band(adjudicator, "easy", seed=1, cards=5)

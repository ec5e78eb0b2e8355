"""The round report (text and JSON) and deal difficulty, checked against the adjudicator's answers."""

from __future__ import annotations

import json

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
from engine.pdq.moves import Claim, Close, NoWord
from engine.pdq.report import reason_text, round_report
from engine.rng import Rng
from engine.values import REFEREE

from .conftest import reason, refusal


def test_the_report_lists_the_words_there_were_and_the_claims(stack, adjudicator) -> None:
    state = stack(["PNA", "DRU"], players=2)
    assert reason(state, 1, Claim("painter", 900)) == "out_of_order"  # refused: not a claim of the round
    state.act(1, NoWord(950))
    state.act(0, Claim("pendant", 1000))
    record = state.act(REFEREE, Close(1300)).finished
    report = round_report(state.game, record)
    common = adjudicator.pdq("PNA", limit=5)
    longest = adjudicator.pdq("PNA", sort="longest", limit=5)
    assert report.count == common.count and report.most_familiar == common.words and report.longest == longest.words
    assert report.band == band(common.count)
    data = report.to_json()
    assert json.loads(json.dumps(data)) == data
    assert [(c["player"], c["word"], c["valid"], c["reason"], c["why"]) for c in data["claims"]] == [
        (0, "pendant", True, None, "valid"),
    ]
    assert data["votes"] == [1] and data["winner"] == 0 and data["taken"] == "PNA" and data["word_existed"]
    text = report.text(["Ann", "Bob"])
    for expected in ("Round 1: P N A", "PENDANT", "@  1000 ms  ok", "no-word votes: Bob", "Ann took PNA",
                     common.words[0], longest.words[0]):  # fmt: skip
        assert expected in text
    assert "PAINTER" not in text and "refused" not in text  # the refused word was told at once:
    assert reason_text("out_of_order", state.options.word_rule) == "letters not in order"


@pytest.mark.parametrize(
    ("variant", "word", "why"),
    [
        ("standard", "catnip", "does not start with an outside letter"),
        ("solo", "antelope", "does not start with the first letter"),  # left to right only: A is not first
        ("any-which-way", "snap", "does not start with one of the letters"),
    ],
)
def test_a_wrong_start_is_told_by_the_word_rule(stack, variant: str, word: str, why: str) -> None:
    players = {} if variant == "solo" else {"players": 2}
    state = stack(["PNA", "DRU"], variant=variant, **players)
    error = refusal(state, 0, Claim(word, 100))
    assert (error.rule, error.details["reason"]) == ("not_a_word", "wrong_start")
    assert reason_text(error.details["reason"], state.options.word_rule) == why  # what the player is told
    assert reason_text("wrong_start") == "does not start with an outside letter"  # the classic rule's words


def test_a_no_word_report_says_whether_a_word_existed(stack) -> None:
    state = stack(["QZX", "PNA", "DRU"], players=2)
    state.act(0, NoWord(1))
    empty = round_report(state.game, state.act(1, NoWord(2)).finished)
    assert not empty.word_existed and empty.count == 0 and "there really was no word" in empty.text()
    state.act(0, NoWord(1))
    full = round_report(state.game, state.act(1, NoWord(2)).finished)
    assert full.word_existed and "a word existed" in full.text() and full.most_familiar


def test_the_solo_report_says_where_the_player_got_stuck(stack) -> None:
    state = stack(["PNA", "DRU"], variant="solo")
    report = round_report(state.game, state.act(0, NoWord(9000)).finished)
    assert report.stumped and report.to_json()["stumped"] and "stumped: PNA set aside (a word existed)" in report.text()


def test_ruling_19_report_counts_per_player_when_minimums_differ(stack, adjudicator) -> None:
    state = stack(["DRU", "PNA"], players=2, min_lengths=[6, 3])
    state.act(1, Claim("drum", 10))
    report = round_report(state.game, state.act(REFEREE, Close(310)).finished)
    assert report.min_length == 3
    assert report.count_by_player == {
        0: adjudicator.pdq("DRU", min_length=6, limit=1).count,
        1: adjudicator.pdq("DRU", min_length=3, limit=1).count,
    }


def test_the_word_count_report_shows_each_list_and_its_unique_words(stack) -> None:
    state = stack(["PNA", "DRU"], players=2, variant="word-count")
    state.act(0, Claim("pendant", 100))
    state.act(0, Claim("pinball", 200))
    state.act(1, Claim("pendant", 300))
    report = round_report(state.game, state.act(REFEREE, Close(60_000)).finished)
    assert report.lists == {0: {"valid": ["pendant", "pinball"], "unique": ["pinball"]},
                            1: {"valid": ["pendant"], "unique": []}}  # fmt: skip


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

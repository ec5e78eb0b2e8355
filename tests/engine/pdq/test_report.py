"""The round report (text and JSON), checked against the adjudicator's answers."""

from __future__ import annotations

import json

import pytest

from engine.pdq.difficulty import (
    band,
)
from engine.pdq.moves import Claim, Close, NoWord
from engine.pdq.report import reason_text, round_report
from engine.values import REFEREE
from tests.engine.rulings import refused_move

from .conftest import reason


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
    error = refused_move(state, 0, Claim(word, 100))
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

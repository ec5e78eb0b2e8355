"""PDL (Pretty Darn Long): the longest word wins, back and forth, and the suffix rule."""

from __future__ import annotations

import pytest

from engine.errors import WrongPlayerError
from engine.pdq.moves import Claim, Close, NoWord
from engine.pdq.pdl import extends_said_word, suffix_of
from engine.values import REFEREE
from tests.engine.rulings import refused_move

from .conftest import reason


@pytest.mark.parametrize(
    ("word", "base", "how"),
    [
        ("pineapples", "pineapple", "plural"),
        ("pendants", "pendant", "plural"),
        ("peninsulas", "peninsula", "plural"),
        ("boxes", "box", "plural"),
        ("parties", "party", "plural"),
        ("knives", "knife", "plural"),
        ("presidentially", "presidential", "-ly"),
        ("happily", "happy", "-ly"),
        ("gently", "gentle", "-ly"),
        ("tragically", "tragic", "-ly"),
        ("painted", "paint", "-ed"),
        ("baked", "bake", "-ed"),
        ("stopped", "stop", "-ed"),
        ("carried", "carry", "-ed"),
        ("painting", "paint", "-ing"),
        ("making", "make", "-ing"),
        ("stopping", "stop", "-ing"),
        ("dying", "die", "-ing"),
    ],
)
def test_ruling_17_suffix_forms_with_spelling_changes(word: str, base: str, how: str) -> None:
    assert suffix_of(word, base) == how


@pytest.mark.parametrize(
    ("word", "base"),
    [("pendant", "pend"), ("penguins", "pendant"), ("paintbrush", "paint"), ("pineapple", "pineapples"),
     ("antelope", "ant"), ("painter", "paint"), ("markedly", "mark")],
)  # fmt: skip
def test_other_longer_words_are_not_mere_suffixes(word: str, base: str) -> None:
    assert suffix_of(word, base) is None
    assert extends_said_word(word, [base]) is None


def test_ruling_16_pdl_back_and_forth_until_nobody_beats_the_standing_word(stack) -> None:
    state = stack(["PNA", "DRU"], players=3, variant="pdl")
    state.act(0, Claim("pendant", 1000))
    assert state.acting_players() == [1, 2]  # the holder of the standing word waits
    assert reason(state, 1, Claim("pinball", 2000)) == "not_longer"  # equal length does not beat
    state.act(1, Claim("pancreas", 3000))
    state.act(2, NoWord(4000))
    state.act(0, Claim("peninsula", 5000))  # a new standing word: votes start over
    assert state.round.votes == [] and [c.word for c in state.round.claims] == ["pendant", "pancreas", "peninsula"]
    assert reason(state, 2, Claim("pendants", 6000)) == "not_longer"
    state.act(1, NoWord(7000))
    record = state.act(2, NoWord(8000)).finished
    assert record is not None and record.winner == 0 and record.word == "peninsula"
    assert state.collected == ["PNA", "", ""]


def test_pdl_suffix_rule_a_plural_or_ly_ed_ing_cannot_beat_a_word_said(stack) -> None:
    state = stack(["PNA", "DRU"], players=2, variant="pdl")
    state.act(0, Claim("pineapple", 1000))
    error = refused_move(state, 1, Claim("pineapples", 2000))
    assert error.rule == "extends_said_word" and "PINEAPPLE" in str(error)
    state = stack(["PNA", "DRU"], players=2, variant="pdl")
    state.act(0, Claim("personal", 1000))
    assert reason(state, 1, Claim("personally", 2000)) == "extends_said_word"  # -LY
    state.act(1, Claim("phenomenally", 3000))
    assert state.round.valid_claims()[-1].word == "phenomenally"
    assert reason(state, 0, Claim("planetariums", 4000)) == "not_longer"
    assert reason(state, 0, Claim("presidentially", 5000)) == "not_in_lexicon"  # the lexicon first


def test_ruling_17_pdl_suffix_rule_covers_every_word_said(stack) -> None:
    state = stack(["DRU", "PNA"], players=2, variant="pdl")
    state.act(0, Claim("drum", 1000))
    state.act(1, Claim("dreadful", 2000))
    state.act(0, Claim("understand", 3000))
    assert reason(state, 1, Claim("understanding", 4000)) == "extends_said_word"
    assert reason(state, 1, Claim("dreadfully", 5000)) == "not_longer"
    # A word said earlier, no longer the standing word, still cannot be beaten by its extension:
    # DANGEROUSLY (11) would beat UNDERSTAND (10), but DANGEROUS was said before it.
    state = stack(["DRU", "PNA"], players=2, variant="pdl")
    state.act(0, Claim("dangerous", 1000))
    state.act(1, Claim("understand", 2000))
    error = refused_move(state, 0, Claim("dangerously", 3000))
    assert (error.rule, error.details["reason"]) == ("extends_said_word", "extends_said_word")
    assert "DANGEROUS + -LY" in str(error)
    # A refused word was never "said": its extension may still beat the standing word.
    state = stack(["DRU", "PNA"], players=2, variant="pdl")
    state.act(0, Claim("dreadful", 1000))
    assert reason(state, 1, Claim("drunkard", 2000)) == "not_longer"
    state.act(1, Claim("drunkards", 3000))
    assert [c.word for c in state.round.claims] == ["dreadful", "drunkards"]


def test_ruling_16_pdl_rounds_have_no_clock_and_nobody_saying_a_word_is_no_word(stack) -> None:
    state = stack(["PNA", "DRU"], players=2, variant="pdl")
    assert state.scheduled() is None and state.deadline_ms is None
    before = state.to_json()
    with pytest.raises(WrongPlayerError):  # no clock runs: the referee never acts in PDL
        state.act(REFEREE, Close(10_000))
    assert state.to_json() == before
    state.act(0, Claim("pendant", 500))
    assert state.scheduled() is None  # not even once a word is said
    state = stack(["PNA", "DRU"], players=2, variant="pdl")
    state.act(0, NoWord(1000))
    record = state.act(1, NoWord(2000)).finished
    assert record.outcome == "no_word" and state.set_aside == "PNA"

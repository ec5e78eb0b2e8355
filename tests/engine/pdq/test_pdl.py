"""PDL (Pretty Darn Long): the longest word wins, back and forth, and the suffix rule."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMoveError
from engine.pdq.actions import Claim, Close, NoWord
from engine.pdq.pdl import extends_said_word, suffix_of


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
    assert state.apply(Claim("pendant", 1000), player=0).accepted
    assert state.apply(Claim("pinball", 2000), player=1).reason == "not_longer"  # equal length does not beat
    assert state.apply(Claim("pancreas", 3000), player=1).accepted
    state.apply(NoWord(4000), player=2)
    assert state.apply(Claim("peninsula", 5000), player=0).accepted  # a new standing word: votes start over
    assert state.round.votes == []
    assert state.apply(Claim("pendants", 6000), player=2).reason == "not_longer"
    state.apply(NoWord(7000), player=1)
    record = state.apply(NoWord(8000), player=2).finished
    assert record is not None and record.winner == 0 and record.word == "peninsula"
    assert state.collected == ["PNA", "", ""]


def test_pdl_suffix_rule_a_plural_or_ly_ed_ing_cannot_beat_a_word_said(stack) -> None:
    state = stack(["PNA", "DRU"], players=2, variant="pdl")
    state.apply(Claim("pineapple", 1000), player=0)
    verdict = state.apply(Claim("pineapples", 2000), player=1)
    assert not verdict.accepted and verdict.reason == "extends_said_word"
    assert "PINEAPPLE" in verdict.explanation
    state = stack(["PNA", "DRU"], players=2, variant="pdl")
    assert state.apply(Claim("personal", 1000), player=0).accepted
    assert state.apply(Claim("personally", 2000), player=1).reason == "extends_said_word"  # -LY
    assert state.apply(Claim("phenomenally", 3000), player=1).accepted
    assert state.apply(Claim("planetariums", 4000), player=0).reason == "not_longer"
    assert state.apply(Claim("presidentially", 5000), player=0).reason == "not_in_lexicon"  # the lexicon first


def test_ruling_17_pdl_suffix_rule_covers_every_word_said(stack) -> None:
    state = stack(["DRU", "PNA"], players=2, variant="pdl")
    state.apply(Claim("drum", 1000), player=0)
    state.apply(Claim("dreadful", 2000), player=1)
    state.apply(Claim("understand", 3000), player=0)
    assert state.apply(Claim("understanding", 4000), player=1).reason == "extends_said_word"
    assert state.apply(Claim("dreadfully", 5000), player=1).reason == "not_longer"
    # A word said earlier, no longer the standing word, still cannot be beaten by its extension:
    # DANGEROUSLY (11) would beat UNDERSTAND (10), but DANGEROUS was said before it.
    state = stack(["DRU", "PNA"], players=2, variant="pdl")
    state.apply(Claim("dangerous", 1000), player=0)
    state.apply(Claim("understand", 2000), player=1)
    verdict = state.apply(Claim("dangerously", 3000), player=0)
    assert (verdict.accepted, verdict.reason) == (False, "extends_said_word")
    assert "DANGEROUS + -LY" in verdict.explanation


def test_ruling_16_pdl_rounds_have_no_clock_and_nobody_saying_a_word_is_no_word(stack) -> None:
    state = stack(["PNA", "DRU"], players=2, variant="pdl")
    with pytest.raises(IllegalMoveError) as error:
        state.apply(Close(10_000))
    assert error.value.rule == "no_clock"
    state.apply(NoWord(1000), player=0)
    record = state.apply(NoWord(2000), player=1).finished
    assert record.outcome == "no_word" and state.set_aside == "PNA"

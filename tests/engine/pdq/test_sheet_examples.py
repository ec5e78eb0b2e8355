"""The sheet's examples of valid and invalid words, claimed in the engine (not just the lexicon)."""

from __future__ import annotations

import pytest

from engine.pdq.moves import Claim
from engine.pdq.records import ClaimRecord
from tests.sheet_examples import pdq_invalid_cases, pdq_valid_cases

from .conftest import reason as reason_for

WORD_RULE_VARIANT = {"classic": "standard", "anywhere": "stuck-in-the-middle"}


@pytest.mark.parametrize(("letters", "rule", "word"), pdq_valid_cases())
def test_the_sheets_valid_words_win_the_round(stack, letters: str, rule: str, word: str) -> None:
    state = stack([letters], players=2, variant=WORD_RULE_VARIANT[rule])
    verdict = state.act(1, Claim(word, 1500))
    assert verdict.finished is None and state.round.claims == [ClaimRecord(1, word, 1500, True)]
    verdict = state.act(0, Claim(word, 1500))  # the same word, the same millisecond
    assert verdict.finished is not None and verdict.finished.outcome == "tie"  # equal length, same time


@pytest.mark.parametrize(("letters", "rule", "word", "why"), pdq_invalid_cases())
def test_the_sheets_invalid_words_are_refused_with_the_sheets_reason(
    stack, letters: str, rule: str, word: str, why: str
) -> None:
    state = stack([letters], players=2)
    assert reason_for(state, 0, Claim(word, 700)) == why  # refused, and not recorded: nothing changed


def test_the_x_rule_lets_an_outside_x_be_played_as_ex(stack) -> None:
    state = stack(["XCN"], players=1)
    verdict = state.act(0, Claim("excellent", 500))
    assert verdict.finished is not None and verdict.finished.winner == 0 and verdict.finished.word == "excellent"


def test_stuck_in_the_middle_words_are_refused_in_the_main_game(stack) -> None:
    state = stack(["TGN"], players=2)
    assert reason_for(state, 0, Claim("octagon", 500)) == "wrong_start"

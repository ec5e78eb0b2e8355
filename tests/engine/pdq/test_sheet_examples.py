"""The sheet's examples of valid and invalid words, claimed in the engine (not just the lexicon)."""

from __future__ import annotations

import pytest

from engine.pdq.actions import Claim
from tests.sheet_examples import pdq_invalid_cases, pdq_valid_cases

WORD_RULE_VARIANT = {"classic": "standard", "anywhere": "stuck-in-the-middle"}


@pytest.mark.parametrize(("letters", "rule", "word"), pdq_valid_cases())
def test_the_sheets_valid_words_win_the_round(stack, letters: str, rule: str, word: str) -> None:
    state = stack([letters], players=2, variant=WORD_RULE_VARIANT[rule])
    verdict = state.act(1, Claim(word, 1500))
    assert verdict.accepted, verdict.explanation
    verdict = state.act(0, Claim(word, 1500))  # the same word, the same millisecond
    assert verdict.finished is not None and verdict.finished.outcome == "tie"  # equal length, same time


@pytest.mark.parametrize(("letters", "rule", "word", "reason"), pdq_invalid_cases())
def test_the_sheets_invalid_words_are_refused_with_the_sheets_reason(
    stack, letters: str, rule: str, word: str, reason: str
) -> None:
    state = stack([letters], players=2)
    verdict = state.act(0, Claim(word, 700))
    assert not verdict.accepted and verdict.reason == reason
    assert state.round is not None and state.round.claims[-1].reason == reason


def test_the_x_rule_lets_an_outside_x_be_played_as_ex(stack) -> None:
    state = stack(["XCN"], players=1)
    verdict = state.act(0, Claim("excellent", 500))
    assert verdict.accepted and verdict.finished is not None and verdict.finished.winner == 0


def test_stuck_in_the_middle_words_are_refused_in_the_main_game(stack) -> None:
    state = stack(["TGN"], players=2)
    assert state.act(0, Claim("octagon", 500)).reason == "wrong_start"

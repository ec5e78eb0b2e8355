"""Moves: the notation's round trip, a readable repr, and every bad text or value a NotationError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.pdq.moves import MAX_TIME_MS, Claim, Close, NoWord, parse_move

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=20)
times = st.integers(min_value=0, max_value=MAX_TIME_MS)
moves = st.one_of(st.builds(Claim, words, times), st.builds(NoWord, times), st.builds(Close, times))


@given(moves)
def test_move_notation_round_trips(move: Claim | NoWord | Close) -> None:
    assert parse_move(move.to_text()) == move
    assert parse_move(f"  {move.to_text().upper()} ") == move
    assert hash(move) == hash(parse_move(str(move)))


def test_moves_read_well() -> None:
    assert repr(Claim("Pineapple", 1200)) == "Claim(word='pineapple', at_ms=1200)"
    assert str(NoWord(7)) == "noword @7"


@pytest.mark.parametrize(
    "text", ["", "claim @100", "claim pine apple @100", "claim p1n3 @100", "claim word 100", "noword", "close @-5",
             "shout pineapple @1", "claim pineapple @1234567890"],
)  # fmt: skip
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


def test_bad_move_values_are_notation_errors() -> None:
    for make in (lambda: Claim("", 1), lambda: Claim("café", 1), lambda: Claim("word", -1), lambda: NoWord(1.5)):
        with pytest.raises(NotationError):
            make()

"""Qwiply moves and their notation: every form, its canonical text, and every notation error."""

from __future__ import annotations

import pytest

from engine.errors import NotationError
from engine.qwiply.moves import PENALTY, Claim, Lead, Roll, Setup, parse_move
from engine.qwiply.sheet import ALL_SUITS, Suit
from engine.values import Move


@pytest.mark.parametrize(
    ("text", "move", "canonical"),
    [
        ("setup x=3,5,1,6,2 bid=3,2,4,3,3", Setup((3, 5, 1, 6, 2), (3, 2, 4, 3, 3)), None),
        ("SETUP bid=0,0,11,0,6 X=1,1,1,1,1", Setup((1, 1, 1, 1, 1), (0, 0, 11, 0, 6)),
         "setup x=1,1,1,1,1 bid=0,0,11,0,6"),
        ("roll W4 3 1 6 6 2", Roll(4, (1, 2, 3, 6, 6)), "roll W4 1 2 3 6 6"),
        ("  roll  w1 6 6 6  ", Roll(1, (6, 6, 6)), "roll W1 6 6 6"),
        ("lead sun", Lead(Suit.SUN), None),
        ("Lead Sunglasses", Lead(Suit.GLASSES), "lead glasses"),
        ("lead starfish", Lead(Suit.STARFISH), None),
        ("claim 4", Claim(4), None),
        ("claim 4 starfish", Claim(4, Suit.STARFISH), None),
        ("CLAIM 6 Palm-Tree", Claim(6, Suit.PALM), "claim 6 palm"),
        ("claim 1 w", Claim(1, Suit.WATER), "claim 1 water"),
        ("claim 2 Penalty", Claim(2, PENALTY), "claim 2 penalty"),
    ],
)  # fmt: skip
def test_moves_read_and_write_their_notation(text: str, move: Move, canonical: str | None) -> None:
    assert parse_move(text) == move
    assert move.to_text() == (canonical or text)
    assert parse_move(move.to_text()) == move
    assert str(move) == move.to_text() and move.to_text() in repr(move)


def test_every_claim_round_trips() -> None:
    targets = [None, PENALTY, *ALL_SUITS]
    for number in range(1, 7):
        for to in targets:
            claim = Claim(number, to)
            assert parse_move(claim.to_text()) == claim


def test_moves_are_hashable_values() -> None:
    assert len({Claim(4), Claim(4), Claim(4, Suit.SUN), Roll.of(3, [2, 1]), Roll(3, (1, 2))}) == 3
    assert Roll(5, (6, 1, 3)) == Roll(5, (1, 3, 6)) and Roll(5, (6, 1, 3)).to_text() == "roll W5 1 3 6"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "empty"),
        ("pass", "expected setup, start, white, purple, roll, lead or claim"),
        ("setup", "both x= .* and bid="),
        ("setup x=1,2,3,4,5", "both"),
        ("setup x=1,2,3,4,5 bid=3,3,3,3,3 bid=1,1,1,1,1", "write 'setup"),
        ("setup x=1,2,3,4,5 bids=3,3,3,3,3", "write 'setup"),
        ("setup x 1,2,3,4,5 bid=3,3,3,3,3", "write 'setup"),
        ("setup x=1,2,3,4 bid=3,3,3,3,3", "five whole numbers"),
        ("setup x=1,2,3,4,5,6 bid=3,3,3,3,3", "five whole numbers"),
        ("setup x=1,2,3,4,5 bid=3,3,-3,3,3", "five whole numbers"),
        ("setup x=1,2,3,4,5 bid=3,,3,3,3", "five whole numbers"),
        ("setup x=0,2,3,4,5 bid=3,3,3,3,3", "0 is not a die face"),
        ("setup x=1,2,3,4,7 bid=3,3,3,3,3", "7 is not a die face"),
        ("setup x=1,2,3,4,\u00b2 bid=3,3,3,3,3", "five whole numbers"),
        ("roll", "roll W"),
        ("roll W4", "roll W"),
        ("roll 4 3 1 6", "roll W"),
        ("roll W7 1 2 3", "7 is not a die face"),
        ("roll W4 1 2 0", "0 is not a die face"),
        ("roll W4 1 two 3", "'two' is not a die face"),
        ("roll W 1 2 3", "'' is not a die face"),
        ("lead", "lead SUIT"),
        ("lead sun palm", "lead SUIT"),
        ("lead moon", "suit 'moon'"),
        ("claim", "claim NUMBER"),
        ("claim 4 sun sun", "claim NUMBER"),
        ("claim 7", "7 is not a die face"),
        ("claim 0 sun", "0 is not a die face"),
        ("claim four", "'four' is not a die face"),
        ("claim 4 moon", "suit 'moon'"),
    ],
)
def test_bad_notation_is_refused(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        parse_move(text)

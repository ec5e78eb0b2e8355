"""Property tests over whole random games, stepped here with the pure rule functions (bounded: each
example is a game).

At every claim: the legal claims are exactly what the rules accept (a brute force over every claim
text), each resolves to its own short form, a claim's breakdown adds up and matches its points, a
mark never lands on a marked number, the sheet goes to JSON and text and back, every move's notation
reads back, and a view with hidden bids holds no bid.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.qwiply.bots import random_setup
from engine.qwiply.moves import Lead, parse_move
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    apply_marking,
    apply_setup,
    check_lead,
    check_roll,
    claim_breakdown,
    claim_order,
    claim_points,
    end_reason,
    legal_claims,
    next_start_player,
    resolve_claim,
    roll_dice,
    score_sheet,
    sheet_view,
    take_die,
)
from engine.qwiply.sheet import ALL_SUITS, MAIN_SUITS, Mark, Sheet
from engine.rng import Rng

from .test_rules import brute_force_claims


def marks(sheet: Sheet) -> dict[tuple[int, int], Mark]:
    return {(suit, n): sheet.mark(suit, n) for suit in ALL_SUITS for n in range(1, 7) if sheet.is_marked(suit, n)}


def play_checked(seed: int, players: int) -> tuple[list[Sheet], int]:
    """A whole game with random choices from ``Rng(seed)``, every step checked; the final sheets and rounds."""
    options = QwiplyOptions(players=players)
    rng = Rng(seed)
    sheets = []
    for _ in range(players):
        setup = random_setup(rng)
        assert parse_move(setup.to_text()) == setup
        sheets.append(apply_setup(Sheet(), setup))
    start, rounds = rng.below(players), 0
    while True:
        rounds += 1
        roll = roll_dice(rng, options)
        check_roll(roll, options)
        assert parse_move(roll.to_text()) == roll
        lead = check_lead(Lead(MAIN_SUITS[rng.below(5)]))
        assert parse_move(Lead(lead).to_text()) == Lead(lead)
        unclaimed = roll.purple
        for seat in claim_order(start, players):
            sheet = sheets[seat]
            claims = legal_claims(sheet, lead, unclaimed)
            assert set(claims) == brute_force_claims(sheet, lead, roll.white, unclaimed)
            claim = rng.choice(claims)
            assert parse_move(claim.to_text()) == claim
            marking = resolve_claim(sheet, lead, roll.white, unclaimed, claim)
            assert marking.claim() == claim
            breakdown = claim_breakdown(sheet, marking, options)
            assert (
                breakdown.total == sum(item.points for item in breakdown.items) == claim_points(sheet, marking, options)
            )
            after = apply_marking(sheet, marking)
            before_marks, after_marks = marks(sheet), marks(after)
            assert before_marks.items() <= after_marks.items(), "no mark is ever changed"
            if marking.row is None:
                assert after_marks == before_marks and after.penalties == sheet.penalties + 1
            else:
                assert set(after_marks) - set(before_marks) == {(marking.row, marking.number)}
            assert Sheet.from_json(json.loads(json.dumps(after.to_json()))) == after
            assert Sheet.from_text(after.to_text()) == after
            scored = score_sheet(after, options)
            assert scored.total == sum(item.points for item in scored.items)
            hidden = sheet_view(after, show_bids=False)
            assert hidden["bids"] is None and hidden["bids_hidden"] is True
            assert {k: v for k, v in hidden.items() if k not in ("bids", "bids_hidden")} == {
                k: v for k, v in after.to_json().items() if k != "bids"
            }
            sheets[seat] = after
            unclaimed = take_die(unclaimed, claim.number)
        assert len(unclaimed) == 1, "one die is left over every round"
        if end_reason(sheets, options) is not None:
            return sheets, rounds
        start = next_start_player(start, players)


@pytest.mark.slow
@settings(max_examples=12)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_random_games_keep_every_rule(seed: int, players: int) -> None:
    sheets, rounds = play_checked(seed, players)
    for sheet in sheets:
        assert sheet.marks_made() + sheet.penalties == rounds
        assert sheet.penalties <= 3, "the penalty track never needs a fourth box"
        assert sheet.problem() is None
    assert play_checked(seed, players) == (sheets, rounds), "a seed replays the game exactly"

"""Qwiply's rules: set-up, dice, turn order, and where a claimed die is marked (follow suit, alternate
suit, penalty), with every way a move can break them."""

from __future__ import annotations

import contextlib
from collections import Counter

import pytest

from engine.errors import IllegalMoveError
from engine.qwiply.moves import PENALTY, Claim, Lead, Roll, Setup, Target
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    ALTERNATE,
    FOLLOW,
    PENALTY_RULE,
    apply_marking,
    apply_setup,
    check_lead,
    check_roll,
    check_setup,
    claim_order,
    destinations,
    first_start_player,
    legal_claims,
    marking_for,
    next_start_player,
    resolve_claim,
    roll_dice,
    take_die,
)
from engine.qwiply.sheet import ALL_SUITS, MAIN_SUITS, MAX_BID, Mark, Sheet, Suit
from engine.rng import Rng
from tests.engine.rulings import refused

from .conftest import FRESH, sheet

#: Sun: 1 crossed out, 2 circled, 4 crossed. 3 is marked in every row but the starfish; 6 in every row.
CROWDED = sheet("""
    Sun           /1  (2)  x3  x4   5   x6    3
    Palm Tree      1  /2   x3   4   5   x6    3
    Drink          1   2   /3   4   5   x6    3
    Sunglasses     1   2   x3  /4   5   x6    3
    Water          1   2   x3   4  /5   x6    3
                   .   .   .   .   .   P
    Starfish       1   2    3   4   5  (6)
    penalty       [ ] [ ] [ ]
""")


# --- set-up -------------------------------------------------------------------------------------
def test_setup_crosses_out_and_bids() -> None:
    after = apply_setup(Sheet(), Setup((6, 5, 4, 3, 2), (0, 3, 6, MAX_BID, 1)))
    assert after.crossed_out() == (6, 5, 4, 3, 2) and after.bids == (0, 3, 6, MAX_BID, 1)
    assert after.open_rows(6) == (Suit.PALM, Suit.DRINK, Suit.GLASSES, Suit.WATER, Suit.STARFISH)


@pytest.mark.parametrize(
    ("setup", "rule"),
    [
        (Setup((1, 2, 3, 4, 5), (3, 3, 3, 3, MAX_BID + 1)), "bid_out_of_range"),
        (Setup((1, 2, 3, 4, 5), (-1, 3, 3, 3, 3)), "bid_out_of_range"),
        (Setup((1, 2, 3, 4, 7), (3, 3, 3, 3, 3)), "no_such_number"),
        (Setup((0, 2, 3, 4, 5), (3, 3, 3, 3, 3)), "no_such_number"),
        (Setup((1, 2, 3, 4), (3, 3, 3, 3, 3)), "five_suits"),
        (Setup((1, 2, 3, 4, 5), (3, 3, 3, 3, 3, 3)), "five_suits"),
    ],
)
def test_bad_setups_are_refused(setup: Setup, rule: str) -> None:
    refused(rule, apply_setup, Sheet(), setup)


def test_a_sheet_is_set_up_once() -> None:
    refused("already_set_up", check_setup, FRESH, Setup((1, 2, 3, 4, 5), (3, 3, 3, 3, 3)))


# --- dice, lead, order --------------------------------------------------------------------------
def test_a_roll_is_one_white_die_and_players_plus_one_purple_dice() -> None:
    for players in range(2, 6):
        options = QwiplyOptions(players=players)
        rng = Rng(players)
        rolls = [roll_dice(rng, options) for _ in range(600)]
        for roll in rolls:
            check_roll(roll, options)
            assert len(roll.purple) == players + 1 and list(roll.purple) == sorted(roll.purple)
        faces = Counter(face for roll in rolls for face in (roll.white, *roll.purple))
        assert sorted(faces) == [1, 2, 3, 4, 5, 6]
        assert min(faces.values()) > 0.7 * max(faces.values()), "the dice are fair"


def test_the_same_seed_rolls_the_same_dice() -> None:
    options = QwiplyOptions(players=3)
    first, second = Rng(11), Rng(11)
    assert [roll_dice(first, options) for _ in range(20)] == [roll_dice(second, options) for _ in range(20)]


def test_a_recorded_roll_must_be_one_the_dice_could_show() -> None:
    options = QwiplyOptions(players=3)
    refused("wrong_dice_count", check_roll, Roll(4, (1, 2, 3)), options)
    refused("wrong_dice_count", check_roll, Roll(4, (1, 2, 3, 4, 5)), options)
    refused("no_such_number", check_roll, Roll(7, (1, 2, 3, 4)), options)
    refused("no_such_number", check_roll, Roll(3, (0, 2, 3, 4)), options)
    check_roll(Roll(6, (1, 1, 6, 6)), options)


def test_the_lead_is_a_main_suit_never_the_starfish() -> None:
    for suit in MAIN_SUITS:
        assert check_lead(Lead(suit)) is suit
    error = refused("starfish_cannot_lead", check_lead, Lead(Suit.STARFISH))
    assert "starfish" in str(error)
    refused("starfish_cannot_lead", resolve_claim, FRESH, Suit.STARFISH, 3, (1, 2), Claim(1))


def test_claims_run_from_the_start_players_left_and_end_with_the_start_player() -> None:
    assert claim_order(0, 3) == (1, 2, 0)
    assert claim_order(2, 3) == (0, 1, 2)
    assert claim_order(1, 2) == (0, 1)
    assert claim_order(4, 5) == (0, 1, 2, 3, 4)
    assert [next_start_player(start, 4) for start in range(4)] == [1, 2, 3, 0]


def test_the_first_start_player_is_random_unless_the_options_name_one() -> None:
    seats = {first_start_player(QwiplyOptions(players=4), Rng(seed)) for seed in range(40)}
    assert seats == {0, 1, 2, 3}
    assert {first_start_player(QwiplyOptions(players=4, first_player=2), Rng(seed)) for seed in range(10)} == {2}


def test_taking_a_die_leaves_the_rest() -> None:
    assert take_die((2, 5, 5, 6), 5) == (2, 5, 6)
    refused("die_not_available", take_die, (2, 5, 6), 4)


# --- follow suit --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("number", "white", "mark"),
    [(5, 4, Mark.WIN), (4, 4, Mark.WIN), (3, 4, Mark.LOSS), (6, 1, Mark.WIN), (1, 6, Mark.LOSS)],
)
def test_follow_suit_circles_at_least_the_white_die_and_crosses_below_it(number: int, white: int, mark: Mark) -> None:
    lead = Suit.GLASSES if number != 4 else Suit.DRINK  # a row where the number is open
    marking = resolve_claim(FRESH, lead, white, (number, 2), Claim(number))
    assert (marking.rule, marking.row, marking.mark) == (FOLLOW, lead, mark)
    assert marking.won_for == (lead if mark is Mark.WIN else None)
    after = apply_marking(FRESH, marking)
    assert after.mark(lead, number) is mark
    assert after.wins(lead) == (1 if mark is Mark.WIN else 0)
    assert after.marks_made() == 1 and after.penalties == 0


def test_follow_suit_is_forced_while_the_number_is_open_in_the_lead_row() -> None:
    for to in (Suit.STARFISH, Suit.PALM, PENALTY):
        error = refused("must_follow_suit", resolve_claim, FRESH, Suit.SUN, 3, (4, 5), Claim(4, to))
        assert "lead row (Sun)" in str(error)
    assert resolve_claim(FRESH, Suit.SUN, 3, (4, 5), Claim(4, Suit.SUN)) == resolve_claim(
        FRESH, Suit.SUN, 3, (4, 5), Claim(4)
    ), "naming the row the rule forces is the same claim"


# --- alternate suit -----------------------------------------------------------------------------
def test_alternate_suit_in_the_starfish_circles_and_writes_the_lead_suit_whatever_the_white_die() -> None:
    marking = resolve_claim(CROWDED, Suit.SUN, 6, (2, 4), Claim(2, Suit.STARFISH))
    assert (marking.rule, marking.row, marking.mark, marking.won_for) == (ALTERNATE, Suit.STARFISH, Mark.WIN, Suit.SUN)
    after = apply_marking(CROWDED, marking)
    assert after.mark(Suit.STARFISH, 2) is Mark.WIN and after.starfish_for[1] is Suit.SUN
    assert after.wins(Suit.SUN) == CROWDED.wins(Suit.SUN) + 1
    assert after.rows[Suit.SUN] == CROWDED.rows[Suit.SUN], "the Sun row is untouched"


def test_alternate_suit_in_another_row_crosses_whatever_the_white_die() -> None:
    marking = resolve_claim(CROWDED, Suit.SUN, 1, (2, 4), Claim(2, Suit.DRINK))
    assert (marking.rule, marking.row, marking.mark, marking.won_for) == (ALTERNATE, Suit.DRINK, Mark.LOSS, None)
    after = apply_marking(CROWDED, marking)
    assert after.mark(Suit.DRINK, 2) is Mark.LOSS and after.wins(Suit.DRINK) == 0


def test_alternate_suit_with_several_rows_open_needs_the_row_named() -> None:
    error = refused("choose_a_row", resolve_claim, CROWDED, Suit.SUN, 3, (2, 4), Claim(2))
    assert str(error).endswith("choose the row for it: Drink, Sunglasses, Water, Starfish")


def test_alternate_suit_with_one_row_open_goes_there_unnamed() -> None:
    marking = resolve_claim(CROWDED, Suit.SUN, 6, (3, 4), Claim(3))
    assert (marking.rule, marking.row, marking.mark, marking.won_for) == (ALTERNATE, Suit.STARFISH, Mark.WIN, Suit.SUN)
    assert marking.claim() == Claim(3)
    assert resolve_claim(CROWDED, Suit.SUN, 6, (3, 4), Claim(3, Suit.STARFISH)) == marking


def test_alternate_suit_never_to_a_row_where_the_number_is_marked() -> None:
    for to in (Suit.SUN, Suit.PALM):  # 2 is circled in Sun (the lead) and crossed out in Palm Tree
        error = refused("already_marked", resolve_claim, CROWDED, Suit.SUN, 3, (2, 4), Claim(2, to))
        assert "it may go to Drink, Sunglasses, Water, Starfish" in str(error)
    refused("already_marked", resolve_claim, CROWDED, Suit.SUN, 3, (3,), Claim(3, Suit.WATER))


def test_alternate_suit_is_no_penalty() -> None:
    refused("not_a_penalty", resolve_claim, CROWDED, Suit.SUN, 3, (2, 4), Claim(2, PENALTY))


# --- penalty ------------------------------------------------------------------------------------
def test_a_number_marked_in_every_row_costs_a_penalty_and_marks_nothing() -> None:
    marking = resolve_claim(CROWDED, Suit.DRINK, 3, (6, 5), Claim(6))
    assert (marking.rule, marking.row, marking.mark, marking.won_for) == (PENALTY_RULE, None, None, None)
    after = apply_marking(CROWDED, marking)
    assert after.penalties == 1 and after.rows == CROWDED.rows and after.starfish_for == CROWDED.starfish_for
    assert resolve_claim(CROWDED, Suit.DRINK, 3, (6, 5), Claim(6, PENALTY)) == marking
    error = refused("already_marked", resolve_claim, CROWDED, Suit.DRINK, 3, (6, 5), Claim(6, Suit.STARFISH))
    assert "penalty" in str(error)


# --- the die and the sheet ----------------------------------------------------------------------
def test_only_an_unclaimed_die_can_be_claimed() -> None:
    error = refused("die_not_available", resolve_claim, FRESH, Suit.SUN, 3, (2, 5, 5), Claim(4))
    assert "unclaimed: 2 5 5" in str(error)
    refused("die_not_available", resolve_claim, FRESH, Suit.SUN, 3, (), Claim(4))


def test_a_sheet_not_set_up_cannot_claim() -> None:
    refused("not_set_up", resolve_claim, Sheet(), Suit.SUN, 3, (2, 4), Claim(2))


def test_destinations_name_the_case_and_the_rows() -> None:
    assert destinations(CROWDED, Suit.PALM, 4) == (FOLLOW, (Suit.PALM,))
    assert destinations(CROWDED, Suit.SUN, 4) == (ALTERNATE, (Suit.PALM, Suit.DRINK, Suit.WATER, Suit.STARFISH))
    assert destinations(CROWDED, Suit.SUN, 3) == (ALTERNATE, (Suit.STARFISH,))
    assert destinations(CROWDED, Suit.WATER, 6) == (PENALTY_RULE, ())


def test_a_marking_says_what_happened() -> None:
    assert (
        resolve_claim(FRESH, Suit.SUN, 5, (3,), Claim(3)).describe()
        == "follow suit: 3 crossed in Sun (3 < white 5), a loss"
    )
    assert (
        marking_for(CROWDED, Suit.SUN, 6, 3).describe()
        == "alternate suit: 3 circled in Starfish, Sun written above, a win for Sun"
    )
    assert marking_for(CROWDED, Suit.SUN, 6, 2, Suit.WATER).describe() == "alternate suit: 2 crossed in Water, a loss"
    assert marking_for(CROWDED, Suit.SUN, 6, 6).describe() == "penalty: 6 is marked in every row"


# --- legal claims -------------------------------------------------------------------------------
ALL_TARGETS: list[Target] = [None, PENALTY, *ALL_SUITS]


def brute_force_claims(sheet_: Sheet, lead: Suit, white: int, unclaimed: tuple[int, ...]) -> set[Claim]:
    """Every claim text there is, kept when the rules accept it, in its short form."""
    accepted = set()
    for number in range(1, 7):
        for to in ALL_TARGETS:
            with contextlib.suppress(IllegalMoveError):
                accepted.add(resolve_claim(sheet_, lead, white, unclaimed, Claim(number, to)).claim())
    return accepted


@pytest.mark.parametrize("lead", MAIN_SUITS)
@pytest.mark.parametrize("unclaimed", [(1, 2, 3, 4, 5, 6), (3, 3, 6), (6, 6)])
def test_legal_claims_are_exactly_the_accepted_claims(lead: Suit, unclaimed: tuple[int, ...]) -> None:
    for sheet_ in (FRESH, CROWDED):
        claims = legal_claims(sheet_, lead, unclaimed)
        assert len(claims) == len(set(claims)), "two dice showing one number are one choice"
        assert set(claims) == brute_force_claims(sheet_, lead, 4, unclaimed)
        for claim in claims:
            assert resolve_claim(sheet_, lead, 4, unclaimed, claim).claim() == claim


def test_legal_claims_for_a_crowded_sheet() -> None:
    claims = [claim.to_text() for claim in legal_claims(CROWDED, Suit.SUN, (2, 3, 5, 6))]
    assert claims == [
        "claim 2 drink", "claim 2 glasses", "claim 2 water", "claim 2 starfish",
        "claim 3", "claim 5", "claim 6",
    ]  # fmt: skip

"""The Qwiply sheet's own examples and statements, each a fixture (``../shared/seeds/004_26bb2a239e94ce4f.txt``).

The sheet has no play example, so a worked round is written here in its terms: three players, the
roll, the lead, each claim, where it is marked and what it is worth.
"""

from __future__ import annotations

from engine.qwiply.moves import Claim, Lead, Roll, Setup, parse_move
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    ALTERNATE,
    FOLLOW,
    apply_marking,
    apply_setup,
    bid_advice,
    check_lead,
    check_roll,
    claim_breakdown,
    claim_order,
    next_start_player,
    resolve_claim,
    roll_dice,
    score_sheet,
    take_die,
)
from engine.qwiply.sheet import MAIN_SUITS, Mark, Sheet, Suit
from engine.rng import Rng
from tests.engine.rulings import refused

from .conftest import FRESH


def test_five_purple_dice_in_a_four_player_game() -> None:
    """ "Give them the one white die and a quantity of purple dice equal to the number of players plus one.
    Example: Use 5 purple dice in a 4-player game." """
    options = QwiplyOptions(players=4)
    roll = roll_dice(Rng(1), options)
    assert len(roll.purple) == 5 and 1 <= roll.white <= 6
    check_roll(parse_move("roll W4 3 1 6 6 2"), options)  # type: ignore[arg-type]
    refused("wrong_dice_count", check_roll, parse_move("roll W4 3 1 6 6"), options)


def test_setup_crosses_out_a_number_in_each_of_the_five_main_rows_only() -> None:
    """ "Each player crosses out a number of their choice in each of the five main suit rows (Sun, Palm
    Tree, Drink, Sunglasses, Water)" and writes a bid for each of them."""
    after = apply_setup(Sheet(), parse_move("setup x=3,5,1,6,2 bid=3,2,4,3,3"))  # type: ignore[arg-type]
    assert after.crossed_out() == (3, 5, 1, 6, 2)
    assert [after.is_marked(Suit.STARFISH, n) for n in range(1, 7)] == [False] * 6
    assert after.bids == (3, 2, 4, 3, 3)


def test_bids_of_about_fifteen_are_advised_not_required() -> None:
    """ "For your first few games, it is recommended that the total of your five bids should equal
    approximately 15." """
    options = QwiplyOptions()
    assert bid_advice((3, 2, 4, 3, 3), options) is None
    assert bid_advice((0, 0, 0, 0, 0), options) is not None
    apply_setup(Sheet(), Setup((1, 1, 1, 1, 1), (0, 0, 0, 0, 0)))  # still a legal set-up


def test_the_starfish_can_not_lead() -> None:
    """ "The starfish suit can NOT be declared as the lead suit." """
    refused("starfish_cannot_lead", check_lead, parse_move("lead starfish"))


def test_equal_to_the_white_die_wins_less_loses() -> None:
    """ "If the number is equal to or greater than the number on the white die, circle the number ... If the
    number is less than the number on the white die, cross out the number." """
    assert resolve_claim(FRESH, Suit.PALM, 4, (4,), Claim(4)).mark is Mark.WIN
    assert resolve_claim(FRESH, Suit.PALM, 4, (3,), Claim(3)).mark is Mark.LOSS


def test_more_than_one_player_may_win_a_round_or_no_one() -> None:
    """ "Winning or losing a round is determined on an individual basis versus the white die and not versus
    each other. More than one player may win a round or no one may win a round!" """
    sheets = [FRESH] * 3
    everyone = [resolve_claim(s, Suit.WATER, 3, (3, 4, 6, 6), Claim(n)) for s, n in zip(sheets, (3, 4, 6), strict=True)]
    assert [m.mark for m in everyone] == [Mark.WIN] * 3
    no_one = [resolve_claim(s, Suit.WATER, 6, (1, 2, 3, 4), Claim(n)) for s, n in zip(sheets, (1, 2, 3), strict=True)]
    assert [m.mark for m in no_one] == [Mark.LOSS] * 3


def test_once_a_number_is_marked_it_cannot_be_used_for_that_suit_again() -> None:
    """ "IMPORTANT: Once a number is marked, you cannot use that number for that suit for the remainder
    of the game!" """
    after = apply_marking(FRESH, resolve_claim(FRESH, Suit.SUN, 2, (5,), Claim(5)))
    again = resolve_claim(after, Suit.SUN, 2, (5,), Claim(5, Suit.DRINK))
    assert (again.rule, again.row) == (ALTERNATE, Suit.DRINK)
    refused("already_marked", resolve_claim, after, Suit.SUN, 2, (5,), Claim(5, Suit.SUN))


def test_the_start_player_claims_last_then_passes_left() -> None:
    """ "Beginning with the player to the left of the start player and continuing clockwise ... The start
    player will be the last player to claim a die in a round. Then the next round begins and the new start
    player is the player to the left of the current start player." """
    assert claim_order(1, 4) == (2, 3, 0, 1)
    assert next_start_player(1, 4) == 2 and next_start_player(3, 4) == 0


def test_scoring_box() -> None:
    """The sheet's SCORING box and "For each PENALTY, you lose 2 points"."""
    options = QwiplyOptions()
    assert options.chart == (20, 12, 7, 4, 7, 12, 20)
    assert options.penalty_points == 2


def test_a_worked_round_for_three_players() -> None:
    """Three players; seat 0 starts, rolls W4 2 4 4 6 and leads Drink; seats 1, 2, then 0 claim."""
    options = QwiplyOptions(players=3)
    setups = ["setup x=1,2,3,4,5 bid=3,3,3,3,3", "setup x=4,4,4,4,4 bid=1,1,1,1,1", "setup x=6,6,6,6,6 bid=0,0,0,0,0"]
    sheets = [apply_setup(Sheet(), parse_move(text)) for text in setups]  # type: ignore[arg-type]
    roll = parse_move("roll W4 6 4 2 4")
    assert isinstance(roll, Roll) and roll.to_text() == "roll W4 2 4 4 6"
    check_roll(roll, options)
    lead_move = parse_move("lead drink")
    assert isinstance(lead_move, Lead)
    lead = check_lead(lead_move)
    unclaimed = roll.purple
    expected = {
        # seat 1 crossed out every 4: only the starfish is open, so "claim 4" needs no row; a win for Drink,
        # which meets the bid of 1 (0 -> 12 points)
        1: ("claim 4", ALTERNATE, Suit.STARFISH, Mark.WIN, 12),
        # seat 2 follows suit with 2 < 4: a loss, as its bid of 0 wants (still 20 points: no change)
        2: ("claim 2", FOLLOW, Suit.DRINK, Mark.LOSS, 0),
        # seat 0 takes the 6 and follows suit: 6 >= 4, a first win toward its bid of 3 (0 -> 1 point)
        0: ("claim 6", FOLLOW, Suit.DRINK, Mark.WIN, 1),
    }
    for seat in claim_order(0, options.players):
        text, rule, row, mark, points = expected[seat]
        claim = parse_move(text)
        assert isinstance(claim, Claim)
        marking = resolve_claim(sheets[seat], lead, roll.white, unclaimed, claim)
        assert (marking.rule, marking.row, marking.mark) == (rule, row, mark)
        assert claim_breakdown(sheets[seat], marking, options).total == points
        sheets[seat] = apply_marking(sheets[seat], marking)
        unclaimed = take_die(unclaimed, claim.number)
    assert unclaimed == (4,), "one die is always left over"
    assert [score_sheet(s, options).total for s in sheets] == [1, 12, 100]  # under a bid, 0 wins score 0
    assert sheets[1].starfish_for[3] is Suit.DRINK and sheets[1].wins(Suit.DRINK) == 1
    assert all(sheets[2].wins(suit) == 0 for suit in MAIN_SUITS)
    assert sheets[0].to_text().splitlines()[3] == "Drink          1   2  /3   4   5  (6)    3    1"

"""Qwiply's scoring (the chart, under and over the bid, penalties), each claim's breakdown, the end of the
game, the winners, and what others see of a sheet."""

from __future__ import annotations

import pytest

from engine.qwiply.moves import Claim
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    bid_advice,
    bids_visible,
    claim_breakdown,
    claim_points,
    end_reason,
    end_triggers,
    final_scores,
    marking_for,
    resolve_claim,
    score_sheet,
    sheet_view,
    suit_points,
    winners,
)
from engine.qwiply.sheet import MAX_BID, Mark, Sheet, Suit
from tests.engine.rulings import refused

from .conftest import FRESH, sheet
from .test_rules import CROWDED
from .test_sheet import MIDGAME

OPTIONS = QwiplyOptions()


def sheet_rule(bid: int, wins: int) -> int:
    """The sheet's scoring box, read literally."""
    chart = {0: 20, 1: 12, 2: 7, 3: 4, 4: 7, 5: 12}
    if wins < bid:
        return wins  # "If Wins < Bid, 1 point per win"
    if wins == bid:
        return chart.get(bid, 20)  # "6 or more: 20"
    return -(wins - bid)  # "-1 point per win that is over bid"


@pytest.mark.parametrize("bid", range(MAX_BID + 1))
def test_suit_points_follow_the_sheets_box_for_every_bid_and_win_count(bid: int) -> None:
    for wins in range(MAX_BID + 1):
        assert suit_points(bid, wins, OPTIONS.chart) == sheet_rule(bid, wins), (bid, wins)


def test_a_sheet_scores_per_suit_then_penalties() -> None:
    breakdown = score_sheet(sheet(MIDGAME), OPTIONS)
    assert [(item.label, item.points) for item in breakdown.items] == [
        ("Sun", -1), ("Palm Tree", 20), ("Drink", 12), ("Sunglasses", 0), ("Water", 0), ("penalties", -4),
    ]  # fmt: skip
    assert breakdown.total == 27 == sum(item.points for item in breakdown.items)
    assert breakdown.items[0].detail == "bid 3, won 4 (3 circled + 1 starfish): 1 over the bid, -1 per win over"
    assert breakdown.items[1].detail == "bid 0, won 0: bid met, the chart gives 20"
    assert breakdown.items[2].detail == "bid 1, won 1 (1 circled): bid met, the chart gives 12"
    assert breakdown.items[3].detail == "bid 2, won 0: under the bid, 1 point per win"
    assert breakdown.items[5].detail == "2 x -2"
    assert [item.kind for item in breakdown.items] == ["suit"] * 5 + ["penalty"]
    assert breakdown.text().splitlines()[-1].split() == ["total", "27"]


def test_starfish_wins_count_for_the_suit_written_above_them() -> None:
    base = FRESH.with_mark(Suit.DRINK, 6, Mark.WIN)
    assert score_sheet(base, OPTIONS).items[Suit.DRINK].points == 1  # bid 3, won 1
    with_star = base.with_mark(Suit.STARFISH, 1, Mark.WIN, Suit.DRINK).with_mark(Suit.STARFISH, 2, Mark.WIN, Suit.DRINK)
    item = score_sheet(with_star, OPTIONS).items[Suit.DRINK]
    assert (item.points, item.detail) == (4, "bid 3, won 3 (1 circled + 2 starfish): bid met, the chart gives 4")
    assert score_sheet(with_star, OPTIONS).items[Suit.STARFISH].label == "penalties", "the starfish is never scored"


def test_the_options_change_the_chart_and_the_penalty() -> None:
    options = QwiplyOptions(chart=(10, 5), penalty_points=3)
    scored = score_sheet(sheet(MIDGAME), options)
    assert [item.points for item in scored.items] == [-1, 10, 5, 0, 0, -6]


def test_a_sheet_without_bids_has_no_score() -> None:
    refused("not_set_up", score_sheet, Sheet(), OPTIONS)


# --- a claim's breakdown ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("wins_before", "bid", "change"),
    [(0, 3, 1), (2, 3, 2), (3, 3, -5), (4, 3, -1), (0, 0, -21), (0, 1, 12), (5, 6, 15)],
)
def test_a_win_is_worth_the_change_it_makes_to_the_suit(wins_before: int, bid: int, change: int) -> None:
    start = Sheet().with_setup((1, 1, 1, 1, 1), (bid, 3, 3, 3, 3))
    for number in range(1, wins_before + 1):
        start = start.with_mark(Suit.STARFISH, number, Mark.WIN, Suit.SUN)
    marking = resolve_claim(start, Suit.SUN, 1, (6, 2), Claim(6))
    breakdown = claim_breakdown(start, marking, OPTIONS)
    assert breakdown.total == change == claim_points(start, marking, OPTIONS)
    assert [(item.kind, item.label) for item in breakdown.items] == [("claim", "Sun")]
    assert breakdown.items[0].detail.startswith("follow suit: 6 circled in Sun (6 >= white 1), a win for Sun; Sun ")


def test_a_loss_is_worth_nothing_and_a_penalty_costs_its_points() -> None:
    loss = marking_for(FRESH, Suit.SUN, 6, 2)
    assert claim_breakdown(FRESH, loss, OPTIONS).total == 0 == claim_points(FRESH, loss, OPTIONS)
    assert claim_breakdown(FRESH, loss, OPTIONS).items[0].label == "Sun"
    penalty = marking_for(CROWDED, Suit.GLASSES, 6, 6)  # 6 is marked in every row
    options = QwiplyOptions(penalty_points=3)
    breakdown = claim_breakdown(CROWDED, penalty, options)
    assert [(item.kind, item.points) for item in breakdown.items] == [("penalty", -3)]
    assert claim_points(CROWDED, penalty, options) == -3


def test_a_starfish_win_is_valued_for_the_lead_suit() -> None:
    start = FRESH.with_mark(Suit.WATER, 6, Mark.WIN).with_mark(Suit.WATER, 3, Mark.WIN)  # Water: won 2 of bid 3
    marking = marking_for(start, Suit.WATER, 1, 3, Suit.STARFISH)
    breakdown = claim_breakdown(start, marking, OPTIONS)
    assert (breakdown.items[0].label, breakdown.total) == ("Water", 2)
    assert breakdown.items[0].detail.endswith("Water goes from 2 to 4 points")


# --- the end ------------------------------------------------------------------------------------
def _complete(sheet_: Sheet, *suits: Suit) -> Sheet:
    """``sheet_`` with every open number of these rows marked (crossed; circled for Sun in the starfish)."""
    for suit in suits:
        for number in range(1, 7):
            if not sheet_.is_marked(suit, number):
                won_for = Suit.SUN if suit is Suit.STARFISH else None
                sheet_ = sheet_.with_mark(suit, number, Mark.WIN if won_for else Mark.LOSS, won_for)
    return sheet_


def test_the_game_ends_when_a_player_has_three_complete_rows() -> None:
    two = _complete(FRESH, Suit.SUN, Suit.DRINK)
    three = _complete(two, Suit.WATER)
    assert end_triggers([FRESH, two], OPTIONS) == [] and end_reason([FRESH, two], OPTIONS) is None
    assert end_triggers([FRESH, two, three], OPTIONS) == [(2, "rows")]
    assert end_reason([FRESH, two, three], OPTIONS) == "player 2 has marked every number of Sun, Drink, Water"
    assert end_triggers([two], QwiplyOptions(end_rows=2)) == [(0, "rows")]


def test_the_game_ends_when_a_player_takes_a_third_penalty() -> None:
    two = FRESH.with_penalty().with_penalty()
    three = two.with_penalty()
    assert end_triggers([two, FRESH], OPTIONS) == []
    assert end_triggers([two, three], OPTIONS) == [(1, "penalties")]
    assert end_reason([three, three], OPTIONS) == "player 0 has taken 3 penalties; player 1 has taken 3 penalties"
    assert end_triggers([FRESH.with_penalty()], QwiplyOptions(end_penalties=1)) == [(0, "penalties")]


def test_both_conditions_are_reported() -> None:
    both = _complete(FRESH, Suit.SUN, Suit.PALM, Suit.STARFISH).with_penalty().with_penalty().with_penalty()
    assert end_triggers([both], OPTIONS) == [(0, "rows"), (0, "penalties")]


def test_final_scores_and_winners() -> None:
    sheets = [sheet(MIDGAME), FRESH, sheet(MIDGAME)]
    assert final_scores(sheets, OPTIONS) == (27, 0, 27)
    assert winners((27, 0, 27)) == (0, 2), "a tie for the most points shares the win"
    assert winners((3, 9, -2)) == (1,)


# --- what others see ----------------------------------------------------------------------------
def test_public_bids_are_seen_by_everyone_hidden_bids_by_their_owner_until_the_end() -> None:
    public, hidden = QwiplyOptions(), QwiplyOptions(bids="hidden")
    for viewer in (0, 1, None):
        assert bids_visible(public, owner=0, viewer=viewer, game_over=False)
        assert bids_visible(hidden, owner=0, viewer=viewer, game_over=True)
    assert bids_visible(hidden, owner=0, viewer=0, game_over=False)
    assert not bids_visible(hidden, owner=0, viewer=1, game_over=False)
    assert not bids_visible(hidden, owner=0, viewer=None, game_over=False)


def test_a_sheet_view_withholds_hidden_bids_and_nothing_else() -> None:
    mid = sheet(MIDGAME)
    shown, withheld = sheet_view(mid, show_bids=True), sheet_view(mid, show_bids=False)
    assert shown == {**mid.to_json(), "bids_hidden": False}
    assert withheld["bids"] is None and withheld["bids_hidden"] is True
    assert {k: v for k, v in withheld.items() if k not in ("bids", "bids_hidden")} == {
        k: v for k, v in mid.to_json().items() if k != "bids"
    }
    assert sheet_view(Sheet(), show_bids=False)["bids_hidden"] is False, "no bids yet: nothing is withheld"


def test_the_sheets_bid_advice_is_a_hint() -> None:
    assert bid_advice((3, 3, 3, 3, 3), OPTIONS) is None
    hint = bid_advice((0, 0, 1, 0, 6), OPTIONS)
    assert hint is not None and "total 7" in hint and "about 15" in hint
    assert bid_advice((2, 2, 2, 2, 2), QwiplyOptions(bid_advice=10)) is None

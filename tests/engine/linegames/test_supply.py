"""Piles and hands: dealing (common and personal), refilling, trading, whose turn is next."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import IllegalMoveError
from engine.linegames.supply import deal, next_seat, refill, trade

TILES = tuple(f"{n}{c}" for c in "ygrkb" for n in "0123456789") + ("??",) * 10


def test_a_common_pile_deals_five_each_and_stacks_the_rest() -> None:
    supply = deal(TILES, players=3)
    assert [len(hand) for hand in supply.hands] == [5, 5, 5]
    assert supply.piles == (TILES[15:],)
    assert supply.pile_of(2) == supply.pile_of(0)


def test_personal_piles_share_the_tiles_equally() -> None:
    supply = deal(TILES, players=5, personal=True)
    assert [len(h) + len(p) for h, p in zip(supply.hands, supply.piles, strict=True)] == [12] * 5
    assert supply.hands[1] == TILES[12:17] and supply.piles[1] == TILES[17:24]
    changed = supply.with_seat(1, ("x",), ())
    assert changed.hands[1] == ("x",) and changed.piles[1] == () and changed.piles[0] == supply.piles[0]


def test_tiles_that_do_not_share_out_stay_out() -> None:
    supply = deal(TILES[:58], players=4, personal=True)
    assert sum(len(h) + len(p) for h, p in zip(supply.hands, supply.piles, strict=True)) == 56


def test_refill_takes_from_the_top_and_fewer_when_the_pile_runs_short() -> None:
    assert refill(("a",), ("b", "c", "d", "e", "f", "g")) == (("a", "b", "c", "d", "e"), ("f", "g"))
    assert refill(("a",), ("b",)) == (("a", "b"), ())


@given(st.lists(st.sampled_from("abcde"), max_size=5), st.integers(0, 8))
def test_trading_keeps_every_tile(traded_from: list[str], pile_size: int) -> None:
    hand = ("a", "b", "c", "d", "e")
    pile = tuple(f"p{i}" for i in range(pile_size))
    traded = list(dict.fromkeys(traded_from))
    if len(traded) > pile_size:
        with pytest.raises(IllegalMoveError) as caught:
            trade(hand, pile, traded)
        assert caught.value.rule == "trade_exceeds_pile"
        return
    new_hand, new_pile = trade(hand, pile, traded)
    assert Counter(new_hand) + Counter(new_pile) == Counter(hand) + Counter(pile)
    assert len(new_hand) == 5 and new_pile[len(new_pile) - len(traded) :] == tuple(traded)


def test_trading_none_is_a_plain_pass_and_unknown_tiles_are_refused() -> None:
    assert trade(("a", "b"), ("c",), []) == (("a", "b"), ("c",))
    with pytest.raises(IllegalMoveError) as caught:
        trade(("a", "b"), ("c",), ["z"])
    assert caught.value.rule == "not_in_hand"


def test_another_turn_keeps_the_seat() -> None:
    assert next_seat(4, 5, another_turn=False) == 0
    assert next_seat(4, 5, another_turn=True) == 4

"""Every rule sheet's worked example entered at the table (``engine/table.py``): the set-up, then each play as
the table lays it, never a hand or a draw; every score and breakdown is the sheet's (the fixtures the dealing
engines' own example tests replay)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import load_game
from engine.base import State
from engine.values import CHANCE, Breakdown

ENGINE_TESTS = Path(__file__).parent


def fixture(game: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ENGINE_TESTS / game / "data" / name).read_text(encoding="utf-8"))
    return data


def table(spec: str, *set_up: str) -> State[Any]:
    state = load_game(spec).new_initial_state(None)
    for entry in set_up:
        state.act(CHANCE, entry)
    return state


def items(breakdown: Breakdown, *fields: str) -> list[list[Any]]:
    return [[getattr(item, name) if name != "values" else list(item.values) for name in fields]
            for item in breakdown.items]  # fmt: skip


def test_bop_the_sheets_eight_turns() -> None:
    """Two players in turn from the starter tile; turn 2 plays all five tiles (+10), as the sheet says."""
    example = fixture("bop", "play_example.json")
    state = table("bop(table=true)", "first 0", f"draw {example['starter']}")
    for number, turn in enumerate(example["turns"]):
        breakdown = state.act(number % 2, turn["move"])
        assert breakdown.total == turn["points"], f"turn {number + 1}"
        assert items(breakdown, "label", "points", "values") == turn["items"], f"turn {number + 1}"
    assert state.scores() == (7 + 13 + 10 + 6, 25 + 10 + 8 + 30)
    played = sum(len(state.game.parse_move(turn["move"]).tiles()) for turn in example["turns"])
    assert state.view(None)["pile_size"] == 60 - 1 - 10 - played  # the starter, two hands, a draw a tile played
    assert state.view(None)["hands"] == [5, 5]


def test_digit_the_sheets_thirteen_turns_with_the_another_turns_and_the_swaps() -> None:
    example = fixture("digit", "play_example.json")
    state = table(f"digit(players={example['players']},table=true)", "first 0")
    for turn in example["turns"]:
        assert state.acting_players() == [turn["player"]], f"turn {turn['turn']}"
        breakdown = state.act(turn["player"], turn["move"])
        assert items(breakdown, "kind", "label", "detail") == turn["items"], f"turn {turn['turn']}"
        assert state.another_turn is turn["another_turn"], f"turn {turn['turn']}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["classic", "plus"])
def test_qnto_the_sheets_eight_turns_and_the_plus_notes(variant: str) -> None:
    example = fixture("qnto", "play_example.json")
    state = table(f"qnto(variant={variant},table=true)", "first 0", f"draw {example['pile'][0]}")
    for turn in example["turns"]:
        breakdown = state.act(turn["player"], turn["move"])
        want = turn[variant]
        assert breakdown.total == want["points"], f"turn {turn['turn']}"
        assert items(breakdown, "kind", "label", "points", "detail") == want["items"], f"turn {turn['turn']}"


def test_matchfive_the_sheets_six_plays() -> None:
    plays = fixture("matchfive", "sheet_example.json")["plays"]
    state = table("matchfive(table=true)", "first 0")
    for number, play in enumerate(plays):
        breakdown = state.act(number % 2, play["play"])
        assert breakdown.total == play["total"], f"play {number + 1}"
        assert items(breakdown, "kind", "label", "points", "detail") == play["items"], f"play {number + 1}"
        assert sorted(list(spot) for spot in state.board.locked) == play["locked"]  # type: ignore[attr-defined]
    assert state.scores() == (6 + 12 + 33, 25 + 30 + 18)


#: The sheet's examples whose board a first play through the start square can lay: the tokens already down are
#: the first player's play, the example's play the second's.
T2F_AT_THE_TABLE = {
    "two_next_to_four": "7,7 4",
    "seven_with_eight_above_two": "7,7 2",
    "two_completes_nine_and_four": "7,6a 9 4",
    "hand_of_fifteen_at_once": "7,7 0",
    "hand_of_fifteen_plus_adjacent_tokens": "7,7 0",
    "first_token_on_the_centre": None,
    "first_hand_of_fifteen_through_the_centre": None,
}


@pytest.mark.parametrize("name", sorted(T2F_AT_THE_TABLE))
def test_three2fifteen_the_sheets_examples(name: str) -> None:
    """The +50 for a hand of 15 played at once needs no question: a play of as many tokens as the hand holds."""
    example = next(e for e in fixture("three2fifteen", "sheet_examples.json")["examples"] if e["name"] == name)
    state = table("three2fifteen(table=true)", "first 1")
    first = T2F_AT_THE_TABLE[name]
    if first is not None:
        state.act(1, first)
    breakdown = state.act(state.acting_players()[0], example["play"])
    assert breakdown.total == example["total"]
    assert items(breakdown, "kind", "label", "points", "detail") == example["items"]


def test_qwiply_the_sheets_scoring_tallied_at_the_table() -> None:
    """The README's scored sheet (Sun bid 3 won 4, Palm Tree 0/0, Drink 1/1, Sunglasses 2/0, Water 5/0, two
    penalties: 27), as a table that tallies enters it."""
    state = table("qwiply(table=true,entry=tally)")
    state.act(0, "bids 3,0,1,2,5")
    state.act(1, "bids 3,3,3,3,3")
    breakdown = state.act(0, "tally wins=4,0,1,0,0 penalties=2")
    assert [item.points for item in breakdown.items] == [-1, 20, 12, 0, 0, -4]
    assert breakdown.total == 27 and state.scores()[0] == 27

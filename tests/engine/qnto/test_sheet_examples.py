"""The Q!nto sheet's play example as a fixture: eight turns in Classic (5, 5, 10, 0, 19, 10, 0, 10)
and in Plus (turns 5, 6 and 8 score 3, 6 and 3 more for the diagonals the sheet names). The position
is rebuilt from the text (the pictures are lost); engine/qnto/README.md says how it was read."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine.qnto.options import KIT, QntoOptions
from engine.qnto.rules import RULE

from .qnto_example import EXAMPLE, Step, replay

SHEET_CLASSIC = [5, 5, 10, 0, 19, 10, 0, 10]
PLUS_MORE = [0, 0, 0, 0, 3, 6, 0, 3]


@pytest.fixture(scope="module")
def classic() -> list[Step]:
    return replay("classic")


@pytest.fixture(scope="module")
def plus() -> list[Step]:
    return replay("plus")


def points_by(step: Step, kind: str, word: str = "") -> int:
    return sum(i.points for i in step.breakdown.items if i.kind == kind and i.label.startswith(word))


def readings(tiles: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every concrete reading of a line whose wilds stand for what makes it a line."""
    return [r for r in itertools.product(*(KIT.domain(t) for t in tiles)) if RULE.admits(r)]


def test_the_deal_is_exactly_the_box() -> None:
    dealt = Counter(EXAMPLE["pile"]) + Counter(t for hand in EXAMPLE["hands"] for t in hand)
    assert dealt == QntoOptions().tile_counts()


@pytest.mark.parametrize("number", range(1, 9))
def test_each_turn_scores_as_the_sheet(classic: list[Step], plus: list[Step], number: int) -> None:
    for steps, variant, expected in ((classic, "classic", SHEET_CLASSIC), (plus, "plus", None)):
        step = steps[number - 1]
        recorded = step.turn[variant]
        assert step.breakdown.total == recorded["points"]
        assert [[i.kind, i.label, i.points, i.detail] for i in step.breakdown.items] == recorded["items"]
        if expected:
            assert step.breakdown.total == expected[number - 1]
    assert plus[number - 1].breakdown.total - classic[number - 1].breakdown.total == PLUS_MORE[number - 1]
    assert not any(i.kind in ("all_tiles", "final_play") for i in classic[number - 1].breakdown.items)
    held = Counter(classic[number - 1].board.values()) + Counter(classic[number - 1].supply.piles[0])
    for hand in classic[number - 1].supply.hands:
        held += Counter(hand)
    assert held == QntoOptions().tile_counts()  # tiles conserved


def test_the_breakdowns_read_like_the_sheet(classic: list[Step]) -> None:
    said = [(points_by(s, "line", "across"), points_by(s, "line", "up/down"), points_by(s, "qnto")) for s in classic]
    assert said == [(2, 3, 0), (3, 2, 0), (5, 0, 5), (0, 0, 0), (5, 9, 5), (0, 5, 5), (0, 0, 0), (5, 0, 5)]


def test_turn_4_the_yellow_heart_takes_the_yellow_wilds_place(classic: list[Step]) -> None:
    before, after = classic[2].board, classic[3].board
    cell = next(c for c, t in before.items() if t == "?y")
    assert after[cell] == "Hy" and "?y" in classic[3].supply.hands[classic[3].seat]


def test_turn_7_two_swaps_then_a_sequential_swap(classic: list[Step]) -> None:
    before, step = classic[5].board, classic[6]
    blue, red = (next(c for c, t in before.items() if t == w) for w in ("?b", "?r"))
    qnto_cells = [c for c, t in before.items() if t == "??"]
    assert step.board[blue] == "Sg" and step.board[red] == "Sr"
    moved = [c for c in qnto_cells if step.board[c] == "?b"]
    assert len(moved) == 1  # the blue wild now stands where a Q!nto tile was
    hand = step.supply.hands[step.seat]
    assert Counter(hand)["??"] == 1 and "?r" in hand and "?b" not in hand


def diagonals(step: Step) -> list[tuple[str, ...]]:
    return [tuple(i.label.split()[1:]) for i in step.breakdown.items if i.kind == "diagonal"]


def test_plus_turn_5_and_8_diagonals_are_bang_spade_diamond(plus: list[Step]) -> None:
    for step in (plus[4], plus[7]):
        (tiles,) = diagonals(step)
        assert any(sorted(t[0] for t in r) == sorted("!SD") for r in readings(tiles))


def test_plus_turn_6_two_diagonals_spade_wild_spade(plus: list[Step]) -> None:
    found = diagonals(plus[5])
    assert len(found) == 2
    for first, middle, last in found:
        # "♠ ! ♠": the middle tile, written "!" on the sheet, is a wild standing for a spade.
        assert first[0] == last[0] == "S" and "?" in middle
        assert any(r[1][0] == "S" for r in readings((first, middle, last)))


def test_no_other_turn_makes_a_diagonal_that_counts(plus: list[Step]) -> None:
    assert [len(diagonals(step)) for step in plus] == [0, 0, 0, 0, 1, 2, 0, 1]
    assert all(item.points == 3 for step in plus for item in step.breakdown.items if item.kind == "diagonal")


def test_diagonals_never_decide_the_plays(classic: list[Step], plus: list[Step]) -> None:
    assert [s.board for s in classic] == [s.board for s in plus]


@pytest.mark.parametrize("variant", ["classic", "plus"])
def test_the_example_played_through_the_engine_scores_as_the_sheet(variant: str) -> None:
    """The same deal as a running game: each turn through the engine's gate by the player the sheet
    names, the refills drawn from the top of the pile as chance nodes, every breakdown as recorded."""
    from engine.qnto.game import QntoGame

    pile = EXAMPLE["pile"]
    state = QntoGame(f"variant={variant}").from_position({(0, 0): pile[0]}, EXAMPLE["hands"], piles=[pile[1:]])
    for turn in EXAMPLE["turns"]:
        assert state.acting_players() == [turn["player"]]
        breakdown = state.act(turn["player"], turn["move"])
        assert [[i.kind, i.label, i.points, i.detail] for i in breakdown.items] == turn[variant]["items"]
        state.check_invariants()
    totals = [sum(t[variant]["points"] for t in EXAMPLE["turns"] if t["player"] == seat) for seat in (0, 1)]
    assert list(state.scores()) == totals and totals[0] + totals[1] == sum(SHEET_CLASSIC) + (variant == "plus") * 12
